"""A scripted OpenAI-compatible model server on 127.0.0.1, stdlib only.

A real agent loop (Hermes, or any host speaking the Chat Completions API) pointed at it gets the
replies a test scripts, in order, one per model request:

- ``Reply("text")``: an answer; ``Reply("")`` is an empty one;
- ``Reply(tool_calls=[ToolCallReply("call_1", "write_file", {...})])``: tool calls;
- ``Failure(400, "message")``: an HTTP error with an OpenAI-style error body;
- ``Hold()``: the request is held open until ``release()`` (or the client goes away), so a
  test can interrupt the agent while it waits for the model.

Every request body is kept (``requests``), so a test can check what context reached the model.
Streaming (``"stream": true``) is answered with server-sent events, one chunk per reply.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class ToolCallReply:
    id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Reply:
    content: str = ""
    tool_calls: tuple[ToolCallReply, ...] = ()


@dataclass(frozen=True)
class Failure:
    status: int
    message: str = "scripted failure"
    code: str | None = None


@dataclass(frozen=True)
class Hold:
    """Keep the request open (a model that is still thinking) until released."""

    timeout_s: float = 60.0


Scripted = Reply | Failure | Hold


@dataclass
class FakeModelServer:
    """Serves ``script`` in order; past its end, every request gets ``Reply("(no more)")``."""

    script: list[Scripted] = field(default_factory=list)
    model: str = "fake-model"
    requests: list[dict[str, Any]] = field(default_factory=list)
    held: threading.Event = field(default_factory=threading.Event)  # a Hold was reached
    _release: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None

    # --- life cycle ----------------------------------------------------------------------
    def start(self) -> str:
        """Listen on an ephemeral port of 127.0.0.1; return the base URL (``.../v1``)."""
        handler = _handler_for(self)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def stop(self) -> None:
        self.release()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def __enter__(self) -> FakeModelServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def add(self, replies: Iterable[Scripted]) -> None:
        with self._lock:
            self.script.extend(replies)

    def release(self) -> None:
        """Let a held request end (the client has usually gone by then)."""
        self._release.set()

    # --- serving -------------------------------------------------------------------------
    def next_reply(self, body: dict[str, Any]) -> Scripted:
        with self._lock:
            self.requests.append(body)
            return self.script.pop(0) if self.script else Reply("(no more)")


def _completion(model: str, reply: Reply) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = [_tool_call(c) for c in reply.tool_calls]
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if reply.tool_calls else "stop",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def _tool_call(call: ToolCallReply) -> dict[str, Any]:
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
    }


def _chunks(model: str, reply: Reply) -> list[dict[str, Any]]:
    delta: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        delta["tool_calls"] = [
            {"index": i, **_tool_call(c)} for i, c in enumerate(reply.tool_calls)
        ]
    base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": model}
    finish = "tool_calls" if reply.tool_calls else "stop"
    return [
        {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {
            **base,
            "choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        },
    ]


def _handler_for(server: FakeModelServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the request log is ``server.requests``."""

        def _json(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._json(200, {"object": "list", "data": [{"id": server.model,
                                                             "object": "model"}]})  # fmt: skip
            else:
                self._json(404, {"error": {"message": "not found"}})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self._json(400, {"error": {"message": "body is not JSON"}})
                return
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._json(404, {"error": {"message": f"no route {self.path}"}})
                return
            reply = server.next_reply(body)
            if isinstance(reply, Hold):
                server.held.set()
                server._release.wait(reply.timeout_s)
                self.close_connection = True
                return
            if isinstance(reply, Failure):
                error = {"message": reply.message, "type": "invalid_request_error",
                         "code": reply.code}  # fmt: skip
                self._json(reply.status, {"error": error})
                return
            if body.get("stream"):
                self._stream(reply)
            else:
                self._json(200, _completion(server.model, reply))

        def _stream(self, reply: Reply) -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            for chunk in _chunks(server.model, reply):
                self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
            self.close_connection = True

    return Handler
