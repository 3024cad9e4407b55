"""The transcript a replayed session writes: its host's writer (``Host.transcript``, in the host's
folder), listening to the session's conversation from its start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..hosts import HOSTS, Host, SessionInfo
from ..hosts.transcript import Transcript

WRITERS: dict[str, type[Transcript]] = {
    h.transcript.format: h.transcript for h in HOSTS.values() if h.transcript is not None
}


def transcript_for(host: Host, info: SessionInfo, hermes_home: Path) -> Transcript | None:
    """The writer of ``host``'s transcript for one session, listening to its conversation (None
    for a host whose profile names no writer)."""
    if host.transcript is None:
        return None
    transcript = host.transcript(info, hermes_home)
    info.conversation.listen(transcript.heard)
    return transcript


def read_records(path: Path, fmt: str) -> list[dict[str, Any]]:
    """A transcript's records, in order, read as its format is."""
    return WRITERS[fmt].read(path)


__all__ = ["WRITERS", "Transcript", "read_records", "transcript_for"]
