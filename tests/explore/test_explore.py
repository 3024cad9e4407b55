"""hooksim explore: drawn sessions run for real, judged, and failures written back as files."""

from __future__ import annotations

import io
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
from hooksim.explore.search import Progress, scenario_text
from hooksim.explore.session_space import Space, sessions
from hooksim.explore.vocabulary import SHELL_COMMANDS, ToolShape, vocabulary
from hooksim.replay.runner import run_scenario
from hooksim.scenario import Scenario, ScheduledStep, load_scenario
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

# A Hermes hook that prints on stdout (Hermes would read it) at every prompt.
CHATTY = """\
name: a chatty prompt hook
checks: {output_refused: false}  # Hermes ignores plain text; the invariant is what is tested
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


@pytest.mark.one_python  # a search or a corpus run: the same on every interpreter
def test_the_real_hook_passes_a_small_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The installed hooks keep every invariant and agree with the gate model; nothing is written."""
    out = tmp_path / "failures"
    argv = ["--examples", "6", "--seed", "5", "--out", str(out)]
    assert main(["explore", *argv]) == 0
    text = capsys.readouterr().out
    assert "explore the hooks hermes-hooks install writes on hermes: 6 examples in" in text
    assert text.endswith(", seed 5\nno invariant failed\n")
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


@pytest.mark.one_python  # a search or a corpus run: the same on every interpreter
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


def _space_file(tmp_path: Path, text: str, name: str = "space.yaml") -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _drawn_documents(space: Space, count: int, seed: int = 1) -> list[dict[str, Any]]:
    documents: list[dict[str, Any]] = []

    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(sessions(space, {"name": "drawn"}))
    def collect(document: dict[str, Any]) -> None:
        documents.append(document)

    hypothesis_seed(seed)(collect)()
    return documents


def _steps(document: dict[str, Any]) -> list[dict[str, Any]]:
    if "sessions" in document:
        return [step for session in document["sessions"] for step in session["turns"]]
    return list(document["turns"])


# Each host's shell tool and the argument its hooks read, and a file tool of its own.
HOST_TOOLS = {
    "hermes": ("terminal", "command", "read_file"),
    "claude-code": ("Bash", "command", "Read"),
    "codex": ("Bash", "command", "apply_patch"),
    "gemini-cli": ("run_shell_command", "command", "replace"),
    "cursor": ("Shell", "command", "Read"),
}


@pytest.mark.parametrize("host", sorted(HOST_TOOLS))
def test_each_host_draws_its_own_tools_and_steps(host: str) -> None:
    """On each host, drawn calls use that host's tool names with arguments of their shape;
    compactions take the triggers the host has; only Hermes gets a bare Stop and a gateway."""
    shell, field, other = HOST_TOOLS[host]
    documents = _drawn_documents(Space.for_host(host, model=False), 40)
    steps = [step for document in documents for step in _steps(document)]
    calls = [call for step in steps for call in step.get("tools", [])]
    names = {call["name"] for call in calls}
    assert {shell, other} <= names <= set(vocabulary(host).names)
    assert all(isinstance(c["args"].get(field), str) for c in calls if c["name"] == shell)
    commands = {c["args"][field] for c in calls if c["name"] == shell}
    assert len(commands) > 2, commands
    assert commands <= set(SHELL_COMMANDS)
    triggers = {step["compact"] for step in steps if "compact" in step}
    assert triggers == ({"auto"} if host == "hermes" else {"auto", "manual"})
    assert any("event" in step for step in steps) == (host == "hermes")
    assert any("sessions" in document for document in documents) == (host == "hermes")
    assert all("bridge" not in document for document in documents) or host == "hermes"


GUARD_SPACE = """\
name: a Bash guard that refuses every call
tool: claude-code
hooks:
  PreToolUse:
    - matcher: Bash
      hooks: [{type: command, command: "cat >/dev/null; echo no >&2; exit 2"}]
turns:
  - user: hi
    tools: [{name: Bash, args: {command: ls}}]
    assistant: hello
invariants:
  exit_codes: {PreToolUse: 2}
  blocked_calls: {Bash: {command: ""}}
explore:
  tools: 2
  examples: 8
"""


def test_a_bash_matcher_on_claude_code_sees_bash_calls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Newcomer trial 2, #4: on Claude Code, drawn sessions call Bash (and Read, Write, Edit),
    so a PreToolUse hook with matcher Bash runs, blocks each of them, and nothing fails."""
    space = _space_file(tmp_path, GUARD_SPACE)
    out = tmp_path / "failures"
    assert main(["explore", str(space), "--seed", "3", "-n", "2", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.endswith(", seed 3\nno invariant failed\n"), text
    assert not out.exists()


def test_explore_tools_false_and_a_list_of_names(tmp_path: Path) -> None:
    """`tools: false` draws no tool call (as `tools: 0`); a list names the host's tools to
    draw from, each with its own argument shapes, or another tool with fixed arguments."""
    path = _space_file(tmp_path, GUARD_SPACE.replace("tools: 2", "tools: false"))
    assert load_scenario(path).explore == {"tools": False, "examples": 8}
    claude = Space.for_host("claude-code", model=False)
    assert claude.narrowed({"tools": False}).tools == 0
    narrowed = claude.narrowed({"tools": ["Bash", {"name": "mcp__db__query", "args": {"q": 1}}]})
    assert narrowed.vocabulary.names == ["Bash", "mcp__db__query"]
    assert narrowed.vocabulary.tool("mcp__db__query") == ToolShape("mcp__db__query", ({"q": 1},))
    drawn = _drawn_documents(narrowed, 20)
    assert {c["name"] for d in drawn for s in _steps(d) for c in s.get("tools", [])} == {
        "Bash",
        "mcp__db__query",
    }


def test_a_tool_the_host_does_not_have_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A name in `tools:` that is not one of the host's tools is one line naming the host's
    tools, the closest one and how to give another tool; exit 2."""
    space = _space_file(tmp_path, GUARD_SPACE.replace("tools: 2", "tools: [bash]"))
    assert main(["explore", str(space)]) == 2
    assert capsys.readouterr().err == (
        f"{space}: explore.tools: 'bash' is not one of this host's tools (Bash, Read, Write,"
        " Edit); did you mean 'Bash'? give another tool as {name: bash, args: {...}}\n"
    )


CHECKED_SPACE = """\
name: a chatty prompt hook beside a hook that cannot run
tool: claude-code
checks: {hooks_run: false}
hooks:
  SessionStart:
    - hooks: [{type: command, command: "no-such-command-for-hooksim"}]
  UserPromptSubmit:
    - hooks: [{type: command, command: "cat >/dev/null; echo chatter"}]
turns:
  - {user: hi, assistant: hello}
invariants:
  stdout: ""
explore:
  examples: 4
  tools: false
"""


def test_the_checks_of_the_space_apply_and_are_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The space's `checks:` opt-outs hold for every drawn session and are written into the
    failure file, which `run` fails on the invariant only."""
    space = _space_file(tmp_path, CHECKED_SPACE)
    out = tmp_path / "failures"
    assert main(["explore", str(space), "--seed", "2", "--out", str(out)]) == 1
    text = capsys.readouterr().out
    assert "  FAIL stdout: stdout of UserPromptSubmit at turn 1: expected '', got 'chatter\\n'" in (
        text
    )
    assert "hooks_run" not in text
    (written,) = out.glob("*.yaml")
    assert load_scenario(written).checks == {"hooks_run": False}
    assert main(["run", str(written)]) == 1
    report = capsys.readouterr().out
    assert "stdout of UserPromptSubmit at turn 1: expected '', got 'chatter\\n'" in report
    assert "hooks_run" not in report


def test_a_written_file_replays_from_another_folder_depth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Newcomer trial 2, #5: hooks named as `$HOOKSIM_SCENARIO_DIR/../hooks/x` are rewritten
    for the folder the failure is written to, so `run` replays the failure, not `command not
    found`."""
    hooks = tmp_path / "project" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "chatty.sh").write_text("cat >/dev/null\necho chatter\n")
    space = _space_file(
        tmp_path / "project" / "explore",
        CHECKED_SPACE.replace("checks: {hooks_run: false}\n", "")
        .replace("no-such-command-for-hooksim", "true")
        .replace(
            '"cat >/dev/null; echo chatter"', "'sh \"$HOOKSIM_SCENARIO_DIR/../hooks/chatty.sh\"'"
        ),
    )
    out = tmp_path / "elsewhere" / "deeper" / "still"
    assert main(["explore", str(space), "--seed", "2", "--out", str(out)]) == 1
    capsys.readouterr()
    (written,) = out.glob("*.yaml")
    assert 'sh "$HOOKSIM_SCENARIO_DIR/../../../project/hooks/chatty.sh"' in written.read_text()
    assert main(["run", str(written)]) == 1
    report = capsys.readouterr().out
    assert "stdout of UserPromptSubmit at turn 1: expected '', got 'chatter\\n'" in report
    assert "hooks_run" not in report


STOP_LOOP_SPACE = """\
name: a Codex Stop hook that always blocks
tool: codex
hooks:
  Stop:
    - hooks: [{type: command, command: "cat >/dev/null; echo '{\\"decision\\": \\"block\\", \\"reason\\": \\"run tests first\\"}'"}]
turns:
  - {user: hi, assistant: hello}
invariants:
  exit_codes: 0
  stderr_empty: true
  max_duration: 3s
explore:
  examples: 30
  tools: false
"""


@pytest.mark.parametrize(
    ("extra", "failure"),
    [
        (
            "",
            "  FAIL built-in check loops: Stop blocked 50 times in a row at turn 1, and Codex CLI"
            " would go on: hooksim cut the loop.",
        ),
        (
            "checks: {loops: false}\n",
            "  FAIL max_continuations: continuations of Stop at turn 1: expected at most 1, got 50"
            " (hooksim cut the loop at 50; the session would not end)\n",
        ),
    ],
)
def test_a_stop_loop_is_found_at_the_first_session(
    extra: str, failure: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Newcomer trial 2, #6: a Stop hook that always blocks fails the first drawn session that
    reaches Stop: by the built-in loops check, or, opted out, by `max_continuations`."""
    text = STOP_LOOP_SPACE + extra
    if extra:
        text = text.replace("max_duration: 3s\n", "max_duration: 3s\n  max_continuations: 1\n")
    space = _space_file(tmp_path, text)
    out = tmp_path / "failures"
    assert main(["explore", str(space), "--seed", "1", "--out", str(out)]) == 1
    report = capsys.readouterr().out
    assert failure in report, report
    assert "found at example 1 (seed 1)" in report
    (written,) = out.glob("*.yaml")
    assert main(["run", str(written)]) == 1


LOOP_INVARIANTS = """\
name: a Stop hook that sends the model back once per turn
tool: claude-code
hooks:
  Stop:
    - hooks: [{type: command, command: "grep -q '\\"stop_hook_active\\":false' && { echo again >&2; exit 2; }; exit 0"}]
turns:
  - {user: one, assistant: done}
  - {user: two, assistant: done}
  - {user: three, interrupted: true}
invariants:
  fired: {Stop: 4}
  blocked: {Stop: 2}
  min_continuations: 1
  max_continuations: 1
  max_session_duration: 0s
"""


def test_loop_and_session_invariants_in_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`run` checks the invariants: fired and blocked counts, continuations per turn that
    reaches Stop (an interrupted turn does not), and the time the session waited on hooks."""
    path = _space_file(tmp_path, LOOP_INVARIANTS)
    assert main(["run", str(path)]) == 1
    lines = [line for line in capsys.readouterr().out.splitlines() if "expected" in line]
    assert len(lines) == 1, lines
    assert lines[0].startswith("  time the session waited on its hooks: expected under 0s, got ")
    assert lines[0].endswith(" in 4 firings)")
    assert "(Stop: " in lines[0]


def test_a_hook_no_drawn_session_ran_fails_the_exploration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A matcher that selects none of the calls of any drawn session (the host's tool is
    `Bash`, not `bash`) fails the exploration, saying which values it saw; nothing is written."""
    text = GUARD_SPACE.replace("matcher: Bash", "matcher: bash")
    space = _space_file(tmp_path, text.replace('  blocked_calls: {Bash: {command: ""}}\n', ""))
    out = tmp_path / "failures"
    assert main(["explore", str(space), "--seed", "3", "--examples", "4", "--out", str(out)]) == 1
    text = capsys.readouterr().out
    assert (
        "  FAIL built-in check matchers: the PreToolUse hook 'cat >/dev/null; echo no >&2; exit 2'"
        " ran in none of the 4 sessions drawn: its matcher 'bash' selected none of"
    ) in text
    assert "did you mean 'Bash'? (or opt out: checks: {matchers: false})\n1 failed\n" in text
    assert not out.exists()


def test_progress_is_a_line_a_minute_off_a_terminal() -> None:
    """Off a terminal (a CI log) a long search is not silent: a line once a minute, not more."""
    now = [0.0]
    stream = io.StringIO()
    progress = Progress(120, stream, clock=lambda: now[0])
    for now[0] in (1.0, 30.0, 59.0, 61.0, 90.0, 122.0):
        progress.tick()
    assert stream.getvalue() == (
        "explore: 4 examples, 61s, no failure yet\nexplore: 6 examples, 122s, no failure yet\n"
    )


@pytest.mark.parametrize(
    ("pattern", "failure"),
    [
        ('"rm"', "  Bash call at turn 1 (command='ls'): expected not blocked, got blocked ('no')"),
        ("'(rm'", "  blocked_calls: Bash.command: '(rm' is not a regex (missing ), unterminated"),
    ],
)
def test_blocked_calls_in_run(
    pattern: str, failure: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`blocked_calls` says which calls a guard must block and which it must let through; a
    pattern that is not a regex is a failure of its own, whatever the calls."""
    text = GUARD_SPACE.replace('{command: ""}', f"{{command: {pattern}}}")
    path = _space_file(tmp_path, text.replace("exit_codes: {PreToolUse: 2}", "stdout: ''"))
    assert main(["run", str(path)]) == 1
    assert failure in capsys.readouterr().out


HERMES_VERIFY = """\
name: a Hermes verify hook that always asks for more
hooks:
  pre_verify:
    - command: "sh -c 'cat >/dev/null; echo {\\\\\\"action\\\\\\": \\\\\\"continue\\\\\\", \\\\\\"message\\\\\\": \\\\\\"run the tests\\\\\\"}'"
turns:
  - user: fix it
    tools: [{name: write_file, args: {path: a.py, content: x}}]
    assistant: fixed
invariants:
  max_continuations: 1
"""


def test_hermes_continues_a_turn_from_its_verify_hook(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """On Hermes a turn continues from `pre_verify` (its post_llm_call cannot), up to
    `agent.max_verify_nudges` (3): `max_continuations` counts those."""
    path = _space_file(tmp_path, HERMES_VERIFY)
    assert main(["run", str(path)]) == 1
    out = capsys.readouterr().out
    assert "  continuations of pre_verify at turn 1: expected at most 1, got 3\n" in out, out


def test_a_hook_whose_event_no_drawn_session_fires_fails_the_exploration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """hooks_fired, like matchers, is held to the whole exploration: a PreCompact hook in a
    space that draws no compaction ran in none of the sessions, and nothing is written."""
    space = _space_file(
        tmp_path,
        """\
name: a compaction hook the space never reaches
tool: claude-code
hooks:
  UserPromptSubmit: [{hooks: [{type: command, command: "cat >/dev/null"}]}]
  PreCompact: [{hooks: [{type: command, command: "cat >/dev/null; echo compacting"}]}]
turns:
  - {user: hi, assistant: hello}
explore:
  examples: 3
  tools: false
  compact: false
""",
    )
    out = tmp_path / "failures"
    assert main(["explore", str(space), "--seed", "1", "--out", str(out)]) == 1
    text = capsys.readouterr().out
    assert (
        "  FAIL built-in check hooks_fired: the PreCompact hook 'cat >/dev/null; echo compacting'"
        " ran in none of the 3 sessions drawn: PreCompact never fired; widen the space"
    ) in text
    assert not out.exists()
