"""Gemini CLI's chat file, written as the session goes (``hosts.transcript``)."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from ..conversation import ASKED, CALL, RAN, RESULT, Said
from ..session import SessionInfo
from ..transcript import Transcript, iso

# --- Gemini CLI ---------------------------------------------------------------------------
_TOKENS = {"input": 100, "output": 1, "cached": 0, "thoughts": 0, "tool": 0, "total": 101}


class GeminiChat(Transcript):
    """Gemini CLI's chat file, as 0.61.0 writes it (``ChatRecordingService``): JSON lines, the
    session's metadata first, then each message as it is recorded and ``{"$set": …}`` updates
    (``lastUpdated`` after each message, the whole message list at a resume).

    A new session starts its file before SessionStart with the metadata and the session
    context; a prompt, a tool's response and a retry's prompt are written when the request
    that carries them goes out (after PreCompress, before BeforeModel); a model response's
    message, the calls it asks for, before the first BeforeTool, completed with each call and
    its result after the last AfterTool, the results one user message; a reply before
    AfterAgent. A headless run that resumes names a file of its own in SessionStart (the file
    the CLI opens before it loads the session, its time in the name), then writes on in the
    session's file.
    """

    format = "gemini-chat-jsonl"
    reproduced = frozenset(
        {
            "metadata",
            "$set/lastUpdated,messages",
            "$set/lastUpdated",
            "$set/sessionId",
            "user",
            "user/functionResponse",
            "gemini",
            "gemini/toolCalls",
        }
    )
    not_reproduced: ClassVar[dict[str, str]] = {
        "$rewindTo": "a rewind of the chat (/rewind), which no scenario step makes",
        "$set/memoryScratchpad": "Gemini CLI's memory scratchpad, which no scenario step fills",
    }

    def __init__(self, info: SessionInfo, hermes_home: Path) -> None:
        super().__init__(info, hermes_home)
        self.main: Path | None = None  # the session's own file
        self.messages: list[dict[str, Any]] = []
        self.waiting: list[dict[str, Any]] = []  # written when the next request goes out
        self.last_call: dict[str, Any] | None = None  # the last response's message
        # Its calls that are done but not yet written, how many it asked for and how many are
        # done, and the user message that will carry their results.
        self.unwritten: list[dict[str, Any]] = []
        self.asked = self.answered = 0
        self.response: dict[str, Any] | None = None
        self.resuming = False
        self.name(self.chat_file(info.now_ms()))

    def chat_file(self, ms: int) -> Path:
        minute = dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).strftime("%Y-%m-%dT%H-%M")
        folder = Path(self.info.home) / ".gemini" / "tmp" / Path(self.info.cwd).name / "chats"
        return folder / f"session-{minute}-{self.info.session_id[:8]}.jsonl"

    def head(self, said: Said) -> list[dict[str, Any]]:
        """A new file's first lines: the metadata, and the message list with the context."""
        stamp = iso(said.at_ms)
        meta = {
            "sessionId": self.info.session_id,
            "projectHash": hashlib.sha256(self.info.cwd.encode()).hexdigest(),
            "startTime": stamp,
            "lastUpdated": stamp,
            "kind": "main",
        }
        context = {
            "id": self.uid().replace("-", ""),
            "timestamp": stamp,
            "type": "user",
            "content": [
                {
                    "text": "<session_context>\nThis is the Gemini CLI.\n"
                    f"- **Workspace Directories:**\n  - {self.info.cwd}\n"
                    "</session_context>"
                }
            ],
        }
        return [meta, {"$set": {"messages": [context], "lastUpdated": stamp}}]

    def on_session(self, said: Said) -> None:
        if said.source == "compact":
            return
        path = self.chat_file(said.at_ms)
        self.name(path)
        self.append(self.head(said))
        if said.source == "resume":
            self.resuming = True
        else:
            self.main, self.messages = path, []

    def on_submitted(self, said: Said) -> None:
        if not self.resuming:
            return
        self.resuming = False
        self.name(self.main or self.path or self.chat_file(said.at_ms))
        self.append(
            [
                {"$set": {"sessionId": self.info.session_id}},
                {"$set": {"messages": self.resumed(), "lastUpdated": iso(said.at_ms)}},
            ]
        )

    def resumed(self) -> list[dict[str, Any]]:
        """The message list as a resume rebuilds it: the content as parts, and a response of
        its own after each message that called tools."""
        rebuilt: list[dict[str, Any]] = []
        for message in self.messages:
            content = message["content"]
            if message["type"] == "gemini":
                calls = message.get("toolCalls") or []
                parts = [
                    {"functionCall": {"id": c["id"], "name": c["name"], "args": c["args"]}}
                    for c in calls
                ] or [{"text": content}]
                rebuilt.append({**message, "content": parts})
                if calls:
                    rebuilt.append(
                        {
                            "id": f"{message['id']}_response",
                            "timestamp": message["timestamp"],
                            "type": "user",
                            "content": [p for c in calls for p in c["result"]],
                        }
                    )
            else:
                rebuilt.append({**message, "content": content})
        return rebuilt

    def record(self, message: dict[str, Any]) -> None:
        """A message and the ``lastUpdated`` that follows it."""
        self.messages.append(message)
        self.append([message, {"$set": {"lastUpdated": message["timestamp"]}}])

    def user(self, said: Said, content: list[dict[str, Any]]) -> dict[str, Any]:
        return {"id": self.uid(), "timestamp": iso(said.at_ms), "type": "user", "content": content}

    def gemini(self, said: Said, content: str) -> dict[str, Any]:
        return {
            "id": self.uid(),
            "timestamp": iso(said.at_ms),
            "type": "gemini",
            "content": content,
            "thoughts": [],
            "tokens": _TOKENS,
            "model": self.info.model,
        }

    def on_prompt(self, said: Said) -> None:
        self.waiting.append(self.user(said, [{"text": said.text}]))

    def on_feedback(self, said: Said) -> None:
        self.waiting.append(self.user(said, [{"text": said.text}]))

    def on_sending(self, said: Said) -> None:
        waiting, self.waiting = self.waiting, []
        for message in waiting:
            self.record(message)

    def heard(self, said: Said) -> None:
        if self.unwritten and said.kind not in (CALL, ASKED, RAN, RESULT):
            self.completed()  # the response's calls went no further
        super().heard(said)

    def on_call(self, said: Said) -> None:
        """A response's message, once: a call its response asked for beside the one before it
        (``joined``) is in the same message."""
        if said.joined and self.last_call is not None:
            self.asked += 1
            return
        self.asked, self.answered, self.unwritten, self.response = 1, 0, [], None
        self.last_call = self.gemini(said, "")
        self.record(self.last_call)

    def completed(self) -> None:
        """The response's message again, with each of its calls and their results."""
        if self.last_call is not None:
            self.last_call["toolCalls"] = [*self.last_call.get("toolCalls", []), *self.unwritten]
            self.append([self.last_call])
        self.unwritten = []

    def on_result(self, said: Said) -> None:
        """A call's result: the response's message is written again with its calls and their
        results once every call it asked for is done; the results go to the model together, as
        one user message with the next request (real 0.61.0's chat file)."""
        assert said.call is not None
        response = [
            {
                "functionResponse": {
                    "id": said.call_id,
                    "name": said.call.name,
                    "response": {"output": said.text},
                }
            }
        ]
        shell = said.call.name == "run_shell_command"
        call = {
            "id": said.call_id,
            "name": said.call.name,
            "args": said.call.args,
            "result": response,
            "status": "error" if said.denied else "success",
            "timestamp": iso(said.at_ms),
            "resultDisplay": said.text,
            "description": str(said.call.args.get("command", "")) if shell else "",
            "displayName": "Shell" if shell else said.call.name,
            "renderOutputAsMarkdown": False,
        }
        self.unwritten.append(call)
        self.answered += 1
        if self.answered == self.asked:
            self.completed()
        if self.response is not None:  # the same request carries it
            self.response["content"] += response
        else:
            self.response = self.user(said, response)
            self.waiting.append(self.response)

    def on_reply(self, said: Said) -> None:
        self.record(self.gemini(said, said.text))

    @classmethod
    def kind_of(cls, record: Mapping[str, Any]) -> str:
        if "$set" in record:
            update = record["$set"]
            return "$set/" + ",".join(sorted(update)) if isinstance(update, dict) else "$set"
        if "$rewindTo" in record:
            return "$rewindTo"
        if "projectHash" in record:
            return "metadata"
        kind = str(record.get("type"))
        content = record.get("content")
        if isinstance(content, list) and any("functionResponse" in p for p in content):
            return f"{kind}/functionResponse"
        return f"{kind}/toolCalls" if record.get("toolCalls") else kind

    @classmethod
    def keys_of(cls, record: Mapping[str, Any]) -> frozenset[str]:
        keys = set(record)
        for call in record.get("toolCalls") or []:
            keys |= {f"toolCalls.{k}" for k in call}
        return frozenset(keys)
