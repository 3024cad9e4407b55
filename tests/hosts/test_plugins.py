"""Plugins and extensions (``plugins:``): a Claude Code plugin folder and a Gemini CLI extension
installed as their host installs them, their hooks run with the variables and substitutions the
host gives them; a host without plugin hooks, or a folder that is not one, is a file:line error."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from hooksim.judge import expect
from hooksim.replay.runner import run_scenario
from hooksim.scenario import ScenarioError, load_scenario

# What a hook saw, written where expect.files reads it (the hook's cwd is the project).
SEEN = 'printf "root=%s\\ndata=%s\\n" "$CLAUDE_PLUGIN_ROOT" "$CLAUDE_PLUGIN_DATA" > seen.txt'


def write(root: Path, files: dict[str, str | dict[str, object]]) -> Path:
    """A folder of files (a dict is written as JSON)."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    return root


def claude_plugin(root: Path, hooks: dict[str, object], **more: str | dict[str, object]) -> Path:
    """A Claude Code plugin folder named ``guard``: its manifest and ``hooks/hooks.json``."""
    return write(
        root,
        {
            ".claude-plugin/plugin.json": {"name": "guard", "version": "1.0.0"},
            "hooks/hooks.json": {"hooks": hooks},
            **more,
        },
    )


def scenario(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text("name: t\n" + textwrap.dedent(body))
    return path


def command_hook(event: str, command: str, matcher: str | None = None) -> dict[str, object]:
    group: dict[str, object] = {"hooks": [{"type": "command", "command": command}]}
    if matcher is not None:
        group["matcher"] = matcher
    return {event: [group]}


def test_a_claude_code_plugin_runs_with_its_root_and_data_folder(tmp_path: Path) -> None:
    """A plugin's hook runs from the folder Claude Code loads it from (--plugin-dir), with
    CLAUDE_PLUGIN_ROOT naming it and CLAUDE_PLUGIN_DATA its data folder (which exists), and the
    shell expands ${CLAUDE_PLUGIN_ROOT} in the command from that variable."""
    claude_plugin(
        tmp_path / "guard",
        command_hook("PreToolUse", 'sh "${CLAUDE_PLUGIN_ROOT}/scripts/deny.sh"', "Bash"),
        **{"scripts/deny.sh": SEEN + '\ntest -d "$CLAUDE_PLUGIN_DATA" && echo no >&2; exit 2\n'},
    )
    path = scenario(
        tmp_path,
        """\
        tool: claude-code
        plugins: [guard]
        turns:
          - {user: clean up, tools: [{shell: rm -rf build}], assistant: done}
        expect:
          blocked: {PreToolUse: 1}
          context_at_turn: {"1": "PreToolUse:Bash hook error: ["}
          files:
            seen.txt:
              matches: "^root=/.+/plugins/guard\\ndata=/.+/home/.claude/plugins/data/guard-inline\\n$"
        """,
    )
    result = run_scenario(load_scenario(path))
    assert expect.check(result) == []
    (run,) = result.runs
    assert run.command == 'sh "${CLAUDE_PLUGIN_ROOT}/scripts/deny.sh"'
    assert run.stderr == "no\n"


def test_plugin_hooks_run_beside_the_settings_hooks_even_the_same_command(tmp_path: Path) -> None:
    """A plugin's hooks join the settings' hooks; an identical command runs once per plugin root
    and once for the settings (Claude Code dedupes within each source only)."""
    claude_plugin(tmp_path / "guard", command_hook("SessionStart", "echo x >> starts.txt"))
    path = scenario(
        tmp_path,
        """\
        tool: claude-code
        plugins: [guard]
        hooks:
          SessionStart: [{hooks: [{type: command, command: echo x >> starts.txt},
                                  {type: command, command: echo x >> starts.txt}]}]
        turns:
          - {user: hi, assistant: hello}
        expect:
          files: {starts.txt: {equals: "x\\nx\\n"}}
        """,
    )
    assert expect.check(run_scenario(load_scenario(path))) == []


def test_the_manifest_names_more_hooks_and_exec_form_is_substituted(tmp_path: Path) -> None:
    """plugin.json's hooks (a file path, or hooks inline) add to hooks/hooks.json; an exec-form
    hook (args) gets ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA} substituted in each
    argument, with no shell."""
    write(
        tmp_path / "guard",
        {
            ".claude-plugin/plugin.json": {
                "name": "guard",
                "hooks": ["./more-hooks.json", command_hook("Stop", "echo inline >> order.txt")],
            },
            "hooks/hooks.json": {"hooks": command_hook("Stop", "echo standard >> order.txt")},
            "more-hooks.json": {
                "hooks": {
                    "Stop": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": "sh",
                                    "args": [
                                        "${CLAUDE_PLUGIN_ROOT}/argv.sh",
                                        "${CLAUDE_PLUGIN_DATA}",
                                        "$HOME",
                                    ],
                                }
                            ]
                        }
                    ]
                }
            },
            "argv.sh": 'printf "%s\\n" "$@" > argv.txt\n',
        },
    )
    path = scenario(
        tmp_path,
        """\
        tool: claude-code
        plugins: [guard]
        turns:
          - {user: hi, assistant: hello}
        expect:
          fired: {Stop: 1}
          files:
            argv.txt: {matches: "^/.+/home/.claude/plugins/data/guard-inline\\n\\\\$HOME\\n$"}
        """,
    )
    result = run_scenario(load_scenario(path))
    assert expect.check(result) == []
    assert sorted(r.command for r in result.runs) == [
        "echo inline >> order.txt",
        "echo standard >> order.txt",
        "sh",
    ]


def test_a_plugin_without_a_manifest_is_named_after_its_folder(tmp_path: Path) -> None:
    """Claude Code loads a folder with only hooks/hooks.json as a plugin named after the folder;
    a hooks module (modules) is code hooksim cannot run: a warning says so."""
    write(
        tmp_path / "Bare Plugin",
        {"hooks/hooks.json": {"hooks": command_hook("SessionStart", SEEN), "modules": ["./m.js"]}},
    )
    path = scenario(
        tmp_path,
        """\
        tool: claude-code
        plugins: [Bare Plugin]
        turns:
          - {user: hi, assistant: hello}
        expect:
          files:
            seen.txt: {matches: "data=/.+/plugins/data/Bare-Plugin-inline\\n$"}
        """,
    )
    result = run_scenario(load_scenario(path))
    assert expect.check(result) == []
    assert any("hooks modules" in w and "Bare Plugin" in w for w in result.warnings), (
        result.warnings
    )


def test_a_gemini_cli_extension_is_installed_and_its_strings_hydrated(tmp_path: Path) -> None:
    """A Gemini CLI extension is copied into ~/.gemini/extensions/NAME; every string of its
    hooks/hooks.json has ${extensionPath}, ${workspacePath}, ${/} and ${pathSeparator} replaced
    before its hooks run (an unknown ${name} is left to the shell)."""
    write(
        tmp_path / "ext",
        {
            "gemini-extension.json": {"name": "shield", "version": "0.1.0"},
            "hooks/hooks.json": {
                "hooks": {
                    "BeforeTool": [
                        {
                            "matcher": "run_shell_command",
                            "hooks": [
                                {
                                    "type": "command",
                                    "name": "shield",
                                    "command": "bash ${extensionPath}${/}check.sh '${workspacePath}'"
                                    " '${pathSeparator}' \"${nothing:-unset}\"",
                                }
                            ],
                        }
                    ]
                }
            },
            "check.sh": 'printf "%s|%s|%s|%s\\n" "$0" "$1" "$2" "$3" > seen.txt\n'
            'echo \'{"decision": "deny", "reason": "not here"}\'\n',
        },
    )
    path = scenario(
        tmp_path,
        """\
        tool: gemini-cli
        plugins: [ext]
        turns:
          - {user: clean up, tools: [{shell: rm -rf build}], assistant: done}
        expect:
          blocked: {BeforeTool: 1}
          context_at_turn: {"1": "Tool execution blocked: not here"}
          files:
            seen.txt: {matches: "^/.+/home/.gemini/extensions/shield/check.sh\\\\|/.+/project\\\\|/\\\\|unset\\n$"}
        """,
    )
    result = run_scenario(load_scenario(path))
    assert expect.check(result) == []
    (run,) = [r for r in result.runs if r.event == "BeforeTool"]
    assert run.command.startswith("bash /")
    assert "${extensionPath}" not in run.command


def test_plugins_are_per_host_as_hooks_are(tmp_path: Path) -> None:
    """plugins: belongs to the scenario's tool; hosts.NAME.plugins to that host."""
    claude_plugin(tmp_path / "guard", command_hook("SessionStart", "echo claude > who.txt"))
    write(
        tmp_path / "ext",
        {
            "gemini-extension.json": {"name": "shield", "version": "1"},
            "hooks/hooks.json": {"hooks": command_hook("SessionStart", "echo gemini > who.txt")},
        },
    )
    path = scenario(
        tmp_path,
        """\
        tool: claude-code
        plugins: [guard]
        hosts:
          gemini-cli: {plugins: [ext], expect: {files: {who.txt: {equals: "gemini\\n"}}}}
        turns:
          - {user: hi, assistant: hello}
        expect:
          files: {who.txt: {equals: "claude\\n"}}
        """,
    )
    sc = load_scenario(path)
    assert expect.check(run_scenario(sc)) == []
    assert expect.check(run_scenario(sc, tool="gemini-cli")) == []


@pytest.mark.parametrize(
    ("body", "line", "why"),
    [
        (
            "tool: codex\nplugins: [guard]\n",
            3,
            "plugins: hooksim does not install Codex CLI plugins",
        ),
        ("tool: hermes\nplugins: [guard]\n", 3, "plugins: hooksim does not install Hermes plugins"),
        (
            "tool: cursor\nhosts: {cursor: {plugins: [guard]}}\n",
            3,
            "hosts.cursor.plugins: hooksim does not install Cursor plugins",
        ),
        ("tool: claude-code\nplugins: [guard, missing]\n", 3, "plugins: missing: no folder "),
        (
            "tool: gemini-cli\nplugins: [guard]\n",
            3,
            "plugins: guard: not a Gemini CLI extension: no gemini-extension.json in ",
        ),
        (
            "tool: claude-code\nplugins: [broken]\n",
            3,
            "plugins: broken: not a Claude Code plugin: ",
        ),
        (
            "hosts: {claude-code: {hooks: {}}}\nplugins: [guard]\n",
            3,
            "plugins: are the plugins of the scenario's tool (hermes), which this file does not"
            " run on",
        ),
        (
            "tool: claude-code\nplugins: [empty]\n",
            3,
            "plugins: empty: not a Claude Code plugin: no .claude-plugin/plugin.json or"
            " hooks/hooks.json in ",
        ),
    ],
)
def test_a_plugin_hooksim_cannot_install_is_a_file_line_error(
    tmp_path: Path, body: str, line: int, why: str
) -> None:
    """A host without plugin hooks, a missing folder, or a folder that is not the host's kind of
    plugin is one line naming the file and the line of the plugins entry."""
    claude_plugin(tmp_path / "guard", command_hook("SessionStart", "true"))
    write(tmp_path / "broken", {"hooks/hooks.json": "{not json"})
    (tmp_path / "empty").mkdir()
    path = scenario(tmp_path, body + "turns:\n  - {user: hi, assistant: hello}\n")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path)
    message = str(exc.value)
    assert message.startswith(f"{path}:{line}: {why}"), message
    assert "\n" not in message


def test_a_settings_hook_naming_a_plugin_variable_does_not_run(tmp_path: Path) -> None:
    """Claude Code refuses an exec-form hook outside a plugin whose arguments name
    ${CLAUDE_PLUGIN_ROOT} or ${CLAUDE_PLUGIN_DATA} (only the substitution refuses: a shell
    form runs, probe claude-code-plugin-root-in-settings): it never starts, and says why."""
    path = scenario(
        tmp_path,
        """\
        tool: claude-code
        hooks:
          SessionStart: [{hooks: [{type: command, command: sh, args: ["${CLAUDE_PLUGIN_ROOT}/x.sh"]}]}]
        turns:
          - {user: hi, assistant: hello}
        checks: false
        """,
    )
    (run,) = run_scenario(load_scenario(path)).runs
    assert run.exit_code is None
    assert run.spawn_error == (
        "command cannot be parsed (Claude Code refuses it: ${CLAUDE_PLUGIN_ROOT} is set only for"
        " a plugin's hooks)"
    )
