"""Every benchmark starts (its imports are the project's modules: a moved module breaks a test,
not a benchmark nobody runs), and those that can run in seconds run here, small."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.mark.parametrize("bench", sorted(p.name for p in BENCHMARKS.glob("bench_*.py")))
def test_every_benchmark_starts(bench: str) -> None:
    """``--help``: the script's imports resolve and its arguments parse."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / bench), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: "), done.stdout


def test_bench_hooksim_runs_small() -> None:
    """The figure README's speed claim rests on: hooksim against a plain loop of the same
    spawns, one round of a two-turn session on one host."""
    done = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "bench_hooksim.py"),
            "--rounds",
            "1",
            "--turns",
            "2",
            "--hosts",
            "claude-code",
            "--no-suite",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "2-turn scenario, 1 interleaved rounds:"
    assert re.fullmatch(
        r"  claude-code: hooksim / plain loop of the same spawns: \d+\.\d{3}x"
        r" \(aim <= 1\.10\)",
        done.stdout.splitlines()[1],
    ), done.stdout


def test_bench_inspect_runs_small() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "bench_inspect.py"),
            "--rounds",
            "1",
            "--small",
            "5",
            "--large",
            "10",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "1 rounds; medians; size ratio 2"
    assert [line.split()[0] for line in lines[1:]] == ["explain", "lint"]
