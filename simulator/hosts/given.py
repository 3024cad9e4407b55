"""What a text the host hands the model says once the host's wrapping is taken off.

A host hands the model a hook's text in its own wrapping: Codex puts a blocked stop's reason
in ``<hook_prompt hook_run_id="…">…</hook_prompt>`` with ``&``, ``<`` and ``>`` escaped, Hermes
gives a blocked tool's reason as the JSON result ``{"error": …}``. ``readings`` is a text with
those wrappings taken off, so an expectation (``context_at_turn: {"1": "a & b"}``) and the real
run's detector (a hook's text in the fake model's request log) find the hook's own words.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Any

# codex-rs protocol/src/items.rs: serialize_hook_prompt_fragment (quick_xml, text escaped).
HOOK_PROMPT = re.compile(r"<hook_prompt\b[^>]*>(.*?)</hook_prompt>", re.DOTALL)


def readings(text: str) -> list[str]:
    """``text``, then what it says unwrapped: the un-escaped body of each ``<hook_prompt>`` in
    it, and every string inside it when it is a JSON object or list."""
    found = [text]
    found += [html.unescape(body) for body in HOOK_PROMPT.findall(text)]
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            value = json.loads(stripped)
        except ValueError:
            value = None
        found += [s for s in _strings(value) if s != text]
    return found


def contains(text: str, part: str) -> bool:
    """Whether ``part`` is in ``text`` as the model reads it (any of its ``readings``)."""
    return any(part in reading for reading in readings(text))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


__all__ = ["HOOK_PROMPT", "contains", "readings"]
