"""What a loud hook costs in memory: peak RSS of ``hooksim run`` whose hook prints 300 MB, against
one whose hook prints 1 MB. One run each, in fresh children.

    python benchmarks/bench_output.py [--megabytes N]

Each ``hooksim run`` is a child of its own measuring process (a fresh interpreter), which reads
``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss``: the peak of that run alone. hooksim keeps
1 MiB of each stream of a hook, so the two peaks should be about the same (aim: the loud run at
most 1.2 times the quiet one).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

# Runs one ``hooksim run`` as its child and prints that child's peak RSS in KiB.
MEASURE = """
import resource, subprocess, sys
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
HOOKSIM = "from hooksim.cli import main; raise SystemExit(main())"


def scenario(directory: Path, size: int) -> Path:
    """A Claude Code scenario of one turn whose UserPromptSubmit hook prints ``size`` bytes."""
    command = f"head -c {size} /dev/zero | tr '\\0' y"
    path = directory / f"loud-{size}.yaml"
    path.write_text(
        f"name: prints {size} bytes\ntool: claude-code\n"
        "hooks:\n  UserPromptSubmit:\n"
        f"    - hooks: [{{type: command, command: {json.dumps(command)}}}]\n"
        "turns:\n  - {user: hi, assistant: ok}\n"
    )
    return path


def peak_kib(path: Path, home: Path) -> int:
    """The peak RSS, in KiB, of ``hooksim run path`` in a fresh measuring process."""
    env = {**os.environ, "HOME": str(home), "TMPDIR": str(home)}
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, sys.executable, "-c", HOOKSIM, "run", str(path)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    code, kib = map(int, out.split())
    if code != 0:
        raise SystemExit(f"hooksim run {path.name} exited {code}")
    return kib


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=300, help="what the loud hook prints")
    parser.add_argument(
        "--quick", action="store_true", help="the smallest run, to check the benchmark works"
    )
    args = parser.parse_args()
    if args.quick:
        args.megabytes = 1
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        quiet = peak_kib(scenario(directory, 1_000_000), directory)
        loud = peak_kib(scenario(directory, args.megabytes * 1_000_000), directory)
    print(f"hook printing 1 MB: peak RSS {quiet / 1024:.1f} MiB")
    print(f"hook printing {args.megabytes} MB: peak RSS {loud / 1024:.1f} MiB")
    print(f"ratio: {loud / quiet:.2f} (aim: at most 1.2)")
    return 0 if loud <= 1.2 * quiet else 1


if __name__ == "__main__":
    raise SystemExit(main())
