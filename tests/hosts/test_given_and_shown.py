"""What the model is given because of a hook (block reasons, retry prompts, follow-ups, in each
host's wrapping) and what the user is shown, in the replay, on the real side and in compare."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hooksim.cli import main
from hooksim.commands.real import judged
from hooksim.hosts import Firing, get_host
from hooksim.judge import expect
from hooksim.real.compare import Side, differences
from hooksim.real.result import RealRun, build_result
from hooksim.replay.runner import RunResult, run_scenario
from hooksim.report.formats import timeline
from hooksim.scenario import Scenario, load_scenario

# Refuses a shell command with "rm -rf" in it, with a two-line reason on stderr and exit 2.
GUARD = "grep -q 'rm -rf' || exit 0; printf 'too <risky> & \"wide\"\\nuse a copy\\n' >&2; exit 2"
REASON = 'too <risky> & "wide"\nuse a copy'


def scenario(tmp_path: Path, text: str) -> Scenario:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return load_scenario(path)


def guarded(tmp_path: Path, tool: str, hooks: str, expect_: str = "") -> RunResult:
    """One turn whose shell call is ``rm -rf build``, on ``tool``, with these hooks."""
    text = (
        f"name: g\ntool: {tool}\nhooks:\n{hooks}turns:\n"
        "  - {user: clean, tools: [{shell: rm -rf build}], assistant: left it}\n" + expect_
    )
    return run_scenario(scenario(tmp_path, text))


def given(result: RunResult, turn: int = 1) -> list[str]:
    return [c for f in result.firings if f.turn == turn for c in f.context]


@pytest.mark.parametrize(
    ("tool", "hooks", "told"),
    [
        (
            "claude-code",
            f"  PreToolUse: [{{matcher: Bash, hooks: [{{type: command, command: {json.dumps(GUARD)}}}]}}]\n",
            f"PreToolUse:Bash hook error: [{GUARD}]: {REASON}\n",
        ),
        (
            "codex",
            f"  PreToolUse: [{{matcher: Bash, hooks: [{{type: command, command: {json.dumps(GUARD)}}}]}}]\n",
            f"Command blocked by PreToolUse hook: {REASON}. Command: rm -rf build",
        ),
        (
            "gemini-cli",
            f"  BeforeTool: [{{hooks: [{{type: command, command: {json.dumps(GUARD)}}}]}}]\n",
            f"Tool execution blocked: {REASON}",
        ),
        ("cursor", f"  preToolUse: [{{command: {json.dumps(GUARD)}}}]\n", REASON),
        (
            "hermes",
            "  pre_tool_call: [{command: "
            + json.dumps(
                'sh -c \'printf "%s" "{\\"decision\\": \\"block\\", \\"reason\\": \\"no & <no>\\"}"\''
            )
            + "}]\n",
            '{"error": "no & <no>"}',
        ),
    ],
)
def test_a_denied_tool_calls_reason_is_given_to_the_model(
    tmp_path: Path, tool: str, hooks: str, told: str
) -> None:
    """The reason a hook blocks a tool call with is what the model gets instead of the result,
    in the host's own words, and context_at_turn finds the hook's words in it."""
    words = "no & <no>" if tool == "hermes" else 'too <risky> & "wide"'
    result = guarded(
        tmp_path, tool, hooks, f"expect: {{context_at_turn: {{'1': {json.dumps(words)}}}}}\n"
    )
    assert given(result) == [told]
    assert expect.check(result) == []


def test_codex_hands_a_blocked_stop_back_as_an_escaped_hook_prompt(tmp_path: Path) -> None:
    """A blocked Stop's reason continues the turn inside <hook_prompt hook_run_id="stop:N:FILE">,
    trimmed and escaped as XML text; the hook's own words still match."""
    stop = "[ -e .once ] && exit 0; touch .once; printf ' go on & <check>\\n' >&2; exit 2"
    result = run_scenario(
        scenario(
            tmp_path,
            (
                "name: s\ntool: codex\nhooks:\n"
                "  UserPromptSubmit: [{hooks: [{type: command, command: 'true'}]}]\n"
                f"  Stop: [{{hooks: [{{type: command, command: {json.dumps(stop)}}}]}}]\n"
                "turns: [{user: u, assistant: a}]\n"
                "expect: {context_at_turn: {'1': ['go on & <check>', '&amp; &lt;check&gt;</hook_prompt>']}}\n"
            ),
        )
    )
    (text,) = given(result)
    assert text.startswith('<hook_prompt hook_run_id="stop:1:')
    assert text.endswith('/home/.codex/hooks.json">go on &amp; &lt;check&gt;</hook_prompt>')
    assert expect.check(result) == []


def test_claude_code_gives_a_blocked_stops_reason_as_feedback_until_its_cap(
    tmp_path: Path,
) -> None:
    """Each blocked Stop the model goes on after hands it the reason as Stop hook feedback;
    the eighth, which ends the turn, hands it nothing."""
    result = run_scenario(
        scenario(
            tmp_path,
            (
                "name: s\ntool: claude-code\nhooks:\n"
                "  Stop: [{hooks: [{type: command, command: 'echo again >&2; exit 2'}]}]\n"
                "turns: [{user: u, assistant: a}]\n"
            ),
        )
    )
    texts = given(result)
    assert len(texts) == 7
    assert texts[0].startswith("<system-reminder>\nThe text below is the output of a hook")
    assert texts[0].endswith(
        "\nStop hook feedback:\n[echo again >&2; exit 2]: again\n\n</system-reminder>"
    )


def test_gemini_cli_sends_every_reply_of_the_prompt_to_after_agent(tmp_path: Path) -> None:
    """AfterAgent's prompt_response holds the replies of every retry, one per line, and the
    retry prompt is the deny's reason."""
    log = tmp_path / "seen.jsonl"
    hook = f"cat >> {log}; echo >> {log}; [ $(wc -l < {log}) -ge 2 ] && exit 0; echo retry-now >&2; exit 2"
    result = run_scenario(
        scenario(
            tmp_path,
            (
                "name: s\ntool: gemini-cli\nhooks:\n"
                f"  AfterAgent: [{{hooks: [{{type: command, command: {json.dumps(hook)}}}]}}]\n"
                "turns: [{user: u, assistant: all done}]\n"
            ),
        )
    )
    seen = [json.loads(line) for line in log.read_text().splitlines() if line]
    assert [s["prompt_response"] for s in seen] == ["all done", "all done\nall done"]
    assert [s["prompt"] for s in seen] == ["u", "u"]
    assert given(result) == ["retry-now"]


def test_shown_to_user_is_judged_and_in_the_timeline(tmp_path: Path) -> None:
    """A systemMessage is shown to the user in the host's words; shown_to_user and
    shown_to_user_never judge it, and the timeline says what was shown."""
    hook = "printf '%s' '{\"systemMessage\": \"saved 3 notes\"}'"
    result = run_scenario(
        scenario(
            tmp_path,
            (
                "name: s\ntool: claude-code\nhooks:\n"
                f"  Stop: [{{hooks: [{{type: command, command: {json.dumps(hook)}}}]}}]\n"
                "turns: [{user: u, assistant: a}]\n"
                "expect: {shown_to_user: {'1': 'Stop says: saved 3'}, shown_to_user_never: [secret]}\n"
            ),
        )
    )
    assert expect.check(result) == []
    assert "shown to the user: 'Stop says: saved 3 notes'" in timeline(result)
    result.scenario = scenario(
        tmp_path,
        (
            "name: s\nturns: [{user: u, assistant: a}]\n"
            "expect: {shown_to_user: {'1': nothing}, shown_to_user_never: [saved]}\n"
        ),
    )
    assert expect.check(result) == [
        "shown to the user at turn 1: expected one containing 'nothing', got"
        " ['Stop says: saved 3 notes']",
        "shown to the user at turn 1: expected none containing 'saved', got"
        " 'Stop says: saved 3 notes'",
    ]


def test_a_blocked_prompt_is_shown_to_the_user_not_given_to_the_model(tmp_path: Path) -> None:
    """Claude Code erases a blocked prompt and shows the user the reason with the prompt."""
    hook = "echo not now >&2; exit 2"
    result = run_scenario(
        scenario(
            tmp_path,
            (
                "name: s\ntool: claude-code\nhooks:\n"
                f"  UserPromptSubmit: [{{hooks: [{{type: command, command: {json.dumps(hook)}}}]}}]\n"
                "turns: [{user: deploy it, assistant: a}]\n"
            ),
        )
    )
    assert given(result) == []
    assert [s for f in result.firings for s in f.shown] == [
        f"UserPromptSubmit operation blocked by hook:\n[{hook}]: not now\n\n\nOriginal prompt: deploy it"
    ]


def test_the_cli_fails_a_reason_expectation_naming_what_was_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """hooksim run prints the expectation that failed with what the model was given."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: s\ntool: cursor\nhooks:\n"
        f"  preToolUse: [{{command: {json.dumps(GUARD)}}}]\n"
        "turns: [{user: u, tools: [{shell: rm -rf build}], assistant: a}]\n"
        "expect: {context_at_turn: {'1': elsewhere}}\n"
    )
    assert main(["run", str(path), "-q"]) == 1
    out = capsys.readouterr().out
    assert (
        "context given to the model at turn 1: expected one containing 'elsewhere', got"
        f" [{REASON!r}]" in out
    )
    assert f"given to the model: {REASON!r}" in out


# --- the real side ---------------------------------------------------------------------------
def record(event: str, **fields: Any) -> dict[str, Any]:
    """A recorder record of one hook process (or of the probe, ``id="probe"``)."""
    base = {
        "id": "h1",
        "event": event,
        "turn": 1,
        "stdin": "{}",
        "start": 1.0,
        "end": 1.1,
        "exit": 0,
        "stdout": "",
        "stderr": "",
        "command": "hook",
    }
    return {**base, **fields}


def body(*texts: str) -> dict[str, Any]:
    return {
        "kind": "main",
        "at": 2.0,
        "body": {"input": [{"content": [{"text": t}]} for t in texts]},
    }


@pytest.mark.parametrize(
    ("tool", "hook", "sent"),
    [
        (  # Codex: the reason XML-escaped inside <hook_prompt>
            "codex",
            {"exit": 2, "stderr": "a & <b>\nc\n"},
            '<hook_prompt hook_run_id="stop:7:/h/hooks.json">a &amp; &lt;b&gt;\nc</hook_prompt>',
        ),
        (  # Hermes: the reason inside a JSON tool result
            "hermes",
            {"stdout": '{"decision": "block", "reason": "say \\"no\\"\\nnow"}'},
            json.dumps({"error": 'say "no"\nnow'}),
        ),
    ],
)
def test_the_real_detector_finds_a_reason_in_the_hosts_wrapping(
    tmp_path: Path, tool: str, hook: dict[str, Any], sent: str
) -> None:
    """A real run's context is what the fake model was sent that holds a hook's text, read
    unwrapped: found inside Codex's escaped <hook_prompt> and inside Hermes' JSON result."""
    ledger = tmp_path / "ledger.jsonl"
    ledger.write_text("")
    records = [record("Stop", id="probe"), record("Stop", **hook)]
    result = build_result(
        Scenario(tmp_path / "s.yaml", "s", ()),
        get_host(tool),
        records,
        [body("other", sent)],
        ledger,
    )
    assert given(result) == [sent]


def test_compare_sees_a_multi_line_reason_as_one_text(tmp_path: Path) -> None:
    """compare --real finds each hook's text on both sides the same way: a two-line reason the
    real host wrapped one way and hooksim another is one text, and no difference."""
    hook = record("Stop", exit=2, stderr="first line\nsecond line\n")
    records = [record("Stop", id="probe"), hook]
    ledger = tmp_path / "ledger.jsonl"
    ledger.write_text("")
    sc = Scenario(tmp_path / "s.yaml", "s", ())
    sent = '<hook_prompt hook_run_id="stop:7:x">first line\nsecond line</hook_prompt>'
    real = build_result(sc, get_host("codex"), records, [body(sent)], ledger)
    replay = RunResult(sc)
    replay.firings = [
        Firing(
            1,
            "Stop",
            0,
            blocked=True,
            reason="first line\nsecond line",
            context=['<hook_prompt hook_run_id="stop:0:y">first line\nsecond line</hook_prompt>'],
        )
    ]
    diffs = differences(
        Side(records, real, Path("/r"), {}),
        Side(records, replay, Path("/s"), {}),
        get_host("codex"),
    )
    assert [d.line() for d in diffs if d.key.startswith("context")] == []
    replay.firings[0].context = ["first line"]
    diffs = differences(
        Side(records, real, Path("/r"), {}),
        Side(records, replay, Path("/s"), {}),
        get_host("codex"),
    )
    assert [d.line() for d in diffs if d.key.startswith("context")] == [
        'context/turn 1: real ["first line\\nsecond line"]; hooksim []'
    ]


@pytest.mark.parametrize(("tool", "judges"), [("claude-code", True), ("codex", False)])
def test_shown_to_user_is_judged_where_the_real_output_says_it(
    tmp_path: Path, tool: str, judges: bool
) -> None:
    """Claude Code's stream-json output carries the notices it shows its user; codex exec's
    does not, so shown_to_user is listed as not judged there."""
    sc = scenario(
        tmp_path, "name: s\nturns: [{user: u, assistant: a}]\nexpect: {shown_to_user: {'1': x}}\n"
    )
    run = RealRun(RunResult(sc.on(tool)), [], [])
    assert judged(run) == ((["shown_to_user"], []) if judges else ([], ["shown_to_user"]))


def test_real_notices_go_to_the_firing_whose_hook_said_them(tmp_path: Path) -> None:
    """A notice the real host showed is put on the firing of the hook that said it."""
    ledger = tmp_path / "ledger.jsonl"
    ledger.write_text("")
    records = [
        record("UserPromptSubmit", id="probe"),
        record("Stop", id="probe", start=3.0),
        record("Stop", start=3.0, stdout='{"systemMessage": "saved it"}'),
    ]
    result = build_result(
        Scenario(tmp_path / "s.yaml", "s", ()),
        get_host("claude-code"),
        records,
        [],
        ledger,
        shown=[(1, "Stop says: saved it")],
    )
    assert [(f.event, f.shown) for f in result.firings] == [
        ("UserPromptSubmit", []),
        ("Stop", ["Stop says: saved it"]),
    ]
