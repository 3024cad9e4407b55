"""How ``hooksim explain`` and ``hooksim lint`` grow with the number of hooks: linear, or not.

    python benchmarks/bench_inspect.py [--rounds N] [--small 1000] [--large 8000]

A settings file with N ``UserPromptSubmit`` hooks (Claude Code), read by ``explain`` and by
``lint`` as a user runs them (the console script, a process of its own), for a small and a large
N, alternated inside each round. It prints each median, and the ratio of the large file's time
to the small one's beside the ratio of their sizes: a linear command stays near the size ratio
(less, for the start-up both pay), a quadratic one near its square. Aim: 8,000 hooks answered
in under 2 s on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOOKSIM = str(Path(sys.executable).parent / "hooksim")


def settings(home: Path, count: int) -> None:
    hooks = [{"hooks": [{"type": "command", "command": f"echo hook {n}"}]} for n in range(count)]
    folder = home / ".claude"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(
        json.dumps({"hooks": {"UserPromptSubmit": hooks}}, indent=1)
    )


def timed(argv: list[str], home: Path) -> float:
    started = time.perf_counter()
    subprocess.run(
        argv,
        stdout=subprocess.DEVNULL,
        check=False,
        cwd=home,
        env={**os.environ, "HOME": str(home)},
    )
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=8000)
    parser.add_argument(
        "--quick", action="store_true", help="the smallest run, to check the benchmark works"
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds = 1
        args.small = 5
        args.large = 10
    commands = {
        "explain": [HOOKSIM, "explain", "claude-code", "UserPromptSubmit"],
        "lint": [HOOKSIM, "lint"],
    }
    with tempfile.TemporaryDirectory() as tmp:
        homes = {n: Path(tmp, str(n)) for n in (args.small, args.large)}
        for n, home in homes.items():
            settings(home, n)
        samples: dict[tuple[str, int], list[float]] = {}
        for _ in range(args.rounds):
            for name, argv in commands.items():
                for n, home in homes.items():
                    samples.setdefault((name, n), []).append(timed(argv, home))
    print(f"{args.rounds} rounds; medians; size ratio {args.large / args.small:g}")
    for name in commands:
        small = statistics.median(samples[(name, args.small)])
        large = statistics.median(samples[(name, args.large)])
        print(
            f"  {name:<8} {args.small} hooks {small:.2f}s  {args.large} hooks {large:.2f}s"
            f"  ratio {large / small:.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
