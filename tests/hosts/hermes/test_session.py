"""The Hermes host as hermes-agent 0.19.0 runs a session: ids, history, environment, pre_verify."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from hooksim.replay.runner import RunResult, run_scenario
from hooksim.report.formats import timeline
from hooksim.scenario import load_scenario

# Prints a context for pre_llm_call and, for pre_verify, asks to continue while attempt < 5.
HOOK = """\
import json, os, sys
payload = json.load(sys.stdin)
event = payload["hook_event_name"]
with open(os.environ["RECORD_TO"], "a") as f:
    f.write(json.dumps({"payload": payload, "env": {k: v for k, v in os.environ.items()
                        if k.startswith("HERMES_")}}) + "\\n")
if event == "pre_llm_call":
    print(json.dumps({"context": "CTX " + payload["extra"]["user_message"]}))
if event == "pre_verify" and payload["extra"]["attempt"] < 5:
    print(json.dumps({"action": "continue", "message": "run the tests"}))
if event == "pre_tool_call" and payload["tool_name"] == "terminal":
    print(json.dumps({"decision": "block", "reason": "no shell"}))
"""
EVENTS = (
    "on_session_start",
    "pre_llm_call",
    "post_llm_call",
    "on_session_end",
    "pre_tool_call",
    "post_tool_call",
    "pre_verify",
    "on_session_finalize",
    "on_session_reset",
)


def run(tmp_path: Path, body: str) -> tuple[RunResult, list[dict[str, Any]]]:
    hook = tmp_path / "hook.py"
    hook.write_text(HOOK)
    out = tmp_path / "records.jsonl"
    command = json.dumps(f"{sys.executable} {hook}")
    hooks = "".join(f"  {e}:\n    - command: {command}\n" for e in EVENTS)
    path = tmp_path / "s.yaml"
    path.write_text(f"name: t\nenv: {{RECORD_TO: {json.dumps(str(out))}}}\nhooks:\n{hooks}{body}")
    result = run_scenario(load_scenario(path))
    records = [json.loads(line) for line in out.read_text().splitlines()]
    return result, records


def of(records: list[dict[str, Any]], event: str) -> list[dict[str, Any]]:
    return [r["payload"] for r in records if r["payload"]["hook_event_name"] == event]


def test_cli_ids_and_environment(tmp_path: Path) -> None:
    """Session id YYYYMMDD_HHMMSS_hex6 from the clock, task_id is it, turn_id sid:sid:hex8;
    hooks see HERMES_QUIET, HERMES_INTERACTIVE and the session id."""
    _, records = run(tmp_path, "turns:\n  - {user: a, assistant: b}\n  - {user: c, assistant: d}\n")
    sid = records[0]["payload"]["session_id"]
    assert re.fullmatch(r"20260601_090000_[0-9a-f]{6}", sid)
    pre = of(records, "pre_llm_call")
    assert [p["extra"]["task_id"] for p in pre] == [sid, sid]
    turn_ids = [p["extra"]["turn_id"] for p in pre]
    assert all(re.fullmatch(rf"{sid}:{sid}:[0-9a-f]{{8}}", t) for t in turn_ids)
    assert len(set(turn_ids)) == 2
    assert records[0]["env"] == {
        "HERMES_HOME": records[0]["env"]["HERMES_HOME"],
        "HERMES_QUIET": "1",
        "HERMES_INTERACTIVE": "1",
        "HERMES_SESSION_ID": sid,
    }


def test_a_scenario_may_set_its_own_session_id(tmp_path: Path) -> None:
    """session.id wins over the generated one."""
    _, records = run(tmp_path, "session: {id: mine}\nturns:\n  - {user: a, assistant: b}\n")
    assert {r["payload"]["session_id"] for r in records} == {"mine"}
    assert records[0]["env"]["HERMES_SESSION_ID"] == "mine"


def test_history_has_hermes_message_shapes(tmp_path: Path) -> None:
    """api_content on a user message that got context, tool calls and tool messages with ids,
    api_request_id and duration_ms from the scenario, a blocked call's error fields."""
    result, records = run(
        tmp_path,
        "turns:\n  - user: go\n    tools:\n"
        "      - {id: call_x1, name: read_file, args: {path: a}, result: hello, duration: 250ms}\n"
        "      - {name: terminal, args: {command: ls}}\n"
        "    assistant: done\n",
    )
    (post,) = of(records, "post_llm_call")
    turn_id = post["extra"]["turn_id"]
    history = post["extra"]["conversation_history"]
    assert history[0] == {
        "role": "user",
        "content": "go",
        "api_content": "go\n\nCTX go",
        "_db_persisted": True,
    }
    assert history[1]["finish_reason"] == "tool_calls"
    assert [c["id"] for c in history[1]["tool_calls"]] == ["call_x1", "call_2"]
    assert history[2] == {
        "role": "tool",
        "name": "read_file",
        "tool_name": "read_file",
        "content": "hello",
        "tool_call_id": "call_x1",
        "_db_persisted": True,
    }
    assert history[-1] == {
        "role": "assistant",
        "content": "done",
        "reasoning": None,
        "finish_reason": "stop",
        "_db_persisted": True,
    }
    first, second = of(records, "post_tool_call")
    assert first["extra"]["api_request_id"] == f"{turn_id}:api:1"
    assert (first["extra"]["duration_ms"], first["extra"]["status"]) == (250, "ok")
    assert (second["extra"]["status"], second["extra"]["error_type"]) == ("blocked", "plugin_block")
    assert second["extra"]["error_message"] == "no shell"
    assert second["extra"]["result"] == '{"error": "no shell"}'
    assert result.runs


def test_unanswered_message_is_merged_and_its_context_lost(tmp_path: Path) -> None:
    """After a failed call the next message is merged into the unanswered one; the timeline
    says why the new turn's context did not reach the model."""
    result, records = run(
        tmp_path,
        "turns:\n  - {user: first, error: 400}\n  - {user: second, assistant: ok}\n"
        'expect:\n  context_at_turn: {"1": "CTX first"}\n',
    )
    pre = of(records, "pre_llm_call")
    assert [m["content"] for m in pre[1]["extra"]["conversation_history"]] == ["first", "second"]
    (post,) = of(records, "post_llm_call")
    assert post["extra"]["conversation_history"][0]["content"] == "first\n\nsecond"
    assert "api_content" not in post["extra"]["conversation_history"][0]
    assert [f.context for f in result.firings if f.event == "pre_llm_call"] == [["CTX first"], []]
    assert "merged this one into it" in timeline(result)
    assert not of(records, "on_session_end")[1:]  # the failed turn ended nothing


def test_pre_verify_continues_up_to_the_cap(tmp_path: Path) -> None:
    """A turn that wrote a file fires pre_verify; continue keeps it going, at most
    max_verify_nudges times, each answer kept as a candidate."""
    result, records = run(
        tmp_path,
        "session: {max_verify_nudges: 2}\nturns:\n  - user: edit\n    tools:\n"
        "      - {name: write_file, args: {path: a.py, content: x}}\n    assistant: edited\n",
    )
    verify = of(records, "pre_verify")
    assert [v["extra"]["attempt"] for v in verify] == [0, 1]
    assert verify[0]["extra"]["changed_paths"][0].endswith("/project/a.py")
    (post,) = of(records, "post_llm_call")
    reasons = [m.get("finish_reason") for m in post["extra"]["conversation_history"]]
    assert reasons == [
        None,
        "tool_calls",
        None,
        "verify_hook_continue",
        "verify_hook_continue",
        "stop",
    ]
    assert "continuation 2 of at most 2" in timeline(result)


def test_no_pre_verify_without_an_edit(tmp_path: Path) -> None:
    """A turn that edited nothing does not fire pre_verify."""
    _, records = run(tmp_path, "turns:\n  - {user: a, assistant: b}\n")
    assert not of(records, "pre_verify")


def test_gateway_session_id_is_the_last_agents(tmp_path: Path) -> None:
    """On a gateway the hooks inherit HERMES_SESSION_ID of the agent created last, whichever
    chat they belong to; there is no HERMES_INTERACTIVE."""
    _, records = run(
        tmp_path,
        "sessions:\n  - id: chat-a\n    turns:\n      - {user: a, assistant: b}\n"
        "      - {after: 2m, user: c, assistant: d}\n"
        "  - id: chat-b\n    turns:\n      - {after: 1m, user: e, assistant: f}\n",
    )
    last = [r for r in records if r["payload"]["session_id"] == "chat-a"][-1]
    assert last["env"]["HERMES_SESSION_ID"] == "chat-b"
    assert "HERMES_INTERACTIVE" not in last["env"]
