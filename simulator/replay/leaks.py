"""Leaked processes: what a hook started that is still running after the hook exited.

A hook that backgrounds a job (``sleep 30 &``), detaches one (``setsid``) or double-forks a
daemon leaves it running under the real host, which waits for the hook process only. hooksim
finds every such process, says which hook left it, and kills it when the scenario ends.

How, on Linux:

- hooksim makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): a process
  whose parent exits is re-parented to hooksim instead of to init, so everything a finished
  hook left behind, double-forked or in a session of its own, is a descendant of hooksim. The
  walk reads ``/proc/PID/task/TID/children`` (a tenth of a millisecond), not all of ``/proc``.
- every hook gets ``HOOKSIM_HOOK_ID`` (this run's token and the hook's number) in its
  environment; a process inherits it through fork, exec and ``setsid``, so its
  ``/proc/PID/environ`` names the hook that started it, even when several hooks run at once.
  A process that cleared its environment is attributed by its session (each hook starts one
  of its own); one that also left that session is known only as an orphan hooksim inherited,
  and counted as left by an unknown hook (``adopt_orphans``).
- a shell call (``run: true``) carries a mark of its own; what it leaves is killed when it ends
  (``kill_marked``).
- only the processes of hooks that had exited before the scan began are counted: a bridge call
  still running under a live hook is not a leak, nor is a hook (or its child) that ends while
  another hook's scan is under way.

Being a subreaper makes hooksim reap what it inherits; it waits only for processes it knows
came from hooks (never for a process some other code in the same interpreter is waiting for).
Elsewhere than Linux nothing is detected, and the run says so.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
import uuid
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..hosts import HookRun

MARKER = "HOOKSIM_HOOK_ID"
_PR_SET_CHILD_SUBREAPER = 36
_PROC = Path("/proc")

_lock = threading.Lock()
_live_hooks: set[int] = set()  # pids of hook processes not yet waited for, across all runs
_hook_pids: set[int] = set()  # every hook process started: their sessions are hooks' sessions
_subreaper: bool | None = None
_watches: weakref.WeakSet[LeakWatch] = (
    weakref.WeakSet()
)  # runs of this process whose hooks may still leave processes
_adopted: set[int] = set()  # orphans a run has claimed as left by an unknown hook
stopping = threading.Event()  # set when a signal stops the run: no new hook starts


def _become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux 3.4+); once."""
    global _subreaper  # noqa: PLW0603 - a process-wide setting, made once
    with _lock:
        if _subreaper is None:
            _subreaper = False
            if sys.platform.startswith("linux") and _PROC.is_dir():
                with contextlib.suppress(OSError, AttributeError):
                    libc = ctypes.CDLL(None, use_errno=True)
                    _subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        return _subreaper


@dataclass
class LeakedProcess:
    """One process still running after the hook that started it had exited."""

    pid: int
    command: str
    run: HookRun | None  # the hook that left it; None: not attributable
    own_session: bool  # it left the hook's session (setsid, a daemon)

    @property
    def after_timeout(self) -> bool:
        """Left running because its host killed the hook at the timeout (the hook's child, where
        the host signals the hook's own process only)."""
        return self.run is not None and self.run.timed_out

    @property
    def hook(self) -> str:
        """The hook that left it, in words."""
        run = self.run
        if run is None:
            return "an unknown hook (the process cleared its environment and left the session)"
        return f"{run.event} at turn {run.turn} ({run.command})"


@dataclass(frozen=True)
class _Proc:
    pid: int
    ppid: int
    state: str
    session: int
    started: int  # clock ticks since boot


def _stat(pid: int) -> _Proc | None:
    try:
        raw = (_PROC / str(pid) / "stat").read_bytes()
    except OSError:
        return None
    # The command name is in parentheses and may hold anything, spaces and ')' included.
    fields = raw[raw.rindex(b")") + 2 :].split()
    return _Proc(pid, int(fields[1]), fields[0].decode(), int(fields[3]), int(fields[19]))


def session_alive(session: int) -> bool:
    """Whether a process of ``session`` still runs (a zombie waits only to be reaped)."""
    for entry in os.listdir(_PROC):
        if entry.isdigit():
            proc = _stat(int(entry))
            if proc is not None and proc.session == session and proc.state != "Z":
                return True
    return False


def _now_ticks() -> int:
    """The time since boot in the clock ticks of ``/proc/PID/stat``'s start time."""
    return int(time.clock_gettime(time.CLOCK_BOOTTIME) * os.sysconf("SC_CLK_TCK"))


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    try:
        tasks = os.listdir(_PROC / str(pid) / "task")
    except OSError:
        return kids
    for tid in tasks:
        with contextlib.suppress(OSError):
            kids += map(int, (_PROC / str(pid) / "task" / tid / "children").read_text().split())
    return kids


def _environ(pid: int) -> bytes | None:
    try:
        return (_PROC / str(pid) / "environ").read_bytes()
    except OSError:
        return None


def _cleared(environ: bytes | None) -> bool:
    """An environment that was cleared (``env -i``): no ``PATH``, no hook's marker; a shell
    it ran may have set ``PWD`` and the like again."""
    if environ is None:
        return False
    names = {entry.partition(b"=")[0] for entry in environ.split(b"\0")}
    return not names & {b"PATH", MARKER.encode()}


def _marker(pid: int) -> str | None:
    environ = _environ(pid)
    if environ is None:
        return None
    prefix = MARKER.encode() + b"="
    for entry in environ.split(b"\0"):
        if entry.startswith(prefix):
            return entry[len(prefix) :].decode(errors="replace")
    return None


def _command(pid: int, known: str = "(starting)") -> str:
    """What ``pid`` runs: its argv, else its name (a process that is exiting has no argv), else
    ``known`` (it is gone: what it was last seen running)."""
    with contextlib.suppress(OSError):
        argv = (_PROC / str(pid) / "cmdline").read_bytes().rstrip(b"\0").split(b"\0")
        if command := " ".join(a.decode(errors="replace") for a in argv).strip():
            return command
    with contextlib.suppress(OSError):
        if name := (_PROC / str(pid) / "comm").read_bytes().decode(errors="replace").strip():
            return name
    return known


def _descendants(root: int, skip: set[int]) -> list[int]:
    """Processes under ``root`` (not itself), leaving out the subtrees of pids in ``skip``."""
    found: list[int] = []
    todo = [c for c in _children(root) if c not in skip]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += [c for c in _children(pid) if c not in skip]
    return found


class LeakWatch:
    """The leak detector of one scenario run: tags each hook, finds what it left, kills it all.

    Thread-safe: hooks of one run may start and end in several threads at once.
    """

    def __init__(self) -> None:
        self.available = _become_subreaper()
        self.token = uuid.uuid4().hex[:12]
        self.found: list[LeakedProcess] = []
        self._lock = threading.Lock()
        self._runs: dict[str, HookRun] = {}
        self._by_session: dict[int, str] = {}  # a hook's pid (= its session) -> its id
        self._session_of: dict[str, int] = {}
        self._finished: set[str] = set()
        self._seen: set[int] = set()
        self._began = _now_ticks() if self.available else 0
        with _lock:
            _watches.add(self)

    def tag(self, run: HookRun) -> dict[str, str]:
        """The variable that marks every process this hook starts; add it to its environment."""
        with self._lock:
            hook_id = f"{self.token}.{len(self._runs) + 1}"
            self._runs[hook_id] = run
        return {MARKER: hook_id}

    def started(self, env: dict[str, str], pid: int) -> None:
        """A hook process started (call it with the lock of ``spawning()`` held)."""
        _live_hooks.add(pid)
        _hook_pids.add(pid)
        with self._lock:
            self._by_session[pid] = env[MARKER]
            self._session_of[env[MARKER]] = pid

    def ended(self, env: dict[str, str], pid: int) -> None:
        """A hook process has been waited for: what it left running now counts as leaked."""
        with _lock:
            _live_hooks.discard(pid)
        with self._lock:
            self._finished.add(env[MARKER])

    @staticmethod
    def spawning() -> threading.Lock:
        """Hold while starting a hook and calling ``started()``: a reap never races a spawn."""
        return _lock

    def scan(self) -> list[LeakedProcess]:
        """Find what finished hooks of this run left running; return the ones new since last time."""
        if not self.available:
            return []
        new: list[LeakedProcess] = []
        # Only hooks that had ended before the walk began: a process seen alive in the walk
        # outlived its hook. A hook ending during the walk (and the bridge call it waited for)
        # is judged by the next scan, when both are gone.
        with self._lock:
            ended = set(self._finished)
        with _lock:
            skip = set(_live_hooks)  # their subtrees belong to hooks still running
        for pid in _descendants(os.getpid(), skip):
            proc = _stat(pid)
            if proc is None or pid in self._seen:
                continue
            if proc.state == "Z":
                self._reap_if_ours(proc)
                continue
            marker = _marker(pid)
            with self._lock:
                if pid in self._seen:  # hooks ending at once scan at once: count it once
                    continue
                if marker is None:
                    hook_id = self._by_session.get(proc.session)
                elif marker.startswith(self.token + "."):
                    hook_id = marker
                else:
                    continue  # another run's, or not a hook's at all
                if hook_id is None or hook_id not in ended:
                    continue
                self._seen.add(pid)
                leak = LeakedProcess(
                    pid,
                    _command(pid),
                    self._runs[hook_id],
                    proc.session != self._session_of.get(hook_id),
                )
                self.found.append(leak)
                new.append(leak)
        return new

    def adopt_orphans(self) -> list[LeakedProcess]:
        """Claim what a hook left that names neither its hook nor its session, and return it.

        ``env -i setsid`` in a double-forked daemon clears the marker and leaves the hook's
        session; all that is left is that hooksim, the subreaper, inherited it. An orphan of
        ours with a cleared environment, started since this run began, is taken as left by an
        unknown hook, when this is the only run of the process still going (with others, the
        last one to end claims it).
        """
        if not self.available:
            return []
        me = os.getpid()
        with _lock:
            _watches.discard(self)
            if _watches:
                return []
            skip = set(_live_hooks)
        new: list[LeakedProcess] = []
        for pid in _descendants(me, skip):
            proc = _stat(pid)
            if (
                proc is None
                or proc.ppid != me
                or proc.state == "Z"
                or proc.started < self._began
                or pid in _hook_pids
                or pid in self._seen
                or not _cleared(_environ(pid))
            ):
                continue
            with _lock:
                if pid in _adopted:
                    continue
                _adopted.add(pid)
            with self._lock:
                self._seen.add(pid)
                leak = LeakedProcess(pid, _command(pid), None, True)
                self.found.append(leak)
            new.append(leak)
        return new

    def _reap_if_ours(self, proc: _Proc) -> None:
        """Collect a zombie hooksim inherited, if it came from a hook (never a hook itself)."""
        if proc.ppid != os.getpid():
            return
        with _lock:
            ours = (
                proc.pid in self._seen
                or proc.pid in _adopted
                or (proc.session in _hook_pids and proc.pid not in _hook_pids)
            )
            if ours and proc.pid not in _live_hooks:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(proc.pid, os.WNOHANG)

    def kill_all(self, timeout_s: float = 5.0) -> None:
        """Kill every leaked process and what it started, and reap them (the scenario has ended)."""
        with self._lock:
            for leak in self.found:  # one caught between fork and exec has run something since
                leak.command = _command(leak.pid, leak.command)
            roots = {leak.pid for leak in self.found}
        if not roots:
            return
        _kill(roots, timeout_s)


def _kill(roots: Iterable[int], timeout_s: float) -> None:
    """Kill ``roots`` and what each started, and reap each as it becomes ours."""
    victims: set[int] = set()
    for pid in roots:
        victims.add(pid)
        victims.update(_descendants(pid, set()))
    for pid in victims:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    # A killed process's children are re-parented to us as it dies; reap each as it becomes ours.
    deadline = time.monotonic() + timeout_s
    remaining = set(victims)
    while remaining and time.monotonic() < deadline:
        for pid in list(remaining):
            proc = _stat(pid)
            if proc is None:
                remaining.discard(pid)
            elif proc.ppid == os.getpid():
                with contextlib.suppress(ChildProcessError):
                    if os.waitpid(pid, os.WNOHANG)[0] == pid:
                        remaining.discard(pid)
            elif proc.state == "Z":
                continue  # its parent, also killed, has not been re-parented yet
        if remaining:
            time.sleep(0.005)


def kill_marked(marker: str) -> None:
    """Kill what a process run with ``MARKER=marker`` in its environment left running under
    this one (a daemon a shell call detached), and what it started; and reap them."""
    roots = [pid for pid in _descendants(os.getpid(), set(_live_hooks)) if _marker(pid) == marker]
    if not roots:
        return
    _kill(roots, 5.0)


def kill_everything(timeout_s: float = 5.0) -> int:
    """Kill every process under this one (the run is stopping), reap them, and return how many.

    Walks again until a walk finds nothing alive: a killed process's children are re-parented
    here (the subreaper) as it dies, and a hook started meanwhile is found by the next walk.
    """
    stopping.set()
    me = os.getpid()
    killed: set[int] = set()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        alive = []
        for pid in _descendants(me, set()):
            proc = _stat(pid)
            if proc is not None and proc.state != "Z" and pid not in killed:
                alive.append(pid)
        if not alive:
            break
        for pid in alive:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
            killed.add(pid)
        time.sleep(0.005)
    while time.monotonic() < deadline:  # reap what is ours, so nothing is left a zombie
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0 and not any(
                (p := _stat(pid)) is not None and p.ppid == me for pid in killed
            ):
                break
        except ChildProcessError:
            break
    return len(killed)
