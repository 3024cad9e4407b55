"""A stop hook that sends the model back until the transcript shows it kept its promise.

It reads what the model last said from the transcript file the payload names
(``transcript_path``), not from the payload itself, as many published Stop loops do: Claude
Code's session JSONL (the last ``assistant`` record), Codex CLI's rollout (the last assistant
``response_item``), Gemini CLI's chat file (the last ``gemini`` message with text). Until that
message says ``<promise>DONE</promise>`` it blocks with a reason, so the model goes on.

What it found is appended to ``~/seen``, one a line, and each transcript it read is kept as
``~/transcripts/stop-N.jsonl`` (N from 1), to look at afterwards. Run it as
``"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/../hooks/transcript_promise.py"``.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

PROMISE = "<promise>DONE</promise>"
REASON = f"Not done yet: keep going, and say {PROMISE} when the work is finished."


def texts(content: Any) -> str:
    """The text of a message's content: a string, or its text parts joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def last_said(record: dict[str, Any]) -> str | None:
    """What the model said in a record of any of the three formats (None: not the model's)."""
    message = record.get("message")
    if record.get("type") == "assistant" and isinstance(message, dict):  # Claude Code
        return texts(message.get("content")) or None
    payload = record.get("payload")
    if (
        record.get("type") == "response_item"  # Codex CLI
        and isinstance(payload, dict)
        and payload.get("type") == "message"
        and payload.get("role") == "assistant"
    ):
        return texts(payload.get("content"))
    if record.get("type") == "gemini":  # Gemini CLI
        return texts(record.get("content")) or None
    return None


def read_last(path: Path) -> str:
    """The model's last message in the transcript ("" when there is none, or no file)."""
    found = ""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return found
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        said = last_said(record) if isinstance(record, dict) else None
        if said is not None:
            found = said
    return found


def keep(path: Path) -> None:
    """A copy of the transcript as the hook read it."""
    kept = Path.home() / "transcripts"
    kept.mkdir(exist_ok=True)
    n = len(list(kept.glob("stop-*.jsonl"))) + 1
    if path.is_file():
        shutil.copyfile(path, kept / f"stop-{n}.jsonl")


def main() -> int:
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        return 0
    if not isinstance(payload, dict) or not isinstance(payload.get("transcript_path"), str):
        return 0
    path = Path(payload["transcript_path"])
    said = read_last(path)
    keep(path)
    with (Path.home() / "seen").open("a", encoding="utf-8") as log:
        log.write(said.replace("\n", " ") + "\n")
    if PROMISE not in said:
        print(json.dumps({"decision": "block", "reason": REASON}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
