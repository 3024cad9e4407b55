"""The two formats CI services show beside the code, shared by every command that writes them
(``run`` and ``show`` for verdicts, ``lint`` for findings): GitHub Actions workflow commands and
SARIF 2.1.0 logs.

Whatever a hook printed or a file is called, the output stays well-formed: a character that does
not print shows as its escape (``\\x1b``), an annotation stays on one line, a SARIF file is valid
UTF-8 JSON with relative, percent-encoded URIs.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

from . import beneath
from .printable import escaped

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def annotation(
    level: str, file: str, line: int, title: str, message: str, *, root: Path | None = None
) -> str:
    """A ``::error`` (``::warning``, ...) workflow command at ``file:line``: the file relative
    to ``root`` (the repository's folder; default: the working directory). A file outside it
    cannot be attached (GitHub shows a file of the repository): the annotation is then the
    run's, and its message names the file and line."""
    attached = attachable(file, root)
    if attached is None:
        where = f"title={_property(title)}"
        message = f"{message}\n(at {expanded(file)}:{max(1, line)}, outside the repository)"
    else:
        where = f"file={_property(attached)},line={max(1, line)},title={_property(title)}"
    return f"::{level} {where}::{_data(message)}"


def expanded(path: str | Path) -> str:
    """A path with ``~`` expanded, absolute."""
    return os.path.abspath(os.path.expanduser(str(path)))


def attachable(path: str | Path, root: Path | None = None) -> str | None:
    """``path`` relative to ``root`` (default: the working directory), ``~`` expanded, as a
    POSIX path; None when it lies outside ``root``."""
    base = Path(os.path.abspath(root if root is not None else Path.cwd()))
    try:
        return Path(expanded(path)).relative_to(base).as_posix()
    except ValueError:
        return None


def _data(text: str) -> str:
    """A workflow command's message: escaped as GitHub's runner unescapes it (``%``, CR, LF),
    each other character that does not print as its Python escape."""
    shown = escaped(text, keep="\n\r\t")
    return shown.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A workflow command's property value: as a message, and ``:`` and ``,`` too."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def sarif_result(
    rule: str,
    rules: list[str],
    level: str,
    message: str,
    *,
    path: str,
    line: int,
    root: Path | None = None,
) -> dict[str, Any]:
    """One SARIF result of ``rule`` (added to ``rules`` when new) at ``path:line``, the path a
    URI relative to ``root`` (default: the working directory). A file outside it has no
    location code scanning could show: the message names it instead."""
    if rule not in rules:
        rules.append(rule)
    attached = attachable(path, root)
    result: dict[str, Any] = {"ruleId": rule, "ruleIndex": rules.index(rule), "level": level}
    if attached is None:
        message = f"{message}\n(at {expanded(path)}:{max(1, line)}, outside the repository)"
    result["message"] = {"text": escaped(message)}
    if attached is not None:
        uri = quote(attached, safe="/", errors="surrogateescape")
        location = {"artifactLocation": {"uri": uri}, "region": {"startLine": max(1, line)}}
        result["locations"] = [{"physicalLocation": location}]
    return result


def sarif_log(rules: list[dict[str, Any]], results: list[dict[str, Any]]) -> dict[str, Any]:
    """A SARIF 2.1.0 log of one hooksim run: its rules and its results."""
    driver = {"name": "hooksim", "version": version(), "rules": rules}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "results": results}],
    }


def write_sarif(log: dict[str, Any], path: str | Path) -> None:
    """A SARIF log as a JSON file (a lone surrogate written as its escape)."""
    text = json.dumps(log, indent=2, ensure_ascii=False) + "\n"
    beneath.write_file(path, text.encode("utf-8", "backslashreplace"))


@functools.cache
def version() -> str:
    """The installed distribution's version (``hermes-hooks``, which ships hooksim)."""
    from importlib import metadata

    try:
        return metadata.version("hermes-hooks")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "0+unknown"
