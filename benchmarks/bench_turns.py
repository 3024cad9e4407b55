"""How run time and memory grow with the number of turns. Ratios, one run each.

    python benchmarks/bench_turns.py [--small N] [--large N] [--hooked-large N]

A one-session Claude Code scenario of ``{after: 1m, user: hi N, assistant: ok}`` turns runs
under ``hooksim run`` in a fresh child process per size, with no hook bound (``--small`` and
``--large`` turns, default 1,000 and 10,000), then with one fast hook (``true``) bound on
UserPromptSubmit (``--small`` and ``--hooked-large``, default 3,000: each turn spawns a
process). For each size: the wall time and the child's peak RSS; then the ratio large/small of
each, beside the ratio of turns (linear growth gives about that ratio).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOOK = {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}]}


def write_scenario(directory: Path, turns: int, hooked: bool) -> Path:
    """``turns`` turns a minute apart, on Claude Code, with the one hook or none."""
    path = directory / f"turns-{turns}{'-hooked' if hooked else ''}.yaml"
    lines = [f"  - {{after: 1m, user: hi {i}, assistant: ok}}" for i in range(turns)]
    path.write_text(
        f"name: {turns} turns\ntool: claude-code\nhooks: {json.dumps(HOOK if hooked else {})}\n"
        "turns:\n" + "\n".join(lines) + "\n"
    )
    return path


def measure(path: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one ``hooksim run`` in a fresh child."""
    code = "import sys; from hooksim.cli import main; raise SystemExit(main(sys.argv[1:]))"
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", code, "run", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"hooksim run {path} exited {child.returncode}")
    return wall, usage.ru_maxrss / 1024  # Linux: KiB


def compare(directory: Path, small: int, large: int, hooked: bool) -> None:
    """Both sizes, then the ratios."""
    said = "one hook on UserPromptSubmit" if hooked else "no hook bound"
    results = {}
    for turns in (small, large):
        wall, rss = measure(write_scenario(directory, turns, hooked))
        results[turns] = (wall, rss)
        print(f"{said:>28}: {turns:>6} turns  {wall:8.1f} s  {rss:8.1f} MiB", flush=True)
    (t1, m1), (t2, m2) = results[small], results[large]
    print(
        f"{said:>28}: ratio {large}/{small} = {large / small:.1f}:"
        f" time {t2 / t1:.1f}, memory {m2 / m1:.1f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=10000)
    parser.add_argument("--hooked-large", type=int, default=3000)
    parser.add_argument(
        "--quick", action="store_true", help="the smallest run, to check the benchmark works"
    )
    args = parser.parse_args()
    if args.quick:
        args.small = 2
        args.large = 4
        args.hooked_large = 2
    with tempfile.TemporaryDirectory() as tmp:
        compare(Path(tmp), args.small, args.large, hooked=False)
        compare(Path(tmp), args.small, args.hooked_large, hooked=True)


if __name__ == "__main__":
    main()
