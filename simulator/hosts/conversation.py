"""What was said in a session, in order: the one record a replay writes each host's transcript
from and judges ``conversation_at_turn`` by.

A host's session loop (``base.Session``) says what happens when it happens: a session starts,
the user submits a prompt and the host accepts it, the model calls a tool or answers, a tool's
result comes back, a hook's text goes to the model as a message of its own (the feedback after
a blocked stop), a hook's context goes beside the dialogue, the context is compacted.
``Conversation`` keeps it two ways:

- ``said``: every entry, in order, each handed to the listeners as it is added: a transcript
  writer turns each into the host's own records at the moment the host writes them, so a hook
  reads what the real host would have on disk when it fires;
- ``messages``: what the next model request carries, as a host neutral list; a compaction or a
  new session replaces it, the way the host does (its profile says how).

Each model request's messages are kept for the turn it belongs to (``sent``): the last of a
turn is the conversation the model was sent at that turn. A request keeps only what changed
since the one before (``Sent``), so a run's memory grows with its messages, not with turns
times messages.

The hosts stage, so profiles can say what happened; it imports only the step kinds.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, SupportsIndex, overload

from ..steps import ToolCall

# The kinds of entry, in the words the writers match on.
SESSION = "session"  # a session starts (``source``: startup, resume, clear, compact)
SUBMITTED = "submitted"  # the user submits a prompt, before the host's prompt event fires
PROMPT = "prompt"  # the host accepted the prompt: it joins the conversation
CALL = "call"  # the model calls a tool
ASKED = "asked"  # the response asking for the calls just said is done: it asked for no more
RAN = "ran"  # the tool ran (before the host's after-tool event fires)
RESULT = "result"  # a tool's result (or a denied call's reason) goes back to the model
REPLY = "reply"  # the model answers
FEEDBACK = "feedback"  # a hook's text goes to the model as a user message (a blocked stop)
CONTEXT = "context"  # a hook's context goes to the model beside the dialogue
STOP_HOOKS = "stop_hooks"  # the stop event's hooks have run (what they said)
COMPACTED = "compacted"  # the context was compacted (``text``: the summary)
FAILED = "failed"  # a model request failed: it was sent, nothing came back
SENDING = "sending"  # a model request goes out (said where a host writes at that moment)
PERSISTED = "persisted"  # the host writes what it holds to its session store (Hermes)
CLEARED = "cleared"  # a hook had the host empty the conversation (Gemini CLI's clearContext)

# A message's role: the dialogue's three, and hook context, which the host sends beside the
# dialogue (a system or developer message, or merged into the prompt) and is not counted.
USER, ASSISTANT, TOOL, BESIDE = "user", "assistant", "tool", "context"


@dataclass(frozen=True)
class Message:
    """One message of what the model is sent: its role and what it says."""

    role: str
    text: str
    kind: str = ""  # the kind of entry that said it (a prompt, feedback, a summary, ...)


@dataclass(frozen=True)
class Said:
    """One entry of the conversation, as it happened."""

    kind: str
    turn: int
    at_ms: int
    text: str = ""
    source: str = ""  # the session's source, the compaction's trigger, the hook's event
    call: ToolCall | None = None
    call_id: str = ""
    denied: bool = False  # a result that is a hook's denial: the tool did not run
    reasons: tuple[str, ...] = ()  # a stop's hooks: what those that blocked said
    commands: tuple[str, ...] = ()  # a stop's hooks: the command of each
    blocking: tuple[str, ...] = ()  # a stop's hooks: the command of each that blocked
    joined: bool = False  # a call the response that asked for the call before it asks for too


class Sent(Sequence[Message]):
    """The messages one model request carried: the first ``keep`` of the request before it
    (``before``), then ``tail``. Read back whole each time it is read."""

    __slots__ = ("before", "keep", "tail")

    def __init__(self, before: Sent | None, keep: int, tail: tuple[Message, ...]) -> None:
        self.before, self.keep, self.tail = before, keep, tail

    def messages(self) -> tuple[Message, ...]:
        """The request's messages, in order (walking back to the last request that shares
        none of its messages with the one before)."""
        pieces: list[tuple[Message, ...]] = []
        node: Sent | None = self
        limit = len(self)
        while node is not None and limit > 0:
            pieces.append(node.tail[: max(0, limit - node.keep)])
            limit = min(limit, node.keep)
            node = node.before
        return tuple(chain.from_iterable(reversed(pieces)))

    def __len__(self) -> int:
        return self.keep + len(self.tail)

    @overload
    def __getitem__(self, index: int) -> Message: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Message, ...]: ...
    def __getitem__(self, index: int | slice) -> Message | tuple[Message, ...]:
        return self.messages()[index]

    def __iter__(self) -> Iterator[Message]:
        return iter(self.messages())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sent):
            return self.messages() == other.messages()
        return isinstance(other, tuple) and self.messages() == other

    __hash__ = None  # type: ignore[assignment]  # equal to a tuple, but not one

    def __repr__(self) -> str:
        return f"Sent{self.messages()!r}"


class _Messages(list[Message]):
    """The messages of the next request, knowing how many leading ones (``unchanged``) are
    still those the last request carried: appending changes none of them, anything else may."""

    unchanged = 0

    def pop(self, index: SupportsIndex = -1) -> Message:
        at = operator.index(index)
        self.unchanged = max(0, min(self.unchanged, at + len(self) if at < 0 else at))
        return super().pop(index)

    def _changed(self) -> None:
        self.unchanged = 0

    def __setitem__(self, *args: Any) -> None:
        self._changed()
        super().__setitem__(*args)

    def __delitem__(self, *args: Any) -> None:
        self._changed()
        super().__delitem__(*args)

    def __imul__(self, times: SupportsIndex) -> _Messages:
        self._changed()
        super().__imul__(times)
        return self

    def insert(self, *args: Any) -> None:
        self._changed()
        super().insert(*args)

    def remove(self, *args: Any) -> None:
        self._changed()
        super().remove(*args)

    def clear(self) -> None:
        self._changed()
        super().clear()

    def sort(self, *args: Any, **kwargs: Any) -> None:
        self._changed()
        super().sort(*args, **kwargs)

    def reverse(self) -> None:
        self._changed()
        super().reverse()


@dataclass
class Conversation:
    """The session's conversation; ``turn`` is set by whoever drives the session."""

    now_ms: Callable[[], int]
    turn: int = 0
    said: list[Said] = field(default_factory=list)
    sent: dict[int, Sent] = field(default_factory=dict)
    listeners: list[Callable[[Said], None]] = field(default_factory=list)
    _messages: _Messages = field(default_factory=_Messages, repr=False)
    _last: Sent | None = field(default=None, repr=False)  # the last request sent

    @property
    def messages(self) -> list[Message]:
        """What the next model request carries; change it in place or replace it whole."""
        return self._messages

    @messages.setter
    def messages(self, messages: Iterable[Message]) -> None:
        self._messages = _Messages(messages)

    def listen(self, heard: Callable[[Said], None]) -> None:
        """Hand every later entry to ``heard`` as it is added."""
        self.listeners.append(heard)

    def add(self, kind: str, **fields: object) -> Said:
        entry = Said(kind, self.turn, self.now_ms(), **fields)  # type: ignore[arg-type]
        self.said.append(entry)
        for heard in self.listeners:
            heard(entry)
        return entry

    def requested(self) -> None:
        """A model request goes out now, carrying the messages so far."""
        messages = self._messages
        keep = messages.unchanged if self._last is not None else 0
        self._last = self.sent[self.turn] = Sent(self._last, keep, tuple(messages[keep:]))
        messages.unchanged = len(messages)

    # --- what the host's session loop says ----------------------------------------------
    def started(self, source: str, session_id: str) -> None:
        """A session starts; a new one (not a resumed or compacted one) starts empty."""
        if source in ("startup", "clear"):
            self.messages = []
        self.add(SESSION, source=source, text=session_id)

    def submitted(self, text: str) -> None:
        self.add(SUBMITTED, text=text)

    def prompt(self, text: str) -> None:
        self.messages.append(Message(USER, text, PROMPT))
        self.add(PROMPT, text=text)

    def called(self, call: ToolCall, call_id: str, *, same_response: bool = False) -> None:
        """The model calls a tool: in a response of its own, or (``same_response``) in the one
        that called the tool before it, as one assistant message."""
        text = f"{call.name} {_arguments(call)}"
        joined = same_response and bool(self.messages) and self.messages[-1].role == ASSISTANT
        if joined:
            last = self.messages.pop()
            text = f"{last.text}\n{text}"
        else:
            self.requested()
        self.messages.append(Message(ASSISTANT, text))
        self.add(CALL, call=call, call_id=call_id, joined=joined)

    def asked(self) -> None:
        """The model's response has asked for all its tool calls (each said by ``called``),
        before any of them runs."""
        self.add(ASKED)

    def ran(self, call: ToolCall, call_id: str) -> None:
        self.add(RAN, call=call, call_id=call_id, text=call.result)

    def returned(self, call: ToolCall, call_id: str, text: str, *, denied: bool = False) -> None:
        self.messages.append(Message(TOOL, text))
        self.add(RESULT, call=call, call_id=call_id, text=text, denied=denied)

    def replied(self, text: str) -> None:
        self.requested()
        self.messages.append(Message(ASSISTANT, text))
        self.add(REPLY, text=text)

    def sending(self) -> None:
        self.add(SENDING)

    def persisted(self) -> None:
        self.add(PERSISTED)

    def failed(self) -> None:
        self.requested()
        self.add(FAILED)

    def fed_back(self, event: str, text: str) -> None:
        self.messages.append(Message(USER, text, FEEDBACK))
        self.add(FEEDBACK, source=event, text=text)

    def context(self, event: str, text: str) -> None:
        self.messages.append(Message(BESIDE, text))
        self.add(CONTEXT, source=event, text=text)

    def stop_hooks(
        self,
        event: str,
        commands: Sequence[str],
        reasons: Sequence[str],
        blocking: Sequence[str] = (),
    ) -> None:
        """The stop event's hooks have run; ``reasons`` is empty unless they blocked it."""
        self.add(
            STOP_HOOKS,
            source=event,
            commands=tuple(commands),
            reasons=tuple(reasons),
            blocking=tuple(blocking),
        )

    def cleared(self) -> None:
        self.messages = []
        self.add(CLEARED)

    def compacted(self, trigger: str, summary: str, kept: Sequence[Message]) -> None:
        """The context is compacted: the model is sent ``kept`` from now on (the host's
        summary among them, where the host keeps it)."""
        self.messages = list(kept)
        self.add(COMPACTED, source=trigger, text=summary)

    # --- what the host keeps ------------------------------------------------------------
    def last(self, role: str) -> Message | None:
        """The last message of a role, if any."""
        return next((m for m in reversed(self.messages) if m.role == role), None)


def _arguments(call: ToolCall) -> str:
    return json.dumps(call.args, ensure_ascii=False)


def counted(messages: Sequence[Message]) -> list[Message]:
    """The dialogue: the messages ``conversation_at_turn``'s ``messages`` counts (not hook
    context the host sends beside it)."""
    return [m for m in messages if m.role != BESIDE]


__all__ = [
    "ASKED",
    "ASSISTANT",
    "BESIDE",
    "CALL",
    "CLEARED",
    "COMPACTED",
    "CONTEXT",
    "FAILED",
    "FEEDBACK",
    "PERSISTED",
    "PROMPT",
    "RAN",
    "REPLY",
    "RESULT",
    "SENDING",
    "SESSION",
    "STOP_HOOKS",
    "SUBMITTED",
    "TOOL",
    "USER",
    "Conversation",
    "Message",
    "Said",
    "Sent",
    "counted",
]
