"""``conversation_at_turn``: what the model was sent in a turn's last request, from the same
conversation the replay writes the transcript from (its real-host side, read from the fake
model's request log: tests/real/test_transcripts.py)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.judge import expect
from hooksim.replay.runner import RunResult, run_scenario
from hooksim.scenario import ScenarioError, load_scenario

BLOCK_ONCE = json.dumps(
    '[ -f ~/once ] || { touch ~/once; echo \'{"decision": "block", "reason": "again"}\'; }'
)


def run(tmp_path: Path, text: str) -> RunResult:
    path = tmp_path / "s.yaml"
    path.write_text("name: t\n" + textwrap.dedent(text))
    return run_scenario(load_scenario(path))


@pytest.mark.parametrize(
    ("tool", "stop"), [("claude-code", "Stop"), ("codex", "Stop"), ("gemini-cli", "AfterAgent")]
)
def test_the_dialogue_counts_prompts_calls_results_answers_and_feedback(
    tmp_path: Path, tool: str, stop: str
) -> None:
    """Turn 1's last request: the prompt, the call, its result, the answer, the feedback of the
    blocked stop; turn 2 adds the second answer and the next prompt."""
    result = run(
        tmp_path,
        f"""\
        tool: {tool}
        hooks: {{{stop}: [{{hooks: [{{type: command, command: {BLOCK_ONCE}}}]}}]}}
        turns:
          - user: list the files
            tools: [{{shell: ls, result: a.txt}}]
            assistant: [working, done]
          - {{user: anything else?, assistant: no}}
        expect:
          conversation_at_turn:
            "1": {{messages: 5, contains: [list the files, a.txt, again], lacks: done}}
            "2": {{messages: 7, contains: done}}
        """,
    )
    assert expect.check(result) == []


def test_a_wrong_expectation_says_what_was_sent(tmp_path: Path) -> None:
    """Each check that fails is one line: the count with the roles, the texts looked for."""
    result = run(
        tmp_path,
        """\
        tool: claude-code
        hooks: {Stop: [{hooks: [{type: command, command: "true"}]}]}
        turns:
          - {user: hello, assistant: hi}
        expect:
          conversation_at_turn:
            "1": {messages: 3, contains: goodbye, lacks: hello}
        """,
    )
    assert expect.check(result) == [
        "conversation sent at turn 1: expected 3 messages, got 1 (user)",
        "conversation sent at turn 1: expected a message containing 'goodbye', got ['hello']",
        "conversation sent at turn 1: expected none containing 'hello', got 'hello'",
    ]


def test_hook_context_is_sent_but_not_counted(tmp_path: Path) -> None:
    """A hook's context goes beside the dialogue: ``contains`` finds it, ``messages`` does not
    count it (Claude Code sends it as a system message, Codex as a developer one)."""
    context = json.dumps(
        "echo "
        + json.dumps(
            json.dumps(
                {
                    "hookSpecificOutput": {
                        "hookEventName": "UserPromptSubmit",
                        "additionalContext": "PLAN",
                    }
                }
            )
        )
    )
    result = run(
        tmp_path,
        f"""\
        tool: claude-code
        hooks: {{UserPromptSubmit: [{{hooks: [{{type: command, command: {context}}}]}}]}}
        hosts: {{codex: {{hooks: {{UserPromptSubmit: [{{hooks: [{{type: command,
                                                                  command: {context}}}]}}]}}}}}}
        turns:
          - {{user: go, assistant: went}}
        expect:
          conversation_at_turn: {{"1": {{messages: 1, contains: PLAN}}}}
        """,
    )
    assert expect.check(result) == []


def test_compaction_and_a_new_session_change_what_is_sent(tmp_path: Path) -> None:
    """After /compact Claude Code sends the summary and its last answer; after /clear only the
    new prompt."""
    result = run(
        tmp_path,
        """\
        tool: claude-code
        hooks: {Stop: [{hooks: [{type: command, command: "true"}]}]}
        turns:
          - {user: first, assistant: one}
          - {user: second, assistant: two}
          - {compact: manual}
          - {user: third, assistant: three}
          - {new_session: next}
          - {user: fourth, assistant: four}
        expect:
          conversation_at_turn:
            "2": {messages: 3}
            "4": {messages: 3, contains: [Summary, two, third], lacks: [first, one]}
            "5": {messages: 1, lacks: [third, Summary]}
        """,
    )
    assert expect.check(result) == []


def test_codex_keeps_the_prompts_when_it_compacts(tmp_path: Path) -> None:
    """Codex keeps the user's prompts and adds the summary (real 0.171.0)."""
    result = run(
        tmp_path,
        """\
        tool: codex
        hosts: {codex: {launch: exec}}
        hooks: {Stop: [{hooks: [{type: command, command: "true"}]}]}
        turns:
          - {user: first, assistant: one}
          - {compact: auto}
          - {user: second, assistant: two}
        expect:
          conversation_at_turn:
            "3": {messages: 3, contains: [first, Another language model], lacks: one}
        """,
    )
    assert expect.check(result) == []


def test_a_turn_without_a_model_request_has_no_conversation(tmp_path: Path) -> None:
    """A prompt a hook blocks never reaches the model: nothing was sent at that turn."""
    block = json.dumps('echo "no" >&2; exit 2')
    result = run(
        tmp_path,
        f"""\
        tool: claude-code
        hooks: {{UserPromptSubmit: [{{hooks: [{{type: command, command: {block}}}]}}]}}
        turns:
          - {{user: hello, assistant: hi}}
        expect:
          exit_codes: 2
          conversation_at_turn: {{"1": {{messages: 0}}}}
        """,
    )
    assert expect.check(result) == [
        "conversation sent at turn 1: expected a model request, got none"
    ]


def test_a_turn_that_does_not_exist_is_a_scenario_error(tmp_path: Path) -> None:
    """The turn a ``conversation_at_turn`` key names must be a step: file:line otherwise."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: t\ntool: claude-code\nhooks: {Stop: []}\nturns:\n  - {user: a, assistant: b}\n"
        'expect:\n  conversation_at_turn:\n    "7": {messages: 1}\n'
    )
    with pytest.raises(ScenarioError) as error:
        load_scenario(path)
    assert str(error.value) == (
        f"{path}:7: expect.conversation_at_turn names turn 7, but the scenario has 1 turns"
    )


def test_a_malformed_expectation_is_refused_by_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown check or a count that is not a number is one line naming the file and line."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: t\ntool: claude-code\nhooks: {Stop: []}\nturns:\n  - {user: a, assistant: b}\n"
        'expect:\n  conversation_at_turn:\n    "1": {count: 1}\n'
    )
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr()
    assert f"{path}:8" in out.out + out.err
    assert "count" in out.out + out.err
