"""No silent passes: a hook that never really ran fails the run with one line, even with no
expect:, unless the scenario opts out; `run` prints the warnings `validate` prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.simulator.console import console, summary

TURN = [{"user": "hi", "assistant": "hello"}]


def _claude(tmp_path: Path, hooks: dict[str, object], **extra: object) -> Path:
    path = tmp_path / "s.yaml"
    body = {"name": "no expectations", "tool": "claude-code", "hooks": hooks, "turns": TURN}
    path.write_text(json.dumps({**body, **extra}))
    return path


def _stop(command: str, **handler: object) -> dict[str, object]:
    return {"Stop": [{"hooks": [{"type": "command", "command": command, **handler}]}]}


def test_a_missing_hook_fails_on_a_shell_host(tmp_path: Path) -> None:
    """A hook path that does not exist (the shell exits 127) fails, naming it and the fix."""
    path = _claude(tmp_path, _stop(str(tmp_path / "nope.sh")))
    result = console("hooksim", "run", path)
    assert result.returncode == 1
    assert (
        f"  built-in check hooks_run: the Stop hook {str(tmp_path / 'nope.sh')!r} did not run at"
        " turn 1: command not found (the shell exited 127); fix its path or execute bit (or opt"
        " out: checks: {hooks_run: false})\n"
    ) in result.stdout
    assert summary(result.stdout) == "0 passed, 1 failed"


def test_a_script_that_is_not_executable_fails(tmp_path: Path) -> None:
    """A script without its execute bit (126) fails."""
    script = tmp_path / "hook.sh"
    script.write_text("#!/bin/sh\nexit 0\n")
    result = console("hooksim", "run", _claude(tmp_path, _stop(str(script))))
    assert result.returncode == 1
    assert "did not run at turn 1: command not executable (the shell exited 126)" in result.stdout


def test_a_missing_command_fails_on_an_exec_host(tmp_path: Path) -> None:
    """On Hermes (no shell) a command that cannot be started fails the same way."""
    path = tmp_path / "s.yaml"
    path.write_text(
        json.dumps(
            {
                "name": "h",
                "hooks": {"post_llm_call": [{"command": "no-such-hook-x"}]},
                "turns": TURN,
            }
        )
    )
    result = console("hooksim", "run", path)
    assert result.returncode == 1
    assert (
        "  built-in check hooks_run: the post_llm_call hook 'no-such-hook-x' did not run at turn 1:"
        " command not found;"
    ) in result.stdout


def test_a_misspelled_event_fails_with_a_suggestion_and_the_warning(tmp_path: Path) -> None:
    """Stopp: the run prints validate's warning and fails, suggesting Stop."""
    path = _claude(tmp_path, {"Stopp": _stop("true")["Stop"]})
    result = console("hooksim", "run", path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[1] == "  warning: unknown hook event 'Stopp'; skipped"
    assert lines[2] == (
        "  built-in check known_events: Claude Code has no hook event 'Stopp', so its hooks never"
        " run; did you mean 'Stop'? (or opt out: checks: {known_events: false})"
    )


def test_a_prompt_hook_fails_as_not_a_command(tmp_path: Path) -> None:
    """A hook of type prompt is not run by hooksim: the run says so instead of passing."""
    hooks = {"Stop": [{"hooks": [{"type": "prompt", "prompt": "ok?"}]}]}
    result = console("hooksim", "run", _claude(tmp_path, hooks))
    assert result.returncode == 1
    assert (
        "built-in check command_hooks: hooks.Stop[0].hooks[0] is a 'prompt' hook" in result.stdout
    )


def test_a_matcher_that_selects_nothing_fails_with_the_closest_value(tmp_path: Path) -> None:
    """A tool matcher with a typo never runs its hook: the run names the values it was given."""
    hooks = {
        "PreToolUse": [{"matcher": "Bassh", "hooks": [{"type": "command", "command": "true"}]}]
    }
    turn = [
        {"user": "hi", "tools": [{"name": "Bash", "args": {"command": "ls"}}], "assistant": "ok"}
    ]
    result = console("hooksim", "run", _claude(tmp_path, hooks, turns=turn))
    assert result.returncode == 1
    assert (
        "  built-in check matchers: the PreToolUse hook 'true' never ran: its matcher 'Bassh'"
        " selected none of 1 firing(s); it matched none of the values it was given (Bash); did you"
        " mean 'Bash'? (or opt out: checks: {matchers: false})\n"
    ) in result.stdout


@pytest.mark.parametrize("checks", [False, {"hooks_run": False}, {"skip_commands": ["*/nope.sh"]}])
def test_a_scenario_can_opt_out(tmp_path: Path, checks: object) -> None:
    """checks: false, one check off, or a command glob let a deliberately missing hook pass."""
    path = _claude(tmp_path, _stop(str(tmp_path / "nope.sh")), checks=checks)
    result = console("hooksim", "run", path)
    assert result.returncode == 0, result.stdout
    assert summary(result.stdout) == "1 passed, 0 failed"
