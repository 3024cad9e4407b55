"""Opt-in, time-gated compaction after the Stop save.

Hermes has no pre-compaction event (v0.19.0: none in ``VALID_HOOKS``), so the mind's maintenance
pass (``cleanup_frames``, mode ``compact``) would never run for a Hermes user and temporary
capture frames would pile up. This gate approximates it from the per-turn Stop hook: at most
once per window, remembered in a small file because every hook run is a new process.

Rules (see the design of the gate for the first six):

- ``WAGGLE_HERMES_COMPACT_ON_STOP`` turns it on: truthy exactly when set and not ``''``, ``'0'``
  or ``'false'`` in any letter case. Off (the default) does no file IO.
- Window: ``WAGGLE_HERMES_COMPACT_WINDOW_MIN`` minutes when finite and > 0, else 10 minutes;
  an explicit ``window_ms`` argument wins.
- State: ``<hermes home>/.hive-mind-last-compact`` holds integer epoch milliseconds; missing,
  empty or garbage means "never". A timestamp more than one window in the future (the clock
  went back) is garbage too, instead of locking compaction out until that time.
- The timestamp is written only after ``cleanup_frames`` succeeded, so a failure is retried on
  the next turn. Writes are atomic (temp file + replace), the file is 0600, a directory we
  create is 0700.
- A Hermes gateway runs several sessions at once, so read-check-compact-write happens under a
  non-blocking lock; a process that finds it held skips: another one is compacting right now.
- It never raises.
"""

from __future__ import annotations

import os
import sys
import time

from .bridge import BridgeError, positive_number
from .careful_files import (
    UnsafeFileError,
    make_private_dirs,
    open_lock_file,
    read_regular_file,
    replace_file,
)
from .paths import compact_state_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import ClassVar

    from .bridge import Bridge

DEFAULT_WINDOW_MS = 10 * 60_000
_FALSE_VALUES = ("", "0", "false")


class CompactOutcome(str):
    """What one pass through the gate did: one of the five constants below.

    A ``str`` (equal to its ``value``) rather than an ``enum.Enum``: this module runs on
    every Stop, and ``enum``'s import is not worth it there.
    """

    __slots__ = ()
    DISABLED: ClassVar[CompactOutcome]
    INSIDE_WINDOW: ClassVar[CompactOutcome]
    LOCKED: ClassVar[CompactOutcome]
    COMPACTED: ClassVar[CompactOutcome]
    FAILED: ClassVar[CompactOutcome]

    @property
    def value(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"CompactOutcome.{self.upper().replace('-', '_')}"


CompactOutcome.DISABLED = CompactOutcome("disabled")
CompactOutcome.INSIDE_WINDOW = CompactOutcome("inside-window")
CompactOutcome.LOCKED = CompactOutcome("locked")
CompactOutcome.COMPACTED = CompactOutcome("compacted")
CompactOutcome.FAILED = CompactOutcome("failed")


def is_compact_enabled(env: Mapping[str, str] | None = None) -> bool:
    """The opt-in flag, parsed exactly like the mind's other boolean switches."""
    flag = (os.environ if env is None else env).get("WAGGLE_HERMES_COMPACT_ON_STOP")
    return flag is not None and flag.lower() not in _FALSE_VALUES


def resolve_window_ms(
    env: Mapping[str, str] | None = None, override_ms: float | None = None
) -> float:
    """The window in milliseconds: the override, else the variable when usable, else 10 minutes."""
    if override_ms is not None:
        return override_ms
    raw = (os.environ if env is None else env).get("WAGGLE_HERMES_COMPACT_WINDOW_MIN", "")
    minutes = positive_number(raw)
    return DEFAULT_WINDOW_MS if minutes is None else minutes * 60_000


def read_last_compact_ts(path: str) -> int | None:
    """The stored epoch milliseconds, or None for missing, unreadable or garbage content.

    Raises UnsafeFileError when something other than a regular file is at ``path`` (a FIFO
    would block a plain open forever): the gate skips, with one line.
    """
    try:
        text = read_regular_file(path, 64).decode("ascii").strip()
    except UnsafeFileError:
        if os.path.islink(path):
            return None  # not ours to follow: "never", and the write replaces the link
        raise
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


def write_last_compact_ts(path: str, ts: int) -> None:
    """Atomically replace the state file with ``ts``: a kill at any instant leaves old or new.

    ``careful_files.replace_file``: an ``O_EXCL | O_NOFOLLOW`` temp file of our own, 0600 from
    its creation, renamed over the state; temp files of killed writers are cleaned up.
    """
    replace_file(path, str(ts).encode("ascii"), mode=0o600)


def _now_ms() -> int:
    return int(time.time() * 1000)


def _log(message: str) -> None:
    print(f"hermes-hooks stop: {message}", file=sys.stderr)


class _TryLock:
    """``with _TryLock(path) as locked``: True when we hold the lock (or locking is
    impossible), False when another process holds it.

    A lock file that cannot be opened (unwritable home) does not stop compaction: the gate
    degrades to the design's unlocked behaviour rather than to never compacting. Something
    other than a regular file at the lock path raises UnsafeFileError: the gate skips.
    (A class, not ``contextlib.contextmanager``: that import is not worth it on every Stop.)
    """

    __slots__ = ("_fd", "_path")

    def __init__(self, path: str) -> None:
        self._path = path
        self._fd = -1

    def __enter__(self) -> bool:
        try:
            self._fd = open_lock_file(self._path)
        except UnsafeFileError:
            raise
        except OSError:
            return True
        import fcntl

        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        except BaseException:
            self.__exit__()
            raise
        return True

    def __exit__(self, *exc_info: object) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing releases the lock
            self._fd = -1


def maybe_compact_on_stop(
    bridge: Bridge,
    *,
    now: Callable[[], int] | None = None,
    hermes_home: str | os.PathLike[str] | None = None,
    window_ms: float | None = None,
    env: Mapping[str, str] | None = None,
) -> CompactOutcome:
    """Compact if enabled and due; never raises. ``now`` returns epoch milliseconds."""
    if not is_compact_enabled(env):
        return CompactOutcome.DISABLED
    try:
        return _compact_if_due(
            bridge, now or _now_ms, hermes_home, resolve_window_ms(env, window_ms)
        )
    except UnsafeFileError as e:  # a FIFO, socket or device where our files go
        _log(f"compaction skipped: {e}")
        return CompactOutcome.FAILED
    except Exception as e:  # the error boundary of the gate: compaction is best effort
        _log(f"compaction skipped: {type(e).__name__}: {e}")
        return CompactOutcome.FAILED


def _compact_if_due(
    bridge: Bridge,
    now: Callable[[], int],
    hermes_home: str | os.PathLike[str] | None,
    window: float,
) -> CompactOutcome:
    path = compact_state_path(hermes_home)
    # Created 0700 at every level whatever the umask; without it, a flag set before Hermes
    # ever created its home would fail every write and compact on every turn.
    try:  # noqa: SIM105 - contextlib is not worth its import on every Stop
        make_private_dirs(os.path.dirname(path))
    except OSError:  # reported once, when the timestamp cannot be written
        pass
    with _TryLock(path + ".lock") as locked:
        if not locked:
            return CompactOutcome.LOCKED
        current = now()
        last = read_last_compact_ts(path)
        if last is not None and last - current > window:
            last = None  # far in the future: the clock went back; do not lock out for ages
        if last is not None and current - last < window:
            return CompactOutcome.INSIDE_WINDOW
        try:
            bridge.cleanup_frames()
        except BridgeError as e:
            _log(f"compaction failed: {e}")
            return CompactOutcome.FAILED
        try:
            write_last_compact_ts(path, current)
        except OSError as e:
            _log(f"compacted, but cannot record it in {path} ({e.strerror or e})")
        return CompactOutcome.COMPACTED
