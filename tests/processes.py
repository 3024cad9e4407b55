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
