"""Claude Code UserPromptSubmit hook: after a break, tell the model how long the user was away."""

import json
import sys
import time
from pathlib import Path

BREAK = 30 * 60  # seconds away that count as a break

session = json.load(sys.stdin)["session_id"]
stamp = Path.home() / f".welcome-back-{session}"  # each prompt starts a new process
now = time.time()
if stamp.exists():
    away = now - float(stamp.read_text())
    if away > BREAK:
        print(f"The user is back after {away / 60:.0f} minutes away.")  # given to the model
stamp.write_text(str(now))
