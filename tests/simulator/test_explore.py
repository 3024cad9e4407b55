"""hooksim explore: drawn sessions run for real, judged, and failures written back as files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.explore import scenario_text
from hooksim.runner import run_scenario
from hooksim.scenario import load_scenario

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
