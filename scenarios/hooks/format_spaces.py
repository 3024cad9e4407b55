"""A formatter after a file tool: runs of spaces become one, trailing spaces go.

Formatters run after the tool that wrote the file: on Claude Code's ``PostToolUse``, on Gemini
CLI's ``AfterTool``. This one reads the file's path from the payload's ``tool_input.file_path``
(absolute on Claude Code; relative to the project on Gemini CLI, whose hooks run there),
rewrites the file when it is not tidy, and appends its path to ``~/formatted.log``. Run it as
``"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/../hooks/format_spaces.py"``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path


def tidy(text: str) -> str:
    """Each line with runs of spaces made one and trailing whitespace dropped."""
    return "".join(re.sub(r" {2,}", " ", line).rstrip() + "\n" for line in text.splitlines())


def main() -> int:
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        return 0
    tool_input = payload.get("tool_input") if isinstance(payload, dict) else None
    path = tool_input.get("file_path") if isinstance(tool_input, dict) else None
    if not isinstance(path, str) or not Path(path).is_file():
        return 0
    file = Path(path)
    text = file.read_text(encoding="utf-8")
    if tidy(text) != text:
        file.write_text(tidy(text), encoding="utf-8")
        with (Path.home() / "formatted.log").open("a", encoding="utf-8") as log:
            log.write(f"{file.name}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
