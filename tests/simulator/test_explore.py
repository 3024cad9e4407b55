"""hooksim explore: drawn sessions run for real, judged, and failures written back as files."""

from __future__ import annotations

import itertools
import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hooksim.cli import main
from hooksim.explore import gate_model
from hooksim.explore.search import scenario_text
from hooksim.explore.session_space import Space, sessions
from hooksim.replay.runner import run_scenario
from hooksim.scenario import Scenario, ScheduledStep, load_scenario
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

# A Hermes hook that prints on stdout (Hermes would read it) at every prompt.
CHATTY = """\
name: a chatty prompt hook
hooks:
  pre_llm_call:
    - command: "sh -c 'cat >/dev/null; echo chatter'"
turns:
  - {user: hi, assistant: hello}
  - {after: 1m, user: more, assistant: sure}
invariants:
  stdout: ""
explore:
  examples: 5
  bridge: false
"""


def test_the_real_hook_passes_a_small_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The installed hooks keep every invariant and agree with the gate model; nothing is written."""
    out = tmp_path / "failures"
    argv = ["--examples", "6", "--seed", "5", "--out", str(out)]
    assert main(["explore", *argv]) == 0
    text = capsys.readouterr().out
    assert "explore the hooks hermes-hooks install writes on hermes: 6 examples in" in text
    assert ", seed 5\n  no invariant failed\n" in text
    assert not out.exists()


def test_a_broken_invariant_is_shrunk_written_and_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A drawn session that breaks the file's invariant is shrunk to one step, which `run` fails."""
    source = tmp_path / "chatty.yaml"
    source.write_text(CHATTY)
    out = tmp_path / "failures"
    assert main(["explore", str(source), "--seed", "9", "--out", str(out)]) == 1
    text = capsys.readouterr().out
    assert "FAIL stdout: stdout of pre_llm_call at turn 1: expected '', got 'chatter\\n'" in text
    assert re.search(r"found at example 1 \(seed 9\) after [0-9.]+s, shrunk to 1 step in", text)
    (written,) = out.glob("*.yaml")
    assert written.name.startswith("chatty-stdout-")
    content = written.read_text()
    assert content.startswith("# Found by hooksim explore at example 1 of 5 (seed 9)")
    assert f"# Found again by: hooksim explore {source} --seed 9 --examples 5\n" in content
    assert f"# Replay: hooksim run {written}\n" in content
    scenario = load_scenario(written)
    assert scenario.expect == {"stdout": ""}
    assert scenario.clock_tick is False
    assert len(scenario.steps) == 1
    assert main(["run", str(written)]) == 1
    assert "stdout of pre_llm_call at turn 1: expected '', got 'chatter\\n'" in (
        capsys.readouterr().out
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nowhere.yaml"], "hooksim: no such file or directory: nowhere.yaml"),
        (["--tool", "vim"], "hooksim: --tool: unknown tool 'vim'"),
        (["--hooks-config", "nowhere.yaml"], "hooksim: --hooks-config: no such file: nowhere.yaml"),
    ],
)
def test_usage_errors_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing file, an unknown host or config is one line on stderr and exit 2."""
    assert main(["explore", *argv]) == 2
    assert capsys.readouterr().err.startswith(message)


def test_a_bad_scenario_is_a_file_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An explore: block with an unknown dimension is named with its file and line."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nturns:\n  - {user: hi}\nexplore:\n  colour: blue\n")
    assert main(["explore", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"{bad}:5: explore: unknown key 'colour'")


def test_scenario_text_round_trips(tmp_path: Path) -> None:
    """A drawn document written as YAML loads back as the same session, one line per step."""
    doc = {
        "name": "n",
        "env": {"WAGGLE_HERMES_COMPACT_ON_STOP": "FALSE"},
        "clock": {"tick": False},
        "bridge": {"cleanup_frames": ["fail", "ok"]},
        "turns": [
            {"user": "héllo ✓", "assistant": "r"},
            {"after": "10m1s", "clock_back": "1d", "user": "", "interrupted": True},
            {"event": "post_llm_call", "extra": {"assistant_response": ""}},
        ],
        "expect": {"calls_by_turn": {"2": ["save_memory"]}},
    }
    path = tmp_path / "s.yaml"
    text = scenario_text(doc, "how it was found")
    path.write_text(text)
    assert text.splitlines()[0] == "# how it was found"
    assert "  - {after: 10m1s, clock_back: 1d, user: '', interrupted: true}" in text
    scenario = load_scenario(path)
    assert [(s.after_s, s.clock_back_s) for s in scenario.steps] == [(0, 0), (601, 86400), (0, 0)]
    assert scenario.bridge == {"cleanup_frames": ["fail", "ok"]}
    assert scenario.expect == {"calls_by_turn": {"2": ["save_memory"]}}


def test_a_frozen_clock_set_back_and_invariants_in_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With tick false the hook stamps the turn's exact instant; clock_back moves it back; run checks invariants."""
    path = tmp_path / "back.yaml"
    path.write_text(
        "name: the clock goes back a day\n"
        "env: {WAGGLE_HERMES_COMPACT_ON_STOP: '1'}\n"
        "clock: {start: '2026-06-01T09:00:00Z', tick: false}\n"
        "turns:\n"
        "  - {user: a, assistant: b}\n"
        "  - {after: 1m, clock_back: 1d, user: c, assistant: d}\n"
        "invariants: {exit_codes: 0, stdout: 'never printed'}\n"
        "expect: {compactions_at_turns: [1, 2], state_file: present}\n"
    )
    scenario = load_scenario(path)
    assert [(s.after_s, s.clock_back_s) for s in scenario.steps] == [(0, 0), (60, 86400)]
    result = run_scenario(scenario)
    assert result.state_file == str(1_780_304_400_000 + (60 - 86400) * 1000)
    assert main(["run", str(path)]) == 1
    out = capsys.readouterr().out
    assert "stdout of on_session_start at turn 1: expected 'never printed', got ''" in out
    assert "compactions" not in out


def test_an_explore_block_narrows_each_dimension() -> None:
    """Each key of an explore: block sets its dimension; sessions: 1 draws one session at a time."""
    space = Space().narrowed(
        {
            "sessions": 1,
            "bridge": False,
            "clock_back": False,
            "gaps": {"min": "1m", "max": "2h"},
            "env": {"X": [None, "1"]},
            "examples": 7,
        }
    )
    assert (space.sessions, space.bridge, space.clock_back) == (1, None, None)
    assert (space.gaps, space.examples) == ((60.0, 7200.0), 7)
    assert space.env["X"] == ((None, 1), ("1", 1))


def _stale_future_stamp(gate: gate_model.Gate, now_ms: int) -> tuple[bool, str]:
    """The gate's rule, except that a remembered instant in the future is never forgotten."""
    if gate.last_ms is not None and gate.last_ms > now_ms:
        return False, "the remembered compaction is in the future"
    return REAL_DUE(gate, now_ms)


def _failed_compaction_counts(plan: gate_model.BridgePlan, tool: str) -> str:
    """The scripted outcome, except that a failed compaction counts as done (and remembered)."""
    outcome = REAL_TAKE(plan, tool)
    return "ok" if tool == gate_model.COMPACT else outcome


def _on_unless_turned_off(value: str | None) -> bool:
    """The flag's rule, except that unset means on."""
    return REAL_FLAG_ON("1" if value is None else value)


REAL_FLAG_ON = gate_model.flag_on
REAL_DUE = gate_model.Gate.due
REAL_TAKE = gate_model.BridgePlan.take
# The rules the mutant hooks get wrong, applied to the gate model.
WRONG_RULES: dict[str, Callable[[], AbstractContextManager[Any]]] = {
    "ignores the window": lambda: mock.patch.object(gate_model, "window_ms", return_value=0.0),
    "ignores the window variable": lambda: mock.patch.object(
        gate_model, "window_ms", return_value=gate_model.DEFAULT_WINDOW_MS
    ),
    "stamps a failed compaction": lambda: mock.patch.object(
        gate_model.BridgePlan, "take", _failed_compaction_counts
    ),
    "keeps a stamp from the future": lambda: mock.patch.object(
        gate_model.Gate, "due", _stale_future_stamp
    ),
    "misreads false": lambda: mock.patch.object(gate_model, "flag_on", bool),
    "on by default": lambda: mock.patch.object(gate_model, "flag_on", _on_unless_turned_off),
}


def _instants(scenario: Scenario) -> Iterator[tuple[float, list[ScheduledStep]]]:
    for offset, steps in itertools.groupby(scenario.schedule, key=lambda s: s.offset_s):
        yield offset, list(steps)


def _drawn(count: int, seeds: range) -> list[Scenario]:
    """``count`` sessions of the default space from each seed, as explore draws them, loaded as
    scenarios."""
    documents: list[dict[str, Any]] = []

    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(sessions(Space(), {"name": "drawn"}))
    def collect(document: dict[str, Any]) -> None:
        documents.append(document)

    for seed in seeds:
        hypothesis_seed(seed)(collect)()
    with tempfile.TemporaryDirectory() as tmp:
        paths = [Path(tmp, f"{i}.yaml") for i in range(len(documents))]
        for path, document in zip(paths, documents, strict=True):
            path.write_text(scenario_text(document))
        return [load_scenario(path) for path in paths]


def test_the_default_space_tells_each_rule_of_the_gate_apart() -> None:
    """Of 300 drawn sessions, at least 1 in 100 tells each wrong rule from the gate model's own:
    the weights reach the window's edges, failed compactions, the clock set back, a window of
    one's own, and a gateway's Stops meeting at the gate."""
    drawn = _drawn(60, range(1, 6))
    told_apart = dict.fromkeys(WRONG_RULES, 0)
    for scenario in drawn:
        right = [(c.turn, c.tool) for c in gate_model.expected(scenario).calls]
        for name, wrong in WRONG_RULES.items():
            with wrong():
                if [(c.turn, c.tool) for c in gate_model.expected(scenario).calls] != right:
                    told_apart[name] += 1
    meeting = sum(
        1
        for s in drawn
        if "meet" in str(s.bridge.get("cleanup_frames"))
        and any(len({i.session for i in g}) > 1 for _, g in _instants(s))
    )
    told_apart["no lock (Stops meeting at the gate)"] = meeting
    assert all(n >= len(drawn) // 100 for n in told_apart.values()), told_apart
