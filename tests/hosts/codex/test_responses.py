"""Codex CLI fires nothing per model response, but its rollout shows each one as real 0.171.0
writes it: the response's function calls, then its token usage once, before the first
PreToolUse; the calls' outputs, then one token count."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from ..recording import recorded


def run(tmp_path: Path, turns: str) -> list[dict[str, Any]]:
    """The scenario's turns with a recording hook on PreToolUse and Stop; what it recorded."""
    return recorded(tmp_path, "codex", ("PreToolUse", "Stop"), turns)


def kinds(record: dict[str, Any]) -> list[str]:
    """The rollout's tool call lines and their bookkeeping, as a hook found them."""
    said = []
    for line in record["records"]:
        payload = line["payload"]
        kind = payload.get("type") if line["type"] in ("response_item", "event_msg") else ""
        if kind in ("function_call", "function_call_output"):
            said.append(f"{kind} {payload['call_id']}")
        elif line["type"] == "token_usage_record" or kind == "token_count":
            said.append(kind or line["type"])
        elif kind == "message" and payload["role"] == "assistant":
            said.append("reply")
    return said


RESPONSES = """\
  - user: look around
    responses:
      - tools: [{shell: echo one}, {shell: echo two}]
      - tools: [{shell: echo three}]
    assistant: Looked.
"""


def test_a_response_is_its_calls_then_its_usage(tmp_path: Path) -> None:
    """Before the first call's PreToolUse, the rollout holds the response's two calls and one
    usage record (real 0.171.0 with these responses)."""
    records = run(tmp_path, RESPONSES)
    assert kinds(records[0]) == [
        "function_call call_1",
        "function_call call_2",
        "token_usage_record",
    ]


def test_each_response_has_one_usage_and_one_token_count(tmp_path: Path) -> None:
    """By Stop: per response its calls, one usage record, their outputs, one token count; then
    the reply's (real 0.171.0 wrote the outputs of one response after both its commands had
    run, side by side; hooksim runs them one after the other)."""
    records = run(tmp_path, RESPONSES)
    assert kinds(records[-1]) == [
        "function_call call_1",
        "function_call call_2",
        "token_usage_record",
        "function_call_output call_1",
        "function_call_output call_2",
        "token_count",
        "function_call call_3",
        "token_usage_record",
        "function_call_output call_3",
        "token_count",
        "reply",
        "token_usage_record",
        "token_count",
    ]


def test_without_responses_each_call_is_a_response_of_its_own(tmp_path: Path) -> None:
    """``tools:`` is one call per response, as the real driver serves them."""
    records = run(
        tmp_path,
        textwrap.dedent("""\
      - user: look around
        tools: [{shell: echo one}, {shell: echo two}]
        assistant: Looked.
    """),
    )
    assert kinds(records[-1]) == [
        "function_call call_1",
        "token_usage_record",
        "function_call_output call_1",
        "token_count",
        "function_call call_2",
        "token_usage_record",
        "function_call_output call_2",
        "token_count",
        "reply",
        "token_usage_record",
        "token_count",
    ]


def test_a_full_context_compacts_after_the_responses_calls(tmp_path: Path) -> None:
    """The response that reports a full context asked for two calls: Codex compacts once both
    are done, before its next request (real 0.171.0 with these responses)."""
    records = recorded(
        tmp_path,
        "codex",
        ("PreToolUse", "PostToolUse", "PreCompact"),
        """\
        - user: run three
          responses:
            - tools: [{shell: echo one, compact: auto}, {shell: echo two}]
            - tools: [{shell: echo three}]
          assistant: Done.
    """,
    )
    fired = [r["payload"] for r in records]
    assert [" ".join([p["hook_event_name"], *p.get("tool_input", {}).values()]) for p in fired] == [
        "PreToolUse echo one",
        "PostToolUse echo one",
        "PreToolUse echo two",
        "PostToolUse echo two",
        "PreCompact",
        "PreToolUse echo three",
        "PostToolUse echo three",
    ]
