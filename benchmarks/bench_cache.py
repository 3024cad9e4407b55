"""What ``hooksim run --cache`` costs and saves: recording what the hooks read, and a rerun.

    python benchmarks/bench_cache.py [--rounds N] [--against REV] [--quick] [PATHS ...]

Three runs of the same scenarios (default: ``scenarios/hermes`` and ``scenarios/claude-code``),
alternated inside each round as a user runs them (the console script, ``-n 2``):

- the package at ``--against REV`` (a git revision of this checkout, default ``HEAD``), whose
  hooks record nothing unless REV already does: the baseline;
- this checkout, uncached with a fresh ``--cache`` folder: every run runs, its hooks record
  what they read, and each pass is saved (what a first CI run pays);
- this checkout again on the cache it just filled: every pass taken from the cache.

Each is installed the regular way in a venv of its own (pip, with the ``sim`` extra). Medians, as ratios: the first run against the
baseline (aim: at most 1.05), the cached rerun against the first run (aim: under 0.05).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def install(source: Path, venv: Path) -> Path:
    """A venv with ``source`` installed the regular way, with its ``sim`` extra."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", f"{source}[sim]"], check=True
    )
    return venv / "bin" / "hooksim"


def revision(rev: str, folder: Path) -> Path:
    folder.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def timed(argv: list[str]) -> float:
    """The seconds of one run, which must pass (a run that fails at once measures nothing)."""
    started = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", default="HEAD")
    parser.add_argument("paths", nargs="*", default=["scenarios/hermes", "scenarios/claude-code"])
    parser.add_argument(
        "--quick", action="store_true", help="the smallest run, to check the benchmark works"
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds = 1
        args.paths = ["scenarios/hermes/01-flag-off.yaml"]
    with tempfile.TemporaryDirectory() as tmp:
        if args.quick:  # no installs: this interpreter's hooksim on both sides
            base = ours = Path(sys.executable).parent / "hooksim"
        else:
            base = install(revision(args.against, Path(tmp, "rev")), Path(tmp, "base"))
            ours = install(ROOT, Path(tmp, "ours"))
        cache = Path(tmp, "cache")
        samples: dict[str, list[float]] = {"baseline": [], "first": [], "cached": []}
        for _ in range(args.rounds):
            shutil.rmtree(cache, ignore_errors=True)
            samples["baseline"].append(timed([str(base), "run", *args.paths, "-n", "2", "-q"]))
            run = [str(ours), "run", *args.paths, "-n", "2", "-q", "--cache", str(cache)]
            samples["first"].append(timed(run))
            samples["cached"].append(timed(run))
    median = {name: statistics.median(values) for name, values in samples.items()}
    print(f"{args.rounds} rounds of {' '.join(args.paths)}; medians")
    for name, seconds in median.items():
        print(f"  {name:<9} {seconds:6.2f}s")
    print(f"  first run against {args.against}: {median['first'] / median['baseline']:.3f}x")
    print(f"  cached rerun against the first run: {median['cached'] / median['first']:.3f}x")
    return 0


if __name__ == "__main__":
    os.environ.pop("HOOKSIM_CACHE", None)
    raise SystemExit(main())
