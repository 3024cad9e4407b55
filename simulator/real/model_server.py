"""Fake model servers: the APIs real agent CLIs call, scripted from a scenario's turns.

A real host run (``hooksim run --real``) points the agent CLI at one of these on 127.0.0.1
instead of its vendor's API. Each speaks one wire format as the real API streams it:

- ``anthropic``: ``POST /v1/messages`` with ``stream: true``, Server-Sent Events
  (``message_start`` ... ``message_stop``), for Claude Code;
- ``responses``: ``POST /v1/responses`` (OpenAI Responses API, SSE ``response.*`` events), for
  Codex CLI;
- ``gemini``: ``POST /v1beta/models/MODEL:streamGenerateContent?alt=sse`` (and the
  non-streaming ``:generateContent``), for Gemini CLI;
- ``openai-chat``: ``POST /v1/chat/completions`` (streaming chunks, or one completion), for
  Hermes' OpenAI-compatible ``custom`` provider.

What the model answers comes from a ``ModelScript``: the driver sets the current turn's
``Reply`` list before it sends the prompt; each request of the agent's main loop takes the next
reply (tool calls, then the final text; an empty reply; an error status), and once the list is
spent the last final text repeats (a Stop hook that makes the model go on gets an answer).
Requests that are not the main loop (a compaction summary, a title) get a short fixed text.
Every request is logged, JSON lines, with what the host sent: that is "what reached the model".
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

SUMMARY = "<analysis>The conversation so far.</analysis>\n<summary>Summary of the conversation so far.</summary>"
SIDE_TEXT = "ok"


@dataclass(frozen=True)
class ToolUse:
    """One tool call the model makes."""

    name: str
    args: dict[str, Any]
    call_id: str


@dataclass(frozen=True)
class Reply:
    """One model response: tool calls, or final text (``""``: an empty reply), or an error."""

    text: str = ""
    tool_calls: tuple[ToolUse, ...] = ()
    status: int = 200  # not 200: the API answers with this error status
    input_tokens: int = 100  # what the usage block reports (forces a host's auto-compaction)


@dataclass
class ModelScript:
    """The replies of the current turn, handed out one per main-loop request."""

    replies: list[Reply] = field(default_factory=list)
    turn: int = 0
    last_text: str = "Done."
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def set_turn(self, turn: int, replies: list[Reply]) -> None:
        with self._lock:
            self.turn = turn
            self.replies = list(replies)

    def next_reply(self) -> Reply:
        with self._lock:
            if self.replies:
                reply = self.replies.pop(0)
                if reply.status == 200 and not reply.tool_calls:
                    self.last_text = reply.text
                return reply
            return Reply(self.last_text)


class Dialect:
    """One API's wire format: which requests are the main loop, and how a reply streams."""

    name: ClassVar[str]

    def is_main_loop(self, path: str, body: dict[str, Any]) -> bool:
        raise NotImplementedError

    # Words of the host's own compaction prompt, which asks the model for a summary, and the
    # key of the request's conversation, whose last entry carries that prompt.
    summary_markers: ClassVar[tuple[str, ...]] = ()
    conversation_key: ClassVar[str] = "messages"

    def is_summary(self, body: dict[str, Any]) -> bool:
        conversation = body.get(self.conversation_key)
        last = conversation[-1] if isinstance(conversation, list) and conversation else None
        text = json.dumps(last, ensure_ascii=False)
        return any(marker in text for marker in self.summary_markers)

    def stream(self, reply: Reply, body: dict[str, Any]) -> Iterator[bytes]:
        raise NotImplementedError

    def plain(self, reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
        """The non-streaming answer (only Gemini's ``generateContent`` asks for one)."""
        raise NotImplementedError

    def error(self, status: int) -> dict[str, Any]:
        return {"error": {"message": f"scripted error {status}", "code": status}}


def _sse(event: str | None, data: dict[str, Any]) -> bytes:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data)}\n\n".encode()


class Anthropic(Dialect):
    """Anthropic Messages API (Claude Code)."""

    name = "anthropic"
    summary_markers = ("create a detailed summary of the conversation",)

    def is_main_loop(self, path: str, body: dict[str, Any]) -> bool:
        # The agent loop sends its tools; side requests (titles, summaries) send none.
        return path.startswith("/v1/messages") and bool(body.get("tools"))

    def error(self, status: int) -> dict[str, Any]:
        kind = "overloaded_error" if status == 529 else "api_error"
        return {"type": "error", "error": {"type": kind, "message": f"scripted error {status}"}}

    def plain(self, reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
        content: list[dict[str, Any]] = [{"type": "text", "text": reply.text}]
        content += [
            {"type": "tool_use", "id": c.call_id, "name": c.name, "input": c.args}
            for c in reply.tool_calls
        ]
        return {
            "id": f"msg_{uuid.uuid4().hex[:24]}", "type": "message", "role": "assistant",
            "model": str(body.get("model", "claude")), "content": content,
            "stop_reason": "tool_use" if reply.tool_calls else "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": 1},
        }  # fmt: skip

    def stream(self, reply: Reply, body: dict[str, Any]) -> Iterator[bytes]:
        model = str(body.get("model", "claude"))
        usage = {"input_tokens": reply.input_tokens, "output_tokens": 1}
        message: dict[str, Any] = {
            "id": f"msg_{uuid.uuid4().hex[:24]}", "type": "message", "role": "assistant",
            "model": model, "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": usage,
        }  # fmt: skip
        yield _sse("message_start", {"type": "message_start", "message": message})
        index = 0
        if reply.text or not reply.tool_calls:
            yield _sse("content_block_start", {"type": "content_block_start", "index": index,
                                               "content_block": {"type": "text", "text": ""}})  # fmt: skip
            if reply.text:
                yield _sse("content_block_delta", {"type": "content_block_delta", "index": index,
                                                   "delta": {"type": "text_delta", "text": reply.text}})  # fmt: skip
            yield _sse("content_block_stop", {"type": "content_block_stop", "index": index})
            index += 1
        for call in reply.tool_calls:
            yield _sse("content_block_start", {"type": "content_block_start", "index": index,
                       "content_block": {"type": "tool_use", "id": call.call_id, "name": call.name,
                                         "input": {}}})  # fmt: skip
            yield _sse("content_block_delta", {"type": "content_block_delta", "index": index,
                       "delta": {"type": "input_json_delta", "partial_json": json.dumps(call.args)}})  # fmt: skip
            yield _sse("content_block_stop", {"type": "content_block_stop", "index": index})
            index += 1
        stop = "tool_use" if reply.tool_calls else "end_turn"
        yield _sse("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": stop, "stop_sequence": None},
                                     "usage": {"output_tokens": 1}})  # fmt: skip
        yield _sse("message_stop", {"type": "message_stop"})


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
        yield _sse("response.created", {"type": "response.created", "response": base})
        output: list[dict[str, Any]] = []
        if reply.text or not reply.tool_calls:
            item = {"type": "message", "id": f"msg_{uuid.uuid4().hex[:16]}", "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": reply.text, "annotations": []}]}  # fmt: skip
            n = len(output)
            yield _sse("response.output_item.added", {"type": "response.output_item.added",
                       "output_index": n, "item": {**item, "content": [], "status": "in_progress"}})  # fmt: skip
            if reply.text:
                yield _sse("response.output_text.delta", {"type": "response.output_text.delta",
                           "item_id": item["id"], "output_index": n, "content_index": 0,
                           "delta": reply.text})  # fmt: skip
            yield _sse("response.output_item.done", {"type": "response.output_item.done",
                                                     "output_index": n, "item": item})  # fmt: skip
            output.append(item)
        for call in reply.tool_calls:
            item = {"type": "function_call", "id": f"fc_{uuid.uuid4().hex[:16]}",
                    "call_id": call.call_id, "name": call.name,
                    "arguments": json.dumps(call.args), "status": "completed"}  # fmt: skip
            n = len(output)
            yield _sse("response.output_item.added", {"type": "response.output_item.added",
                                                      "output_index": n, "item": item})  # fmt: skip
            yield _sse("response.output_item.done", {"type": "response.output_item.done",
                                                     "output_index": n, "item": item})  # fmt: skip
            output.append(item)
        total = reply.input_tokens + 1
        done = {**base, "status": "completed", "output": output,
                "usage": {"input_tokens": reply.input_tokens, "output_tokens": 1,
                          "total_tokens": total, "input_tokens_details": {"cached_tokens": 0},
                          "output_tokens_details": {"reasoning_tokens": 0}}}  # fmt: skip
        yield _sse("response.completed", {"type": "response.completed", "response": done})


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
        yield _sse(None, self._candidate(reply))

    def plain(self, reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
        return self._candidate(reply)

    def error(self, status: int) -> dict[str, Any]:
        return {"error": {"code": status, "message": f"scripted error {status}",
                          "status": "INTERNAL"}}  # fmt: skip


class OpenAIChat(Dialect):
    """OpenAI Chat Completions (Hermes, through its ``custom`` OpenAI-compatible provider)."""

    name = "openai-chat"
    summary_markers = ("CONTEXT COMPACTION",)

    def is_main_loop(self, path: str, body: dict[str, Any]) -> bool:
        return path.rstrip("/").endswith("/chat/completions") and bool(body.get("tools"))

    def _message(self, reply: Reply) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": reply.text}
        if reply.tool_calls:
            message["tool_calls"] = [
                {"id": c.call_id, "type": "function",
                 "function": {"name": c.name, "arguments": json.dumps(c.args)}}
                for c in reply.tool_calls
            ]  # fmt: skip
        return message

    def _usage(self, reply: Reply) -> dict[str, int]:
        return {"prompt_tokens": reply.input_tokens, "completion_tokens": 1,
                "total_tokens": reply.input_tokens + 1}  # fmt: skip

    def stream(self, reply: Reply, body: dict[str, Any]) -> Iterator[bytes]:
        base = {"id": f"chatcmpl-{uuid.uuid4().hex[:24]}", "object": "chat.completion.chunk",
                "created": int(time.time()), "model": str(body.get("model", "gpt"))}  # fmt: skip
        message = self._message(reply)
        if "tool_calls" in message:
            message["tool_calls"] = [{"index": i, **c} for i, c in enumerate(message["tool_calls"])]
        finish = "tool_calls" if reply.tool_calls else "stop"
        yield _sse(None, {**base, "choices": [{"index": 0, "delta": message,
                                               "finish_reason": None}]})  # fmt: skip
        yield _sse(None, {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
                          "usage": self._usage(reply)})  # fmt: skip
        yield b"data: [DONE]\n\n"

    def plain(self, reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
        finish = "tool_calls" if reply.tool_calls else "stop"
        return {"id": f"chatcmpl-{uuid.uuid4().hex[:24]}", "object": "chat.completion",
                "created": int(time.time()), "model": str(body.get("model", "gpt")),
                "choices": [{"index": 0, "message": self._message(reply), "finish_reason": finish}],
                "usage": self._usage(reply)}  # fmt: skip


DIALECTS: dict[str, type[Dialect]] = {d.name: d for d in (Anthropic, Responses, Gemini, OpenAIChat)}


class ModelServer:
    """One fake API on 127.0.0.1 (a free port), serving a ``ModelScript`` and logging requests.

    Use as a context manager; ``url`` is the base URL to give the host.
    """

    def __init__(self, dialect: str, script: ModelScript, log: Path) -> None:
        self.dialect = DIALECTS[dialect]()
        self.script = script
        self.log = log
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> ModelServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def requests(self) -> list[dict[str, Any]]:
        """Every logged request, in order."""
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines()]

    def _record(self, entry: dict[str, Any]) -> None:
        with self._lock, self.log.open("a", encoding="utf-8") as f:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")

    def answer(self, path: str, body: dict[str, Any]) -> tuple[str, Reply]:
        """Which reply a request gets, and its kind (``main``, ``summary``, ``side``)."""
        if self.dialect.is_summary(body):
            return "summary", Reply(SUMMARY)
        if self.dialect.is_main_loop(path, body):
            return "main", self.script.next_reply()
        config = body.get("generationConfig")
        if isinstance(config, dict) and config.get("responseMimeType") == "application/json":
            return "side", Reply("{}")  # a side request that asks for JSON gets valid JSON
        return "side", Reply(SIDE_TEXT)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                """Quiet: the request log is the record."""

            def do_GET(self) -> None:
                server._record({"method": "GET", "path": self.path, "turn": server.script.turn,
                                "kind": "other", "at": time.time()})  # fmt: skip
                self._json(200, {"data": [], "models": []})

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                if not isinstance(body, dict):
                    body = {}
                kind, reply = server.answer(self.path, body)
                server._record({
                    "method": "POST", "path": self.path, "turn": server.script.turn,
                    "kind": kind, "at": time.time(), "status": reply.status, "body": body,
                    "reply": {"text": reply.text,
                              "tool_calls": [c.name for c in reply.tool_calls]},
                })  # fmt: skip
                if reply.status != 200:
                    self._json(reply.status, server.dialect.error(reply.status))
                    return
                streaming = body.get("stream") is True or "alt=sse" in self.path
                if not streaming:
                    self._json(200, server.dialect.plain(reply, body))
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                for chunk in server.dialect.stream(reply, body):
                    self.wfile.write(chunk)
                    self.wfile.flush()
                self.close_connection = True

            def _json(self, status: int, data: dict[str, Any]) -> None:
                payload = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        return Handler
