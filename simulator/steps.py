"""What happens in a session: the kinds of step a scenario is made of.

A turn (the user's message, the tool calls, and how it ended: a reply, an interruption or a
failed model call), a new session (``/new``, ``/clear``), a resumed one (the user quits and runs
the host again on the same session), a compaction, and a raw event with a hand-written payload.
The host profiles turn these into the events each host fires. Any step may carry a ``label``
that expectations name it by.

The bottom stage of hooksim: it imports nothing of hooksim.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

# The name of a shell call a scenario gives without naming the host's tool
# (``tools: [{shell: CMD}]``); ``Scenario.on`` makes it each host's own shell tool.
SHELL = "(shell)"


@dataclass(frozen=True)
class ToolCall:
    name: str  # the tool as the host's hooks see it, or SHELL until the host is known
    args: dict[str, Any] = field(default_factory=dict)
    result: str = "ok"
    id: str | None = None  # the model's tool call id; None: the host's own numbering
    duration_s: float = 0.0  # how long the tool ran (virtual)
    run: bool = False  # a shell call that runs for real; its output is the result
    # "auto": the response asking for this call reports a full context, so the host compacts
    # once the call is done, before the turn's next request (a compaction between tool calls)
    compact: str | None = None


# Named causes of a failed model call, and the cause of each HTTP status a scenario may give.
ERROR_CAUSES = (
    "authentication",
    "billing",
    "context_length",
    "invalid_request",
    "invalid_tool_call",
    "max_output_tokens",
    "overloaded",
    "payload_too_large",
    "rate_limit",
    "server_error",
    "timeout",
    "unknown",
)
_STATUS_CAUSES = {
    400: "invalid_request",
    401: "authentication",
    402: "billing",
    403: "authentication",
    413: "payload_too_large",
    429: "rate_limit",
    529: "overloaded",
}
OUTCOME_HINT = (
    'add `assistant: TEXT` (a reply; `assistant: ""` is an empty reply), `interrupted: true`,'
    " or `error: 400` (another HTTP status, or a cause: " + ", ".join(ERROR_CAUSES) + ")"
)


@dataclass(frozen=True)
class ApiError:
    """A model call that failed: an HTTP status, or a named cause without one."""

    status: int | None
    cause: str

    @classmethod
    def parse(cls, value: int | str) -> ApiError:
        if isinstance(value, int):
            cause = _STATUS_CAUSES.get(value, "server_error" if value >= 500 else "invalid_request")
            return cls(value, cause)
        return cls(None, value)

    def __str__(self) -> str:
        return f"{self.status} ({self.cause})" if self.status is not None else self.cause


@dataclass(frozen=True)
class Turn:
    """One user turn of the agent loop, and how it ended.

    A reply (``assistant``, ``""`` for an empty one), an interruption while the model answers
    (``interrupted``; ``assistant`` is then what had streamed before the stop, if anything) or a
    failed model call (``error``), after the turn's tool calls. A reply may go on: a stop hook
    that blocks makes the model answer again, with the next of ``continuations``.
    """

    user: str
    assistant: str | None = None
    interrupted: bool = False
    tools: tuple[ToolCall, ...] = ()
    after_s: float = 0.0
    line: int = 0
    error: ApiError | None = None
    edited: tuple[str, ...] | None = None  # files the turn changed; None: from its tool calls
    clock_back_s: float = 0.0  # after ``after_s``, the wall clock is set back by this much
    continuations: tuple[str, ...] = ()  # the model's replies after each continuation, in order
    label: str = ""  # what expectations may call the step instead of its turn number
    launch: str = ""  # OpenClaw: "local" or "gateway" from this step on; "": as before
    # How many of ``tools`` each model response asks for, in order (the scenario's
    # ``responses``); empty: as the host's model does by default (``responses``).
    batches: tuple[int, ...] = ()

    def responses(self, together: bool) -> list[list[tuple[int, ToolCall]]]:
        """The model's responses that ask for the turn's tool calls, each the calls it asks
        for, numbered from 1 through the turn: as the scenario groups them, else all in one
        response (``together``) or one call per response."""
        numbered = list(enumerate(self.tools, 1))
        if self.batches:
            ends = list(itertools.accumulate(self.batches))
            return [
                numbered[end - size : end] for size, end in zip(self.batches, ends, strict=True)
            ]
        if together:
            return [numbered] if numbered else []
        return [[call] for call in numbered]

    def reply(self, n: int = 0) -> str | None:
        """The model's reply after ``n`` continuations (0: its answer to the turn); the last of
        ``continuations`` repeats, and without any the answer does."""
        if n == 0 or not self.continuations:
            return self.assistant
        return self.continuations[min(n, len(self.continuations)) - 1]

    @property
    def replied(self) -> bool:
        """The model answered (possibly with nothing): not interrupted, no failed call."""
        return not self.interrupted and self.error is None

    @property
    def empty_reply(self) -> bool:
        return self.replied and not (self.assistant or "").strip()


@dataclass(frozen=True)
class NewSession:
    """``/new``: finalize the current session and start another."""

    session_id: str | None = None
    after_s: float = 0.0
    line: int = 0
    clock_back_s: float = 0.0  # after ``after_s``, the wall clock is set back by this much
    label: str = ""  # what expectations call the step (it has no turn number)
    launch: str = ""  # OpenClaw: "local" or "gateway" from this step on; "": as before


@dataclass(frozen=True)
class Resume:
    """The user quits the host and starts it again on the same session (``claude --resume``)."""

    after_s: float = 0.0
    line: int = 0
    clock_back_s: float = 0.0  # after ``after_s``, the wall clock is set back by this much
    label: str = ""  # what expectations call the step (it has no turn number)
    launch: str = ""  # OpenClaw: "local" or "gateway" from this step on; "": as before


@dataclass(frozen=True)
class RawEvent:
    """One event fired on its own, with exact stdin bytes or hand-written ``extra`` keys."""

    event: str
    stdin: bytes | None = None
    extra: dict[str, Any] | None = None
    after_s: float = 0.0
    line: int = 0
    clock_back_s: float = 0.0  # after ``after_s``, the wall clock is set back by this much
    label: str = ""
    launch: str = ""  # OpenClaw: "local" or "gateway" from this step on; "": as before


@dataclass(frozen=True)
class Compact:
    """The host compacts its context: ``auto`` (the window is full) or ``manual`` (/compact)."""

    trigger: str
    instructions: str = ""
    after_s: float = 0.0
    line: int = 0
    clock_back_s: float = 0.0  # after ``after_s``, the wall clock is set back by this much
    label: str = ""
    launch: str = ""  # OpenClaw: "local" or "gateway" from this step on; "": as before


Step = Turn | NewSession | RawEvent | Compact | Resume
