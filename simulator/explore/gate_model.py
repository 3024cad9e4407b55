"""A model of hermes-hooks and its compaction gate: the bridge calls a session must produce.

The oracle of ``hooksim explore``. It restates the rules of the compact-on-Stop design in a few
lines of pure Python, independently of ``hermes_hooks`` (a bug there must not be copied here):

- ``on_session_start`` → ``start_session``; ``pre_llm_call`` → ``save_memory`` of a non-empty
  user message; ``post_llm_call`` → ``save_memory`` of what the assistant said, if anything
  (not the text Hermes writes in its place), then the gate.
- Save before compact: a failed save skips the gate; a Stop with nothing to save still reaches it.
- The gate is on when ``WAGGLE_HERMES_COMPACT_ON_STOP`` is set and is not ``''``, ``'0'`` or
  ``'false'`` in any letter case. Its window is ``WAGGLE_HERMES_COMPACT_WINDOW_MIN`` minutes
  when that is a finite number > 0, else 10 minutes.
- It compacts when no successful compaction is remembered, or the last one is at least a window
  old. Only a successful compaction is remembered, so a failure is retried at the next Stop. A
  remembered instant more than a window in the future (the clock went back) is forgotten.
- Concurrent Stops (a gateway's sessions) compact at most once between them: the first to hold
  the gate's lock decides, the others skip while it holds the lock, or see what it remembered.
  With no state file to write there is no lock file either: each of them compacts.
- Every hook exits 0 and prints nothing on stdout (checked as invariants, not here).

The event timeline comes from the Hermes host profile, the same one the runner drives, so the
model judges the hook, not the host. Bridge outcomes come from the scenario's ``bridge:`` plan,
numbered per tool as the mock bridge numbers them.
"""

from __future__ import annotations

import itertools
import json
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..hosts import DEFAULT_HOST, Firing, SessionInfo, get_host
from ..replay.result import BridgeCall
from ..scenario import Scenario, Turn

FLAG = "WAGGLE_HERMES_COMPACT_ON_STOP"
WINDOW = "WAGGLE_HERMES_COMPACT_WINDOW_MIN"
TIMEOUT = "WAGGLE_BRIDGE_TIMEOUT_S"
DEFAULT_WINDOW_MS = 600_000.0
DEFAULT_TIMEOUT_S = 10.0
COMPACT = "cleanup_frames"
SAVE = "save_memory"
START = "start_session"
# How Hermes 0.19.0's turn-completion explainer starts the text it puts in the assistant's place.
EXPLANATION = "\u26a0\ufe0f No reply: "


def flag_on(value: str | None) -> bool:
    """The opt-in flag: set, and not ``''``, ``'0'`` or ``'false'`` in any letter case."""
    return value is not None and value.lower() not in ("", "0", "false")


def _positive(value: str | None) -> float | None:
    try:
        number = float(value or "")
    except ValueError:
        return None
    return number if math.isfinite(number) and number > 0 else None


def window_ms(value: str | None) -> float:
    """The window in milliseconds: the variable's minutes when finite and > 0, else 10 minutes."""
    minutes = _positive(value)
    return DEFAULT_WINDOW_MS if minutes is None else minutes * 60_000


def call_succeeds(outcome: str, timeout_s: float = DEFAULT_TIMEOUT_S) -> bool:
    """Whether the hook sees a mock bridge outcome as a successful call (exit 0, JSON or nothing)."""
    if outcome in ("ok", "empty", "meet"):
        return True
    if outcome.startswith("exit "):
        return outcome == "exit 0"
    if outcome.startswith("slow "):
        amount = outcome[5:]
        seconds = float(amount[:-2]) / 1000 if amount.endswith("ms") else float(amount[:-1])
        return seconds < timeout_s
    return False  # fail, hang (killed at the timeout), garbage


def duration_text(ms: float) -> str:
    """``10m``, ``9m59s``, ``2d3h``: the largest two units of a span."""
    seconds = round(abs(ms) / 1000)
    parts = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if seconds >= size:
            parts.append(f"{seconds // size}{unit}")
            seconds %= size
    text = "".join(parts[:2]) or f"{abs(ms):g}ms"
    return f"-{text}" if ms < 0 else text


@dataclass(frozen=True)
class GateConfig:
    """The gate's settings, read from a hook environment."""

    enabled: bool
    window_ms: float
    remembers: bool = True  # False: the state file cannot be written (HERMES_HOME is a file)
    timeout_s: float = DEFAULT_TIMEOUT_S

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> GateConfig:
        home = env.get("HERMES_HOME")
        return cls(
            enabled=flag_on(env.get(FLAG)),
            window_ms=window_ms(env.get(WINDOW)),
            remembers=not (home and os.path.exists(home) and not os.path.isdir(home)),
            timeout_s=_positive(env.get(TIMEOUT)) or DEFAULT_TIMEOUT_S,
        )

    def describe(self) -> str:
        if not self.enabled:
            return "gate off"
        return f"gate on, window {duration_text(self.window_ms)}" + (
            "" if self.remembers else ", state cannot be written"
        )


class Gate:
    """The gate's memory across hook processes: the instant of the last successful compaction."""

    def __init__(self, config: GateConfig) -> None:
        self.config = config
        self.last_ms: int | None = None
        self.last_turn = 0

    def due(self, now_ms: int) -> tuple[bool, str]:
        """Whether a Stop at ``now_ms`` compacts, and why, in words."""
        window = self.config.window_ms
        if self.last_ms is None:
            return True, "due: no successful compaction remembered"
        if self.last_ms - now_ms > window:
            return True, (
                f"due: the clock went back {duration_text(self.last_ms - now_ms)} behind the last"
                f" compaction (turn {self.last_turn}), more than the {duration_text(window)} window"
            )
        age = now_ms - self.last_ms
        if age < window:
            return False, (
                f"inside the window: {duration_text(age)} since the compaction at turn"
                f" {self.last_turn} < {duration_text(window)}"
            )
        return True, (
            f"due: {duration_text(age)} since the compaction at turn {self.last_turn}"
            f" >= {duration_text(window)}"
        )

    def remember(self, now_ms: int, turn: int) -> None:
        if self.config.remembers:
            self.last_ms, self.last_turn = now_ms, turn


class BridgePlan:
    """The scripted outcome of each call, numbered per tool as the mock bridge numbers them."""

    def __init__(self, plan: Mapping[str, list[str]]) -> None:
        self.plan = plan
        self.calls: dict[str, int] = {}

    def take(self, tool: str) -> str:
        """The outcome of the next call of ``tool``; the plan's last entry repeats."""
        outcomes = self.plan.get(tool) or ["ok"]
        number = self.calls[tool] = self.calls.get(tool, 0) + 1
        return outcomes[min(number, len(outcomes)) - 1]


@dataclass(frozen=True)
class Call:
    """One bridge call the model expects: in which turn, of which tool, with what outcome."""

    turn: int
    tool: str
    outcome: str


@dataclass
class Expected:
    """Everything the model expects of a session, with its reasons per turn."""

    config: GateConfig
    calls: list[Call] = field(default_factory=list)
    notes: dict[int, list[str]] = field(default_factory=dict)
    last_compaction_ms: int | None = None  # what the gate remembers at the end
    last_try_ms: int | None = None  # the last compaction tried, failed or not
    races: list[Race] = field(default_factory=list)  # concurrent Stops that broke the lock's rule

    def tools_by_turn(self) -> dict[int, list[str]]:
        turns: dict[int, list[str]] = {}
        for call in self.calls:
            turns.setdefault(call.turn, []).append(call.tool)
        return turns


@dataclass(frozen=True)
class _Event:
    turn: int
    event: str
    payload: dict[str, Any] | None  # None: the hook cannot parse its stdin
    now_ms: int
    said: str | None  # what the assistant said in this turn; None: a raw event, read its payload
    session: int  # index of the session (0 for a one-session scenario)
    group: int  # steps at one instant form a group; a group with several sessions runs at once


def _timeline(scenario: Scenario) -> list[_Event]:
    """The events Hermes fires for the scenario, as the runner fires them, with instants."""
    host = get_host(DEFAULT_HOST)  # the host hermes-hooks runs on
    events: list[_Event] = []
    start_ms = int(scenario.start.timestamp() * 1000)
    now_ms, turn, said, group = start_ms, 0, None, 0

    def fire_in(k: int) -> Any:
        def fire(
            event: str, payload: dict[str, Any] | bytes, *, match: str | None = None
        ) -> Firing:
            events.append(_Event(turn, event, _parsed(payload), now_ms, said, k, group))
            return Firing(turn, event, now_ms, match=match)

        return fire

    process: dict[str, Any] = {}
    plans = [(p.id, p.platform, p.model, p.cwd, p.sender) for p in scenario.sessions] or [
        (
            scenario.session.get("id", "session-1"),
            scenario.session.get("platform", "cli"),
            scenario.session.get("model"),
            scenario.session.get("cwd"),
            scenario.session.get("sender", ""),
        )
    ]
    sessions = []
    for k, (sid, platform, model, cwd, sender) in enumerate(plans):
        info = SessionInfo(
            cwd=cwd or "/project",
            session_id=sid,
            model=model or "hermes-4",
            platform=platform,
            transcript_path="/transcript.jsonl",
            now_ms=lambda: now_ms,
            sender_id=sender,
            process=process,
        )
        sessions.append(host.session(info, fire_in(k)))
    # A step's clock_back moves the clock from that step on (its ``clock_s``): one set back
    # without an after is an instant of its own, after the step before it, as the runner has it.
    instants = itertools.groupby(scenario.schedule, key=lambda s: (s.offset_s, s.clock_s))
    for (_, clock_s), items in instants:
        group += 1
        steps = list(items)
        now_ms = start_ms + int(clock_s * 1000)
        for item in steps:
            turn = item.turn
            # The model knows what the assistant said from the scenario itself, not from the
            # text Hermes puts in the payload (for an empty reply, an explanation of its own).
            said = (item.step.assistant or "") if isinstance(item.step, Turn) else None
            sessions[item.session].step(item.step)
    said = None
    for session in sessions:
        session.exit()
    return events


def _parsed(payload: dict[str, Any] | bytes) -> dict[str, Any] | None:
    """What the hook can read of its stdin: a JSON object with an ``extra`` object, else None."""
    if isinstance(payload, dict):
        return payload
    try:
        parsed = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    ok = isinstance(parsed, dict) and isinstance(parsed.get("extra"), dict)
    return parsed if ok else None


def _text(payload: dict[str, Any], key: str) -> str:
    value = payload["extra"].get(key)
    return value if isinstance(value, str) else ""


class _Walk:
    """The model's state while it walks a scenario's events: the gate, each session's bridge
    plan, and what it expects so far."""

    def __init__(self, scenario: Scenario) -> None:
        self.env = scenario.env
        self.config = GateConfig.from_env(scenario.env)
        self.gate = Gate(self.config)
        self.plans = [
            BridgePlan(scenario.bridge if p.bridge is None else p.bridge) for p in scenario.sessions
        ] or [BridgePlan(scenario.bridge)]
        self.result = Expected(self.config)

    def call(self, ev: _Event, tool: str, outcome: str | None = None) -> str | None:
        """Record the call; None when it succeeds, else its outcome."""
        outcome = self.plans[ev.session].take(tool) if outcome is None else outcome
        self.result.calls.append(Call(ev.turn, tool, outcome))
        return None if call_succeeds(outcome, self.config.timeout_s) else outcome

    def note(self, turn: int, text: str) -> None:
        """Say why, in words, under the turn."""
        self.result.notes.setdefault(turn, []).append(text)

    def compact(self, ev: _Event) -> None:
        """Try a compaction; the gate remembers it only when it succeeds."""
        self.result.last_try_ms = ev.now_ms
        failed = self.call(ev, COMPACT)
        if failed:
            self.note(ev.turn, f"the compaction failed ({failed}): not remembered")
        else:
            self.gate.remember(ev.now_ms, ev.turn)

    def fire(self, ev: _Event, racing: bool) -> bool:
        """The hook's calls for one event; True for a Stop that reaches the gate with others."""
        if ev.payload is None:
            return False  # the hook reports an unreadable payload and calls nothing
        if ev.event == "on_session_start":
            self.call(ev, START)
        elif ev.event == "pre_llm_call":
            if _text(ev.payload, "user_message"):
                self.call(ev, SAVE)
        elif ev.event == "post_llm_call":
            return self.stop(ev, racing)
        return False

    def stop(self, ev: _Event, racing: bool) -> bool:
        """Save what the assistant said, then the gate; True when it waits for the race."""
        assert ev.payload is not None  # ``fire`` passes only readable payloads
        response = _text(ev.payload, "assistant_response") if ev.said is None else ev.said
        if response and not response.startswith(EXPLANATION):
            failed = self.call(ev, SAVE)
            if failed:
                self.note(ev.turn, f"the save failed ({failed}): no compaction")
                return False
        if not self.config.enabled:
            self.note(ev.turn, f"the gate is off ({FLAG}={self.env.get(FLAG)!r})")
            return False
        if racing:
            return True
        due, why = self.gate.due(ev.now_ms)
        self.note(ev.turn, why)
        if due:
            self.compact(ev)
        return False


def expected(scenario: Scenario, recorded: list[BridgeCall] | None = None) -> Expected:
    """The bridge calls hermes-hooks must make in ``scenario`` on Hermes, in order.

    Stops of several sessions at one instant race for the gate's lock; which of them compacts
    is the race's to decide. With the ``recorded`` calls (the ledger, in the order the bridge
    received them) the model follows the race's outcome and checks its rules (``races``);
    without, it takes the first due Stop as the one that compacts.
    """
    walk = _Walk(scenario)
    for _, group in itertools.groupby(_timeline(scenario), key=lambda e: e.group):
        events = list(group)
        racing = len({ev.session for ev in events}) > 1
        at_gate = []
        for ev in events:
            if walk.fire(ev, racing):
                at_gate.append(ev)
        if at_gate:
            _race(
                at_gate,
                walk.gate,
                recorded=recorded,
                result=walk.result,
                call=walk.call,
                note=walk.note,
                compact=walk.compact,
            )
    walk.result.last_compaction_ms = walk.gate.last_ms
    return walk.result


def _race(
    stops: list[_Event],
    gate: Gate,
    *,
    recorded: list[BridgeCall] | None,
    result: Expected,
    call: Callable[[_Event, str, str | None], str | None],
    note: Callable[[int, str], None],
    compact: Callable[[_Event], None],
) -> None:
    """Stops of several sessions at one instant: at most one compacts, after failed tries only."""
    now_ms = stops[0].now_ms
    if not gate.config.remembers:
        # No state file, so no lock file beside it: the hook degrades to compacting at every
        # Stop (the design prefers that to never compacting), each racing one included.
        for ev in stops:
            note(ev.turn, "due: nothing can be remembered (and no lock taken)")
            compact(ev)
        return
    due, why = gate.due(now_ms)
    turns = [ev.turn for ev in stops]
    for turn in turns:
        note(turn, f"{why} (racing turns {turns})")
    if recorded is None:
        for ev in stops if due else []:
            compact(ev)
            if gate.last_ms == now_ms:
                break
        return
    by_turn = {ev.turn: ev for ev in stops}
    tries = [c for c in recorded if c["tool"] == COMPACT and c["turn"] in by_turn]
    ok = []
    for c in tries:
        if call(by_turn[c["turn"]], COMPACT, str(c.get("outcome", "ok"))) is None:
            ok.append(c["turn"])
    problem = ""
    if not due and tries:
        problem = f"compacted inside the window ({why})"
    elif due and not tries:
        problem = "none of them compacted, yet the gate was due"
    elif len(ok) > 1:
        problem = f"{len(ok)} successful compactions at one instant (turns {ok})"
    elif ok and tries[-1]["turn"] != ok[0]:
        problem = f"tried again after the compaction of turn {ok[0]} succeeded"
    if problem:
        result.races.append(Race(turns, problem))
    if ok:
        gate.remember(now_ms, ok[0])


@dataclass(frozen=True)
class Race:
    """Stops of several sessions at one instant that broke the rule of the gate's lock."""

    turns: list[int]
    problem: str

    def __str__(self) -> str:
        return f"turns {self.turns}, at one instant: {self.problem}"


@dataclass(frozen=True)
class Mismatch:
    """A turn whose recorded bridge calls differ from the model's."""

    turn: int
    expected: list[str]
    got: list[str]
    notes: list[str]

    def __str__(self) -> str:
        why = f" ({'; '.join(self.notes)})" if self.notes else ""
        return f"turn {self.turn}: expected {self.expected}, got {self.got}{why}"


def compare(want: Expected, calls: list[BridgeCall]) -> list[Mismatch]:
    """Turns whose recorded calls (the ledger) differ from the model's, call for call, in order."""
    got: dict[int, list[str]] = {}
    for c in calls:
        got.setdefault(int(c["turn"]), []).append(str(c["tool"]))
    expected_tools = want.tools_by_turn()
    return [
        Mismatch(turn, expected_tools.get(turn, []), got.get(turn, []), want.notes.get(turn, []))
        for turn in sorted(set(got) | set(expected_tools))
        if got.get(turn, []) != expected_tools.get(turn, [])
    ]
