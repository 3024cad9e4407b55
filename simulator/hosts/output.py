"""Reading a hook's output the ways several hosts share: its stdout as JSON, the context it
gives, the line of its stderr that tells what went wrong."""

from __future__ import annotations

import json
import re
from typing import Any

from .records import TRACEBACK


def parse_json_output(stdout: str) -> dict[str, Any] | None:
    """Stdout as one JSON object, or None."""
    text = stdout.strip()
    return _loaded_object(text) if text.startswith("{") else None


def additional_context(output: dict[str, Any]) -> str | None:
    """``hookSpecificOutput.additionalContext`` when it is a non-blank string."""
    specific = output.get("hookSpecificOutput")
    context = specific.get("additionalContext") if isinstance(specific, dict) else None
    return context if isinstance(context, str) and context.strip() else None


# A line naming an error as Node and Java print an uncaught one: ``TypeError: …``,
# ``Error [ERR_MODULE_NOT_FOUND]: …``, ``java.lang.IllegalStateException: …``.
_ERROR_LINE = re.compile(r"(?:Uncaught )?(?:[\w.$]*[A-Z]\w*)?(?:Error|Exception)\b[^:]{0,40}:")


def telling_line(stderr: str) -> str:
    """The line of a failed hook's stderr that says most: a Python traceback's last (the
    exception), else the first line naming an error (a Node crash's ``TypeError: …``, which
    its source line and its ``Node.js v20`` line surround), else the first."""
    lines = stderr_lines(stderr)
    if not lines:
        return ""
    if TRACEBACK in stderr:
        return lines[-1][:200]
    return next((line for line in lines if _ERROR_LINE.match(line)), lines[0])[:200]


def stderr_lines(stderr: str) -> list[str]:
    """The non-blank lines of a stderr, split at line breaks only (a form feed or U+2028 is
    part of its line)."""
    return [line.strip() for line in stderr.split("\n") if line.strip()]


def first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[0][:200] if lines else ""


def json_object(text: str | bytes) -> dict[str, Any]:
    """The JSON object ``text`` holds ({} when it holds none: empty, not JSON, not an object),
    as a hook's stdin payload is read wherever hooksim reads one."""
    return _loaded_object(text or "{}") or {}


def _loaded_object(text: str | bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
