"""The result cache of ``hooksim run --cache DIR``: a run that passed is not run again while
nothing its verdict depends on has changed.

A saved pass is found by a key, a SHA-256 over (docs/running.md lists it for users):

- hooksim itself: its version and every file of the installed ``hooksim`` and
  ``hermes_hooks`` packages (the host profiles, the replay, the hooks ``hermes-hooks install``
  writes), and the Python running it (``$HOOKSIM_PYTHON``);
- the run: its host, ``--tool``, and the scenario file's path and bytes;
- every entry of the scenario's folder, at any depth (``.git`` and ``__pycache__`` aside):
  whatever a hook reaches there, however its command names it (``"$HOOKSIM_SCENARIO_DIR"/x``,
  after a ``cd``, from a script that sources or imports another);
- the files and folders its ``files:`` take ``from:`` and its plugin folders, ``--hooks-config``'s
  file, and every file the scenario or that config names by an absolute path;
- the ``PATH`` and ``PYTHONPATH`` the hooks inherit, and the variables ``--cache-env`` names;

and is then checked against what the run's hook processes actually read: Python hooks record
every file they open or import (an audit hook in the replay's ``sitecustomize``), Node hooks
every file they read or ``require`` (a preload), outside the interpreters' own libraries and the
run's folder. The saved pass holds those files' digests, and is used only while each is the
same. A run whose hooks read something that is not a regular file (a device, ``/proc``), or
whose scenario keeps a hook from recording its reads, is not saved, said in one line.

Only passes are saved; a failure, an error, a skipped run and a run on a real host never are.
An entry is trusted input: it is read as a regular file of bounded size without following a
link, must carry its own checksum and the key it was saved under, and is written to a fresh
temporary name created exclusively, then renamed; anything else is a miss, never a traceback.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import re
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any

from .. import beneath
from ..ci_formats import version
from .items import Item

KEY_FORMAT = "hooksim-cache-2"  # changed when what goes into a key changes
_LARGEST = 64 * 1024 * 1024  # a named file larger than this is keyed by its size and time
_NAMED = re.compile(
    r"""\$\{?HOOKSIM_SCENARIO_DIR\}?(/[^\s'"`;|&<>()]+)"""  # the scenario's folder
    r"""|(?<![\w.~$}/-])(/[\w.@+-][^\s'"`;|&<>():]*)"""  # an absolute path
)


class CacheError(Exception):
    """The cache folder cannot be used; ``str()`` is the line to print."""


class NotCached(Exception):
    """A run that cannot be saved, or keyed; ``str()`` says why, in one line."""


ENTRY_FORMAT = "hooksim-cache-entry-2"
MAX_ENTRY = 64 * 1024 * 1024  # a saved entry holds capped texts: far below this
MAX_TREE = 20_000  # entries of a scenario's folder keyed one by one; more makes it uncacheable
_SKIPPED = frozenset({".git", "__pycache__"})
# Devices whose every read gives the same bytes: reading them keeps a run cacheable.
CONSTANT_DEVICES = frozenset({"/dev/null", "/dev/zero"})


class Cache:
    """Saved passes under a folder: ``DIR/ab/abcdef....json``, one report entry each, with the
    key it was saved under, the digests of the files its hooks read, and a checksum."""

    def __init__(self, folder: Path) -> None:
        if folder.exists() and not folder.is_dir():
            raise CacheError(f"--cache: {folder} is not a folder")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise CacheError(f"--cache: cannot create {folder} ({e.strerror})") from None
        self.folder = folder

    def _file(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The entry saved under ``key`` while every file its hooks read is unchanged; None
        for no entry, or one that is not whole and ours (see the module's docstring)."""
        try:
            data = beneath.read_file(self._file(key), MAX_ENTRY, follow=False)
            saved = json.loads(data)
        except (OSError, beneath.Refused, ValueError, RecursionError):
            return None
        if not isinstance(saved, dict) or saved.get("format") != ENTRY_FORMAT:
            return None
        entry, reads = saved.get("entry"), saved.get("reads")
        if saved.get("key") != key or not isinstance(entry, dict) or not isinstance(reads, dict):
            return None
        if saved.get("sha256") != checksum(key, entry, reads):
            return None
        try:
            if any(_read_digest(Path(str(path))) != digest for path, digest in reads.items()):
                return None
        except ValueError:  # a path no file system has (a NUL in it): not an entry of ours
            return None
        return entry

    def put(self, key: str, entry: dict[str, Any], reads: list[str], started_ns: int) -> None:
        """Save ``entry`` with the digests of ``reads``; NotCached when one of them is not a
        regular file, or changed since the run started (``started_ns``: a hook that reads a file and
        writes it: its next run reads something else). A cache that cannot be written only
        means the next run runs."""
        digests = {}
        for path in reads:
            if path in CONSTANT_DEVICES:  # what they give never changes
                continue
            try:
                info = os.stat(path)
            except OSError:
                raise NotCached(f"a hook read {path}, which is gone since") from None
            if not stat.S_ISREG(info.st_mode):
                what = beneath.what_is(info.st_mode)
                raise NotCached(f"a hook read {path}, {what}, not a regular file")
            if info.st_mtime_ns >= started_ns:
                raise NotCached(f"a hook read {path}, which changed during the run")
            digests[path] = _read_digest(Path(path))
        saved = {
            "format": ENTRY_FORMAT,
            "key": key,
            "reads": digests,
            "entry": entry,
            "sha256": checksum(key, entry, digests),
        }
        data = json.dumps(saved, ensure_ascii=False).encode("utf-8", "backslashreplace")
        target = self._file(key)
        try:
            target.parent.mkdir(exist_ok=True)
            fd, temporary = tempfile.mkstemp(prefix=f".{key}.", dir=target.parent)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(temporary, target)
        except OSError:
            Path(temporary).unlink(missing_ok=True)


def checksum(key: str, entry: dict[str, Any], reads: dict[str, Any]) -> str:
    canonical = json.dumps([key, entry, reads], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8", "backslashreplace")).hexdigest()


def key(
    item: Item,
    *,
    forced_tool: str | None,
    hooks_config: str | None,
    env_names: tuple[str, ...] = (),
    outputs: frozenset[Path] = frozenset(),
) -> str:
    """The key of ``item``'s run (see the module's docstring); NotCached when the scenario's
    folder is too large to key file by file."""
    assert item.scenario is not None
    scenario = item.scenario
    digest = hashlib.sha256()

    def add(*parts: object) -> None:
        for part in parts:
            data = part if isinstance(part, bytes) else str(part).encode("utf-8", "replace")
            digest.update(len(data).to_bytes(8, "big") + data)

    add(KEY_FORMAT, _own_code(), sys.executable, sys.version)
    add(item.tool, forced_tool, scenario.path.resolve())
    texts = [_read(scenario.path)]
    add(texts[0])
    if hooks_config:
        texts.append(_read(Path(hooks_config)))
        add("config", Path(hooks_config).resolve(), texts[-1])
    add("folder", _tree(scenario.path.resolve().parent, _SKIPPED, outputs))
    part = scenario.on(item.tool) if item.tool else scenario
    sources = [entry.source for entry in scenario.files.files if entry.source is not None]
    for source in [*sources, *part.plugins]:
        add("source", source, _tree(source) if source.is_dir() else _file_digest(source))
    for named in _named_files(scenario.path.resolve().parent, texts):
        add("file", named, _file_digest(named))
    add(os.environ.get("PATH", ""), os.environ.get("PYTHONPATH", ""))
    for name in sorted(set(env_names)):
        add("env", name, os.environ.get(name, "\0unset"))
    return digest.hexdigest()


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as e:
        return f"unreadable: {e.strerror}".encode()


@functools.cache
def _own_code() -> str:
    """A digest of every file of the two installed packages (once per process)."""
    # Found, not imported: the judge runs the hook package only in hook processes.
    spec = importlib.util.find_spec("hermes_hooks")
    packages = [Path(__file__).resolve().parents[1]]
    if spec is not None and spec.origin is not None:
        packages.append(Path(spec.origin).resolve().parent)
    digest = hashlib.sha256(version().encode())
    for package in packages:
        digest.update(_tree(package).encode())
    return digest.hexdigest()


def _tree(
    folder: Path,
    skipped: frozenset[str] = frozenset({"__pycache__"}),
    outputs: frozenset[Path] | None = None,
) -> str:
    """Each entry under ``folder`` (links not followed): its path, kind, mode and content; not
    the folders named ``skipped``. For a scenario's folder (``outputs``, resolved: what this
    hooksim run writes itself, its cache folder and reports, left out), NotCached past
    ``MAX_TREE`` entries. Walked for each run (digests are remembered by size and time)."""
    lines = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(
            d for d in dirs if d not in skipped and Path(root, d) not in (outputs or ())
        )
        for name in sorted(files) + dirs:
            path = Path(root, name)
            if outputs is not None and path in outputs:
                continue
            lines.append(f"{path.relative_to(folder)} {_file_digest(path)}")
            if outputs is not None and len(lines) > MAX_TREE:
                raise NotCached(
                    f"{folder} holds more than {MAX_TREE} files; a scenario there is not cached"
                )
    return "\n".join(lines)


def _read_digest(path: Path) -> str:
    """What a hook read at ``path``: the file a link leads to, as ``_file_digest`` gives it."""
    return _file_digest(Path(os.path.realpath(path)))


def _file_digest(path: Path) -> str:
    """A file's kind, mode and content digest; a link's target and what it leads to; a large
    file's size and time."""
    try:
        info = path.lstat()
    except OSError:
        return "missing"
    if stat.S_ISLNK(info.st_mode):
        target = Path(os.path.realpath(path))
        led = _file_digest(target) if target != path else "loop"
        return f"link {os.readlink(path)} {led}"
    if not stat.S_ISREG(info.st_mode):
        return f"kind {stat.S_IFMT(info.st_mode)}"
    if info.st_size > _LARGEST:
        return f"large {info.st_size} {info.st_mtime_ns}"
    return f"{info.st_mode:o} {_content(path, info.st_size, info.st_mtime_ns)}"


@functools.lru_cache(maxsize=32768)
def _content(path: Path, size: int, mtime_ns: int) -> str:
    """The digest of a file's bytes, remembered for the same size and time in this process."""
    del size, mtime_ns  # part of the cache's key only
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as e:
        return f"unreadable {e.strerror}"


def _named_files(scenario_dir: Path, texts: list[bytes]) -> list[Path]:
    """Regular files the texts name (see the module's docstring), sorted, each once."""
    named: set[Path] = set()
    for text in texts:
        for found in _NAMED.finditer(text.decode("utf-8", "replace")):
            relative, absolute = found.groups()
            path = scenario_dir / relative.lstrip("/") if relative else Path(absolute)
            if path.is_file():
                named.add(path)
    return sorted(named)
