"""What the fake model answers: one response (``Reply``), and the replies of a turn in order.

A driver sets the current turn's ``Reply`` list (``ModelScript.set_turn``) before it sends the
prompt; each request of the agent's main loop takes the next reply (tool calls, then the final
text; an empty reply; an error status; a request held open), and once the list is spent the
last final text repeats (a Stop hook that makes the model go on gets an answer). How a reply
goes on the wire is each API's business (``dialect`` and the ``model_*`` API modules).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ToolUse:
    """One tool call the model makes."""

    name: str
    args: dict[str, Any]
    call_id: str


@dataclass(frozen=True)
class Reply:
    """One model response: tool calls, or final text (``""``: an empty reply), or an error, or
    none at all (held)."""

    text: str = ""
    tool_calls: tuple[ToolUse, ...] = ()
    status: int = 200  # not 200: the API answers with this error status
    input_tokens: int = 100  # what the usage block reports (forces a host's auto-compaction)
    # With an error status: the API's error object, in place of the dialect's own
    # ("scripted error STATUS"); what a client makes of an error can depend on its words.
    error: dict[str, Any] | None = None
    # More than 0: no answer; the request is held open (a model still thinking) until
    # ``ModelServer.release()`` or this many seconds, then closed, so a test can interrupt
    # the agent while it waits for the model.
    held_s: float = 0.0


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
                if reply.status == 200 and not reply.tool_calls and not reply.held_s:
                    self.last_text = reply.text
                return reply
            return Reply(self.last_text)
