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


# Run on a real host, by tests/real/test_conformance.py in the host's conformance environment.
REAL_HOST = {"bench_confine.py", "bench_real.py", "bench_openclaw.py"}
QUICK = sorted(p.name for p in BENCHMARKS.glob("bench_*.py") if p.name not in REAL_HOST)


@pytest.mark.parametrize("bench", QUICK)
def test_every_benchmark_runs_in_its_quick_mode(bench: str) -> None:
    """``--quick``: the smallest run of each benchmark, to its end (its figures are the
    benchmark's to judge, never a test's)."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / bench), "--quick"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip(), done.stderr


def test_every_real_host_benchmark_has_its_test() -> None:
    """The benchmarks left out of the quick runs above are each run by the conformance tests."""
    conformance = (Path(__file__).parent / "real" / "test_conformance.py").read_text()
    assert all(f'"{bench}"' in conformance for bench in REAL_HOST), REAL_HOST


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
