"""Scenario errors name the value, suggest the close match, bound durations, and refuse events
the host cannot fire; exit_codes takes a code, a list or a mapping; hosts: without tool: runs
on exactly the hosts it names."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.console import console, summary

FORMS = "use seconds as a number, or e.g. 90s, 1m, 1h30m, 250ms, 2d; from 0 up to 366d"
TURN = "  - {user: hi, assistant: hello}\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "name: x\nturns:\n" + TURN + "  - {after: -5m, user: b}\n",
            f"4: turns/1/after: '-5m' is not a duration: {FORMS}",
        ),
        (
            "name: x\nturns:\n  - {after: 5 minutes, user: b}\n",
            f"3: turns/0/after: '5 minutes' is not a duration: {FORMS}",
        ),
        (
            "name: x\nturns:\n  - {after: 99999999999999999999h, user: b}\n",
            f"3: turns/0/after: '99999999999999999999h' is out of range: {FORMS}",
        ),
        (
            "name: x\nturns:\n" + TURN + "expect:\n  max_duration: 1e400s\n",
            f"5: expect/max_duration: '1e400s' is not a duration: {FORMS}",
        ),
        (
            "name: x\nturns:\n  - {user: hi, asistant: hello}\n",
            "3: turns/0: unknown key 'asistant' (did you mean 'assistant'? allowed: after, assistant,",
        ),
        (
            "name: x\nturns:\n  - {usr: hi}\n",
            "3: turns/0: unknown key 'usr' (did you mean 'user'? a turn has 'user', 'new_session', 'compact' or 'event')",
        ),
        (
            "name: x\ntool: claude\nturns:\n" + TURN,
            "2: tool: 'claude' is not one of hermes, claude-code, codex, cursor, gemini-cli, openclaw (did you mean 'claude-code'?)",
        ),
        (
            "name: x\nturns:\n" + TURN + "expectations: {}\n",
            "4: unknown key 'expectations' (did you mean 'expect'? allowed:",
        ),
        (
            "name: x\ntool: claude-code\nhooks: {}\nturns:\n"
            + TURN
            + "expect:\n  fired: {PreCompress: 1}\n",
            "7: expect.fired names 'PreCompress', an event Claude Code does not have (did you mean 'PreCompact'?)",
        ),
        (
            "name: x\nturns:\n" + TURN + "expect:\n  exit_codes: {Stop: 2}\n",
            "5: expect.exit_codes names 'Stop', an event Hermes does not have",
        ),
        (
            "name: x\nturns:\n  - {event: no_such_event}\n",
            "3: event 'no_such_event' is not an event of Hermes; it would fire no hook",
        ),
        (
            "name: x\nhooks: {}\nhosts: {codex: {hooks: {}}}\nturns:\n" + TURN,
            "2: hooks: are the hooks of the scenario's tool (hermes when no tool: is given), which this file does not run on",
        ),
        ("name: x\nturn:\n" + TURN, "2: unknown key 'turn' (did you mean 'turns'? allowed:"),
        (
            "name: x\nturns:\n  - user: hi\n    tools: [{shell: ls}]\n    responses: [{tools: [{shell: pwd}]}]\n    assistant: ok\n",
            "5: give a turn's tool calls as tools (grouped as the host's model groups them) or as responses (grouped by you), not both",
        ),
        (
            "name: x\ntool: claude-code\nturns:\n  - {user: hi, assistant: ok, launch: local}\n",
            "4: turns/0/launch: a step changes how the host runs (agent --local or the gateway) in a scenario of one session that runs on openclaw alone",
        ),
        (
            "name: x\nturns:\n  - user: hi\n    responses: [{tools: []}]\n    assistant: ok\n",
            "4: turns/0/responses/0/tools: [] should be non-empty",
        ),
    ],
)
def test_validate_names_the_value_and_the_fix(tmp_path: Path, text: str, message: str) -> None:
    """`hooksim validate` prints one file:line line that names the bad value and what is allowed."""
    path = tmp_path / "s.yaml"
    path.write_text(text)
    result = console("hooksim", "validate", path)
    assert result.returncode == 1
    assert result.stderr.startswith(f"{path}:{message}"), result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stdout == "0 valid, 1 invalid\n"


STOP_BLOCKS = (
    "name: a Stop hook that blocks once\ntool: claude-code\nhooks:\n  Stop: [{hooks: [{type: command,"
    " command: 'test -e done || { touch done; echo again >&2; exit 2; }'}]}]\nturns:\n" + TURN
)


@pytest.mark.parametrize(
    ("codes", "verdict"),
    [
        ("[0, 2]", "PASS"),
        ("{Stop: [0, 2]}", "PASS"),
        ("{'*': [0, 2]}", "PASS"),
        ("0", "FAIL"),
        ("{UserPromptSubmit: 0}", "FAIL"),
    ],
)
def test_exit_codes_takes_a_list_or_a_mapping(tmp_path: Path, codes: str, verdict: str) -> None:
    """exit_codes as a list, a per-event mapping ('*' for the rest; unnamed events must exit 0)."""
    path = tmp_path / "s.yaml"
    path.write_text(STOP_BLOCKS + f"expect:\n  exit_codes: {codes}\n  blocked: {{Stop: 1}}\n")
    result = console("hooksim", "run", path)
    assert result.stdout.startswith(f"{verdict}  {path} [claude-code]"), result.stdout
    if verdict == "FAIL":
        assert "  exit code of Stop at turn 1: expected 0, got 2\n" in result.stdout


def test_hosts_without_tool_runs_exactly_those_hosts(tmp_path: Path) -> None:
    """A file naming hosts: but no tool: does not also run on Hermes."""
    path = tmp_path / "s.yaml"
    hook = "{hooks: [{type: command, command: 'true'}]}"
    path.write_text(
        f"name: two\nturns:\n{TURN}hosts:\n  claude-code: {{hooks: {{Stop: [{hook}]}}}}\n"
        f"  codex: {{hooks: {{Stop: [{hook}]}}}}\n"
    )
    result = console("hooksim", "run", path)
    assert [line.split("  ")[1] for line in result.stdout.splitlines()[:2]] == [
        f"{path} [claude-code]",
        f"{path} [codex]",
    ]
    assert summary(result.stdout) == "2 passed, 0 failed"


def test_a_file_that_is_not_text_is_one_plain_line(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_bytes(b"name: x\n\xd0\xff\x00binary")
    result = console("hooksim", "validate", path)
    assert result.stderr == f"{path}: not a text file (not UTF-8 at byte 8)\n"
