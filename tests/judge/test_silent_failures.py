"""No broken hook passes a silent scenario: a hook that crashed, was killed by its timeout, printed
output the host refuses or ignores, or never ran at all fails the run with one line naming the
hook (file:line of its entry), its event, the turn and the fix, unless ``expect`` names that
outcome or the scenario opts out. The reproducers are a new user's (newcomer trial 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.console import console, summary

GO = [{"user": "go", "tools": [{"shell": "rm -rf build"}], "assistant": "ok"}]
CRASH = 'import json, sys\nev = json.load(sys.stdin)\nprint(ev["tool_input"]["cmd"])\n'
HANG = "import time\ntime.sleep(1000)\n"


def _scenario(tmp_path: Path, tool: str, hooks: object, **extra: object) -> Path:
    """A scenario file written as JSON (YAML's subset), one key a line so lines can be named."""
    path = tmp_path / "s.yaml"
    body = {"name": "silent", "tool": tool, "hooks": hooks, "turns": GO, **extra}
    path.write_text(json.dumps(body, indent=1) + "\n")
    return path


def _line(path: Path, text: str) -> int:
    """The 1-based line of the first line of ``path`` holding ``text``."""
    lines = path.read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def _group(command: str, matcher: str | None = None, **handler: object) -> list[object]:
    group: dict[str, object] = {"hooks": [{"type": "command", "command": command, **handler}]}
    if matcher is not None:
        group["matcher"] = matcher
    return [group]


def _python(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / name).write_text(text)
    return f'"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/{name}"'


def test_a_crashing_hook_fails_a_scenario_that_says_nothing_about_it(tmp_path: Path) -> None:
    """m6b: a guard dies with a traceback (exit 1); Claude Code goes on without it."""
    command = _python(tmp_path, "crash.py", CRASH)
    path = _scenario(tmp_path, "claude-code", {"PreToolUse": _group(command, "Bash")})
    result = console("hooksim", "run", path)
    assert result.returncode == 1, result.stdout
    line = _line(path, "crash.py")
    assert (
        f"  built-in check hooks_failed: the PreToolUse hook {command!r} ({path}:{line}) failed at"
        " turn 1: exit 1: KeyError: 'cmd'; Claude Code goes on as if it had not run. Fix the"
        " hook, or say which exits are expected (expect: {exit_codes: {PreToolUse: [0, 1]}})"
        " (or opt out: checks: {hooks_failed: false})\n"
    ) in result.stdout
    assert summary(result.stdout) == "0 passed, 1 failed"


def test_exit_codes_acknowledge_the_failure(tmp_path: Path) -> None:
    """An ``expect`` that names the exits allows them: the scenario tests a failing hook."""
    command = _python(tmp_path, "crash.py", CRASH)
    hooks = {"PreToolUse": _group(command, "Bash")}
    path = _scenario(tmp_path, "claude-code", hooks, expect={"exit_codes": {"PreToolUse": 1}})
    result = console("hooksim", "run", path)
    assert result.returncode == 0, result.stdout


def test_a_hook_killed_by_its_timeout_fails_first(tmp_path: Path) -> None:
    """m9c: the first failure line says the hook timed out (not that it left a process)."""
    command = "exec " + _python(tmp_path, "hang.py", HANG)
    hooks = {"PreToolUse": _group(command, "Bash", timeout=2)}
    path = _scenario(tmp_path, "claude-code", hooks)
    result = console("hooksim", "run", path)
    assert result.returncode == 1, result.stdout
    first = result.stdout.splitlines()[1]
    assert first == (
        f"  built-in check timeouts: the PreToolUse hook {command!r}"
        f" ({path}:{_line(path, 'hang.py')}) was killed by its timeout (2 s) at turn 1; make it"
        " faster or give it more time, or say so (expect: {timed_out: 1}) (or opt out: checks:"
        " {timeouts: false})"
    )
    acknowledged = _scenario(tmp_path, "claude-code", hooks, expect={"timed_out": 1})
    assert console("hooksim", "run", acknowledged).returncode == 0


def test_a_gemini_timeout_names_its_unit(tmp_path: Path) -> None:
    """m11: ``timeout: 30`` meant as seconds is 30 ms to Gemini CLI; the line says so (the hook
    sleeps far longer than that, so no loaded machine lets it finish first)."""
    hooks = {"BeforeTool": _group("sleep 5", ".*", timeout=30)}
    path = _scenario(tmp_path, "gemini-cli", hooks)
    result = console("hooksim", "run", path)
    assert result.returncode == 1, result.stdout
    assert (
        "was killed by its timeout (30 ms: Gemini CLI timeouts are milliseconds; did you mean"
        " 30000?) at turn 1;"
    ) in result.stdout.splitlines()[1]


def test_output_the_host_refuses_fails(tmp_path: Path) -> None:
    """m8: a Stop hook prints an object that is not JSON; Claude Code refuses it."""
    command = "echo \"{decision: 'block', reason: 'say DONE'}\""
    path = _scenario(tmp_path, "claude-code", {"Stop": _group(command)})
    result = console("hooksim", "run", path)
    assert result.returncode == 1, result.stdout
    assert (
        f"  built-in check output_refused: the Stop hook {command!r} ({path}:"
        f"{_line(path, 'say DONE')}) at turn 1: Claude Code refused its output (stdout looks like"
        " a JSON object but is not valid JSON); fix its output, or say so (expect: {refused:"
        " {Stop: 1}}) (or opt out: checks: {output_refused: false})\n"
    ) in result.stdout
    acknowledged = _scenario(
        tmp_path, "claude-code", {"Stop": _group(command)}, expect={"refused": {"Stop": 1}}
    )
    assert console("hooksim", "run", acknowledged).returncode == 0


def test_a_field_the_event_does_not_read_fails(tmp_path: Path) -> None:
    """m12: ``permissionDecision`` at the top level is dropped; the deny denies nothing."""
    output = json.dumps({"permissionDecision": "deny", "reason": "nope"})
    path = _scenario(tmp_path, "claude-code", {"PreToolUse": _group(f"echo '{output}'", "Bash")})
    result = console("hooksim", "run", path)
    assert result.returncode == 1, result.stdout
    assert (
        "at turn 1: Claude Code ignored its output (unknown key permissionDecision, dropped;"
        " it belongs in hookSpecificOutput)"
    ) in result.stdout


def test_the_refused_expectation_counts_refusals(tmp_path: Path) -> None:
    """``expect: {refused: ...}`` is an expectation of its own: a wrong count fails."""
    command = "echo '{oops}'"
    path = _scenario(
        tmp_path, "claude-code", {"Stop": _group(command)}, expect={"refused": {"Stop": 2}}
    )
    result = console("hooksim", "run", path)
    assert "  hooks whose output Claude Code refused or ignored on Stop: expected 2, got 1\n" in (
        result.stdout
    )


def test_a_hook_whose_event_never_fires_fails(tmp_path: Path) -> None:
    """m17: a PostToolUse formatter in a session without tool calls, beside a hook that runs."""
    hooks = {"UserPromptSubmit": _group("true"), "PostToolUse": _group("echo formatted")}
    path = _scenario(tmp_path, "claude-code", hooks, turns=[{"user": "hi", "assistant": "yo"}])
    result = console("hooksim", "run", path)
    assert result.returncode == 1, result.stdout
    assert (
        f"  built-in check hooks_fired: the PostToolUse hook 'echo formatted'"
        f" ({path}:{_line(path, 'echo formatted')}) never ran: PostToolUse never fired in this"
        " session; add a step that fires it, or say so (expect: {fired: {PostToolUse: 0}}) (or"
        " opt out: checks: {hooks_fired: false})\n"
    ) in result.stdout
    named = _scenario(
        tmp_path,
        "claude-code",
        hooks,
        turns=[{"user": "hi", "assistant": "yo"}],
        expect={"fired": {"PostToolUse": 0}},
    )
    assert console("hooksim", "run", named).returncode == 0


@pytest.mark.parametrize(
    ("tool", "hooks", "check"),
    [
        ("codex", {"PreToolUse": _group("exit 1", "Bash")}, "hooks_failed"),
        ("gemini-cli", {"BeforeTool": _group("exit 1", ".*")}, "hooks_failed"),
        ("cursor", {"beforeSubmitPrompt": [{"command": "exit 1"}]}, "hooks_failed"),
        ("hermes", {"pre_tool_call": [{"command": "false"}]}, "hooks_failed"),
        ("codex", {"PreToolUse": _group("echo '[1]'", "Bash")}, "output_refused"),
        ("cursor", {"beforeSubmitPrompt": [{"command": "echo nope"}]}, "output_refused"),
    ],
)
def test_every_shell_host_fails_a_broken_hook(
    tmp_path: Path, tool: str, hooks: object, check: str
) -> None:
    """The same checks on each host, read as that host reads the hook."""
    result = console("hooksim", "run", _scenario(tmp_path, tool, hooks))
    assert result.returncode == 1, result.stdout
    assert f"  built-in check {check}: " in result.stdout


def test_opting_out_keeps_the_scenario_green(tmp_path: Path) -> None:
    command = _python(tmp_path, "crash.py", CRASH)
    path = _scenario(
        tmp_path,
        "claude-code",
        {"PreToolUse": _group(command, "Bash")},
        checks={"hooks_failed": False},
    )
    assert console("hooksim", "run", path).returncode == 0


# A hook whose shell waits on its child: a host that signals only the hook's own process leaves
# the child running. The child outlives any timeout by far, so no machine's speed decides it.
WAITS = "sleep 60; echo late"


@pytest.mark.parametrize(
    ("tool", "hooks"),
    [
        ("claude-code", {"UserPromptSubmit": _group(WAITS, timeout=1)}),
        ("cursor", {"beforeSubmitPrompt": [{"command": WAITS, "timeout": 1}]}),
        ("codex", {"UserPromptSubmit": _group(WAITS, timeout=1)}),
        ("gemini-cli", {"BeforeAgent": _group(WAITS, timeout=1000)}),
        ("hermes", {"pre_llm_call": [{"command": "sleep 60", "timeout": 1}]}),
    ],
)
def test_a_timeout_the_scenario_expects_ends_green(
    tmp_path: Path, tool: str, hooks: object
) -> None:
    """Newcomer trial 5, finding 2: ``timed_out`` acknowledges the timeout and what the host's
    own kill leaves running, on every host."""
    turns = [{"user": "hi", "assistant": "hello"}]
    path = _scenario(tmp_path, tool, hooks, turns=turns, expect={"timed_out": 1})
    result = console("hooksim", "run", path)
    assert result.returncode == 0, result.stdout


def test_what_the_hosts_kill_leaves_is_named_as_such(tmp_path: Path) -> None:
    """Unacknowledged, the timeout fails first, and the child left running is named as what the
    host's kill left (Gemini CLI signals the hook's bash only), not as a process the hook
    started on its own. Claude Code signals the hook's process group: nothing is left."""
    turns = [{"user": "hi", "assistant": "yo"}]
    gemini = _scenario(
        tmp_path, "gemini-cli", {"BeforeAgent": _group(WAITS, timeout=1000)}, turns=turns
    )
    result = console("hooksim", "run", gemini)
    assert result.returncode == 1, result.stdout
    assert result.stdout.splitlines()[1].startswith("  built-in check timeouts: the BeforeAgent")
    assert (
        "left by BeforeAgent at turn 1 (sleep 60; echo late), left running after Gemini CLI killed"
        " its hook at the timeout (Gemini CLI signals only the hook's own process, with SIGTERM,"
        " and no SIGKILL follows); expect: {timed_out: 1} acknowledges it)"
    ) in result.stdout
    assert "(in the hook's session, left by the host's kill at the timeout)" in result.stdout

    claude = _scenario(
        tmp_path, "claude-code", {"UserPromptSubmit": _group(WAITS, timeout=1)}, turns=turns
    )
    result = console("hooksim", "run", claude)
    assert result.returncode == 1, result.stdout
    assert "left running" not in result.stdout


NODE_CRASH = "const input = undefined;\nconsole.log(input.tool_name);\n"


def test_a_node_crash_is_named_by_its_error_line(tmp_path: Path) -> None:
    """Newcomer trial 5, finding 9: a Node hook's crash is its ``TypeError``, in the check's line
    and in the timeline, never ``Node.js v20...``; the timeline says how many lines it left out."""
    (tmp_path / "crash.js").write_text(NODE_CRASH)
    command = 'node "$HOOKSIM_SCENARIO_DIR/crash.js"'
    path = _scenario(tmp_path, "claude-code", {"PreToolUse": _group(command, "Bash")})
    result = console("hooksim", "run", path)
    assert result.returncode == 1, result.stdout
    error = "TypeError: Cannot read properties of undefined (reading 'tool_name')"
    check = next(line for line in result.stdout.splitlines() if "hooks_failed" in line)
    assert f"failed at turn 1: exit 1: {error};" in check
    shown = next(line.strip() for line in result.stdout.splitlines() if "stderr:" in line)
    assert shown.startswith(f"stderr: {error}  (+"), shown
    assert shown.endswith("more lines of stderr)"), shown


def test_a_message_of_several_lines_shows_its_first_and_counts_the_rest(tmp_path: Path) -> None:
    command = (
        "echo 'config.toml: missing key formatter' >&2; echo 'see docs for details' >&2; exit 1"
    )
    path = _scenario(tmp_path, "claude-code", {"PreToolUse": _group(command, "Bash")})
    result = console("hooksim", "run", path)
    check = next(line for line in result.stdout.splitlines() if "hooks_failed" in line)
    assert "exit 1: config.toml: missing key formatter;" in check
    shown = next(line.strip() for line in result.stdout.splitlines() if "stderr:" in line)
    assert shown == "stderr: config.toml: missing key formatter  (+1 more line of stderr)"


PLAIN = "echo formatted 1 file"


def _plain(tmp_path: Path, tool: str, **extra: object) -> Path:
    hooks = {"Stop": _group(PLAIN), "PostToolUse": _group(PLAIN, "Bash")}
    return _scenario(tmp_path, tool, hooks, **extra)


def test_plain_output_claude_code_keeps_in_its_transcript_is_no_failure(tmp_path: Path) -> None:
    """Newcomer trial 5, finding 2: a formatter's or a Stop loop's last line is kept by Claude
    Code in the session's transcript (a hook_success record, which its transcript view shows
    the user): the run passes, and the timeline says where the text went."""
    result = console("hooksim", "run", _plain(tmp_path, "claude-code"))
    assert result.returncode == 0, result.stdout
    result = console("hooksim", "run", "--show-timeline", _plain(tmp_path, "claude-code"))
    assert (
        "Claude Code reads it as: stdout shown to the user in the transcript, not given to the model"
        in result.stdout
    )


def test_output_nothing_reads_is_a_warning_unless_asked_to_fail(tmp_path: Path) -> None:
    """Codex CLI reads nothing of a Stop or PostToolUse hook's plain line: a warning, counted in
    the summary and listed before it; ``--strict`` or ``checks: {output_ignored: true}`` makes
    it a failure."""
    path = _plain(tmp_path, "codex")
    result = console("hooksim", "run", path)
    assert result.returncode == 0, result.stdout
    lines = result.stdout.splitlines()
    assert lines[-1].startswith("1 passed, 0 failed, 2 warnings in ")
    warned = lines[lines.index("warnings:") + 1 :][:2]
    assert warned[0].startswith(f"  {path} [codex]: built-in check output_ignored: the PostToolUse")
    assert (
        "Codex CLI reads nothing of its output (stdout not used: PostToolUse does not read"
        in warned[0]
    )
    strict = console("hooksim", "run", "--strict", path)
    assert strict.returncode == 1, strict.stdout
    assert strict.stdout.splitlines()[-1].startswith("0 passed, 1 failed, 2 warnings in ")
    asked = console("hooksim", "run", _plain(tmp_path, "codex", checks={"output_ignored": True}))
    assert asked.returncode == 1, asked.stdout
    assert "  built-in check output_ignored: the Stop hook 'echo formatted 1 file'" in asked.stdout


def test_warnings_reach_the_reports(tmp_path: Path) -> None:
    """JSON lists them; SARIF and GitHub annotations give them at warning level; JUnit names
    them as properties of the case."""
    path = _plain(tmp_path, "codex")
    report, sarif, junit = tmp_path / "r.json", tmp_path / "r.sarif", tmp_path / "r.xml"
    result = console(
        "hooksim",
        "run",
        path,
        "--json",
        report,
        "--sarif",
        sarif,
        "--junit-xml",
        junit,
        "--format",
        "github",
    )
    assert result.returncode == 0, result.stdout
    (entry,) = json.loads(report.read_text())
    assert len(entry["warnings"]) == 2
    levels = [r["level"] for r in json.loads(sarif.read_text())["runs"][0]["results"]]
    assert levels == ["warning", "warning"]
    assert sum(line.startswith("::warning ") for line in result.stdout.splitlines()) == 2
    assert (
        junit.read_text().count('<property name="warning" value="built-in check output_ignored')
        == 2
    )
