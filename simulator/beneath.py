"""Files below a folder of the run, reached without ever following a link.

Everything a scenario names (``files:``, ``from:``, ``expect.files``, a file tool's path) is
read or written here, relative to a handle on the run's project (or HOME) folder: each step of
the path is opened with ``O_NOFOLLOW``, so the check that a path stays inside and the read or
write it guards are one operation. A link, or something that is neither a regular file nor a
folder, is never passed through: ``Refused`` names it. Links themselves are copied as links.

Only regular files are read, and only up to a size (``MAX_READ``): a FIFO, a device or a socket
is named for what it is, never opened for reading.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import NoReturn

MAX_READ = 64 * 1024 * 1024  # the most of one file expect.files reads

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_WRITE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC


class Refused(Exception):
    """A path that leads through a link or something other than a folder: nothing was done.
    ``link``: the step refused is a symbolic link."""

    def __init__(self, message: str, link: bool = False) -> None:
        super().__init__(message)
        self.link = link


def what_is(mode: int) -> str:
    """A file's kind in words, for messages."""
    kinds = {
        stat.S_IFLNK: "a symbolic link",
        stat.S_IFIFO: "a named pipe (FIFO)",
        stat.S_IFCHR: "a character device",
        stat.S_IFBLK: "a block device",
        stat.S_IFSOCK: "a socket",
        stat.S_IFDIR: "a folder",
        stat.S_IFREG: "a file",
    }
    return kinds.get(stat.S_IFMT(mode), "not a regular file")


def _parts(rel: PurePosixPath | str) -> list[str]:
    parts = [p for p in PurePosixPath(rel).parts if p not in ("", ".")]
    if not parts or any(p == ".." or "/" in p for p in parts) or PurePosixPath(rel).is_absolute():
        raise Refused(f"{rel} is not a path inside the folder")
    return parts


@contextlib.contextmanager
def _folder(root: Path, parts: Sequence[str], create: bool) -> Iterator[int]:
    """A handle on the folder ``root/parts``, each step opened without following a link
    (made when ``create``)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for i, part in enumerate(parts):
            try:
                step = os.open(part, _DIR, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o777, dir_fd=fd)
                step = _open_folder(fd, parts, i)
            except (NotADirectoryError, OSError) as e:
                _refuse_step(fd, parts, i, e)
            os.close(fd)
            fd = step
        yield fd
    finally:
        os.close(fd)


def _open_folder(fd: int, parts: Sequence[str], i: int) -> int:
    try:
        return os.open(parts[i], _DIR, dir_fd=fd)
    except OSError as e:
        _refuse_step(fd, parts, i, e)


def _one_line(text: str) -> str:
    """A name as it is when every character prints, else quoted as ``repr`` quotes it."""
    return text if text.isprintable() else repr(text)


def _refuse_step(fd: int, parts: Sequence[str], i: int, error: OSError) -> NoReturn:
    """Why step ``i`` of a path is not a folder to go through."""
    shown = "/".join(parts[: i + 1])
    try:
        mode = os.stat(parts[i], dir_fd=fd, follow_symlinks=False).st_mode
    except OSError:
        raise error from None
    if stat.S_ISLNK(mode):
        target = os.readlink(parts[i], dir_fd=fd)
        raise Refused(
            f"{_one_line(shown)} is a symbolic link (to {_one_line(target)}); hooksim does not"
            " follow it",
            link=True,
        )
    raise Refused(f"{shown} is {what_is(mode)}, not a folder")


def write(root: Path, rel: PurePosixPath | str, data: bytes) -> None:
    """Write ``data`` to ``root/rel``, making its folders; never through a link."""
    *folders, name = _parts(rel)
    with _folder(root, folders, create=True) as fd:
        try:
            out = os.open(name, _WRITE, 0o666, dir_fd=fd)
        except OSError as e:
            _refuse_step(fd, [*folders, name], len(folders), e)
        with os.fdopen(out, "wb") as f:
            f.write(data)


def chmod(root: Path, rel: PurePosixPath | str, mode: int) -> None:
    """Set the permissions of the regular file ``root/rel``; never through a link."""
    *folders, name = _parts(rel)
    with _folder(root, folders, create=False) as fd:
        try:
            opened = os.open(name, _READ, dir_fd=fd)
        except OSError as e:
            _refuse_step(fd, [*folders, name], len(folders), e)
        try:
            os.fchmod(opened, mode)
        finally:
            os.close(opened)


def remove(root: Path, rel: PurePosixPath | str) -> None:
    """Delete ``root/rel`` (a file, a link itself, or a folder and all it holds), if it is
    there; never through a link."""
    *folders, name = _parts(rel)
    try:
        with _folder(root, folders, create=False) as fd:
            try:
                mode = os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode
            except FileNotFoundError:
                return
            if stat.S_ISDIR(mode):
                _remove_tree(fd, name)
            else:
                os.unlink(name, dir_fd=fd)
    except (FileNotFoundError, NotADirectoryError):
        return


def _remove_tree(parent: int, name: str) -> None:
    fd = os.open(name, _DIR, dir_fd=parent)
    try:
        for entry in os.listdir(fd):
            mode = os.stat(entry, dir_fd=fd, follow_symlinks=False).st_mode
            if stat.S_ISDIR(mode):
                _remove_tree(fd, entry)
            else:
                os.unlink(entry, dir_fd=fd)
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=parent)


def unsafe_entries(source: Path) -> list[tuple[Path, str]]:
    """What in ``source`` (a file, or a folder and everything in it) cannot be copied: anything
    but regular files, folders and links, with its kind in words. Links are not followed."""
    found: list[tuple[Path, str]] = []
    mode = os.lstat(source).st_mode
    if stat.S_ISDIR(mode):
        for folder, dirs, files in os.walk(source):
            for name in [*dirs, *files]:
                entry = Path(folder, name)
                kind = os.lstat(entry).st_mode
                if not (stat.S_ISREG(kind) or stat.S_ISDIR(kind) or stat.S_ISLNK(kind)):
                    found.append((entry, what_is(kind)))
    elif not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        found.append((source, what_is(mode)))
    return found


def copy(root: Path, rel: PurePosixPath | str, source: Path) -> None:
    """Copy ``source`` (a file, a link as a link, or a folder with all it holds) to
    ``root/rel``, merging into a folder already there; never writing through a link, never
    reading anything but regular files."""
    *folders, name = _parts(rel)
    with _folder(root, folders, create=True) as fd:
        _copy_entry(source, fd, name, [*folders, name])


def _copy_entry(source: Path, parent: int, name: str, shown: list[str]) -> None:
    mode = os.lstat(source).st_mode
    if stat.S_ISLNK(mode):
        with contextlib.suppress(FileNotFoundError):
            existing = os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode
            if stat.S_ISDIR(existing):
                _remove_tree(parent, name)
            else:
                os.unlink(name, dir_fd=parent)
        os.symlink(os.readlink(source), name, dir_fd=parent)
    elif stat.S_ISDIR(mode):
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o777, dir_fd=parent)
        fd = _open_folder(parent, shown, len(shown) - 1) if shown else parent
        try:
            for entry in sorted(os.listdir(source)):
                _copy_entry(source / entry, fd, entry, [*shown, entry])
        finally:
            os.close(fd)
    elif stat.S_ISREG(mode):
        data = _read_regular(source)
        try:
            out = os.open(name, _WRITE, stat.S_IMODE(mode), dir_fd=parent)
        except OSError as e:
            _refuse_step(parent, shown, len(shown) - 1, e)
        with os.fdopen(out, "wb") as f:
            f.write(data)
    else:
        raise Refused(f"{source} is {what_is(mode)}, not a regular file")


def _read_regular(path: Path) -> bytes:
    fd = os.open(path, _READ)
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise Refused(f"{path} is {what_is(mode)}, not a regular file")
        return f.read()


@dataclass(frozen=True)
class Found:
    """What ``root/rel`` is: ``kind`` is "file" (``data`` its bytes), "folder", "absent", or
    "other" (``said``: a link, a FIFO, a device, or a file too large, in words)."""

    kind: str
    data: bytes = b""
    said: str = ""


def look(root: Path, rel: PurePosixPath | str, limit: int = MAX_READ) -> Found:
    """Read ``root/rel`` as it is now, following no link and reading only a regular file of at
    most ``limit`` bytes."""
    *folders, name = _parts(rel)
    try:
        with _folder(root, folders, create=False) as fd:
            mode = os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode
            if stat.S_ISLNK(mode):
                target = os.readlink(name, dir_fd=fd)
                return Found("other", said=f"a symbolic link to {target} (not followed)")
            if stat.S_ISDIR(mode):
                return Found("folder")
            if not stat.S_ISREG(mode):
                return Found("other", said=f"{what_is(mode)}, not a regular file (not read)")
            file = os.open(name, _READ, dir_fd=fd)
    except (FileNotFoundError, NotADirectoryError):
        return Found("absent")
    except Refused as e:
        if not e.link:
            return Found("absent")  # a step of the path is a file: nothing is there
        return Found("other", said=f"not read: {e}")
    except OSError as e:  # changed while looked at (a link swapped in), or unreadable
        return Found("other", said=f"cannot be read: {e.strerror}")
    with os.fdopen(file, "rb") as f:
        size = os.fstat(file).st_size
        if size > limit:
            return Found("other", said=f"a file of {size} bytes, over {limit} (not read)")
        data = f.read(limit + 1)
    if len(data) > limit:
        return Found("other", said=f"a file of over {limit} bytes (not read)")
    return Found("file", data)


MAX_CONFIG = 16 * 1024 * 1024  # the largest hooks config file hooksim reads


def check_regular(path: Path, limit: int = MAX_CONFIG) -> None:
    """Refuse a file named on the command line that is not a regular file (a FIFO would hang
    the read, a device never end it) or is larger than ``limit``; a link to a regular file is
    fine. The check opens the file without blocking and asks the open file what it is."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except IsADirectoryError:
        raise Refused(f"{path} is a folder, not a regular file") from None
    try:
        info = os.fstat(fd)
    finally:
        os.close(fd)
    if not stat.S_ISREG(info.st_mode):
        raise Refused(f"{path} is {what_is(info.st_mode)}, not a regular file")
    if info.st_size > limit:
        raise Refused(f"{path} is {info.st_size} bytes, more than a config file ({limit})")


def read_file(path: Path, limit: int = MAX_CONFIG, *, follow: bool = True) -> bytes:
    """The bytes of a file named on the command line (or kept by hooksim: a cache entry, a
    durations file), within the same bounds as ``check_regular``: a regular file of at most
    ``limit`` bytes, never waited on (a FIFO) nor read without end (a device). ``follow``:
    whether a link at ``path`` itself is followed. Refused otherwise, in one line."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:
        raise Refused(f"{path} is a folder, not a regular file") from None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise Refused(f"{path} is a symbolic link (not followed)", link=True) from None
        raise
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refused(f"{path} is {what_is(info.st_mode)}, not a regular file; not read")
        chunks, size = [], 0
        while info.st_size <= limit and size <= limit:  # in chunks: no buffer of ``limit``
            chunk = f.read(min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    if info.st_size > limit or size > limit:
        raise Refused(f"{path} is more than {limit} bytes; not read")
    return b"".join(chunks)


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number JSON allows")


def load_json(path: Path, limit: int = MAX_CONFIG, *, follow: bool = True) -> object:
    """A JSON file, bounded as ``read_file``: Refused for anything else, for nesting past what
    Python can parse, and for ``NaN`` or ``Infinity`` (which Python's json reads, and which
    no hooksim file holds)."""
    data = read_file(path, limit, follow=follow)
    try:
        return json.loads(data, parse_constant=_no_constant)
    except (RecursionError, MemoryError):  # a deep nesting: the stack, or the memory it takes
        raise Refused(f"{path} is nested too deeply to read") from None
    except ValueError as e:  # UnicodeDecodeError is one
        raise Refused(f"{path} is not JSON ({' '.join(str(e).split())[:200]})") from None


def write_file(path: str | Path, data: bytes) -> None:
    """Write a report whole or not at all: a fresh temporary file beside it (created
    exclusively), renamed over it, so a run killed while writing leaves the old file or none,
    never a truncated one. A link is written through (its target replaced, the link kept).
    Something that is not a regular file (``/dev/stdout``, a pipe) is written to as it is,
    never replaced."""
    stream = _open_stream(str(path))
    if stream is not None:  # this process's stdout or stderr, or one of its descriptors
        _write_all(stream, data)
        return
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            os.set_blocking(fd, True)  # opened without waiting; written to the end
            _write_all(fd, data)
        finally:
            os.close(fd)
        return
    target = Path(os.path.realpath(path))
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


_STREAMS = {"/dev/stdout": 1, "/dev/stderr": 2}


def _open_stream(path: str) -> int | None:
    """The descriptor ``path`` names in this process (``/dev/stdout``, ``/dev/fd/N``,
    ``/proc/self/fd/N``): written through as it is, at its own offset (a ``>>`` file is
    appended to), never replaced."""
    if path in _STREAMS:
        return _STREAMS[path]
    for prefix in ("/dev/fd/", "/proc/self/fd/"):
        if path.startswith(prefix) and path[len(prefix) :].isdecimal():
            return int(path[len(prefix) :])
    return None


def _write_all(fd: int, data: bytes) -> None:
    import sys

    for stream in (sys.stdout, sys.stderr):  # what was printed comes first
        with contextlib.suppress(Exception):
            stream.flush()
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
