"""The hosts side by side, as ``hooksim hosts`` prints them: README's lifecycle table
(``lifecycle_table``, kept between its markers by ``with_table``) and every fact each profile
states with its sources (``sources_text``), read from the profiles alone."""

from __future__ import annotations

from . import HOSTS
from .profile import Host
from .records import LIFECYCLE


def lifecycle_table() -> str:
    """The hosts side by side, as a Markdown table built from the profiles' own attributes."""
    hosts = list(HOSTS.values())
    rows: list[tuple[str, list[str]]] = []
    names = {
        "session_start": "session start",
        "prompt_submit": "prompt submit",
        "pre_tool": "before a tool",
        "post_tool": "after a tool",
        "stop": "stop / turn end",
        "pre_compact": "pre-compact",
        "post_compact": "post-compact",
        "session_end": "session end",
    }
    for point in LIFECYCLE:
        cells = []
        for host in hosts:
            event = host.events[point]
            if event is None:
                cells.append("—")
                continue
            cell = f"`{event}`"
            notes = []
            if point == "stop" and host.stop_can_continue:
                notes.append("can continue the turn")
            elif event in host.blocking:
                notes.append("can block")
            if event in host.not_awaited:
                notes.append("not awaited")
            cells.append(cell + (f" ({', '.join(notes)})" if notes else ""))
        rows.append((names[point], cells))
    rows += [
        ("shell tool (`tools: [{shell: CMD}]`)", [f"`{h.shell_tool}`" for h in hosts]),
        ("spawn", [_spawn(h) for h in hosts]),
        (
            "hooks of one event",
            ["in parallel" if h.parallel else "one after another" for h in hosts],
        ),
        ("default timeout", [_timeouts(h) for h in hosts]),
        ("exit 2", [h.exit_2 for h in hosts]),
        ("stop-loop cap", [_stop_cap(h) for h in hosts]),
        ("config", [", ".join(f"`{f}`" for f in h.config_files) for h in hosts]),
        ("modelled on", [h.modelled for h in hosts]),
        ("versions", [h.versions or h.modelled for h in hosts]),
        ("checked against", [h.checked or "its docstring's sources" for h in hosts]),
        ("unverified", [", ".join(f.topic for f in h.unverified()) or "—" for h in hosts]),
    ]
    rows = [
        (name, [h.table_cells.get(name, c) for h, c in zip(hosts, cells, strict=True)])
        for name, cells in rows
    ]
    lines = [
        "| | " + " | ".join(h.title for h in hosts) + " |",
        "|---|" + "---|" * len(hosts),
    ]
    lines += [f"| {name} | " + " | ".join(cells) + " |" for name, cells in rows]
    return "\n".join(lines) + "\n"


def sources_text(hosts: list[Host] | None = None) -> str:
    """Every fact each profile states, with its sources (``hooksim hosts --sources``)."""
    lines: list[str] = []
    for host in hosts or list(HOSTS.values()):
        lines += [f"{host.title} ({host.name}): {host.modelled}"]
        if host.versions:
            lines.append(f"  versions: {host.versions}")
        if host.checked:
            lines.append(f"  checked against: {host.checked}")
        if host.trust:
            lines.append(f"  trust: {host.trust}")
        if not host.facts:
            lines.append("  (its facts are cited in its module's docstring)")
        lines += [f"  {line}" for fact in host.facts for line in fact.lines()]
        lines.append("")
    return "\n".join(lines)


TABLE_START = "<!-- hosts-table:start -->\n"
TABLE_END = "<!-- hosts-table:end -->"


def with_table(text: str) -> str:
    """``text`` (a Markdown file) with the table between its markers replaced by a fresh one."""
    start = text.index(TABLE_START) + len(TABLE_START)
    end = text.index(TABLE_END, start)
    return text[:start] + lifecycle_table() + text[end:]


def _timeouts(host: Host) -> str:
    parts = [f"{host.default_timeout_s:g} s"]
    parts += [f"`{event}` {seconds:g} s" for event, seconds in host.event_timeouts_s.items()]
    unit = "" if host.config_timeout_unit == "s" else f" (configured in {host.config_timeout_unit})"
    return "; ".join(parts) + unit


def _spawn(host: Host) -> str:
    return "exec (no shell)" if host.spawn == "exec" else "shell"


def _stop_cap(host: Host) -> str:
    if not host.stop_can_continue:
        return "—"
    return "none" if host.stop_cap is None else f"{host.stop_cap} {host.stop_cap_unit}"
