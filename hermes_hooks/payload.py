"""The JSON object Hermes writes to a shell hook's stdin, parsed into a typed value.

Hermes v0.19.0 (``agent.shell_hooks._serialize_payload``) sends the keys ``hook_event_name,
tool_name, tool_input, session_id, cwd, extra`` in that order; everything event-specific is in
``extra``.
"""

from __future__ import annotations

from .wire_json import WireJSONError, loads

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


# ``hermes hooks test EVENT`` and ``hermes hooks doctor`` fire the configured hooks with Hermes'
# own synthetic payloads (hermes-agent 0.19.0, ``hermes_cli/hooks.py``, ``_DEFAULT_PAYLOADS``:
# session "test-session", the prompt "What is the weather?") through
# ``agent.shell_hooks.run_once``, which bypasses ``PluginManager.invoke_hook`` and with it the
# ``telemetry_schema_version`` that every real fire's ``extra`` carries
# (``hermes_cli/plugins.py``: ``kwargs.setdefault("telemetry_schema_version", ...)``).
TEST_SESSION_ID = "test-session"
_REAL_FIRE_KEY = "telemetry_schema_version"


class PayloadError(ValueError):
    """Stdin is not a Hermes payload; ``str()`` is the one line the user sees."""


class HermesPayload:
    """The fields our handlers read; everything event-specific stays in ``extra``."""

    __slots__ = ("cwd", "event", "extra", "session_id")

    def __init__(self, event: str, session_id: str, cwd: str, extra: dict[str, Any]) -> None:
        self.event = event
        self.session_id = session_id
        self.cwd = cwd
        self.extra = extra

    def is_hermes_test_fire(self) -> bool:
        """Whether Hermes' ``hooks test`` or ``hooks doctor`` sent this, not a real session."""
        return self.session_id == TEST_SESSION_ID and _REAL_FIRE_KEY not in self.extra

    def text(self, key: str) -> str:
        """``extra[key]`` when it is a string, else ``''``."""
        value = self.extra.get(key)
        return value if isinstance(value, str) else ""


def parse_payload(data: bytes) -> HermesPayload:
    """Parse stdin bytes; raise PayloadError with a one-line reason."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise PayloadError(f"payload is not UTF-8 (byte {e.start})") from None
    if not text.strip():
        raise PayloadError("empty payload on stdin")
    try:
        raw = _loads(text)
    except ValueError as e:  # WireJSONError, or json's own error from the deep-nesting scan
        where = f"line {getattr(e, 'lineno', 1)}, column {getattr(e, 'colno', 1)}"
        raise PayloadError(f"payload is not valid JSON ({where})") from None
    if not isinstance(raw, dict):
        raise PayloadError(f"payload is not a JSON object (got {type(raw).__name__})")
    extra = raw.get("extra")
    if not isinstance(extra, dict):
        raise PayloadError("payload has no 'extra' object")
    return HermesPayload(
        event=_str(raw.get("hook_event_name")),
        session_id=_str(raw.get("session_id")),
        cwd=_str(raw.get("cwd")),
        extra=extra,
    )


def _big_int(digits: str) -> Any:
    # Over Python's int-from-string limit (4,300 digits): nothing of ours reads such a field,
    # so keep it as the text it was rather than lose the payload.
    try:
        return int(digits)
    except ValueError:
        return digits


def _loads(text: str) -> Any:
    """``json.loads`` (through ``wire_json``), but every legal payload loads.

    An integer past the digit limit is kept as its text; nesting deeper than the recursion
    limit (in fields we never read, such as ``tool_input``) is read by a shallow scan that
    keeps the top level and ``extra``'s own fields and skips deeper values.
    """
    try:
        return loads(text)
    except WireJSONError:
        raise
    except ValueError:  # the int digit limit
        try:
            return loads(text, parse_int=_big_int)
        except RecursionError:
            pass
    except RecursionError:
        pass
    from .shallow_json import load_shallow

    return load_shallow(text, keep=("extra",))


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""
