"""Where Hermes keeps its files, and where we keep ours inside it.

Paths are plain strings (``os.path``): this module is on the hook's per-turn import path, and
``pathlib`` alone would add about a fifth to the hook's start-up time.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

STATE_FILENAME = ".hive-mind-last-compact"


def hermes_home(env: Mapping[str, str] | None = None) -> str:
    """``$HERMES_HOME`` when set (a Hermes profile sets it), else ``~/.hermes``.

    Hermes resolves its home the same way (``hermes_constants.get_hermes_home``).
    """
    env = os.environ if env is None else env
    explicit = env.get("HERMES_HOME")
    if explicit:
        return os.path.expanduser(explicit)
    return os.path.join(env.get("HOME") or os.path.expanduser("~"), ".hermes")


def compact_state_path(home: str | os.PathLike[str] | None = None) -> str:
    """The file that remembers the last compaction: ``<hermes home>/.hive-mind-last-compact``."""
    return os.path.join(hermes_home() if home is None else os.fspath(home), STATE_FILENAME)
