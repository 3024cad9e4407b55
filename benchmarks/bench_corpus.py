"""How a run grows with the number of scenario files, and what shards and the cache save.

    python benchmarks/bench_corpus.py [--small N] [--large N] [--workers N]

A generated corpus of one-turn Claude Code scenarios, each with one fast hook (``true``) on
Stop, runs under ``hooksim run -n WORKERS`` in a fresh child process: ``--small`` files
(default 100), then ``--large`` (default 1,000). For each: wall time and the child's peak RSS,
then the ratio large/small of each beside the ratio of files (linear growth gives about that
ratio for time, and memory stays flat). Then, on the large corpus: the same run with ``--cache``
twice (the second all cached: its time as a fraction of the first's), and the run as 4 shards
one after the other (their total against the whole run's time: the cost of loading every file
in every shard).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCENARIO = """\
name: corpus {i}
tool: claude-code
hooks:
  Stop:
    - hooks: [{{type: command, command: "true"}}]
turns:
  - {{user: hi {i}, assistant: ok}}
expect:
  fired: {{Stop: 1}}
"""


def write_corpus(directory: Path, files: int) -> Path:
    folder = directory / f"corpus-{files}"
    folder.mkdir()
    for i in range(files):
        (folder / f"s{i:05}.yaml").write_text(SCENARIO.format(i=i))
    return folder


def measure(*args: str | Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one ``hooksim`` command in a fresh child."""
    code = "import sys; from hooksim.cli import main; raise SystemExit(main(sys.argv[1:]))"
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", code, *map(str, args)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    code_ = os.waitstatus_to_exitcode(status)
    if code_ != 0:
        sys.exit(f"hooksim {' '.join(map(str, args))} exited {code_}")
    return wall, usage.ru_maxrss / 1024  # Linux: KiB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--large", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--quick", action="store_true", help="the smallest run, to check the benchmark works"
    )
    args = parser.parse_args()
    if args.quick:
        args.small = 2
        args.large = 4
        args.workers = 1
    workers = ["-n", str(args.workers), "-q"]
    with tempfile.TemporaryDirectory() as tmp:
        results = {}
        for files in (args.small, args.large):
            corpus = write_corpus(Path(tmp), files)
            results[files] = measure("run", corpus, *workers)
            wall, rss = results[files]
            print(f"{files:>6} files  {wall:8.1f} s  {rss:8.1f} MiB", flush=True)
        (t1, m1), (t2, m2) = results[args.small], results[args.large]
        ratio = args.large / args.small
        print(
            f"ratio {args.large}/{args.small} = {ratio:.1f}: time {t2 / t1:.1f},"
            f" memory {m2 / m1:.1f}",
            flush=True,
        )

        cache = Path(tmp) / "cache"
        first, _ = measure("run", corpus, *workers, "--cache", cache)
        second, _ = measure("run", corpus, *workers, "--cache", cache)
        print(
            f"--cache: first {first:.1f} s, second (all cached) {second:.1f} s:"
            f" {second / first:.1%} of the first",
            flush=True,
        )

        shards = [measure("run", corpus, *workers, "--shard", f"{k}/4")[0] for k in (1, 2, 3, 4)]
        print(
            f"4 shards: {' + '.join(f'{s:.1f}' for s in shards)} = {sum(shards):.1f} s,"
            f" {sum(shards) / t2:.2f} x the whole run; the longest {max(shards):.1f} s,"
            f" {max(shards) / t2:.2f} x",
            flush=True,
        )


if __name__ == "__main__":
    main()
