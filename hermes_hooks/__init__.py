"""Hermes Agent shell hooks for the mind, with opt-in time-gated compaction after Stop.

Public names load on first use: every hook run imports this package, and a name a hook does
not need (the config editor, the careful-file functions) must not cost it start-up time.

Careful files (:mod:`hermes_hooks.careful_files`), for any tool that rewrites a file in a
home it shares: ``replace_file`` (atomic, same directory, mode kept or 0600 whatever the umask,
symlinks replaced never followed, optional compare-and-swap), ``read_regular_file`` (no
symlink, never blocks on a FIFO), ``make_private_dirs`` (0700), ``remove_stale_temp_files``,
``open_lock_file``, and their errors ``UnsafeFileError`` and ``FileChangedError``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .bridge import Bridge, BridgeError
    from .careful_files import (
        FileChangedError,
        UnsafeFileError,
        make_private_dirs,
        open_lock_file,
        read_regular_file,
        remove_stale_temp_files,
        replace_file,
    )
    from .compact_on_stop import CompactOutcome, is_compact_enabled, maybe_compact_on_stop
    from .hooks import BINDINGS, Binding
    from .paths import compact_state_path, hermes_home

__all__ = [
    "BINDINGS",
    "Binding",
    "Bridge",
    "BridgeError",
    "CompactOutcome",
    "FileChangedError",
    "UnsafeFileError",
    "compact_state_path",
    "hermes_home",
    "is_compact_enabled",
    "make_private_dirs",
    "maybe_compact_on_stop",
    "open_lock_file",
    "read_regular_file",
    "remove_stale_temp_files",
    "replace_file",
]
__version__ = "0.1.0"

_HOME = {
    "Bridge": "bridge",
    "BridgeError": "bridge",
    "FileChangedError": "careful_files",
    "UnsafeFileError": "careful_files",
    "make_private_dirs": "careful_files",
    "open_lock_file": "careful_files",
    "read_regular_file": "careful_files",
    "remove_stale_temp_files": "careful_files",
    "replace_file": "careful_files",
    "CompactOutcome": "compact_on_stop",
    "is_compact_enabled": "compact_on_stop",
    "maybe_compact_on_stop": "compact_on_stop",
    "BINDINGS": "hooks",
    "Binding": "hooks",
    "compact_state_path": "paths",
    "hermes_home": "paths",
}


def __getattr__(name: str) -> object:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'hermes_hooks' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
