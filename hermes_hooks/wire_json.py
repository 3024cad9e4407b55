"""JSON on the hook's wire (Hermes' payload in, bridge arguments out, the bridge's answer)
without importing :mod:`json`.

``import json`` pulls in ``re`` (for two patterns), and with it ``enum``, ``functools`` and
``collections``: about as much start-up time as the interpreter itself, paid twice per agent
turn. The parsing and the string escaping are done by CPython's own accelerator, ``_json``
(what ``json.loads`` and ``json.dumps`` call underneath), so the results are ``json``'s; only
the glue is here. Where ``_json`` is missing (another Python implementation), ``json`` is
used.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

__all__ = ["WireJSONError", "dumps_flat", "loads"]

_WHITESPACE = " \t\n\r"
_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}

_make_scanner: Any
_encode_str: Any
try:
    from _json import encode_basestring as _encode_str
    from _json import make_scanner as _make_scanner
except ImportError:  # pragma: no cover - CPython always has it
    _make_scanner = _encode_str = None


class WireJSONError(ValueError):
    """Text that is not one JSON value; ``lineno`` and ``colno`` say where (1-based)."""

    def __init__(self, message: str, text: str, pos: int) -> None:
        self.lineno = text.count("\n", 0, pos) + 1
        self.colno = pos - text.rfind("\n", 0, pos)
        super().__init__(f"{message}: line {self.lineno} column {self.colno} (char {pos})")


class _Context:
    """The settings ``_json.make_scanner`` reads: ``json.loads``' defaults."""

    __slots__ = (
        "object_hook",
        "object_pairs_hook",
        "parse_constant",
        "parse_float",
        "parse_int",
        "strict",
    )

    def __init__(self, parse_int: Callable[[str], Any]) -> None:
        self.strict = True
        self.object_hook = None
        self.object_pairs_hook = None
        self.parse_float = float
        self.parse_int = parse_int
        self.parse_constant = _CONSTANTS.__getitem__


def loads(text: str, parse_int: Callable[[str], Any] = int) -> Any:
    """``json.loads(text)`` for a str; raises WireJSONError (a ValueError) with line and column.

    Like ``json.loads``: a number past the int digit limit raises ValueError (without a
    position), nesting past the recursion limit RecursionError.
    """
    if _make_scanner is None:  # pragma: no cover
        import json

        try:
            return json.loads(text, parse_int=parse_int)
        except json.JSONDecodeError as e:
            raise WireJSONError(e.msg, text, e.pos) from None
    start = len(text) - len(text.lstrip(_WHITESPACE))
    scan = _make_scanner(_Context(parse_int))
    try:
        value, end = scan(text, start)
    except StopIteration as e:
        raise WireJSONError("Expecting value", text, e.value) from None
    except ValueError as e:
        pos = getattr(e, "pos", None)  # json.JSONDecodeError, raised by the scanner itself
        if pos is None:
            raise
        raise WireJSONError(getattr(e, "msg", str(e)), text, pos) from None
    except SystemError:
        # The scanner reports most syntax errors with json.decoder's JSONDecodeError, and
        # cannot when json.decoder was never imported: on that (error) path, ask json.
        import json

        try:
            json.loads(text, parse_int=parse_int)
        except json.JSONDecodeError as e:
            raise WireJSONError(e.msg, text, e.pos) from None
        raise
    if end != len(text.rstrip(_WHITESPACE)):
        rest = text[end:]
        raise WireJSONError("Extra data", text, end + len(rest) - len(rest.lstrip(_WHITESPACE)))
    return value


def dumps_flat(arguments: Mapping[str, Any]) -> str:
    """``json.dumps(arguments, ensure_ascii=False)``, done here for strings and flags.

    The bridge's arguments are a flat mapping of those; anything else goes to ``json``.
    """
    if _make_scanner is None or not all(
        isinstance(v, str) or v is None or v is True or v is False for v in arguments.values()
    ):
        import json

        return json.dumps(arguments, ensure_ascii=False)
    parts = []
    for key, value in arguments.items():
        if value is True:
            encoded = "true"
        elif value is False:
            encoded = "false"
        elif value is None:
            encoded = "null"
        else:
            encoded = _encode_str(value)
        parts.append(f"{_encode_str(key)}: {encoded}")
    return "{" + ", ".join(parts) + "}"
