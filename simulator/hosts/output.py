"""Reading a hook's output the ways several hosts share: its stdout as JSON, the context it
gives, the line of its stderr that tells what went wrong."""

from __future__ import annotations

import json
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


def telling_line(stderr: str) -> str:
    """The line of a failed hook's stderr that says most: a Python traceback's last (the
    exception), else the first."""
    lines = [line.strip() for line in stderr.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    return (lines[-1] if TRACEBACK in stderr else lines[0])[:200]


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
