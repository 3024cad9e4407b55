"""Hermes answers each model response that asks for tool calls as hermes-agent 0.19.0 does: an
API request per response (its calls' ``api_request_id``), and the response's assistant message
flushed to state.db before its calls run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..recording import HERMES_STORE, recorded


def run(tmp_path: Path, turns: str) -> list[dict[str, Any]]:
    """The scenario's turns with a recording hook on pre_tool_call; what it recorded."""
    return recorded(tmp_path, "hermes", ("pre_tool_call",), turns, hook=HERMES_STORE)


def rows(record: dict[str, Any]) -> list[str]:
    """state.db's messages as a hook found them: each role, with the ids of its calls."""
    said = []
    for role, calls, call_id in record["rows"]:
        ids = [c["id"] for c in json.loads(calls)] if calls else [call_id] if call_id else []
        said.append(" ".join([role, *ids]))
    return said


def test_an_api_request_per_response(tmp_path: Path) -> None:
    """Two calls in one response, then one: the first two calls belong to the turn's first
    request, the third to its second; before the third runs, state.db holds the first
    response, its results and the second response (conversation_loop.py: api_request_id per
    API call, ``_flush_messages_to_session_db`` before ``_execute_tool_calls``)."""
    records = run(
        tmp_path,
        """\
      - user: look around
        responses:
          - tools: [{shell: echo one}, {shell: echo two}]
          - tools: [{shell: echo three}]
        assistant: Looked.
    """,
    )
    requests = [r["payload"]["extra"]["api_request_id"].rsplit(":", 2)[1:] for r in records]
    assert requests == [["api", "1"], ["api", "1"], ["api", "2"]]
    assert rows(records[0]) == ["user", "assistant call_1 call_2"]
    assert rows(records[2]) == [
        "user",
        "assistant call_1 call_2",
        "tool call_1",
        "tool call_2",
        "assistant call_3",
    ]


def test_without_responses_one_response_asks_for_every_call(tmp_path: Path) -> None:
    """``tools:`` is one response for all the turn's calls, as the real driver serves Hermes."""
    records = run(
        tmp_path,
        """\
      - user: look around
        tools: [{shell: echo one}, {shell: echo two}]
        assistant: Looked.
    """,
    )
    requests = [r["payload"]["extra"]["api_request_id"].rsplit(":", 1)[1] for r in records]
    assert requests == ["1", "1"]
    assert rows(records[1]) == ["user", "assistant call_1 call_2"]
