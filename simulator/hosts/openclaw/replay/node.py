"""The Node runner as a process: started, sent one command at a time, stopped.

hooksim writes JSON lines to the runner's stdin and reads each answer from a pipe of its own
(``HOOKSIM_REPLY_FD``), so whatever handlers, or the processes they start, print on stdout
and stderr cannot break the protocol; that output goes to a log file in the run's directory,
whose tail explains a runner that died.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

RUNNER = Path(__file__).with_name("runner.mjs")
# How long one command may take in real time. Hook budgets run out in real time too, so only a
# handler that never gives the event loop back (a busy loop), or waits for ever on real work
# without a budget, gets here.
REPLY_TIMEOUT_S = 60.0


class RunnerError(Exception):
    """The runner could not be started, died, or did not answer; ``str()`` says which."""


def node_binary() -> str | None:
    """The ``node`` on PATH (Node 20 or later runs the runner)."""
    return shutil.which("node")


class NodeRunner:
    """One Node runner process, driven a command at a time (thread-safe)."""

    def __init__(self, node: str, env: dict[str, str], cwd: Path, log: Path) -> None:
        read, write = os.pipe()
        self.log = log
        with open(log, "ab") as out:
            try:
                self.proc = subprocess.Popen(
                    [node, str(RUNNER)],
                    stdin=subprocess.PIPE,
                    stdout=out,
                    stderr=out,
                    pass_fds=(write,),
                    env={**env, "HOOKSIM_REPLY_FD": str(write)},
                    cwd=cwd,
                    start_new_session=True,  # the runner and what handlers start, stopped as one
                )
            except OSError as e:
                os.close(read)
                raise RunnerError(f"cannot start {node} ({e})") from None
            finally:
                os.close(write)
        self._replies = read
        self._buffer = b""
        self._lock = threading.Lock()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def call(self, command: dict[str, Any], timeout_s: float = REPLY_TIMEOUT_S) -> dict[str, Any]:
        """Send one command; its answer. RunnerError when the runner dies or stays silent."""
        with self._lock:
            assert self.proc.stdin is not None
            try:
                self.proc.stdin.write(json.dumps(command).encode() + b"\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, ValueError):
                raise RunnerError(f"the Node runner exited{self._tail()}") from None
            line = self._line(timeout_s)
        reply: dict[str, Any] = json.loads(line)
        if reply.get("error") and command["op"] != "fire":
            raise RunnerError(str(reply["error"]).splitlines()[0])
        return reply

    def _line(self, timeout_s: float) -> bytes:
        deadline = time.monotonic() + timeout_s
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._replies], [], [], max(0.0, left))
            if not ready:
                self.close()
                raise RunnerError(
                    f"the Node runner did not answer in {timeout_s:g} s: a handler keeps the"
                    " event loop busy, or waits for ever on real work without a budget"
                )
            chunk = os.read(self._replies, 65536)
            if not chunk:
                raise RunnerError(f"the Node runner exited{self._tail()}")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _tail(self) -> str:
        with contextlib.suppress(OSError):
            lines = self.log.read_text(encoding="utf-8", errors="replace").strip().splitlines()
            if lines:
                return f": {lines[-1][:200]}"
        return ""

    def close(self) -> None:
        """Stop the runner and everything it started that is still running."""
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        with contextlib.suppress(OSError):
            os.close(self._replies)
        self._replies = -1
