"""A portability matrix (``hooksim lint --probe``): each configured hook fired once per event
it is configured for, on every host whose hooks are commands, and how each host reads its real
output, in a short word.

The same point of the session on each host is the profiles' own lifecycle: ``Host.events``
maps each point (``pre_tool``, ``prompt_submit``, ``stop``, ...) to the host's event there
(Claude Code's PreToolUse is Gemini CLI's BeforeTool, Cursor's preToolUse, Hermes'
pre_tool_call), as docs/hosts.md's lifecycle table shows. An event outside that lifecycle
(Cursor's beforeShellExecution) fires on its own host only. The firing itself is the caller's
(``hooksim fire``'s answer, a scenario run in a throwaway home); this module plans the firings
and reads the answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..hosts import HOSTS, Host
from .configs import Config

# Fires a hook once: (host, event, command) -> hooksim fire's JSON answer, or {"error": line}.
Fire = Callable[[str, str, str], dict[str, Any]]

HOME = "each in a throwaway home (a temporary HOME and project folder, removed after)"
FAULT_WORDS = {
    "failed": "failed",
    "timed_out": "timed out",
    "refused": "refused",
    "ignored": "ignored",
}


@dataclass
class Row:
    """One hook on one event it is configured for, at its file and line, and each host's
    reading of it (None: the host has no event at that point)."""

    host: Host
    event: str
    command: str
    file: str
    line: int
    cells: dict[str, dict[str, Any] | None] = field(default_factory=dict)


def columns() -> list[Host]:
    """The hosts a hook is fired on: every host whose hooks are commands."""
    return [h for h in HOSTS.values() if not h.in_process]


def rows(configs: list[tuple[Host, list[Config]]]) -> list[Row]:
    """Each hook of the configs once per event it is configured for (an identical command on
    the same host and event once, at its first place)."""
    seen: set[tuple[str, str, str]] = set()
    found = []
    for host, group in configs:
        for spec in (s for config in group for s in config.specs):
            key = (host.name, spec.event, spec.command)
            if key not in seen:
                seen.add(key)
                found.append(Row(host, spec.event, spec.command, spec.source, spec.line))
    return found


def counterpart(row: Row, host: Host) -> str | None:
    """``host``'s event at the point of the session where ``row``'s host fires its event."""
    if host.name == row.host.name:
        return row.event
    point = next((p for p, name in row.host.events.items() if name == row.event), None)
    return host.events.get(point) if point else None


def probe(found: list[Row], fire: Fire) -> list[Row]:
    """``found`` with each host's cell: the hook fired on the host's counterpart event."""
    for row in found:
        for host in columns():
            event = counterpart(row, host)
            fired = fire(host.name, event, row.command) if event else None
            row.cells[host.name] = _cell(event, fired) if event and fired else None
    return found


def _cell(event: str, answer: dict[str, Any]) -> dict[str, Any]:
    """A host's reading of the hook, from fire's answer: its word, and the facts it rests on."""
    if "error" in answer:
        return {"event": event, "reading": "not run", "error": answer["error"]}
    [hook] = answer["hooks"]
    return {
        "event": event,
        "reading": reading(answer),
        "decision": answer["decision"],
        "reason": answer["reason"],
        "context": answer["context"],
        "fault": hook["fault"],
        "verdict": hook["verdict"],
        "exit_code": answer["exit_code"],
    }


def reading(answer: dict[str, Any]) -> str:
    """How the host reads the one hook's output, in a word: its fault (failed, timed out,
    refused), else its decision (block, stop, follow-up), else ``context`` (the model is given
    text) or ``shown`` (the user is), else ``ignored`` (it printed what the host does not
    read), else ``go on``."""
    [hook] = answer["hooks"]
    if hook["fault"] is not None:
        return FAULT_WORDS[hook["fault"]]
    if answer["decision"] != "go on":
        return str(answer["decision"])
    if answer["context"]:
        return "context"
    if answer["shown"]:
        return "shown"
    return "ignored" if hook["stdout"].strip() else "go on"


def text(found: list[Row]) -> str:
    """The matrix for a person: what ran where, a line per hook and event, a column per host,
    then the hosts left out."""
    hosts = [h.name for h in columns()]
    table = [["hook", "event", *hosts]]
    for row in found:
        cells = [(c or {"reading": "-"})["reading"] for c in row.cells.values()]
        table.append([f"{row.file}:{row.line}" if row.line else row.file, row.event, *cells])
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    lines = [
        "  ".join(w.ljust(n) for w, n in zip(line, widths, strict=True)).rstrip() for line in table
    ]
    count = f"{len(found)} hook{'' if len(found) == 1 else 's'}"
    return "\n".join(
        [f"probe: {count} fired once on {len(hosts)} hosts, {HOME}", *lines, left_out()]
    )


def left_out() -> str:
    """A line per host whose hooks are not commands, saying it is left out."""
    return "\n".join(
        f"{h.title} is left out: its hooks are plugins that run inside its own process."
        for h in HOSTS.values()
        if h.in_process
    )


def data(found: list[Row]) -> dict[str, Any]:
    """The matrix as data: the hosts, each row with its cells by host (null: no such event)."""
    return {
        "hosts": [h.name for h in columns()],
        "home": HOME,
        "left_out": left_out(),
        "rows": [
            {
                "file": row.file,
                "line": row.line,
                "host": row.host.name,
                "event": row.event,
                "command": row.command,
                "cells": row.cells,
            }
            for row in found
        ],
    }
