"""The benchmarks that can run in seconds run here, small, so that a moved module breaks a
test rather than a benchmark nobody runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


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
