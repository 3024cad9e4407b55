"""What a CI service shows beside the code: GitHub Actions annotations and a SARIF log.

Both are drawn from report entries (``formats.entry``), one per run that failed or could not
run (and one per warning of a run that did not fail, at warning level), at the scenario file
and the line its entry names: the key under ``expect:`` that failed,
the hook a built-in check names, the line an error starts with (``file:line:``), else line 1.
Both are written by ``ci_formats``, which keeps them well-formed whatever a hook printed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..ci_formats import annotation, sarif_log, sarif_result
from ..ci_formats import write_sarif as write_log
from .formats import capped, shown_host, verdict


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


def _warnings(entries: list[dict[str, Any]]) -> list[tuple[dict[str, Any], str, str, int]]:
    """``(entry, rule, message, line)`` of each warning of a run that did not fail on it, at the
    line of the hook it names."""
    found = []
    for entry in entries:
        if verdict(entry) in ("FAIL", "ERROR"):
            continue  # a run that fails says it; under --strict its warnings are its failures
        for warning in entry.get("warnings") or []:
            named = re.search(rf"\({re.escape(str(entry['path']))}:(\d+)[,)]", warning)
            rule = f"checks.{warning.split(':')[0].removeprefix('built-in check ')}"
            found.append((entry, rule, warning, int(named[1]) if named else 1))
    return found


def github_annotations(entries: list[dict[str, Any]], root: Path | None = None) -> list[str]:
    """A GitHub Actions ``::error`` workflow command per run that failed or could not run, and
    a ``::warning`` per warning of the others, at its scenario file relative to ``root`` (the
    repository; default: the working directory)."""
    return [
        annotation("error", entry["path"], line, _title(entry), capped(message), root=root)
        for entry, _, message, line in _problems(entries)
    ] + [
        annotation("warning", entry["path"], line, _title(entry), capped(message), root=root)
        for entry, _, message, line in _warnings(entries)
    ]


def _rule(rule: str) -> dict[str, Any]:
    """A SARIF rule for a kind of failure: ``expect.KEY``, ``checks.NAME`` or ``error``."""
    kind, _, key = rule.partition(".")
    if rule == "checks.output_ignored":
        text = "a hook's output nothing reads (a warning; checks: {output_ignored: true} fails it)"
    elif kind == "checks":
        text = f"the built-in check {key} fails (opt out: checks: {{{key}: false}})"
    elif kind == "error":
        text = "the scenario cannot run: it does not load, or its run stopped"
    else:
        text = f"the expectation {key or 'of the scenario'} does not hold"
    return {"id": rule, "shortDescription": {"text": text}}


def sarif(entries: list[dict[str, Any]], root: Path | None = None) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one result per run that failed or could not run, its rule the kind
    of its first failure, at the scenario file (a relative URI) and the line of that failure."""
    rules: list[str] = []
    results = [
        sarif_result(
            rule,
            rules,
            level,
            capped(f"{message}\n({_title(entry)})"),
            path=entry["path"],
            line=line,
            root=root,
        )
        for level, found in (("error", _problems(entries)), ("warning", _warnings(entries)))
        for entry, rule, message, line in found
    ]
    return sarif_log([_rule(r) for r in rules], results)


def write_sarif(entries: list[dict[str, Any]], path: str | Path, root: Path | None = None) -> None:
    """The ``sarif`` log of ``entries`` as a JSON file."""
    write_log(sarif(entries, root), path)
