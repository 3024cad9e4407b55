"""The fake Anthropic Messages API (Claude Code): ``POST /v1/messages``.

With ``stream: true`` a reply is Server-Sent Events, ``message_start`` ... ``message_stop``,
one content block per text and per tool call; an error is Anthropic's ``{"type": "error"}``
body (``overloaded_error`` for 529).
"""

from __future__ import annotations

import json
import secrets
import uuid
from collections.abc import Iterator
from typing import Any

from ...hosts.conversation import TOOL, Message
from .dialect import Dialect, beside, sse, text_of
from .reply import Reply


class Anthropic(Dialect):
    """Anthropic Messages API (Claude Code)."""

    name = "anthropic"
    summary_markers = ("create a detailed summary of the conversation",)

    def is_main_loop(self, path: str, body: dict[str, Any]) -> bool:
        # The agent loop sends its tools; side requests (titles, summaries) send none.
        return path.startswith("/v1/messages") and bool(body.get("tools"))

    def message(self, item: Any) -> Message:
        """A user or assistant message of the dialogue; a ``system`` one (Claude Code's own
        context, a hook's context) is beside it."""
        role = item.get("role") if isinstance(item, dict) else None
        content = item.get("content") if isinstance(item, dict) else None
        if (
            role == "user"
            and isinstance(content, list)
            and content
            and all(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
        ):
            return Message(TOOL, text_of(content))  # a tool's result
        return (
            Message(role, text_of(content))
            if role in ("user", "assistant")
            else beside(text_of(content))
        )

    def reply_headers(self) -> dict[str, str]:
        """Every answer of Anthropic's API names its request (``request-id: req_...``), which
        Claude Code writes on the transcript's assistant records (``requestId``)."""
        return {"request-id": f"req_{secrets.token_hex(12)}"}

    def error(self, reply: Reply) -> dict[str, Any]:
        kind = "overloaded_error" if reply.status == 529 else "api_error"
        return {
            "type": "error",
            "error": reply.error or {"type": kind, "message": f"scripted error {reply.status}"},
        }

    def plain(self, reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
        content: list[dict[str, Any]] = [{"type": "text", "text": reply.text}]
        content += [
            {"type": "tool_use", "id": c.call_id, "name": c.name, "input": c.args}
            for c in reply.tool_calls
        ]
        return {
            "id": f"msg_{uuid.uuid4().hex[:24]}",
            "type": "message",
            "role": "assistant",
            "model": str(body.get("model", "claude")),
            "content": content,
            "stop_reason": "tool_use" if reply.tool_calls else "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": 1},
        }

    def stream(self, reply: Reply, body: dict[str, Any]) -> Iterator[bytes]:
        model = str(body.get("model", "claude"))
        usage = {"input_tokens": reply.input_tokens, "output_tokens": 1}
        message: dict[str, Any] = {
            "id": f"msg_{uuid.uuid4().hex[:24]}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": usage,
        }
        yield sse("message_start", {"type": "message_start", "message": message})
        blocks: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
        if reply.text or not reply.tool_calls:
            text = {"type": "text_delta", "text": reply.text} if reply.text else None
            blocks.append(({"type": "text", "text": ""}, text))
        for call in reply.tool_calls:
            tool = {"type": "tool_use", "id": call.call_id, "name": call.name, "input": {}}
            blocks.append(
                (tool, {"type": "input_json_delta", "partial_json": json.dumps(call.args)})
            )
        for index, (block, delta) in enumerate(blocks):
            yield from _content_block(index, block, delta)
        stop = "tool_use" if reply.tool_calls else "end_turn"
        yield sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 1},
            },
        )
        yield sse("message_stop", {"type": "message_stop"})


def _content_block(
    index: int, block: dict[str, Any], delta: dict[str, Any] | None
) -> Iterator[bytes]:
    """One content block of a streamed message: its start, its one delta, its stop."""
    start = {"type": "content_block_start", "index": index, "content_block": block}
    yield sse("content_block_start", start)
    if delta is not None:
        yield sse(
            "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        )
    yield sse("content_block_stop", {"type": "content_block_stop", "index": index})
