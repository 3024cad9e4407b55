"""No silent passes: a hook that never really ran fails the run with one line, even with no
expect:, unless the scenario opts out; `run` prints the warnings `validate` prints."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.console import console, summary

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
        f"  built-in check hooks_run: the Stop hook {str(tmp_path / 'nope.sh')!r} ({path}) did not"
        " run at turn 1: command not found (the shell exited 127); fix its path or execute bit (or opt"
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
        f"  built-in check hooks_run: the post_llm_call hook 'no-such-hook-x' ({path}) did not run"
        " at turn 1: command not found;"
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
    path = _claude(tmp_path, hooks, turns=turn)
    result = console("hooksim", "run", path)
    assert result.returncode == 1
    assert (
        f"  built-in check matchers: the PreToolUse hook 'true' ({path}) never ran: its matcher"
        " 'Bassh'"
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


@pytest.mark.parametrize(
    ("interpreter", "suffix", "says"),
    [
        ("python3", "py", "python3 could not open its script"),
        ("sh", "sh", "sh could not open its script"),
        ("bash", "sh", "bash could not open its script"),
        ("node", "js", "node could not open its script"),
    ],
)
def test_a_script_its_interpreter_cannot_open_fails(
    tmp_path: Path, interpreter: str, suffix: str, says: str
) -> None:
    """``python missing.py`` (the usual wiring) exits 2, which Claude Code reads as a block:
    the run fails, naming the hook and the fix, on a shell host and on an exec host."""
    if interpreter == "node" and shutil.which("node") is None:
        pytest.skip("node is not installed")
    missing = tmp_path / f"missing.{suffix}"
    command = f"{interpreter} {missing}"
    path = _claude(tmp_path, _stop(command))
    result = console("hooksim", "run", path)
    assert result.returncode == 1
    assert (
        f"  built-in check hooks_run: the Stop hook {command!r} ({path}) did not run at turn 1:"
        f" {says}"
    ) in result.stdout
    assert "fix its path (or opt out: checks: {hooks_run: false})" in result.stdout
    hermes = tmp_path / "hermes.yaml"
    hermes.write_text(
        json.dumps({"name": "h", "hooks": {"post_llm_call": [{"command": command}]}, "turns": TURN})
    )
    result = console("hooksim", "run", hermes)
    assert result.returncode == 1
    assert f"the post_llm_call hook {command!r} ({hermes}) did not run at turn 1: {says}" in (
        result.stdout
    )


def test_a_loop_hooksim_had_to_cut_fails_unless_the_scenario_counts_it(tmp_path: Path) -> None:
    """A Stop hook that blocks for ever on Codex (no cap) would never end the session."""
    block = _stop("""echo '{"decision": "block", "reason": "again"}'""")
    path = tmp_path / "s.yaml"
    body = {"name": "loop", "tool": "codex", "hooks": block, "turns": TURN}
    path.write_text(json.dumps(body))
    result = console("hooksim", "run", "-q", path)
    assert result.returncode == 1
    assert (
        "  built-in check loops: Stop blocked 50 times in a row at turn 1, and Codex CLI would go"
        " on: hooksim cut the loop. Say how many times it should block (expect: {blocked: {Stop:"
        " N}}) (or opt out: checks: {loops: false})"
    ) in result.stdout
    path.write_text(json.dumps({**body, "expect": {"blocked": {"Stop": 50}}}))
    assert console("hooksim", "run", "-q", path).returncode == 0


def test_a_loop_the_hosts_cap_ended_fails_unless_the_scenario_counts_it(tmp_path: Path) -> None:
    """Newcomer trial 5, finding 15: a Stop hook that always blocks is ended by Claude Code's
    cap of 8, with 8 model turns spent; that is the same forgotten ``stop_hook_active`` check a
    host without a cap never ends, and fails the same check."""
    block = _stop("""echo '{"decision": "block", "reason": "again"}'""")
    path = tmp_path / "s.yaml"
    body = {"name": "loop", "tool": "claude-code", "hooks": block, "turns": TURN}
    path.write_text(json.dumps(body))
    result = console("hooksim", "run", "-q", path)
    assert result.returncode == 1, result.stdout
    assert (
        "  built-in check loops: Stop blocked 8 times in a row at turn 1, and Claude Code ended"
        " the turn only at its cap (8 blocks in a row): a Stop hook that never lets the turn end"
        " should read stop_hook_active (true once it has blocked). Say how many times it should"
        " block (expect: {blocked: {Stop: N}}) (or opt out: checks: {loops: false})"
    ) in result.stdout
    path.write_text(json.dumps({**body, "expect": {"blocked": {"Stop": 8}}}))
    assert console("hooksim", "run", "-q", path).returncode == 0


@pytest.mark.parametrize(
    ("hooks", "warning"),
    [
        (
            {"Stop": {"hooks": [{"type": "command", "command": "true"}]}},
            "hooks.Stop must be a list; skipped",
        ),
        ({"Stop": [{"matcher": ""}]}, "hooks.Stop[0] has no hooks list; skipped"),
        ({"Stop": [{"hooks": [{"type": "command"}]}]}, "has no command; skipped"),
    ],
)
def test_a_hook_the_host_skips_for_its_shape_fails(
    tmp_path: Path, hooks: dict[str, object], warning: str
) -> None:
    result = console("hooksim", "run", _claude(tmp_path, hooks))
    assert result.returncode == 1
    failure = next(line for line in result.stdout.splitlines() if "hooks_config" in line)
    assert warning in failure
    assert failure.endswith(
        "the host never runs that hook; fix its shape (or opt out: checks: {hooks_config: false})"
    )


def test_a_scenario_in_which_no_hook_ran_fails(tmp_path: Path) -> None:
    """Hooks only on an event the session never fires: nothing ran, nothing was tested."""
    hooks = {"PreCompact": [{"hooks": [{"type": "command", "command": "true"}]}]}
    result = console("hooksim", "run", _claude(tmp_path, hooks))
    assert result.returncode == 1
    assert (
        "  built-in check any_hook_ran: no hook ran in this session (its hooks are on PreCompact,"
        " which never fired); add the steps that fire them (or opt out: checks: {any_hook_ran: false})"
    ) in result.stdout


def test_validate_runs_the_checks_it_can_without_running(tmp_path: Path) -> None:
    """What run would fail on before any hook runs, validate fails on, with file:line."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: typo\n"
        "tool: claude-code\n"
        "hooks:\n"
        "  PreToolUSe:\n"
        "    - hooks: [{type: command, command: 'true'}]\n"
        "  Stop:\n"
        "    hooks: [{type: command, command: 'true'}]\n"
        "turns:\n"
        "  - {user: hi, assistant: hello}\n"
    )
    result = console("hooksim", "validate", path)
    assert result.returncode == 1
    assert (
        f"{path}:4: built-in check known_events: Claude Code has no hook event 'PreToolUSe', so"
        " its hooks never run; did you mean 'PreToolUse'? (or opt out: checks: {known_events: false})"
    ) in result.stderr
    assert (
        f"{path}:6: built-in check hooks_config: hooks.Stop must be a list; skipped"
        in result.stderr
    )
    assert result.stdout.strip() == "0 valid, 1 invalid"


def test_a_warning_the_scenario_tests_is_expected_not_printed(tmp_path: Path) -> None:
    """A probe of a host's leniency says which warning it expects: no warning line, no check
    failure; an expected warning that does not come fails the run."""
    hooks = {
        "Stop": [
            {"hooks": [{"type": "command", "command": "true"}]},
            {"hooks": [{"type": "command"}]},
        ]
    }
    path = _claude(tmp_path, hooks, expect={"warnings": ["has no command; skipped"]})
    result = console("hooksim", "run", path)
    assert (result.returncode, result.stdout.count("  warning: ")) == (0, 0), result.stdout
    path = _claude(tmp_path, _stop("true"), expect={"warnings": ["has no command; skipped"]})
    result = console("hooksim", "run", path)
    assert result.returncode == 1
    assert (
        "host warnings: expected one containing 'has no command; skipped', got []" in result.stdout
    )


def test_a_misspelt_key_of_a_hook_entry_fails_with_what_it_meant(tmp_path: Path) -> None:
    """Newcomer trial 3, finding 9: ``matchr`` is ignored by Claude Code, so the guard runs on
    every tool; the run fails naming the key, the likely one and the consequence."""
    path = _claude(
        tmp_path,
        {"PreToolUse": [{"matchr": "Bash", "hooks": [{"type": "command", "command": "true"}]}]},
    )
    result = console("hooksim", "run", path)
    assert result.returncode == 1, result.stdout
    assert (
        "  built-in check hooks_config: hooks.PreToolUse[0]: unknown key 'matchr' (did you mean"
        " 'matcher'?): Claude Code ignores it, so its hooks run for every firing of the event;"
        " fix the key (or opt out: checks: {hooks_config: false})\n"
    ) in result.stdout
    assert "known_events" not in result.stdout
    validated = console("hooksim", "validate", path)
    assert validated.returncode == 1
    assert "unknown key 'matchr' (did you mean 'matcher'?)" in validated.stderr + validated.stdout


def test_a_key_of_the_hooks_own_is_left_alone(tmp_path: Path) -> None:
    """Only a key close to one the host reads is taken for a typo."""
    path = _claude(tmp_path, _stop("true", note="my own"))
    assert console("hooksim", "run", path).returncode == 0


def test_a_misspelt_tool_in_the_scenario_is_blamed_not_the_matcher(tmp_path: Path) -> None:
    """Newcomer trial 3, finding 10: the turn calls ``bash``; the matcher ``Bash`` is right."""
    path = tmp_path / "s.yaml"
    path.write_text(
        json.dumps(
            {
                "name": "tool typo",
                "tool": "claude-code",
                "hooks": {
                    "PreToolUse": [
                        {"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}
                    ]
                },
                "turns": [
                    {
                        "user": "go",
                        "tools": [{"name": "bash", "args": {"command": "ls"}}],
                        "assistant": "ok",
                    }
                ],
            }
        )
    )
    result = console("hooksim", "run", path)
    assert result.returncode == 1
    assert (
        "the scenario calls a tool 'bash', and Claude Code's shell tool is 'Bash': fix the tool's"
        " name in the turn"
    ) in result.stdout
    assert "did you mean 'bash'" not in result.stdout
    assert "PreToolUse fired, but no hook's matcher or condition selected it" in result.stdout


def test_a_variable_in_a_hermes_command_is_explained(tmp_path: Path) -> None:
    """Newcomer trial 3, finding 8: Hermes execs without a shell, so ``$VAR`` stays as written."""
    path = tmp_path / "s.yaml"
    path.write_text(
        json.dumps(
            {
                "name": "hermes var",
                "hooks": {"pre_llm_call": [{"command": '"$HOOKSIM_SCENARIO_DIR/guard.sh"'}]},
                "turns": TURN,
            }
        )
    )
    result = console("hooksim", "run", path)
    assert result.returncode == 1
    assert (
        "command not found; Hermes runs hooks without a shell, so $HOOKSIM_SCENARIO_DIR is not"
        " expanded: use sh -c '...' or an absolute path"
    ) in result.stdout
