"""The model of the compaction gate: its rules, and its agreement with the real hook."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hooksim.explore import gate_model
from hooksim.explore.gate_model import (
    Gate,
    GateConfig,
    call_succeeds,
    compare,
    expected,
    flag_on,
    window_ms,
)
from hooksim.replay.runner import run_scenario
from hooksim.scenario import NewSession, RawEvent, Scenario, SessionPlan, Turn, load_scenario

ROOT = Path(__file__).parents[2]
# The shipped Hermes scenarios that run hermes-hooks' own entries (not hooks of their own).
HERMES = [
    path
    for path in sorted((ROOT / "scenarios" / "hermes").glob("*.yaml"))
    if load_scenario(path).hooks is None
]
T0 = 1_780_304_400_000  # 2026-06-01T09:00:00Z
MIN = 60_000


def session(*steps: Turn | NewSession | RawEvent, **env: str) -> Scenario:
    """A Hermes session of these steps, with these hook variables."""
    return Scenario(Path("s.yaml"), "s", tuple(steps), env=dict(env))


def tools(scenario: Scenario) -> dict[int, list[str]]:
    return expected(scenario).tools_by_turn()


@pytest.mark.parametrize(
    ("value", "on"),
    [
        (None, False),
        ("", False),
        ("0", False),
        ("false", False),
        ("FALSE", False),
        ("fAlSe", False),
        ("1", True),
        ("true", True),
        ("yes", True),
        ("off", True),
    ],
)
def test_flag_truth_table(value: str | None, on: bool) -> None:
    """The flag is on when set and not '', '0' or 'false' in any letter case."""
    assert flag_on(value) is on


@pytest.mark.parametrize(
    ("value", "ms"),
    [
        (None, 600_000),
        ("5", 300_000),
        ("0.5", 30_000),
        ("abc", 600_000),
        ("-5", 600_000),
        ("0", 600_000),
        ("inf", 600_000),
        ("nan", 600_000),
        ("", 600_000),
        ("0.001", 60),
    ],
)
def test_window_values(value: str | None, ms: float) -> None:
    """The window is the variable's minutes when finite and > 0, else 10 minutes."""
    assert window_ms(value) == pytest.approx(ms)


@pytest.mark.parametrize(
    ("outcome", "ok"),
    [
        ("ok", True),
        ("empty", True),
        ("exit 0", True),
        ("slow 200ms", True),
        ("slow 2s", True),
        ("slow 20s", False),
        ("fail", False),
        ("exit 3", False),
        ("hang", False),
        ("garbage", False),
    ],
)
def test_call_outcomes(outcome: str, ok: bool) -> None:
    """A call succeeds when the bridge exits 0 with JSON or nothing, within the timeout."""
    assert call_succeeds(outcome, timeout_s=10) is ok


def test_gate_window_edges_and_backward_clock() -> None:
    """Due at exactly one window; inside it a millisecond earlier; a stamp a window ahead is forgotten."""
    gate = Gate(GateConfig(enabled=True, window_ms=10 * MIN))
    assert gate.due(T0)[0]
    gate.remember(T0, 1)
    assert not gate.due(T0 + 10 * MIN - 1)[0]
    assert gate.due(T0 + 10 * MIN)[0]
    assert not gate.due(T0 - 10 * MIN)[0], "exactly one window back: still remembered"
    due, why = gate.due(T0 - 10 * MIN - 1000)
    assert due
    assert "clock went back" in why


def test_unwritable_state_is_never_remembered() -> None:
    """With HERMES_HOME a file, every Stop compacts: nothing can be remembered."""
    sc = session(
        Turn("a", "b"),
        Turn("c", "d", after_s=60),
        WAGGLE_HERMES_COMPACT_ON_STOP="1",
        HERMES_HOME="/dev/null",
    )
    assert tools(sc) == {
        1: ["start_session", "save_memory", "save_memory", "cleanup_frames"],
        2: ["save_memory", "save_memory", "cleanup_frames"],
    }


def test_unwritable_state_has_no_lock_either() -> None:
    """With HERMES_HOME a file, a gateway's Stops at one instant each compact: the gate has
    neither a state nor a lock file, and degrades to compacting at every Stop."""
    sc = dataclasses.replace(
        session(WAGGLE_HERMES_COMPACT_ON_STOP="1", HERMES_HOME="/dev/null"),
        sessions=(
            SessionPlan("chat-1", (Turn("a", "b"),)),
            SessionPlan("chat-2", (Turn("c", "d"),)),
        ),
    )
    recorded = [{"turn": turn, "tool": "cleanup_frames", "outcome": "ok"} for turn in (1, 2)]
    want = expected(sc, recorded)
    assert want.races == []
    assert [c.tool for c in want.calls].count("cleanup_frames") == 2


def test_failed_save_skips_the_gate_and_failed_compaction_is_retried() -> None:
    """Save first: a failed save skips compaction; a failed compaction is tried again next Stop."""
    sc = dataclasses.replace(
        session(
            Turn("a", "b"),
            Turn("c", "d", after_s=60),
            Turn("e", "f", after_s=60),
            WAGGLE_HERMES_COMPACT_ON_STOP="1",
        ),
        bridge={"save_memory": ["ok", "fail", "ok"], "cleanup_frames": ["fail", "ok"]},
    )
    want = expected(sc)
    assert want.tools_by_turn() == {
        1: ["start_session", "save_memory", "save_memory"],
        2: ["save_memory", "save_memory", "cleanup_frames"],
        3: ["save_memory", "save_memory", "cleanup_frames"],
    }
    assert want.notes[1] == ["the save failed (fail): no compaction"]
    assert "the compaction failed (fail): not remembered" in want.notes[2]
    assert want.last_compaction_ms == T0 + 2 * MIN


def test_clock_back_without_after_leaves_the_turn_before_at_its_instant() -> None:
    """A step that sets the clock back with no after of its own moves the clock from that step
    on: the turn before it keeps its instant, as the runner gives it."""
    sc = session(
        Turn("a", "b"),
        Turn("c", "d", clock_back_s=5 * 60),
        WAGGLE_HERMES_COMPACT_ON_STOP="1",
    )
    want = expected(sc)
    assert want.tools_by_turn() == {
        1: ["start_session", "save_memory", "save_memory", "cleanup_frames"],
        2: ["save_memory", "save_memory"],
    }
    assert want.last_compaction_ms == T0


def test_stop_without_response_and_unreadable_payload() -> None:
    """A Stop with nothing to save still compacts; a payload the hook cannot read calls nothing."""
    sc = session(
        RawEvent("post_llm_call", None, {"assistant_response": ""}),
        RawEvent("post_llm_call", b"{not json", None, after_s=3600),
        WAGGLE_HERMES_COMPACT_ON_STOP="1",
    )
    assert tools(sc) == {1: ["cleanup_frames"]}


def test_compare_names_each_turn_that_differs() -> None:
    """A mismatch says the turn, both call lists and the model's reason."""
    sc = session(Turn("a", "b"), WAGGLE_HERMES_COMPACT_ON_STOP="0")
    calls = [
        {"turn": 1, "tool": t}
        for t in ("start_session", "save_memory", "save_memory", "cleanup_frames")
    ]
    (mismatch,) = compare(expected(sc), calls)
    assert str(mismatch) == (
        "turn 1: expected ['start_session', 'save_memory', 'save_memory'], got ['start_session',"
        " 'save_memory', 'save_memory', 'cleanup_frames']"
        f" (the gate is off ({gate_model.FLAG}='0'))"
    )


@pytest.mark.slow  # every shipped Hermes scenario again: once per CI run, in tox -e slow
@pytest.mark.parametrize("path", HERMES, ids=lambda p: p.stem)
def test_model_agrees_with_the_hook_on_shipped_scenarios(path: Path) -> None:
    """On every shipped Hermes scenario the real hook makes exactly the calls the model expects."""
    scenario = load_scenario(path)
    calls = run_scenario(scenario).calls
    want = expected(scenario, calls)
    assert compare(want, calls) == []
    assert want.races == []
