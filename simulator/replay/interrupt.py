"""A run stopped by SIGINT, SIGTERM or SIGHUP: everything it started dies, its work directories
go (unless kept), the caller's reports of what finished are written (``on_stop``), one line says
so, and hooksim exits 128 + the signal's number.

The cleanup runs in the signal handler and ends with ``os._exit``: no traceback, no thread left
spawning, and a hook that signals hooksim (``kill -TERM $PPID``) only starts the same cleanup;
further signals are ignored until it is done.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType

from . import leaks
from .hook_process import workdirs

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def stopped_by_signals(
    *, keep_workdirs: bool, on_stop: Callable[[str], None] | None = None
) -> Iterator[None]:
    """Within it, a signal stops the run as the module says (from the main thread only).
    ``on_stop`` (given the signal's name) writes what the run has to show; whatever it
    raises is said in one line and the run stops all the same."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame: FrameType | None) -> None:
        for each in SIGNALS:
            signal.signal(each, signal.SIG_IGN)
        killed = leaks.kill_everything()
        name = signal.Signals(signum).name
        if on_stop is not None:
            try:
                on_stop(name)
            except Exception as e:  # the reports are a courtesy; stopping is not
                os.write(2, f"hooksim: the reports could not be written: {e}\n".encode())
        if not keep_workdirs:
            for root in list(workdirs):
                shutil.rmtree(root, ignore_errors=True)
        with contextlib.suppress(Exception):
            sys.stdout.flush()
        os.write(
            2,
            f"hooksim: interrupted ({name}): stopped the run, killed {killed} process(es)\n".encode(),
        )
        os._exit(128 + signum)

    old = {each: signal.signal(each, stop) for each in SIGNALS}
    try:
        yield
    finally:
        for each, handler in old.items():
            signal.signal(each, handler)
