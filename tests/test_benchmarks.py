"""Every benchmark runs here in its quick mode (its imports are the project's modules: a moved
module breaks a test, not a benchmark nobody runs); those that need a real host start here and
run on their host's conformance environment."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


# Run on a real host, by tests/real/test_conformance.py in the host's conformance environment.
REAL_HOST = {"bench_confine.py", "bench_real.py", "bench_openclaw.py"}
# Run below, in their quick mode, with what their output must say.
OWN_TEST = {"bench_hooksim.py", "bench_inspect.py"}
QUICK = sorted(p.name for p in BENCHMARKS.glob("bench_*.py") if p.name not in REAL_HOST | OWN_TEST)


def run(bench: str, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / bench), *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.mark.parametrize("bench", sorted(REAL_HOST))
def test_a_real_host_benchmark_starts(bench: str) -> None:
    """``--help``: the script's imports resolve and its arguments parse (it runs in full on
    its host's conformance environment)."""
    assert run(bench, "--help").stdout.startswith("usage: ")


@pytest.mark.parametrize("bench", QUICK)
def test_every_benchmark_runs_in_its_quick_mode(bench: str) -> None:
    """``--quick``: the smallest run of each benchmark, to its end (its figures are the
    benchmark's to judge, never a test's)."""
    assert run(bench, "--quick").stdout.strip()


def test_every_real_host_benchmark_has_its_test() -> None:
    """The benchmarks left out of the quick runs above are each run by the conformance tests."""
    conformance = (Path(__file__).parent / "real" / "test_conformance.py").read_text()
    assert all(f'"{bench}"' in conformance for bench in REAL_HOST), REAL_HOST


def test_bench_hooksim_quick_mode_says_its_ratio() -> None:
    """The figure README's speed claim rests on: hooksim against a plain loop of the same
    spawns, one round of a two-turn session on one host."""
    lines = run("bench_hooksim.py", "--quick").stdout.splitlines()
    assert lines[0] == "2-turn scenario, 1 interleaved rounds:"
    assert re.fullmatch(
        r"  claude-code: hooksim / plain loop of the same spawns: \d+\.\d{3}x"
        r" \(aim <= 1\.10\)",
        lines[1],
    ), lines


def test_bench_inspect_quick_mode_says_both_commands() -> None:
    lines = run("bench_inspect.py", "--quick").stdout.splitlines()
    assert lines[0] == "1 rounds; medians; size ratio 2"
    assert [line.split()[0] for line in lines[1:]] == ["explain", "lint"]
