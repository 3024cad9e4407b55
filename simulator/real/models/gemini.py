"""The fake Gemini API (Gemini CLI): ``POST /v1beta/models/MODEL:streamGenerateContent?alt=sse``.

A reply is one candidate (text and ``functionCall`` parts), as one Server-Sent Event or, for
the non-streaming ``:generateContent``, as the plain JSON body.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...hosts.conversation import ASSISTANT, TOOL, USER, Message
from .dialect import Dialect, beside, sse, text_of
from .reply import Reply


class Gemini(Dialect):
    """Gemini API ``streamGenerateContent`` (Gemini CLI)."""

    name = "gemini"
    conversation_key = "contents"
    summary_markers = ("state_snapshot",)

    def is_main_loop(self, path: str, body: dict[str, Any]) -> bool:
        return "GenerateContent" in path and bool(body.get("tools"))

    def message(self, item: Any) -> Message:
        """One content: the model's, or the user's (a tool's response when all its parts are
        function responses). Gemini CLI's session context is a part of the first user
        content, as a hook's context is of its prompt."""
        if not isinstance(item, dict):
            return beside(text_of(item))
        parts = item.get("parts") if isinstance(item.get("parts"), list) else []
        text = text_of(parts)
        if item.get("role") == "model":
            return Message(ASSISTANT, text)
        if parts and all(isinstance(p, dict) and "functionResponse" in p for p in parts):
            return Message(TOOL, text)
        return Message(USER, text)

    def _candidate(self, reply: Reply) -> dict[str, Any]:
        parts: list[dict[str, Any]] = []
        if reply.text or not reply.tool_calls:
            parts.append({"text": reply.text})
        parts += [
            {"functionCall": {"name": c.name, "args": c.args, "id": c.call_id}}
            for c in reply.tool_calls
        ]
        return {
            "candidates": [
                {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {
                "promptTokenCount": reply.input_tokens,
                "candidatesTokenCount": 1,
                "totalTokenCount": reply.input_tokens + 1,
            },
            "modelVersion": "gemini",
        }

    def stream(self, reply: Reply, body: dict[str, Any]) -> Iterator[bytes]:
        yield sse(None, self._candidate(reply))

    def plain(self, reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
        return self._candidate(reply)

    def error(self, reply: Reply) -> dict[str, Any]:
        return {
            "error": reply.error
            or {
                "code": reply.status,
                "message": f"scripted error {reply.status}",
                "status": "INTERNAL",
            }
        }
