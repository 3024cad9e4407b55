"""Recordings made the real way: a host config tapped by ``hooksim record start``, a session
run by hooksim through the tapped hooks (real processes), ``record stop``."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from hooksim.cli import main
from hooksim.hosts import HOSTS
from hooksim.replay.runner import RunResult, run_scenario
from hooksim.scenario import load_scenario

# The hosts whose hooks are commands a tap can stand in front of (not OpenClaw's handlers).
TAPPED = sorted(name for name, host in HOSTS.items() if not host.tap_refused)
HOOK = "cat > /dev/null; echo '{\"ok\": true}' >&2"
# Events some hosts fire beyond their lifecycle points.
OWN_EVENTS = {
    "claude-code": ["StopFailure"],
    "codex": ["StopFailure"],
    "cursor": ["afterAgentResponse"],
    "hermes": ["on_session_end", "on_session_reset"],
}


def every_event(tool: str) -> list[str]:
    """Each event of the host's lifecycle, and the host's own."""
    return [e for e in HOSTS[tool].events.values() if e] + OWN_EVENTS.get(tool, [])


def config_for(tool: str, folder: Path, events: list[str] | None = None) -> Path:
    """A config file of ``tool`` with one hook on each of ``events`` (default: every event)."""
    events = every_event(tool) if events is None else events
    if tool == "hermes":
        path = folder / "config.yaml"
        lines = ["# my Hermes config", "model: hermes-4", "hooks:"]
        for event in events:
            command = json.dumps(f"sh -c {shlex.quote(HOOK)}")
            lines += [f"  {event}:", f"    - command: {command}  # {event}"]
        path.write_text("\n".join(lines) + "\n")
        return path
    name = "hooks.json" if tool in ("codex", "cursor") else "settings.json"
    if tool == "cursor":
        hooks: dict[str, object] = {e: [{"command": HOOK}] for e in events}
        data: dict[str, object] = {"version": 1, "hooks": hooks}
    else:
        data = {"hooks": {e: [{"hooks": [{"type": "command", "command": HOOK}]}] for e in events}}
    path = folder / name
    path.write_text(json.dumps(data, indent=4) + "\n")
    return path


def record(tool: str, config: Path, session: str, out: Path) -> RunResult:
    """Run ``session`` on ``tool`` through the tapped ``config``; the log is in ``out``."""
    args = ["record", "start", "--tool", tool, "--config", str(config), "--out", str(out)]
    assert main(args) == 0
    scenario = out.with_suffix(".session.yaml")
    scenario.write_text(session)
    result = run_scenario(load_scenario(scenario), tool=tool, hooks_config=config)
    assert main(["record", "stop", "--out", str(out)]) == 0
    return result
