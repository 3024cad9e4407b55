"""What hooksim costs over spawning the hooks by hand, and what -n 2 buys. Ratios, one run.

    python benchmarks/bench_hooksim.py [--rounds N] [--turns N] [--hosts A,B] [--no-suite]

1. A ``--turns``-turn scenario (default 100, one minute apart, compaction on) under hooksim,
   on each host (``--hosts``; Hermes runs hermes-hooks, the others the stand-in memory hook),
   against a plain loop that spawns the same hook commands, as that host would start them,
   with the same payload bytes and the same mock bridge, without the virtual clock, the
   profile's reading of results or the ledger. Rounds interleave the two; the ratio of the
   medians is reported per host (aim: at most 1.10).
2. The shipped scenarios under ``hooksim run -n 1`` and ``-n 2``: the speed-up.
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

from hooksim.cli import main as hooksim
from hooksim.hosts import HOSTS, Firing, SessionInfo
from hooksim.replay.runner import ScenarioRun, own_hooks, run_scenario
from hooksim.scenario import load_scenario

ROOT = Path(__file__).parents[1]


MIND = '"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/hooks/mind_hook.py"'
HOOKS = {
    "claude-code": ("SessionStart", "UserPromptSubmit", "Stop"),
    "codex": ("SessionStart", "UserPromptSubmit", "Stop"),
    "gemini-cli": ("SessionStart", "BeforeAgent", "AfterAgent"),
}


def write_scenario(directory: Path, turns: int) -> Path:
    """One long session with hooks for every host; the stand-in hook sits beside it."""
    (directory / "hooks").mkdir()
    (directory / "hooks" / "mind_hook.py").write_text(
        (ROOT / "scenarios" / "hooks" / "mind_hook.py").read_text()
    )
    lines = [
        f'  - {{after: 1m, user: "question {i}", assistant: "answer {i}"}}' for i in range(turns)
    ]
    hosts = [f"  {host}:\n    hooks:" for host in HOOKS]
    for n, host in enumerate(HOOKS):
        hosts[n] += "".join(
            f"\n      {event}: [{{hooks: [{{type: command, command: {json.dumps(MIND)}}}]}}]"
            for event in HOOKS[host]
        )
    hosts.append(
        "  cursor:\n    hooks:"
        + "".join(
            f"\n      {event}: [{{command: {json.dumps(MIND)}}}]"
            for event in ("beforeSubmitPrompt", "afterAgentResponse")
        )
    )
    path = directory / "long.yaml"
    path.write_text(
        'name: benchmark\nenv: {WAGGLE_HERMES_COMPACT_ON_STOP: "1"}\nturns:\n'
        + "\n".join(lines)
        + "\nhosts:\n"
        + "\n".join(hosts)
        + "\n"
    )
    return path


def plain_loop(scenario_path: Path, workdir: Path, tool: str) -> float:
    """Spawn the same commands with the same bytes and bridge, one after another; nothing else."""
    host = HOSTS[tool]
    scenario = load_scenario(scenario_path).on(tool)
    own = own_hooks(scenario, host)
    assert own is not None, f"no hooks for {tool}"
    block = own[0]
    setup = ScenarioRun(scenario, block, workdir, host)  # the same env: home, bridge, plan
    env = {k: v for k, v in setup.base_env.items() if k != "PYTHONPATH"}
    firings: list[tuple[str, bytes]] = []

    def fire(event: str, payload: object, *, match: str | None = None) -> Firing:
        assert isinstance(payload, dict)
        firings.append((event, host.encode(payload)))
        return Firing(0, event, 0)

    info = SessionInfo(str(setup.project), "session-1", "model-1", "cli", "", lambda: 0)
    session = host.session(info, fire)
    started = time.perf_counter()
    for step in scenario.steps:
        firings.clear()
        session.step(step)
        for event, stdin in firings:
            for spec in setup.specs:
                if spec.event == event:
                    subprocess.run(
                        host.argv(spec.command, env),
                        input=stdin,
                        capture_output=True,
                        env=env,
                        cwd=setup.project,
                        check=False,
                    )
    return time.perf_counter() - started


def under_hooksim(scenario_path: Path, tool: str) -> float:
    started = time.perf_counter()
    run_scenario(load_scenario(scenario_path), tool=tool)
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
    parser.add_argument("--hosts", default="hermes,claude-code", help="comma-separated hosts")
    parser.add_argument("--no-suite", action="store_true", help="leave out part 2 (-n 1 and -n 2)")
    parser.add_argument(
        "--quick", action="store_true", help="the smallest run, to check the benchmark works"
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds = 1
        args.turns = 2
        args.hosts = "claude-code"
        args.no_suite = True
    print(f"{args.turns}-turn scenario, {args.rounds} interleaved rounds:")
    for tool in args.hosts.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_scenario(Path(tmp), args.turns)
            sim, loop = [], []
            for i in range(args.rounds):
                sim.append(under_hooksim(path, tool))
                work = Path(tmp) / f"loop-{i}"
                work.mkdir()
                loop.append(plain_loop(path, work, tool))
        ratio = statistics.median(sim) / statistics.median(loop)
        print(f"  {tool}: hooksim / plain loop of the same spawns: {ratio:.3f}x (aim <= 1.10)")
    if args.no_suite:
        return 0
    one, two = suite(1), suite(2)
    print(f"shipped scenarios, -n 2 over -n 1 on {os.cpu_count()} cores: {one / two:.2f}x faster")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
