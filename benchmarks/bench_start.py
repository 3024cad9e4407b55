"""What a hooksim command costs to start: CPU time as ratios against importing hooksim.

    python benchmarks/bench_start.py [--rounds N]

Each round starts, in turn, ``python -c "import hooksim"`` (the floor: the interpreter and the
package), ``hooksim --version``, ``hooksim lint --help`` and ``hooksim fire --help`` (a
pre-commit ``lint`` and a ``fire`` pay these before their work), each through the console
script beside this interpreter. The CPU time (user and system) of each child is read from
``getrusage``; rounds interleave the variants and their medians are compared with the floor's
(aim: ``--version`` within 1.5x).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
VARIANTS = {
    'python -c "import hooksim"': [sys.executable, "-c", "import hooksim"],
    "hooksim --version": [str(BIN / "hooksim"), "--version"],
    "hooksim lint --help": [str(BIN / "hooksim"), "lint", "--help"],
    "hooksim fire --help": [str(BIN / "hooksim"), "fire", "--help"],
}


def cpu_of(argv: list[str]) -> float:
    """The CPU seconds (user and system) one run of ``argv`` takes."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument(
        "--quick", action="store_true", help="the smallest run, to check the benchmark works"
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds = 2
    times: dict[str, list[float]] = {name: [] for name in VARIANTS}
    for _ in range(args.rounds):
        for name, argv in VARIANTS.items():
            times[name].append(cpu_of(argv))
    floor = statistics.median(times['python -c "import hooksim"'])
    print(f"{args.rounds} interleaved rounds; medians of CPU time against importing hooksim")
    for name, runs in times.items():
        ratio = statistics.median(runs) / floor if floor else float("nan")
        aim = " (aim <= 1.50)" if name == "hooksim --version" else ""
        print(f"  {name:28} {ratio:6.2f}x{aim}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
