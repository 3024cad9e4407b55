"""The mind's failed calls, kept in the Hermes home where the user and ``verify`` find them.

The hook fails open (exit 0, one line on stderr), and Hermes v0.19.0 logs the stderr of a hook
that exits 0 only at DEBUG (``agent/shell_hooks.py``, ``_make_callback``) while its default
level is INFO: without this file a mind that fails every call would lose every memory without
a trace. So each failed or timed-out bridge call is also one line of
``<hermes home>/logs/hermes-hooks.log``, beside Hermes' own ``agent.log``::

    2026-12-07T18:20:51Z post_llm_call save_memory failed: hive-mind call save_memory exited 3: database locked

When calls succeed again after a failure, one ``ok`` line says so (a successful call writes
nothing otherwise: it only looks whether the file exists), so the last line tells whether the
mind works now. The file is bounded: past ``MAX_LOG_BYTES`` it becomes ``hermes-hooks.log.1``
(replacing the previous one, under a lock) and a new file starts. Writing it never fails a hook: a file that
cannot be written is skipped. On the hook's per-turn path: standard library only.
"""

from __future__ import annotations

import os
import time

from .careful_files import append_to_file, make_private_dirs, open_lock_file, read_file_tail

LOG_DIRNAME = "logs"
LOG_FILENAME = "hermes-hooks.log"
MAX_LOG_BYTES = 256 * 1024
FAILED = "failed"
OK = "ok"
_TAIL_BYTES = 4096
MAX_DETAIL = 512  # characters of a line's reason: a line always fits the tail read back


def call_log_path(home: str) -> str:
    """``<hermes home>/logs/hermes-hooks.log``."""
    return os.path.join(home, LOG_DIRNAME, LOG_FILENAME)


class Record:
    """One line of the log, read back: its time (as written), event, tool, status, reason."""

    __slots__ = ("detail", "event", "stamp", "status", "tool")

    def __init__(self, stamp: str, event: str, tool: str, status: str, detail: str) -> None:
        self.stamp, self.event, self.tool = stamp, event, tool
        self.status, self.detail = status, detail

    @property
    def failed(self) -> bool:
        return self.status == FAILED


def parse_line(line: str) -> Record | None:
    """A line ``format_line`` wrote, read back; None for anything else."""
    parts = line.rstrip("\n").split(" ", 4)
    if len(parts) != 5 or not parts[3].endswith(":"):
        return None
    return Record(parts[0], parts[1], parts[2], parts[3][:-1], parts[4])


def format_line(when: float, event: str, tool: str, status: str, detail: str) -> str:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when))
    # One line per call, whatever the message holds, and of bounded length.
    detail = " ".join(detail.split())
    if len(detail) > MAX_DETAIL:
        detail = detail[: MAX_DETAIL - 1] + "\u2026"
    return f"{stamp} {event} {tool} {status}: {detail}\n"


class CallLog:
    """Where one hook run records its failed calls (and the first success after them)."""

    __slots__ = ("event", "path")

    def __init__(self, path: str, event: str) -> None:
        self.path = path
        self.event = event

    def failed(self, tool: str, message: str) -> None:
        self._append(format_line(time.time(), self.event, tool, FAILED, message))

    def succeeded(self, tool: str) -> None:
        """After failures, one line saying calls succeed again; nothing otherwise."""
        try:
            tail = read_file_tail(self.path, _TAIL_BYTES)
        except OSError:  # no log (the usual case), or one we cannot read
            return
        last = parse_line(tail.decode("utf-8", "replace").rstrip("\n").rpartition("\n")[2])
        if last is not None and last.failed:
            self._append(format_line(time.time(), self.event, tool, OK, "calls succeed again"))

    def _append(self, line: str) -> None:
        try:
            make_private_dirs(os.path.dirname(self.path))
            size = append_to_file(self.path, line.encode("utf-8", "replace"))
            if size > MAX_LOG_BYTES:
                rotate(self.path)
        except OSError:  # a trace we cannot keep must not cost the hook anything more
            return


def rotate(path: str) -> None:
    """The log at ``path`` becomes ``.1`` when it is over ``MAX_LOG_BYTES``: under a lock, and
    only while the file there is still over the bound (two hooks that both filled it rotate it
    once; the second would otherwise put a fresh one-line log over the history)."""
    import fcntl

    fd = open_lock_file(path + ".lock")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        if os.lstat(path).st_size > MAX_LOG_BYTES:
            os.replace(path, path + ".1")
    finally:
        os.close(fd)  # closing releases the lock
