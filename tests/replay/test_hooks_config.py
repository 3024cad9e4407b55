"""--hooks-config judges another implementation: it stands in for the hooks scenarios do not
name (on Hermes, the installed entries) and for nothing else."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hooksim.hosts.hermes.hook_package import installed_hooks
from hooksim.scenario import load_scenario

from tests.commands.test_cli_hosts import TWO_HOSTS
from tests.console import console, summary

ROOT = Path(__file__).parents[2]
SECOND = Path(__file__).with_name("second_hook.py")


def second_config(tmp_path: Path) -> Path:
    """A Hermes config.yaml whose three hooks are the second implementation."""
    command = f"{sys.executable} {SECOND}"
    config = tmp_path / "config.yaml"
    config.write_text(
        "hooks:\n"
        f"  on_session_start: [{{command: '{command} session-start'}}]\n"
        f"  pre_llm_call: [{{command: '{command} user-prompt-submit'}}]\n"
        f"  post_llm_call: [{{command: '{command} stop'}}]\n"
    )
    return config


@pytest.mark.slow  # the Hermes corpus again: once per CI run, in tox -e slow
def test_the_shipped_corpus_passes_with_a_second_implementation(tmp_path: Path) -> None:
    """Every shipped scenario that runs the installed hooks (Hermes' own and the cross-host
    ones that run on Hermes; the others name hooks of their own, which --hooks-config leaves
    alone) passes with an independent hook behind --hooks-config, and the installed entries
    never run."""
    report = tmp_path / "run.json"
    across = sorted((ROOT / "scenarios" / "across").glob("*.yaml"))
    on_hermes = [p for p in across if "hermes" in load_scenario(p).tools()]
    result = console(
        "hooksim",
        "run",
        ROOT / "scenarios" / "hermes",
        *on_hermes,
        "--tool",
        "hermes",
        "--hooks-config",
        second_config(tmp_path),
        "--json",
        report,
        "-n",
        "2",
        "-q",
    )
    assert result.returncode == 0, result.stdout[-3000:]
    assert summary(result.stdout).split(", ")[1:2] == ["0 failed"]
    commands = {h["command"] for e in json.loads(report.read_text()) for h in e.get("hooks", [])}
    assert any(str(SECOND) in c for c in commands)
    installed = {entry[0]["command"] for entry in installed_hooks().values()}
    assert not commands & installed


def test_a_scenarios_own_hooks_and_other_hosts_keep_theirs(tmp_path: Path) -> None:
    """Hermes without hooks gets the config's; a file with its own Hermes hooks and the Codex
    run keep theirs."""
    (tmp_path / "two.yaml").write_text(TWO_HOSTS)
    (tmp_path / "own.yaml").write_text(
        "name: own hooks\nhooks: {post_llm_call: [{command: 'true'}]}\n"
        "turns:\n  - {user: hi, assistant: hello}\nexpect: {calls: {save_memory: 0}}\n"
    )
    report = tmp_path / "run.json"
    result = console(
        "hooksim",
        "run",
        tmp_path / "own.yaml",
        tmp_path / "two.yaml",
        "--hooks-config",
        second_config(tmp_path),
        "--json",
        report,
    )
    assert result.returncode == 0, result.stdout
    assert summary(result.stdout) == "3 passed, 0 failed"
    runs = {
        (e["name"], e["tool"]): {h["command"] for h in e["hooks"]}
        for e in json.loads(report.read_text())
    }
    assert runs[("own hooks", "hermes")] == {"true"}
    assert all(str(SECOND) in c for c in runs[("two hosts", "hermes")])
    assert not any(str(SECOND) in c for c in runs[("two hosts", "codex")])


def test_hooks_config_follows_each_scenarios_tool(tmp_path: Path) -> None:
    """Without --tool, a config file stands in on each scenario's own tool: a Claude Code
    settings.json runs a claude-code scenario's hooks (no --tool needed); --tool overrides."""
    settings = tmp_path / "settings.json"
    settings.write_text(
        json.dumps({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "exit 0"}]}]}})
    )
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "name: mine\ntool: claude-code\nturns:\n  - {user: hi, assistant: hello}\n"
        "expect: {fired: {Stop: 1}}\n"
    )
    result = console("hooksim", "run", scenario, "--hooks-config", settings)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith(f"PASS  {scenario} [claude-code]")
    result = console("hooksim", "run", scenario, "--hooks-config", settings, "--tool", "hermes")
    assert result.returncode == 1  # read as Hermes' config.yaml: Stop is no Hermes event
    assert "unknown hook event 'Stop' in hooks: config; skipped" in result.stdout


def test_a_hermes_config_leaves_a_plugin_scenario_its_plugins(tmp_path: Path) -> None:
    """Newcomer trial 3, finding 6: README's --hooks-config with a Hermes config.yaml runs a
    Claude Code plugin scenario (its hooks come from its plugin) instead of an ERROR, and says
    once that the file was read for Claude Code and is not one of its configs."""
    plugin = ROOT / "scenarios" / "claude-code" / "16-plugin.yaml"
    result = console("hooksim", "run", plugin, "--hooks-config", second_config(tmp_path))
    assert result.returncode == 0, result.stdout
    notes = [line for line in result.stdout.splitlines() if "--hooks-config" in line]
    assert len(notes) == 1, result.stdout
    assert notes[0].startswith(
        f"note: --hooks-config {tmp_path / 'config.yaml'} was read for Claude Code and is not one"
        " of its hooks configs ("
    )


def test_the_configs_hooks_no_scenario_exercised_are_listed_once(tmp_path: Path) -> None:
    """A config's hook whose event no scenario reached is listed at the end, not failed."""
    settings = tmp_path / "settings.json"
    settings.write_text(
        json.dumps(
            {
                "hooks": {
                    "Stop": [{"hooks": [{"type": "command", "command": "exit 0"}]}],
                    "PreCompact": [
                        {"hooks": [{"type": "command", "command": "echo compacting >&2"}]}
                    ],
                }
            }
        )
    )
    for name in ("a", "b"):
        (tmp_path / f"{name}.yaml").write_text(
            f"name: {name}\ntool: claude-code\nturns:\n  - {{user: hi, assistant: hello}}\n"
        )
    result = console(
        "hooksim", "run", tmp_path / "a.yaml", tmp_path / "b.yaml", "--hooks-config", settings
    )
    assert result.returncode == 0, result.stdout
    assert summary(result.stdout) == "2 passed, 0 failed"
    assert result.stdout.count("note: --hooks-config") == 1
    assert (
        f"note: --hooks-config {settings}: hooks no scenario of this run exercised:"
        " PreCompact 'echo compacting >&2'\n"
    ) in result.stdout
