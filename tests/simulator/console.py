"""The installed console scripts, run as a user runs them: a real process, its exit code and text."""

from __future__ import annotations

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
