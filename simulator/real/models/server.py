"""Fake model servers: the APIs real agent CLIs call, on 127.0.0.1, scripted from a scenario.

A real host run (``hooksim run --real``) points the agent CLI at a ``ModelServer`` instead of
its vendor's API; a conformance test drives Hermes' own loop against one. Each server speaks
one API's wire format, as the real API streams it, from the module of that API:

- ``anthropic``: ``POST /v1/messages``, for Claude Code (``anthropic``);
- ``responses``: ``POST /v1/responses``, for Codex CLI (``responses``);
- ``gemini``: ``POST /v1beta/models/MODEL:streamGenerateContent?alt=sse`` (and
  ``:generateContent``), for Gemini CLI (``gemini``);
- ``openai-chat``: ``POST /v1/chat/completions``, for Hermes' ``custom`` provider
  (``openai_chat``).

What the model answers comes from a ``ModelScript`` (``reply``): each request of the
agent's main loop takes the next ``Reply`` of the turn. Requests that are not the main loop (a
compaction summary, a title) get a short fixed text. Every request is logged, JSON lines, with
what the host sent: that is "what reached the model".
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

from .anthropic import Anthropic
from .dialect import Dialect
from .gemini import Gemini
from .openai_chat import OpenAIChat
from .reply import ModelScript, Reply
from .responses import Responses

SUMMARY = "<analysis>The conversation so far.</analysis>\n<summary>Summary of the conversation so far.</summary>"
SIDE_TEXT = "ok"

DIALECTS: dict[str, type[Dialect]] = {d.name: d for d in (Anthropic, Responses, Gemini, OpenAIChat)}


class ModelServer:
    """One fake API on 127.0.0.1 (a free port), serving a ``ModelScript`` and logging requests.

    Use as a context manager; ``url`` is the base URL to give the host. ``models``: the model
    ids an OpenAI-compatible client finds at ``GET .../models`` (any other GET is then 404);
    without them every GET gets an empty list.
    """

    def __init__(
        self, dialect: str, script: ModelScript, log: Path, *, models: Sequence[str] = ()
    ) -> None:
        self.dialect = DIALECTS[dialect]()
        self.script = script
        self.log = log
        self.models = tuple(models)
        self.held = threading.Event()  # a request is being held (``Reply.held_s``)
        self._released = threading.Event()
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
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
        self.release()
        self.httpd.shutdown()
        self.httpd.server_close()

    def release(self) -> None:
        """Let every held request end (its client has usually gone by then)."""
        self._released.set()

    def requests(self) -> list[dict[str, Any]]:
        """Every logged request, in order."""
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines()]

    def record(self, entry: dict[str, Any]) -> None:
        """Log one request."""
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

    def listing(self, path: str) -> tuple[int, dict[str, Any]]:
        """What a GET gets: the model list (see ``models``)."""
        if not self.models:
            return 200, {"data": [], "models": []}
        if path.rstrip("/").endswith("/models"):
            listed = [{"id": model, "object": "model"} for model in self.models]
            return 200, {"object": "list", "data": listed}
        return 404, {"error": {"message": "not found"}}

    def hold(self, reply: Reply) -> None:
        """Keep a request waiting for its answer until ``release()`` or ``reply.held_s``."""
        self.held.set()
        self._released.wait(reply.held_s)


def _handler_for(server: ModelServer) -> type[BaseHTTPRequestHandler]:
    class Bound(_Handler):
        fake = server

    return Bound


class _Handler(BaseHTTPRequestHandler):
    """One HTTP request to a fake API; ``fake`` is the ``ModelServer`` it is served by."""

    protocol_version = "HTTP/1.1"
    fake: ClassVar[ModelServer]

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the request log is the record."""

    def do_GET(self) -> None:
        self.fake.record(
            {
                "method": "GET",
                "path": self.path,
                "turn": self.fake.script.turn,
                "kind": "other",
                "at": time.time(),
            }
        )
        self._json(*self.fake.listing(self.path))

    def do_HEAD(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        body = self._body()
        kind, reply = self.fake.answer(self.path, body)
        held = {"held": True} if reply.held_s else {}
        self.fake.record(
            {
                "method": "POST",
                "path": self.path,
                "turn": self.fake.script.turn,
                "kind": kind,
                "at": time.time(),
                "status": reply.status,
                "body": body,
                "reply": {
                    "text": reply.text,
                    "tool_calls": [c.name for c in reply.tool_calls],
                    **held,
                },
            }
        )
        if reply.held_s:
            self.fake.hold(reply)
            self.close_connection = True
        elif reply.status != 200:
            self._json(reply.status, self.fake.dialect.error(reply))
        elif body.get("stream") is True or "alt=sse" in self.path:
            self._stream(reply, body)
        else:
            self._json(200, self.fake.dialect.plain(reply, body))

    def _body(self) -> dict[str, Any]:
        """The request's JSON object ({} when it is not one)."""
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return {}
        return body if isinstance(body, dict) else {}

    def _stream(self, reply: Reply, body: dict[str, Any]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        for name, value in self.fake.dialect.reply_headers().items():
            self.send_header(name, value)
        self.end_headers()
        for chunk in self.fake.dialect.stream(reply, body):
            self.wfile.write(chunk)
            self.wfile.flush()
        self.close_connection = True

    def _json(self, status: int, data: dict[str, Any]) -> None:
        payload = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        if status == 200:
            for name, value in self.fake.dialect.reply_headers().items():
                self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)
