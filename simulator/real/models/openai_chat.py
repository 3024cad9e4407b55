"""The fake OpenAI Chat Completions API (Hermes' ``custom`` OpenAI-compatible provider).

``POST /v1/chat/completions``: streaming chunks (the message, then the finish reason and the
usage, then ``[DONE]``), or one completion. ``invalid_request`` is OpenAI's error object for a
request it refuses, for a script whose client reads what an error says.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

from ...hosts.conversation import Message
from .dialect import Dialect, beside, sse, text_of
from .reply import Reply


class OpenAIChat(Dialect):
    """OpenAI Chat Completions (Hermes, through its ``custom`` OpenAI-compatible provider)."""

    name = "openai-chat"
    summary_markers = ("CONTEXT COMPACTION",)

    def is_main_loop(self, path: str, body: dict[str, Any]) -> bool:
        return path.rstrip("/").endswith("/chat/completions") and bool(body.get("tools"))

    def message(self, item: Any) -> Message:
        """A user, assistant or tool message (an assistant's tool calls with it); the system
        message, Hermes' own, is beside the dialogue."""
        role = item.get("role") if isinstance(item, dict) else None
        if not isinstance(item, dict) or role not in ("user", "assistant", "tool"):
            return beside(text_of(item))
        return Message(role, text_of({k: v for k, v in item.items() if k != "role"}))

    def _message(self, reply: Reply) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": reply.text}
        if reply.tool_calls:
            message["tool_calls"] = [
                {
                    "id": c.call_id,
                    "type": "function",
                    "function": {"name": c.name, "arguments": json.dumps(c.args)},
                }
                for c in reply.tool_calls
            ]
        return message

    def _usage(self, reply: Reply) -> dict[str, int]:
        return {
            "prompt_tokens": reply.input_tokens,
            "completion_tokens": 1,
            "total_tokens": reply.input_tokens + 1,
        }

    def stream(self, reply: Reply, body: dict[str, Any]) -> Iterator[bytes]:
        base = {
            "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": str(body.get("model", "gpt")),
        }
        message = self._message(reply)
        if "tool_calls" in message:
            message["tool_calls"] = [{"index": i, **c} for i, c in enumerate(message["tool_calls"])]
        finish = "tool_calls" if reply.tool_calls else "stop"
        yield sse(
            None, {**base, "choices": [{"index": 0, "delta": message, "finish_reason": None}]}
        )
        yield sse(
            None,
            {
                **base,
                "choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
                "usage": self._usage(reply),
            },
        )
        yield b"data: [DONE]\n\n"

    def plain(self, reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
        finish = "tool_calls" if reply.tool_calls else "stop"
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": str(body.get("model", "gpt")),
            "choices": [{"index": 0, "message": self._message(reply), "finish_reason": finish}],
            "usage": self._usage(reply),
        }


def invalid_request(message: str, code: str | None = None) -> dict[str, Any]:
    """OpenAI's error object for a request it refuses (``Reply.error``, with a 4xx status)."""
    return {"message": message, "type": "invalid_request_error", "code": code}
