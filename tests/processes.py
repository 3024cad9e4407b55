"""Process checks shared by the tests of the hook and of hooksim."""

from __future__ import annotations

import time
from pathlib import Path


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs, waiting up to 5 s for it to go (a zombie counts as gone)."""
    for _ in range(50):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except FileNotFoundError:
            return False
        if "State:\tZ" in status:
            return False
        time.sleep(0.1)
    return True


def dead_pid() -> int:
    """The pid of a process that has already exited (a child started and reaped here)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)
