"""Wrong versions of the hooks of scenarios/explore/, for explore to find.

    python example_mutants.py MUTANT    (reads the host's payload on stdin, like the hook)

- ``misses_spacing``: the guard looks for the text ``rm -rf``, so ``rm  -rf`` (two spaces),
  ``rm -fr`` and ``rm -r -f`` get through;
- ``blocks_everything``: the guard refuses every Bash call;
- ``blocks_forever``: the Stop hook keys its state file by its process id, so it never finds
  it again and blocks every Stop (on Codex, with no cap, the session never ends);
- ``never_blocks``: the Stop hook lets every turn end.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def misses_spacing(payload: dict[str, object]) -> int:
    tool_input = payload.get("tool_input")
    command = tool_input.get("command", "") if isinstance(tool_input, dict) else ""
    if "rm -rf" in str(command):
        print("refused: rm -rf", file=sys.stderr)
        return 2
    return 0


def blocks_everything(payload: dict[str, object]) -> int:
    print("refused: not now", file=sys.stderr)
    return 2


def blocks_forever(payload: dict[str, object]) -> int:
    done = Path.home() / ".stop-once" / str(os.getpid())
    if done.exists():
        return 0
    done.parent.mkdir(parents=True, exist_ok=True)
    done.touch()
    print(json.dumps({"decision": "block", "reason": "Run the tests before you stop."}))
    return 0


def never_blocks(payload: dict[str, object]) -> int:
    return 0


MUTANTS = {f.__name__: f for f in (misses_spacing, blocks_everything, blocks_forever, never_blocks)}


def main() -> int:
    payload = json.load(sys.stdin)
    return MUTANTS[sys.argv[1]](payload if isinstance(payload, dict) else {})


if __name__ == "__main__":
    raise SystemExit(main())
