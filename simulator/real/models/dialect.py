"""One API's wire format (``Dialect``): the interface each fake model API implements.

A dialect says which requests are the agent's main loop and which ask for a compaction
summary, and how a ``Reply`` streams (Server-Sent Events, ``sse``), answers without streaming,
or fails. One module per API implements it: ``anthropic``, ``responses``,
``gemini``, ``openai_chat``; ``server`` serves whichever a host speaks.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, ClassVar

from ...hosts.conversation import BESIDE, Message
from .reply import Reply


class Dialect:
    """One API's wire format: which requests are the main loop, and how a reply streams."""

    name: ClassVar[str]

    def is_main_loop(self, path: str, body: dict[str, Any]) -> bool:
        raise NotImplementedError

    # Words of the host's own compaction prompt, which asks the model for a summary, and the
    # key of the request's conversation, whose last entry carries that prompt.
    summary_markers: ClassVar[tuple[str, ...]] = ()
    conversation_key: ClassVar[str] = "messages"

    def dialogue(self, body: dict[str, Any]) -> list[Message]:
        """What a request carries of the conversation, message by message: the dialogue's
        (user, assistant, tool) as the API lists it, and what the host sends beside it (its
        own instructions, a hook's context: ``BESIDE``), each with all the text it holds."""
        items = body.get(self.conversation_key)
        return [self.message(item) for item in items] if isinstance(items, list) else []

    def message(self, item: Any) -> Message:
        """One item of the request's conversation, as a ``Message``."""
        raise NotImplementedError

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

    def reply_headers(self) -> dict[str, str]:
        """Headers every answer of the real API carries that a host reads (none by default)."""
        return {}

    def error(self, reply: Reply) -> dict[str, Any]:
        """The body of a reply with an error status."""
        return {
            "error": reply.error
            or {"message": f"scripted error {reply.status}", "code": reply.status}
        }


def text_of(value: Any) -> str:
    """Every string inside a JSON value, one a line (a message's whole text, wherever its API
    puts it), but the names of its parts' types."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(filter(None, (text_of(v) for k, v in value.items() if k != "type")))
    if isinstance(value, list):
        return "\n".join(filter(None, (text_of(v) for v in value)))
    return ""


def beside(text: str) -> Message:
    return Message(BESIDE, text)


def sse(event: str | None, data: dict[str, Any]) -> bytes:
    """One Server-Sent Event: its name (none: a data-only event) and its JSON data."""
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data)}\n\n".encode()
