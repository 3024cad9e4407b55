"""``hooksim record export``: a recording (the tap's logged hook runs) as a scenario file.

The session is rebuilt from the events, read through the host profile's lifecycle: a prompt
event starts a turn (its user text), tool events add tool calls, the turn-end event gives the
reply where the host sends it, or tells an interruption or a failed model call, a
pre-compaction event is a ``compact`` step (so is a compaction's later event when the
pre-compaction one was not hooked), a session start after ``/clear`` or ``/new`` is a
``new_session`` step; the real gaps between them become ``after:``. What the profile
regenerates by itself (session starts, post-compaction events, stop continuations, session
ends) is not written again. Any other event is written as a raw ``event`` step with its
recorded bytes. Expectations are what was observed: exit codes, how often each event fired, and
the context the host gave the model.

Secret-shaped values (``redact``) are redacted in every text of the scenario; ``--redact``
also hides the words of the prompts, replies, tool inputs and tool results, keeping their
shape.

A recording without the host's prompt event cannot tell one turn from the next: export refuses
it rather than write a scenario that fails its own expectations.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from pathlib import Path
from typing import Any

from ..hosts import HookRun, Host, get_host
from ..steps import ERROR_CAUSES
from .recording import STATE, Recorded, RecordError, firings, load_runs
from .redact import redact_data

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

NOT_RECORDED = "(reply not recorded)"
_PROMPT_KEYS = ("prompt", "user_message")
_REPLY_KEYS = ("last_assistant_message", "assistant_response", "prompt_response", "text")
_RESULT_KEYS = ("tool_response", "result", "tool_output")


def _field(payload: dict[str, Any], keys: tuple[str, ...]) -> Any:
    """The first of ``keys`` in the payload or in its ``extra`` object (Hermes)."""
    extra = payload.get("extra")
    for source in (payload, extra if isinstance(extra, dict) else {}):
        for key in keys:
            if source.get(key) is not None:
                return source[key]
    return None


def _result_text(value: Any) -> str:
    if isinstance(value, dict) and isinstance(value.get("llmContent"), str):
        return str(value["llmContent"])  # Gemini CLI wraps the tool's output
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def redacted(text: str) -> str:
    """Same length and line structure, no words: every visible character becomes ``x``."""
    return re.sub(r"\S", "x", text)


def _gap(seconds: float) -> str | None:
    whole = round(seconds)
    return f"{whole}s" if whole >= 1 else None


class _Session:
    """The steps of the session being rebuilt, firing by firing."""

    def __init__(self, host: Host, hooked: set[str], started: float, redact: bool) -> None:
        self.host = host
        self.points = {event: point for point, event in host.events.items() if event}
        self.hooked = hooked
        self.text = redacted if redact else str
        self.steps: list[dict[str, Any]] = []
        self.turn: dict[str, Any] | None = None
        self.number = 0  # the turn number hooksim gives the current step
        self.last_time = started
        self.session_id: str | None = None
        self.retrying = False
        # Since the last turn: the compaction-following events of the last compaction step
        # (None: no compaction step since the last turn).
        self.after_compaction: set[str] | None = None
        self.turn_ended = False  # the current turn's turn-end event (_TURN_END_EVENTS) fired

    def begin(self, step: dict[str, Any], at: float) -> None:
        self.close()
        gap = _gap(at - self.last_time)
        step = {"after": gap, **step} if gap else step
        self.steps.append(step)
        self.last_time = at
        if "new_session" not in step:
            self.number += 1
        self.turn = step if "user" in step else None
        if "compact" in step:
            self.after_compaction = set()
        elif "user" in step:
            self.after_compaction = None
        self.turn_ended = False

    def close(self) -> None:
        """End the current turn: a reply; a failed model call when its turn-end hook never ran;
        an interruption when its reply hook never ran."""
        turn = self.turn
        if turn is not None and not _ended(turn):
            if self.hooked & _TURN_END_EVENTS and not self.turn_ended:
                turn["error"] = "unknown"
            elif self.hooked & {self.host.events.get("stop"), *_REPLY_EVENTS}:
                turn["interrupted"] = True
            else:
                turn["assistant"] = NOT_RECORDED
        self.turn = None

    def add(self, group: list[Recorded], turn_number: int) -> None:
        run = group[0]
        payload = run.payload
        session = payload.get("session_id") or payload.get("conversation_id")
        if isinstance(session, str) and session:
            # /new or /clear: the first payload of another session starts it (hosts differ
            # in which event that is; Codex's queued SessionStart comes after the prompt).
            if self.session_id is not None and session != self.session_id:
                self.begin({"new_session": session}, run.started)
            self.session_id = session
        event, turn = run.event, self.turn
        point = self.points.get(event)
        prompt = _field(payload, _PROMPT_KEYS)
        if point == "prompt_submit" and self.retrying:
            self.retrying = False  # a blocked turn end sent its reason as a new prompt
        elif point == "prompt_submit":
            self.begin({"user": self.text(prompt if isinstance(prompt, str) else "")}, run.started)
        elif point in ("pre_tool", "post_tool") and turn is not None:
            _tool_call(turn, point, payload, self.text)
        elif (point == "stop" or event in _REPLY_EVENTS) and turn is not None:
            self.reply(turn, payload)
            if point == "stop":
                self.retrying = any(
                    self.host.read(r.event, _hook_run(r, turn_number)).block for r in group
                )
        elif event in _TURN_END_EVENTS and turn is not None:
            self.turn_ended = True
            if payload.get("interrupted") and not _ended(turn):
                turn["interrupted"] = True
        elif event == "StopFailure" and turn is not None and not _ended(turn):
            error = payload.get("error")
            turn["error"] = error if error in ERROR_CAUSES else "unknown"
        elif self.compaction(run, point) or point is not None or event in _REGENERATED:
            pass  # a compaction, or fired by the profile around the steps above
        else:
            self.begin({"event": event, "stdin": run.stdin.decode("utf-8", "replace")}, run.started)

    def compaction(self, run: Recorded, point: str | None) -> bool:
        """A compaction's event: a ``compact`` step, unless it belongs to the last one; False
        for any other event."""
        event, payload, turn = run.event, run.payload, self.turn
        trigger = str(payload.get("trigger") or "auto")
        if point == "pre_compact" and (
            turn is None or _ended(turn) or event not in _CHECKED_IN_TURNS or trigger == "manual"
        ):
            # Inside a turn Gemini CLI's PreCompress(auto) is its own check before a model
            # request, which the profile fires by itself; between turns (every other host's
            # pre-compaction event, wherever it comes) it is a step.
            step: dict[str, Any] = {"compact": trigger}
            if payload.get("custom_instructions"):
                step["instructions"] = str(payload["custom_instructions"])
            self.begin(step, run.started)
            return True
        if point == "post_compact" or (
            point == "session_start" and payload.get("source") == "compact"
        ):
            # Each compaction fires these once, after its pre-compaction event (Codex queues
            # its SessionStart(compact) for the next turn, even across /new): one seen again
            # since the last compaction step is a compaction whose pre-compaction event was not
            # hooked.
            if self.after_compaction is None or event in self.after_compaction:
                self.begin({"compact": trigger}, run.started)
            if self.after_compaction is not None:
                self.after_compaction.add(event)
            return True
        return False

    def reply(self, turn: dict[str, Any], payload: dict[str, Any]) -> None:
        """How the turn ended, from its first turn-end event (a continuation's says nothing)."""
        if payload.get("stop_hook_active") or payload.get("loop_count") or _ended(turn):
            return
        status = payload.get("status")  # Cursor's stop
        if status == "aborted":
            turn["interrupted"] = True
        elif status == "error":
            turn["error"] = "unknown"
        else:
            reply = _field(payload, _REPLY_KEYS)
            turn["assistant"] = self.text(reply) if isinstance(reply, str) else NOT_RECORDED


def _tool_call(
    turn: dict[str, Any], point: str, payload: dict[str, Any], text: Callable[[str], str]
) -> None:
    """A tool event of the turn: a call (before), its result (after); ``text`` is applied to
    every string of the call's input and to its result."""
    calls = turn.setdefault("tools", [])
    name = str(payload.get("tool_name", ""))
    if point == "pre_tool":
        call: dict[str, Any] = {"name": name}
        if isinstance(payload.get("tool_input"), dict) and payload["tool_input"]:
            call["args"] = _strings(payload["tool_input"], text)
        calls.append(call)
        return
    if not calls or calls[-1]["name"] != name or "result" in calls[-1]:
        calls.append({"name": name})  # its before-event was not hooked
    result = _field(payload, _RESULT_KEYS)
    if result is not None:
        calls[-1]["result"] = text(_result_text(result))


def _strings(value: Any, text: Callable[[str], str]) -> Any:
    """``value`` with ``text`` applied to each string in it (keys are kept)."""
    if isinstance(value, str):
        return text(value)
    if isinstance(value, list):
        return [_strings(item, text) for item in value]
    if isinstance(value, dict):
        return {key: _strings(item, text) for key, item in value.items()}
    return value


def _ended(turn: dict[str, Any]) -> bool:
    return any(key in turn for key in ("assistant", "interrupted", "error"))


def _session_fields(payload: dict[str, Any]) -> dict[str, str]:
    """The session's id, directory and model as the first payload gave them."""
    roots = payload.get("workspace_roots")
    found = (
        ("id", payload.get("session_id") or payload.get("conversation_id")),
        ("cwd", payload.get("cwd") or (roots[0] if isinstance(roots, list) and roots else None)),
        ("model", payload.get("model") or _field(payload, ("model",))),
    )
    return {key: str(value) for key, value in found if value}


def _expectations(
    host: Host,
    groups: list[list[Recorded]],
    turns: list[int],
    matched: set[str],
    configured: set[str],
) -> dict[str, Any]:
    """What was observed: exit codes, firings of events every hook sees (and none of a
    configured event the session never reached), contexts."""
    expect: dict[str, Any] = {}
    codes = {run.exit_code for group in groups for run in group}
    if len(codes) == 1:
        expect["exit_codes"] = codes.pop()
    seen = {g[0].event for g in groups}
    counted = sorted((seen - matched) | (configured - seen))
    expect["fired"] = {e: sum(g[0].event == e for g in groups) for e in counted}
    contexts: dict[str, list[str]] = {}
    for group, turn in zip(groups, turns, strict=True):
        for run in group:
            verdict = host.read(run.event, _hook_run(run, turn))
            if verdict.context:
                contexts.setdefault(str(turn), []).append(verdict.context)
    if contexts:
        expect["context_at_turn"] = {t: c[0] if len(c) == 1 else c for t, c in contexts.items()}
    return expect


def rebuild(
    runs: list[Recorded], host: Host, hooks: Any, *, redact: bool = False
) -> dict[str, Any]:
    """The scenario (as plain data) for a recorded session on ``host``."""
    if not runs:
        raise RecordError("no hook runs were recorded")
    specs = host.parse_hooks(hooks)[0]
    prompt = host.events["prompt_submit"]
    if prompt not in {s.event for s in specs}:
        # Every event of a turn would land in one turn, or in none: what replays would not be
        # what was recorded.
        raise RecordError(
            f"no prompt event recorded ({prompt}): turns cannot be told apart;"
            " add a hook on it while recording"
        )
    session = _Session(host, {s.event for s in specs}, runs[0].started, redact)
    groups = firings(runs)
    turns = []
    for group in groups:
        session.add(group, max(session.number, 1))
        turns.append(max(session.number, 1))
    session.close()
    started = dt.datetime.fromtimestamp(runs[0].started, dt.timezone.utc)
    scenario: dict[str, Any] = {
        "name": f"recorded {host.title} session, {started:%Y-%m-%d %H:%M} UTC",
        "tool": host.name,
        "clock": {"start": started.strftime("%Y-%m-%dT%H:%M:%SZ")},
    }
    fields = _session_fields(runs[0].payload)
    if fields:
        scenario["session"] = fields
    scenario["hooks"] = hooks
    scenario["turns"] = session.steps or [{"user": "", "assistant": NOT_RECORDED}]
    scenario["expect"] = _expectations(
        host, groups, turns, {s.event for s in specs if s.matcher}, {s.event for s in specs}
    )
    return scenario


# Events that carry the reply besides the turn-end event (Cursor's, before its stop).
_REPLY_EVENTS = frozenset({"afterAgentResponse"})
# Events a host fires at the end of every turn but one whose model call failed, saying whether
# it was interrupted (Hermes' on_session_end).
_TURN_END_EVENTS = frozenset({"on_session_end"})
# Pre-compaction events a host also fires by itself inside a turn (Gemini CLI: before each
# model request).
_CHECKED_IN_TURNS = frozenset({"PreCompress"})
# Events the profiles fire by themselves around the steps above (never written as steps).
_REGENERATED = frozenset(
    {
        "on_session_end",
        "on_session_finalize",
        "on_session_reset",
        "on_session_start",
        "PostCompact",
        "SessionStart",
        "SessionEnd",
        "sessionStart",
        "sessionEnd",
        "StopFailure",
        "afterAgentResponse",
        "pre_verify",
    }
)


def _hook_run(run: Recorded, turn: int) -> HookRun:
    return HookRun(
        turn,
        run.event,
        run.command,
        0,
        exit_code=run.exit_code,
        stdout=run.stdout,
        stderr=run.stderr,
    )


def _hooks_from_runs(runs: list[Recorded], host: Host) -> Any:
    """A hooks block for a recording made without ``record start`` (the commands the tap saw)."""
    block: dict[str, list[Any]] = {}
    for run in runs:
        entries = block.setdefault(run.event, [])
        if host.config_shape == "entries":
            entry: Any = {"command": run.command}
        else:
            entry = {"hooks": [{"type": "command", "command": run.command}]}
        if entry not in entries:
            entries.append(entry)
    return block


def export(directory: Path, *, tool: str | None = None, redact: bool = False) -> str:
    """The scenario file's text for the recording in ``directory``."""
    from ruamel.yaml import YAML

    state_file = directory / STATE
    state: dict[str, Any] = {}
    if state_file.exists():
        state = json.loads(state_file.read_text(encoding="utf-8"))
    runs = load_runs(directory)
    name = tool or state.get("tool") or next((r.payload.get("tool") for r in runs), None)
    if not name:
        raise RecordError(f"{directory}: which host? pass --tool (no {STATE} here)")
    host = get_host(str(name))
    hooks = state.get("hooks") or _hooks_from_runs(runs, host)
    # Secret-shaped values never reach a scenario, --redact or not.
    scenario = redact_data(rebuild(runs, host, hooks, redact=redact))
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.sort_base_mapping_type_on_output = False  # type: ignore[assignment]
    yaml.width = 4096
    out = io.StringIO()
    yaml.dump(scenario, out)
    return out.getvalue()
