"""What ``hooksim fire`` costs for a fast hook, against ``hooksim --version``. Medians.

    python benchmarks/bench_fire.py [--rounds N] [--hosts claude-code,codex]

Each round runs, one after the other, ``hooksim --version`` (the interpreter's start, hooksim's
imports up to its parser: the floor every subcommand pays) and ``hooksim fire HOST Stop -- true``
on each host (the host's stop event, a hook that does nothing), as a user runs them: the console
script, a process of its own. Alternating them inside each round makes a change of load shift
all of them. It prints each median and its ratio to ``--version``'s. Aim: a fast hook answered
in under a second, a small multiple of ``--version``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOOKSIM = str(Path(sys.executable).parent / "hooksim")


def timed(argv: list[str], cwd: str) -> float:
    started = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, check=True, cwd=cwd)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--hosts", default="hermes,claude-code,codex,cursor,gemini-cli")
    parser.add_argument(
        "--quick", action="store_true", help="the smallest run, to check the benchmark works"
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds = 1
        args.hosts = "claude-code"
    from hooksim.hosts import HOSTS

    commands = {"hooksim --version": [HOOKSIM, "--version"]}
    for name in args.hosts.split(","):
        event = HOSTS[name].events["stop"]
        commands[f"fire {name} {event}"] = [HOOKSIM, "fire", name, str(event), "--", "true"]
    times: dict[str, list[float]] = {label: [] for label in commands}
    with tempfile.TemporaryDirectory() as cwd:
        for argv in commands.values():  # warm the page cache
            timed(argv, cwd)
        for _ in range(args.rounds):
            for label, argv in commands.items():
                times[label].append(timed(argv, cwd))
    base = statistics.median(times["hooksim --version"])
    for label, seconds in times.items():
        median = statistics.median(seconds)
        print(f"{label:<32} {median * 1000:7.1f} ms  {median / base:5.2f}x --version")


if __name__ == "__main__":
    main()
