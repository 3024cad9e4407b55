"""The differences between a real host's run of a scenario and hooksim's replay of it.

Both sides run the same hooks behind the same recorder (``hook_recorder``) with a probe on
every event, so both are compared as recorded, process by process, on everything a hook can
observe (values that differ by nature are mapped first, ``observable``):

- ``events/turn N``: the events fired in the turn, in order;
- ``payload/EVENT/FIELD``: fields a payload has on one side only, or values that differ once
  mapped; ids by the rank of their first appearance, so ``<tool_use_id 2>`` on one side and
  ``<tool_use_id 1>`` on the other says the firings share ids differently;
- ``order/EVENT/PATH``: the keys of a payload object in another order;
- ``stdin/EVENT/ASPECT``: how the bytes are written (separators, lines, what follows the
  JSON, non-ASCII, ``/``);
- ``env/NAME``: every variable the host adds to, changes in or removes from the environment
  it was started with (a PATH prefix as ``"PREFIX" + $PATH``);
- ``hooks/EVENT``: which hooks ran for the firing; per hook (``ID`` as the recorder names it)
  ``shell/ID``, ``command/ID`` (the command line the shell got), ``argv/ID``, ``cwd/ID``,
  ``exit/ID`` (its exit status, or how the host stopped it), ``order/EVENT`` (the order hooks
  that ran one after another started in);
- ``context/turn N``: hook output that reached the model in the turn, paragraph by paragraph,
  found in what each side gave the model (the real fake model's requests, the replay's
  context, block reasons and follow-ups) by the same detector;
- ``shown/turn N``: what the host showed its user from the hooks, where its output says;
- ``blocked/EVENT``: firings the host treated as blocked (or continued) by their hooks.

A profile declares the differences it accepts, each with its reason
(``Host.real_tolerances``: a pattern over the keys above); only the others fail a comparison.
A tolerance is for what hooksim cannot reproduce, never for a constant or a derived value.
"""

from __future__ import annotations

import fnmatch
import json
import re
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..hosts import HookRun, Host, contains, get_host, part
from ..replay.runner import RunResult, run_scenario
from ..replay.workspace import Workspace, replay_environment
from ..scenario import Scenario
from .hook_recorder import PROBE, PROBE_MARK, read_records
from .observable import (
    Observer,
    command_of,
    environment_changes,
    install_root,
    key_orders,
    payload_of,
    same_occurrences,
    shell_of,
    stdin_format,
)
from .result import RealRun, hook_texts
from .session import DRIVERS, find_binary, run_real, with_hooks
from .wrapping import recorded_id, wrap_hooks, wrap_seeded_configs, wrapped_plugin_folders

Add = Callable[[str, str, str], None]


@dataclass(frozen=True)
class Side:
    """One run as the comparison sees it."""

    records: list[dict[str, Any]]
    result: RunResult
    workdir: Path
    base_env: dict[str, str]  # the environment the host (or hooksim) itself started with
    install: str = ""  # the folder the host is installed in (a replay's stand-in)
    roots: tuple[str, ...] = ()  # other folders of the run (a replay's recorder folder)
    version: str = ""  # the host's release, as it names itself (a replay: the profile's)
    # The host's own verdict on each hook run, firing by firing (``Driver.account``), if any.
    account: list[tuple[str, list[str]]] | None = None
    aliases: tuple[str, ...] = ()  # other folders that read as <install> (``Observer``)

    def observer(self, host: Host) -> Observer:
        names: dict[str, tuple[str, str]] = getattr(host, "run_time_names", {})
        roots = (str(self.workdir), *self.roots)
        return Observer(
            self.records,
            roots,
            self.install,
            dict(names),
            version=self.version,
            aliases=self.aliases,
        )


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


def _field_differences(real: Any, sim: Any, prefix: str = "") -> Any:
    """Each field whose values differ, nested objects by their own fields (``extra.result``),
    and two conversations of the same roles message by message (``history[2 tool].content``),
    so that a profile can accept what a tool that really ran put in its message."""
    for name in list(real) + [k for k in sim if k not in real]:
        rv, sv = real.get(name, _ABSENT), sim.get(name, _ABSENT)
        if isinstance(rv, dict) and isinstance(sv, dict):
            yield from _field_differences(rv, sv, f"{prefix}{name}.")
        elif _same_roles(rv, sv):
            for i, (rm, sm) in enumerate(zip(rv, sv, strict=True)):
                yield from _field_differences(rm, sm, f"{prefix}{name}[{i} {rm['role']}].")
        elif rv != sv:
            yield f"{prefix}{name}", rv, sv


def _same_roles(real: Any, sim: Any) -> bool:
    """Two conversations (lists of messages with a ``role``) whose roles match one for one."""
    if not isinstance(real, list) or not isinstance(sim, list) or len(real) != len(sim):
        return False
    return all(
        isinstance(r, dict)
        and isinstance(s, dict)
        and isinstance(r.get("role"), str)
        and r.get("role") == s.get("role")
        for r, s in zip(real, sim, strict=True)
    )


def _show(value: Any) -> str:
    if value is _ABSENT:
        return "absent"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."


def _show_pair(real: Any, sim: Any) -> tuple[str, str]:
    """Two values as shown; two long texts from a little before where they part."""
    if not (isinstance(real, str) and isinstance(sim, str)) or max(len(real), len(sim)) <= 100:
        return _show(real), _show(sim)
    pairs = zip(real, sim, strict=False)
    same = next((i for i, (a, b) in enumerate(pairs) if a != b), min(len(real), len(sim)))
    start = max(0, same - 30)
    lead = "…" if start else ""
    return lead + _show(real[start:]), lead + _show(sim[start:])


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


def _events(records: list[dict[str, Any]]) -> str:
    return " ".join(r["event"] for r in records) or "none"


def _settled(records: list[dict[str, Any]], host: Host) -> list[str]:
    """The turn's firings by name (``EVENT(trigger)`` where the payload names a trigger), each
    pair the host races (``Host.races``) put in one order: its order is no one's to settle."""
    names = [_firing_name(r) for r in records]
    for i in range(len(names) - 1):
        if (names[i + 1], names[i]) in host.races:
            names[i], names[i + 1] = names[i + 1], names[i]
    return names


def _firing_name(record: dict[str, Any]) -> str:
    trigger = payload_of(record).get("trigger")
    return f"{record['event']}({trigger})" if isinstance(trigger, str) else record["event"]


def _pairs(real: Side, sim: Side) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Probe records of the same firing on both sides: same turn, event and occurrence."""
    real_turns, sim_turns = _by_turn(_probes(real)), _by_turn(_probes(sim))
    return [
        pair
        for turn in sorted(set(real_turns) & set(sim_turns))
        for pair in same_occurrences(real_turns[turn], sim_turns[turn], lambda r: r["event"])
    ]


class _Found:
    """The differences found so far, each once with its count."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, str, str], int] = {}

    def add(self, key: str, real_value: str, sim_value: str) -> None:
        found = (key, real_value, sim_value)
        self.counts[found] = self.counts.get(found, 0) + 1

    def differences(self, host: Host) -> list[Difference]:
        diffs = [
            Difference(key, rv, sv, n, _tolerance(host, key))
            for (key, rv, sv), n in self.counts.items()
        ]
        return sorted(diffs, key=lambda d: (d.tolerated is not None, d.key))


def differences(real: Side, sim: Side, host: Host) -> list[Difference]:
    """Every difference between the two runs, each once with its count, tolerances applied."""
    found = _Found()
    seen_real, seen_sim = real.observer(host), sim.observer(host)
    real_turns, sim_turns = _by_turn(_probes(real)), _by_turn(_probes(sim))
    for turn in sorted(set(real_turns) | set(sim_turns)):
        got, want = real_turns.get(turn, []), sim_turns.get(turn, [])
        if _settled(got, host) != _settled(want, host):
            found.add(f"events/turn {turn}", _events(got), _events(want))
    pairs = _pairs(real, sim)
    for r, s in pairs:
        _compare_stdin(r, s, seen_real, seen_sim, found.add)
        _compare_env(r, s, (real, seen_real), (sim, seen_sim), found.add)
    _compare_hook_processes(pairs, (real, seen_real), (sim, seen_sim), host, found.add)
    _compare_firings(real, sim, host, (seen_real, seen_sim), found.add)
    if real.account is not None:
        _compare_account(real.account, sim.result, host, found.add)
    return found.differences(host)


def _compare_account(
    account: list[tuple[str, list[str]]], replay: RunResult, host: Host, add: Add
) -> None:
    """The host's own verdict on each hook of a firing (``Driver.account``), against the
    replay's reading of the same firing's hooks (``account``/``FIRING``): the outcomes of one
    firing as a sorted list, the probe's success taken from the host's."""
    driver = DRIVERS[host.name]
    replayed: dict[str, list[list[str]]] = {}
    for firing in replay.firings:
        outcomes = sorted(driver.account_of(run) for run in firing.runs)
        replayed.setdefault(driver.account_key(firing), []).append(outcomes)
    seen: Counter[str] = Counter()
    for name, outcomes in account:
        theirs = replayed.get(name, [])
        if seen[name] >= len(theirs):
            continue  # a firing the replay lacks: the events' comparison says so
        ours = theirs[seen[name]]
        seen[name] += 1
        real = sorted(outcomes)
        if "success" in real:
            real.remove("success")  # the probe's
        if real != ours:
            add(f"account/{name}", ", ".join(real) or "none", ", ".join(ours) or "none")


def _compare_stdin(
    r: dict[str, Any], s: dict[str, Any], seen_real: Observer, seen_sim: Observer, add: Add
) -> None:
    """One firing's stdin: its fields and values, the order of its keys, how it is written."""
    event = r["event"]
    _compare_payload(f"payload/{event}", r, s, (seen_real, seen_sim), add)
    rp, sp = payload_of(r), payload_of(s)
    for path, r_keys, s_keys in key_orders(rp, sp):
        add(f"order/{event}/{path}", ", ".join(r_keys), ", ".join(s_keys))
    r_format, s_format = stdin_format(r["stdin"]), stdin_format(s["stdin"])
    for aspect in r_format.keys() & s_format.keys():
        if r_format[aspect] != s_format[aspect]:
            add(f"stdin/{event}/{aspect}", r_format[aspect], s_format[aspect])


def _compare_payload(
    key: str, r: dict[str, Any], s: dict[str, Any], seen: tuple[Observer, Observer], add: Add
) -> None:
    """The fields and values of two payloads, once mapped."""
    rp = seen[0].value(payload_of(r), record=r)
    sp = seen[1].value(payload_of(s), record=s)
    for name, rv, sv in _field_differences(rp, sp):
        add(f"{key}/{name}", *_show_pair(rv, sv))


def _compare_env(
    r: dict[str, Any],
    s: dict[str, Any],
    real: tuple[Side, Observer],
    sim: tuple[Side, Observer],
    add: Add,
) -> None:
    """What each host added to, changed in or removed from the environment it started with."""
    changes = []
    for record, (side, seen) in ((r, real), (s, sim)):
        env: dict[str, str] = record.get("env", {})
        changes.append((environment_changes(env, side.base_env), env, seen, record))
    names = sorted(set(changes[0][0]) | set(changes[1][0]))
    for name in names:
        rv, sv = (_env_change(name, ch, env, seen, rec) for ch, env, seen, rec in changes)
        if rv != sv:
            add(f"env/{name}", rv, sv)


def _env_change(
    name: str,
    changes: dict[str, tuple[str, str | None]],
    env: dict[str, str],
    seen: Observer,
    record: dict[str, Any],
) -> str:
    """How one side's host left a variable, as shown: its value, a prefix or suffix of the old
    one, unset, or as it was started with (absent, when it never had one)."""
    if name not in changes:
        return "as started" if name in env else "absent"
    how, value = changes[name]
    if value is None:
        return "unset"
    shown = _show_env(name, seen.text(value, record))
    return {"set": shown, "prefix": f"{shown} + ${name}", "suffix": f"${name} + {shown}"}[how]


def _firing_hooks(side: Side) -> dict[int, list[dict[str, Any]]]:
    """Each hook process by the probe of its firing (by ``id()``): of the probes of its event
    with the same stdin, the k-th to start for the hook's k-th run with that stdin (firings
    with one payload, such as a stop hook's continuations, come one after another, each
    running a hook once, but a hook may start before its own firing's probe); or (a
    sequential run changed its input) the next probe of its event in its turn."""
    probes = sorted(_probes(side), key=lambda p: p["start"])
    placed: dict[int, list[dict[str, Any]]] = {}
    runs: Counter[tuple[str, str, str]] = Counter()
    for record in sorted(_hooks(side), key=lambda r: r["start"]):
        same = [
            p for p in probes if p["event"] == record["event"] and p["stdin"] == record["stdin"]
        ]
        if same:
            key = (record["id"], record["event"], record["stdin"])
            probe = same[min(runs[key], len(same) - 1)]
            runs[key] += 1
        else:
            later = [
                p
                for p in probes
                if p["event"] == record["event"]
                and p["turn"] == record["turn"]
                and p["start"] >= record["start"]
            ]
            if not later:
                continue
            probe = later[0]
        placed.setdefault(id(probe), []).append(record)
    return placed


def _compare_hook_processes(
    pairs: list[tuple[dict[str, Any], dict[str, Any]]],
    real: tuple[Side, Observer],
    sim: tuple[Side, Observer],
    host: Host,
    add: Add,
) -> None:
    """Per firing, which hooks ran; per hook, how the host started it and how it ended."""
    real_hooks, sim_hooks = _firing_hooks(real[0]), _firing_hooks(sim[0])
    for r, s in pairs:
        got, want = real_hooks.get(id(r), []), sim_hooks.get(id(s), [])
        got_ids, want_ids = sorted(h["id"] for h in got), sorted(h["id"] for h in want)
        if got_ids != want_ids:
            add(f"hooks/{r['event']}", ", ".join(got_ids) or "none", ", ".join(want_ids) or "none")
        _compare_order(r["event"], got, want, _one_after_another(host, real[0], got), add)
        remaining = list(want)
        for hook in got:
            other = next((h for h in remaining if h["id"] == hook["id"]), None)
            if other is not None:
                remaining.remove(other)
                _compare_process(hook, other, real[1], sim[1], add)
                if hook["stdin"] != r["stdin"] or other["stdin"] != s["stdin"]:
                    _compare_payload(f"payload/{hook['id']}", hook, other, (real[1], sim[1]), add)


def _compare_order(
    event: str, got: list[dict[str, Any]], want: list[dict[str, Any]], sequential: bool, add: Add
) -> None:
    """Hooks the host runs one after another (``sequential``) started in the same order; hooks
    run at once start in an order no one settles, so theirs is not compared."""

    def ordered(hooks: list[dict[str, Any]]) -> list[str]:
        return [h["id"] for h in sorted(hooks, key=lambda h: h["start"])]

    if sequential and len(got) > 1 and ordered(got) != ordered(want):
        add(f"order/{event}", ", ".join(ordered(got)), ", ".join(ordered(want)))


def _one_after_another(host: Host, side: Side, hooks: list[dict[str, Any]]) -> bool:
    """Whether the host runs these hooks one after another: it never runs an event's hooks at
    once, or (Gemini CLI) a matching group of theirs says ``sequential: true``."""
    if not host.parallel:
        return True
    block = side.result.scenario.hooks
    for hook in hooks:
        event, _, rest = str(hook["id"]).partition(".")
        groups = block.get(event) if isinstance(block, dict) else None
        group = rest.partition(".")[0]
        if isinstance(groups, list) and group.isdigit() and int(group) < len(groups):
            chosen = groups[int(group)]
            if isinstance(chosen, dict) and chosen.get("sequential") is True:
                return True
    return False


def _compare_process(
    r: dict[str, Any], s: dict[str, Any], seen_real: Observer, seen_sim: Observer, add: Add
) -> None:
    """One hook process on both sides: its shell, command line, argv, cwd and how it ended."""
    hook = r["id"]
    for aspect in ("shell", "command", "argv", "cwd", "exit"):
        rv, sv = _process_aspect(aspect, r, seen_real), _process_aspect(aspect, s, seen_sim)
        if rv != sv:
            add(f"{aspect}/{hook}", rv, sv)


def _process_aspect(aspect: str, record: dict[str, Any], seen: Observer) -> str:
    """One thing about how a hook process was run, as shown."""
    if aspect == "shell":
        return " ".join(shell_of(record)) or "(none)"
    if aspect == "command":
        return seen.text(command_of(record))
    if aspect == "argv":
        return seen.text(" ".join(map(str, record.get("argv") or [])))
    if aspect == "cwd":
        return seen.text(str(record.get("cwd", "")))
    return f"killed ({record['killed']})" if "killed" in record else str(record.get("exit"))


def _compare_firings(
    real: Side, sim: Side, host: Host, seen: tuple[Observer, Observer], add: Add
) -> None:
    """What the host made of the hooks' output: context for the model, what the user was
    shown, blocks."""

    def by_turn(result: RunResult) -> dict[int, list[Any]]:
        turns: dict[int, list[Any]] = {}
        for firing in result.firings:
            if not firing.event.startswith("("):
                turns.setdefault(firing.turn, []).append(firing)
        return turns

    rt, st = by_turn(real.result), by_turn(sim.result)
    real_given, sim_given = reached_model(real, host), reached_model(sim, host)
    shows = "shown_to_user" not in host.real_not_judged
    for turn in sorted(set(rt) & set(st)):
        rc = sorted(seen[0].text(p) for c in real_given.get(turn, []) for p in paragraphs(c))
        sc = sorted(seen[1].text(p) for c in sim_given.get(turn, []) for p in paragraphs(c))
        if rc != sc:
            add(f"context/turn {turn}", _show(rc), _show(sc))
        r_shown = sorted(seen[0].text(t) for f in rt[turn] for t in f.shown)
        s_shown = sorted(seen[1].text(t) for f in st[turn] for t in f.shown)
        if shows and r_shown != s_shown:
            add(f"shown/turn {turn}", _show(r_shown), _show(s_shown))
        for f, other in same_occurrences(rt[turn], st[turn], lambda f: f.event):
            if f.blocked != other.continued:
                add(f"blocked/{f.event}", f"blocked={f.blocked}", f"blocked={other.continued}")


def reached_model(side: Side, host: Host) -> dict[int, list[str]]:
    """Per turn, each hook's own text (``result.hook_texts``) found in what the model was given
    in that turn or later, read unwrapped (``hosts.contains``): the same detector on both
    sides, so a host's wrapping (which each side records as the model got it) is no
    difference, and a multi-line reason is one text."""
    given = [(f.turn, c) for f in side.result.firings for c in f.context]
    found: dict[int, list[str]] = {}
    for record in _hooks(side):
        for text in hook_texts(record, stderr_on_exit_2=host.stderr_reaches_model):
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


def _known(known: dict[str, str], key: str) -> str | None:
    why = next((why for pattern, why in known.items() if fnmatch.fnmatch(key, pattern)), None)
    return f"known, not yet replayed: {why}" if why else None


def differences_text(diffs: list[Difference]) -> str:
    """The differences, those outside the tolerances first; a last line counts them."""
    lines = [d.line() for d in diffs]
    failing = sum(d.tolerated is None for d in diffs)
    noun = "difference" if failing == 1 else "differences"
    lines.append(f"{failing} {noun} outside the tolerances, {len(diffs) - failing} tolerated")
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
    driver = DRIVERS.get(host.name)
    # Recorded as the real run records: watched where the host's shell runs the hook; a host
    # that runs hooks without one (Hermes) is watched from inside, the replay's recorder runs it.
    watch = driver is not None and driver.watches and host.spawn == "shell"
    wrapped, hooks = wrap_hooks(host, scenario.hooks, spec, watch=watch)
    plugins, more = wrapped_plugin_folders(
        host, scenario.plugins, spec, workdir / "plugins", watch=watch
    )
    hooks.update(more)
    seeded, more = wrap_seeded_configs(host, scenario, spec, watch=watch)
    hooks.update(more)
    spec.write_text(json.dumps({"hooks": hooks, "record_dir": str(records_dir)}))
    wrapped_scenario = replace(scenario, hooks=wrapped, plugins=plugins, files=seeded.files)
    result = run_scenario(wrapped_scenario, host=host, workdir_root=workdir)
    result.runs = [r for r in result.runs if not _is_probe(r.command)]
    for firing in result.firings:
        firing.runs = [r for r in firing.runs if not _is_probe(r.command)]
    records = read_records(records_dir)
    if watch:
        replay_outcomes(records, result.runs)
    return result, records


def replay_outcomes(records: list[dict[str, Any]], runs: list[HookRun]) -> None:
    """How each watched hook run of a replay ended, from the replay's own runs (its account, as
    a host's is the real run's), paired by hook id in the order they ran."""
    ran: dict[str, list[HookRun]] = {}
    for run in runs:
        hook_id = recorded_id(run.command)
        if hook_id is not None:
            ran.setdefault(hook_id, []).append(run)
    for record in sorted(records, key=lambda r: r["start"]):
        if not record.get("watched") or record["id"] == PROBE or not ran.get(record["id"]):
            continue
        run = ran[record["id"]].pop(0)
        record.update(stdout=run.stdout, stderr=run.stderr, end=record["start"] + run.duration_s)
        if run.timed_out:
            record["killed"] = "timeout"
        else:
            record["exit"] = run.exit_code


def _is_probe(command: str) -> bool:
    return PROBE_MARK in command


def replay_side(scenario: Scenario, host: Host, workdir: Path) -> Side:
    """hooksim's replay of ``scenario`` on ``host`` as the comparison sees it: recorded, with the
    environment its hooks start from (the host stand-in's) and its stand-in install folder."""
    replay, records = replay_recorded(scenario, host, workdir)
    assert replay.workdir is not None
    on_host = scenario.on(host.name)
    space = Workspace(replay.workdir)
    base = replay_environment(on_host, space, host)
    return Side(
        records,
        replay,
        replay.workdir,
        base,
        str(space.install),
        (str(workdir),),
        getattr(host, "release", ""),
    )


def release_of(said: str) -> str:
    """The release a host's ``--version`` names (``2.1.337 (Claude Code)``: ``2.1.337``)."""
    found = re.search(r"\d+(?:\.\d+)+", said)
    return found.group(0) if found else ""


def compared_host(scenario: Scenario, tool: str) -> Host:
    """The profile the replay runs: the scenario's version and launch, and where the scenario
    leaves the launch open, the way the real host was run (Claude Code print mode, codex exec,
    gemini -p): a comparison is of one session run one way."""
    host = scenario.on(tool).profile(get_host(tool))
    if scenario.on(tool).launch is None:
        host = host.launched(DRIVERS[tool].launch)
    return host


def compare_real(
    scenario: Scenario,
    tool: str,
    binary: str | None = None,
    *,
    keep_workdir: bool = False,
    unconfined: bool = False,
) -> Comparison:
    """Run ``scenario`` on the real ``tool`` and on hooksim, and list their differences."""
    path = find_binary(tool, binary)
    own_comparison = getattr(part(get_host(tool), "real"), "compared", None)
    if own_comparison is not None:  # in-process hooks (OpenClaw), compared firing by firing
        real = run_real(scenario, tool, path, keep_workdir=keep_workdir, unconfined=unconfined)
        host = compared_host(scenario, tool)
        replay, found, seconds = own_comparison(real, scenario, host)
        if not keep_workdir and replay.workdir is not None:
            shutil.rmtree(replay.workdir, ignore_errors=True)
        # What the host's replay does not reproduce yet, each with its reason, listed as such.
        known: dict[str, str] = getattr(part(get_host(tool), "real"), "KNOWN_DIFFERENCES", {})
        diffs = [
            Difference(k, r, s, n, _tolerance(host, k) or _known(known, k))
            for (k, r, s), n in found.items()
        ]
        diffs.sort(key=lambda d: (d.tolerated is not None, d.key))
        return Comparison(real, replay, diffs, seconds)
    real = run_real(scenario, tool, path, keep_workdir=True, unconfined=unconfined)
    host = compared_host(scenario, tool)
    workdir = Path(tempfile.mkdtemp(prefix="hooksim-replay-"))
    try:
        started = time.monotonic()
        sim_side = replace(replay_side(scenario, host, workdir), aliases=(install_root(path),))
        seconds = time.monotonic() - started
        assert real.result.workdir is not None
        real_side = Side(
            real.records,
            real.result,
            real.result.workdir,
            real.launch_env,
            install_root(path),
            version=release_of(real.version),
            account=DRIVERS[tool].account(real.host_output),
        )
        diffs = differences(real_side, sim_side, host)
    finally:
        if not keep_workdir:
            shutil.rmtree(workdir, ignore_errors=True)
            if real.result.workdir is not None:
                shutil.rmtree(real.result.workdir, ignore_errors=True)
    return Comparison(real, sim_side.result, diffs, seconds)
