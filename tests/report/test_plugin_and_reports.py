"""The pytest plugin collects scenario files; `hooksim run` writes JUnit XML and JSON reports."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hooksim.cli import main

from tests.console import summary

pytest_plugins = ["pytester"]

PASSING = "name: passes\nturns:\n  - {user: hi, assistant: hello}\nexpect:\n  exit_codes: 0\n  calls: {save_memory: 2}\n"
OPT_IN = "[pytest]\nhooksim_dirs = scenarios\n"
FAILING = "name: wants a compaction\nturns:\n  - {user: hi, assistant: hello}\nexpect:\n  compactions_at_turns: [1]\n"


def test_plugin_collects_and_runs_scenarios(pytester: pytest.Pytester) -> None:
    """In a project that opted in, scenario files become items; a failure shows expected vs got
    and a timeline."""
    pytester.makeini(OPT_IN)
    pytester.makefile(".yaml", **{"scenarios/good": PASSING, "scenarios/bad": FAILING})
    result = pytester.runpytest_subprocess("-v")
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "scenarios/good.yaml::passes PASSED" in out
    assert (
        "scenario failed: wants a compaction\n  turns that compacted: expected [1], got []\n  timeline:"
        in out
    )
    result.stdout.fnmatch_lines(["*turn   1  2026-06-01 09:00:00  post_llm_call        exit 0*"])


def test_plugin_ignores_yaml_outside_scenario_dirs(pytester: pytest.Pytester) -> None:
    """Other YAML files in a project are not collected."""
    pytester.makeini(OPT_IN)
    pytester.makefile(".yaml", **{"config/app": "name: x\nturns: 3\n"})
    result = pytester.runpytest_subprocess()
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_plugin_reports_a_bad_file_as_a_collection_error(pytester: pytest.Pytester) -> None:
    """A bad scenario is a collection error with file:line, not a crash."""
    pytester.makeini(OPT_IN)
    pytester.makefile(".yaml", **{"scenarios/broken": "name: x\nturns:\n  - {usr: hi}\n"})
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*broken.yaml:3: turns/0: unknown key 'usr' (did you mean 'user'?*"]
    )


def test_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--junit-xml and --json describe every scenario, hook run and bridge call."""
    (tmp_path / "a.yaml").write_text(PASSING)
    (tmp_path / "b.yaml").write_text(FAILING)
    junit, report = tmp_path / "junit.xml", tmp_path / "report.json"
    assert (
        main(["run", str(tmp_path), "--junit-xml", str(junit), "--json", str(report), "-n", "2"])
        == 1
    )
    suite = ET.parse(junit).getroot()
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "1", "0")
    data = json.loads(report.read_text())
    assert [(d["name"], d["passed"]) for d in data] == [
        ("passes", True),
        ("wants a compaction", False),
    ]
    assert [c["tool"] for c in data[0]["bridge_calls"]] == [
        "start_session",
        "save_memory",
        "save_memory",
    ]
    assert data[1]["failures"] == ["turns that compacted: expected [1], got []"]
    assert summary(capsys.readouterr().out) == "1 passed, 1 failed"


def test_keep_workdir_and_k_filter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """-k selects scenarios by path; --keep-workdir leaves the ledger for inspection."""
    (tmp_path / "a.yaml").write_text(PASSING)
    (tmp_path / "b.yaml").write_text(FAILING)
    report = tmp_path / "r.json"
    assert (
        main(["run", str(tmp_path), "-k", "a.yaml", "--keep-workdir", "--json", str(report)]) == 0
    )
    (entry,) = json.loads(report.read_text())
    workdir = Path(entry["workdir"])
    assert (workdir / "bridge-ledger.jsonl").exists()
    assert summary(capsys.readouterr().out) == "1 passed, 0 failed"


def test_hooksim_console_script_smoke(tmp_path: Path) -> None:
    """`python -m hooksim run` in a real process: exit code and summary line."""
    (tmp_path / "a.yaml").write_text(PASSING)
    result = subprocess.run(
        [sys.executable, "-m", "hooksim", "run", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert summary(result.stdout) == "1 passed, 0 failed"


def test_plugin_makes_one_item_per_host(pytester: pytest.Pytester) -> None:
    """A file with hosts: gives an item per host; --hooksim-tool keeps one."""
    from tests.commands.test_cli_hosts import TWO_HOSTS

    pytester.makeini(OPT_IN)
    pytester.makefile(".yaml", **{"scenarios/both": TWO_HOSTS})
    result = pytester.runpytest_subprocess("-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        ["*both.yaml::two-hosts?hermes? PASSED*", "*both.yaml::two-hosts?codex? PASSED*"]
    )
    result = pytester.runpytest_subprocess("-v", "--hooksim-tool", "codex")
    result.assert_outcomes(passed=1)


KUBERNETES = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: load-test}\n"


def test_a_project_that_did_not_opt_in_is_untouched(pytester: pytest.Pytester) -> None:
    """With the plugin installed, an unrelated project's scenarios/ YAML is not collected."""
    pytester.makefile(".yaml", **{"scenarios/load-test": KUBERNETES})
    pytester.makepyfile(test_app="def test_app():\n    assert True\n")
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(passed=1)


def test_a_file_named_on_the_command_line_is_collected(pytester: pytest.Pytester) -> None:
    """A scenario outside hooksim_dirs runs when named, with a node id without spaces."""
    pytester.makeini(OPT_IN)
    pytester.makefile(".yaml", **{"other/mine": PASSING.replace("passes", "my own session")})
    result = pytester.runpytest_subprocess("-v", "other/mine.yaml")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["other/mine.yaml::my-own-session PASSED*"])


def test_hooksim_tool_skips_files_without_hooks_for_that_host(pytester: pytest.Pytester) -> None:
    """--hooksim-tool codex skips a Hermes-only file, saying why, instead of failing it."""
    pytester.makeini(OPT_IN)
    pytester.makefile(".yaml", **{"scenarios/hermes": PASSING})
    result = pytester.runpytest_subprocess("-rs", "--hooksim-tool", "codex")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(
        ["SKIPPED*not applicable: no hooks for codex: add hosts.codex.hooks*"]
    )


def test_a_scenario_named_on_the_command_line_is_collected_without_opting_in(
    pytester: pytest.Pytester,
) -> None:
    """``pytest my.yaml`` in a project without hooksim_dirs runs the scenario; another YAML
    file named so (a deployment, another plugin's test file) is left to others."""
    pytester.makefile(".yaml", **{"hook_scenarios/mine": PASSING, "deploy": KUBERNETES})
    result = pytester.runpytest_subprocess("-v", "hook_scenarios/mine.yaml")
    result.assert_outcomes(passed=1)
    result = pytester.runpytest_subprocess("deploy.yaml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR  # "not found": nothing collected it
