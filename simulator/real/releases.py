"""The newest release of a host on its registry, and its newest pre-release where it has one.

``hooksim conformance HOST --latest`` and ``--next`` ask the registry the host ships on, with
its ordinary client, as a user would:

- npm: ``npm view PACKAGE dist-tags --json``; ``latest`` is the tag of that name, ``next`` the
  ``next`` tag, else the ``beta`` tag;
- the Python package index: ``pip index versions PACKAGE`` (with ``--pre`` for ``next``), newest
  first; ``latest`` is the newest final release, ``next`` the newest release when it is a
  pre-release (``0.20.0rc1``) newer than every final one.

A host that publishes no pre-release has no ``next`` (None). The client's failure is one line
(``LookupError``).
"""

from __future__ import annotations

import json
import re

from .install import InstallError, Source, check_release_name, run_client

LOOKUP_TIMEOUT_S = 120.0
_FINAL = re.compile(r"\d+(\.\d+)*")
NEXT_TAGS = ("next", "beta")


def newest(source: Source, *, pre: bool) -> str | None:
    """The newest release of ``source`` (``pre``: its newest pre-release, or None).

    The registry's answer names a folder of the install cache: one that is not a plain release
    name (``..``, a path, control characters) is a LookupError, before anything is installed.
    """
    found = (
        _pypi(source.package, pre=pre)
        if source.registry == "pypi"
        else _npm(source.package, pre=pre)
    )
    if found is None:
        return None
    try:
        return check_release_name(found.removeprefix("v"))
    except ValueError as e:
        raise LookupError(f"the registry answered {e}") from None


def _npm(package: str, *, pre: bool) -> str | None:
    said = _ask(["npm", "view", package, "dist-tags", "--json"], "npm")
    try:
        tags = json.loads(said)
    except ValueError:
        raise LookupError(
            f"npm view {package} dist-tags: not JSON: {said.strip()[:80]!r}"
        ) from None
    if not isinstance(tags, dict) or not isinstance(tags.get("latest"), str):
        raise LookupError(f"npm view {package} dist-tags: no 'latest' tag in {said.strip()[:80]}")
    if not pre:
        return str(tags["latest"])
    return next((str(tags[t]) for t in NEXT_TAGS if isinstance(tags.get(t), str)), None)


def _pypi(package: str, *, pre: bool) -> str | None:
    argv = ["pip", "index", "versions", package, "--disable-pip-version-check"]
    said = _ask([*argv, "--pre"] if pre else argv, "pip")
    listed = next(
        (
            line.split(":", 1)[1]
            for line in said.splitlines()
            if line.startswith("Available versions:")
        ),
        None,
    )
    versions = [v.strip() for v in (listed or "").split(",") if v.strip()]
    if not versions:
        raise LookupError(f"pip index versions {package}: no release listed")
    if not pre:
        final = next((v for v in versions if _FINAL.fullmatch(v)), None)
        if final is None:
            raise LookupError(f"pip index versions {package}: no final release listed")
        return final
    return None if _FINAL.fullmatch(versions[0]) else versions[0]


def _ask(argv: list[str], tool: str) -> str:
    """The client's stdout; LookupError with its last line when it fails."""
    try:
        return run_client(argv, "ask the registry", tool, timeout_s=LOOKUP_TIMEOUT_S)
    except InstallError as e:
        raise LookupError(str(e)) from None
