"""A scenario run with one recording hook on some events: what each firing's payload was, and
what the hook found of the host's transcript (or, for Hermes, its store) at that moment."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

from hooksim.replay.runner import run_scenario
from hooksim.scenario import load_scenario

# Keeps each payload and the transcript's records as they are when the hook runs.
TRANSCRIPT = """\
import json, os, sys
payload = json.load(sys.stdin)
path = payload.get("transcript_path") or ""
records = ([json.loads(l) for l in open(path) if l.strip()] if os.path.isfile(path) else None)
with open(os.environ["RECORD_TO"], "a") as f:
    f.write(json.dumps({"payload": payload, "records": records}) + "\\n")
"""
# Keeps each payload and the rows of Hermes' state.db as they are when the hook runs.
HERMES_STORE = """\
import json, os, sqlite3, sys
payload = json.load(sys.stdin)
db = sqlite3.connect(os.path.join(os.environ["HERMES_HOME"], "state.db"))
rows = [list(r) for r in db.execute("SELECT role, tool_calls, tool_call_id FROM messages ORDER BY id")]
with open(os.environ["RECORD_TO"], "a") as f:
    f.write(json.dumps({"payload": payload, "rows": rows}) + "\\n")
"""


def recorded(
    tmp_path: Path,
    tool: str,
    events: tuple[str, ...],
    turns: str,
    *,
    hook: str = TRANSCRIPT,
    matcher: str = ".*",
) -> list[dict[str, Any]]:
    """Run ``turns`` on ``tool`` with ``hook`` on each of ``events``; what it recorded."""
    script = tmp_path / "hook.py"
    script.write_text(hook)
    out = tmp_path / "records.jsonl"
    command = json.dumps(f"{sys.executable} {script}")
    if tool == "hermes":  # Hermes' hooks: block lists commands per event
        hooks = "".join(f"  {event}:\n    - command: {command}\n" for event in events)
    else:
        entry = (
            f"[{{matcher: {json.dumps(matcher)}, hooks: [{{type: command, command: {command}}}]}}]"
        )
        hooks = "".join(f"  {event}: {entry}\n" for event in events)
    path = tmp_path / "s.yaml"
    path.write_text(
        f"name: t\ntool: {tool}\nenv: {{RECORD_TO: {json.dumps(str(out))}}}\n"
        f"hooks:\n{hooks}turns:\n{textwrap.dedent(turns)}"
    )
    run_scenario(load_scenario(path), workdir_root=tmp_path)
    return [json.loads(line) for line in out.read_text().splitlines()]
