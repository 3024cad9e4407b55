"""Each host's transcript, written as the session goes, where the payloads say it is.

A hook that reads the transcript (a Stop loop looking for a promise in the last assistant
message, a summariser, a chat logger) finds the file the real host would have on disk at the
moment it fires. The host's session loop says what happens (``hosts.conversation``); a writer
listens, and turns each entry into the records that host writes at that moment, in its
own format. The profile also cites where the format was read.

This module is what the writers share (``Transcript``); each host's writer is its folder's
``transcript.py``, and its profile names it (``Host.transcript``):

- Claude Code's session JSONL, ``~/.claude/projects/<cwd>/<id>.jsonl``;
- Codex's rollout JSONL, ``~/.codex/sessions/Y/M/D/rollout-<time>-<id>.jsonl``;
- Gemini CLI's chat file, ``~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl``;
- Hermes' session store, ``$HERMES_HOME/state.db`` (SQLite), which a hook reaches through
  ``HERMES_HOME`` and ``HERMES_SESSION_ID`` (its payloads name no transcript);
- Cursor: what third-party readers of its agent transcripts expect (unverified).

Each writer also says which of its host's record kinds it writes (``reproduced``) and which
not, with the reason (``not_reproduced``), and how to read a record's kind and keys
(``kind_of``, ``keys_of``): the real-host test compares a real transcript with a replayed one by
those, and the docs list them.

Ids are derived from the session and a counter, times from the virtual clock: a replay writes
the same transcript every time.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import json
import re
import uuid
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar

from .conversation import Said
from .session import SessionInfo

_IDS = uuid.UUID("6f1c3e2a-8d4b-4f0e-9a57-2b1d0c9e7f30")  # the namespace of replayed ids


def iso(ms: int) -> str:
    """An instant as the hosts write it: ``2026-06-01T09:00:00.000Z``."""
    instant = dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc)
    return instant.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Transcript:
    """One host's transcript: where its file is, and what each entry of the conversation adds
    to it. ``heard`` is the conversation's listener; ``on_<kind>`` handles one kind."""

    format: ClassVar[str]
    reproduced: ClassVar[frozenset[str]] = frozenset()  # record kinds written
    not_reproduced: ClassVar[dict[str, str]] = {}  # kind (a glob) -> why it is not written

    def __init__(self, info: SessionInfo, hermes_home: Path) -> None:
        self.info = info
        self.hermes_home = hermes_home
        self.count = 0
        self.path: Path | None = None

    def heard(self, said: Said) -> None:
        handle = getattr(self, f"on_{said.kind}", None)
        if handle is not None:
            handle(said)

    def uid(self) -> str:
        """The next id of this session, the same on every replay."""
        self.count += 1
        return str(uuid.uuid5(_IDS, f"{self.info.session_id}:{self.count}"))

    def name(self, path: Path) -> None:
        """This is the file the session's payloads name from now on."""
        self.path = path
        self.info.transcript_path = str(path)

    def append(self, records: Iterable[Mapping[str, Any]], path: Path | None = None) -> None:
        """JSON lines at the end of the file, as the hosts write them (compact, one a line)."""
        target = path or self.path
        if target is None:
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("a", encoding="utf-8") as f:
            for record in records:
                f.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")

    @classmethod
    def read(cls, path: Path) -> list[dict[str, Any]]:
        """The records of a transcript in this format, in order (JSON lines)."""
        lines = path.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    @classmethod
    def kind_of(cls, record: Mapping[str, Any]) -> str:
        raise NotImplementedError

    @classmethod
    def keys_of(cls, record: Mapping[str, Any]) -> frozenset[str]:
        """A record's keys, and one level down where the format nests its content."""
        return frozenset(record)

    @classmethod
    def why_not(cls, kind: str) -> str | None:
        """Why a kind is not written (None: it is, or nothing says)."""
        return next(
            (
                why
                for pattern, why in cls.not_reproduced.items()
                if fnmatch.fnmatchcase(kind, pattern)
            ),
            None,
        )


def folder_name(cwd: str) -> str:
    """The name Claude Code (and Cursor) give a working directory's folders, its projects' and
    its temporary ones: each character that is not a letter or a digit becomes ``-`` (real
    2.1.332: ``/tmp/x-1/project`` is ``-tmp-x-1-project``)."""
    return re.sub(r"[^A-Za-z0-9]", "-", cwd)
