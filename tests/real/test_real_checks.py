"""The built-in checks judge a real run as they judge a replay (newcomer trial 3, finding 1): a
hook path typo, a matcher that never matches, a misspelt event and a crash fail ``run --real``
from what the recorder and the probes saw, with no real host needed to show it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hooksim.commands.real import check
from hooksim.hosts import get_host
from hooksim.real.result import RealRun, build_result
from hooksim.scenario import Turn
from hooksim.scenario.model import Scenario

BASH = {"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}}


def _probe(event: str, payload: dict[str, Any], start: float) -> dict[str, Any]:
    return {
        "id": "probe",
        "event": event,
        "turn": 1,
        "start": start,
        "end": start + 0.01,
        "stdin": json.dumps({"hook_event_name": event, **payload}),
        "exit": 0,
    }


def _hook(probe: dict[str, Any], hook_id: str, command: str, **fields: Any) -> dict[str, Any]:
    return {**probe, "id": hook_id, "command": command, "stdout": "", "stderr": "", **fields}


def _failures(tmp_path: Path, hooks: dict[str, Any], records: list[dict[str, Any]]) -> list[str]:
    path = tmp_path / "s.yaml"
    path.write_text(json.dumps({"hooks": hooks}))
    scenario = Scenario(path, "s", (Turn("go", "ok"),), tool="claude-code", hooks=hooks)
    ledger = tmp_path / "ledger.jsonl"
    ledger.touch()
    result = build_result(scenario, get_host("claude-code"), records, [], ledger)
    return check(RealRun(result, records, []))


def _pre_tool(command: str, matcher: str = "Bash") -> dict[str, Any]:
    group = {"matcher": matcher, "hooks": [{"type": "command", "command": command}]}
    return {"PreToolUse": [group]}


def test_a_hook_path_typo_fails_a_real_run(tmp_path: Path) -> None:
    pre = _probe("PreToolUse", BASH, 1.0)
    typo = _hook(
        pre, "PreToolUse.0.0", "./gaurd.sh", exit=127, stderr="/bin/sh: 1: ./gaurd.sh: not found\n"
    )
    failures = _failures(tmp_path, _pre_tool("./gaurd.sh"), [pre, typo])
    assert [f for f in failures if f.startswith("built-in check hooks_run:")] == [
        f"built-in check hooks_run: the PreToolUse hook './gaurd.sh' ({tmp_path / 's.yaml'}) did"
        " not run at turn 1:"
        " command not found (the shell exited 127); fix its path or execute bit (or opt out:"
        " checks: {hooks_run: false})"
    ]


def test_a_matcher_that_never_matches_fails_a_real_run(tmp_path: Path) -> None:
    pre = _probe("PreToolUse", BASH, 1.0)
    prompt = _probe("UserPromptSubmit", {"prompt": "go"}, 0.5)
    hooks = {
        **_pre_tool("true", matcher="bash"),
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}],
    }
    ran = _hook(prompt, "UserPromptSubmit.0.0", "true", exit=0)
    failures = _failures(tmp_path, hooks, [prompt, pre, ran])
    assert any(
        f.startswith("built-in check matchers: the PreToolUse hook 'true' (")
        and "never ran: its matcher 'bash' selected none of 1 firing(s)" in f
        for f in failures
    )


def test_a_misspelt_event_fails_a_real_run(tmp_path: Path) -> None:
    prompt = _probe("UserPromptSubmit", {"prompt": "go"}, 0.5)
    hooks = {
        "PreToolCall": [{"hooks": [{"type": "command", "command": "true"}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}],
    }
    ran = _hook(prompt, "UserPromptSubmit.1.0", "true", exit=0)
    failures = _failures(tmp_path, hooks, [prompt, ran])
    assert any("known_events: Claude Code has no hook event 'PreToolCall'" in f for f in failures)


def test_a_crash_on_the_real_host_fails_with_its_traceback_line(tmp_path: Path) -> None:
    pre = _probe("PreToolUse", BASH, 1.0)
    crash = _hook(
        pre,
        "PreToolUse.0.0",
        "python3 crash.py",
        exit=1,
        stderr="Traceback (most recent call last):\n  ...\nKeyError: 'cmd'\n",
    )
    failures = _failures(tmp_path, _pre_tool("python3 crash.py"), [pre, crash])
    assert any(
        f.startswith("built-in check hooks_failed: the PreToolUse hook 'python3 crash.py'")
        and "failed at turn 1: exit 1: KeyError: 'cmd';" in f
        for f in failures
    )
