"""What a run killed outright left behind, removed by the next run, by the run's own mark.

SIGINT, SIGTERM and SIGHUP stop a run cleanly (``interrupt``). SIGKILL (the OOM killer, a CI
job's hard timeout) cannot be caught: the hooks that were running, and their children, live on,
and the run's work folders stay. So each work folder carries a mark, ``hooksim.owner``: the pid
of the hooksim process that made it, that process's start time (``/proc/PID/stat``, so that a
reused pid is not taken for the owner) and its pid namespace (a run of another container
sharing the temporary folder is never taken for gone). A folder kept for the user
(``--keep-workdir``) carries no mark. ``sweep`` looks at the work folders of the temporary
folder: one whose owner is gone loses the processes that still name it (their ``HOOKSIM_LEDGER``
lies in it: every hook of the run has that variable), then the folder itself. A folder without
our mark, or not ours (another user's), is never touched: nothing is removed by its name alone.
Linux only (``/proc``); elsewhere there is nothing to sweep with and nothing happens.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import tempfile
from pathlib import Path

MARK = "hooksim.owner"
PREFIX = "hooksim-"
_PROC = Path("/proc")


def _started(pid: int) -> str | None:
    """The start time of ``pid`` (clock ticks since boot), None when it is not running."""
    try:
        raw = (_PROC / str(pid) / "stat").read_bytes()
    except OSError:
        return None
    fields = raw[raw.rindex(b")") + 2 :].split()
    return fields[19].decode() if len(fields) > 19 else None


def _namespace() -> str:
    """This process's pid namespace (its pids mean nothing in another one)."""
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return "-"


def mark(workdir: Path) -> None:
    """Say that this process owns ``workdir`` (see the module's docstring)."""
    started = _started(os.getpid())
    if started is not None:
        said = f"{os.getpid()} {started} {_namespace()}\n"
        (workdir / MARK).write_text(said, encoding="ascii")


def _owner_gone(workdir: Path) -> bool:
    """Whether ``workdir`` carries our mark and its owner is no longer running."""
    try:
        fd = os.open(workdir / MARK, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False  # no mark: not a folder this sweep may touch
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        said = f.read(128).decode("ascii", "replace").split()
    if len(said) != 3 or not said[0].isdecimal():
        return False
    if said[2] != _namespace():  # another pid namespace's run (a container sharing TMPDIR)
        return False
    return _started(int(said[0])) != said[1]


def _processes_in(workdir: Path) -> list[int]:
    """The processes (of this user) whose ``HOOKSIM_LEDGER`` lies in ``workdir``."""
    needle = f"HOOKSIM_LEDGER={workdir}{os.sep}".encode()
    found = []
    for entry in _PROC.iterdir():
        if not entry.name.isdecimal():
            continue
        with contextlib.suppress(OSError):
            if needle in (entry / "environ").read_bytes():
                found.append(int(entry.name))
    return found


def sweep(root: Path | None = None) -> tuple[int, int]:
    """Remove what killed runs left in ``root`` (default: the temporary folder): kill their
    processes, remove their work folders. Returns (folders, processes) removed."""
    if not _PROC.is_dir():
        return 0, 0
    root = Path(tempfile.gettempdir()) if root is None else root
    folders = processes = 0
    try:
        entries = list(os.scandir(root))
    except OSError:
        return 0, 0
    for entry in entries:
        if not entry.name.startswith(PREFIX) or not entry.is_dir(follow_symlinks=False):
            continue
        workdir = Path(entry.path)
        with contextlib.suppress(OSError):
            if entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
            if not _owner_gone(workdir):
                continue
            for pid in _processes_in(workdir):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
                    processes += 1
            shutil.rmtree(workdir, ignore_errors=True)
            folders += 1
    return folders, processes
