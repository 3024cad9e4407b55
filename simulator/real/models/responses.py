"""The fake OpenAI Responses API (Codex CLI): ``POST /v1/responses``.

A reply streams as ``response.*`` Server-Sent Events (``response.created``, an output item per
message and per function call, ``response.completed`` with the usage); the usage's
``input_tokens`` is what lets the fake force Codex's automatic compaction.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

from .dialect import Dialect, sse
from .reply import Reply


class Responses(Dialect):
    """OpenAI Responses API (Codex CLI)."""

    name = "responses"
    conversation_key = "input"
    summary_markers = ("CONTEXT CHECKPOINT COMPACTION",)

    def is_main_loop(self, path: str, body: dict[str, Any]) -> bool:
        return path.rstrip("/").endswith("/responses") and bool(body.get("tools"))

    def stream(self, reply: Reply, body: dict[str, Any]) -> Iterator[bytes]:
        rid = f"resp_{uuid.uuid4().hex[:24]}"
        base = {"id": rid, "object": "response", "created_at": int(time.time()),
                "model": str(body.get("model", "gpt")), "status": "in_progress", "output": []}  # fmt: skip
        yield sse("response.created", {"type": "response.created", "response": base})
        output: list[dict[str, Any]] = []
        if reply.text or not reply.tool_calls:
            item = {"type": "message", "id": f"msg_{uuid.uuid4().hex[:16]}", "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": reply.text, "annotations": []}]}  # fmt: skip
            n = len(output)
            yield sse("response.output_item.added", {"type": "response.output_item.added",
                       "output_index": n, "item": {**item, "content": [], "status": "in_progress"}})  # fmt: skip
            if reply.text:
                yield sse("response.output_text.delta", {"type": "response.output_text.delta",
                           "item_id": item["id"], "output_index": n, "content_index": 0,
                           "delta": reply.text})  # fmt: skip
            yield sse("response.output_item.done", {"type": "response.output_item.done",
                                                     "output_index": n, "item": item})  # fmt: skip
            output.append(item)
        for call in reply.tool_calls:
            item = {"type": "function_call", "id": f"fc_{uuid.uuid4().hex[:16]}",
                    "call_id": call.call_id, "name": call.name,
                    "arguments": json.dumps(call.args), "status": "completed"}  # fmt: skip
            n = len(output)
            yield sse("response.output_item.added", {"type": "response.output_item.added",
                                                      "output_index": n, "item": item})  # fmt: skip
            yield sse("response.output_item.done", {"type": "response.output_item.done",
                                                     "output_index": n, "item": item})  # fmt: skip
            output.append(item)
        total = reply.input_tokens + 1
        done = {**base, "status": "completed", "output": output,
                "usage": {"input_tokens": reply.input_tokens, "output_tokens": 1,
                          "total_tokens": total, "input_tokens_details": {"cached_tokens": 0},
                          "output_tokens_details": {"reasoning_tokens": 0}}}  # fmt: skip
        yield sse("response.completed", {"type": "response.completed", "response": done})
