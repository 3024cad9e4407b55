"""The one way we talk to the mind: its bridge CLI, one process per call.

Contract (fixed; other tools depend on it): the command is ``$WAGGLE_MIND_CMD`` split as a shell
would split it but run without a shell (default ``hive-mind``); a call is
``[*cmd, "call", TOOL]`` with one JSON object of arguments on stdin; success is exit 0 with
stdout empty or one JSON object. Anything else is a failed call.

``Bridge`` builds a call and reads its answer; ``bridge_process`` runs the one process a call
is (started, fed, read within bounds, killed with its group when it must end).
"""

from __future__ import annotations

import os

from .bridge_process import (
    MAX_TIMEOUT_S,
    BridgeError,
    CallInterrupted,
    DeathGuard,
    exchange,
    kill_tree,
    restore_signals,
    signals_end_the_call,
    start,
)
from .wire_json import dumps_flat, loads

__all__ = [
    "DEFAULT_MIND_CMD",
    "DEFAULT_TIMEOUT_S",
    "MAX_TIMEOUT_S",
    "Bridge",
    "BridgeError",
    "CallInterrupted",
    "positive_number",
    "timeout_from_env",
]

# Typing-only imports: ``typing`` and ``collections.abc`` cost milliseconds on every turn.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from .call_log import CallLog

DEFAULT_MIND_CMD = "hive-mind"
DEFAULT_TIMEOUT_S = 10.0
MAX_EXCERPT = 120
_ECHO_WINDOW = 16
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_")


def positive_number(raw: str) -> float | None:
    """``raw`` as a finite number greater than 0, else None: the rule of every number setting
    (the bridge timeout, the compaction window); ``verify`` judges them by it too."""
    try:
        value = float(raw)
    except ValueError:
        return None
    # ``value - value`` is 0 exactly for a finite float (``math`` is not worth its import).
    return value if value - value == 0 and value > 0 else None


def timeout_from_env(env: Mapping[str, str]) -> float:
    """The variable when finite and > 0, else the default; clamped to what poll() can wait."""
    value = positive_number(env.get("WAGGLE_BRIDGE_TIMEOUT_S", ""))
    return DEFAULT_TIMEOUT_S if value is None else min(value, MAX_TIMEOUT_S)


def _expand_home(word: str, env: Mapping[str, str]) -> str:
    """``~`` and ``~user`` at a word's start, and ``$HOME`` or ``${HOME}`` in it, expanded.

    Hermes expands ``~`` in hook commands (``os.path.expanduser``), and a shell would expand
    both; the mind command is written the same way, so it is read the same way. Only on the
    path of a command that needs ``shlex``, which has imported ``re`` already.
    """
    import re

    home = env.get("HOME") or os.path.expanduser("~")
    if word == "~" or word.startswith("~/"):
        word = home + word[1:]
    elif word.startswith("~"):
        word = os.path.expanduser(word)
    return re.sub(r"\$(?:\{HOME\}|HOME(?!\w))", lambda _: home, word)


def _command_name(command: Sequence[str]) -> str:
    # shlex.join without importing shlex on the hook's path: quote only what needs it.
    return " ".join(
        w if w and _PLAIN.issuperset(w) else "'" + w.replace("'", "'\"'\"'") + "'" for w in command
    )


def _encode(arguments: Mapping[str, Any]) -> bytes:
    """The call's stdin; a lone surrogate (half an emoji) becomes U+FFFD instead of failing."""
    text = dumps_flat(arguments)
    try:
        return text.encode()
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode()


def _excerpt(data: bytes, sent: bytes) -> str:
    """A short, single-line excerpt of the bridge's message for the user's one line.

    Never payload-sized, never control characters; and when it quotes what we sent (a bridge
    that echoes its input), it is not shown at all: that would put the user's text in
    Hermes' log.
    """
    head = data[:4096].decode("utf-8", "replace").strip()
    line = head.splitlines()[0].strip() if head else ""
    if not line:
        return ""
    line = "".join(c if c.isprintable() else " " for c in line)
    sent_text = sent.decode("utf-8", "replace")
    windows = range(0, max(len(line) - _ECHO_WINDOW, 0) + 1, _ECHO_WINDOW // 2)
    if len(line) >= _ECHO_WINDOW and any(line[i : i + _ECHO_WINDOW] in sent_text for i in windows):
        return "(its message quotes what we sent it; not shown)"
    return line if len(line) <= MAX_EXCERPT else line[: MAX_EXCERPT - 1] + "\u2026"


class Bridge:
    """The mind's bridge command and the time one call may take."""

    __slots__ = ("child_env", "command", "log", "timeout_s")

    def __init__(
        self,
        command: Sequence[str],
        timeout_s: float = DEFAULT_TIMEOUT_S,
        log: CallLog | None = None,
        child_env: Mapping[str, str] | None = None,
    ) -> None:
        self.command = list(command)
        self.timeout_s = timeout_s
        self.log = log
        self.child_env = child_env  # the bridge's environment; None: this process's

    def __repr__(self) -> str:
        return f"Bridge({self.command!r}, timeout_s={self.timeout_s!r})"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, log: CallLog | None = None) -> Bridge:
        """Read ``WAGGLE_MIND_CMD`` and ``WAGGLE_BRIDGE_TIMEOUT_S``; raise BridgeError if unparseable.

        ``log`` records each failed call (and the first success after failures).
        """
        env = os.environ if env is None else env
        raw = env.get("WAGGLE_MIND_CMD") or DEFAULT_MIND_CMD
        if _PLAIN.issuperset(raw.replace(" ", "")):
            command = raw.split()  # a plain command: no need to import shlex on every turn
        else:
            import shlex

            try:
                command = [_expand_home(word, env) for word in shlex.split(raw)]
            except ValueError as e:
                raise BridgeError(f"WAGGLE_MIND_CMD cannot be parsed ({e})") from None
        if not command:
            raise BridgeError("WAGGLE_MIND_CMD is blank")
        return cls(command, timeout_from_env(env), log)

    def call(self, tool: str, arguments: Mapping[str, Any]) -> dict[str, Any] | None:
        """Run one call; return its JSON object (None for empty stdout) or raise BridgeError."""
        if self.log is None:
            return self._call(tool, arguments)
        try:
            result = self._call(tool, arguments)
        except BridgeError as e:
            self.log.failed(tool, str(e))
            raise
        except CallInterrupted as e:
            self.log.failed(tool, f"the hook was ended by signal {e.args[0]} during the call")
            raise
        self.log.succeeded(tool)
        return result

    def _call(self, tool: str, arguments: Mapping[str, Any]) -> dict[str, Any] | None:
        argv = [*self.command, "call", tool]
        name = f"{_command_name(self.command)} call {tool}"
        stdin = _encode(arguments)
        # The watcher first, so that it is out of the hook's process group before the bridge
        # exists: whatever kills the hook (the whole group included) finds it standing.
        guard = DeathGuard()
        try:
            proc = start(argv, name, self.child_env)
            if proc.pid > 0:
                guard.watch(proc.pid)
            try:
                previous = signals_end_the_call()
                try:
                    stdout, stderr = exchange(proc, stdin, self.timeout_s, name)
                finally:
                    restore_signals(previous)
            except BaseException:
                # A timeout, an oversized answer, a signal to the hook: the bridge's whole
                # process group goes, and is reaped, before anything else happens.
                kill_tree(proc)
                raise
        finally:
            guard.release()
        if proc.returncode != 0:
            detail = _excerpt(stderr or stdout, stdin)
            raise BridgeError(
                f"{name} exited {proc.returncode}" + (f": {detail}" if detail else "")
            )
        text = stdout.strip()
        if not text:
            return None
        try:
            result = loads(text.decode("utf-8"))
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            result = None
        if not isinstance(result, dict):
            raise BridgeError(f"{name} printed something other than one JSON object")
        return result

    def save_memory(
        self, content: str, *, role: str, temporary: bool, session_id: str, turn_id: str
    ) -> None:
        self.call(
            "save_memory",
            {
                "content": content,
                "role": role,
                "temporary": temporary,
                "session_id": session_id,
                "turn_id": turn_id,
                "source": "hermes",
            },
        )

    def cleanup_frames(self) -> None:
        self.call("cleanup_frames", {"mode": "compact"})

    def start_session(self, *, session_id: str, cwd: str, model: str, platform: str) -> None:
        self.call(
            "start_session",
            {
                "session_id": session_id,
                "cwd": cwd,
                "model": model,
                "platform": platform,
                "source": "hermes",
            },
        )
