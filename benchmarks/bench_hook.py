"""How much a Hermes turn pays for the hook: ratios against a bare interpreter start, one run.

    python benchmarks/bench_hook.py [--rounds N]

Each round spawns, in turn, ``python -c pass`` (the baseline), ``hermes-hooks stop`` with the
flag off, and ``hermes-hooks stop`` with the flag on and due (window of a microsecond), all as
Hermes does: argv without a shell, the payload on stdin. The bridge is ``true``, so the figures
are the hook's own cost plus one (or two) trivial process spawns. The machine is noisy; rounds
interleave the variants and the medians are compared as ratios, never as absolute times.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PAYLOAD = json.dumps(
    {
        "hook_event_name": "post_llm_call",
        "tool_name": None,
        "tool_input": None,
        "session_id": "bench",
        "cwd": "/",
        "extra": {
            "turn_id": "t",
            "assistant_response": "ok",
            "telemetry_schema_version": "hermes.observer.v1",
        },
    }
).encode()


def hook_argv() -> list[str]:
    script = shutil.which("hermes-hooks", path=str(Path(sys.executable).parent))
    return [script, "stop"] if script else [sys.executable, "-m", "hermes_hooks", "stop"]


def timed(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, input=PAYLOAD, env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def import_time_us() -> dict[str, int]:
    """Cumulative import time of our modules, from ``python -X importtime``."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import hermes_hooks.runner"],
        capture_output=True,
        text=True,
        check=True,
    )
    costs: dict[str, int] = {}
    for line in result.stderr.splitlines():
        parts = [p.strip() for p in line.removeprefix("import time:").split("|")]
        if len(parts) == 3 and parts[1].isdigit():
            costs[parts[2].strip()] = int(parts[1])
    return {name: cost for name, cost in costs.items() if "hermes_hooks" in name}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        base_env = {
            **os.environ,
            "HOME": home,
            "HERMES_HOME": f"{home}/.hermes",
            "WAGGLE_MIND_CMD": "true",
        }
        base_env.pop("WAGGLE_HERMES_COMPACT_ON_STOP", None)
        on_env = {
            **base_env,
            "WAGGLE_HERMES_COMPACT_ON_STOP": "1",
            "WAGGLE_HERMES_COMPACT_WINDOW_MIN": "0.000001",
        }
        variants = {
            "python -c pass": ([sys.executable, "-c", "pass"], base_env),
            "stop, flag off": (hook_argv(), base_env),
            "stop, flag on, due": (hook_argv(), on_env),
        }
        for argv, env in variants.values():  # warm the page cache
            timed(argv, env)
        samples: dict[str, list[float]] = {name: [] for name in variants}
        for _ in range(args.rounds):
            for name, (argv, env) in variants.items():
                samples[name].append(timed(argv, env))
    baseline = statistics.median(samples["python -c pass"])
    print(f"{args.rounds} interleaved rounds; medians as ratios to a bare `python -c pass`")
    for name, values in samples.items():
        print(f"  {name:<22} {statistics.median(values) / baseline:5.2f}x")
    print("cumulative import time of the hook's modules (python -X importtime, microseconds):")
    for name, cost in sorted(import_time_us().items(), key=lambda kv: -kv[1])[:5]:
        print(f"  {name:<32} {cost:>7}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
