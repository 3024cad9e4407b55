"""Scenario files: YAML in, a validated ``Scenario`` out, or one ``file:line: what`` error.

A scenario is one scripted session, or several running at once (``sessions:``, as a gateway
serving several chats runs them): turns, session boundaries (``/new``), compactions, raw events
with hand-written payloads, a scripted mock bridge, and expectations, with per-host hooks and
expectations under ``hosts:`` so one session runs on every host. Every turn ends one of three
ways, and says which: a reply (``assistant: TEXT``; ``""`` is an empty reply), an interruption
(``interrupted: true``) or a failed model call (``error: 400``, another status, or a named cause
such as ``context_length``). The JSON Schema
shipped beside this module (``scenario.schema.json``) is the format's reference; editors can
validate against it.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..beneath import unsafe_entries
from ..hosts import DEFAULT_HOST, HOSTS, Host
from ..steps import (
    NewSession,
    Resume,
    Step,
)
from .document import read_document
from .errors import describe, error_path, exact_line_of, line_of, reported, schema
from .events import check_events
from .model import (
    Commit,
    HostPart,
    Scenario,
    ScenarioError,
    Seed,
    SeedFile,
    SessionPlan,
    parse_duration,
    project_path,
)
from .turns import read_steps

DEFAULT_START = "2026-06-01T09:00:00Z"
# The expectations keyed by turn, whose keys may name a step by its label instead.
TURN_KEYED = (
    "calls_by_turn",
    "fired_by_turn",
    "context_at_turn",
    "shown_to_user",
    "conversation_at_turn",
)


def load_scenario(path: str | Path) -> Scenario:
    """Read, validate and build one scenario; raise ScenarioError with ``file:line: ...``."""
    from jsonschema import Draft202012Validator

    path = Path(path)
    doc = read_document(path)
    if not isinstance(doc, dict):
        raise ScenarioError(f"{path}:1: a scenario is a mapping with 'name' and 'turns'")
    plain = json.loads(json.dumps(doc, default=str))
    errors = sorted(
        Draft202012Validator(schema()).iter_errors(plain),
        key=lambda e: list(map(str, e.absolute_path)),
    )
    if errors:
        # A missing turns: is reported last: a misspelt key (turn:) says more, on its own line.
        first = min(
            errors,
            key=lambda e: (
                not e.absolute_path and e.validator == "oneOf",
                line_of(doc, error_path(e)),
            ),
        )
        line = line_of(doc, error_path(reported(first)))
        raise ScenarioError(f"{path}:{line}: {describe(first)}")
    return _build(path, doc, plain)


Fail = Callable[[list[str | int], str], ScenarioError]


def _build(path: Path, doc: Any, data: dict[str, Any]) -> Scenario:
    """A ``Scenario`` from a document the schema accepted, after the checks it cannot make."""

    def fail(where: list[str | int], message: str) -> ScenarioError:
        return ScenarioError(f"{path}:{line_of(doc, where)}: {message}")

    clock = data.get("clock", {})
    start = _start(clock, fail)
    sessions = _sessions(data, fail, doc)
    steps = [] if sessions else read_steps(data["turns"], ["turns"], fail, doc)
    ttl = _temporary_ttl(data, fail)
    hosts = _host_parts(data, doc)
    for where, block in _expect_blocks(data, hosts):
        _check_durations(block, where, fail)
    tools = _tools(data, hosts, fail)
    every = _every_step(data, steps, sessions)
    turns = sum(not isinstance(step, (NewSession, Resume)) for _, step in every)
    _check_steps(every, tools, fail)
    _check_session_ids(data, every, fail)
    _check_expectations(data, hosts, tools, turns, fail, {s.label for _, s in every})
    plugins, per_host = _plugins(path, data, tools, fail)
    hosts = {
        name: replace(part, plugins=per_host[name]) if name in per_host else part
        for name, part in hosts.items()
    }
    _check_file_expectations(data, hosts, turns, fail)
    scenario = Scenario(
        path=path,
        name=data["name"],
        description=data.get("description", ""),
        tool=data.get("tool", DEFAULT_HOST),
        steps=tuple(steps),
        env=dict(data.get("env", {})),
        start=start,
        clock_driver=clock.get("driver", "python"),
        session=dict(data.get("session", {})),
        hooks=data.get("hooks"),
        bridge=_plans(data.get("bridge", {})),
        temporary_ttl_s=ttl,
        expect=data.get("expect", {}),
        hosts=hosts,
        timeline=data.get("timeline", "on_failure"),
        checks=data.get("checks", True),
        clock_tick=clock.get("tick", True),
        invariants=dict(data.get("invariants", {})),
        explore=dict(data.get("explore", {})),
        runs_on=tuple(tools),
        sessions=tuple(sessions),
        files=_files(path, data.get("files", {}), fail),
        plugins=plugins,
        expect_lines=_key_lines(doc, ["invariants"]) | _key_lines(doc, ["expect"]),
    )
    _check_clock_range(scenario, every, fail)
    return scenario


def _check_clock_range(
    scenario: Scenario, every: list[tuple[list[str | int], Step]], fail: Fail
) -> None:
    """Every instant of the run stays in the years a transcript can write (``datetime``'s
    1..9999, with a year to spare for a ticking clock) and hooks read as seconds since 1970."""
    low = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc).timestamp()
    high = dt.datetime(9999, 1, 1, tzinfo=dt.timezone.utc).timestamp()
    said = "a run's clock stays between 1970 and the end of 9998: move clock.start, or the step's after or clock_back"
    start = scenario.start.timestamp()
    if not low <= start < high:
        side = "is before 1970" if start < low else "is after 9998"
        shown = scenario.start.isoformat().replace("+00:00", "Z")
        raise fail(["clock", "start"], f"clock.start {shown!r} {side}: {said}")
    where = {id(step): place for place, step in every}
    for item in scenario.schedule:
        instant = start + item.clock_s
        if not low <= instant < high:
            place = where.get(id(item.step), [])
            side = "is set back to before 1970" if instant < low else "goes past the end of 9998"
            raise fail(place, f"{'/'.join(map(str, place))}: the clock {side} here: {said}")


def _every_step(
    data: dict[str, Any], steps: list[Step], sessions: list[SessionPlan]
) -> list[tuple[list[str | int], Step]]:
    """Where each step is in the file, and the step, across ``turns`` and every session's."""
    lists: list[tuple[list[str | int], Sequence[Step]]] = [(["turns"], steps)]
    lists += [(["sessions", k, "turns"], plan.steps) for k, plan in enumerate(sessions)]
    return [([*where, i], step) for where, listed in lists for i, step in enumerate(listed)]


def _check_steps(every: list[tuple[list[str | int], Step]], tools: list[str], fail: Fail) -> None:
    """Each label names one step; a resume runs only on hosts hooksim resumes; a step changes
    OpenClaw's launch only in a single OpenClaw session."""
    labelled: set[str] = set()
    not_resumed = [HOSTS[t].title for t in tools if t in HOSTS and not HOSTS[t].resumes]
    for where, step in every:
        dotted = "/".join(map(str, where))
        if step.label in labelled:
            raise fail([*where, "label"], f"{dotted}/label: {step.label!r} labels two steps")
        labelled |= {step.label} - {""}
        relaunching = len(tools) == 1 and tools[0] in HOSTS and HOSTS[tools[0]].relaunches
        if step.launch and (not relaunching or where[0] == "sessions"):
            able = " or ".join(n for n, h in HOSTS.items() if h.relaunches)
            raise fail(
                [*where, "launch"],
                f"{dotted}/launch: a step changes how the host runs (agent --local or the"
                f" gateway) in a scenario of one session that runs on {able} alone",
            )
        if isinstance(step, Resume) and not_resumed:
            resumed = " and ".join(h.title for h in HOSTS.values() if h.resumes)
            raise fail(
                where,
                f"{dotted}: resume: hooksim replays a resumed session on {resumed}, not"
                f" {', '.join(not_resumed)}",
            )


def _plugins(
    path: Path, data: dict[str, Any], tools: list[str], fail: Fail
) -> tuple[tuple[Path, ...], dict[str, tuple[Path, ...]]]:
    """``plugins:`` (the tool's) and each ``hosts.NAME.plugins``: folders beside the scenario,
    each the kind of plugin its host installs, on a host hooksim installs plugins on."""
    tool = data.get("tool", DEFAULT_HOST)
    lists: list[tuple[str, list[str | int], list[str]]] = []
    if "plugins" in data:
        lists.append((tool, ["plugins"], data["plugins"]))
    lists += [
        (name, ["hosts", name, "plugins"], part["plugins"])
        for name, part in data.get("hosts", {}).items()
        if "plugins" in part
    ]
    found: dict[tuple[str, ...], tuple[Path, ...]] = {}
    for name, where, folders in lists:
        key = ".".join(map(str, where))
        host = HOSTS[name]
        if name not in tools:  # plugins: without tool:, on a file that runs on hosts: only
            raise fail(
                where,
                f"plugins: are the plugins of the scenario's tool ({name}), which this file does"
                " not run on: add tool:, or move them under hosts.NAME.plugins",
            )
        if not host.plugin_kind:
            raise fail(
                where,
                f"{key}: hooksim does not install {host.title} plugins: {host.plugins_refused}",
            )
        found[tuple(map(str, where))] = tuple(
            _plugin_folder(path, host, folder, where=[*where, i], key=key, fail=fail)
            for i, folder in enumerate(folders)
        )
    top = found.get(("plugins",), ())
    return top, {k[1]: v for k, v in found.items() if k[0] == "hosts"}


def _plugin_folder(
    path: Path, host: Host, name: str, *, where: list[str | int], key: str, fail: Fail
) -> Path:
    """One plugin folder beside the scenario, read as ``host`` reads it."""
    folder = path.absolute().parent / name
    if not folder.is_dir():
        raise fail(where, f"{key}: {name}: no folder {folder}")
    unsafe = unsafe_entries(folder)
    if unsafe:
        entry, kind = unsafe[0]
        raise fail(
            where,
            f"{key}: {name}: {entry.relative_to(folder)} is {kind}: a plugin holds only files,"
            " folders and links",
        )
    try:
        host.read_plugin(folder)
    except ValueError as e:
        raise fail(where, f"{key}: {name}: {e}") from None
    return folder


def _check_session_ids(
    data: dict[str, Any], every: list[tuple[list[str | int], Step]], fail: Fail
) -> None:
    """Every session id the file names is a name: hosts put it in file names (transcripts)."""
    named: list[tuple[list[str | int], Any]] = []
    if "id" in data.get("session", {}):
        named.append((["session", "id"], data["session"]["id"]))
    named += [(["sessions", k, "id"], s["id"]) for k, s in enumerate(data.get("sessions", []))]
    named += [
        (where, step.session_id)
        for where, step in every
        if isinstance(step, NewSession) and step.session_id is not None
    ]
    for where, sid in named:
        text = str(sid)
        if "/" in text or "\\" in text or ".." in text or not text.isprintable():
            raise fail(
                where,
                f"session id {sid!r} is not a name: it becomes part of file names"
                " (no '/', no '..', no control characters)",
            )


def _files(path: Path, raw: dict[str, Any], fail: Fail) -> Seed:
    """``files:``: each path inside the project (or the run's HOME), each ``from:`` found
    in the scenario's folder; ``git`` true or its commits."""
    git = raw.get("git", False)
    files = tuple(
        _seed_file(path, name, value, ["files", name], fail)
        for name, value in raw.items()
        if name != "git"
    )
    _check_compatible(files, ["files"], fail)
    commits: list[Commit] = []
    for k, commit in enumerate(git.get("commits", []) if isinstance(git, dict) else []):
        where: list[str | int] = ["files", "git", "commits", k, "files"]
        seeded = [_seed_file(path, n, v, [*where, n], fail) for n, v in commit["files"].items()]
        _check_compatible(seeded, where, fail)
        for file in seeded:
            if project_path(file.path)[0]:
                raise fail(
                    [*where, file.path],
                    f"files: {file.path!r} is in the run's HOME, outside the repository",
                )
        commits.append(Commit(commit["message"], tuple(seeded)))
    return Seed(files, git is not False, tuple(commits))


def _check_compatible(files: Sequence[SeedFile], where: list[str | int], fail: Fail) -> None:
    """No entry of one ``files:`` list is inside another that is a file (its text, or a copy of
    a file): both cannot be. The later of the two is blamed."""
    order = {project_path(f.path): k for k, f in enumerate(files)}
    for k, file in enumerate(files):
        is_file = file.text is not None or (file.source is not None and not file.source.is_dir())
        if not is_file:
            continue
        home, inside = project_path(file.path)
        for other in files:
            other_home, other_inside = project_path(other.path)
            if other_home != home or inside not in other_inside.parents:
                continue
            if order[(other_home, other_inside)] > k:
                raise fail(
                    [*where, other.path], f"files: {other.path}: {inside} is a file of files: too"
                )
            raise fail(
                [*where, file.path], f"files: {file.path}: a folder of files: too ({other.path})"
            )


def _seed_file(path: Path, name: str, value: Any, where: list[str | int], fail: Fail) -> SeedFile:
    """One file of ``files:`` (text, ``{from: PATH}``, or null: deleted in a commit)."""
    try:
        project_path(name)
    except ValueError as e:
        raise fail(where, f"files: {e}") from None
    at = str(fail(where, "")).removesuffix(": ")
    if not isinstance(value, dict):
        return SeedFile(name, text=value, at=at)
    mode = None if "mode" not in value else _mode(value["mode"], [*where, "mode"], fail)
    if "text" in value:
        return SeedFile(name, text=value["text"], at=at, mode=mode)
    source = _source(path, name, value["from"], where, fail)
    if mode is not None and source.is_dir():
        raise fail([*where, "mode"], f"files: {name}: mode: sets a file's; from: names a folder")
    return SeedFile(name, source=source, at=at, mode=mode)


def _mode(value: int | str, where: list[str | int], fail: Fail) -> int:
    """``mode:`` in octal digits as chmod takes them: ``0755`` (read as 755) or ``"0755"``."""
    digits = str(value).removeprefix("0o") or "0"
    shown = "/".join(map(str, where))
    if not digits.isdigit() or any(d in "89" for d in digits):
        raise fail(where, f"{shown}: mode: {value} is not octal digits (chmod's, e.g. 0755)")
    mode = int(digits, 8)
    if mode > 0o777:
        raise fail(
            where, f"{shown}: mode: {value} is more than a file's permissions (at most 0777)"
        )
    return mode


def _source(path: Path, name: str, text: str, where: list[str | int], fail: Fail) -> Path:
    """``from:``: a file or folder in the scenario's folder (never reached through a link
    out of it), holding only files, folders and links."""
    folder = path.absolute().parent
    said = f"files: {name}: from: {text!r}"
    if text.startswith("/"):
        raise fail(
            where, f"{said} is absolute: from: names a file or folder in the scenario's folder"
        )
    if any(part == ".." for part in Path(os.path.normpath(text)).parts):
        raise fail(where, f"{said} leaves the scenario's folder (..)")
    source = folder / text
    if not os.path.lexists(source):
        raise fail(where, f"files: {name}: from: no file or folder {source}")
    real = Path(os.path.realpath(source))
    if not real.is_relative_to(os.path.realpath(folder)):
        raise fail(where, f"{said} leads out of the scenario's folder (to {real})")
    unsafe = unsafe_entries(real)
    if unsafe:
        entry, kind = unsafe[0]
        shown = Path(text, entry.relative_to(real)) if entry != real else Path(text)
        raise fail(
            where,
            f"files: {name}: from: {shown} is {kind}: only files, folders and links are copied",
        )
    return real


def _temporary_ttl(data: dict[str, Any], fail: Fail) -> float:
    """``bridge.temporary_ttl`` in seconds (0 when not given)."""
    try:
        return parse_duration(data.get("bridge", {}).get("temporary_ttl", 0))
    except ValueError as e:
        raise fail(["bridge", "temporary_ttl"], f"bridge/temporary_ttl: {e}") from None


def _host_parts(data: dict[str, Any], doc: Any) -> dict[str, HostPart]:
    """The hooks, env, expectations (and their lines), version and launch of each host under
    ``hosts:``."""
    return {
        name: HostPart(
            part.get("hooks"),
            dict(part.get("env", {})),
            dict(part.get("expect", {})),
            part.get("version"),
            part.get("launch"),
            expect_lines=_key_lines(doc, ["hosts", name, "expect"]),
        )
        for name, part in data.get("hosts", {}).items()
    }


def _key_lines(doc: Any, where: list[str | int]) -> dict[str, int]:
    """The line of each key of the mapping at ``where`` (none when there is no mapping)."""
    block = doc
    for key in where:
        block = block.get(key) if isinstance(block, dict) else None
    if not isinstance(block, dict):
        return {}
    return {str(key): line_of(doc, [*where, key]) for key in block}


def _expect_blocks(
    data: dict[str, Any], hosts: dict[str, HostPart]
) -> list[tuple[list[str | int], dict[str, Any]]]:
    """Where each ``expect:`` block is (the file's, then each host's), and the block."""
    return [(["expect"], data.get("expect", {}))] + [
        (["hosts", name, "expect"], part.expect) for name, part in hosts.items()
    ]


def _start(clock: dict[str, Any], fail: Fail) -> dt.datetime:
    """``clock.start`` as an aware instant (UTC when it names no zone)."""
    try:
        start = dt.datetime.fromisoformat(
            str(clock.get("start", DEFAULT_START)).replace("Z", "+00:00")
        )
    except ValueError:
        raise fail(
            ["clock", "start"], f"clock.start is not an ISO 8601 instant: {clock.get('start')!r}"
        ) from None
    return start if start.tzinfo is not None else start.replace(tzinfo=dt.timezone.utc)


def _sessions(data: dict[str, Any], fail: Fail, doc: Any) -> list[SessionPlan]:
    """The sessions of a ``sessions:`` file (none for a file with ``turns:``)."""
    sessions: list[SessionPlan] = []
    seen: dict[str, int] = {}
    for k, raw_session in enumerate(data.get("sessions", [])):
        sid = raw_session["id"]
        if sid in seen:
            raise fail(["sessions", k, "id"], f"session id {sid!r} is used twice")
        seen[sid] = k
        sessions.append(
            SessionPlan(
                sid,
                tuple(read_steps(raw_session["turns"], ["sessions", k, "turns"], fail, doc)),
                raw_session.get("platform", "telegram"),
                raw_session.get("model"),
                raw_session.get("cwd"),
                raw_session.get("sender", ""),
                line_of(doc, ["sessions", k]),
                None if "bridge" not in raw_session else _plans(raw_session["bridge"]),
            )
        )
    return sessions


def _tools(data: dict[str, Any], hosts: dict[str, HostPart], fail: Fail) -> list[str]:
    """The hosts the file runs on: its tool (Hermes by default) and those under ``hosts:``."""
    tool = data.get("tool", DEFAULT_HOST)
    if "tool" in data or not hosts:
        return [tool, *(h for h in hosts if h != tool)]
    if "hooks" in data and DEFAULT_HOST not in hosts:  # hosts: without tool: runs on exactly those
        raise fail(
            ["hooks"],
            "hooks: are the hooks of the scenario's tool (hermes when no tool: is given),"
            " which this file does not run on: add tool:, or move them under"
            " hosts.NAME.hooks",
        )
    return list(hosts)


def _check_expectations(  # noqa: PLR0917
    data: dict[str, Any],
    hosts: dict[str, HostPart],
    tools: list[str],
    turns: int,
    fail: Fail,
    labels: set[str],
) -> None:
    """Event names and turn numbers in ``expect:`` and each host's ``expect:``.

    On a host with its own ``expect:``, a key it names replaces the file's (as ``Scenario.on``
    merges them), so the file's key is checked only on the hosts that keep it.
    """
    expect = data.get("expect", {})
    check_events(
        tools,
        [(["expect"], [tool], _kept(expect, hosts.get(tool, HostPart()).expect)) for tool in tools]
        + [(["hosts", name, "expect"], [name], part.expect) for name, part in hosts.items()],
        _raw_events(data),
        fail,
    )
    for where, block in _expect_blocks(data, hosts):
        for key in TURN_KEYED:
            for name in (k for k in block.get(key, {}) if not k.isdigit() and k not in labels):
                raise fail(
                    [*where, key, name],
                    f"{'.'.join(map(str, where))}.{key}.{name} names no step: label a step"
                    f" (label: {name}) or give a turn number",
                )
        for key, n in _named_turns(block):
            if n > turns:
                raise fail(
                    [*where, key],
                    f"{'.'.join(map(str, where))}.{key} names turn {n}, but the scenario has {turns} turns",
                )


def _check_file_expectations(
    data: dict[str, Any], hosts: dict[str, HostPart], turns: int, fail: Fail
) -> None:
    """Each path of ``expect.files`` inside the project (or the run's HOME), its ``at_turn`` a
    turn of the scenario, its ``matches`` a regular expression."""
    for where, block in _expect_blocks(data, hosts):
        dotted = ".".join(map(str, where)) + ".files"
        for name, want in block.get("files", {}).items():
            at: list[str | int] = [*where, "files", name]
            try:
                project_path(name)
            except ValueError as e:
                raise fail(at, f"{dotted}: {e}") from None
            if want.get("at_turn", 0) > turns:
                raise fail(
                    [*at, "at_turn"],
                    f"{dotted}.{name} names turn {want['at_turn']}, but the scenario has"
                    f" {turns} turns",
                )
            if "matches" in want:
                try:
                    re.compile(want["matches"])
                except re.error as e:
                    raise fail(
                        [*at, "matches"],
                        f"{dotted}.{name}.matches: {want['matches']!r} is not a regular"
                        f" expression ({e})",
                    ) from None


def _kept(expect: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """The file's expectations a host keeps: those its own ``expect:`` does not replace."""
    return {key: value for key, value in expect.items() if key not in own}


def _plans(raw: dict[str, Any]) -> dict[str, list[str]]:
    """A bridge plan: each tool's outcomes in call order."""
    return {
        tool: [plan] if isinstance(plan, str) else list(plan)
        for tool, plan in raw.items()
        if tool != "temporary_ttl"
    }


def _check_durations(expect: dict[str, Any], where: list[str | int], fail: Any) -> None:
    """Durations inside an expect block must parse (and be in range) at load time."""
    found: list[tuple[list[str | int], Any]] = []
    if "max_duration" in expect:
        found.append((["max_duration"], expect["max_duration"]))
    window = expect.get("compactions_per_window")
    if isinstance(window, dict) and "window" in window:
        found.append((["compactions_per_window", "window"], window["window"]))
    for inner, value in found:
        try:
            parse_duration(value)
        except ValueError as e:
            raise fail([*where, *inner], f"{'/'.join(map(str, [*where, *inner]))}: {e}") from None


def _raw_events(data: dict[str, Any]) -> list[tuple[list[str | int], str]]:
    """Where each raw event step is, and its event name, in turns and sessions."""
    lists: list[tuple[list[str | int], Any]] = [(["turns"], data.get("turns", []))]
    lists += [
        (["sessions", k, "turns"], s.get("turns", []))
        for k, s in enumerate(data.get("sessions", []))
    ]
    return [
        ([*where, i, "event"], raw["event"])
        for where, raws in lists
        for i, raw in enumerate(raws)
        if isinstance(raw, dict) and "event" in raw
    ]


def _named_turns(expect: dict[str, Any]) -> list[tuple[str, int]]:
    """Every turn number an expectation names, with the expectation's key."""
    named = [("compactions_at_turns", n) for n in expect.get("compactions_at_turns", [])]
    for key in TURN_KEYED:
        named += [(key, int(n)) for n in expect.get(key, {}) if n.isdigit()]
    state = expect.get("state_file")
    if isinstance(state, dict):
        named.append(("state_file", state["written_at_turn"]))
    return named


def find_scenarios(paths: list[str | Path]) -> list[Path]:
    """Scenario files under the given files and directories (``*.yaml``, ``*.yml``), sorted."""
    found: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found.extend(
                sorted(q for q in p.rglob("*") if q.suffix in (".yaml", ".yml") and q.is_file())
            )
        else:
            found.append(p)
    return found


def line_of_key(path: Path, where: list[str | int], *, exact: bool = False) -> int:
    """The line of the key at ``where`` in a scenario file that loads (1 when not found);
    ``exact``: 0 unless every key of ``where`` is there (else the deepest one found counts)."""
    document = read_document(path)
    if exact:
        return exact_line_of(document, where) or 0
    return line_of(document, where)
