"""The one way we talk to the mind: its bridge CLI, one process per call.

Contract (fixed; other tools depend on it): the command is ``$WAGGLE_MIND_CMD`` split as a shell
would split it but run without a shell (default ``hive-mind``); a call is
``[*cmd, "call", TOOL]`` with one JSON object of arguments on stdin; success is exit 0 with
stdout empty or one JSON object. Anything else is a failed call.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import signal
import subprocess

# Typing-only imports: ``typing`` and ``collections.abc`` cost milliseconds on every turn.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

DEFAULT_MIND_CMD = "hive-mind"
DEFAULT_TIMEOUT_S = 10.0


class BridgeError(Exception):
    """A failed bridge call; ``str()`` is the one line the user sees."""


def _timeout_from(env: Mapping[str, str]) -> float:
    raw = env.get("WAGGLE_BRIDGE_TIMEOUT_S", "")
    try:
        value = float(raw)
    except ValueError:
        return DEFAULT_TIMEOUT_S
    return value if math.isfinite(value) and value > 0 else DEFAULT_TIMEOUT_S


def _first_line(data: bytes) -> str:
    text = data.decode("utf-8", "replace").strip()
    return text.splitlines()[0] if text else ""


class Bridge:
    """The mind's bridge command and the time one call may take."""

    __slots__ = ("command", "timeout_s")

    def __init__(self, command: Sequence[str], timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        self.command = list(command)
        self.timeout_s = timeout_s

    def __repr__(self) -> str:
        return f"Bridge({self.command!r}, timeout_s={self.timeout_s!r})"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Bridge:
        """Read ``WAGGLE_MIND_CMD`` and ``WAGGLE_BRIDGE_TIMEOUT_S``; raise BridgeError if unparseable."""
        env = os.environ if env is None else env
        raw = env.get("WAGGLE_MIND_CMD") or DEFAULT_MIND_CMD
        try:
            command = shlex.split(raw)
        except ValueError as e:
            raise BridgeError(f"WAGGLE_MIND_CMD cannot be parsed ({e})") from None
        if not command:
            raise BridgeError("WAGGLE_MIND_CMD is blank")
        return cls(command, _timeout_from(env))

    def call(self, tool: str, arguments: Mapping[str, Any]) -> dict[str, Any] | None:
        """Run one call; return its JSON object (None for empty stdout) or raise BridgeError."""
        argv = [*self.command, "call", tool]
        name = f"{shlex.join(self.command)} call {tool}"
        stdin = json.dumps(arguments, ensure_ascii=False).encode()
        try:
            # A session of its own, so that a timeout can kill the bridge *and* its children:
            # an orphaned grandchild holding our pipe would keep the hook alive past Hermes'
            # 60 s hook timeout (Hermes v0.19.0 kills only its direct child).
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except FileNotFoundError:
            raise BridgeError(f"{name}: command not found (set WAGGLE_MIND_CMD)") from None
        except PermissionError:
            raise BridgeError(f"{name}: command not executable") from None
        except OSError as e:
            raise BridgeError(f"{name}: cannot start ({e.strerror or e})") from None
        try:
            stdout, stderr = proc.communicate(stdin, timeout=self.timeout_s)
        except subprocess.TimeoutExpired:
            _kill_tree(proc)
            raise BridgeError(f"{name} timed out after {self.timeout_s:g}s; killed") from None
        if proc.returncode != 0:
            detail = _first_line(stderr) or _first_line(stdout)
            raise BridgeError(
                f"{name} exited {proc.returncode}" + (f": {detail}" if detail else "")
            )
        text = stdout.strip()
        if not text:
            return None
        try:
            result = json.loads(text)
        except ValueError:
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


def _kill_tree(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    # Do not wait on the pipes: a grandchild that left our process group could hold them open.
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
    proc.wait()
