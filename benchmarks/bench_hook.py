"""How much a Hermes turn pays for the hook: ratios against two baselines, in one run.

    python benchmarks/bench_hook.py [--rounds N] [--python PATH] [--against REV]

Hermes runs hooks synchronously, twice per turn, in front of the model call, so the hook's
start-up is latency the user waits for. Each round spawns, in turn and as Hermes does (argv
without a shell, the payload on stdin):

- ``python -c pass``: a bare interpreter start (the floor);
- a minimal hook doing the same work as ``stop`` with the flag off (the second baseline): a
  Python script that parses the payload with ``json`` and makes one bridge call with
  ``subprocess``;
- ``hermes-hooks stop`` as ``install`` writes it (``python .../hermes_hooks/__main__.py stop``);
- ``hermes-hooks stop`` through the console script (what ``pip`` puts on PATH);
- the written command with the flag on and due (a compaction every turn: two bridge calls).

With ``--against REV`` (a git revision of this checkout), the same two ``stop`` variants of
that revision, installed in a venv of their own, join the rounds, and the ratio of this
checkout's to theirs is printed: the change in what a turn pays, measured in one run.

The bridge is ``true``. The figures must come from a regular (non-editable) install: an
editable install adds its finder's imports to every start. So, unless ``--python`` names the
interpreter of such an install, this script builds one in a temporary venv (``pip install``
of this checkout, no dependencies) and measures there. Rounds interleave the variants; medians
are compared as ratios, never as absolute times.
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

ROOT = Path(__file__).resolve().parent.parent
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
            "conversation_history": [
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": "ok"},
            ],
            "telemetry_schema_version": "hermes.observer.v1",
        },
    }
).encode()
MINIMAL_HOOK = """\
import json, subprocess, sys
payload = json.load(sys.stdin)
extra = payload.get("extra") or {}
arguments = {
    "content": extra.get("assistant_response") or "",
    "role": "assistant",
    "temporary": False,
    "session_id": payload.get("session_id") or "",
    "turn_id": extra.get("turn_id") or "",
    "source": "hermes",
}
subprocess.run(
    [BRIDGE, "call", "save_memory"],
    input=json.dumps(arguments).encode(),
    capture_output=True,
    timeout=10,
)
"""


def regular_install(directory: Path, source: Path = ROOT) -> Path:
    """A venv with ``source`` installed the regular way; returns its python."""
    subprocess.run([sys.executable, "-m", "venv", str(directory)], check=True)
    python = directory / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(source)], check=True
    )
    return python


def revision_install(revision: str, directory: Path) -> Path:
    """A venv with the package as it was at ``revision`` of this checkout."""
    source = directory / "source"
    source.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    return regular_install(directory / "venv", source)


def written_command(python: Path) -> list[str]:
    """The stop command ``install`` writes for the package ``python`` imports."""
    code = "from hermes_hooks.entries import hook_argv; print('\\0'.join(hook_argv('stop')))"
    # -I: the installed package, not a checkout in the current directory.
    done = subprocess.run(
        [str(python), "-I", "-c", code], capture_output=True, text=True, check=True
    )
    return done.stdout.strip().split("\0")


def is_editable(python: Path) -> bool:
    code = "import hermes_hooks, sys; print(hermes_hooks.__file__)"
    out = subprocess.run(
        [str(python), "-I", "-c", code], capture_output=True, text=True, check=True
    )
    return "site-packages" not in out.stdout


def timed(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, input=PAYLOAD, env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def import_times(python: Path, argv: list[str], env: dict[str, str]) -> list[tuple[str, int]]:
    """Cumulative import times (python -X importtime) of one hook run, largest first."""
    result = subprocess.run(
        [str(python), "-X", "importtime", *argv[1:]],
        input=PAYLOAD.decode(),
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    costs = []
    for line in result.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        # Top-level imports only: a nested one is indented past the column's single space.
        if len(parts) == 3 and parts[1].strip().isdigit() and not parts[2].startswith("  "):
            costs.append((parts[2].strip(), int(parts[1])))
    return sorted(costs, key=lambda kv: -kv[1])


def measure(python: Path, rounds: int, home: str, against: tuple[str, Path] | None = None) -> int:
    bridge = shutil.which("true") or "/bin/true"
    minimal = Path(home, "minimal_hook.py")
    minimal.write_text(MINIMAL_HOOK.replace("BRIDGE", repr(bridge)))
    base_env = {**os.environ, "HOME": home, "HERMES_HOME": f"{home}/.hermes"}
    base_env["WAGGLE_MIND_CMD"] = bridge
    base_env.pop("WAGGLE_HERMES_COMPACT_ON_STOP", None)
    on_env = {
        **base_env,
        "WAGGLE_HERMES_COMPACT_ON_STOP": "1",
        "WAGGLE_HERMES_COMPACT_WINDOW_MIN": "0.000001",
    }
    written = written_command(python)
    script = python.parent / "hermes-hooks"
    variants = {
        "python -c pass": ([str(python), "-c", "pass"], base_env),
        "minimal hook": ([str(python), str(minimal)], base_env),
        "stop (install's command)": (written, base_env),
        "stop (console script)": ([str(script), "stop"], base_env),
        "stop, flag on, due": (written, on_env),
    }
    if against is not None:
        theirs = written_command(against[1])
        variants[f"stop at {against[0]}"] = (theirs, base_env)
        variants[f"stop, flag on, due, at {against[0]}"] = (theirs, on_env)
    for argv, env in variants.values():  # warm the page cache and the .pyc files
        timed(argv, env)
    samples: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(rounds):
        for name, (argv, env) in variants.items():
            samples[name].append(timed(argv, env))
    bare = statistics.median(samples["python -c pass"])
    minimal_t = statistics.median(samples["minimal hook"])
    print(f"{rounds} interleaved rounds, regular install at {python.parent.parent}; medians")
    print(f"  {'variant':<26} {'vs bare start':>13} {'vs minimal hook':>15}")
    for name, values in samples.items():
        t = statistics.median(values)
        print(f"  {name:<26} {t / bare:>12.2f}x {t / minimal_t:>14.2f}x")
    if against is not None:
        for ours, theirs in (
            ("stop (install's command)", f"stop at {against[0]}"),
            ("stop, flag on, due", f"stop, flag on, due, at {against[0]}"),
        ):
            ratio = statistics.median(samples[ours]) / statistics.median(samples[theirs])
            print(f"  {ours} against {against[0]}: {ratio:.3f}x")
    print("largest imports of one `stop` run as install writes it (python -X importtime, us):")
    for name, cost in import_times(python, written, base_env)[:6]:
        print(f"  {name:<32} {cost:>7}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument(
        "--python", type=Path, help="the python of a regular install (default: build one)"
    )
    parser.add_argument(
        "--against", metavar="REV", help="also measure the package at this git revision"
    )
    parser.add_argument(
        "--quick", action="store_true", help="the smallest run, to check the benchmark works"
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds = 2
        args.python = Path(sys.executable)
        args.against = None
    with tempfile.TemporaryDirectory() as home:
        python = args.python
        if python is None:
            python = regular_install(Path(home, "venv"))
        elif is_editable(python) and not args.quick:
            raise SystemExit(f"{python} runs an editable install; its figures would be skewed")
        against = None
        if args.against:
            against = (args.against, revision_install(args.against, Path(home, "against")))
        return measure(python, args.rounds, home, against)


if __name__ == "__main__":
    raise SystemExit(main())
