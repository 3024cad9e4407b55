"""What a faithful ``--real`` costs: its confinement, and its watching recorder. Ratios.

    python benchmarks/bench_confine.py --real gemini-cli=PATH [--rounds N]
    python benchmarks/bench_confine.py --real claude-code=PATH [--rounds N]

The session of ``bench_real.py`` (four turns, the stand-in memory hook on three events) runs on
the real host three ways, interleaved in each round: confined, as ``--real`` runs it; with
``--unconfined``; and confined with its hooks installed as written, without the recorder (a run
that records nothing: only its time counts). The medians give two ratios, each against a
baseline measured in the same rounds: confined / unconfined (aim: within 1.15) and with the
recorder / without it (aim: within 1.05).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

from bench_real import write_scenario
from hooksim.real import session
from hooksim.real.session import run_real
from hooksim.scenario import load_scenario


def _unwrapped(host: Any, block: Any, spec: Path, **_: Any) -> tuple[Any, dict[str, Any]]:
    """The hooks as written: no recorder, no probes."""
    return block, {}


def timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", required=True, metavar="HOST=PATH")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    tool, _, binary = args.real.partition("=")
    confined, unconfined, bare = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        scenario = load_scenario(write_scenario(Path(tmp), tool))
        for _ in range(args.rounds):
            confined.append(timed(lambda: run_real(scenario, tool, binary or None)))
            unconfined.append(
                timed(lambda: run_real(scenario, tool, binary or None, unconfined=True))
            )
            with mock.patch.object(session, "wrap_hooks", _unwrapped):
                bare.append(timed(lambda: run_real(scenario, tool, binary or None)))
    c, u, b = (statistics.median(x) for x in (confined, unconfined, bare))
    print(
        f"{tool}, median of {args.rounds} rounds: confined {c:.2f}s, unconfined {u:.2f}s,"
        f" without the recorder {b:.2f}s"
    )
    print(f"  confinement: confined / unconfined {c / u:.3f} (aim: within 1.15)")
    print(f"  recorder: with / without {c / b:.3f} (aim: within 1.05)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
