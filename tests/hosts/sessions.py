"""A host session driven without processes: fire() records each event and every hook passes."""

from __future__ import annotations

from typing import Any

from hooksim.hosts import HOSTS, Firing, Session, SessionInfo

Fired = list[tuple[str, dict[str, Any] | bytes, str | None]]


def recording_session(tool: str) -> tuple[Fired, Session]:
    """The host's session, and the list its fire() appends ``(event, payload, match)`` to."""
    fired: Fired = []

    def fire(event: str, payload: dict[str, Any] | bytes, *, match: str | None = None) -> Firing:
        fired.append((event, payload, match))
        return Firing(0, event, 0, match=match)

    info = SessionInfo("/p", "s1", "m", "cli", "/t.jsonl", lambda: 1_780_000_000_000)
    return fired, HOSTS[tool].session(info, fire)
