"""Hook configs that live in the project: a ``.claude/settings.json`` (or Gemini CLI's, Codex's,
Cursor's project file) seeded with ``files:`` runs as the host runs it, after the user's hooks
(the scenario's ``hooks:``), and the timeline and the built-in checks name its file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.console import console, summary

GUARD = """\
#!/usr/bin/env bash
if grep -q 'rm -rf'; then echo "rm -rf is not allowed in this repo" >&2; exit 2; fi
"""
GO = [{"user": "go", "tools": [{"shell": "rm -rf build"}], "assistant": "ok"}]


def _claude_settings(command: str, event: str = "PreToolUse") -> str:
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}
    return json.dumps({"hooks": {event: [group]}}, indent=2) + "\n"


def _scenario(tmp_path: Path, **body: object) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(json.dumps({"name": "project hooks", "turns": GO, **body}, indent=1))
    return path


def test_a_seeded_claude_settings_file_runs_beside_the_users_hooks(tmp_path: Path) -> None:
    """Newcomer trial 3, finding 3: the project's guard blocks, as on the real host."""
    (tmp_path / "guard.sh").write_text(GUARD)
    (tmp_path / "guard.sh").chmod(0o755)
    settings = _claude_settings('"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh')
    path = _scenario(
        tmp_path,
        tool="claude-code",
        files={".claude/hooks/guard.sh": {"from": "guard.sh"}, ".claude/settings.json": settings},
        hooks={"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo careful"}]}]},
        expect={"blocked": {"PreToolUse": 1}, "context_at_turn": {"1": "careful"}},
    )
    result = console("hooksim", "run", path, "--show-timeline")
    assert result.returncode == 0, result.stdout
    lines = result.stdout.splitlines()
    guard = next(i for i, line in enumerate(lines) if "guard.sh" in line and "PreToolUse" in line)
    line = settings.splitlines().index(next(s for s in settings.splitlines() if "guard.sh" in s))
    assert lines[guard + 1].strip() == f".claude/settings.json:{line + 1}".join(["from ", ""])


@pytest.mark.parametrize("settings", [".claude/settings.json", ".claude/settings.local.json"])
def test_a_scenario_with_only_project_hooks_runs_instead_of_skipping(
    tmp_path: Path, settings: str
) -> None:
    """No ``hooks:`` at all: the project's hooks are the run's (not SKIP, exit 0), from either
    settings file of the project (each a settings source of its own)."""
    path = _scenario(
        tmp_path,
        tool="claude-code",
        files={settings: _claude_settings("echo no >&2; exit 2")},
        expect={"blocked": {"PreToolUse": 1}},
    )
    result = console("hooksim", "run", path)
    assert result.returncode == 0, result.stdout
    assert summary(result.stdout) == "1 passed, 0 failed"


def test_a_broken_project_hook_is_named_by_its_file_and_line(tmp_path: Path) -> None:
    """The built-in checks point at the project file, not at the scenario's hooks block."""
    settings = _claude_settings("exit 1")
    path = _scenario(tmp_path, tool="claude-code", files={".claude/settings.json": settings})
    result = console("hooksim", "run", path)
    assert result.returncode == 1, result.stdout
    line = 1 + next(n for n, s in enumerate(settings.splitlines()) if '"exit 1"' in s)
    assert (
        f"the PreToolUse hook 'exit 1' (.claude/settings.json:{line}, from the files: of {path})"
        " failed at turn 1: exit 1;"
    ) in result.stdout


def test_an_unknown_event_in_a_project_file_is_a_known_events_failure(tmp_path: Path) -> None:
    path = _scenario(
        tmp_path,
        tool="claude-code",
        files={".claude/settings.json": _claude_settings("true", event="PreToolCall")},
        hooks={"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}]},
    )
    result = console("hooksim", "run", path)
    assert result.returncode == 1, result.stdout
    assert "  warning: .claude/settings.json: unknown hook event 'PreToolCall'; skipped" in (
        result.stdout
    )
    assert "built-in check known_events: Claude Code has no hook event 'PreToolCall'" in (
        result.stdout
    )


def test_gemini_cli_runs_the_workspace_settings_after_the_users(tmp_path: Path) -> None:
    """The user's groups, then the workspace's (settings.ts: each event's groups concatenated);
    the project's deny is honoured."""
    user = "echo user-first >> order.txt"
    project = {
        "hooks": {
            "BeforeTool": [
                {
                    "hooks": [
                        {
                            "type": "command",
                            "command": "echo project-second >> order.txt; echo no >&2; exit 2",
                        }
                    ]
                }
            ]
        }
    }
    path = _scenario(
        tmp_path,
        tool="gemini-cli",
        files={".gemini/settings.json": json.dumps(project)},
        hooks={
            "BeforeTool": [{"sequential": True, "hooks": [{"type": "command", "command": user}]}]
        },
        expect={
            "blocked": {"BeforeTool": 1},
            "exit_codes": {"BeforeTool": [0, 2], "*": 0},
            "files": {"order.txt": {"equals": "user-first\nproject-second\n"}},
        },
    )
    result = console("hooksim", "run", path)
    assert result.returncode == 0, result.stdout
    assert summary(result.stdout) == "1 passed, 0 failed"


def test_codex_numbers_the_projects_hooks_after_the_users(tmp_path: Path) -> None:
    """Codex's hooks.json in the project's .codex folder runs, after the user's layer."""
    project = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": "echo no >&2; exit 2"}],
                }
            ]
        }
    }
    path = _scenario(
        tmp_path,
        tool="codex",
        files={".codex/hooks.json": json.dumps(project)},
        expect={"blocked": {"PreToolUse": 1}},
    )
    result = console("hooksim", "run", path)
    assert result.returncode == 0, result.stdout
    assert summary(result.stdout) == "1 passed, 0 failed"
