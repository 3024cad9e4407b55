"""What ``hooksim tap`` adds to each hook run of a recorded session. Medians, one run.

    python benchmarks/bench_tap.py [--rounds N]

A minimal hook (``cat >/dev/null``, run as Claude Code runs it: ``bash -c``) is started
directly and through the tap as ``hooksim record start`` writes it (this installation's
``hooksim tap --log DIR --tool claude-code --event Stop -- 'cat >/dev/null'``), with the same
payload on stdin, rounds alternating. It prints both medians, the ratio, and the difference:
the tap's cost per hook run (aim: at most 10 ms), also as a multiple of one start of this
interpreter (``python -c pass``), which it cannot go below. Measure a regular install (``pip install
.``): an editable install adds its import finder to every start of the tap's interpreter.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hooksim.record import tap as tap_module
from hooksim.record.recording import tapped

HOOK = "cat >/dev/null"
PAYLOAD = json.dumps({"hook_event_name": "Stop", "session_id": "s", "prompt": "x" * 2000}).encode()


def timed(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, input=PAYLOAD, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as log:
        direct = ["bash", "-c", HOOK]
        through_tap = ["bash", "-c", tapped("claude-code", "Stop", HOOK, Path(log))]
        print(f"tapped command: {shlex.split(through_tap[2])[0]} tap ...")
        for argv in (direct, through_tap):  # warm the page cache
            timed(argv)
        interpreter = [sys.executable, "-c", "pass"]
        # The same tap without site or the console script (what it costs beyond Python itself).
        tap_args = shlex.split(tapped("claude-code", "Stop", HOOK, Path(log)))[2:]
        lean_command = [sys.executable, "-I", "-S", str(tap_module.__file__), *tap_args]
        lean_tap = ["bash", "-c", shlex.join(lean_command)]
        plain, tap, bare, lean = [], [], [], []
        for _ in range(args.rounds):
            plain.append(timed(direct))
            tap.append(timed(through_tap))
            bare.append(timed(interpreter))
            lean.append(timed(lean_tap))
        recorded = len(list(Path(log).glob("*.json")))
    a, b, c = statistics.median(plain), statistics.median(tap), statistics.median(bare)
    d = statistics.median(lean)
    print(f"hook alone          {a * 1000:7.1f} ms (median of {args.rounds})")
    print(f"hook through tap    {b * 1000:7.1f} ms ({recorded} runs recorded)")
    print(f"python -c pass      {c * 1000:7.1f} ms (the interpreter's own start)")
    print(f"python -I -S tap.py {d * 1000:7.1f} ms (the tap without site and console script)")
    print(
        f"the tap's cost per hook run: {(b - a) * 1000:.1f} ms,"
        f" {(b - a) / c:.2f}x one interpreter start"
    )


if __name__ == "__main__":
    main()
