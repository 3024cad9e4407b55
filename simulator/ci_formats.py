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
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import quote

from . import beneath
from .printable import escaped

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def annotation(level: str, file: str, line: int, title: str, message: str) -> str:
    """A ``::error`` (``::warning``, ...) workflow command at ``file:line``."""
    where = f"file={_property(file)},line={max(1, line)},title={_property(title)}"
    return f"::{level} {where}::{_data(message)}"


def _data(text: str) -> str:
    """A workflow command's message: escaped as GitHub's runner unescapes it (``%``, CR, LF),
    each other character that does not print as its Python escape."""
    shown = escaped(text, keep="\n\r\t")
    return shown.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A workflow command's property value: as a message, and ``:`` and ``,`` too."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def sarif_result(
    rule: str, rules: list[str], level: str, message: str, *, path: str, line: int
) -> dict[str, Any]:
    """One SARIF result of ``rule`` (added to ``rules`` when new) at ``path:line``."""
    if rule not in rules:
        rules.append(rule)
    location = {"artifactLocation": {"uri": artifact_uri(path)},
                "region": {"startLine": max(1, line)}}  # fmt: skip
    return {
        "ruleId": rule,
        "ruleIndex": rules.index(rule),
        "level": level,
        "message": {"text": escaped(message)},
        "locations": [{"physicalLocation": location}],
    }


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


def artifact_path(path: str | Path) -> str:
    """A path as CI names files: relative to the working directory when under it."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return absolute.as_posix() if os.path.isabs(path) else Path(path).as_posix()


def artifact_uri(path: str | Path) -> str:
    """A relative, percent-encoded URI under the working directory, else a ``file:`` one."""
    shown = artifact_path(path)
    if os.path.isabs(shown):
        return Path(shown).as_uri()
    return quote(shown, safe="/", errors="surrogateescape")


@functools.cache
def version() -> str:
    """The installed distribution's version (``hermes-hooks``, which ships hooksim)."""
    try:
        return metadata.version("hermes-hooks")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "0+unknown"
