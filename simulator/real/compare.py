"""The differences between a real host's run of a scenario and hooksim's replay of it.

Both sides run the same hooks behind the same recorder (``hook_recorder``) with a probe on
every event, so both are compared as recorded, process by process:

- ``events/turn N``: the events fired in the turn, in order;
- ``payload/EVENT/FIELD``: fields a payload has on one side only, or values that differ once
  ids, paths and measured times are mapped (``<id>``, ``<workdir>``, ``<ms>``);
- ``stdin/EVENT``: the bytes around the JSON (a trailing newline);
- ``shell``: the program (and options) the host runs a hook command with;
- ``env/NAME``: variables the host adds to a hook's environment;
- ``context/turn N``: hook output that reached the model in the turn, paragraph by paragraph,
  found in what each side gave the model (the real fake model's requests, the replay's
  context, block reasons and follow-ups) by the same detector;
- ``blocked/EVENT``: firings the host treated as blocked (or continued) by their hooks;
- ``exit/EVENT``: a hook's exit status, which follows from what it was given.

A profile declares the differences it accepts, each with its reason
(``Host.real_tolerances``: a pattern over the keys above); only the others fail a comparison.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..hosts import Host, contains, get_host
from ..replay.runner import RunResult, run_scenario
from ..scenario import Scenario
from .hook_recorder import PROBE, read_records
from .result import hook_texts, payload_of
from .session import RealRun, run_real, with_hooks
from .wrapping import wrap_hooks

# Values that differ on every run by nature: compared by presence, not by value.
_ID_FIELDS = frozenset({"session_id", "prompt_id", "tool_use_id", "turn_id", "transcript_path",
                        "conversation_id", "generation_id"})  # fmt: skip
_TIME_FIELDS = frozenset({"timestamp", "duration_ms"})
_MAPPED_FIELDS = frozenset({"model"})  # the fake server's model name is not the scenario's
# Set by the shell that runs the hook, not by the host.
_SHELL_VARIABLES = frozenset({"PWD", "OLDPWD", "SHLVL", "_"})
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@dataclass(frozen=True)
class Side:
    """One run as the comparison sees it."""

    records: list[dict[str, Any]]
    result: RunResult
    workdir: Path
    base_env: dict[str, str]  # the environment the host (or hooksim) itself started with

    @property
    def session_ids(self) -> set[str]:
        """The session ids this side's payloads name (mapped to ``<id>`` wherever they appear)."""
        ids = {str(payload_of(r).get("session_id") or "") for r in self.records}
        return {i for i in ids if i}


@dataclass(frozen=True)
class Difference:
    key: str
    real: str
    hooksim: str
    count: int = 1
    tolerated: str | None = None  # the profile's reason, when it accepts this difference

    def line(self) -> str:
        times = f" ({self.count}x)" if self.count > 1 else ""
        head = f"{self.key}{times}: real {self.real}; hooksim {self.hooksim}"
        return f"{head}  [tolerated: {self.tolerated}]" if self.tolerated else head


def _normal(value: Any, side: Side, field: str = "") -> Any:
    """A payload value with what differs by nature mapped to a placeholder."""
    if field in _ID_FIELDS:
        return "<id>" if value else value
    if field in _TIME_FIELDS:
        return "<time>" if value is not None else value
    if field in _MAPPED_FIELDS:
        return "<model>" if value else value
    if field == "api_request_id" and isinstance(value, str):  # Hermes: <turn_id>:api:N
        return re.sub(r"^.*(?=:api:\d+$)", "<turn_id>", value)
    if isinstance(value, dict):
        return {k: _normal(v, side, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_normal(v, side) for v in value]
    if isinstance(value, str):
        text = value.replace(str(side.workdir), "<workdir>")
        for session in side.session_ids:
            text = text.replace(session, "<id>")
        return _UUID.sub("<id>", text)
    return value


def _field_differences(real: Any, sim: Any, prefix: str = "") -> Iterator[tuple[str, Any, Any]]:
    """Each field whose values differ, nested objects by their own fields (``extra.result``)."""
    for name in list(real) + [k for k in sim if k not in real]:
        rv, sv = real.get(name, _ABSENT), sim.get(name, _ABSENT)
        if isinstance(rv, dict) and isinstance(sv, dict):
            yield from _field_differences(rv, sv, f"{prefix}{name}.")
        elif rv != sv:
            yield f"{prefix}{name}", rv, sv


def _show(value: Any) -> str:
    if value is _ABSENT:
        return "absent"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."


_ABSENT = object()
# Words in a variable's name that say its value must not be printed (as the tap redacts them).
_SECRET = ("KEY", "TOKEN", "SECRET", "PASSW", "CREDENTIAL", "AUTH", "COOKIE")


def _show_env(name: str, value: Any) -> str:
    """A variable's value as shown, or ``<redacted>`` when its name looks like a secret's."""
    if value is not _ABSENT and any(word in name.upper() for word in _SECRET):
        return "<redacted>"
    return _show(value)


def _probes(side: Side) -> list[dict[str, Any]]:
    return [r for r in side.records if r["id"] == PROBE]


def _hooks(side: Side) -> list[dict[str, Any]]:
    return [r for r in side.records if r["id"] != PROBE]


def _by_turn(records: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    turns: dict[int, list[dict[str, Any]]] = {}
    for record in records:
        turns.setdefault(record["turn"], []).append(record)
    return turns


def _pairs(real: Side, sim: Side) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Probe records of the same firing on both sides: same turn, event and occurrence."""
    pairs = []
    real_turns, sim_turns = _by_turn(_probes(real)), _by_turn(_probes(sim))
    for turn in sorted(set(real_turns) & set(sim_turns)):
        seen: Counter[str] = Counter()
        sim_index: dict[tuple[str, int], dict[str, Any]] = {}
        for record in sim_turns[turn]:
            seen[record["event"]] += 1
            sim_index[(record["event"], seen[record["event"]])] = record
        seen.clear()
        for record in real_turns[turn]:
            seen[record["event"]] += 1
            other = sim_index.get((record["event"], seen[record["event"]]))
            if other is not None:
                pairs.append((record, other))
    return pairs


def _host_env(record: dict[str, Any], side: Side) -> dict[str, str]:
    env: dict[str, str] = record.get("env", {})
    return {
        k: v
        for k, v in env.items()
        if k not in side.base_env and k not in _SHELL_VARIABLES and not k.startswith("HOOKSIM_")
    }


def differences(real: Side, sim: Side, host: Host) -> list[Difference]:
    """Every difference between the two runs, each once with its count, tolerances applied."""
    found: dict[tuple[str, str, str], int] = {}

    def add(key: str, real_value: str, sim_value: str) -> None:
        found[(key, real_value, sim_value)] = found.get((key, real_value, sim_value), 0) + 1

    real_turns, sim_turns = _by_turn(_probes(real)), _by_turn(_probes(sim))
    for turn in sorted(set(real_turns) | set(sim_turns)):
        got = [r["event"] for r in real_turns.get(turn, [])]
        want = [r["event"] for r in sim_turns.get(turn, [])]
        if got != want:
            add(f"events/turn {turn}", " ".join(got) or "none", " ".join(want) or "none")

    for r, s in _pairs(real, sim):
        event = r["event"]
        rp = _normal(payload_of(r), real)
        sp = _normal(payload_of(s), sim)
        for name, rv, sv in _field_differences(rp, sp):
            add(f"payload/{event}/{name}", _show(rv), _show(sv))
        r_tail, s_tail = (
            r["stdin"][len(r["stdin"].rstrip()) :],
            s["stdin"][len(s["stdin"].rstrip()) :],
        )
        if r_tail != s_tail:
            add(f"stdin/{event}", f"ends with {r_tail!r}", f"ends with {s_tail!r}")
        renv, senv = _host_env(r, real), _host_env(s, sim)
        for name in sorted(set(renv) | set(senv)):
            rv = _normal(renv[name], real) if name in renv else _ABSENT
            sv = _normal(senv[name], sim) if name in senv else _ABSENT
            if rv != sv:
                add(f"env/{name}", _show_env(name, rv), _show_env(name, sv))

    real_shells = {" ".join(r.get("shell") or ["(none)"]) for r in _hooks(real) if "shell" in r}
    sim_shells = {" ".join(r.get("shell") or ["(none)"]) for r in _hooks(sim) if "shell" in r}
    if real_shells and sim_shells and real_shells != sim_shells:
        add("shell", ", ".join(sorted(real_shells)), ", ".join(sorted(sim_shells)))

    _compare_firings(real, sim, host, add)

    diffs = [
        Difference(key, rv, sv, n, _tolerance(host, key)) for (key, rv, sv), n in found.items()
    ]
    return sorted(diffs, key=lambda d: (d.tolerated is not None, d.key))


def _compare_firings(real: Side, sim: Side, host: Host, add: Any) -> None:
    """What the host made of the hooks' output: context for the model, blocks, exit codes."""

    def by_turn(result: RunResult) -> dict[int, list[Any]]:
        turns: dict[int, list[Any]] = {}
        for firing in result.firings:
            if not firing.event.startswith("("):
                turns.setdefault(firing.turn, []).append(firing)
        return turns

    rt, st = by_turn(real.result), by_turn(sim.result)
    real_given, sim_given = reached_model(real, host), reached_model(sim, host)
    for turn in sorted(set(rt) & set(st)):
        rc = sorted(_normal(p, real) for c in real_given.get(turn, []) for p in paragraphs(c))
        sc = sorted(_normal(p, sim) for c in sim_given.get(turn, []) for p in paragraphs(c))
        if rc != sc:
            add(f"context/turn {turn}", _show(rc), _show(sc))
        r_events = [(f.event, f) for f in rt[turn]]
        s_events = [(f.event, f) for f in st[turn]]
        seen: Counter[str] = Counter()
        s_index: dict[tuple[str, int], Any] = {}
        for event, f in s_events:
            seen[event] += 1
            s_index[(event, seen[event])] = f
        seen.clear()
        for event, f in r_events:
            seen[event] += 1
            other = s_index.get((event, seen[event]))
            if other is None:
                continue
            if f.blocked != other.continued:
                add(f"blocked/{event}", f"blocked={f.blocked}", f"blocked={other.continued}")
            r_exits = sorted(str(run.exit_code) for run in f.runs)
            s_exits = sorted(str(run.exit_code) for run in other.runs)
            if r_exits != s_exits:
                add(f"exit/{event}", ",".join(r_exits), ",".join(s_exits))


def reached_model(side: Side, host: Host) -> dict[int, list[str]]:
    """Per turn, each hook's own text (``result.hook_texts``) found in what the model was given
    in that turn or later, read unwrapped (``hosts.contains``): the same detector on both
    sides, so a host's wrapping (which each side records as the model got it) is no
    difference, and a multi-line reason is one text."""
    given = [(f.turn, c) for f in side.result.firings for c in f.context]
    found: dict[int, list[str]] = {}
    for record in _hooks(side):
        for text in hook_texts(record, stderr_on_exit_2=host.name != "hermes"):
            if any(turn >= record["turn"] and contains(c, text) for turn, c in given):
                found.setdefault(record["turn"], []).append(text)
    return found


def paragraphs(text: str) -> list[str]:
    """A text the model got, paragraph by paragraph: a multi-line reason is one item, two
    hooks' texts joined by a blank line are two."""
    return [p.strip() for p in re.split(r"\n[ \t]*\n", text) if p.strip()]


def _tolerance(host: Host, key: str) -> str | None:
    tolerances: dict[str, str] = getattr(host, "real_tolerances", {})
    return next((why for pattern, why in tolerances.items() if fnmatch.fnmatch(key, pattern)), None)


def differences_text(diffs: list[Difference]) -> str:
    """The differences, those outside the tolerances first; a last line counts them."""
    lines = [d.line() for d in diffs]
    failing = sum(d.tolerated is None for d in diffs)
    lines.append(f"{failing} differences outside the tolerances, {len(diffs) - failing} tolerated")
    return "\n".join(lines)


@dataclass
class Comparison:
    """A real run, hooksim's replay of the same session, and their differences."""

    real: RealRun
    replay: RunResult
    diffs: list[Difference]
    replay_seconds: float

    @property
    def failing(self) -> list[Difference]:
        return [d for d in self.diffs if d.tolerated is None]


def replay_recorded(
    scenario: Scenario, host: Host, workdir: Path
) -> tuple[RunResult, list[dict[str, Any]]]:
    """hooksim's replay of ``scenario`` on ``host`` with the same recorder and probes as a real
    run; probe processes are left out of the result the expectations read."""
    scenario = with_hooks(scenario.on(host.name), host)
    records_dir = workdir / "records"
    records_dir.mkdir(parents=True, exist_ok=True)
    spec = workdir / "recorder.json"
    wrapped, hooks = wrap_hooks(host, scenario.hooks, spec)
    spec.write_text(json.dumps({"hooks": hooks, "record_dir": str(records_dir)}))
    wrapped_scenario = replace(scenario, hooks=wrapped)
    result = run_scenario(wrapped_scenario, host=host, workdir_root=workdir)
    result.runs = [r for r in result.runs if not _is_probe(r.command)]
    for firing in result.firings:
        firing.runs = [r for r in firing.runs if not _is_probe(r.command)]
    return result, read_records(records_dir)


def _is_probe(command: str) -> bool:
    return f" {PROBE}." in command and "hooksim.real.hook_recorder" in command


def compare_real(
    scenario: Scenario, tool: str, binary: str | None = None, *, keep_workdir: bool = False
) -> Comparison:
    """Run ``scenario`` on the real ``tool`` and on hooksim, and list their differences."""
    real = run_real(scenario, tool, binary, keep_workdir=True)
    host = scenario.on(tool).profile(get_host(tool))
    workdir = Path(tempfile.mkdtemp(prefix="hooksim-replay-"))
    try:
        started = time.monotonic()
        replay, records = replay_recorded(scenario, host, workdir)
        seconds = time.monotonic() - started
        assert real.result.workdir is not None
        assert replay.workdir is not None
        real_side = Side(real.records, real.result, real.result.workdir, real.launch_env)
        sim_side = Side(records, replay, replay.workdir,
                        {**os.environ, **real.launch_env})  # fmt: skip
        diffs = differences(real_side, sim_side, host)
    finally:
        if not keep_workdir:
            shutil.rmtree(workdir, ignore_errors=True)
            if real.result.workdir is not None:
                shutil.rmtree(real.result.workdir, ignore_errors=True)
    return Comparison(real, replay, diffs, seconds)
