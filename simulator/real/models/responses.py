"""The fake OpenAI Responses API (Codex CLI): ``POST /v1/responses``.

A reply streams as ``response.*`` Server-Sent Events (``response.created``, an output item per
message and per tool call, ``response.completed`` with the usage); the usage's
``input_tokens`` is what lets the fake force Codex's automatic compaction. A call of a tool the
request declares as a custom (freeform) tool, as Codex declares ``apply_patch``, goes as a
``custom_tool_call`` with its text as ``input``; any other call as a ``function_call`` with JSON
arguments (OpenAI's function-calling guide, "Custom tools").
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

from ...hosts.conversation import ASSISTANT, TOOL, USER, Message
from .dialect import Dialect, beside, sse, text_of
from .reply import Reply, ToolUse

# User messages that are Codex's own context, not the dialogue's.
_OWN_CONTEXT = ("<environment_context>", "<user_instructions>", "# AGENTS.md")


class Responses(Dialect):
    """OpenAI Responses API (Codex CLI)."""

    name = "responses"
    conversation_key = "input"
    summary_markers = ("CONTEXT CHECKPOINT COMPACTION",)

    def is_main_loop(self, path: str, body: dict[str, Any]) -> bool:
        return path.rstrip("/").endswith("/responses") and bool(body.get("tools"))

    def message(self, item: Any) -> Message:
        """The dialogue's items: user and assistant messages, tool calls and their outputs;
        Codex's developer messages (its instructions, a hook's context) and the environment
        context it sends as a user message are beside it."""
        if not isinstance(item, dict):
            return beside(text_of(item))
        kind, role, text = item.get("type"), item.get("role"), text_of(item.get("content"))
        if kind in ("function_call", "custom_tool_call"):
            return Message(
                ASSISTANT,
                f"{item.get('name')} {text_of(item.get('arguments'))}{text_of(item.get('input'))}",
            )
        if kind in ("function_call_output", "custom_tool_call_output"):
            return Message(TOOL, text_of(item.get("output")))
        if kind == "message" and role == USER and not text.startswith(_OWN_CONTEXT):
            return Message(USER, text)
        if kind == "message" and role == ASSISTANT:
            return Message(ASSISTANT, text)
        return beside(text)

    def stream(self, reply: Reply, body: dict[str, Any]) -> Iterator[bytes]:
        rid = f"resp_{uuid.uuid4().hex[:24]}"
        base = {
            "id": rid,
            "object": "response",
            "created_at": int(time.time()),
            "model": str(body.get("model", "gpt")),
            "status": "in_progress",
            "output": [],
        }
        yield sse("response.created", {"type": "response.created", "response": base})
        output: list[dict[str, Any]] = []
        if reply.text or not reply.tool_calls:
            yield from _message_item(reply.text, len(output), output)
        custom = custom_tools(body)
        for call in reply.tool_calls:
            item = tool_call_item(call, custom)
            n = len(output)
            yield sse(
                "response.output_item.added",
                {"type": "response.output_item.added", "output_index": n, "item": item},
            )
            yield sse(
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": n, "item": item},
            )
            output.append(item)
        total = reply.input_tokens + 1
        done = {
            **base,
            "status": "completed",
            "output": output,
            "usage": {
                "input_tokens": reply.input_tokens,
                "output_tokens": 1,
                "total_tokens": total,
                "input_tokens_details": {"cached_tokens": 0},
                "output_tokens_details": {"reasoning_tokens": 0},
            },
        }
        yield sse("response.completed", {"type": "response.completed", "response": done})


def _message_item(text: str, n: int, output: list[dict[str, Any]]) -> Iterator[bytes]:
    """The reply's text as the output item at index ``n``: added, its one delta, done; the
    finished item is appended to ``output``."""
    item = {
        "type": "message",
        "id": f"msg_{uuid.uuid4().hex[:16]}",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }
    yield sse(
        "response.output_item.added",
        {
            "type": "response.output_item.added",
            "output_index": n,
            "item": {**item, "content": [], "status": "in_progress"},
        },
    )
    if text:
        yield sse(
            "response.output_text.delta",
            {
                "type": "response.output_text.delta",
                "item_id": item["id"],
                "output_index": n,
                "content_index": 0,
                "delta": text,
            },
        )
    yield sse(
        "response.output_item.done",
        {"type": "response.output_item.done", "output_index": n, "item": item},
    )
    output.append(item)


def custom_tools(body: dict[str, Any]) -> set[str]:
    """The tools the request declares as custom (freeform text) tools: ``{"type": "custom"}``."""
    tools = body.get("tools")
    if not isinstance(tools, list):
        return set()
    return {
        t["name"]
        for t in tools
        if isinstance(t, dict) and t.get("type") == "custom" and isinstance(t.get("name"), str)
    }


def tool_call_item(call: ToolUse, custom: set[str]) -> dict[str, Any]:
    """One tool call as a response output item: a custom tool's with its text (the call's one
    ``input`` argument), any other tool's with its arguments as JSON."""
    if call.name in custom:
        return {
            "type": "custom_tool_call",
            "id": f"ctc_{uuid.uuid4().hex[:16]}",
            "call_id": call.call_id,
            "name": call.name,
            "input": str(call.args.get("input", "")),
            "status": "completed",
        }
    return {
        "type": "function_call",
        "id": f"fc_{uuid.uuid4().hex[:16]}",
        "call_id": call.call_id,
        "name": call.name,
        "arguments": json.dumps(call.args),
        "status": "completed",
    }
