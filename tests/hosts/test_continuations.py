"""A reply per continuation: ``assistant:`` as a list answers the turn, then each continuation a
stop hook asks for (Claude Code and Codex ``Stop``, Gemini CLI ``AfterAgent`` retries, Cursor
follow-ups, Hermes ``pre_verify``); the last repeats."""

from __future__ import annotations

import json
import shlex
import textwrap
from pathlib import Path

import pytest
from hooksim.judge import expect
from hooksim.replay.runner import RunResult, run_scenario
from hooksim.scenario import ScenarioError, Turn, load_scenario

LOOP = Path(__file__).parents[2] / "scenarios" / "hooks" / "promise_loop.py"
PROMISE = json.dumps(f'"$HOOKSIM_PYTHON" {shlex.quote(str(LOOP))}')
# Hermes runs a hook without a shell: the shell expands the variable.
HERMES_PROMISE = json.dumps("sh -c " + shlex.quote(f'"$HOOKSIM_PYTHON" {LOOP}'))


def run(tmp_path: Path, text: str) -> RunResult:
    path = tmp_path / "s.yaml"
    path.write_text("name: t\n" + textwrap.dedent(text))
    return run_scenario(load_scenario(path))


REPLIES = '[working, still working, "<promise>DONE</promise>"]'


@pytest.mark.parametrize(("tool", "event"), [("claude-code", "Stop"), ("codex", "Stop")])
def test_a_stop_loop_ends_when_a_continuation_keeps_its_promise(
    tmp_path: Path, tool: str, event: str
) -> None:
    """last_assistant_message is each continuation's own reply, so the loop ends at the second."""
    result = run(
        tmp_path,
        f"""\
        tool: {tool}
        hooks: {{{event}: [{{hooks: [{{type: command, command: {PROMISE}}}]}}]}}
        turns:
          - {{user: finish it, assistant: {REPLIES}}}
        expect:
          fired: {{{event}: 3}}
          blocked: {{{event}: 2}}
          files:
            ~/replies: {{equals: "working\\nstill working\\n<promise>DONE</promise>\\n"}}
        """,
    )
    assert expect.check(result) == []


def test_gemini_cli_after_agent_retries_get_their_own_reply(tmp_path: Path) -> None:
    """Each AfterAgent retry's prompt_response is the reply to that retry."""
    result = run(
        tmp_path,
        f"""\
        tool: gemini-cli
        hooks: {{AfterAgent: [{{hooks: [{{type: command, command: {PROMISE}}}]}}]}}
        turns:
          - {{user: finish it, assistant: {REPLIES}}}
        expect:
          fired: {{AfterAgent: 3}}
          blocked: {{AfterAgent: 2}}
          files:
            ~/replies: {{contains: "<promise>DONE</promise>\\n"}}
        """,
    )
    assert expect.check(result) == []


def test_the_last_reply_repeats(tmp_path: Path) -> None:
    """A list shorter than the continuations: its last item answers every later one."""
    result = run(
        tmp_path,
        """\
        tool: claude-code
        hooks:
          Stop: [{hooks: [{type: command, command: 'cat >> ~/stops; n=$(cat .n 2>/dev/null || echo 0); echo $((n+1)) > .n; [ "$n" -ge 3 ] || { echo again >&2; exit 2; }'}]}]
        turns:
          - {user: go, assistant: [first, second]}
          - {user: more, assistant: third}
        """,
    )
    stops = [p for f in result.firings if f.event == "Stop" for p in [f.runs[0].stdin]]
    assert [s.split(b'"last_assistant_message":"')[1].split(b'"')[0] for s in stops] == [
        b"first",
        b"second",
        b"second",
        b"second",
        b"third",
    ]


def test_cursor_follow_ups_get_their_own_reply(tmp_path: Path) -> None:
    """afterAgentResponse carries each follow-up's reply."""
    result = run(
        tmp_path,
        """\
        tool: cursor
        hooks:
          afterAgentResponse: [{command: "sh -c 'cat >> ~/responses'"}]
          stop: [{command: 'n=$(cat .n 2>/dev/null || echo 0); echo $((n+1)) > .n; [ "$n" -ge 2 ] || echo "{\\"followup_message\\": \\"go on\\"}"'}]
        turns:
          - {user: go, assistant: [one, two, three]}
        """,
    )
    texts = [r.stdin for f in result.firings if f.event == "afterAgentResponse" for r in f.runs]
    assert [t.split(b'"text":"')[1].split(b'"')[0] for t in texts] == [b"one", b"two", b"three"]


def test_hermes_pre_verify_continuations_get_their_own_reply(tmp_path: Path) -> None:
    """Each pre_verify attempt judges that attempt's answer; post_llm_call gets the last."""
    result = run(
        tmp_path,
        f"""\
        hooks:
          pre_verify: [{{command: {HERMES_PROMISE}}}]
          post_llm_call: [{{command: "sh -c 'cat > ~/post.json'"}}]
        turns:
          - user: fix it
            edited: [a.py]
            assistant: {REPLIES}
        expect:
          files:
            ~/replies: {{equals: "working\\nstill working\\n<promise>DONE</promise>\\n"}}
            ~/post.json: {{json: {{extra.assistant_response: "<promise>DONE</promise>"}}}}
        """,
    )
    assert expect.check(result) == []


def test_a_list_of_replies_loads_as_the_reply_and_its_continuations(tmp_path: Path) -> None:
    """The first item answers the turn; reply(n) is the n-th continuation's, the last repeating."""
    path = tmp_path / "s.yaml"
    path.write_text("name: t\nturns:\n  - {user: a, assistant: [x, y, z]}\n")
    (turn,) = load_scenario(path).steps
    assert isinstance(turn, Turn)
    assert (turn.assistant, turn.continuations) == ("x", ("y", "z"))
    assert [turn.reply(n) for n in range(5)] == ["x", "y", "z", "z", "z"]


def test_a_list_of_replies_is_for_a_turn_that_is_answered(tmp_path: Path) -> None:
    """An interrupted turn has no continuations: a list there names its line."""
    path = tmp_path / "s.yaml"
    path.write_text("name: t\nturns:\n  - {user: a, assistant: [x, y], interrupted: true}\n")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path)
    assert str(exc.value) == (
        f"{path}:3: an interrupted turn is not continued: give assistant one text (what had"
        " streamed before the stop)"
    )
