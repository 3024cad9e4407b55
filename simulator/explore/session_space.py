"""The sessions ``hooksim explore`` draws from, as Hypothesis strategies.

A drawn session is an ordinary scenario document (the mapping a scenario file holds), so the
one that fails is written back as a file ``hooksim run`` replays. The space has dimensions; an
``explore:`` block in a scenario file narrows or extends each (``false``: it does not vary):

- steps: turns (each ending with a reply, an empty reply, an interruption or a failed model
  call; with tool calls, in the host's own tool names and argument shapes: ``vocabulary``),
  ``/new``, host compactions (of the triggers the host has), and on Hermes a stop event with no
  response to save;
- gaps between steps, from a second to days, with extra weight at the edges (±1 s) of the gate's
  window, measured from the last successful compaction the model of the gate remembers;
- the wall clock set back, by more or less than a window;
- bridge outcomes per call (ok, empty, fail, exit N, hang, slow, garbage);
- several sessions at once, as a Hermes gateway serves several chats, whose steps coincide;
- the hooks' environment: for hermes-hooks the flag unset, ``''``, ``0``, ``false`` in several
  letter cases, ``1``, ``true``, ``yes``; the window unset, valid, invalid, tiny; a Hermes home
  the gate cannot write to.

Draws are ordered so that Hypothesis shrinks towards the plainest session: one turn with a
reply, a minute between steps, every bridge call ``ok``, the flag ``1``, the window unset.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from ..hosts import DEFAULT_HOST, HOSTS
from ..scenario import (
    DEFAULT_START,
    ApiError,
    Compact,
    NewSession,
    RawEvent,
    Scenario,
    SessionPlan,
    Step,
    ToolCall,
    Turn,
    parse_duration,
)
from . import gate_model
from .vocabulary import ToolShape, Vocabulary
from .vocabulary import vocabulary as words_of

DAY_S = 86_400
OUTCOMES = ("reply", "empty", "interrupted", "error")
# Failed model calls: an HTTP status or a named cause (Hermes fires nothing after pre_llm_call).
ERRORS: tuple[int | str, ...] = (400, 429, 500, "context_length")
BRIDGE_OUTCOMES = ("ok", "empty", "fail", "exit 3", "hang", "slow 200ms", "garbage", "meet")
BRIDGE_TOOLS = (gate_model.SAVE, gate_model.COMPACT, gate_model.START)
# A hanging bridge costs its timeout in real time; sessions that draw one get a short timeout,
# far above what a healthy call takes even on a loaded machine.
HANG_TIMEOUT_S = "2"
# The variants of hermes-hooks' variables, with weights: about two sessions in three have the
# gate on, with a state file it can write, so that the window's rules get exercised; half set a
# window of their own (minutes: long, short, tiny), one in five an unusable one. The first value
# of each is where shrinking goes.
HOOK_ENV: dict[str, tuple[tuple[str | None, int], ...]] = {
    gate_model.FLAG: (
        ("1", 9),
        ("true", 3),
        ("TRUE", 2),
        ("yes", 3),
        (None, 3),
        ("", 1),
        ("0", 2),
        ("false", 1),
        ("FALSE", 1),
        ("False", 1),
        ("fAlSe", 1),
    ),
    gate_model.WINDOW: (
        (None, 6),
        ("5", 3),
        ("1", 3),
        ("30", 2),
        ("0.5", 1),
        ("0.001", 1),
        ("abc", 1),
        ("-5", 1),
        ("0", 1),
        ("inf", 1),
        ("nan", 1),
        ("", 1),
    ),
    "HERMES_HOME": ((None, 15), ("/dev/null", 1)),
}


@dataclass(frozen=True)
class Space:
    """How far each dimension of a drawn session varies (None or False: it does not)."""

    examples: int = 120
    # Sessions run while shrinking a failure, at most: past them Hypothesis keeps the smallest
    # failing session it has (its own shrinker goes on to 500 shrinks or 5 minutes, which on a
    # loaded machine is many minutes of real sessions for a step or two fewer).
    shrink_runs: int = 32
    # Then, sessions run to try the failing one without each of its steps and tool calls
    # (deleting a whole step is where Hypothesis, cut short, most often stops short).
    prune_runs: int = 8
    max_turns: int = 6
    model: bool | None = None  # None: when the hooks are hermes-hooks' own
    gaps: tuple[float, float] | None = (1.0, 3.0 * DAY_S)
    # Gaps weighted to the edges of hermes-hooks' window, as the gate model measures it (on
    # other hosts: to a default window's edges from the start).
    gate_gaps: bool = True
    outcomes: tuple[str, ...] = OUTCOMES
    tools: int = 2  # tool calls per turn, at most
    vocabulary: Vocabulary = field(default_factory=lambda: words_of(DEFAULT_HOST))  # its words
    new_session: bool = True
    compact: bool = True
    bare_stop: bool = True
    sessions: int = 3  # sessions at once (a Hermes gateway), at most
    clock_back: float | None = 3.0 * DAY_S
    bridge: tuple[str, ...] | None = BRIDGE_OUTCOMES
    env: Mapping[str, tuple[tuple[str | None, int], ...]] = field(
        default_factory=lambda: dict(HOOK_ENV)
    )  # variable -> (value or None for unset, weight)

    @classmethod
    def for_host(cls, host: str, *, model: bool) -> Space:
        """The default space on ``host``: its own tools and steps (``vocabulary``); on Hermes a
        gateway's sessions, a bare Stop and the bridge's outcomes; with the gate model,
        hermes-hooks' variables."""
        words = words_of(host)
        ours = HOSTS[host].default_hooks() is not None  # hermes-hooks' own host
        return cls(
            vocabulary=words,
            env=dict(HOOK_ENV) if model else {},
            bare_stop=words.bare_stop,
            sessions=cls.sessions if words.gateway else 1,
            gate_gaps=ours,
            bridge=cls.bridge if ours else None,
        )

    def narrowed(self, block: Mapping[str, Any]) -> Space:
        """This space with an ``explore:`` block's settings applied (the block is validated)."""
        changes: dict[str, Any] = {}
        for key in (
            "examples",
            "max_turns",
            "model",
            "new_session",
            "compact",
            "bare_stop",
            "sessions",
        ):
            if key in block:
                changes[key] = block[key]
        if "gaps" in block:
            gaps = block["gaps"]
            if gaps is False:
                changes["gaps"] = None
            else:
                low = parse_duration(gaps.get("min", 1))
                changes["gaps"] = (low, max(low, parse_duration(gaps.get("max", 3 * DAY_S))))
        if "outcomes" in block:
            changes["outcomes"] = tuple(block["outcomes"])
        if "tools" in block:
            changes.update(self._tools(block["tools"]))
        if "clock_back" in block:
            back = block["clock_back"]
            changes["clock_back"] = (
                None if back is False else parse_duration(back.get("max", 3 * DAY_S))
            )
        if "bridge" in block:
            changes["bridge"] = None if block["bridge"] is False else tuple(block["bridge"])
        if "env" in block:
            changes["env"] = {
                **self.env,
                **{name: tuple((v, 1) for v in values) for name, values in block["env"].items()},
            }
        return dataclasses.replace(self, **changes)

    def _tools(self, tools: int | bool | list[str | dict[str, Any]]) -> dict[str, Any]:
        """``tools:``: how many calls per turn (``false``: none), or which tools to draw from,
        by name (the host's own, with their argument shapes) or as ``{name, args}``.

        Raises ValueError for a name the host's vocabulary does not have.
        """
        if tools is False:
            return {"tools": 0}
        if isinstance(tools, int):
            return {"tools": tools}
        chosen: list[ToolShape] = []
        for item in tools:
            if isinstance(item, dict):
                chosen.append(ToolShape(item["name"], (dict(item.get("args", {})),)))
                continue
            shape = self.vocabulary.tool(item)
            if shape is None:
                known = self.vocabulary.names
                close = difflib.get_close_matches(item, known, n=1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                raise ValueError(
                    f"explore.tools: {item!r} is not one of this host's tools ({', '.join(known)});"
                    f" {hint}give another tool as {{name: {item}, args: {{...}}}}"
                )
            chosen.append(shape)
        vocabulary = dataclasses.replace(self.vocabulary, tools=tuple(chosen))
        return {"vocabulary": vocabulary, "tools": self.tools or Space.tools}


def _weighted(draw: st.DrawFn, choices: Sequence[tuple[Any, int]]) -> Any:
    """One of ``(value, weight)`` choices; shrinks towards the first."""
    pick = draw(st.integers(0, sum(weight for _, weight in choices) - 1))
    for value, weight in choices:
        if pick < weight:
            return value
        pick -= weight
    raise AssertionError("unreachable")


def _turn_entry(draw: st.DrawFn, space: Space, n: int) -> tuple[dict[str, Any], Step]:
    user = draw(st.sampled_from((f"message {n}", "", "héllo ✓ 🙂")))
    outcome = _weighted(draw, [(o, 5 if o == "reply" else 1) for o in space.outcomes])
    entry: dict[str, Any] = {"user": user}
    assistant = error = None
    if outcome == "reply":
        assistant = draw(st.sampled_from((f"reply {n}", "réponse ✓")))
        entry["assistant"] = assistant
    elif outcome == "empty":
        assistant = entry["assistant"] = ""
    elif outcome == "interrupted":
        entry["interrupted"] = True
    else:
        error = entry["error"] = draw(st.sampled_from(ERRORS))
    shapes = space.vocabulary.tools
    calls = draw(st.integers(0, space.tools)) if space.tools and shapes else 0
    tools = tuple(_tool_call(draw, shapes) for _ in range(calls))
    if tools:
        entry["tools"] = [{"name": t.name, "args": t.args} for t in tools]
    return entry, Turn(
        user,
        assistant,
        outcome == "interrupted",
        tools,
        error=None if error is None else ApiError.parse(error),
    )


def _tool_call(draw: st.DrawFn, shapes: tuple[ToolShape, ...]) -> ToolCall:
    """A call of one of the host's tools, with arguments of that tool's shape."""
    shape = draw(st.sampled_from(shapes))
    return ToolCall(shape.name, dict(draw(st.sampled_from(shape.args))))


def _bare_stop(n: int) -> tuple[dict[str, Any], Step]:
    """A post_llm_call whose payload carries no response (design case 12)."""
    extra = {
        "task_id": f"t{n}",
        "turn_id": f"bare:{n}",
        "user_message": "",
        "assistant_response": "",
    }
    return {"event": "post_llm_call", "extra": extra}, RawEvent("post_llm_call", None, extra)


def _step(draw: st.DrawFn, space: Space, n: int) -> tuple[dict[str, Any], Step]:
    kinds = ["turn"] * 7
    kinds += ["new_session"] * space.new_session + ["compact"] * space.compact
    kinds += ["bare_stop"] * space.bare_stop
    kind = kinds[draw(st.integers(0, len(kinds) - 1))]
    if kind == "new_session":
        return {"new_session": None}, NewSession()
    if kind == "compact":
        triggers = space.vocabulary.compactions
        trigger = triggers[0] if len(triggers) == 1 else draw(st.sampled_from(triggers))
        return {"compact": trigger}, Compact(trigger)
    if kind == "bare_stop":
        return _bare_stop(n)
    return _turn_entry(draw, space, n)


def _gap_s(draw: st.DrawFn, space: Space, now_ms: int, gate: gate_model.Expected) -> int:
    """Seconds before the next step: a minute, a window's edge (±1 s), half a window, or
    anything in range.

    The edge is that of the window since the last successful compaction, or since the last one
    tried (a failed compaction must not be remembered: a Stop just inside the window of the
    failure tells the two apart).
    """
    assert space.gaps is not None
    low, high = int(space.gaps[0]), max(int(space.gaps[0]), int(space.gaps[1]))
    window_ms = gate.config.window_ms
    # After a failed compaction, a Stop inside the window of that failure more often.
    failed = gate.last_try_ms != gate.last_compaction_ms
    kind = _weighted(draw, (("minute", 2), ("edge", 5), ("half", 4 if failed else 2), ("any", 1)))
    if kind == "minute":
        return min(max(60, low), high)
    if kind == "half":
        return min(max(int(window_ms // 2000), low), high)
    if kind == "edge":
        last_ms = gate.last_compaction_ms
        if gate.last_try_ms != last_ms and (last_ms is None or draw(st.booleans())):
            last_ms = gate.last_try_ms
        delta_s = draw(st.sampled_from((1, -1, 0)))
        since = now_ms - last_ms if last_ms is not None and last_ms <= now_ms else 0
        target_s = int((window_ms - since) // 1000) + delta_s
        if target_s < low:
            target_s = int(window_ms // 1000) + delta_s
        return min(max(target_s, low), high)
    return draw(st.integers(low, high))


def _clock_back_s(
    draw: st.DrawFn, space: Space, now_ms: int, last_ms: int | None, window_ms: float
) -> int:
    """Seconds the clock goes back: to a window's edge behind the last compaction, or any."""
    assert space.clock_back is not None
    top = max(1, int(space.clock_back))
    if last_ms is not None and draw(st.booleans()):
        # Land the clock one window (±1 s) behind the remembered compaction, or further.
        edge_s = int((now_ms - last_ms + window_ms) // 1000)
        if _weighted(draw, ((False, 2), (True, 1))):
            return min(max(edge_s + draw(st.sampled_from((1, -1, 0))), 1), top)
        return min(max(edge_s + draw(st.integers(2, DAY_S)), 1), top)
    return draw(st.integers(1, top))


def _outcome(draw: st.DrawFn, outcomes: tuple[str, ...]) -> str:
    """One call's outcome: ``ok`` half the time, a hanging bridge (seconds of real time) rarely."""
    others = [o for o in outcomes if o not in ("ok", "hang", "meet")]
    hang = "hang" in outcomes
    pick = draw(st.integers(0, 31))
    if pick < 16 or not (others or hang):
        return "ok" if "ok" in outcomes or not (others or hang) else (others or ["hang"])[0]
    if hang and (pick == 31 or not others):
        return "hang"
    return others[pick % len(others)]


def _bridge_plan(draw: st.DrawFn, space: Space, sessions: int) -> dict[str, list[str]]:
    """Per tool, the outcomes of its first calls; most sessions script one tool or none.

    Compactions get a plan more often than other calls, starting with a failure half the time
    (is it retried at the next Stop, even inside the window?). With several sessions, they
    mostly ``meet``: the sessions' Stops are then at the gate together, on any machine.
    """
    if not space.bridge:
        return {}
    plan: dict[str, list[str]] = {}
    for tool in BRIDGE_TOOLS:
        compact = tool == gate_model.COMPACT
        if sessions > 1 and compact and "meet" in space.bridge and draw(st.integers(0, 3)) != 0:
            plan[tool] = ["meet"]
            continue
        if not _weighted(draw, ((False, 2 if compact else 3), (True, 3 if compact else 2))):
            continue
        failures = [o for o in space.bridge if not gate_model.call_succeeds(o)]
        first = (
            [draw(st.sampled_from(failures))]
            if compact and failures and _weighted(draw, ((False, 1), (True, 2)))
            else []
        )
        outcomes = first + [
            _outcome(draw, space.bridge) for _ in range(draw(st.integers(1 - len(first), 3)))
        ]
        # The last outcome repeats for every later call: repeat it only when it is cheap (a
        # hanging or slow bridge on every call would cost real seconds per call).
        last = outcomes[-1]
        if last == "hang" or last.startswith("slow") or not draw(st.booleans()):
            outcomes.append("ok")
        while len(outcomes) > 1 and outcomes[-1] == "ok" and outcomes[-2] == "ok":
            outcomes.pop()
        if outcomes != ["ok"]:
            plan[tool] = outcomes
    return plan


def _draw_env(draw: st.DrawFn, space: Space, base: Mapping[str, str]) -> dict[str, str]:
    env = dict(base)
    for name, values in space.env.items():
        value = _weighted(draw, values)
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def _session_count(draw: st.DrawFn, space: Space) -> int:
    """One session, or several at once on a gateway (the gate's lock is then at stake)."""
    if space.sessions <= 1:
        return 1
    return int(_weighted(draw, [(1, 3), (2, 2), *((k, 1) for k in range(3, space.sessions + 1))]))


@st.composite
def sessions(draw: st.DrawFn, space: Space, base: Mapping[str, Any]) -> dict[str, Any]:
    """A scenario document: ``base`` (a file's name, hooks, env, ...) with drawn sessions.

    Steps are drawn instant by instant: at each, one session takes a step, or (a gateway) any
    of several, all at that instant, so their hooks run at the same time.
    """
    env = _draw_env(draw, space, base.get("env", {}))
    count = _session_count(draw, space)
    plan = _bridge_plan(draw, space, count)
    if any(o == "hang" for outcomes in plan.values() for o in outcomes):
        env.setdefault(gate_model.TIMEOUT, HANG_TIMEOUT_S)
    start = dt.datetime.fromisoformat(
        str(base.get("clock", {}).get("start", DEFAULT_START)).replace("Z", "+00:00")
    )
    model_of = Scenario(Path("explored.yaml"), "explored", (), env=env, bridge=plan, start=start)
    window_ms = gate_model.GateConfig.from_env(env).window_ms
    entries: list[list[dict[str, Any]]] = [[] for _ in range(count)]
    steps: list[list[Step]] = [[] for _ in range(count)]
    last_s = [0] * count  # each session's previous step, in seconds since the start
    offset_s = 0
    now_ms = int(start.timestamp() * 1000)
    n = 0
    while True:
        gap_s = back_s = 0
        if n:
            gate = (
                gate_model.expected(_partial(model_of, steps))
                if space.gate_gaps
                else gate_model.Expected(gate_model.GateConfig.from_env(env))
            )
            gap_s, back_s = _gap_or_clock_back(draw, space, now_ms, gate, window_ms)
        offset_s += gap_s
        now_ms += (gap_s - back_s) * 1000
        for i, k in enumerate(_acting(draw, count)):
            n += 1
            entry, step = _step(draw, space, n)
            after_s, last_s[k] = offset_s - last_s[k], offset_s
            back = back_s if i == 0 else 0
            if after_s:
                entry = {"after": duration_text(after_s), **entry}
            if back:
                entry = {"clock_back": duration_text(back), **entry}
            entries[k].append(entry)
            steps[k].append(
                dataclasses.replace(step, after_s=float(after_s), clock_back_s=float(back))
            )
        # Stop after an instant about one time in five (Hypothesis draws 0 more often than a
        # uniform draw would): sessions of four steps or so, and shrinking (towards 0) ends
        # them early.
        if n >= space.max_turns or draw(st.integers(0, 7)) == 0:
            break
    return _document(base, env, plan, entries)


def _gap_or_clock_back(
    draw: st.DrawFn, space: Space, now_ms: int, gate: gate_model.Expected, window_ms: float
) -> tuple[int, int]:
    """Before the next instant: seconds that pass, or seconds the clock goes back (one is 0)."""
    last_ms = gate.last_compaction_ms
    # The clock goes back more often when the gate remembers a compaction: that is
    # when it matters (is an instant in the future forgotten?).
    odds = ((False, 2), (True, 1)) if last_ms is not None else ((False, 7), (True, 1))
    if space.clock_back is not None and _weighted(draw, odds):
        return 0, _clock_back_s(draw, space, now_ms, last_ms, window_ms)
    if space.gaps is not None:
        return _gap_s(draw, space, now_ms, gate), 0
    return 60, 0


def _acting(draw: st.DrawFn, count: int) -> list[int]:
    """The sessions that take a step at the next instant."""
    # Every session at once half the time (their Stops race for the gate), else any.
    together = count > 1 and draw(st.booleans())
    acting = list(range(count)) if together else None
    return acting or [k for k in range(count) if count > 1 and draw(st.booleans())] or [0]


def _document(
    base: Mapping[str, Any],
    env: dict[str, str],
    plan: dict[str, list[str]],
    entries: list[list[dict[str, Any]]],
) -> dict[str, Any]:
    """The scenario document of drawn steps: ``turns``, or ``sessions`` when several."""
    doc: dict[str, Any] = {k: v for k, v in base.items() if k not in ("turns", "expect")}
    if env:
        doc["env"] = env
    if plan:
        doc["bridge"] = plan
    doc["clock"] = {**base.get("clock", {}), "tick": False}
    if len(entries) == 1:
        doc["turns"] = entries[0]
    else:
        doc["sessions"] = [
            {"id": f"chat-{k + 1}", "turns": turns} for k, turns in enumerate(entries) if turns
        ]
    return doc


def _partial(model_of: Scenario, steps: list[list[Step]]) -> Scenario:
    """The session drawn so far, for the gate model to say what it remembers."""
    if len(steps) == 1:
        return dataclasses.replace(model_of, steps=tuple(steps[0]))
    plans = tuple(SessionPlan(f"chat-{k + 1}", tuple(s)) for k, s in enumerate(steps) if s)
    return dataclasses.replace(model_of, sessions=plans)


def duration_text(seconds: int) -> str:
    """``1d2h3m4s`` for a whole number of seconds (a scenario duration)."""
    parts = []
    for unit, size in (("d", DAY_S), ("h", 3600), ("m", 60), ("s", 1)):
        if seconds >= size:
            parts.append(f"{seconds // size}{unit}")
            seconds %= size
    return "".join(parts) or "0s"


def base_document(data: Mapping[str, Any] | None) -> dict[str, Any]:
    """What a drawn session keeps of a scenario file: its hooks, host, environment, clock and
    built-in checks; not its turns, expectations, invariants or explore block."""
    keep: Sequence[str] = (
        "name",
        "description",
        "tool",
        "env",
        "clock",
        "session",
        "hooks",
        "hosts",
        "checks",
    )
    return {k: v for k, v in (data or {}).items() if k in keep}
