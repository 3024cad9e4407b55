"""Cursor's agent transcript (unverified), written as the session goes (``hosts.transcript``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..conversation import Said
from ..session import SessionInfo
from ..transcript import Transcript, folder_name


# --- Cursor -------------------------------------------------------------------------------
class CursorJsonl(Transcript):
    """Cursor's agent transcript, unverified: its hooks reference names ``transcript_path``
    and nothing of the file. hooksim writes what third-party readers of it parse: one JSON line
    per message, ``{"role", "message": {"content": [{"type": "text", "text"}]}}``, the user's
    text in ``<user_query>`` tags, under ``~/.cursor/projects/<cwd>/agent-transcripts/<id>/``;
    a reply before ``stop``. Tool calls are left out: nothing says how Cursor writes them."""

    format = "cursor-jsonl"
    reproduced = frozenset({"user", "assistant"})

    def __init__(self, info: SessionInfo, hermes_home: Path) -> None:
        super().__init__(info, hermes_home)
        self.open_session()

    def open_session(self) -> None:
        folder = folder_name(self.info.cwd).lstrip("-")
        sid = self.info.session_id
        self.name(
            Path(self.info.home)
            / ".cursor"
            / "projects"
            / folder
            / "agent-transcripts"
            / sid
            / f"{sid}.jsonl"
        )

    def line(self, role: str, text: str) -> None:
        self.append([{"role": role, "message": {"content": [{"type": "text", "text": text}]}}])

    def on_session(self, said: Said) -> None:
        self.open_session()

    def on_prompt(self, said: Said) -> None:
        self.line("user", f"<user_query>\n{said.text}\n</user_query>")

    def on_feedback(self, said: Said) -> None:
        self.line("user", f"<user_query>\n{said.text}\n</user_query>")

    def on_reply(self, said: Said) -> None:
        self.line("assistant", said.text)

    @classmethod
    def kind_of(cls, record: Mapping[str, Any]) -> str:
        return str(record.get("role"))
