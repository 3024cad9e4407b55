"""A real OpenClaw run's ``RunResult``, from what the probe and the wrapped handlers recorded.

The call log (``openclaw_spy/record.mjs``) holds, in the order they happened in OpenClaw's
process, a ``fire`` record per hook firing and a ``call`` record per call of one of the
scenario's handlers (merged here with its ``returned`` and ``settled`` records). Each firing
becomes a ``Firing``, each call a ``HookRun`` of the firing before it: what it got is its
stdin (the event as JSON), what it returned its stdout (JSON; empty for ``undefined``), a throw
or a rejection its stderr and exit 1, and a handler that never settled is ``timed_out`` with no
exit. What OpenClaw did with a handler's result is read from what happened next, not from the
rules: a text it returned is context when a later model request holds it, a tool call is
blocked when its result says so, a run is stopped when no model call follows.

``compare_records`` turns the same log into the records ``compare.differences`` reads (a probe
record per firing, a record per handler text), with the values that differ on every run by
nature mapped to placeholders, so a real run and a replay that wrote the same log compare.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ....hosts import Firing, HookRun, Host, readings
from ....hosts.records import fault_of
from ....real.hook_recorder import PROBE
from ....real.result import all_strings
from ....replay.runner import RunResult
from ....scenario import Scenario

COMPACTION_START = ("session:compact:before", "before_compaction")
COMPACTION_END = ("after_compaction", "session:compact:after")
_SUMMARY_CALL = ("model_call_started", "model_call_ended")
TOOL_HOOKS = ("before_tool_call", "after_tool_call", "tool_result_persist")


def read_log(path: Path, compaction_turn: dict[int, int] | None = None) -> list[dict[str, Any]]:
    """The log's firings and calls in order, each call with how it ended; the compaction a
    forced auto compaction step caused is given to that step (``compaction_turn``: the turn
    that hosted it -> the step; see ``_move_compaction``)."""
    if not path.exists():
        return []
    records: list[dict[str, Any]] = []
    calls: dict[int, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        kind = record.get("kind")
        if kind in ("fire", "call", "register", "last", "loaded"):
            records.append(record)
            if kind == "call":
                calls[record["id"]] = record
        elif kind in ("returned", "settled") and record.get("id") in calls:
            call = calls[record["id"]]
            call.update({k: v for k, v in record.items() if k not in ("kind", "seq", "turn")})
            call["settled"] = kind == "settled" or call.get("settled", False)
    for turn, step in (compaction_turn or {}).items():
        _move_compaction(records, turn, step)
    return records


def _move_compaction(records: list[dict[str, Any]], turn: int, step: int) -> None:
    """Give a forced auto compaction all of its records: the probe already counts its
    compaction hooks at the ``step`` (the driver announces it beside the turn), and this adds
    the ``agent:bootstrap`` OpenClaw fires just before each attempt (the summariser's) and the
    summariser's model call inside it, which belong to the same compaction."""
    del turn  # the probe already knows which turn hosted it
    mine = [r for r in records if r["kind"] in ("fire", "call")]
    for i, record in enumerate(mine):
        if record.get("turn") != step or record["kind"] != "fire":
            continue
        if record["name"] not in (*COMPACTION_START, *COMPACTION_END):
            continue
        j = i - 1
        while j >= 0 and mine[j]["kind"] == "call":
            j -= 1
        if j >= 0 and mine[j]["name"] == "agent:bootstrap" and mine[j].get("turn") != step:
            for moved in mine[j:i]:
                moved["turn"] = step
        k = i + 1
        while k < len(mine) and (mine[k]["kind"] == "call" or mine[k]["name"] in _SUMMARY_CALL):
            if mine[k]["name"] in _SUMMARY_CALL:
                mine[k]["turn"] = step
            k += 1


# What OpenClaw logs when a handler outlives its budget (the call goes on: the probe sees it end).
_TIMED_OUT = re.compile(r"\[hooks\] (\S+) handler from (\S+) failed: timed out after (\d+)ms")


def mark_timeouts(records: list[dict[str, Any]], stderr: Path) -> None:
    """Mark the calls OpenClaw gave up on: each line it logged for a hook and plugin goes to
    the first call of that handler not yet marked that ran longer than the budget (or never
    ended), as ``timed_out_ms``."""
    text = stderr.read_text(encoding="utf-8", errors="replace") if stderr.exists() else ""
    for hook, plugin, ms in _TIMED_OUT.findall(text):
        budget = int(ms)
        for record in records:
            if (
                record["kind"] != "call"
                or record.get("name") != hook
                or record.get("owner") != plugin
                or "timed_out_ms" in record
            ):
                continue
            start, end = record.get("start_ms") or 0, record.get("end_ms")
            if end is None or end - start >= budget:
                record["timed_out_ms"] = budget
                break


def label(record: dict[str, Any]) -> str:
    """How a handler is named in a run, as the replay names it (``record.mjs``, ``labelOf``):
    ``plugin: hook``, ``plugin: name (key)``, ``hook (HOOK.md, key)``."""
    return str(record.get("label") or f"{record.get('owner')}: {record.get('name')}")


def _text(value: Any) -> str:
    return "" if value is None else json.dumps(value, ensure_ascii=False)


def handler_status(record: dict[str, Any]) -> dict[str, Any]:
    """A call as the profile reads a handler's record (``OpenClaw.read_handler``)."""
    if "timed_out_ms" in record:
        ended = handler_status({k: v for k, v in record.items() if k != "timed_out_ms"})
        late = {**ended, "ended": record.get("end_ms")} if ended["status"] != "running" else {}
        return {
            "status": "timed_out",
            "budgetMs": record["timed_out_ms"],
            "started": record.get("start_ms"),
            "late": late,
        }
    if not record.get("settled"):
        return {"status": "running"}
    if record.get("threw") is not None:
        return {"status": "threw", "error": record["threw"]}
    return {"status": "returned", "value": record.get("returned")}


def hook_run(record: dict[str, Any], virtual_ms: int, host: Host) -> HookRun:
    """One call of a handler as a ``HookRun``, read by the profile as a replay's is. A Promise
    handed to a synchronous hook is ignored (OpenClaw logs so): the probe saw it resolve."""
    status = handler_status(record)
    kind = getattr(host, "kind", None)
    if record.get("promise") and kind is not None and kind(str(record["name"])) == "sync":
        status["ignoredPromise"] = True
    start = record.get("start_ms") or 0
    run = HookRun(
        record.get("turn", 0),
        str(record["name"]),
        label(record),
        virtual_ms,
        exit_code={"returned": 0, "threw": 1}.get(status["status"]),
        stderr=str(record.get("threw") or ""),
        duration_s=((record.get("end_ms") or start) - start) / 1000,
        timed_out=not record.get("settled") or status["status"] == "timed_out",
        stdin=json.dumps(record.get("event"), ensure_ascii=False).encode(),
    )
    reader = getattr(host, "read_handler", None)
    if reader is not None:
        verdict = reader(run.event, status)
        run.verdict, run.fault = verdict.note, fault_of(run, verdict)
    else:
        run.verdict = status["status"]
    return run


def returned_texts(record: dict[str, Any]) -> list[str]:
    """The texts a handler handed OpenClaw: every string in what it returned."""
    return [t for t in all_strings(record.get("returned")) if t.strip()]


def _reached_model(record: dict[str, Any], requests: list[dict[str, Any]]) -> list[str]:
    """The handler's texts a model request sent after it started holds (read unwrapped), each
    once, in a message the request before it did not hold: what earlier turns sent comes
    again as history, and is not the handler's doing (a context it gives every turn lands
    in each turn's new prompt)."""
    start = (record.get("start_ms") or 0) / 1000
    before = [r for r in requests if r.get("at", 0) < start]
    held = set(_read(before[-1])) if before else set()
    new = [s for r in requests if r.get("at", 0) >= start for s in _read(r) if s not in held]
    return [t for t in dict.fromkeys(returned_texts(record)) if any(t in s for s in new)]


def _read(request: dict[str, Any]) -> list[str]:
    """Every text of a model request, read unwrapped."""
    return [read for s in all_strings(request.get("body")) for read in readings(s)]


def build_result(
    scenario: Scenario,
    host: Host,
    records: list[dict[str, Any]],
    requests: list[dict[str, Any]],
    ledger: Path,
    *,
    owners: Iterable[str] = (),
) -> RunResult:
    """A ``RunResult`` from a real run's log: a firing per ``fire`` record, a run per call of
    one of the scenario's handlers (``owners``: plugin ids and hook names), context from what
    reached the model, blocks from what OpenClaw did next."""
    result = RunResult(scenario, host_title=f"{host.title} (real)")
    mine = set(owners)
    firings: list[tuple[Firing, dict[str, Any]]] = []
    for record in records:
        if record["kind"] == "fire":
            got = record.get("event")
            event: dict[str, Any] = got if isinstance(got, dict) else {}
            match = event.get("toolName") if record["name"] in TOOL_HOOKS else None
            firing = Firing(
                record.get("turn", 0),
                record["name"],
                _virtual(record),
                match=str(match) if match is not None else None,
            )
            firings.append((firing, record))
        elif record["kind"] == "call" and (not mine or record.get("owner") in mine):
            owner = next((f for f, r in reversed(firings) if r["name"] == record["name"]), None)
            run = hook_run(record, owner.virtual_ms if owner else _virtual(record), host)
            reached = _reached_model(record, requests)
            run.context = "\n\n".join(reached) or None
            result.runs.append(run)
            if owner is not None:
                owner.runs.append(run)
                owner.context += [c for c in reached if c not in owner.context]
    for i, (firing, record) in enumerate(firings):
        firing.blocked = _stopped(firing, record, firings[i + 1 :])
        if firing.blocked and firing.event == "before_tool_call":
            told = _tool_result(record, firings[i + 1 :])
            firing.reason = told
            firing.context += [told] if told and told not in firing.context else []
    result.firings = [f for f, _ in firings]
    result.calls = [json.loads(line) for line in ledger.read_text(encoding="utf-8").splitlines()]
    return result


def _persisted(
    record: dict[str, Any], after: list[tuple[Firing, dict[str, Any]]]
) -> dict[str, Any]:
    """The tool result OpenClaw wrote down for the tool call of a ``before_tool_call``."""
    call_id = (record.get("event") or {}).get("toolCallId")
    for firing, later in after:
        event = later.get("event") or {}
        if firing.event == "tool_result_persist" and event.get("toolCallId") == call_id:
            message = event.get("message")
            return message if isinstance(message, dict) else {}
    return {}


def _tool_result(record: dict[str, Any], after: list[tuple[Firing, dict[str, Any]]]) -> str:
    """The text of a blocked call's tool result: what the model got in its place."""
    content = _persisted(record, after).get("content")
    return "\n".join(
        all_strings(
            [c.get("text") for c in content if isinstance(c, dict)]
            if isinstance(content, list)
            else content
        )
    )


def _virtual(record: dict[str, Any]) -> int:
    value = record.get("now_ms")
    return int(value) if isinstance(value, (int, float)) else int(record.get("start_ms") or 0)


def _stopped(
    firing: Firing, record: dict[str, Any], after: list[tuple[Firing, dict[str, Any]]]
) -> bool:
    """Whether OpenClaw did what a gate, a claim or a revise of this firing does: a tool call
    whose result is a block, a run or reply with no model call after it in the turn, a final
    answer sent back for another pass."""
    same = [(f, r) for f, r in after if f.turn == firing.turn]
    names = [f.event for f, _ in same]
    if firing.event == "before_tool_call":  # a block, or a gate that failed (the call threw)
        details = _persisted(record, same).get("details")
        details = details if isinstance(details, dict) else {}
        failed = details.get("status") == "error" and str(details.get("error", "")).startswith(
            "Tool call blocked"
        )
        return details.get("status") == "blocked" or failed
    if firing.event == "before_agent_reply":  # a claim: the run stops before its model
        return "before_model_resolve" not in names and "model_call_started" not in names
    if firing.event == "before_agent_run":
        return "model_call_started" not in names
    if firing.event == "before_agent_finalize":
        return "model_call_started" in names
    return False


# --- what compare reads ---------------------------------------------------------------------
# Values OpenClaw makes up on every run (ids, instants, measured times, sizes), compared by
# presence: mapped to a placeholder on both sides.
_ID_KEYS = frozenset(
    {
        "runId",
        "callId",
        "toolCallId",
        "responseId",
        "idempotencyKey",
        "traceId",
        "spanId",
        "parentSpanId",
        "id",
        "firstKeptEntryId",
        "jobId",
        "itemId",
    }
)
_MEASURED_KEYS = frozenset(
    {
        "timestamp",
        "durationMs",
        "timeToFirstByteMs",
        "requestPayloadBytes",
        "responseStreamBytes",
        "nextRunAtMs",
        "tokensBefore",
        "tokensAfter",
        "blockedAt",
        "createdAtMs",
        "updatedAtMs",
        "anchorMs",
        "recordTimestampMs",
        "port",
    }
)
# Texts OpenClaw writes itself: its system prompt, its tool catalogue, the runtime line it
# adds to a prompt. A replay says what the hook sees of them, not their words.
# The tokens a model reports it used (a message's or a run's usage), its own count.
_COUNTS = frozenset({"input", "output", "totalTokens", "total"})
# A compaction's summary is the summariser's answer in OpenClaw's own outline.
_OPENCLAW_TEXT_KEYS = frozenset({"systemPrompt", "tools", "summary"})
_CALL_ID = re.compile(r"\bcall_?\d+\b")
# The envelope OpenClaw puts before a prompt it sends: "[Tue 2026-12-01 15:31 UTC] first".
_STAMP = re.compile(r"^\[\w{3} \d{4}-\d{2}-\d{2} \d{2}:\d{2}(?::\d{2})? [^\]]+\] ")


def normalised(value: Any, key: str = "") -> Any:
    """An event or context with what differs on every run by nature mapped to placeholders."""
    if key in _ID_KEYS and value is not None:
        return "<id>"
    if key in _MEASURED_KEYS and value is not None:
        return "<measured>"
    if key in _OPENCLAW_TEXT_KEYS and value is not None:
        return "<openclaw>"
    if key == "usage" and isinstance(value, dict):  # what the model reported it counted
        return {
            k: "<counted>" if k in _COUNTS and v is not None else normalised(v, k)
            for k, v in value.items()
        }
    if isinstance(value, dict):
        return {k: normalised(v, k) for k, v in value.items()}
    if key == "bootstrapFiles" and isinstance(value, list):  # the texts of OpenClaw's templates
        return [
            {**f, "content": "<openclaw>"}
            if isinstance(f, dict) and "content" in f
            else normalised(f)
            for f in value
        ]
    if isinstance(value, list):
        return [normalised(v) for v in value]
    if isinstance(value, str):
        return _CALL_ID.sub("<call>", _STAMP.sub("[<time>] ", value))
    return value


def compare_records(
    records: list[dict[str, Any]], owners: Iterable[str] = ()
) -> list[dict[str, Any]]:
    """The log as ``compare.differences`` reads records: a probe record per firing (its
    payload the normalised event), and per handler call one record for each text it returned
    (``compare`` reads a record's plain stdout as one text) or one without text."""
    mine = set(owners)
    out: list[dict[str, Any]] = []
    for record in records:
        base = {
            "event": record["name"],
            "turn": record.get("turn", 0),
            "start": (record.get("start_ms") or 0) / 1000,
            "pid": record.get("pid", 0),
            "stdin": json.dumps(normalised(record.get("event")), ensure_ascii=False),
            "env": {},
        }
        if record["kind"] == "fire":
            out.append({**base, "id": PROBE, "exit": 0, "stdout": "", "stderr": ""})
        elif record["kind"] == "call" and (not mine or record.get("owner") in mine):
            exit_code = None if not record.get("settled") else (1 if record.get("threw") else 0)
            texts = returned_texts(record) or [""]
            out += [
                {**base, "id": label(record), "exit": exit_code, "stdout": text, "stderr": ""}
                for text in texts
            ]
    return out


def attach_shown(result: RunResult, outputs: list[dict[str, Any]]) -> None:
    """What OpenClaw showed its user because of a hook: the reply ``openclaw agent --json``
    printed in a turn whose run a hook stopped (a claimed reply, a blocked run's message), on
    that firing."""
    for output in outputs:
        inner = output.get("result")  # the gateway's reply wraps the agent's result
        payloads = (inner if isinstance(inner, dict) else output).get("payloads")
        listed = payloads if isinstance(payloads, list) else []
        texts = [str(p.get("text")) for p in listed if isinstance(p, dict) and p.get("text")]
        stopped = [
            f
            for f in result.firings
            if f.turn == output.get("turn")
            and f.blocked
            and f.event in ("before_agent_reply", "before_agent_run")
        ]
        if stopped and texts:
            stopped[0].shown += [t for t in texts if t not in stopped[0].shown]
