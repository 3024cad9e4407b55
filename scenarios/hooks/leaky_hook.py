"""A hook that leaves a process running after it exits, the three usual ways.

    leaky_hook.py background    a child in the hook's own session (``sleep 300 &``)
    leaky_hook.py setsid        a child in a session of its own (``setsid``, a daemon)
    leaky_hook.py double-fork   a grandchild whose parent exited first (the classic daemon)

Each way returns only once the leaked process runs ``sleep`` (``subprocess.Popen`` returns
after the exec), so what hooksim reports does not depend on how fast the machine is. The hook
reads its payload, prints nothing and exits 0, as a well-behaved hook does otherwise.
Run it as ``"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/../hooks/leaky_hook.py" MODE``.
"""

from __future__ import annotations

import os
import subprocess
import sys

JOB = ["sleep", "300"]


def leak(mode: str) -> None:
    quiet = {
        "stdin": subprocess.DEVNULL,
        "stdout": subprocess.DEVNULL,
        "stderr": subprocess.DEVNULL,
    }
    if mode == "background":
        subprocess.Popen(JOB, **quiet)  # type: ignore[call-overload]
    elif mode == "setsid":
        subprocess.Popen(JOB, start_new_session=True, **quiet)  # type: ignore[call-overload]
    elif mode == "double-fork":
        child = os.fork()
        if child == 0:
            subprocess.Popen(JOB, start_new_session=True, **quiet)  # type: ignore[call-overload]
            os._exit(0)
        os.waitpid(child, 0)
    else:
        raise SystemExit(f"leaky_hook.py: unknown mode {mode!r} (background, setsid, double-fork)")


if __name__ == "__main__":
    sys.stdin.read()
    leak(sys.argv[1])
