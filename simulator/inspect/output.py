"""Lint findings as a person reads them, as JSON, as GitHub Actions annotations and as SARIF.

The CI forms follow ``report.ci``'s: an annotation stays on one line whatever a message holds,
and a SARIF file is a relative URI under the working directory, else a ``file:`` one.
"""

from __future__ import annotations

import json
import os
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..printable import escaped
from .lint import RULES, Finding

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def text(findings: list[Finding], files: int) -> str:
    """Each finding on a line (``file:line: level rule: message``), its fix and anchor below,
    then how many of each level in how many files."""
    lines = []
    for f in findings:
        where = f"{f.file}:{f.line}" if f.line else f.file
        lines += [f"{where}: {f.level} {f.rule}: {f.message}", f"  fix: {f.fix} ({f.doc})"]
    return "\n".join([*lines, summary(findings, files)]) + "\n"


def summary(findings: list[Finding], files: int) -> str:
    """``2 errors, 1 warning in 3 files``, or ``no findings in 3 files``."""
    in_files = f"in {files} file{'' if files == 1 else 's'}"
    if not findings:
        return f"no findings {in_files}"
    errors = sum(f.level == "error" for f in findings)
    warnings = len(findings) - errors
    return (
        f"{errors} error{'' if errors == 1 else 's'}, "
        f"{warnings} warning{'' if warnings == 1 else 's'} {in_files}"
    )


def as_json(findings: list[Finding]) -> str:
    return json.dumps({"findings": [f.data() for f in findings]}, indent=2, ensure_ascii=False)


def github(findings: list[Finding]) -> list[str]:
    """A GitHub Actions ``::error`` or ``::warning`` workflow command per finding."""
    return [
        f"::{f.level} file={_property(f.file)},line={max(1, f.line)},title={_property(f.rule)}"
        f"::{_data(f.message + chr(10) + 'fix: ' + f.fix)}"
        for f in findings
    ]


def _data(message: str) -> str:
    shown = escaped(message, keep="\n\r\t")
    return shown.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(value: str) -> str:
    return _data(value).replace(":", "%3A").replace(",", "%2C")


def sarif(findings: list[Finding]) -> dict[str, Any]:
    """A SARIF 2.1.0 log: a rule per rule found, a result per finding."""
    rules = list(dict.fromkeys(f.rule for f in findings))
    results = [
        {
            "ruleId": f.rule,
            "ruleIndex": rules.index(f.rule),
            "level": f.level,
            "message": {"text": escaped(f"{f.message}\nfix: {f.fix}")},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _uri(f.path)},
                        "region": {"startLine": max(1, f.line)},
                    }
                }
            ],
        }
        for f in findings
    ]
    driver = {
        "name": "hooksim",
        "version": _version(),
        "rules": [
            {"id": r, "shortDescription": {"text": RULES[r]},
             "help": {"text": f"docs/answers.md#{r}"}}
            for r in rules
        ],
    }  # fmt: skip
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "results": results}],
    }


def write_sarif(findings: list[Finding], path: str) -> None:
    Path(path).write_text(json.dumps(sarif(findings), indent=2, ensure_ascii=False) + "\n",
                          encoding="utf-8", errors="backslashreplace")  # fmt: skip


def _uri(path: Path) -> str:
    """A relative, percent-encoded URI under the working directory, else a ``file:`` one."""
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(Path.cwd())
    except ValueError:
        return absolute.as_uri()
    return quote(relative.as_posix(), safe="/", errors="surrogateescape")


def _version() -> str:
    try:
        return metadata.version("hermes-hooks")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "0+unknown"
