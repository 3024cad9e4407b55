"""A hook that keeps a copy of the transcript it is given, as it is when the hook runs.

    python transcript_copier.py [--block-once]   (one payload on stdin)

Each run writes ``~/copies/NNN-EVENT.json``: the event, the ``transcript_path`` the payload
named (Hermes: ``$HERMES_HOME/state.db``, which no payload names), and the file's records then
(JSON lines; for Hermes' store its sessions' rows then its messages' rows), or ``null`` when
the file was not there. ``--block-once`` blocks the first stop event (Stop, AfterAgent) with a
reason, so the model goes on once.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

STOPS = ("Stop", "AfterAgent", "stop")


def records(path: Path) -> list[Any] | None:
    if not path.is_file():
        return None
    if path.suffix == ".db":
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        db.row_factory = sqlite3.Row
        try:
            rows = [dict(r) for r in db.execute("SELECT * FROM sessions")]
            return rows + [dict(r) for r in db.execute("SELECT * FROM messages ORDER BY id")]
        finally:
            db.close()
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def main() -> int:
    payload = json.load(sys.stdin)
    event = str(payload.get("hook_event_name"))
    named = payload.get("transcript_path")
    home = os.environ.get("HERMES_HOME")
    path = Path(named) if isinstance(named, str) else Path(home or "~") / "state.db"
    copies = Path.home() / "copies"
    copies.mkdir(exist_ok=True)
    n = len(list(copies.iterdir())) + 1
    kept = {"event": event, "path": str(path), "records": records(path)}
    (copies / f"{n:03d}-{event}.json").write_text(json.dumps(kept), encoding="utf-8")
    blocked = Path.home() / "blocked-once"
    if "--block-once" in sys.argv and event in STOPS and not blocked.exists():
        blocked.touch()
        print(json.dumps({"decision": "block", "reason": "one more time"}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
