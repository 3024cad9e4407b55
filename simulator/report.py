"""What a run looks like to a person (a turn-by-turn timeline) and to CI (JUnit XML, JSON)."""

from __future__ import annotations

import datetime as dt
import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .runner import RunResult


@dataclass
class Outcome:
    """One scenario's verdict: failures (empty = passed) or an error that kept it from running."""

    path: Path
    name: str
    failures: list[str]
    result: RunResult | None = None
    error: str | None = None
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.failures and self.error is None


def _clock(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def timeline(result: RunResult) -> str:
    """The session turn by turn: virtual time, event, command, exit code, bridge calls."""
    lines = []
    calls_by_hook: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for call in result.calls:
        calls_by_hook.setdefault((call["turn"], call["event"]), []).append(call)
    shown: set[tuple[int, str]] = set()
    for run in result.runs:
        ended = run.spawn_error or ("timeout" if run.timed_out else f"exit {run.exit_code}")
        lines.append(
            f"  turn {run.turn:>3}  {_clock(run.virtual_ms)}  {run.event:<20} {ended:<10} {run.command}"
        )
        key = (run.turn, run.event)
        if key not in shown:
            shown.add(key)
            for call in calls_by_hook.get(key, []):
                lines.append(f"{'':>38}-> {call['tool']} #{call['call']} {call['outcome']}")
        if run.stderr.strip():
            lines.append(f"{'':>38}stderr: {run.stderr.strip().splitlines()[-1][:160]}")
        if run.context is not None:
            lines.append(f"{'':>38}context injected: {run.context[:160]!r}")
        elif run.stdout:
            lines.append(f"{'':>38}stdout (ignored by Hermes): {run.stdout.strip()[:160]!r}")
    for warning in result.warnings:
        lines.append(f"  hermes would warn: {warning}")
    return "\n".join(lines)


def failure_text(outcome: Outcome) -> str:
    """Expected and actual side by side, then the timeline."""
    if outcome.error:
        return outcome.error
    parts = [f"  {line}" for line in outcome.failures]
    if outcome.result is not None:
        parts.append("  timeline:")
        parts.append(timeline(outcome.result))
    return "\n".join(parts)


def write_junit(outcomes: list[Outcome], path: str | Path) -> None:
    suite = ET.Element(
        "testsuite",
        name="hooksim",
        tests=str(len(outcomes)),
        failures=str(sum(bool(o.failures) for o in outcomes)),
        errors=str(sum(o.error is not None for o in outcomes)),
        time=f"{sum(o.seconds for o in outcomes):.3f}",
    )
    for o in outcomes:
        case = ET.SubElement(
            suite, "testcase", classname=str(o.path), name=o.name, time=f"{o.seconds:.3f}"
        )
        if o.error is not None:
            ET.SubElement(case, "error", message=o.error.splitlines()[0]).text = o.error
        elif o.failures:
            ET.SubElement(case, "failure", message=o.failures[0]).text = failure_text(o)
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)


def to_json(outcomes: list[Outcome]) -> list[dict[str, Any]]:
    out = []
    for o in outcomes:
        entry: dict[str, Any] = {
            "path": str(o.path),
            "name": o.name,
            "passed": o.passed,
            "failures": o.failures,
            "error": o.error,
            "seconds": round(o.seconds, 3),
        }
        if o.result is not None:
            entry["hooks"] = [
                {
                    "turn": r.turn,
                    "event": r.event,
                    "command": r.command,
                    "virtual_ms": r.virtual_ms,
                    "exit_code": r.exit_code,
                    "timed_out": r.timed_out,
                    "spawn_error": r.spawn_error,
                    "duration_s": round(r.duration_s, 4),
                    "stdout": r.stdout,
                    "stderr": r.stderr,
                    "context": r.context,
                }
                for r in o.result.runs
            ]
            entry["bridge_calls"] = o.result.calls
            entry["state_file"] = o.result.state_file
            if o.result.workdir is not None and o.result.workdir.exists():
                entry["workdir"] = str(o.result.workdir)
        out.append(entry)
    return out


def write_json(outcomes: list[Outcome], path: str | Path) -> None:
    Path(path).write_text(
        json.dumps(to_json(outcomes), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
