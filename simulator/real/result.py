"""A real run's ``RunResult``: what the recorder, the probes and the fake model saw, as hooksim
records its replays, so the same ``expect:`` block judges it.

``build_result`` makes one ``HookRun`` per recorded hook process and one ``Firing`` per probe
record, and reads what the host made of a hook's output rather than assuming it: context is
what the fake model was sent that holds a hook's text (in the host's own wrapping, as sent),
and a firing blocked (or continued) by its hooks is read from what the host did next.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..hosts import Firing, HookRun, HookSpec, Host, readings
from ..hosts.conversation import Message
from ..hosts.records import fault_of
from ..replay.project import project_hooks, seed
from ..replay.runner import RunResult
from ..replay.workspace import Workspace
from ..scenario import Scenario
from .driver import After, driver_of
from .hook_recorder import PROBE
from .models.server import DIALECTS
from .observable import payload_of


@dataclass
class RealRun:
    """One scenario run on a real host: the result ``expect`` judges, and the raw record."""

    result: RunResult
    records: list[dict[str, Any]]
    requests: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)
    version: str = ""
    seconds: float = 0.0
    launch_env: dict[str, str] = field(default_factory=dict)
    host_output: list[dict[str, Any]] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)  # seconds per stage, where timed


def build_result(
    scenario: Scenario,
    host: Host,
    records: list[dict[str, Any]],
    requests: list[dict[str, Any]],
    ledger: Path,
    *,
    shown: Sequence[tuple[int, str]] = (),
) -> RunResult:
    """A ``RunResult`` from a real run's records: firings from the probes, runs from the hooks,
    context from what reached the model (as the host wrapped it), blocks from what the host did
    next, and what the host showed its user (``shown``: turn and text, where its output says)
    on the firing whose hook said it."""
    result = RunResult(scenario, host_title=f"{host.title} (real)")
    where = _registered(host, result)
    firings = _probed_firings(records)
    placed: list[tuple[Firing, HookRun, dict[str, Any]]] = []  # each hook with its firing
    for record in records:
        if record["id"] == PROBE:
            continue
        run = hook_run(record)
        _read(host, run, where.get(str(record["id"])))
        result.runs.append(run)
        firing = _firing_of(record, firings)
        if firing is not None:
            firing.runs.append(run)
            reached = _reached_model(host, record, requests)
            run.context = "\n".join(reached) or None
            firing.context += reached
            placed.append((firing, run, record))
    ordered = [f for f, _ in firings]
    _attach_shown(shown, placed, ordered)
    for i, (firing, probe) in enumerate(firings):
        firing.blocked = _continued(
            host, firing, probe, ordered[i + 1 :], requests, firings[i + 1 :]
        )
    result.firings = ordered
    result.calls = [json.loads(line) for line in ledger.read_text(encoding="utf-8").splitlines()]
    return result


def _probed_firings(records: list[dict[str, Any]]) -> list[tuple[Firing, dict[str, Any]]]:
    """A firing for each probe record (the probe runs on every event), with its record."""
    firings = []
    for record in records:
        if record["id"] != PROBE:
            continue
        payload = payload_of(record)
        keys = ("source", "trigger", "tool_name", "reason")
        match = next((str(payload[k]) for k in keys if payload.get(k) is not None), None)
        step = str(record.get("step", ""))
        firing = Firing(record["turn"], record["event"], _virtual(record), match=match, step=step)
        firings.append((firing, record))
    return firings


def _firing_of(
    record: dict[str, Any], firings: list[tuple[Firing, dict[str, Any]]]
) -> Firing | None:
    """The firing a hook's record belongs to: the probe of its event given the same input,
    nearest in time; else (a sequential run changed the input, as Gemini CLI does: the probe
    runs last) the nearest of its event and turn that started after it."""
    same = [
        (f, p)
        for f, p in firings
        if p["event"] == record["event"] and p["stdin"] == record["stdin"]
    ]
    if not same:
        same = [
            (f, p)
            for f, p in firings
            if p["event"] == record["event"]
            and p["turn"] == record["turn"]
            and p["start"] >= record["start"]
        ]
    if not same:
        return None
    return min(same, key=lambda fp: abs(fp[1]["start"] - record["start"]))[0]


def _attach_shown(
    shown: Sequence[tuple[int, str]],
    placed: list[tuple[Firing, HookRun, dict[str, Any]]],
    ordered: list[Firing],
) -> None:
    """What the host showed its user at a turn, on the hook run whose output says it, else on
    the turn's first firing."""
    for turn, text in shown:
        said = next(
            (
                (f, r)
                for f, r, record in placed
                if f.turn == turn and any(t in text for t in hook_texts(record))
            ),
            None,
        )
        if said is not None:
            said[0].shown.append(text)
            said[1].shown = text
        elif any(f.turn == turn for f in ordered):
            next(f for f in ordered if f.turn == turn).shown.append(text)


def hook_run(record: dict[str, Any]) -> HookRun:
    """A recorded hook process as a replay's ``HookRun``: killed where the host (or its
    account) says so, or where a recorder that ran it never saw it end."""
    killed = "killed" in record or (record.get("end") is None and "watched" not in record)
    run = HookRun(
        record["turn"],
        record["event"],
        str(record.get("command")),
        _virtual(record),
        exit_code=record.get("exit"),
        stdout=str(record.get("stdout") or ""),
        stderr=str(record.get("stderr") or ""),
        duration_s=(record.get("end") or time.time()) - record["start"],
        timed_out=killed,
        step=str(record.get("step", "")),
        stdin=str(record.get("stdin") or "").encode(),
    )
    run.spawn_error = record.get("spawn_error")  # the host could not start it
    return run


def _registered(host: Host, result: RunResult) -> dict[str, HookSpec]:
    """The hooks as the host registers them (so the built-in checks judge a real run as they
    judge a replay: the scenario's, and those of the project files it seeds, each with its
    file and line), by the id the recorder gives each (``wrapping``)."""
    scenario = result.scenario
    result.specs, result.warnings = host.parse_hooks(scenario.hooks)
    installed = host.default_hooks()
    if installed is not None and scenario.hooks == installed[0]:
        # The host's default hooks (``with_hooks``) stand in for the scenario's, as in a replay.
        result.specs = [replace(s, layer="config") for s in result.specs]
    where = {_hook_id(spec): spec for spec in result.specs}
    seeded = [
        (k, f.path) for k, f in enumerate(scenario.files.files) if f.path in host.project_configs
    ]
    if not seeded:
        return where
    with tempfile.TemporaryDirectory(prefix="hooksim-project-") as tmp:
        space = Workspace(Path(tmp))  # the files as written, before the recorder took its place
        space.create()
        seed(scenario, space)
        for k, name in seeded:
            specs, said = project_hooks(host, scenario, space, len(result.specs), names=(name,))
            result.specs += specs
            result.warnings += said
            where.update({f"project{k}.{_hook_id(spec)}": spec for spec in specs})
    return where


def _read(host: Host, run: HookRun, spec: HookSpec | None) -> None:
    """The profile's reading of a real hook run (its verdict and fault), as a replay reads it."""
    run.spec = spec
    verdict = host.read(run.event, run)
    run.verdict, run.fault = verdict.note, fault_of(run, verdict)


def _hook_id(spec: HookSpec) -> str:
    """The id the recorder gives a settings hook (``wrapping``): ``Event.G.H``, Hermes'
    ``event.I``."""
    return ".".join(str(k) for k in spec.where if k != "hooks")


def sent_per_turn(dialect: str, requests: list[dict[str, Any]]) -> dict[int, Sequence[Message]]:
    """What the model was sent at each turn: the conversation of the turn's last main-loop
    request, read from the fake model's request log as the host's API lists it."""
    reader = DIALECTS[dialect]()
    sent: dict[int, Sequence[Message]] = {}
    for request in requests:
        body = request.get("body")
        if request.get("kind") == "main" and isinstance(body, dict):
            sent[int(request.get("turn", 0))] = tuple(reader.dialogue(body))
    return sent


def _virtual(record: dict[str, Any]) -> int:
    value = record.get("virtual_ms")
    return int(value) if isinstance(value, (int, float)) else int(record["start"] * 1000)


def _reached_model(host: Host, record: dict[str, Any], requests: list[dict[str, Any]]) -> list[str]:
    """What the model was given of the hook's texts: each string of a model request sent after
    the hook started that holds one of them, as the host wrapped it (a tool's error result,
    Codex's ``<hook_prompt>``), once. A string is read as the model reads it: inside a JSON
    string (Hermes' ``{"error": …}`` tool result), un-escaped inside ``<hook_prompt>``. Hermes
    only logs a failed hook's stderr: it is never offered to the model."""
    later = [r for r in requests if r.get("at", 0) >= record["start"] and r.get("body")]
    sent = [(s, readings(s)) for r in later for s in all_strings(r["body"])]
    given: list[str] = []
    for text in hook_texts(record, stderr_on_exit_2=host.stderr_reaches_model):
        holder = next((s for s, read in sent if any(text in r for r in read)), None)
        if holder is not None and holder not in given:
            given.append(holder)
    return given


def _continued(  # noqa: PLR0917
    host: Host,
    firing: Firing,
    probe: dict[str, Any],
    after: list[Firing],
    requests: list[dict[str, Any]],
    later: list[tuple[Firing, dict[str, Any]]],
) -> bool:
    """Whether the host did what a block (or a continue request) of this firing does: read by
    the host's driver where it shows it its own way (``Driver.blocked``), else by what came next
    in the turn."""
    ev = host.events
    if firing.event not in host.blocking and firing.event != ev["stop"]:
        return False  # nothing its hooks say can stop it
    same_turn = [f for f in after if f.turn == firing.turn]
    end = next((p["start"] for f, p in later if f.turn != firing.turn), float("inf"))
    model_after = [
        r for r in requests if r.get("kind") == "main" and probe["start"] <= r.get("at", 0) < end
    ]
    seen = After(same_turn, model_after, requests, later)
    driver = driver_of(host)
    own = driver.blocked(host, firing, probe, seen) if driver is not None else None
    if own is not None:
        return own
    if firing.event == ev["stop"]:
        return bool(model_after)  # blocked or continued: the model was asked again in this turn
    if firing.event == ev["prompt_submit"]:
        return not model_after and not any(f.event == ev["stop"] for f in same_turn)
    if firing.event == ev["pre_tool"]:
        nxt = next((f for f in same_turn if f.event in (ev["pre_tool"], ev["post_tool"])), None)
        return nxt is None or nxt.event != ev["post_tool"]
    if firing.event == ev["pre_compact"]:
        summary = [
            r for r in requests if r.get("kind") == "summary" and r.get("at", 0) >= probe["start"]
        ]
        return not summary and not any(f.event == ev["post_compact"] for f in same_turn)
    return False


def all_strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON value (what a request body says, wherever it says it)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from all_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from all_strings(item)


def hook_texts(record: dict[str, Any], *, stderr_on_exit_2: bool = True) -> list[str]:
    """What a hook offered the host to pass on: its JSON's context, reasons and messages, its
    plain stdout, and its stderr after an exit other than 0 and 1 (an exit 2's reason; Gemini
    CLI denies with the text of any exit but 0 and 1), each whole."""
    texts: list[str] = []
    stdout = str(record.get("stdout") or "").strip()
    try:
        output = json.loads(stdout) if stdout.startswith("{") else None
    except ValueError:
        output = None
    if isinstance(output, dict):
        specific = output.get("hookSpecificOutput")
        if isinstance(specific, dict):
            texts += [
                str(specific.get(k) or "")
                for k in ("additionalContext", "permissionDecisionReason")
            ]
        texts += [
            str(output.get(k) or "")
            for k in (
                "reason",
                "systemMessage",
                "followup_message",
                "context",
                "message",
                "agent_message",
                "stopReason",
            )
        ]
    elif stdout:
        texts.append(stdout)
    if record.get("exit") not in (0, 1, None) and stderr_on_exit_2:
        texts.append(str(record.get("stderr") or "").strip())
    return [t for t in texts if t.strip()]
