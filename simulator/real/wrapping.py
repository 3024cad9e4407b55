"""The scenario's hooks as a real host (or a recorded replay) runs them: the recorder in front.

``wrap_hooks`` rewrites a hooks block in the host's own format so that every command runs
behind ``hook_recorder`` (``recorder_command``: the command installed in its place), and adds a
probe hook (``probe.EVENT``) on every event worth watching, so that a firing with no matching
hook is still seen. It also returns the original commands by id, which the recorder reads from
its spec file.
"""

from __future__ import annotations

import copy
import shlex
import sys
from pathlib import Path
from typing import Any

from ..hosts import Host
from .hook_recorder import PROBE


def recorder_command(spec: Path, hook_id: str, *, shell: bool = True) -> str:
    """The command installed in place of a hook (see ``hook_recorder``); ``shell=False`` for a
    host that splits the command itself and runs it without a shell (Hermes)."""
    command = shlex.join(
        [sys.executable, "-I", "-m", "hooksim.real.hook_recorder", str(spec), hook_id]
    )
    return command + "; exit $?" if shell else command


def wrap_matcher_groups(
    block: Any, spec: Path, probe_events: list[str]
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """A ``{Event: [{matcher, hooks: [...]}]}`` block with the recorder in front of every command
    and a probe group on each of ``probe_events``; also the original hooks by id."""
    wrapped: dict[str, Any] = copy.deepcopy(block) if isinstance(block, dict) else {}
    hooks: dict[str, dict[str, Any]] = {}
    for event, groups in wrapped.items():
        for g, group in enumerate(groups if isinstance(groups, list) else []):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if isinstance(handler, dict) and isinstance(handler.get("command"), str):
                    hook_id = f"{event}.{g}.{h}"
                    hooks[hook_id] = {"event": event, "command": handler["command"]}
                    handler["command"] = recorder_command(spec, hook_id)
    for event in probe_events:
        wrapped.setdefault(event, []).append(
            {"hooks": [{"type": "command", "command": recorder_command(spec, f"{PROBE}.{event}")}]}
        )
    return wrapped, hooks


def wrap_hermes_entries(
    block: Any, spec: Path, probe_events: list[str]
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """Hermes' ``{event: [{command, matcher, timeout}]}`` block, wrapped as
    ``wrap_matcher_groups`` wraps the others (the recorder runs each command as Hermes would)."""
    wrapped: dict[str, Any] = copy.deepcopy(block) if isinstance(block, dict) else {}
    hooks: dict[str, dict[str, Any]] = {}
    for event, entries in wrapped.items():
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            if isinstance(entry, dict) and isinstance(entry.get("command"), str):
                hook_id = f"{event}.{i}"
                hooks[hook_id] = {"event": event, "command": entry["command"]}
                entry["command"] = recorder_command(spec, hook_id, shell=False)
    for event in probe_events:
        entries = wrapped.get(event)
        wrapped[event] = [*(entries if isinstance(entries, list) else []),
                          {"command": recorder_command(spec, f"{PROBE}.{event}", shell=False)}]  # fmt: skip
    return wrapped, hooks


def wrap_hooks(
    host: Host, block: Any, spec: Path
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The scenario's hooks with the recorder in front of each, and a probe on every event."""
    wrap = wrap_hermes_entries if host.name == "hermes" else wrap_matcher_groups
    return wrap(block, spec, probe_events(host, block))


def probe_events(host: Host, block: Any) -> list[str]:
    """Events to watch: the host's lifecycle events, its stop-failure event, and any the
    scenario's hooks name."""
    events = [e for e in host.events.values() if e]
    events += [e for e in getattr(host, "probe_extra", ()) if e not in events]
    if isinstance(block, dict):
        events += [e for e in block if isinstance(e, str) and e not in events]
    return events
