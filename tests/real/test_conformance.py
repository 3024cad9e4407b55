"""Conformance with the real binaries: each shipped cross-host scenario, world scenario (files,
tool effects, block reasons, loops) and probe, run on the real host offline and replayed by
hooksim, differs only where the profile tolerates it.

Runs in ``tox -e conformance-claude-code``, ``-codex`` and ``-gemini-cli`` (each installs the
pinned release into its tox environment and names it in ``REAL_CLAUDE_CODE``, ``REAL_CODEX`` or
``REAL_GEMINI_CLI``) and, for Hermes, in ``tox -e conformance`` (``REAL_HERMES``); skipped elsewhere, and skipped
with the reason when the package could not be installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.commands.real import check
from hooksim.judge.verdict import run_on
from hooksim.real.compare import compare_real, compared_host, differences_text
from hooksim.real.session import run_real
from hooksim.scenario import load_scenario

SCENARIOS = Path(__file__).parents[2] / "scenarios"
# Read at import: the suite's autouse fixture scrubs the environment of each test.
BINARIES = {
    "claude-code": os.environ.get("REAL_CLAUDE_CODE"),
    "codex": os.environ.get("REAL_CODEX"),
    "hermes": os.environ.get("REAL_HERMES"),
    "gemini-cli": os.environ.get("REAL_GEMINI_CLI"),
    "openclaw": os.environ.get("REAL_OPENCLAW"),
}
# A real OpenClaw turn takes 20-60 s (its start-up; the gateway's takes a minute): CI's
# conformance-openclaw runs one short session, conformance-openclaw-full (REAL_OPENCLAW_ALL)
# every one of FILES["openclaw"].
OPENCLAW_ALL = bool(os.environ.get("REAL_OPENCLAW_ALL"))
OPENCLAW_SHORT = "openclaw/02-local-runs.yaml"


def probes(tool: str) -> list[str]:
    """The probe scenarios written for ``tool``."""
    return sorted(
        str(p.relative_to(SCENARIOS)) for p in (SCENARIOS / "probes").glob(f"{tool}-*.yaml")
    )


# leaked-processes is left out: a real run does not look for processes its hooks left behind.
FILES = {
    "claude-code": [
        "across/memory-session.yaml",
        "across/guard-reason.yaml",
        "across/stop-reason.yaml",
        "across/transcript-loop.yaml",
        "world/01-formatter-claude-code.yaml",
        "world/03-plan-injector.yaml",
        "world/04-promise-loop.yaml",
        "world/05-env-guard.yaml",
        "world/06-auto-stager.yaml",
        "claude-code/16-plugin.yaml",
        "claude-code/17-resume.yaml",
        "claude-code/18-clear-steps.yaml",
        *probes("claude-code"),
    ],
    "codex": [
        "across/memory-session.yaml",
        "across/guard-reason.yaml",
        "across/stop-reason.yaml",
        "across/stop-loop.yaml",
        "across/transcript-loop.yaml",
        "codex/12-exec-per-turn.yaml",
        "codex/14-stdout-forms.yaml",
        "codex/16-compact-matchers.yaml",
        "world/03-plan-injector.yaml",
        "world/04-promise-loop.yaml",
        "world/07-formatter-codex.yaml",
        *probes("codex"),
    ],
    # stop-reason is left out: Hermes' pre_verify needs files the real tools changed.
    "hermes": [
        "across/memory-session.yaml",
        "across/guard-reason.yaml",
        "hermes/32-new-session.yaml",
        "world/03-plan-injector.yaml",
        "world/08-formatter-hermes.yaml",
        *probes("hermes"),
    ],
    # stop-loop is left out: Gemini CLI never caps the loop (its turn budget is 100); hooksim
    # ends it at 50, and a real run of it would take minutes.
    # 06-budgets is left out: its calls' log pins the instants of hooksim's virtual clock and
    # the 5-minute gap between its turns, which a real run (the wall clock, no gaps) cannot keep.
    "openclaw": [
        "across/memory-session.yaml",
        *sorted(
            str(p.relative_to(SCENARIOS))
            for p in (SCENARIOS / "openclaw").glob("*.yaml")
            if p.name != "06-budgets.yaml"
        ),
    ],
    "gemini-cli": [
        "across/memory-session.yaml",
        "across/guard-reason.yaml",
        "across/stop-reason.yaml",
        "across/transcript-loop.yaml",
        "world/02-formatter-gemini-cli.yaml",
        "world/03-plan-injector.yaml",
        "gemini-cli/17-extension.yaml",
        "gemini-cli/18-clear-context.yaml",
        "gemini-cli/16-resume.yaml",
        "gemini-cli/19-before-model-blocks.yaml",
        "gemini-cli/20-after-model-blocks.yaml",
        "gemini-cli/21-tool-selection.yaml",
        "gemini-cli/22-retry-blocked.yaml",
        "gemini-cli/24-tool-rewrites-and-stops.yaml",
        "gemini-cli/04-timeout-in-milliseconds.yaml",  # the kill reaches the hook itself
        *probes("gemini-cli"),
    ],
}


@pytest.mark.parametrize(
    ("tool", "name"), [(tool, name) for tool, names in FILES.items() for name in names]
)
def test_real_host_matches_hooksim(tool: str, name: str) -> None:
    """The real run passes the scenario's expectations and shows no untolerated difference."""
    binary = BINARIES[tool]
    if not binary:
        env = "conformance" if tool == "hermes" else f"conformance-{tool}"
        pytest.skip(f"no real {tool} (tox -e {env} installs it)")
    if not Path(binary).exists():
        pytest.skip(f"{tool} could not be installed from the registry: {binary} is missing")
    if tool == "openclaw" and name != OPENCLAW_SHORT and not OPENCLAW_ALL:
        pytest.skip("minutes on a real OpenClaw: tox -e conformance-openclaw-full runs it")
    scenario = load_scenario(SCENARIOS / name)
    comparison = compare_real(scenario, tool, binary)
    assert check(comparison.real) == []
    assert comparison.failing == [], differences_text(comparison.diffs)
    # The verdict hooksim run gives (the hooks as written, not behind the recorder) is the
    # real host's: both pass.
    replay = run_on(scenario, tool, label=None, host=compared_host(scenario, tool))
    assert replay.verdict == "PASS", replay.error or replay.failures


def test_a_real_run_writes_the_reports_a_replay_writes(tmp_path: Path) -> None:
    """--json, --junit-xml and --keep-workdir hold for --real as for a replay."""
    binary = BINARIES["claude-code"]
    if not binary or not Path(binary).exists():
        pytest.skip("no real claude-code (tox -e conformance-claude-code installs it)")
    report, junit = tmp_path / "run.json", tmp_path / "junit.xml"
    argv = [
        "run",
        str(SCENARIOS / "across/memory-session.yaml"),
        "--real",
        f"claude-code={binary}",
        "--json",
        str(report),
        "--junit-xml",
        str(junit),
        "--keep-workdir",
    ]
    assert main(argv) == 0
    (entry,) = json.loads(report.read_text())
    assert entry["tool"] == "claude-code, real"
    assert entry["passed"]
    assert {h["event"] for h in entry["hooks"]} >= {"SessionStart", "UserPromptSubmit", "Stop"}
    assert 'failures="0"' in junit.read_text()
    workdir = Path(entry["workdir"])
    assert (workdir / "project").is_dir()
    shutil.rmtree(workdir)


def test_gemini_cli_clear_context_empties_the_chat_it_sends() -> None:
    """After an AfterAgent deny with clearContext, the real Gemini CLI sends the retry prompt
    in a chat of its own: the request holds the reason and none of the answer before it, as the
    replay says (the conversation is cleared before the reason is sent)."""
    binary = BINARIES["gemini-cli"]
    if not binary or not Path(binary).exists():
        pytest.skip("no real gemini-cli (tox -e conformance-gemini-cli installs it)")
    real = run_real(
        load_scenario(SCENARIOS / "gemini-cli/18-clear-context.yaml"), "gemini-cli", binary
    )
    first, retry = [r["body"]["contents"] for r in real.requests if r.get("kind") == "main"]
    said = [[part.get("text", "") for part in c.get("parts", [])] for c in retry]
    assert len(first) == 1
    assert len(retry) == 1, said
    assert "start over: give the plan in one line" in said[0]
    assert not any("a long draft" in text for texts in said for text in texts)


def test_gemini_cli_tool_selection_sets_the_tool_config_it_sends() -> None:
    """BeforeToolSelection's hooks set the tool config each request carries, merged as the
    replay says (an ANY with every hook's names, sorted; a NONE with none), though the same
    hooks say deny and continue false."""
    binary = BINARIES["gemini-cli"]
    if not binary or not Path(binary).exists():
        pytest.skip("no real gemini-cli (tox -e conformance-gemini-cli installs it)")
    real = run_real(
        load_scenario(SCENARIOS / "gemini-cli/21-tool-selection.yaml"), "gemini-cli", binary
    )
    sent = [r["body"].get("toolConfig") for r in real.requests if r.get("kind") == "main"]
    chosen = {"mode": "ANY", "allowedFunctionNames": ["list_directory", "read_file"]}
    none = {"mode": "NONE", "allowedFunctionNames": []}
    assert sent == [{"functionCallingConfig": c} for c in (chosen, chosen, none)]


# A guard that lets everything through, on each host's own pre-tool event.
BROKEN_GUARDS = {
    "claude-code": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]
    },
    "codex": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]
    },
    "gemini-cli": {
        "BeforeTool": [
            {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "true"}]}
        ]
    },
    "hermes": {"pre_tool_call": [{"command": "true"}]},
}


@pytest.mark.parametrize("tool", sorted(BROKEN_GUARDS))
def test_a_broken_guards_call_changes_nothing_outside_the_run(tmp_path: Path, tool: str) -> None:
    """Security review 2: the scripted call a broken guard lets through really runs on the real
    host, inside the run's confinement: the file it writes outside the run is not there."""
    binary = BINARIES[tool]
    if not binary or not Path(binary).exists():
        pytest.skip(f"no real {tool}")
    outside = tmp_path / "escaped"
    path = tmp_path / "guard.yaml"
    body = {
        "name": "broken guard",
        "tool": tool,
        "hooks": BROKEN_GUARDS[tool],
        "turns": [
            {"user": "go", "tools": [{"shell": f"echo escaped > {outside}"}], "assistant": "done"}
        ],
    }
    if tool == "gemini-cli":
        body["hosts"] = {"gemini-cli": {"launch": "headless"}}
    path.write_text(json.dumps(body))
    real = run_real(load_scenario(path), tool, binary)
    assert [r["event"] for r in real.records if r["id"] != "probe"], "the guard never ran"
    assert not outside.exists()


def test_a_hook_hermes_cannot_start_fails_as_in_the_replay(tmp_path: Path) -> None:
    """Newcomer trial 5, finding 14: a Hermes hook written for a shell ($HOOKSIM_SCENARIO_DIR
    in a command Hermes splits itself) fails on the real Hermes with the replay's words, read
    from what Hermes itself got (command not found); nothing of hooksim's is named."""
    binary = BINARIES["hermes"]
    if not binary or not Path(binary).exists():
        pytest.skip("no real hermes (tox -e conformance installs it)")
    path = tmp_path / "no-shell.yaml"
    path.write_text(
        json.dumps(
            {
                "name": "no shell",
                "tool": "hermes",
                "hooks": {"pre_tool_call": [{"command": '"$HOOKSIM_SCENARIO_DIR/guard.py"'}]},
                "turns": [{"user": "go", "tools": [{"shell": "true"}], "assistant": "done"}],
            }
        )
    )
    scenario = load_scenario(path)
    real = check(run_real(scenario, "hermes", binary))
    replay = run_on(scenario, "hermes", label=None).failures
    said = [f for f in real if f.startswith("built-in check hooks_run")]
    assert said == [f for f in replay if f.startswith("built-in check hooks_run")]
    assert "Hermes runs hooks without a shell" in said[0]
    assert not any("hook_recorder" in f for f in real)


def test_compare_says_different_when_a_reading_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracle can say "different": a mutant Claude Code profile that gives a Stop hook's
    plain stdout to the model (the real host keeps it in its transcript) makes compare --real
    find differences, on the probe that passes with the true profile."""
    binary = BINARIES["claude-code"]
    if not binary or not Path(binary).exists():
        pytest.skip("no real claude-code (tox -e conformance-claude-code installs it)")
    from hooksim.hosts.claude_code.profile import ClaudeCode
    from hooksim.real import compare

    class PlainStopToModel(ClaudeCode):
        plain_text_context = frozenset({"SessionStart", "UserPromptSubmit", "Stop"})

    def mutant(scenario: object, tool: str) -> object:
        return PlainStopToModel().launched("print")

    monkeypatch.setattr(compare, "compared_host", mutant)
    scenario = load_scenario(SCENARIOS / "probes/claude-code-stdout-forms.yaml")
    comparison = compare_real(scenario, "claude-code", binary)
    assert comparison.failing, differences_text(comparison.diffs)


def test_claude_codes_own_verdict_is_held_against_the_replays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Claude Code's account of each hook run (its stream-json hook events) is a witness of its
    own: a mutant profile that calls a JSON with an unknown key refused (the real 2.1.337 runs it
    as a success) differs from it on the firing."""
    binary = BINARIES["claude-code"]
    if not binary or not Path(binary).exists():
        pytest.skip("no real claude-code (tox -e conformance-claude-code installs it)")
    from hooksim.hosts import HookRun, Verdict
    from hooksim.hosts.claude_code.profile import ClaudeCode
    from hooksim.real import compare

    class UnknownKeysFail(ClaudeCode):
        def read(self, event: str, run: HookRun) -> Verdict:
            verdict = super().read(event, run)
            if "extraKey" in run.stdout:
                return Verdict(f"failed: unknown key extraKey ({verdict.note})", fault="refused")
            return verdict

    scenario = load_scenario(SCENARIOS / "probes/claude-code-rejected-output.yaml")
    assert not compare_real(scenario, "claude-code", binary).failing
    monkeypatch.setattr(compare, "compared_host", lambda s, t: UnknownKeysFail().launched("print"))
    diffs = compare_real(scenario, "claude-code", binary).failing
    said = next((d for d in diffs if d.key == "account/UserPromptSubmit"), None)
    assert said is not None, differences_text(diffs)
    assert said.real.count("success") == said.hooksim.count("success") + 1


@pytest.mark.parametrize(
    ("tool", "config", "event", "matcher"),
    [
        ("claude-code", ".claude/settings.json", "PreToolUse", "bash"),
        ("gemini-cli", ".gemini/settings.json", "BeforeTool", "Run_Shell_Command"),
    ],
)
def test_mistakes_in_a_seeded_project_file_fail_as_in_the_replay(
    tmp_path: Path, tool: str, config: str, event: str, matcher: str
) -> None:
    """Newcomer trial 5, finding 14: the hooks of a project file the scenario seeds are judged
    on the real host as in the replay: a matcher that selects nothing and an unknown event, at
    their file and line."""
    binary = BINARIES[tool]
    if not binary or not Path(binary).exists():
        pytest.skip(f"no real {tool}")
    hooks = {
        event: [{"matcher": matcher, "hooks": [{"type": "command", "command": "echo guard"}]}],
        "SessionStop": [{"hooks": [{"type": "command", "command": "echo never"}]}],
    }
    body = {
        "name": "project mistakes",
        "tool": tool,
        "files": {config: json.dumps({"hooks": hooks}, indent=1)},
        "turns": [{"user": "go", "tools": [{"shell": "ls"}], "assistant": "done"}],
    }
    if tool == "gemini-cli":
        body["hosts"] = {"gemini-cli": {"launch": "headless"}}
    path = tmp_path / "project.yaml"
    path.write_text(json.dumps(body))
    scenario = load_scenario(path)
    real = [f for f in check(run_real(scenario, tool, binary)) if "built-in check" in f]
    replay = run_on(scenario, tool, label=None, host=compared_host(scenario, tool)).failures
    assert real == [f for f in replay if "built-in check" in f]
    assert any("check matchers" in f for f in real)
    assert any("check known_events" in f for f in real)


def test_the_confinement_benchmark_runs() -> None:
    """benchmarks/bench_confine.py, one round on the real Gemini CLI: a moved module breaks this
    test rather than a benchmark nobody runs (its ratios are the benchmark's to judge)."""
    binary = BINARIES["gemini-cli"]
    if not binary or not Path(binary).exists():
        pytest.skip("no real gemini-cli (tox -e conformance-gemini-cli installs it)")
    bench = Path(__file__).parents[2] / "benchmarks" / "bench_confine.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--real", f"gemini-cli={binary}", "--rounds", "1"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("gemini-cli, median of 1 rounds: confined ")
    assert lines[1].startswith("  confinement: confined / unconfined ")
    assert lines[2].startswith("  recorder: with / without ")


@pytest.mark.parametrize(
    ("bench", "tool", "expected"),
    [
        ("bench_real.py", "claude-code", "claude-code: real "),
        ("bench_openclaw.py", "openclaw", "openclaw (gateway): real "),
    ],
)
def test_the_real_host_benchmarks_run(bench: str, tool: str, expected: str) -> None:
    """benchmarks/bench_real.py and bench_openclaw.py, one round on the real host: a moved
    module breaks this test (their ratios are the benchmarks' to judge)."""
    binary = BINARIES[tool]
    if not binary or not Path(binary).exists():
        pytest.skip(f"no real {tool}")
    real = f"{tool}={binary}" if bench == "bench_real.py" else binary
    done = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).parents[2] / "benchmarks" / bench),
            "--real",
            real,
            "--rounds",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(expected), done.stdout


def test_a_real_run_names_its_workdir_only_when_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``workdir:`` names the run's folder when ``--keep-workdir`` kept it, and nothing when
    the run removed it."""
    binary = BINARIES["claude-code"]
    if not binary or not Path(binary).exists():
        pytest.skip("no real claude-code (tox -e conformance-claude-code installs it)")
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: s\ntool: claude-code\n"
        "hooks: {Stop: [{hooks: [{type: command, command: 'true'}]}]}\n"
        "turns: [{user: hi, assistant: ho}]\n"
    )
    real = f"claude-code={binary}"
    assert main(["run", str(path), "--real", real, "--show-timeline"]) == 0
    assert "workdir:" not in capsys.readouterr().out
    assert main(["run", str(path), "--real", real, "--keep-workdir"]) == 0
    kept = [line for line in capsys.readouterr().out.splitlines() if "workdir:" in line]
    assert len(kept) == 1, kept
    folder = Path(kept[0].split("workdir: ", 1)[1])
    assert folder.is_dir()
    shutil.rmtree(folder)
