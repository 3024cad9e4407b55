"""What a CI service shows beside the code: GitHub Actions annotations and a SARIF log.

Both are drawn from report entries (``formats.entry``), one per run that failed or could not
run, at the scenario file and the line its entry names: the key under ``expect:`` that failed,
the hook a built-in check names, the line an error starts with (``file:line:``), else line 1.
Whatever a hook prints or a file is called, the output stays well-formed: a character that
does not print shows as its escape (``\\x1b``), an annotation stays on one line, a SARIF file
is valid UTF-8 JSON.
"""

from __future__ import annotations

import functools
import json
import os
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..printable import escaped
from .formats import capped, shown_host, verdict

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _problems(entries: list[dict[str, Any]]) -> list[tuple[dict[str, Any], str, str, int]]:
    """``(entry, rule, message, line)`` of each entry that failed or could not run."""
    found = []
    for entry in entries:
        said = verdict(entry)
        if said not in ("FAIL", "ERROR"):
            continue
        failures = entry.get("failures") or []
        message = str(entry.get("error")) if said == "ERROR" else "\n".join(failures)
        rule = (entry.get("rules") or ["error" if said == "ERROR" else "expect"])[0]
        found.append((entry, rule, message, max(1, (entry.get("lines") or [1])[0])))
    return found


def _title(entry: dict[str, Any]) -> str:
    """``FAIL name [host]``: the verdict, the scenario's name, its host when it is named."""
    host = shown_host(entry)
    return f"{verdict(entry)} {entry['name']}" + (f" [{host}]" if host else "")


def _artifact(path: str) -> str:
    """A scenario's path as CI names files: relative to the working directory when under it."""
    if os.path.isabs(path):
        try:
            return Path(os.path.relpath(path)).as_posix()
        except ValueError:  # another drive
            return Path(path).as_posix()
    return Path(path).as_posix()


def github_annotations(entries: list[dict[str, Any]]) -> list[str]:
    """A GitHub Actions ``::error`` workflow command per run that failed or could not run."""
    lines = []
    for entry, _, message, line in _problems(entries):
        file = _artifact(entry["path"])
        lines.append(
            f"::error file={_property(file)},line={line},title={_property(_title(entry))}"
            f"::{_data(message)}"
        )
    return lines


def _data(text: str) -> str:
    """A workflow command's message: escaped as GitHub's runner unescapes it (``%``, CR, LF),
    each other character that does not print as its Python escape."""
    shown = escaped(capped(text), keep="\n\r\t")
    return shown.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A workflow command's property value: as a message, and ``:`` and ``,`` too."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def _rule(rule: str) -> dict[str, Any]:
    """A SARIF rule for a kind of failure: ``expect.KEY``, ``checks.NAME`` or ``error``."""
    kind, _, key = rule.partition(".")
    if kind == "checks":
        text = f"the built-in check {key} fails (opt out: checks: {{{key}: false}})"
    elif kind == "error":
        text = "the scenario cannot run: it does not load, or its run stopped"
    else:
        text = f"the expectation {key or 'of the scenario'} does not hold"
    return {"id": rule, "shortDescription": {"text": text}}


def sarif(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one result per run that failed or could not run, its rule the kind
    of its first failure, at the scenario file (a relative URI) and the line of that failure."""
    rules: list[str] = []
    results = []
    for entry, rule, message, line in _problems(entries):
        if rule not in rules:
            rules.append(rule)
        results.append(
            {
                "ruleId": rule,
                "ruleIndex": rules.index(rule),
                "level": "error",
                "message": {"text": escaped(capped(f"{message}\n({_title(entry)})"))},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": _uri(entry["path"])},
                            "region": {"startLine": line},
                        }
                    }
                ],
            }
        )
    driver = {"name": "hooksim", "version": _version(), "rules": [_rule(r) for r in rules]}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "results": results}],
    }


def _uri(path: str) -> str:
    """A scenario's path as a URI: relative and percent-encoded, or ``file:`` when outside."""
    shown = _artifact(path)
    if os.path.isabs(shown):
        return Path(shown).as_uri()
    return quote(shown, safe="/", errors="surrogateescape")


@functools.cache
def _version() -> str:
    """The installed distribution's version (``hermes-hooks``, which ships hooksim)."""
    try:
        return metadata.version("hermes-hooks")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "0+unknown"


def write_sarif(entries: list[dict[str, Any]], path: str | Path) -> None:
    """The ``sarif`` log of ``entries`` as a JSON file."""
    Path(path).write_text(
        json.dumps(sarif(entries), indent=2, ensure_ascii=False) + "\n",
        encoding="utf-8",
        errors="backslashreplace",
    )
