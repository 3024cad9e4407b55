"""Session steps: a resumed session (``resume: true``: the user quits and runs ``claude
--resume``), steps addressed by their ``label`` in the turn-keyed expectations (two ``/clear``
steps told apart), and Gemini CLI's ``clearContext``, which empties the conversation when an
AfterAgent hook stops or retries the agent."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from hooksim.judge import expect
from hooksim.replay.runner import run_scenario
from hooksim.scenario import ScenarioError, load_scenario

# Each hook appends the payload fields that tell its firing apart.
LOG = (
    'python3 -c \'import json,sys; p=json.load(sys.stdin); print(p["hook_event_name"],'
    ' p["session_id"], *filter(None, [p.get("source") or p.get("reason")]))\' >> events.txt'
)


def scenario(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text("name: t\n" + textwrap.dedent(body))
    return path


def logged(tool: str, events: list[str]) -> str:
    """A hooks block (Claude Code's and Gemini CLI's shape) logging each of ``events``."""
    return json.dumps(
        {event: [{"hooks": [{"type": "command", "command": LOG}]}] for event in events}
    )


def test_claude_code_resume_ends_the_process_and_starts_the_same_session(tmp_path: Path) -> None:
    """resume: the user quits (SessionEnd, prompt_input_exit) and runs claude --resume: the new
    process fires SessionStart with source resume and the same session id on its first prompt
    (as the first launch's SessionStart comes with the first turn), saying how long ago the
    last reply was; the step's firings are addressed by its label."""
    path = scenario(
        tmp_path,
        f"""\
        tool: claude-code
        hooks: {logged("claude-code", ["SessionStart", "SessionEnd", "UserPromptSubmit"])}
        turns:
          - {{user: hi, assistant: hello}}
          - {{resume: true, label: back, after: 1h}}
          - {{user: where were we, assistant: at hello}}
        expect:
          fired_by_turn:
            "1": [SessionStart, UserPromptSubmit, Stop]
            back: [SessionEnd]
            "2": [SessionStart, UserPromptSubmit, Stop, SessionEnd]
          files:
            events.txt:
              equals: |
                SessionStart session-1 startup
                UserPromptSubmit session-1
                SessionEnd session-1 prompt_input_exit
                SessionStart session-1 resume
                UserPromptSubmit session-1
                SessionEnd session-1 prompt_input_exit
        """,
    )
    result = run_scenario(load_scenario(path))
    assert expect.check(result) == []
    (quit,) = [f for f in result.firings if f.step == "back"]
    assert (quit.turn, quit.event, quit.match) == (0, "SessionEnd", "prompt_input_exit")
    resumed = next(r for r in result.runs if r.event == "SessionStart" and r.turn == 2)
    payload = json.loads(resumed.stdin)
    assert payload["seconds_since_last_response"] == 3600
    assert payload["prompt_cache_likely_expired"] is True


def test_gemini_cli_resume_interactive_and_headless(tmp_path: Path) -> None:
    """Gemini CLI quits (SessionEnd exit) and gemini --resume fires SessionStart(resume);
    headless, each prompt is a run of its own that resumes the last one: the step fires
    nothing."""
    path = scenario(
        tmp_path,
        f"""\
        tool: gemini-cli
        hooks: {logged("gemini-cli", ["SessionStart", "SessionEnd"])}
        turns:
          - {{user: hi, assistant: hello}}
          - {{resume: true}}
          - {{user: again, assistant: hello}}
        expect:
          fired_by_turn: {{"0": [SessionEnd, SessionStart]}}
          files:
            events.txt:
              equals: |
                SessionStart session-1 startup
                SessionEnd session-1 exit
                SessionStart session-1 resume
                SessionEnd session-1 exit
        """,
    )
    assert expect.check(run_scenario(load_scenario(path))) == []
    headless = scenario(
        tmp_path,
        f"""\
        tool: gemini-cli
        hosts: {{gemini-cli: {{launch: headless}}}}
        hooks: {logged("gemini-cli", ["SessionStart"])}
        turns:
          - {{user: hi, assistant: hello}}
          - {{resume: true, label: back}}
          - {{user: again, assistant: hello}}
        expect:
          fired_by_turn: {{back: []}}
          files:
            events.txt:
              equals: |
                SessionStart session-1 startup
                SessionStart session-1 resume
        """,
    )
    assert expect.check(run_scenario(load_scenario(headless))) == []


def test_two_clear_steps_are_told_apart_by_their_labels(tmp_path: Path) -> None:
    """Turn-keyed expectations take a step's label as well as a turn number: each /clear step's
    firings (and the context its SessionStart gave) are its own; "0" still means every /new."""
    path = scenario(
        tmp_path,
        """\
        tool: claude-code
        hooks:
          SessionStart:
            - matcher: clear
              hooks: [{type: command, command: 'echo "cleared into $CLAUDE_CODE_SESSION_ID"'}]
        turns:
          - {user: hi, assistant: hello, label: first}
          - {new_session: two, label: clear-1}
          - {user: hi, assistant: hello}
          - {new_session: three, label: clear-2}
          - {user: hi, assistant: hello}
        expect:
          fired_by_turn:
            first: [SessionStart, UserPromptSubmit, Stop]
            clear-1: [SessionEnd, SessionStart]
            clear-2: [SessionEnd, SessionStart]
            "0": [SessionEnd, SessionStart, SessionEnd, SessionStart]
          context_at_turn:
            clear-1: cleared into two
            clear-2: cleared into three
          context_never: [cleared into session-1]
        """,
    )
    assert expect.check(run_scenario(load_scenario(path))) == []
    swapped = path.read_text().replace("clear-1: cleared into two", "clear-1: cleared into three")
    path.write_text(swapped)
    assert expect.check(run_scenario(load_scenario(path))) == [
        "context given to the model at step clear-1: expected one containing 'cleared into"
        " three', got ['cleared into two']"
    ]


@pytest.mark.parametrize(
    ("body", "line", "why"),
    [
        (
            "tool: codex\nturns:\n  - {user: hi, assistant: hello}\n  - {resume: true}\n",
            5,
            "turns/1: resume: hooksim replays a resumed session on Claude Code and Gemini CLI,"
            " not Codex CLI",
        ),
        (
            "tool: claude-code\nturns:\n  - {user: hi, assistant: hello, label: a}\n"
            "  - {new_session: null, label: a}\n",
            5,
            "turns/1/label: 'a' labels two steps",
        ),
        (
            "tool: claude-code\nturns:\n  - {user: hi, assistant: hello}\n"
            "expect:\n  fired_by_turn: {later: [Stop]}\n",
            6,
            "expect.fired_by_turn.later names no step: label a step (label: later) or give a turn"
            " number",
        ),
        (
            "tool: claude-code\nturns:\n  - {user: hi, assistant: hello, label: '2'}\n",
            4,
            "turns/0/label: '2' is a number; a label starts with a letter",
        ),
        (
            "tool: claude-code\nturns:\n  - {user: hi, assistant: hello}\n  - {resume: false}\n",
            5,
            "turns/1/resume: resume is true (the user quits and resumes this session)",
        ),
    ],
)
def test_bad_steps_and_labels_are_file_line_errors(
    tmp_path: Path, body: str, line: int, why: str
) -> None:
    """A resume on a host hooksim does not resume, a label used twice or not at all, a numeric
    label: one line naming the file and line."""
    path = scenario(tmp_path, body)
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path)
    assert str(exc.value) == f"{path}:{line}: {why}"


# An AfterAgent hook that retries once with the conversation cleared, then lets the turn end.
CLEAR_ONCE = (
    '[ -e .cleared ] && exit 0; touch .cleared; printf \'%s\' \'{"decision": "deny", "reason":'
    ' "start over: summarise the plan", "hookSpecificOutput": {"clearContext": true}}\''
)


@pytest.mark.parametrize("launch", ["interactive", "headless"])
def test_gemini_cli_clear_context_empties_the_conversation(tmp_path: Path, launch: str) -> None:
    """An AfterAgent deny with hookSpecificOutput.clearContext resets the chat before the retry
    prompt is sent: the timeline says so, and the interactive UI tells the user (headless
    prints nothing of it)."""
    path = scenario(
        tmp_path,
        f"""\
        tool: gemini-cli
        hosts: {{gemini-cli: {{launch: {launch}}}}}
        hooks:
          AfterAgent: [{{hooks: [{{type: command, command: {json.dumps(CLEAR_ONCE)}}}]}}]
        turns:
          - {{user: plan it, assistant: [a long plan, the summary]}}
        expect:
          blocked: {{AfterAgent: 1}}
          context_at_turn: {{"1": "start over: summarise the plan"}}
          effects: [the conversation is cleared (clearContext) before the reason is sent]
        """,
    )
    result = run_scenario(load_scenario(path))
    assert expect.check(result) == []
    shown = [text for f in result.firings for text in f.shown]
    cleared = "Conversation context has been cleared."
    assert (cleared in shown) == (launch == "interactive"), shown
    (denied, _) = [f for f in result.firings if f.event == "AfterAgent"]
    assert denied.cleared


@pytest.mark.parametrize(
    ("event", "output"),
    [
        ("AfterAgent", '{"hookSpecificOutput": {"clearContext": true}}'),
        (
            "BeforeAgent",
            '{"decision": "deny", "reason": "no", "hookSpecificOutput": {"clearContext": true}}',
        ),
    ],
)
def test_clear_context_needs_an_after_agent_stop_or_deny(
    tmp_path: Path, event: str, output: str
) -> None:
    """clearContext is read from AfterAgent only, and only when it stops or denies the agent."""
    path = scenario(
        tmp_path,
        f"""\
        tool: gemini-cli
        hooks:
          {event}: [{{hooks: [{{type: command, command: {json.dumps("echo '" + output + "'")}}}]}}]
        turns:
          - {{user: plan it, assistant: done}}
        """,
    )
    result = run_scenario(load_scenario(path))
    assert not any(f.cleared for f in result.firings)
    assert not any("clearContext" in f.effect for f in result.firings)


def test_clock_back_without_after_moves_only_its_own_step(tmp_path: Path) -> None:
    """A step that sets the clock back with no after of its own is a later instant than the
    step before it: that step keeps its time (2027-06-02 09:00), this one is a day earlier."""
    stamp = '"$HOOKSIM_PYTHON" -c "import time; print(int(time.time()))" >> times.txt'
    hook = json.dumps([{"hooks": [{"type": "command", "command": stamp}]}])
    path = scenario(
        tmp_path,
        f"""\
        tool: claude-code
        clock: {{tick: false}}
        hooks: {{UserPromptSubmit: {hook}}}
        turns:
          - {{user: hi, assistant: ok}}
          - {{after: 366d, user: hi, assistant: ok}}
          - {{clock_back: 1d, user: hi, assistant: ok}}
        expect:
          files:
            times.txt: {{equals: "1780304400\\n1811926800\\n1811840400\\n"}}
        """,
    )
    assert expect.check(run_scenario(load_scenario(path))) == []
