"""A stop hook that sends the model back until its reply keeps a promise: ``<promise>DONE</promise>``.

The loop reads no transcript: it looks at the reply the stop event carries (Claude Code's and
Codex CLI's ``last_assistant_message``, Gemini CLI's ``prompt_response``, Hermes' ``pre_verify``
``final_response``), and blocks with a reason until it finds the promise, so the turn ends at
the first continuation that says it. Each reply it saw is appended to ``~/replies``, one a line.
Run it as ``"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/../hooks/promise_loop.py"``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

PROMISE = "<promise>DONE</promise>"
REASON = f"Not done yet: keep going, and say {PROMISE} when the work is finished."


def reply(payload: dict[str, object]) -> str:
    """The reply this stop event carries, on any of the hosts."""
    extra = payload.get("extra")
    for value in (
        payload.get("last_assistant_message"),
        payload.get("prompt_response"),
        extra.get("final_response") if isinstance(extra, dict) else None,
    ):
        if isinstance(value, str):
            return value
    return ""


def main() -> int:
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        return 0
    if not isinstance(payload, dict):
        return 0
    said = reply(payload)
    with (Path.home() / "replies").open("a", encoding="utf-8") as log:
        log.write(said + "\n")
    if PROMISE not in said:
        print(json.dumps({"decision": "block", "reason": REASON}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
