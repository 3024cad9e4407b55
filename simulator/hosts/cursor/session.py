"""Cursor's session loop: what it fires when, with which payload, and what it does with the hooks'
answers."""

from __future__ import annotations

import uuid
from typing import Any

from ...steps import Compact, NewSession, Turn
from ..records import Firing
from ..session import Session
from .constants import CURSOR_VERSION


class CursorSession(Session):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.generation_id = ""
        self.compactions = 0

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "conversation_id": self.info.session_id,
            "generation_id": self.generation_id,
            "model": self.info.model,
            "hook_event_name": event,
            "cursor_version": CURSOR_VERSION,
            "workspace_roots": [self.info.cwd],
            "user_email": None,
            "transcript_path": self.info.transcript_path,
        }
        payload.update(fields)
        return payload

    def _start(self) -> None:
        self.launched = True
        self.said.started("startup", self.info.session_id)
        self.fire(
            "sessionStart",
            self.payload(
                "sessionStart",
                session_id=self.info.session_id,
                is_background_agent=False,
                composer_mode="agent",
            ),
        )

    def turn(self, turn: Turn) -> None:
        if not self.launched:
            self._start()
        self.generation_id = str(uuid.uuid4())
        self.said.submitted(turn.user)
        submitted = self.fire(
            "beforeSubmitPrompt",
            self.payload("beforeSubmitPrompt", prompt=turn.user, attachments=[]),
        )
        if submitted.blocked or submitted.stop:
            submitted.effect = "the message is not sent"
            return
        self.said.prompt(turn.user)
        # The calls come response by response (``Turn.responses``), but nothing here shows how
        # they are grouped: the hooks hooksim fires are per call (preToolUse, postToolUse) or
        # per turn, none per model request (afterAgentThought, per thinking block, is not
        # replayed: a scenario scripts no thinking), and the transcript leaves tool calls out.
        self.tool_calls(
            turn,
            ("preToolUse", "postToolUse"),
            lambda call, n: {
                "tool_name": call.name,
                "tool_input": call.args,
                "tool_use_id": f"tool_{n}",
            },
            lambda call: {"tool_output": call.result},
        )
        # The agent loop ends ``aborted`` on an interrupt and ``error`` on a failed model call;
        # an empty reply still completes (hooks reference: stop ``status``).
        status = "aborted" if turn.interrupted else ("error" if turn.error else "completed")

        def fire_stop(loop_count: int) -> Firing:
            now = status if loop_count == 0 else "completed"  # a follow-up is a new message
            if now == "completed":
                self.said.replied(turn.reply(loop_count) or "")
                self.fire(
                    "afterAgentResponse",
                    # each follow-up's own reply
                    self.payload("afterAgentResponse", text=turn.reply(loop_count) or ""),
                )
            return self.fire("stop", self.payload("stop", status=now, loop_count=loop_count))

        self.stop_loop(fire_stop, self.host.stop_cap)

    def cap_of(self, firing: Firing, cap: int | None) -> int | None:
        """The follow-up's hook's ``loop_limit``: that many follow-ups; the next is ignored."""
        return None if firing.loop_limit is None else firing.loop_limit + 1

    def capped(self, n: int, cap: int) -> str:
        return f"follow-up ignored: loop_limit {cap - 1} reached"

    def continued(self, n: int) -> str:
        return f"the follow-up is submitted as the next message (loop_count {n})"

    def compact(self, step: Compact) -> None:
        self.compactions += 1
        self.fire(
            "preCompact",
            self.payload(
                "preCompact",
                trigger=step.trigger,
                context_usage_percent=95 if step.trigger == "auto" else 60,
                context_tokens=190_000 if step.trigger == "auto" else 120_000,
                context_window_size=200_000,
                message_count=40,
                messages_to_compact=36,
                is_first_compaction=self.compactions == 1,
            ),
        )

    def new_session(self, step: NewSession) -> None:
        self.next_session_id(step)
        self._start()

    def exit(self) -> None:
        if self.launched:
            self.fire(
                "sessionEnd",
                self.payload("sessionEnd", session_id=self.info.session_id, reason="window_close"),
            )
