"""The differences between a real OpenClaw run and hooksim's replay of it, firing by firing.

A real OpenClaw run is recorded in its own process (``result``), a replay by hooksim's
Node runner; both come out as a ``RunResult`` whose firings carry their handler calls, so they
are compared on those (``compare.compare_real`` adds the profile's tolerances):

- ``events/turn N``: the hooks fired in the turn, in order (every hook, handled or not);
- ``handlers/EVENT``: which of the scenario's handlers ran for a firing, in order;
- ``exit/HANDLER``: whether it returned (0), threw (1) or never settled;
- ``reading/HANDLER``: what it returned, as the profile reads it ("OpenClaw reads it as ...");
- ``payload/EVENT/FIELD``: what a handler got, once the values that differ on every run by
  nature are mapped (``result.normalised``);
- ``context/turn N``: the handlers' texts that reached the model in the turn;
- ``blocked/EVENT``: firings OpenClaw treated as blocked (a tool, a run, a claimed reply) or
  sent back for another pass (``before_agent_finalize``).

Firings are paired by turn, event and occurrence, as ``compare`` pairs a shell host's probes.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

from ....hosts import Firing, Host
from ....real.observable import same_occurrences
from ....replay.runner import RunResult, run_scenario
from ....scenario import Scenario
from .result import normalised

Found = list[tuple[str, str, str]]  # (key, real, hooksim), once per occurrence


def _show(value: Any) -> str:
    if value is _ABSENT:
        return "absent"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."


_ABSENT = object()


def _by_turn(result: RunResult) -> dict[int, list[Firing]]:
    turns: dict[int, list[Firing]] = {}
    for firing in result.firings:
        if not firing.event.startswith("("):  # hooksim's own marks (a session's end)
            turns.setdefault(firing.turn, []).append(firing)
    return turns


def pairs(real: RunResult, replay: RunResult) -> Iterator[tuple[Firing, Firing]]:
    """Firings of the same turn, event and occurrence on both sides."""
    rt, st = _by_turn(real), _by_turn(replay)
    for turn in sorted(set(rt) & set(st)):
        yield from same_occurrences(rt[turn], st[turn], lambda f: f.event)


def _payload(firing: Firing, workdir: str) -> Any:
    """What the firing's handlers got (its first handler's input), mapped, the run's work
    directory as ``<workdir>``; absent without a handler."""
    if not firing.runs or not firing.runs[0].stdin:
        return _ABSENT
    text = firing.runs[0].stdin.decode("utf-8", "replace")
    try:
        return normalised(json.loads(text.replace(workdir, "<workdir>") if workdir else text))
    except ValueError:
        return _ABSENT


def _fields(real: Any, sim: Any, prefix: str = "") -> Iterator[tuple[str, Any, Any]]:
    """Each field whose values differ, nested objects by their own fields."""
    if not isinstance(real, dict) or not isinstance(sim, dict):
        if real != sim:
            yield prefix.rstrip(".") or "(event)", real, sim
        return
    for name in [*real, *(k for k in sim if k not in real)]:
        rv, sv = real.get(name, _ABSENT), sim.get(name, _ABSENT)
        if isinstance(rv, dict) and isinstance(sv, dict):
            yield from _fields(rv, sv, f"{prefix}{name}.")
        elif rv != sv:
            yield f"{prefix}{name}", rv, sv


def _firing_differences(real: Firing, sim: Firing, workdirs: tuple[str, str]) -> Found:
    found: Found = []
    event = real.event
    r_labels, s_labels = [r.command for r in real.runs], [r.command for r in sim.runs]
    if r_labels != s_labels:
        found.append((f"handlers/{event}", ", ".join(r_labels) or "none",
                      ", ".join(s_labels) or "none"))  # fmt: skip
    # Runs of the same label (one plugin's handlers of one hook) pair in their order.
    sims: dict[tuple[str, int], Any] = {}
    for run in sim.runs:
        sims[(run.command, sum(1 for key in sims if key[0] == run.command))] = run
    seen: Counter[str] = Counter()
    for run in real.runs:
        other = sims.get((run.command, seen[run.command]))
        seen[run.command] += 1
        if other is None:
            continue
        if run.exit_code != other.exit_code:
            found.append((f"exit/{run.command}", str(run.exit_code), str(other.exit_code)))
        if _reading(run.verdict) != _reading(other.verdict):
            found.append((f"reading/{run.command}", run.verdict, other.verdict))
    rp, sp = _payload(real, workdirs[0]), _payload(sim, workdirs[1])
    if rp is not _ABSENT and sp is not _ABSENT:
        for name, rv, sv in _fields(rp, sp):
            found.append((f"payload/{event}/{name}", _show(rv), _show(sv)))
    if real.blocked != sim.continued:
        found.append((f"blocked/{event}", f"blocked={real.blocked}", f"blocked={sim.continued}"))
    return found


_LATE = re.compile(r": it went on and .*$")


def _reading(verdict: str) -> str:
    """A reading without what only a replay can say (how a handler that outlived its budget
    ended, on hooksim's clock)."""
    return _LATE.sub("", verdict)


def paragraphs(texts: list[str]) -> list[str]:
    return sorted(p.strip() for t in texts for p in re.split(r"\n[ \t]*\n", t) if p.strip())


def differences(real: RunResult, replay: RunResult) -> Found:
    """Every difference between a real OpenClaw run and its replay (see the module)."""
    found: Found = []
    rt, st = _by_turn(real), _by_turn(replay)
    for turn in sorted(set(rt) | set(st)):
        got = [f.event for f in rt.get(turn, [])]
        want = [f.event for f in st.get(turn, [])]
        if got != want:
            found.append((f"events/turn {turn}", " ".join(got) or "none",
                          " ".join(want) or "none"))  # fmt: skip
        rc = paragraphs([c for f in rt.get(turn, []) for c in f.context])
        sc = paragraphs([c for f in st.get(turn, []) for c in f.context])
        if rc != sc and turn in rt and turn in st:
            found.append((f"context/turn {turn}", _show(rc), _show(sc)))
    workdirs = (str(real.workdir or ""), str(replay.workdir or ""))
    for r, s in pairs(real, replay):
        found += _firing_differences(r, s, workdirs)
    return found


def replay(scenario: Scenario, host: Host) -> tuple[RunResult, float]:
    """hooksim's replay of ``scenario`` on the OpenClaw profile ``host``, and its seconds; its
    work directory is kept (its path is mapped in the payloads): the caller removes it."""
    started = time.monotonic()
    result = run_scenario(scenario.on(host.name), host=host, keep_workdir=True)
    return result, time.monotonic() - started
