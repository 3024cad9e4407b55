"""What a hook can observe of its host, as each profile replays it: the variables a host adds,
the conversation it sends, the output it refuses, a compaction between tool calls."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hooksim.cli import main
from hooksim.hosts import HOSTS, HookRun
from hooksim.replay.runner import RunResult, run_scenario
from hooksim.scenario import load_scenario


def run(tmp_path: Path, text: str) -> RunResult:
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return run_scenario(load_scenario(path))


def context(result: RunResult, event: str) -> list[str]:
    return [c for f in result.firings if f.event == event for c in f.context]


def test_claude_code_hooks_see_the_cli_alive_and_its_variables(tmp_path: Path) -> None:
    """In print mode: the CLI's pid answers kill -0, AI_AGENT names the version, nobody
    attends, the entrypoint is sdk-cli; SessionStart's env file is the hook's own."""
    result = run(
        tmp_path,
        """
name: s
tool: claude-code
hosts: {claude-code: {launch: print}}
hooks:
  SessionStart:
    - hooks:
        - {type: command, command: 'echo "first $(basename "$CLAUDE_ENV_FILE")"'}
        - {type: command, command: 'echo "second $(basename "$CLAUDE_ENV_FILE")"'}
  UserPromptSubmit:
    - hooks:
        - type: command
          command: >-
            kill -0 "$CLAUDE_PID" && echo "$AI_AGENT $CLAUDE_CODE_ENTRYPOINT
            $CLAUDE_CODE_SESSION_ATTENDED $CLAUDE_CODE_CHILD_SESSION $COREPACK_ENABLE_AUTO_PIN
            $CLAUDE_CODE_STARTER_READS_FOLDER_SETTINGS"
turns: [{user: hi, assistant: ho}]
""",
    )
    assert context(result, "UserPromptSubmit") == ["claude-code_2-1-337_harness sdk-cli 0 1 0 0"]
    assert sorted(context(result, "SessionStart")) == [
        "first sessionstart-hook-0.sh",
        "second sessionstart-hook-1.sh",
    ]


def test_an_async_hook_keeps_its_own_env_file_beside_an_ordinary_one(tmp_path: Path) -> None:
    """Claude Code numbers a SessionStart firing's hooks by their place in the firing, whether
    it waits for them or not: an ``async`` hook and an ordinary one never share an env file."""
    result = run(
        tmp_path,
        """
name: s
tool: claude-code
hooks:
  SessionStart:
    - hooks:
        - {type: command, async: true, command: 'echo "first $(basename "$CLAUDE_ENV_FILE")"'}
        - {type: command, command: 'echo "second $(basename "$CLAUDE_ENV_FILE")"'}
turns: [{user: hi, assistant: ho}]
""",
    )
    said = sorted(r.stdout.strip() for r in result.runs if r.event == "SessionStart")
    assert said == ["first sessionstart-hook-0.sh", "second sessionstart-hook-1.sh"]


def test_claude_code_tool_ids_run_through_the_session(tmp_path: Path) -> None:
    """A call's id is the scenario's, else Claude Code's numbering across turns; PostToolUse
    has tool_response before tool_use_id."""
    result = run(
        tmp_path,
        """
name: s
tool: claude-code
hooks:
  PostToolUse: [{hooks: [{type: command, command: "true"}]}]
turns:
  - {user: a, tools: [{id: toolu_mine, shell: "echo 1"}, {shell: "echo 2"}], assistant: b}
  - {user: c, tools: [{shell: "echo 3"}], assistant: d}
""",
    )
    payloads = [json.loads(r.stdin) for r in result.runs if r.event == "PostToolUse"]
    assert [p["tool_use_id"] for p in payloads] == ["toolu_mine", "toolu_02", "toolu_03"]
    keys = list(payloads[0])
    assert keys.index("tool_response") + 1 == keys.index("tool_use_id")


def test_codex_puts_its_folders_before_path(tmp_path: Path) -> None:
    """Codex installed with npm: its aliases' folder under CODEX_HOME, then its package's
    codex-path, before the PATH it was given; the launcher's two variables."""
    result = run(
        tmp_path,
        """
name: s
tool: codex
hooks:
  SessionStart:
    - hooks:
        - type: command
          command: >-
            echo "${PATH%%:*}" | grep -q '/.codex/tmp/arg0-linux/codex-arg0......$' &&
            rest=${PATH#*:} && echo "${rest%%:*} $CODEX_MANAGED_BY_NPM $CODEX_MANAGED_PACKAGE_ROOT"
turns: [{user: hi, assistant: ho}]
""",
    )
    [said] = context(result, "SessionStart")
    folder, npm, root = said.split()
    assert (
        folder.endswith(
            "/install/node_modules/@openai/codex-linux-x64/vendor/"
            "x86_64-unknown-linux-musl/codex-path"
        )
        or "arm64" in folder
    )
    assert (npm, root.rsplit("/", 3)[1:]) == ("1", ["node_modules", "@openai", "codex"])


@pytest.mark.parametrize(
    ("version", "folder"),
    [("0.162.1", "tmp/arg0"), ("0.163.0", "tmp/arg0-linux"), ("0.171.0", "tmp/arg0-linux")],
)
def test_codex_names_its_aliases_folder_after_the_os_from_0_163(
    tmp_path: Path, version: str, folder: str
) -> None:
    """The folder Codex puts first on a hook's PATH is under CODEX_HOME/tmp/arg0-linux from
    0.163.0 on, under tmp/arg0 before (the releases' binaries; real 0.150.0 and 0.168.0)."""
    result = run(
        tmp_path,
        f"""
name: s
tool: codex
hosts: {{codex: {{version: "{version}"}}}}
hooks:
  SessionStart:
    - hooks:
        - {{type: command, command: 'echo "${{PATH%%:*}}"'}}
turns: [{{user: hi, assistant: ho}}]
""",
    )
    [first] = context(result, "SessionStart")
    assert re.fullmatch(rf".*/home/\.codex/{folder}/codex-arg0[A-Za-z0-9]{{6}}", first), first


# A BeforeModel hook that says what each message of the request holds: the session context,
# the prompt, or both.
_MESSAGES = (
    '"$HOOKSIM_PYTHON" -c "import json, sys; r = json.load(sys.stdin)[\'llm_request\'];'
    " print(json.dumps({'systemMessage': ' | '.join(m['role'] + ':'"
    " + ('context' if m['content'].startswith('<session_context>') else '')"
    " + ('+prompt' if m['content'].endswith('look around') else '') for m in r['messages'])}))\""
)


@pytest.mark.parametrize(
    ("version", "messages"),
    [("0.52.0", "user:context | user:+prompt"), ("0.53.0", "user:context+prompt")],
)
def test_gemini_joins_the_session_context_and_the_prompt_from_0_53(
    tmp_path: Path, version: str, messages: str
) -> None:
    """A request's consecutive entries of one role are one message from v0.53.0 on
    (coalesceConsecutiveRoles): the session context and the prompt; before, two (real 0.39.0,
    0.45.2 and 0.51.0)."""
    result = run(
        tmp_path,
        f"""
name: s
tool: gemini-cli
hosts: {{gemini-cli: {{version: "{version}"}}}}
hooks:
  BeforeModel: [{{hooks: [{{type: command, command: {json.dumps(_MESSAGES)}}}]}}]
turns: [{{user: look around, assistant: done}}]
""",
    )
    [firing] = [f for f in result.firings if f.event == "BeforeModel"]
    assert firing.shown == [messages]


def refused(output: dict[str, Any], event: str = "PreToolUse") -> str:
    run = HookRun(1, event, "hook", 0, exit_code=0, stdout=json.dumps(output))
    return HOSTS["codex"].read(event, run).note


def test_codex_fails_a_hook_whose_output_the_event_refuses() -> None:
    """continue: false, stopReason or suppressOutput on PreToolUse, allow without
    updatedInput, and a PostToolUse reason without a decision make the hook failed; a deny
    with its reason still blocks."""
    context = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "c"}}
    assert refused({"continue": False, **context}).startswith("failed: ")
    assert refused({"suppressOutput": True, **context}).startswith("failed: ")
    assert refused({"hookSpecificOutput": {"permissionDecision": "allow"}}).startswith("failed")
    assert refused({"reason": "r"}, "PostToolUse").startswith("failed: ")
    deny = {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "x"}}
    assert refused(deny) == "deny: x"


def test_codex_compacts_between_tool_calls(tmp_path: Path) -> None:
    """compact: auto on a call: PreCompact, PostCompact and SessionStart(compact) between it
    and the next call, with the turn's own turn_id."""
    result = run(
        tmp_path,
        """
name: s
tool: codex
hooks:
  PreCompact: [{hooks: [{type: command, command: "true"}]}]
  PreToolUse: [{hooks: [{type: command, command: "true"}]}]
turns:
  - {user: a, tools: [{shell: "echo 1", compact: auto}, {shell: "echo 2"}], assistant: b}
""",
    )
    events = [(f.event, f.match) for f in result.firings]
    at = events.index(("PreCompact", "auto"))
    assert events[at - 2 : at + 4] == [
        ("PreToolUse", "Bash"),
        ("PostToolUse", "Bash"),
        ("PreCompact", "auto"),
        ("PostCompact", "auto"),
        ("SessionStart", "compact"),
        ("PreToolUse", "Bash"),
    ]
    turn_ids = {json.loads(r.stdin)["turn_id"] for r in result.runs}
    assert len(turn_ids) == 1


def test_a_compaction_between_tool_calls_is_refused_where_the_host_has_none(
    tmp_path: Path, capsys: Any
) -> None:
    """Claude Code compacts between turns only: the run says so, with the file and turn."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: s\ntool: claude-code\nhooks: {Stop: [{hooks: [{type: command, command: 'true'}]}]}\n"
        "turns: [{user: a, tools: [{shell: 'echo 1', compact: auto}], assistant: b}]\n"
    )
    assert main(["run", str(path)]) != 0
    out = capsys.readouterr().out
    assert f"{path}: turn 1: tools: [{{compact: auto}}]: Claude Code compacts between turns" in out


def test_gemini_headless_prompt_and_request_carry_what_the_host_sends(tmp_path: Path) -> None:
    """gemini -p puts SessionStart's context before the prompt; BeforeModel's request starts
    with the session context (the project's folders listed) and carries the prompt and
    BeforeAgent's context; a resumed run keeps the first message's session context."""
    (tmp_path / "notes.txt").write_text("n")
    result = run(
        tmp_path,
        """
name: s
tool: gemini-cli
hosts: {gemini-cli: {launch: headless}}
files: {notes.txt: {from: notes.txt}}
hooks:
  SessionStart:
    - hooks: [{type: command, command: "echo '{\\"hookSpecificOutput\\": {\\"additionalContext\\": \\"s<1>\\"}}'"}]
  BeforeModel: [{hooks: [{type: command, command: "true"}]}]
turns:
  - {user: first, assistant: One.}
  - {user: second, assistant: Two.}
""",
    )
    agent = [json.loads(r.stdin)["prompt"] for r in result.runs if r.event == "BeforeAgent"]
    assert agent == []  # no BeforeAgent hook: read the model's request instead
    requests = [json.loads(r.stdin)["llm_request"] for r in result.runs if r.event == "BeforeModel"]
    first, second = requests
    [message] = first["messages"]
    assert message["content"].startswith("<session_context>\nThis is the Gemini CLI.")
    assert "project/\n└───notes.txt\n\n\n</session_context>" in message["content"]
    assert message["content"].endswith("<hook_context>s&lt;1&gt;</hook_context>\n\nfirst")
    assert first["config"] == {"temperature": 1, "topP": 0.95, "topK": 64}
    assert [m["role"] for m in second["messages"]] == ["user", "model", "user"]
    assert second["messages"][0]["content"].endswith("</session_context>")
    assert second["messages"][2]["content"] == "<hook_context>s&lt;1&gt;</hook_context>\n\nsecond"
