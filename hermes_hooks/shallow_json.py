"""Reading a JSON object whose nesting is too deep for ``json.loads``, without recursion.

A legal Hermes payload can nest deeper than Python's recursion limit in a field the hook never
reads (``tool_input``, ``conversation_history``); ``json.loads`` then raises RecursionError and
the whole capture would be lost. This scan keeps the fields we read and replaces each value
nested too deep with None. Only reached on that error, so it may import ``re``.
"""

from __future__ import annotations

import json
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_DECODER = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")
_BRACKETS = re.compile(r'[\[\]{}"]')
# Values nested at most this deep (counted from the kept object) are parsed as usual.
_SAFE_DEPTH = 100


def _skip_value(text: str, pos: int) -> int:
    """The index just after the JSON value starting at ``pos``, found without recursion."""
    if text[pos] not in "[{":
        try:
            return _DECODER.raw_decode(text, pos)[1]
        except ValueError:  # a number past the digit limit: skip its characters
            end = pos
            while end < len(text) and text[end] in "+-0123456789.eE":
                end += 1
            if end == pos:
                raise json.JSONDecodeError("Expecting value", text, pos) from None
            return end
    depth = 0
    while True:
        match = _BRACKETS.search(text, pos)
        if match is None:
            raise json.JSONDecodeError("Unterminated value", text, pos)
        char, pos = match.group(), match.end()
        if char == '"':
            pos = json.decoder.scanstring(text, pos)[1]  # type: ignore[attr-defined]
        elif char in "[{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return pos


def _value(text: str, pos: int) -> tuple[Any, int]:
    end = _skip_value(text, pos)
    if text[pos] not in "[{":
        return _scalar(text, pos, end), end
    try:
        return json.loads(text[pos:end]), end
    except (RecursionError, ValueError):
        return None, end  # too deep (or too big a number) for a field we do not read


def _scalar(text: str, pos: int, end: int) -> Any:
    try:
        return _DECODER.raw_decode(text, pos)[0]
    except ValueError:
        return text[pos:end]


def _object(text: str, pos: int, keep: tuple[str, ...]) -> tuple[dict[str, Any], int]:
    """The object at ``pos`` (a ``{``): kept keys parsed as objects of their own."""
    result: dict[str, Any] = {}
    pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
    if text[pos] == "}":
        return result, pos + 1
    while True:
        if text[pos] != '"':
            raise json.JSONDecodeError("Expecting property name", text, pos)
        key, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
        if text[pos] != ":":
            raise json.JSONDecodeError("Expecting ':'", text, pos)
        pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
        if key in keep and text[pos] == "{":
            result[key], pos = _object(text, pos, ())
        else:
            result[key], pos = _value(text, pos)
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
        if text[pos] == "}":
            return result, pos + 1
        if text[pos] != ",":
            raise json.JSONDecodeError("Expecting ',' delimiter", text, pos)
        pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]


def load_shallow(text: str, keep: tuple[str, ...] = ()) -> Any:
    """Parse ``text`` as a JSON object; values too deeply nested become None.

    The keys in ``keep`` (objects) are read one level further the same way. Raises
    JSONDecodeError for text that is not JSON, or not an object at the top.
    """
    try:
        pos = _WS.match(text).end()  # type: ignore[union-attr]
        if pos >= len(text) or text[pos] != "{":
            raise json.JSONDecodeError("Expecting an object", text, pos)
        result, pos = _object(text, pos, keep)
        if _WS.match(text, pos).end() != len(text):  # type: ignore[union-attr]
            raise json.JSONDecodeError("Extra data", text, pos)
    except IndexError:
        raise json.JSONDecodeError("Unexpected end of input", text, len(text)) from None
    return result
