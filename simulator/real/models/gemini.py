"""The fake Gemini API (Gemini CLI): ``POST /v1beta/models/MODEL:streamGenerateContent?alt=sse``.

A reply is one candidate (text and ``functionCall`` parts), as one Server-Sent Event or, for
the non-streaming ``:generateContent``, as the plain JSON body.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .dialect import Dialect, sse
from .reply import Reply


class Gemini(Dialect):
    """Gemini API ``streamGenerateContent`` (Gemini CLI)."""

    name = "gemini"
    conversation_key = "contents"
    summary_markers = ("state_snapshot",)

    def is_main_loop(self, path: str, body: dict[str, Any]) -> bool:
        return "GenerateContent" in path and bool(body.get("tools"))

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
        return {"error": reply.error or {"code": reply.status,
                "message": f"scripted error {reply.status}", "status": "INTERNAL"}}  # fmt: skip
