"""What the tap adds to each hook run of a recorded session. Medians of one run.

    python benchmarks/bench_tap.py [--rounds N]

A minimal hook (``cat >/dev/null``, run as Claude Code runs it: ``/bin/sh -c``) is started
directly and through the tap exactly as ``hooksim record start`` writes it into a config
(``tapped()``: ``exec /bin/sh .../tap.sh tap --log DIR --tool claude-code --event Stop --
'cat >/dev/null'``), with the same payload on stdin; the rounds alternate the hook alone, the
tapped hook and ``python -c pass`` (this interpreter's start, for scale), so a change of load
shifts all three. It prints the medians, and the tap's cost per hook run: the median of each
round's difference (tapped minus alone) and the ratio of the medians. Aim: at most 20 ms.

Figures on the 2-core development machine, busy with other test runs; each row pairs the two
taps measured one after the other (regular installs: ``pip install .``; an editable install
only adds to ``python -c pass``, which the shell tap does not start):

==========================  ==========  ===========  ==========  ==============
tap (load average)          hook alone  through tap  difference  python -c pass
==========================  ==========  ===========  ==========  ==============
before, Python (4.2)        4.0 ms      50.1 ms      46.1 ms     22.9 ms
after, ``tap.sh`` (4.2)     2.4 ms      12.1 ms      9.7 ms      21.3 ms
before, Python (3.9)        9.9 ms      125.1 ms     115.2 ms    58.3 ms
after, ``tap.sh`` (3.9)     5.9 ms      33.1 ms      22.6 ms     63.8 ms
==========================  ==========  ===========  ==========  ==============

About a fifth of the Python tap's cost, whatever the load: ``tap.sh`` takes about 10 ms of
CPU per run (``perf stat``: a shell, three ``tee``, GNU ``env`` putting back INT and QUIT, six
forks; mostly their page faults), so its wall time grows with the load: about 10 ms while
``python -c pass`` takes 20 ms, past 20 ms once that takes 60.
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
    parser.add_argument(
        "--quick", action="store_true", help="the smallest run, to check the benchmark works"
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds = 1
    with tempfile.TemporaryDirectory() as log:
        alone = ["/bin/sh", "-c", HOOK]
        command = tapped("claude-code", "Stop", HOOK, Path(log))
        through_tap = ["/bin/sh", "-c", command]
        interpreter = [sys.executable, "-c", "pass"]
        print(f"tapped command: {shlex.split(command)[:3]} ...")
        for argv in (alone, through_tap, interpreter):  # warm the page cache
            timed(argv)
        plain, tap, bare = [], [], []
        for _ in range(args.rounds):
            plain.append(timed(alone))
            tap.append(timed(through_tap))
            bare.append(timed(interpreter))
        recorded = len(list(Path(log).glob("*.json")))
    a, b, c = statistics.median(plain), statistics.median(tap), statistics.median(bare)
    paired = statistics.median(t - p for t, p in zip(tap, plain, strict=True))
    print(f"hook alone          {a * 1000:7.1f} ms (median of {args.rounds})")
    print(f"hook through tap    {b * 1000:7.1f} ms ({recorded} runs recorded)")
    print(f"python -c pass      {c * 1000:7.1f} ms (this interpreter's own start)")
    print(
        f"the tap's cost per hook run: {paired * 1000:.1f} ms (median of the rounds'"
        f" differences), {b / a:.2f}x the hook alone; aim: at most 20 ms"
    )


if __name__ == "__main__":
    main()
