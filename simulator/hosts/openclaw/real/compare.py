"""The differences between a real OpenClaw run and hooksim's replay of it, firing by firing.

A real OpenClaw run is recorded in its own process (``result``), a replay by hooksim's
Node runner; both come out as a ``RunResult`` whose firings carry their handler calls, so they
are compared on those (``compare.compare_real`` adds the profile's tolerances):

- ``events/turn N``: the hooks fired in the turn, in order (every hook, handled or not);
- ``handlers/EVENT``: which of the scenario's handlers ran for a firing, in order;
- ``exit/HANDLER``: whether it returned (0), threw (1) or never settled;
- ``reading/HANDLER``: what it returned, as the profile reads it ("OpenClaw reads it as ...");
- ``payload/EVENT/FIELD``, ``ctx/EVENT/FIELD``: the event and the context every firing's
  first handler got, key by key (present with the value ``undefined`` counts), as the probe
  recorded them on both sides, once the values that differ on every run by nature are mapped
  (``observed``, ``result.normalised``); ``last/EVENT/FIELD`` what its last handler got;
- ``events/turn N (priority -1000)``: the hooks whose last handler ran, in order;
- ``register/PLUGIN``: how many times OpenClaw called the probe's ``register()``, per process;
- ``context/turn N``: the handlers' texts that reached the model in the turn;
- ``blocked/EVENT``: firings OpenClaw treated as blocked (a tool, a run, a claimed reply) or
  sent back for another pass (``before_agent_finalize``).

Firings are paired by turn, event and occurrence, as ``compare`` pairs a shell host's probes.
The replay runs with the same probe plugin as the real run (``replay``), so both sides record
what a handler observes in the same way.
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from ....hosts import Firing, Host
from ....real.observable import same_occurrences
from ....replay.runner import RunResult, run_scenario
from ....scenario import Scenario
from . import observed, spy

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


def _firing_differences(real: Firing, sim: Firing) -> Found:
    found: Found = []
    event = real.event
    r_labels, s_labels = [r.command for r in real.runs], [r.command for r in sim.runs]
    if r_labels != s_labels:
        found.append(
            (f"handlers/{event}", ", ".join(r_labels) or "none", ", ".join(s_labels) or "none")
        )
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


def differences(
    real: RunResult,
    replay: RunResult,
    probes: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], []),
) -> Found:
    """Every difference between a real OpenClaw run and its replay (see the module), the
    probe's records of each (``probes``) read beside them."""
    found: Found = []
    rt, st = _by_turn(real), _by_turn(replay)
    for turn in sorted(set(rt) | set(st)):
        got = [f.event for f in rt.get(turn, [])]
        want = [f.event for f in st.get(turn, [])]
        if got != want:
            found.append((f"events/turn {turn}", " ".join(got) or "none", " ".join(want) or "none"))
        rc = paragraphs([c for f in rt.get(turn, []) for c in f.context])
        sc = paragraphs([c for f in st.get(turn, []) for c in f.context])
        if rc != sc and turn in rt and turn in st:
            found.append((f"context/turn {turn}", _show(rc), _show(sc)))
    for r, s in pairs(real, replay):
        found += _firing_differences(r, s)
    return found + _observed_differences(real, replay, probes)


def _observed_differences(
    real: RunResult, replay: RunResult, probes: tuple[list[dict[str, Any]], list[dict[str, Any]]]
) -> Found:
    """What the probe saw at both ends of every firing, and how often plugins registered."""
    workdirs = (str(real.workdir or ""), str(replay.workdir or ""))
    r_fires, s_fires = (
        observed.attach(real.firings, probes[0]),
        observed.attach(replay.firings, probes[1]),
    )
    paired = [
        (r_fires[id(r)], s_fires[id(s)])
        for r, s in pairs(real, replay)
        if id(r) in r_fires and id(s) in s_fires
    ]
    found: Found = []
    for r, s in paired:
        found += observed.firing_differences(r, s, workdirs)
    found += observed.last_differences(paired, probes[0], probes[1], workdirs, found)
    r_order = observed.last_order(real.firings, r_fires, probes[0])
    s_order = observed.last_order(replay.firings, s_fires, probes[1])
    for turn in sorted(set(r_order) | set(s_order)):
        got, want = r_order.get(turn, []), s_order.get(turn, [])
        if got != want:
            found.append(
                (
                    f"events/turn {turn} (priority -1000)",
                    " ".join(got) or "none",
                    " ".join(want) or "none",
                )
            )
    if probes[0] and probes[1]:
        r_loads, s_loads = observed.registrations(probes[0]), observed.registrations(probes[1])
        if r_loads != s_loads:
            found.append((f"register/{spy.PROBE_ID}", r_loads, s_loads))
    return found


def replay(scenario: Scenario, host: Host) -> tuple[RunResult, list[dict[str, Any]], float]:
    """hooksim's replay of ``scenario`` on the OpenClaw profile ``host`` with the probe plugin
    loaded first, as in a real run; its result without the probe's handlers, the probe's
    records and the seconds it took. Its work directory is kept (its path is mapped in the
    payloads): the caller removes it."""
    started = time.monotonic()
    on_host = scenario.on(host.name)
    with tempfile.TemporaryDirectory(prefix="hooksim-probe-") as folder:
        log = Path(folder) / "calls.jsonl"
        probed = replace(
            on_host,
            hooks=with_probe(on_host.hooks),
            env={**on_host.env, "HOOKSIM_OPENCLAW_LOG": str(log)},
        )
        result = run_scenario(probed, host=host, keep_workdir=True)
        records = observed.read_probe(log)
    result.scenario = on_host
    mine = f"{spy.PROBE_ID}:"
    result.runs = [r for r in result.runs if not r.command.startswith(mine)]
    for firing in result.firings:
        firing.runs = [r for r in firing.runs if not r.command.startswith(mine)]
    result.specs = [s for s in result.specs if not s.command.startswith(mine)]
    return result, records, time.monotonic() - started


def with_probe(block: Any) -> dict[str, Any]:
    """A scenario's OpenClaw hooks block with the probe plugin loaded first, as the real run's
    config has it (``spy.config``)."""
    given = dict(block) if isinstance(block, dict) else {}
    plugins = dict(given.get("plugins") or {})
    load = dict(plugins.get("load") or {})
    load["paths"] = [str(spy.SPY / "probe"), *(load.get("paths") or [])]
    entries = dict(plugins.get("entries") or {})
    entries[spy.PROBE_ID] = {"enabled": True, "hooks": {"allowConversationAccess": True}}
    plugins.update(load=load, entries=entries)
    if isinstance(plugins.get("allow"), list):
        plugins["allow"] = [spy.PROBE_ID, *plugins["allow"]]
    return {**given, "plugins": plugins}
