"""The result cache of ``hooksim run --cache DIR``: a run that passed is not run again while
nothing its verdict depends on has changed.

The key of a run is a SHA-256 over (docs/running.md lists it for users):

- hooksim itself: its version and every file of the installed ``hooksim`` and
  ``hermes_hooks`` packages (the host profiles, the replay, the hooks ``hermes-hooks install``
  writes), and the Python running it (``$HOOKSIM_PYTHON``);
- the run: its host, ``--tool``, and the scenario file's path and bytes;
- what the run reads from disk: the folders its ``files:`` entries take ``from:``, its plugin
  folders, ``--hooks-config``'s file, every file the scenario or that config names through
  ``$HOOKSIM_SCENARIO_DIR`` or by an absolute path, and beside each such ``.py`` file the other
  ``.py`` files of its folder (what a hook script imports);
- the ``PATH`` and ``PYTHONPATH`` the hooks inherit (which programs they find).

What a hook reads beyond these (a file it finds by itself, a program's version) is not in the
key: ``--no-cache`` runs everything. Only passes are saved; a failure, an error, a skipped run
and a run on a real host never are. An entry is one JSON file, written whole or not at all; an
entry that cannot be read is a miss.
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
from pathlib import Path
from typing import Any

from ..ci_formats import version
from .items import Item

KEY_FORMAT = "hooksim-cache-1"  # changed when what goes into a key changes
_LARGEST = 64 * 1024 * 1024  # a named file larger than this is keyed by its size and time
_NAMED = re.compile(
    r"""\$\{?HOOKSIM_SCENARIO_DIR\}?(/[^\s'"`;|&<>()]+)"""  # the scenario's folder
    r"""|(?<![\w.~$}/-])(/[\w.@+-][^\s'"`;|&<>():]*)"""  # an absolute path
)


class CacheError(Exception):
    """The cache folder cannot be used; ``str()`` is the line to print."""


class Cache:
    """Saved passes under a folder: ``DIR/ab/abcdef....json``, one report entry each."""

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
        """The entry saved under ``key``; None when there is none, or it cannot be read."""
        try:
            entry = json.loads(self._file(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) else None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        """Save ``entry``; a cache that cannot be written only means the next run runs."""
        target = self._file(key)
        temporary = target.with_name(f".{key}.{os.getpid()}")
        try:
            target.parent.mkdir(exist_ok=True)
            temporary.write_text(
                json.dumps(entry, ensure_ascii=False), encoding="utf-8", errors="backslashreplace"
            )
            os.replace(temporary, target)
        except OSError:
            temporary.unlink(missing_ok=True)


def key(item: Item, *, forced_tool: str | None, hooks_config: str | None) -> str:
    """The key of ``item``'s run (see the module's docstring)."""
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
    part = scenario.on(item.tool) if item.tool else scenario
    folders = [entry.source for entry in scenario.files.files if entry.source is not None]
    for folder in [*folders, *part.plugins]:
        add("tree", folder, _tree(folder))
    for named in _named_files(scenario.path.resolve().parent, texts):
        add("file", named, _file_digest(named))
    add(os.environ.get("PATH", ""), os.environ.get("PYTHONPATH", ""))
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


def _tree(folder: Path) -> str:
    """Each entry under ``folder`` (links not followed): its path, kind, mode and content."""
    lines = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files) + dirs:
            path = Path(root, name)
            lines.append(f"{path.relative_to(folder)} {_file_digest(path)}")
    return "\n".join(lines)


def _file_digest(path: Path) -> str:
    """A file's kind, mode and content digest; a link's target; a large file's size and time."""
    try:
        info = path.lstat()
    except OSError:
        return "missing"
    if stat.S_ISLNK(info.st_mode):
        return f"link {os.readlink(path)}"
    if not stat.S_ISREG(info.st_mode):
        return f"kind {stat.S_IFMT(info.st_mode)}"
    if info.st_size > _LARGEST:
        return f"large {info.st_size} {info.st_mtime_ns}"
    return f"{info.st_mode:o} {_content(path, info.st_size, info.st_mtime_ns)}"


@functools.lru_cache(maxsize=4096)
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
                if path.suffix == ".py":
                    named.update(p for p in path.parent.glob("*.py") if p.is_file())
    return sorted(named)
