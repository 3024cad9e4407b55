"""Every bridge call is credited to the hook process that made it (or its child), in the
timeline, --json and JUnit, whether the host runs an event's hooks one after another or together."""

from __future__ import annotations

import json
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path

from hooksim.hosts.hermes.hook_package import installed_hooks

from tests.console import console

CALL = 'echo "{{}}" | eval "$WAGGLE_MIND_CMD call {tool}" >/dev/null'


def _hermes_file(tmp_path: Path) -> Path:
    stop = installed_hooks()["post_llm_call"][0]["command"]
    hooks = {
        "post_llm_call": [
            {"command": "true"},
            {"command": stop},
            {"command": "sh -c 'exit 3'"},
            {
                "command": "sh -c "
                + shlex.quote("(" + CALL.format(tool="start_session") + ") & wait")
            },
        ]
    }
    path = tmp_path / "hermes.yaml"
    path.write_text(
        json.dumps(
            {
                "name": "four hooks after the response",
                "env": {"WAGGLE_HERMES_COMPACT_ON_STOP": "1"},
                "hooks": hooks,
                "turns": [{"user": "hi", "assistant": "hello"}],
                "expect": {"exit_codes": {"post_llm_call": [0, 3], "*": 0}},
            }
        )
    )
    return path


def _claude_file(tmp_path: Path) -> Path:
    group = [
        {"type": "command", "command": "true"},
        {"type": "command", "command": CALL.format(tool="save_memory")},
        {"type": "command", "command": "sh -c " + shlex.quote(CALL.format(tool="cleanup_frames"))},
        {"type": "command", "command": "exit 0"},
    ]
    path = tmp_path / "claude.yaml"
    path.write_text(
        json.dumps(
            {
                "name": "four hooks at stop",
                "tool": "claude-code",
                "hooks": {"Stop": [{"hooks": group}]},
                "turns": [{"user": "hi", "assistant": "hello"}],
            }
        )
    )
    return path


def _calls_by_command(entry: dict[str, object]) -> dict[str, list[str]]:
    hooks = entry["hooks"]
    calls = entry["bridge_calls"]
    assert isinstance(hooks, list)
    assert isinstance(calls, list)
    by: dict[str, list[str]] = {
        h["command"]: [] for h in hooks if h["event"] in ("post_llm_call", "Stop")
    }
    for call in calls:
        if call["hook"] is not None and hooks[call["hook"]]["event"] in ("post_llm_call", "Stop"):
            by[hooks[call["hook"]]["command"]].append(call["tool"])
    return by


def test_sequential_hooks_on_hermes_each_get_their_own_calls(tmp_path: Path) -> None:
    """Hermes runs an event's hooks in order; each call sits under the hook (or child) that made it."""
    path = _hermes_file(tmp_path)
    report = tmp_path / "run.json"
    result = console("hooksim", "run", path, "--json", report)
    assert result.returncode == 0, result.stdout + result.stderr
    (entry,) = json.loads(report.read_text())
    stop = installed_hooks()["post_llm_call"][0]["command"]
    by = _calls_by_command(entry)
    assert by == {
        "true": [],
        stop: ["save_memory", "cleanup_frames"],
        "sh -c 'exit 3'": [],
        "sh -c " + shlex.quote("(" + CALL.format(tool="start_session") + ") & wait"): [
            "start_session"
        ],
    }


def test_parallel_hooks_on_claude_code_each_get_their_own_calls(tmp_path: Path) -> None:
    """Claude Code runs an event's hooks together; attribution does not depend on who finished first."""
    path = _claude_file(tmp_path)
    report, junit = tmp_path / "run.json", tmp_path / "junit.xml"
    result = console("hooksim", "run", path, "--json", report, "--junit-xml", junit)
    assert result.returncode == 0, result.stdout + result.stderr
    (entry,) = json.loads(report.read_text())
    assert _calls_by_command(entry) == {
        "true": [],
        CALL.format(tool="save_memory"): ["save_memory"],
        "sh -c " + shlex.quote(CALL.format(tool="cleanup_frames")): ["cleanup_frames"],
        "exit 0": [],
    }
    out = ET.parse(junit).getroot().find("testcase/system-out")
    assert out is not None
    assert out.text is not None
    lines = out.text.splitlines()
    pad = " " * 38
    save = lines.index(
        f"  turn   1  2026-06-01 09:00:00  Stop                 exit 0     {CALL.format(tool='save_memory')}"
    )
    assert lines[save + 1].startswith(f"{pad}stdin: {{")
    assert lines[save + 2] == f"{pad}-> save_memory #1 ok"
    true = lines.index("  turn   1  2026-06-01 09:00:00  Stop                 exit 0     true")
    assert not lines[true + 2].startswith(f"{pad}->")


def test_the_timeline_of_a_failure_credits_the_right_hook(tmp_path: Path) -> None:
    """The failure timeline lists the Stop save under hermes-hooks stop, not under the first hook."""
    path = _hermes_file(tmp_path)
    data = json.loads(path.read_text())
    data["expect"] = {"calls": {"save_memory": 9}}
    path.write_text(json.dumps(data))
    result = console("hooksim", "run", path)
    assert result.returncode == 1
    stop = installed_hooks()["post_llm_call"][0]["command"]
    lines = result.stdout.splitlines()
    pad = " " * 38
    first = lines.index("  turn   1  2026-06-01 09:00:00  post_llm_call        exit 0     true")
    assert (
        lines[first + 1]
        == f"  turn   1  2026-06-01 09:00:00  post_llm_call        exit 0     {stop}"
    )
    assert lines[first + 2 : first + 4] == [
        f"{pad}-> save_memory #1 ok",
        f"{pad}-> cleanup_frames #1 ok",
    ]
