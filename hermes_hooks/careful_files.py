"""Files opened the careful way: every file and directory ``hermes_hooks`` reads or writes.

The Hermes home can be shared (a container volume, a home another user can write to), so a
path we use is never trusted to be what we expect:

- **No symlink is followed** at the last component: a read refuses one, a write replaces the
  link itself (``rename``), a temp file is created ``O_EXCL | O_NOFOLLOW``. A caller that
  expects a symlink (a ``config.yaml`` kept in a dotfiles repository) resolves it first, on
  purpose, and passes the target.
- **Regular files only**: a FIFO, socket, device or directory at a path we use is an
  :class:`UnsafeFileError` (one line for the user), never a hang: opens are ``O_NONBLOCK`` and
  checked with ``fstat`` before any read.
- **Private modes from the moment of creation, whatever the umask**: files 0600 (or the mode
  of the file they replace), directories 0700, set with ``fchmod``/``chmod`` after creation
  because a umask can only take bits away.
- **Atomic replacement**: a temp file in the same directory, written, synced, renamed; a kill
  at any instant leaves the old or the new file. Temp files are named
  ``.<name>.<pid>.<random>.tmp``; one left by a killed writer is removed by a later write once
  its process is gone *and* it is older than a minute, a rule that cannot remove a live
  writer's file (a writer's process is alive while its file is in use, and a write takes
  milliseconds, not a minute).

Stdlib only, and cheap to import: the compaction gate uses it on the hook's per-turn path.
"""

from __future__ import annotations

import errno
import os
import stat
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = [
    "FileChangedError",
    "UnsafeFileError",
    "append_to_file",
    "make_private_dirs",
    "open_lock_file",
    "read_file_tail",
    "read_regular_file",
    "remove_stale_temp_files",
    "replace_file",
]

PRIVATE_FILE_MODE = 0o600
PRIVATE_DIR_MODE = 0o700
# A temp file younger than this is never removed, even when its pid looks dead: a writer in
# another pid namespace (a container sharing the home) is alive where we cannot see it.
STALE_TEMP_AGE_S = 60.0
_TEMP_SUFFIX = ".tmp"
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class UnsafeFileError(OSError):
    """A path we will not use: not a regular file, or a symlink where none is expected.

    ``str()`` is one line naming the path and what is there.
    """

    def __init__(self, path: str, what: str) -> None:
        super().__init__(errno.EINVAL, f"{path} is {what}, not a regular file; left alone")
        self.filename = path

    def __str__(self) -> str:
        return str(self.strerror)


class FileChangedError(OSError):
    """The file changed between our read and our write (another writer); nothing was written."""

    def __init__(self, path: str) -> None:
        super().__init__(errno.EAGAIN, f"{path} changed while we were editing it")
        self.filename = path

    def __str__(self) -> str:
        return str(self.strerror)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a symlink"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "something else"


def _open_regular(path: str, flags: int, mode: int = PRIVATE_FILE_MODE) -> int:
    """``os.open`` without following a symlink or blocking on a FIFO; fd of a regular file."""
    try:
        fd = os.open(path, flags | _O_NOFOLLOW | os.O_NONBLOCK | _O_CLOEXEC, mode)
    except OSError as e:
        if e.errno == errno.ELOOP:  # O_NOFOLLOW met a symlink
            raise UnsafeFileError(path, "a symlink") from None
        if e.errno == errno.ENXIO:  # a FIFO opened for writing with no reader
            raise UnsafeFileError(path, "a FIFO") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeFileError(path, _kind(st.st_mode))
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular_file(path: str, limit: int = -1) -> bytes:
    """The bytes of a regular file (at most ``limit`` when >= 0).

    Raises FileNotFoundError when nothing is there, UnsafeFileError for a symlink, FIFO,
    socket, device or directory (without blocking), OSError otherwise.
    """
    fd = _open_regular(path, os.O_RDONLY)
    try:
        chunks = []
        remaining = limit
        while remaining != 0:
            chunk = os.read(fd, 1 << 20 if remaining < 0 else min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            if remaining > 0:
                remaining -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_file_tail(path: str, size: int) -> bytes:
    """The last ``size`` bytes of a regular file (all of it when shorter); as ``read_regular_file``."""
    fd = _open_regular(path, os.O_RDONLY)
    try:
        length = os.fstat(fd).st_size
        os.lseek(fd, max(length - size, 0), os.SEEK_SET)
        return os.read(fd, size)
    finally:
        os.close(fd)


def make_private_dirs(path: str) -> None:
    """Create ``path`` and any missing parents, each 0700 whatever the umask.

    Existing directories keep their mode. Raises UnsafeFileError when a component that exists
    is not a directory (a symlink to a directory is accepted: that is how homes are moved).
    """
    missing = []
    current = os.path.abspath(path)
    while not os.path.isdir(current):
        if os.path.lexists(current):
            raise UnsafeFileError(current, _kind(os.lstat(current).st_mode))
        missing.append(current)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    for directory in reversed(missing):
        try:
            os.mkdir(directory, PRIVATE_DIR_MODE)
        except FileExistsError:
            if not os.path.isdir(directory):  # another process won the race with a non-dir
                raise UnsafeFileError(directory, _kind(os.lstat(directory).st_mode)) from None
            continue
        # A umask can only take bits away; this also undoes an unusual umask such as 0o500.
        os.chmod(directory, PRIVATE_DIR_MODE)


def open_lock_file(path: str) -> int:
    """Open (creating 0600) the lock file at ``path``; return its fd for ``fcntl.flock``.

    Never follows a symlink nor opens a FIFO: both raise UnsafeFileError.
    """
    try:
        fd = _open_regular(path, os.O_RDWR | os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return _open_regular(path, os.O_RDWR)
    os.fchmod(fd, PRIVATE_FILE_MODE)
    return fd


def append_to_file(path: str, data: bytes) -> int:
    """Append ``data`` to the file at ``path`` (created 0600) in one write; return its new size.

    Never follows a symlink nor opens a FIFO: both raise UnsafeFileError. One ``write`` on an
    ``O_APPEND`` descriptor: lines appended by processes at the same time do not interleave.
    """
    try:
        fd = _open_regular(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL)
        os.fchmod(fd, PRIVATE_FILE_MODE)
    except FileExistsError:
        fd = _open_regular(path, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, data)
        return os.fstat(fd).st_size
    finally:
        os.close(fd)


def _temp_name(path: str) -> str:
    directory, name = os.path.split(path)
    return os.path.join(directory, f".{name}.{os.getpid()}.{os.urandom(4).hex()}{_TEMP_SUFFIX}")


def _stale_temps(path: str, now: float) -> Iterator[str]:
    directory, name = os.path.split(path)
    prefix = f".{name}."
    try:
        entries = os.scandir(directory or ".")
    except OSError:
        return
    with entries:
        for entry in entries:
            if not (entry.name.startswith(prefix) and entry.name.endswith(_TEMP_SUFFIX)):
                continue
            parts = entry.name[len(prefix) : -len(_TEMP_SUFFIX)].split(".")
            if len(parts) != 2 or not parts[0].isdigit():
                continue
            pid = int(parts[0])
            if pid == os.getpid() or _process_exists(pid):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if now - st.st_mtime >= STALE_TEMP_AGE_S:
                yield entry.path


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: alive, someone else's
        return True
    return True


def remove_stale_temp_files(path: str) -> list[str]:
    """Remove temp files that killed writers of ``path`` left behind; return their paths.

    Only ``.<name>.<pid>.<random>.tmp`` files whose process is gone and that are older than
    STALE_TEMP_AGE_S are removed, so a live writer's temp file is never touched.
    """
    removed = []
    for stale in _stale_temps(path, time.time()):
        try:
            os.unlink(stale)
        except OSError:
            continue
        removed.append(stale)
    return removed


def replace_file(
    path: str, data: bytes, *, mode: int | None = None, expected: bytes | None = None
) -> None:
    """Atomically make ``path`` a regular file holding ``data``.

    The new file has ``mode`` when given, else the mode of the regular file it replaces, else
    0600; it has that mode from its creation on, whatever the umask. A symlink at ``path`` is
    replaced, never followed; a FIFO, socket, device or directory there raises UnsafeFileError
    and nothing is written. With ``expected``, the current content must still be those bytes
    (``b""`` also matches a missing file) or FileChangedError is raised and nothing written.
    Stale temp files of killed writers are cleaned up on the way.
    """
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
        raise UnsafeFileError(path, _kind(st.st_mode))
    if mode is None:
        mode = stat.S_IMODE(st.st_mode) if st is not None and stat.S_ISREG(st.st_mode) else None
    final_mode = PRIVATE_FILE_MODE if mode is None else mode
    remove_stale_temp_files(path)
    tmp = _temp_name(path)
    fd = _open_regular(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fchmod(fd, final_mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        if expected is not None and _current(path) != expected:
            raise FileChangedError(path)
        os.replace(tmp, path)
    except BaseException:
        _unlink_if_there(tmp)
        raise


def _unlink_if_there(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:  # gone already, or never made: nothing to clean
        return


def _current(path: str) -> bytes:
    try:
        return read_regular_file(path)
    except FileNotFoundError:
        return b""
