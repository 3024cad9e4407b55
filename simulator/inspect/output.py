"""Lint findings as a person reads them, as JSON, as GitHub Actions annotations and as SARIF
(the CI forms written by ``ci_formats``, as ``run``'s verdicts are)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..ci_formats import annotation, sarif_log, sarif_result
from ..printable import escaped
from .lint import RULES, Finding


def text(findings: list[Finding], files: int) -> str:
    """Each finding on a line (``file:line: level rule: message``), its fix and anchor below,
    then how many of each level in how many files."""
    lines = []
    for f in findings:
        where = f"{f.file}:{f.line}" if f.line else f.file
        said = escaped(f"{where}: {f.level} {f.rule}: {f.message}", keep="")
        lines += [said, escaped(f"  fix: {f.fix} ({f.doc})", keep="")]
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


def github(findings: list[Finding], root: Path | None = None) -> list[str]:
    """A GitHub Actions ``::error`` or ``::warning`` workflow command per finding, its file
    relative to ``root`` (default: the working directory)."""
    return [
        annotation(f.level, str(f.path), f.line, f.rule, f"{f.message}\nfix: {f.fix}", root=root)
        for f in findings
    ]


def sarif(findings: list[Finding], root: Path | None = None) -> dict[str, Any]:
    """A SARIF 2.1.0 log: a rule per rule found, a result per finding."""
    rules: list[str] = []
    results = [
        sarif_result(
            f.rule,
            rules,
            f.level,
            f"{f.message}\nfix: {f.fix}",
            path=str(f.path),
            line=f.line,
            root=root,
        )
        for f in findings
    ]
    described = [
        {"id": r, "shortDescription": {"text": RULES[r]}, "help": {"text": f"docs/answers.md#{r}"}}
        for r in rules
    ]
    return sarif_log(described, results)
