"""A real OpenClaw's run of a 4-turn session against hooksim's replay of it. Ratio, one run.

    python benchmarks/bench_openclaw.py --real PATH [--launch gateway|local] [--rounds N]

PATH is the ``openclaw`` executable, with Node 24 beside it (``tox -e conformance-openclaw``
installs both into ``.tox/conformance-openclaw/npm/node_modules/.bin/``). The session: four
turns a minute apart with the stand-in memory plugin (``scenarios/hooks/openclaw-memory``:
``session_start``, ``before_prompt_build``, ``agent_end``), one ``exec`` call in the second
turn. Each round runs it once on the real OpenClaw (offline, against the fake model server, a
gateway on loopback or an ``openclaw agent --local`` per turn) and once under hooksim (plain
replay, as ``hooksim run`` does); rounds interleave the two and the medians are compared (aim:
the replay at least 50 times faster). The real run's own times follow: the gateway's start,
each turn.

Figures on the 2-core development machine, one round each: quiet (load average under 2), and
shared with other test runs (load average 13 to 14, which slows both sides alike):

========  =====  =======================================================  ======  ======  =====
launch    load   real (its own times)                                     real    replay  ratio
========  =====  =======================================================  ======  ======  =====
gateway   quiet  start 24.5 s; turns 10.1, 3.2, 3.2, 3.1 s; stop 1.4 s    46.0 s  0.80 s  58x
local     quiet  turns 20.0, 27.3, 19.9, 18.8 s (plugins load each turn)  86.2 s  1.36 s  63x
gateway   13-14  start 108 s; turns 53, 37, 12, 13 s; stop 8 s            232 s   4.7 s   49x
local     13-14  turns 102, 103, 106, 110 s                                421 s   8.9 s   47x
========  =====  =======================================================  ======  ======  =====

Nearly all of a real turn is OpenClaw's own start-up (its CLI, plugin registration, SQLite
upkeep); the model's part takes milliseconds. Unloaded, a local turn took 23 to 35 s.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from hooksim.hosts import get_host
from hooksim.real.session import run_real
from hooksim.replay.runner import run_scenario
from hooksim.scenario import load_scenario

ROOT = Path(__file__).parents[1]


def write_scenario(directory: Path, launch: str) -> Path:
    shutil.copytree(ROOT / "scenarios" / "hooks" / "openclaw-memory", directory / "memory")
    path = directory / "four-turns.yaml"
    path.write_text(
        "name: four turns\ntool: openclaw\nenv: {MIND_HOST: openclaw}\n"
        f"hosts: {{openclaw: {{launch: {launch}}}}}\n"
        "hooks:\n  plugins:\n    load: {paths: [memory]}\n"
        "    entries: {memory: {hooks: {allowConversationAccess: true}}}\n"
        "turns:\n"
        "  - {user: plan it, assistant: the plan}\n"
        "  - {after: 1m, user: list files, assistant: listed,"
        " tools: [{name: exec, args: {command: ls}, result: ok}]}\n"
        "  - {after: 1m, user: go on, assistant: going}\n"
        "  - {after: 1m, user: done?, assistant: done}\n"
        "expect: {exit_codes: 0}\n"
    )
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", required=True, metavar="PATH")
    parser.add_argument("--launch", choices=("gateway", "local"), default="gateway")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        scenario = load_scenario(write_scenario(Path(tmp), args.launch)).on("openclaw")
        host = scenario.profile(get_host("openclaw"))
        real, replay, timings = [], [], {}
        for _ in range(args.rounds):
            started = time.perf_counter()
            run = run_real(scenario, "openclaw", args.real)  # confined, as --real runs it
            real.append(time.perf_counter() - started)
            started = time.perf_counter()
            run_scenario(scenario, host=host)
            replay.append(time.perf_counter() - started)
            timings = run.timings
            saves = sum(c["tool"] == "save_memory" for c in run.result.calls)
            if saves != 8:
                print(f"the real run saved {saves} memories, not 8")
                return 1
    ratio = statistics.median(real) / statistics.median(replay)
    print(
        f"openclaw ({args.launch}): real {statistics.median(real):.1f}s, hooksim replay"
        f" {statistics.median(replay):.2f}s (median of {args.rounds}): the replay is"
        f" {ratio:.0f}x faster ({'at least' if ratio >= 50 else 'under'} 50x)"
    )
    print("  real: " + ", ".join(f"{k} {v:.1f}s" for k, v in timings.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
