"""A release of a real host, installed from its registry into a cache folder of hooksim's own.

``hooksim conformance`` runs several releases of one agent CLI side by side, so each goes into
a folder of its own, ``CACHE/HOST/VERSION``, never into the user's global packages:

- an npm package (``Source("npm", ...)``, the default for a driver whose ``package`` is an npm
  name): an npm ``--prefix``, the executable ``node_modules/.bin/NAME`` inside it, with the
  packages the source installs beside it (OpenClaw's Node 24); it is installed into a temporary
  folder beside its place and moved there only once npm succeeded;
- a Python package (``Source("pypi", ...)``, Hermes): a virtual environment of hooksim's own
  interpreter, the executable ``bin/NAME``; a venv cannot move (its scripts name their
  interpreter by path), so it is made in place and counts as installed once pip succeeded and
  left its ``.installed`` mark.

Either way an interrupted install is never taken for a finished one. A release already there is
used as it is. npm and pip run with hooksim's own environment: the machine's registry, proxy and
certificate settings (``NODE_EXTRA_CA_CERTS``, ``npm_config_*``, ``PIP_*``) reach them unchanged.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .. import beneath
from .driver import Driver

NPM_TIMEOUT_S = 900.0  # a release with a native binary is a few hundred MB


INSTALLED_MARK = ".installed"  # in a venv once pip installed the release into it


class InstallError(Exception):
    """npm or pip could not install a release; ``str()`` is the one line to print."""


@dataclass(frozen=True)
class Source:
    """Where a host's releases come from: the registry (``npm`` or ``pypi``), the package, and
    what npm installs beside it with which flags (a Node of its own, ``--ignore-scripts``)."""

    registry: str
    package: str
    beside: tuple[str, ...] = ()
    npm_flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Installed:
    """One installed release: its executable, what its package asks of its runtime (npm's
    ``engines.node``, pip's ``Requires-Python``), which tool installed it, and how long that
    took (0 when it was already in the cache)."""

    binary: Path
    needs: str
    seconds: float
    by: str = "npm"


def source_of(driver: type[Driver]) -> Source | None:
    """The driver's ``release_source``, else its ``package`` on npm when that is a scoped npm
    name (``@scope/name``); None: hooksim cannot install its releases."""
    declared: Source | None = getattr(driver, "release_source", None)
    if declared is not None:
        return declared
    return Source("npm", driver.package) if driver.package.startswith("@") else None


def default_cache() -> Path:
    """``$XDG_CACHE_HOME/hooksim/hosts``, else ``~/.cache/hooksim/hosts``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hooksim" / "hosts"


# What a release may be called: a registry's answer (an npm dist-tag can hold any string) or a
# user's ``--versions`` becomes a folder name, so only a plain version is one: a digit first,
# then letters, digits, ``.``, ``+`` and ``-``, no ``..`` (npm's semver and PEP 440 both fit).
RELEASE_NAME = re.compile(r"[0-9][0-9A-Za-z.+-]{0,63}")


def check_release_name(version: str) -> str:
    """``version`` when it is a plain release name, else ValueError saying why (escaped)."""
    if not RELEASE_NAME.fullmatch(version) or ".." in version:
        raise ValueError(
            f"{version[:80]!r} is not a release name (a digit, then letters, digits, '.', '+' "
            "or '-'); refused before it names any folder"
        )
    return version


def release_dir(cache: Path, host: str, version: str) -> Path:
    """Where one release of ``host`` lives in the cache (the npm prefix); ValueError for a
    version that is not a plain release name."""
    return cache / host / check_release_name(version)


def _remove_release(prefix: Path) -> None:
    """Remove a release's folder below its host's folder, through a handle on that folder and
    never through a link (``beneath.remove``): a link planted there goes itself, never what it
    points at, and a name that is not one entry of that folder is refused."""
    if prefix.name in ("", ".", "..") or "/" in prefix.name:
        raise InstallError(f"{prefix} is not a release folder of the cache; left alone")
    with contextlib.suppress(OSError):  # what cannot go stays: the install then says why
        beneath.remove(prefix.parent.resolve(), prefix.name)


def executable(prefix: Path, driver: type[Driver]) -> Path:
    """The release's executable inside its folder."""
    source = source_of(driver)
    if source is not None and source.registry == "pypi":
        return prefix / "bin" / driver.binary
    return prefix / "node_modules" / ".bin" / driver.binary


def install_release(driver: type[Driver], version: str, cache: Path) -> Installed:
    """The host's package at ``version`` in the cache: found there, or installed by npm or pip."""
    source = source_of(driver)
    assert source is not None, f"{driver.name}: no release source"
    if source.registry == "pypi":
        return _venv_release(driver, source, version, cache)
    return _npm_release(driver, source, version, cache)


def _npm_release(driver: type[Driver], source: Source, version: str, cache: Path) -> Installed:
    prefix = release_dir(cache, driver.name, version)
    binary = executable(prefix, driver)
    if binary.exists():
        return Installed(binary, engines_node(prefix, source.package), 0.0)
    started = time.monotonic()
    prefix.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{version}.", dir=prefix.parent))
    spec = f"{source.package}@{version}"
    try:
        _npm_install([*source.npm_flags, *source.beside, spec], spec, partial)
        if not executable(partial, driver).exists():
            raise InstallError(f"npm installed {spec} without a node_modules/.bin/{driver.binary}")
        _remove_release(prefix)  # a broken earlier copy, if any
        os.replace(partial, prefix)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    seconds = time.monotonic() - started
    return Installed(binary, engines_node(prefix, source.package), seconds)


def _venv_release(driver: type[Driver], source: Source, version: str, cache: Path) -> Installed:
    """A venv of hooksim's interpreter holding ``source.package==version``, made in place."""
    prefix = release_dir(cache, driver.name, version)
    binary = executable(prefix, driver)
    if (prefix / INSTALLED_MARK).exists() and binary.exists():
        return Installed(binary, requires_python(prefix, source.package), 0.0, "pip")
    started = time.monotonic()
    _remove_release(prefix)  # an interrupted earlier install, if any
    prefix.parent.mkdir(parents=True, exist_ok=True)
    spec = f"{source.package}=={version}"
    try:
        _run([sys.executable, "-m", "venv", str(prefix)], f"make a venv for {spec}", "venv")
        _run(
            [
                str(prefix / "bin" / "python"),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                spec,
            ],
            f"install {spec}",
            "pip",
        )
        if not binary.exists():
            raise InstallError(f"pip installed {spec} without a bin/{driver.binary}")
    except InstallError:
        _remove_release(prefix)
        raise
    (prefix / INSTALLED_MARK).write_text(f"{spec}\n", encoding="utf-8")
    seconds = time.monotonic() - started
    return Installed(binary, requires_python(prefix, source.package), seconds, "pip")


def _npm_install(specs: list[str], spec: str, prefix: Path) -> None:
    """``npm install --prefix PREFIX SPECS``; InstallError with npm's last line on failure."""
    argv = [
        "npm",
        "install",
        "--prefix",
        str(prefix),
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        *specs,
    ]
    _run(argv, f"install {spec}", "npm")


def _run(argv: list[str], what: str, tool: str) -> None:
    """Run an installer; InstallError naming ``what`` with its last line on failure."""
    run_client(argv, what, tool, timeout_s=NPM_TIMEOUT_S)


def run_client(argv: list[str], what: str, tool: str, *, timeout_s: float) -> str:
    """Run a package client (npm, pip, venv) to its end and give its stdout; InstallError
    naming ``what`` and the client's last line when it cannot run, times out or fails."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout_s, check=False)
    except FileNotFoundError:
        raise InstallError(f"cannot {what}: {tool} is not on PATH") from None
    except subprocess.TimeoutExpired:
        raise InstallError(f"{tool} did not {what} within {timeout_s:g}s") from None
    except OSError as e:
        raise InstallError(f"cannot run {tool} to {what} ({e.strerror or e})") from None
    if done.returncode != 0:
        said = [
            line.strip()
            for line in (done.stderr or done.stdout).splitlines()
            if line.strip() and not line.startswith("WARNING:")
        ]
        last = said[-1] if said else "no output"
        raise InstallError(f"{tool} could not {what} (exit {done.returncode}): {last}")
    return done.stdout


def engines_node(prefix: Path, package: str) -> str:
    """The Node versions the release's ``package.json`` asks for (``engines.node``), or ``-``."""
    manifest = prefix / "node_modules" / package / "package.json"
    try:
        engines = json.loads(manifest.read_text(encoding="utf-8")).get("engines") or {}
    except (OSError, ValueError, AttributeError):
        return "-"
    return str(engines.get("node") or "-") if isinstance(engines, dict) else "-"


def requires_python(prefix: Path, package: str) -> str:
    """The Python versions the installed distribution asks for (``Requires-Python``), or ``-``."""
    name = re.sub(r"[-_.]+", "_", package)
    for metadata in sorted(prefix.glob(f"lib/python*/site-packages/{name}-*.dist-info/METADATA")):
        for line in metadata.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("Requires-Python:"):
                return line.split(":", 1)[1].strip() or "-"
    return "-"


def node_version(node: str = "node") -> str:
    """The version of ``node`` (by default the one on PATH), ``-`` when there is none."""
    try:
        done = subprocess.run(
            [node, "--version"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return "-"
    return done.stdout.strip() or "-"
