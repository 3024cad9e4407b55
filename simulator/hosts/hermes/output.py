"""How Hermes reads a hook's stdout: what it injects, what blocks, what it ignores."""

from __future__ import annotations

import json

from ..output import parse_json_output


def injected_context(event: str, stdout: str) -> str | None:
    """What Hermes takes from a hook's stdout, as ``_parse_response`` reads it for non-tool events.

    All of stdout must be one JSON object with a non-blank string ``context``; anything else is
    ignored. Only ``pre_llm_call`` uses it (appended to the model's copy of the user message);
    other events drop it, so this returns None for them.
    """
    if event != "pre_llm_call" or not stdout.strip():
        return None
    try:
        parsed = json.loads(stdout.strip())
    except ValueError:
        return None
    context = parsed.get("context") if isinstance(parsed, dict) else None
    return context if isinstance(context, str) and context.strip() else None


def block_message(stdout: str) -> str | None:
    """The block a ``pre_tool_call`` hook's stdout asks for, as ``_parse_response`` reads it."""
    parsed = parse_json_output(stdout)
    if parsed is None:
        return None
    default = "Blocked by shell hook."
    for key, first, second in (("action", "message", "reason"), ("decision", "reason", "message")):
        if parsed.get(key) == "block":
            message = parsed.get(first) or parsed.get(second)
            return message if isinstance(message, str) and message.strip() else default
    return None


def pre_verify_message(stdout: str) -> str | None:
    """The follow-up a ``pre_verify`` hook's stdout asks for, as ``_parse_response`` reads it:
    ``action`` (or ``decision``) ``continue`` or ``block`` with a non-blank message/reason."""
    parsed = parse_json_output(stdout)
    if parsed is None:
        return None
    action = str(parsed.get("action") or parsed.get("decision") or "").strip().lower()
    message = parsed.get("message") or parsed.get("reason")
    if action in ("continue", "block") and isinstance(message, str) and message.strip():
        return message.strip()
    return None


def meant_for_hermes(stdout: str) -> bool:
    """Whether ignored stdout was meant for Hermes: text that is not a JSON object (Hermes reads
    JSON only), or an object with a key Hermes reads on another event; an object of the hook's
    own keys is ignored quietly."""
    try:
        output = json.loads(stdout.strip())
    except ValueError:
        return True
    read = ("context", "decision", "action", "message", "reason")
    return not isinstance(output, dict) or any(key in output for key in read)
