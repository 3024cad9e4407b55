"""Echo CLI's session loop: a prompt event before each turn, a stop event after it."""

from __future__ import annotations

from typing import Any

from ...steps import Compact, NewSession, Turn
from ..session import Session


class EchoSession(Session):
    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        return {"event": event, "session": self.info.session_id, **fields}

    def turn(self, turn: Turn) -> None:
        if not self.launched:
            self.launched = True
            self.fire("start", self.payload("start"))
        self.said.submitted(turn.user)
        self.fire("prompt", self.payload("prompt", prompt=turn.user))
        self.said.prompt(turn.user)
        self.said.replied(turn.reply() or "")
        self.fire("stop", self.payload("stop", reply=turn.reply()))

    def compact(self, step: Compact) -> None:
        self.fire("compact", self.payload("compact", trigger=step.trigger), match=step.trigger)

    def new_session(self, step: NewSession) -> None:
        self.next_session_id(step)
        self.launched = False
