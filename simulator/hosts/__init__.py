"""The host registry: the one place that lists the agent CLIs hooksim replays.

Each host is a folder, ``hosts/<folder>/``: its profile (``profile.py``, whose ``PROFILE`` is
the class; attributes and rules), its session loop, payloads and output reading, its
transcript writer, its facts as data, and its parts of the stages above: what a real run of it
needs (``real``), the words ``hooksim explore`` draws (``explore``), and what its replay needs
beyond the shell hosts' (``replay``: OpenClaw's handlers run in a Node process). The modules
here beside the folders are what every host shares (``records``, ``profile``, ``session``,
``config``, ``output``, ``transcript``, ``conversation``, ...).

``HOSTS`` maps a scenario's ``tool:`` to its profile, loaded from ``FOLDERS``; a stage asks a
profile what differs per host and never names one. A stage that needs a host's own code reaches
it through ``part()``, which imports it the first time it is asked for.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .given import contains, readings
from .profile import Host
from .records import LIFECYCLE, ConfigError, Firing, HookRun, HookSpec, Plugin, PluginHooks, Verdict
from .session import Session, SessionInfo

# The hosts hooksim knows, by folder, in the order tables list them.
FOLDERS = ("hermes", "claude_code", "codex", "cursor", "gemini_cli", "openclaw")


def _profile(folder: str) -> Host:
    profile: type[Host] = importlib.import_module(f"{__name__}.{folder}.profile").PROFILE
    return profile()


HOSTS: dict[str, Host] = {host.name: host for host in map(_profile, FOLDERS)}
# The host of a scenario that names no ``tool:``.
DEFAULT_HOST = "hermes"


def part(host: Host, name: str) -> ModuleType | None:
    """``host``'s own module ``name`` for a stage above the profiles (``real``, ``explore``,
    ``replay``), from the folder its profile is in; None where the folder has none."""
    # The folder of the profile it is, or is made from (a test's mutant subclasses one).
    folder = next(
        (c.__module__.rpartition(".")[0] for c in type(host).__mro__
         if c.__module__.startswith(f"{__name__}.") and c.__module__.endswith(".profile")),
        "",
    )  # fmt: skip
    if not folder:
        return None
    try:
        return importlib.import_module(f"{folder}.{name}")
    except ModuleNotFoundError as e:
        if e.name == f"{folder}.{name}":
            return None
        raise


class UnknownHost(LookupError):
    """A tool name hooksim has no profile for; ``str()`` says which names exist."""


def get_host(name: str) -> Host:
    """The profile for ``name``; an unknown name raises UnknownHost naming those that exist."""
    if name in HOSTS:
        return HOSTS[name]
    raise UnknownHost(f"unknown tool {name!r} (hooksim knows: {', '.join(HOSTS)})")


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
    rows = [(name, [h.table_cells.get(name, c) for h, c in zip(hosts, cells, strict=True)])
            for name, cells in rows]  # fmt: skip
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


__all__ = [
    "DEFAULT_HOST",
    "FOLDERS",
    "HOSTS",
    "LIFECYCLE",
    "TABLE_END",
    "TABLE_START",
    "ConfigError",
    "Firing",
    "HookRun",
    "HookSpec",
    "Host",
    "Plugin",
    "PluginHooks",
    "Session",
    "SessionInfo",
    "UnknownHost",
    "Verdict",
    "contains",
    "get_host",
    "lifecycle_table",
    "part",
    "readings",
    "sources_text",
    "with_table",
]
