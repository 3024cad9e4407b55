"""A Claude Code PreToolUse guard: refuse a Bash command that deletes recursively and by force.

``rm`` with a recursive flag (``-r``, ``-R``, ``--recursive``) and a force flag (``-f``,
``--force``), in any order, joined (``-rf``, ``-fr``) or apart, in any command of the line
(``cd build && rm -rf .``), after ``sudo`` too. Such a call is blocked the Claude Code way:
exit 2 with the reason on stderr (the model reads it). Anything else passes with exit 0 and
nothing printed. Run it as ``"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/../hooks/guard_rm.py"``.
"""

from __future__ import annotations

import json
import re
import shlex
import sys

# Where one command of a shell line ends and the next begins.
SEPARATORS = re.compile(r"&&|\|\||[;|&\n]")


def deletes_recursively(line: str) -> bool:
    """Whether any command of the shell ``line`` is an ``rm`` both recursive and forced."""
    for part in SEPARATORS.split(line):
        try:
            words = shlex.split(part)
        except ValueError:  # an unbalanced quote: judge the words as they are
            words = part.split()
        while words and words[0] == "sudo":
            words = words[1:]
        if not words or words[0] != "rm":
            continue
        flags = [w for w in words[1:] if w.startswith("-")]
        short = "".join(f[1:] for f in flags if not f.startswith("--"))
        recursive = "r" in short or "R" in short or "--recursive" in flags
        force = "f" in short or "--force" in flags
        if recursive and force:
            return True
    return False


def main() -> int:
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        return 0  # not a payload this guard can read: let the call through
    tool_input = payload.get("tool_input") if isinstance(payload, dict) else None
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    if isinstance(command, str) and deletes_recursively(command):
        print(f"refused: {command!r} deletes recursively and by force", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
