"""A guard that keeps the model away from ``.env``: a pre-tool hook that refuses a file tool
whose path is a ``.env`` file (``.env``, ``.env.local``, ...), with exit 2 and the reason on
stderr, and lets every other call through.

It reads the path from ``tool_input.file_path`` (Claude Code, Gemini CLI) or ``tool_input.path``
(Hermes). Run it as ``"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/../hooks/env_guard.py"``.
"""

from __future__ import annotations

import json
import sys
from pathlib import PurePath


def main() -> int:
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        return 0
    tool_input = payload.get("tool_input") if isinstance(payload, dict) else None
    if not isinstance(tool_input, dict):
        return 0
    path = tool_input.get("file_path") or tool_input.get("path")
    name = PurePath(path).name if isinstance(path, str) else ""
    if name == ".env" or name.startswith(".env."):
        print(f"{name} holds secrets: leave it alone", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
