"""A Codex CLI Stop hook that sends the model back once per turn, then lets the turn end.

The first Stop of a turn is blocked (``{"decision": "block", "reason": ...}``: Codex makes the
reason the next prompt and fires Stop again); the second lets the turn end. It remembers that
it blocked in a state file keyed by session and turn (``session_id``, ``turn_id``), under
``$HOME/.stop-once/``, so every turn gets its one continuation and no turn gets two. Run it as
``"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/../hooks/stop_once.py"``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

REASON = "Run the tests before you stop, and say whether they pass."


def state_file(payload: dict[str, object]) -> Path:
    """The file that says this session's turn was sent back already."""
    key = f"{payload.get('session_id', '')}-{payload.get('turn_id', '')}"
    return Path.home() / ".stop-once" / re.sub(r"[^A-Za-z0-9_.-]", "_", key)


def main() -> int:
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        return 0
    if not isinstance(payload, dict):
        return 0
    done = state_file(payload)
    if done.exists():
        return 0
    done.parent.mkdir(parents=True, exist_ok=True)
    done.touch()
    print(json.dumps({"decision": "block", "reason": REASON}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
