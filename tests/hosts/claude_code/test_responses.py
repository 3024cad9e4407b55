"""Claude Code answers each model response that asks for tool calls as real 2.1.332 does:
PostToolBatch once that response's calls are done, and in the session JSONL one assistant
record per call, those of one response sharing its message id and request."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

from hooksim.replay.runner import run_scenario
from hooksim.scenario import load_scenario

from ..recording import TRANSCRIPT, recorded


def run(tmp_path: Path, turns: str) -> list[dict[str, Any]]:
    """The scenario's turns with a recording hook on every tool event; what it recorded."""
    return recorded(
        tmp_path,
        "claude-code",
        ("PreToolUse", "PostToolUse", "PostToolBatch", "Stop"),
        turns,
        matcher="*",
    )


def seen(records: list[dict[str, Any]]) -> list[str]:
    """Each firing: its event and the commands it is about."""
    said = []
    for r in records:
        p = r["payload"]
        calls = p.get("tool_calls") or ([p] if "tool_input" in p else [])
        said.append(" ".join([p["hook_event_name"], *(c["tool_input"]["command"] for c in calls)]))
    return said


CALL = "{{name: Bash, args: {{command: {0}, description: {0}}}, result: {0}}}"


def test_post_tool_batch_follows_each_response(tmp_path: Path) -> None:
    """Two calls in one response, then one: PostToolBatch after each response's calls, with
    those calls (real 2.1.332 run with these responses)."""
    one, two, three = (CALL.format(w) for w in ("one", "two", "three"))
    records = run(
        tmp_path,
        f"""\
      - user: look around
        responses:
          - tools: [{one}, {two}]
          - tools: [{three}]
        assistant: Looked.
    """,
    )
    assert seen(records) == [
        "PreToolUse one",
        "PostToolUse one",
        "PreToolUse two",
        "PostToolUse two",
        "PostToolBatch one two",
        "PreToolUse three",
        "PostToolUse three",
        "PostToolBatch three",
        "Stop",
    ]


def test_without_responses_each_call_is_a_response_of_its_own(tmp_path: Path) -> None:
    """``tools:`` is one call per response, as the real driver serves them: PostToolBatch after
    each call (real 2.1.332)."""
    one, two = (CALL.format(w) for w in ("one", "two"))
    records = run(
        tmp_path,
        f"""\
      - user: look around
        tools: [{one}, {two}]
        assistant: Looked.
    """,
    )
    assert seen(records) == [
        "PreToolUse one",
        "PostToolUse one",
        "PostToolBatch one",
        "PreToolUse two",
        "PostToolUse two",
        "PostToolBatch two",
        "Stop",
    ]


def test_one_response_is_one_message_in_the_transcript(tmp_path: Path) -> None:
    """The calls of one response are written before the first PreToolUse, each an assistant
    record of that response's message (its id, request, and the block's index); each result
    points at its own call's record (real 2.1.332's JSONL)."""
    one, two, three = (CALL.format(w) for w in ("one", "two", "three"))
    records = run(
        tmp_path,
        f"""\
      - user: look around
        responses:
          - tools: [{one}, {two}]
          - tools: [{three}]
        assistant: Looked.
    """,
    )
    first = [r for r in records[0]["records"] if r["type"] == "assistant"]
    assert [r["message"]["content"][0]["input"]["command"] for r in first] == ["one", "two"]
    final = records[-1]["records"]
    calls = [
        r for r in final if r["type"] == "assistant" and r["message"]["stop_reason"] == "tool_use"
    ]
    assert [r["apiBlockIndex"] for r in calls] == [0, 1, 0]
    assert calls[0]["message"]["id"] == calls[1]["message"]["id"] != calls[2]["message"]["id"]
    assert calls[0]["requestId"] == calls[1]["requestId"] != calls[2]["requestId"]
    assert calls[0]["requestRef"] == calls[1]["requestRef"] != calls[2]["requestRef"]
    results = [
        r for r in final if r["type"] == "user" and isinstance(r["message"]["content"], list)
    ]
    assert [r["parentUuid"] for r in results] == [c["uuid"] for c in calls]
    assert [r["sourceToolAssistantUUID"] for r in results] == [c["uuid"] for c in calls]


def test_a_denied_call_is_in_its_batch_with_the_denial(tmp_path: Path) -> None:
    """A call a PreToolUse hook denied is in its response's PostToolBatch, its tool_response
    the denial the model got (real 2.1.332: 'PreToolUse:Bash hook error: not in this repo')."""
    hook = tmp_path / "hook.py"
    hook.write_text(TRANSCRIPT)
    out = tmp_path / "records.jsonl"
    record = json.dumps(f"{sys.executable} {hook}")
    deny = json.dumps(
        json.dumps(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "not in this repo",
                }
            }
        )
    )
    path = tmp_path / "s.yaml"
    path.write_text(
        textwrap.dedent(f"""\
        name: t
        tool: claude-code
        env: {{RECORD_TO: {json.dumps(str(out))}}}
        hooks:
          PreToolUse: [{{matcher: Bash, hooks: [{{type: command, command: {json.dumps("echo " + deny)}}}]}}]
          PostToolBatch: [{{hooks: [{{type: command, command: {record}}}]}}]
        turns:
          - user: clean
            tools: [{CALL.format("rm")}]
            assistant: done
    """)
    )
    run_scenario(load_scenario(path), workdir_root=tmp_path)
    (batch,) = [json.loads(line)["payload"] for line in out.read_text().splitlines()]
    assert [c["tool_response"] for c in batch["tool_calls"]] == [
        "PreToolUse:Bash hook error: not in this repo"
    ]
