"""The installed console scripts, run as a user runs them: a real process, its exit code and text."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def console(
    name: str, *args: str | Path, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``name`` (``hooksim``, ``hermes-hooks``) from this environment to its end."""
    return subprocess.run(
        [str(BIN / name), *map(str, args)], capture_output=True, text=True, check=False, cwd=cwd
    )


def summary(out: str) -> str:
    """The closing line of a ``hooksim run`` without its time (``2 passed, 0 failed``)."""
    last = out.splitlines()[-1]
    counts, _, seconds = last.rpartition(" in ")
    assert re.fullmatch(r"\d+\.\ds", seconds), last
    assert out.endswith("\n"), out
    return counts
