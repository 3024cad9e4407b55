"""Scenario files: bad input is one `file:line: what` line and nothing runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.judge import builtin_checks
from hooksim.replay.runner import run_scenario
from hooksim.scenario import ScenarioError, load_scenario, parse_duration

from tests.console import summary


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "name: x\nturns:\n  - {user: hi, asistant: hello}\n",
            ":3: turns/0: unknown key 'asistant'",
        ),
        ("name: x\nturns: [\n", ":3: invalid YAML"),
        ("- just a list\n", ":1: a scenario is a mapping with 'name' and 'turns'"),
        ("name: x\n", ":1: a scenario needs 'turns' (one session) or 'sessions' (several at once)"),
        (
            "name: x\nturns:\n  - {user: hi, error: 500}\nbridge:\n  cleanup_frames: [ok, explode]\n",
            ":5: bridge/cleanup_frames",
        ),
        (
            "name: x\nturns:\n  - {user: hi, error: 500}\n  - {after: 5 minutes, user: b, error: 500}\n",
            ":4: turns/1/after: '5 minutes' is not a duration",
        ),
        (
            "name: x\nturns:\n  - {user: hi, error: 500}\nexpect:\n  exit_code: 0\n",
            ":5: expect: unknown key 'exit_code'",
        ),
        (
            "name: x\nclock: {start: yesterday}\nturns:\n  - {user: hi, error: 500}\n",
            ":2: clock.start is not an ISO 8601",
        ),
        (
            "name: x\nturns:\n  - {user: hi, error: 500}\nexpect:\n  compactions_at_turns: [1, 2]\n",
            ":5: expect.compactions_at_turns names turn 2, but the scenario has 1 turns",
        ),
    ],
)
def test_bad_scenarios_name_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    """Each kind of mistake is reported as `path:line: ...` pointing at the offending line."""
    path = write(tmp_path, text)
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path)
    assert str(exc.value).startswith(str(path)), exc.value
    assert message in str(exc.value), exc.value
    assert "\n" not in str(exc.value)


def test_unknown_outcome_names_the_choices(tmp_path: Path) -> None:
    """A typo in a bridge outcome lists the outcomes that exist."""
    path = write(
        tmp_path, "name: x\nturns:\n  - {user: hi, error: 500}\nbridge:\n  save_memory: explode\n"
    )
    with pytest.raises(
        ScenarioError, match=r"unknown bridge outcome 'explode' \(ok, fail, exit N, hang"
    ):
        load_scenario(path)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        (5, 5.0),
        (0.5, 0.5),
        ("90s", 90.0),
        ("1m", 60.0),
        ("1h30m", 5400.0),
        ("250ms", 0.25),
        ("2d", 172800.0),
    ],
)
def test_durations(text: float | str, seconds: float) -> None:
    """Durations are seconds, or numbers with ms, s, m, h, d units."""
    assert parse_duration(text) == seconds


def test_validate_reports_every_bad_file_and_runs_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hooksim validate` lists each invalid file on one line and exits 1."""
    write(tmp_path, "name: ok\nturns:\n  - {user: hi, error: 500}\n", "good.yaml")
    bad = write(tmp_path, "name: bad\nturns: []\n", "bad.yaml")
    assert main(["validate", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert err == f"{bad}:2: turns: [] should be non-empty\n"
    assert out == "1 valid, 1 invalid\n"


def test_run_with_a_bad_file_is_an_error_not_a_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hooksim run` on a bad file reports ERROR with file:line and exits 1."""
    bad = write(tmp_path, "name: bad\nturns:\n  - {usr: hi}\n")
    assert main(["run", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"ERROR {bad}" in out
    assert f"{bad}:3:" in out
    assert summary(out) == "0 passed, 0 failed, 1 error"


def test_run_with_no_scenarios_exits_5(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An empty directory is not a pass: exit 5, like pytest's 'no tests ran'."""
    assert main(["run", str(tmp_path)]) == 5
    assert capsys.readouterr().err == f"hooksim: no scenario files found in {tmp_path}\n"


def test_missing_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A path that does not exist is named."""
    assert main(["run", str(tmp_path / "nope.yaml")]) == 2
    assert (
        capsys.readouterr().err == f"hooksim: no such file or directory: {tmp_path / 'nope.yaml'}\n"
    )


def test_shipped_schema_accepts_every_shipped_scenario() -> None:
    """Every scenario under scenarios/ validates against the shipped JSON Schema."""
    root = Path(__file__).parents[2] / "scenarios"
    assert main(["validate", str(root)]) == 0


@pytest.mark.parametrize(
    ("expect", "key", "turn"),
    [
        ('  calls_by_turn: {"3": [save_memory]}\n', "calls_by_turn", 3),
        ("  state_file: {written_at_turn: 4}\n", "state_file", 4),
    ],
)
def test_expectations_naming_a_missing_turn(
    tmp_path: Path, expect: str, key: str, turn: int
) -> None:
    """An expectation about a turn the scenario does not have is a file error, not a confusing failure."""
    path = write(
        tmp_path,
        "name: x\nturns:\n  - {user: a, error: 500}\n  - {new_session: null}\n  - {user: b, error: 500}\nexpect:\n"
        + expect,
    )
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path)
    assert (
        str(exc.value) == f"{path}:7: expect.{key} names turn {turn}, but the scenario has 2 turns"
    )


def test_a_hosts_own_expect_key_replaces_the_top_level_one_before_it_is_checked(
    tmp_path: Path,
) -> None:
    """blocked: {PreToolUse: 1} on top and gemini-cli's own blocked: {BeforeTool: 1}: on Gemini
    CLI the top-level key never applies, so naming PreToolUse there is no error."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: guard\n"
        "hosts:\n"
        "  claude-code:\n"
        "    hooks: {PreToolUse: [{matcher: Bash, hooks: [{type: command, command: 'exit 2'}]}]}\n"
        "  gemini-cli:\n"
        "    hooks: {BeforeTool: [{matcher: run_shell_command, hooks: [{type: command, command: 'exit 2'}]}]}\n"
        "    expect: {blocked: {BeforeTool: 1}}\n"
        "turns:\n"
        "  - {user: hi, assistant: ok, tools: [{name: Bash, args: {command: ls}}]}\n"
        "expect:\n"
        "  blocked: {PreToolUse: 1}\n"
    )
    scenario = load_scenario(path)
    assert scenario.on("gemini-cli").expect == {"blocked": {"BeforeTool": 1}}
    path.write_text(path.read_text().replace("    expect: {blocked: {BeforeTool: 1}}\n", ""))
    with pytest.raises(
        ScenarioError, match=r"s.yaml:10: expect.blocked names 'PreToolUse', an event Gemini CLI"
    ):
        load_scenario(path)


SHELL_SESSION = """\
name: a guard on every host
hosts:
  claude-code: {hooks: {PreToolUse: [{matcher: Bash, hooks: [{type: command, command: 'exit 0'}]}]}}
  codex: {hooks: {PreToolUse: [{matcher: Bash, hooks: [{type: command, command: 'exit 0'}]}]}}
  gemini-cli: {hooks: {BeforeTool: [{matcher: run_shell_command, hooks: [{type: command, command: 'exit 0'}]}]}}
  cursor: {hooks: {preToolUse: [{matcher: Shell, command: 'exit 0'}]}}
  hermes: {hooks: {pre_tool_call: [{matcher: terminal, command: 'true'}]}}
turns:
  - {user: list the files, assistant: done, tools: [{shell: ls -la, result: "a b"}]}
"""


@pytest.mark.parametrize(
    ("tool", "name"),
    [
        ("claude-code", "Bash"),
        ("codex", "Bash"),
        ("gemini-cli", "run_shell_command"),
        ("cursor", "Shell"),
        ("hermes", "terminal"),
    ],
)
def test_a_shell_call_reaches_each_host_as_its_own_shell_tool(
    tmp_path: Path, tool: str, name: str
) -> None:
    """``tools: [{shell: CMD}]`` is the host's own shell tool, its command as that tool's."""
    path = tmp_path / "s.yaml"
    path.write_text(SHELL_SESSION)
    scenario = load_scenario(path).on(tool)
    (call,) = scenario.steps[0].tools
    assert (call.name, call.args, call.result) == (name, {"command": "ls -la"}, "a b")
    result = run_scenario(scenario, tool=tool)
    assert builtin_checks.check(result) == []
    assert [f.match for f in result.firings if f.runs] == [name]  # its matcher selected it


def test_a_tool_call_names_a_tool_or_a_shell_command_not_both(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: x\nturns:\n  - {user: a, assistant: b, tools: [{name: Bash, shell: ls}]}\n"
    )
    with pytest.raises(ScenarioError, match=r"s.yaml:3: "):
        load_scenario(path)
