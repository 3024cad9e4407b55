"""Where Hermes keeps its files, and where we keep ours inside it."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

STATE_FILENAME = ".hive-mind-last-compact"


def hermes_home(env: Mapping[str, str] | None = None) -> Path:
    """``$HERMES_HOME`` when set (a Hermes profile sets it), else ``~/.hermes``.

    Hermes resolves its home the same way (``hermes_constants.get_hermes_home``).
    """
    env = os.environ if env is None else env
    explicit = env.get("HERMES_HOME")
    if explicit:
        return Path(explicit).expanduser()
    return Path(env.get("HOME") or Path.home()) / ".hermes"


def compact_state_path(home: str | os.PathLike[str] | None = None) -> Path:
    """The file that remembers the last compaction: ``<hermes home>/.hive-mind-last-compact``."""
    return (hermes_home() if home is None else Path(home)) / STATE_FILENAME
