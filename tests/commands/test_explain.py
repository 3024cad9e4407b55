"""hooksim explain: which of a user's configured hooks run for an event, from which file and
line, in which order, and why each other one does not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hooksim.cli import main

from tests.console import console

USER_CLAUDE = """\
{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "\\"$CLAUDE_PROJECT_DIR\\"/guard.sh"}]
      }
    ]
  }
}
"""
PROJECT_CLAUDE = """\
{
  "hooks": {
    "PreToolUse": [
      {"matcher": "bash", "hooks": [{"type": "command", "command": "echo lower"}]},
      {"matcher": "Bash|Write", "hooks": [{"type": "command", "command": "echo both"}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}],
    "PreToolCall": [{"hooks": [{"type": "command", "command": "echo misspelt"}]}]
  }
}
"""
LOCAL_CLAUDE = """\
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo both"}]}]}}
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder as the working directory, HOME a folder beside it."""
    home = tmp_path / "home"
    folder = tmp_path / "project"
    home.mkdir()
    folder.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(folder)
    return folder


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def claude_layers(project: Path) -> None:
    write(Path.home() / ".claude" / "settings.json", USER_CLAUDE)
    write(project / ".claude" / "settings.json", PROJECT_CLAUDE)
    write(project / ".claude" / "settings.local.json", LOCAL_CLAUDE)


def test_explain_reads_every_layer_and_says_why_a_hook_does_not_run(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Claude Code's three settings files: the hooks that run in parallel with file:line, and
    for the others the matcher's case, the event, a misspelt event and a duplicate command."""
    claude_layers(project)
    assert main(["explain", "claude-code", "PreToolUse", "Bash"]) == 0
    assert capsys.readouterr().out == (
        "Claude Code runs 2 hooks for PreToolUse (Bash), in parallel:\n"
        '  ~/.claude/settings.json:6  "$CLAUDE_PROJECT_DIR"/guard.sh\n'
        "  .claude/settings.json:5  echo both\n"
        "not run:\n"
        "  .claude/settings.json:4  echo lower: its matcher 'bash' does not select 'Bash'"
        " (Claude Code's tool names are case-sensitive: did you mean 'Bash'?)\n"
        "  .claude/settings.json:7  echo done: on Stop, not PreToolUse\n"
        "  .claude/settings.json:8  echo misspelt: Claude Code has no event 'PreToolCall'"
        " (did you mean 'PreToolUse'?)\n"
        "  .claude/settings.local.json:1  echo both: the same command as"
        " .claude/settings.json:5 (Claude Code runs an identical command once)\n"
    )


def test_explain_json(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json gives the same answer as data: each hook with its file, line, command and, when it
    does not run, why."""
    claude_layers(project)
    assert main(["explain", "claude-code", "PreToolUse", "Bash", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["parallel"] is True
    assert [(h["file"], h["line"], h["command"]) for h in answer["runs"]] == [
        ("~/.claude/settings.json", 6, '"$CLAUDE_PROJECT_DIR"/guard.sh'),
        (".claude/settings.json", 5, "echo both"),
    ]
    assert answer["not_run"][1] == {
        "file": ".claude/settings.json",
        "line": 7,
        "event": "Stop",
        "command": "echo done",
        "why": "on Stop, not PreToolUse",
    }


def test_explain_only_the_files_named(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--config FILE reads that file alone, as the host reads its settings."""
    claude_layers(project)
    other = write(project / "mine.json", LOCAL_CLAUDE)
    assert main(["explain", "claude-code", "PreToolUse", "Bash", "--config", str(other)]) == 0
    assert capsys.readouterr().out == (
        "Claude Code runs 1 hook for PreToolUse (Bash), in parallel:\n  mine.json:1  echo both\n"
    )


HERMES = """\
hooks:
  pre_tool_call:
    - command: ~/hooks/guard.sh
      matcher: terminal
    - command: ~/hooks/late.sh
      matcher: term
    - command: ~/hooks/new.sh
  post_tool_call:
    - command: ~/hooks/after.sh
"""


def test_explain_hermes_in_order_with_its_anchoring_and_consent(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hermes: its config in HERMES_HOME, hooks one after another, a matcher anchored at both
    ends, and a hook it has no consent for."""
    hermes_home = project.parent / "hermes"
    monkeypatch.setenv("HERMES_HOME", str(hermes_home))
    write(hermes_home / "config.yaml", HERMES)
    approvals = [
        {"event": "pre_tool_call", "command": command}
        for command in ("~/hooks/guard.sh", "~/hooks/late.sh")
    ]
    write(hermes_home / "shell-hooks-allowlist.json", json.dumps({"approvals": approvals}))
    assert main(["explain", "hermes", "pre_tool_call", "terminal"]) == 0
    assert capsys.readouterr().out == (
        "Hermes runs 1 hook for pre_tool_call (terminal), one after another:\n"
        f"  1. {hermes_home}/config.yaml:3  ~/hooks/guard.sh\n"
        "not run:\n"
        f"  {hermes_home}/config.yaml:5  ~/hooks/late.sh: its matcher 'term' does not select"
        " 'terminal' (Hermes anchors a matcher at both ends: write 'term.*')\n"
        f"  {hermes_home}/config.yaml:7  ~/hooks/new.sh: Hermes has not consented to it"
        " (no pre_tool_call entry for this command in shell-hooks-allowlist.json): it skips"
        " the hook unless started with --accept-hooks\n"
        f"  {hermes_home}/config.yaml:9  ~/hooks/after.sh: on post_tool_call, not pre_tool_call\n"
    )


def test_explain_gemini_names_no_hooks(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A host with no config file in home or project says where it looked."""
    assert main(["explain", "gemini-cli", "BeforeTool", "run_shell_command"]) == 0
    assert capsys.readouterr().out == (
        "Gemini CLI runs no hook for BeforeTool (run_shell_command): none is configured in"
        " ~/.gemini/settings.json, .gemini/settings.json\n"
    )


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["explain", "claude", "Stop"],
            "hooksim: unknown tool 'claude' (hooksim knows: hermes, claude-code, codex, cursor,"
            " gemini-cli, openclaw)\n",
        ),
        (
            ["explain", "claude-code", "PreToolCall"],
            "hooksim: Claude Code has no event 'PreToolCall' (did you mean 'PreToolUse'?)\n",
        ),
        (
            ["explain", "openclaw", "before_tool_call"],
            "hooksim: OpenClaw's hooks are handlers its plugins register in its own process;"
            " explain reads hook commands only\n",
        ),
        (
            ["explain", "claude-code", "Stop", "--config", "missing.json"],
            "hooksim: missing.json: no such file\n",
        ),
    ],
)
def test_explain_refuses_in_one_line(
    project: Path, argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown host, an event the host does not have, or a file that cannot be read: one
    line, exit 2."""
    assert main(argv) == 2
    assert capsys.readouterr().err == said


def test_explain_unreadable_config(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A config file that is not valid JSON: one line naming it, exit 2."""
    write(project / ".claude" / "settings.json", "{")
    assert main(["explain", "claude-code", "Stop"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hooksim: ")
    assert "settings.json: not valid JSON" in err
    assert err.count("\n") == 1


def test_explain_console_script(project: Path) -> None:
    """The installed ``hooksim explain`` answers from a real process."""
    claude_layers(project)
    done = console("hooksim", "explain", "claude-code", "Stop", cwd=project)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith(
        "Claude Code runs 1 hook for Stop, in parallel:\n  .claude/settings.json:7  echo done\n"
    )


def test_explain_codex_toml_and_trust(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Codex's config.toml: the hook's line found by its command, and the host's trust rule
    said under the hooks that run."""
    toml = '[[hooks.PreToolUse]]\nmatcher = "shell"\n[[hooks.PreToolUse.hooks]]\ncommand = "echo codex"\n'
    write(project / ".codex" / "config.toml", toml)
    assert main(["explain", "codex", "PreToolUse", "shell"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == [
        "Codex CLI runs 1 hook for PreToolUse (shell), in parallel:",
        "  .codex/config.toml:4  echo codex",
    ]
    assert out[2].startswith("note: hooks run only once reviewed and trusted")


def test_explain_gemini_sequential_group_and_a_missing_name(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Gemini CLI group with sequential: true runs its hooks one after another; without a
    name, a hook with a matcher cannot be said to run."""
    group = {
        "matcher": "^run_shell_command$",
        "sequential": True,
        "hooks": [
            {"type": "command", "command": "echo 1"},
            {"type": "command", "command": "echo 2"},
        ],
    }
    write(project / ".gemini" / "settings.json", json.dumps({"hooks": {"BeforeTool": [group]}}))
    assert main(["explain", "gemini-cli", "BeforeTool", "run_shell_command"]) == 0
    assert capsys.readouterr().out.splitlines()[:3] == [
        "Gemini CLI runs 2 hooks for BeforeTool (run_shell_command), one after another:",
        "  1. .gemini/settings.json:1  echo 1",
        "  2. .gemini/settings.json:1  echo 2",
    ]
    write(project / ".claude" / "settings.json", LOCAL_CLAUDE)
    assert main(["explain", "claude-code", "PreToolUse"]) == 0
    assert capsys.readouterr().out == (
        "Claude Code runs no hook for PreToolUse\nnot run:\n"
        "  .claude/settings.json:1  echo both: its matcher 'Bash' selects by name: give one"
        " (hooksim explain claude-code PreToolUse NAME)\n"
    )


def test_explain_claude_disable_all_hooks(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """disableAllHooks: true in the user's settings keeps every settings file's hook from
    running, said at the setting's line; the last file that sets it decides."""
    user = '{\n  "disableAllHooks": true,\n  "hooks": {}\n}\n'
    write(Path.home() / ".claude" / "settings.json", user)
    write(project / ".claude" / "settings.json", LOCAL_CLAUDE)
    assert main(["explain", "claude-code", "PreToolUse", "Bash"]) == 0
    assert capsys.readouterr().out == (
        "Claude Code runs no hook for PreToolUse (Bash)\nnot run:\n"
        "  .claude/settings.json:1  echo both: disabled: disableAllHooks is true in"
        " ~/.claude/settings.json:2\n"
    )
    write(project / ".claude" / "settings.local.json", '{"disableAllHooks": false}')
    assert main(["explain", "claude-code", "PreToolUse", "Bash"]) == 0
    assert capsys.readouterr().out == (
        "Claude Code runs 1 hook for PreToolUse (Bash), in parallel:\n"
        "  .claude/settings.json:1  echo both\n"
    )


GEMINI_DISABLED = """\
{
  "hooksConfig": {
    "disabled": [
      "echo off",
      "audit"
    ]
  },
  "hooks": {
    "BeforeTool": [
      {
        "hooks": [
          {"type": "command", "command": "echo off"},
          {"type": "command", "command": "echo on"},
          {"type": "command", "command": "echo named", "name": "audit"},
          {"type": "command", "command": "echo kept", "name": "kept"}
        ]
      }
    ]
  }
}
"""


def test_explain_gemini_disabled_hooks(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Gemini CLI's hooksConfig.disabled names a hook by its name, else its command;
    hooksConfig.enabled: false in the project turns every hook off."""
    write(Path.home() / ".gemini" / "settings.json", GEMINI_DISABLED)
    assert main(["explain", "gemini-cli", "BeforeTool", "run_shell_command"]) == 0
    assert capsys.readouterr().out.splitlines()[:6] == [
        "Gemini CLI runs 2 hooks for BeforeTool (run_shell_command), in parallel:",
        "  ~/.gemini/settings.json:13  echo on",
        "  ~/.gemini/settings.json:15  echo kept",
        "not run:",
        "  ~/.gemini/settings.json:12  echo off: disabled: hooksConfig.disabled lists"
        " 'echo off' in ~/.gemini/settings.json:4",
        "  ~/.gemini/settings.json:14  echo named: disabled: hooksConfig.disabled lists"
        " 'audit' in ~/.gemini/settings.json:5",
    ]
    write(project / ".gemini" / "settings.json", '{\n  "hooksConfig": {"enabled": false}\n}\n')
    assert main(["explain", "gemini-cli", "BeforeTool", "run_shell_command", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["runs"] == []
    assert len(answer["not_run"]) == 4
    assert {h["why"] for h in answer["not_run"]} == {
        "disabled: hooksConfig.enabled is false in .gemini/settings.json:2"
    }


def test_explain_codex_hooks_feature_off(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Codex CLI's [features] hooks = false (or its old name codex_hooks) in config.toml keeps
    hooks.json's hooks from running; a later layer that sets it again decides."""
    hooks = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo stop"}]}]}}
    write(Path.home() / ".codex" / "hooks.json", json.dumps(hooks))
    write(Path.home() / ".codex" / "config.toml", 'model = "m"\n[features]\ncodex_hooks = false\n')
    assert main(["explain", "codex", "Stop", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["not_run"] == [
        {
            "file": "~/.codex/hooks.json",
            "line": 1,
            "event": "Stop",
            "command": "echo stop",
            "why": "disabled: [features] codex_hooks is false in ~/.codex/config.toml:3",
        },
    ]
    write(project / ".codex" / "config.toml", "[features]\nhooks = true\n")
    assert main(["explain", "codex", "Stop"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [
        "Codex CLI runs 1 hook for Stop, in parallel:",
        "  ~/.codex/hooks.json:1  echo stop",
    ]
