"""A real OpenClaw run (``hooksim run --real openclaw``): its hooks live in its own process, so a
run has no hook process to record; a spy plugin records every handler from inside instead.

- ``driver``: the run itself (``run``), a gateway or ``openclaw agent --local`` per turn;
- ``spy``: the spy (``openclaw_spy/``) in front of the scenario's plugins, and the config;
- ``result``: what the spy wrote, read as a ``RunResult``;
- ``compare``: a real run against hooksim's replay, firing by firing (``compared``), with what
  the probe saw of each on both sides (``observed``), and the differences the replay does not
  reproduce yet (``KNOWN_DIFFERENCES``).

The ``real`` stage reaches this through ``hosts.part``; it imports that stage's modules.
"""

from __future__ import annotations

from collections import Counter

from ....real.result import RealRun
from ....replay.runner import RunResult
from ....scenario import Scenario
from ...profile import Host
from . import compare
from .driver import OpenClawDriver, run_openclaw
from .observed import KNOWN_DIFFERENCES

DRIVER = OpenClawDriver
run = run_openclaw  # a run of its own, not a RealSession: its hooks are in its process


def compared(
    real: RealRun, scenario: Scenario, host: Host
) -> tuple[RunResult, Counter[tuple[str, str, str]], float]:
    """hooksim's replay of ``scenario``, its differences from ``real`` with their counts, and
    the seconds the replay took."""
    replay, records, seconds = compare.replay(scenario, host)
    found = compare.differences(real.result, replay, (real.records, records))
    return replay, Counter(found), seconds


__all__ = ["DRIVER", "KNOWN_DIFFERENCES", "compared", "run"]
