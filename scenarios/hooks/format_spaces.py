"""A formatter after a file tool: runs of spaces become one, trailing spaces go.

Formatters run after the tool that wrote the file: on Claude Code's and Codex CLI's
``PostToolUse``, on Gemini CLI's ``AfterTool``, on Hermes' ``post_tool_call``. This one reads
the files' paths from the payload's ``tool_input``: ``file_path`` (absolute on Claude Code;
relative to the project on Gemini CLI, whose hooks run there), ``path`` (Hermes' write_file and
patch), or the file lines of a patch (Codex's apply_patch ``command``, Hermes' patch-mode
``patch``: ``*** Add File:``, ``*** Update File:``, ``*** Move to:``). It rewrites each file that
is not tidy (a file without a final line break is not) and appends its name to
``~/formatted.log``. Run it as
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
    for file in paths(tool_input if isinstance(tool_input, dict) else {}):
        text = file.read_text(encoding="utf-8")
        if tidy(text) != text:
            file.write_text(tidy(text), encoding="utf-8")
            with (Path.home() / "formatted.log").open("a", encoding="utf-8") as log:
                log.write(f"{file.name}\n")
    return 0


def paths(tool_input: dict[str, object]) -> list[Path]:
    """The files the tool wrote that are there now."""
    named = [tool_input.get("file_path"), tool_input.get("path")]
    patch = tool_input.get("command", tool_input.get("patch"))
    if isinstance(patch, str):
        named += PATCH_FILE.findall(patch)
    return [Path(p) for p in named if isinstance(p, str) and Path(p).is_file()]


PATCH_FILE = re.compile(r"^\*\*\* (?:Add File|Update File|Move to): (.+)$", re.MULTILINE)


if __name__ == "__main__":
    raise SystemExit(main())
