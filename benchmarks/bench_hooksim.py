"""What hooksim costs over spawning the hooks by hand, and what -n 2 buys. Ratios, one run.

    python benchmarks/bench_hooksim.py [--rounds N] [--turns N]

1. A ``--turns``-turn scenario (default 100, one minute apart, compaction on) under hooksim,
   against a plain loop that spawns the same hook commands with the same payload bytes and the
   same mock bridge, without the virtual clock, the ledger reading or the checks. Rounds
   interleave the two; the ratio of the medians is reported (aim: at most 1.10).
2. The shipped scenarios under ``hooksim run -n 1`` and ``-n 2``: the speed-up.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from simulator.cli import main as hooksim
from simulator.hosts import HOSTS, Firing, SessionInfo
from simulator.runner import ScenarioRun, default_hooks_block, run_scenario
from simulator.scenario import load_scenario

ROOT = Path(__file__).parents[1]


def write_scenario(directory: Path, turns: int) -> Path:
    lines = [
        f'  - {{after: 1m, user: "question {i}", assistant: "answer {i}"}}' for i in range(turns)
    ]
    path = directory / "long.yaml"
    path.write_text(
        'name: benchmark\nenv: {WAGGLE_HERMES_COMPACT_ON_STOP: "1"}\nturns:\n'
        + "\n".join(lines)
        + "\n"
    )
    return path


def plain_loop(scenario_path: Path, workdir: Path) -> float:
    """Spawn the same commands with the same bytes and bridge; nothing else."""
    scenario = load_scenario(scenario_path)
    hermes = HOSTS["hermes"]
    setup = ScenarioRun(scenario, default_hooks_block(), workdir, hermes)  # same env and bridge
    env = {k: v for k, v in setup.base_env.items() if k != "PYTHONPATH"}
    specs, _ = hermes.parse_hooks(default_hooks_block())
    firings: list[tuple[str, bytes]] = []

    def fire(event: str, payload: object, *, match: str | None = None) -> Firing:
        assert isinstance(payload, dict)
        firings.append((event, hermes.encode(payload)))
        return Firing(0, event, 0)

    info = SessionInfo(str(setup.project), "session-1", "hermes-4", "cli", "", lambda: 0)
    session = hermes.session(info, fire)
    started = time.perf_counter()
    for step in scenario.steps:
        firings.clear()
        session.step(step)
        for event, stdin in firings:
            for spec in specs:
                if spec.event == event:
                    subprocess.run(
                        shlex.split(spec.command),
                        input=stdin,
                        capture_output=True,
                        env=env,
                        check=False,
                    )
    return time.perf_counter() - started


def under_hooksim(scenario_path: Path) -> float:
    started = time.perf_counter()
    run_scenario(load_scenario(scenario_path))
    return time.perf_counter() - started


def suite(workers: int) -> float:
    started = time.perf_counter()
    with open(os.devnull, "w") as null:
        stdout, sys.stdout = sys.stdout, null
        try:
            hooksim(["run", str(ROOT / "scenarios"), "-n", str(workers)])
        finally:
            sys.stdout = stdout
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--turns", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = write_scenario(Path(tmp), args.turns)
        sim, loop = [], []
        for i in range(args.rounds):
            sim.append(under_hooksim(path))
            work = Path(tmp) / f"loop-{i}"
            work.mkdir()
            loop.append(plain_loop(path, work))
    ratio = statistics.median(sim) / statistics.median(loop)
    print(f"{args.turns}-turn scenario, {args.rounds} interleaved rounds:")
    print(f"  hooksim / plain loop of the same spawns: {ratio:.3f}x (aim <= 1.10)")
    one, two = suite(1), suite(2)
    print(f"shipped scenarios, -n 2 over -n 1 on {os.cpu_count()} cores: {one / two:.2f}x faster")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
