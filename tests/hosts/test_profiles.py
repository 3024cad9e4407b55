"""Host profiles: the README table, payloads, config files and how each host reads a hook."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from hooksim.cli import main
from hooksim.hosts import HOSTS, HookRun, HookSpec
from hooksim.hosts.tables import lifecycle_table
from hooksim.replay.runner import run_scenario
from hooksim.scenario import ApiError, Compact, NewSession, Turn, load_scenario

from tests.hosts.sessions import Fired, recording_session

ROOT = Path(__file__).parents[2]


def test_readme_table_is_the_generated_one() -> None:
    """README's hosts table is exactly what the profiles generate (hooksim hosts --update README.md)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("<!-- hosts-table:start -->\n")[1].split("<!-- hosts-table:end -->")[0]
    assert block == lifecycle_table(), "run: hooksim hosts --update README.md"


def test_hosts_update_rewrites_only_the_marked_block(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--update replaces the table between the markers and leaves the rest byte for byte."""
    doc = tmp_path / "doc.md"
    doc.write_text("intro\n<!-- hosts-table:start -->\nold\n<!-- hosts-table:end -->\noutro\n")
    assert main(["hosts", "--update", str(doc)]) == 0
    text = doc.read_text()
    assert text.startswith("intro\n<!-- hosts-table:start -->\n| | Hermes | Claude Code |")
    assert text.endswith("<!-- hosts-table:end -->\noutro\n")
    (tmp_path / "plain.md").write_text("no markers\n")
    assert main(["hosts", "--update", str(tmp_path / "plain.md")]) == 2
    assert "has no '<!-- hosts-table:start -->'" in capsys.readouterr().err


def record(tool: str, steps: list[Any]) -> Fired:
    """The events a host's session fires for these steps, with payloads; every hook passes."""
    fired, session = recording_session(tool)
    for step in steps:
        session.step(step)
    session.exit()
    return fired


SESSION = [
    Turn("a", "b", tools=()),
    Compact("auto"),
    Turn("c", "d"),
    NewSession("s2"),
    Turn("e", "f"),
]


@pytest.mark.parametrize("tool", sorted(HOSTS))
def test_every_event_in_the_table_fires_in_a_session(tool: str) -> None:
    """The events a profile lists for the lifecycle points are the ones its session fires."""
    from hooksim.scenario import ToolCall

    steps = [Turn("a", "b", tools=(ToolCall("terminal", {"command": "ls"}),)), *SESSION]
    fired = {event for event, _, _ in record(tool, steps)}
    listed = {event for event in HOSTS[tool].events.values() if event is not None}
    assert listed <= fired, f"listed but never fired: {listed - fired}"


@pytest.mark.parametrize("tool", sorted(HOSTS))
def test_spawn_model_is_what_argv_does(tool: str) -> None:
    """'shell' hosts hand the command to a shell; 'exec' hosts split it into argv themselves;
    an in-process host starts nothing."""
    host = HOSTS[tool]
    if host.in_process:  # OpenClaw: handlers are functions in its process, never started
        with pytest.raises(ValueError, match="not commands"):
            host.argv("echo 'a b'", {"SHELL": "/bin/sh"})
        return
    argv = host.argv("echo 'a b'", {"SHELL": "/bin/sh"})
    if host.spawn == "shell":
        assert argv[-1] == "echo 'a b'"
        assert argv[-2] in ("-c", "-lc")
    else:
        assert argv == ["echo", "a b"]


def test_hermes_expands_tilde_to_the_hooks_home() -> None:
    """Hermes expands ~ with its own HOME, which under hooksim is the scenario's home."""
    assert HOSTS["hermes"].argv("~/bin/hook 'a b'", {"HOME": "/sim/home"}) == [
        "/sim/home/bin/hook",
        "a b",
    ]


def test_codex_shell_by_version() -> None:
    """0.169.0 runs /bin/bash -c whatever SHELL says; before, $SHELL -lc (hooksim sets /bin/sh)."""
    assert HOSTS["codex"].argv("x", {"SHELL": "/bin/zsh"}) == ["/bin/bash", "-c", "x"]
    old = HOSTS["codex"].at_version("0.129.0")
    assert old.argv("x", {"SHELL": "/bin/bash"}) == ["/bin/bash", "-lc", "x"]
    assert old.argv("x", {}) == ["/bin/sh", "-lc", "x"]


def test_timelines_side_by_side() -> None:
    """Launch, compaction, /clear and exit, as each host orders them."""
    events = {tool: [e for e, _, _ in record(tool, SESSION)] for tool in HOSTS}
    assert events["claude-code"] == [
        "SessionStart",
        "UserPromptSubmit",
        "Stop",
        "PreCompact",
        "SessionStart",
        "PostCompact",
        "UserPromptSubmit",
        "Stop",
        "SessionEnd",
        "SessionStart",
        "UserPromptSubmit",
        "Stop",
        "SessionEnd",
    ]
    assert events["codex"] == [
        "SessionStart",
        "UserPromptSubmit",
        "Stop",
        "PreCompact",
        "PostCompact",
        "SessionStart",
        "UserPromptSubmit",
        "Stop",
        "SessionEnd",
        "SessionStart",
        "UserPromptSubmit",
        "Stop",
        "SessionEnd",
    ]
    assert events["cursor"] == [
        "sessionStart",
        "beforeSubmitPrompt",
        "afterAgentResponse",
        "stop",
        "preCompact",
        "beforeSubmitPrompt",
        "afterAgentResponse",
        "stop",
        "sessionStart",
        "beforeSubmitPrompt",
        "afterAgentResponse",
        "stop",
        "sessionEnd",
    ]
    model = ["BeforeModel", "BeforeToolSelection", "AfterModel"]  # around every request
    assert events["gemini-cli"] == [
        "SessionStart",
        "BeforeAgent",
        "PreCompress",
        *model,
        "AfterAgent",
        "PreCompress",  # the auto compaction is the check before the next request
        "BeforeAgent",
        *model,
        "AfterAgent",
        "SessionEnd",
        "SessionStart",
        "BeforeAgent",
        "PreCompress",
        *model,
        "AfterAgent",
        "SessionEnd",
    ]
    assert events["hermes"] == [
        "on_session_start",
        "pre_llm_call",
        "post_llm_call",
        "on_session_end",
        "pre_llm_call",
        "post_llm_call",
        "on_session_end",
        "on_session_finalize",
        "on_session_reset",
        "on_session_start",
        "pre_llm_call",
        "post_llm_call",
        "on_session_end",
        "on_session_finalize",
    ]


def payloads(tool: str) -> dict[str, dict[str, Any]]:
    """The last payload of each event in a session with a manual compaction."""
    steps = [
        Turn("hi", "hello"),
        Compact("manual", "keep the plan"),
        Turn("more", error=ApiError.parse(500)),
    ]
    return {e: p for e, p, _ in record(tool, steps) if isinstance(p, dict)}


def test_claude_code_payloads() -> None:
    """Common fields first (the prompt's id once there is one, as a real 2.1.332 run sends it);
    PreCompact carries trigger and instructions, Stop the last message."""
    p = payloads("claude-code")
    assert list(p["Stop"]) == [
        "session_id",
        "transcript_path",
        "cwd",
        "prompt_id",
        "permission_mode",
        "hook_event_name",
        "stop_hook_active",
        "last_assistant_message",
        "background_tasks",
        "session_crons",
    ]
    assert p["PreCompact"]["trigger"] == "manual"
    assert p["PreCompact"]["custom_instructions"] == "keep the plan"
    assert "permission_mode" not in p["PreCompact"]
    assert p["SessionStart"]["source"] == "compact"
    assert p["StopFailure"]["error"] == "server_error"  # turn 2 ended on a failed model call


def test_codex_payloads() -> None:
    """PreCompact has a turn_id and trigger (no instructions, no permission_mode); turn events a
    turn_id."""
    p = payloads("codex")
    assert list(p["PreCompact"]) == [
        "session_id",
        "turn_id",
        "transcript_path",
        "cwd",
        "hook_event_name",
        "model",
        "trigger",
    ]
    assert p["UserPromptSubmit"]["turn_id"]
    assert "turn_id" not in p["SessionStart"]
    assert p["SessionStart"]["source"] == "compact"  # queued, run in the next turn


def test_cursor_payloads() -> None:
    """conversation_id and generation_id; preCompact carries the context statistics."""
    p = payloads("cursor")
    assert p["preCompact"]["trigger"] == "manual"
    assert {"context_usage_percent", "context_tokens", "messages_to_compact"} <= set(
        p["preCompact"]
    )
    assert p["stop"]["status"] == "error"
    assert p["stop"]["loop_count"] == 0
    assert p["beforeSubmitPrompt"]["conversation_id"] == "s1"


def test_gemini_payload_timestamp_reads_the_virtual_clock() -> None:
    """Gemini's timestamp field is the scenario's time, not the machine's."""
    p = payloads("gemini-cli")
    assert p["PreCompress"]["timestamp"] == "2026-05-28T20:26:40.000Z"


def test_compact_json_on_stdin_except_hermes() -> None:
    """Node and Rust hosts write compact JSON (Claude Code adds a newline); Hermes writes Python's
    default separators."""
    payload = {"a": 1, "b": "é"}
    assert HOSTS["claude-code"].encode(payload) == '{"a":1,"b":"é"}\n'.encode()
    assert HOSTS["gemini-cli"].encode(payload) == '{"a":1,"b":"é"}'.encode()
    assert HOSTS["hermes"].encode(payload) == '{"a": 1, "b": "é"}'.encode()


def run(exit_code: int, stdout: str = "", stderr: str = "") -> HookRun:
    return HookRun(1, "", "cmd", 0, exit_code=exit_code, stdout=stdout, stderr=stderr)


BLOCK_JSON = '{"decision": "block", "reason": "no"}'


@pytest.mark.parametrize(
    ("tool", "event", "hook", "blocked"),
    [
        ("claude-code", "Stop", run(2), True),
        ("claude-code", "Stop", run(1, BLOCK_JSON), True),  # valid JSON decides, whatever the code
        ("claude-code", "PreCompact", run(2, stderr="x"), True),
        ("claude-code", "PostCompact", run(2, stderr="x"), False),
        ("claude-code", "SessionStart", run(0, BLOCK_JSON), False),
        ("codex", "Stop", run(2), False),
        ("codex", "Stop", run(2, stderr="why"), True),
        ("codex", "Stop", run(1, BLOCK_JSON), False),
        ("codex", "Stop", run(0, '{"decision": "block"}'), False),  # a block needs a reason
        ("codex", "PreCompact", run(2, stderr="x"), False),
        ("cursor", "beforeSubmitPrompt", run(2), True),
        ("cursor", "beforeSubmitPrompt", run(0, '{"continue": false}'), True),
        ("cursor", "beforeSubmitPrompt", run(1), False),
        ("cursor", "stop", run(2), False),
        ("gemini-cli", "AfterAgent", run(0, '{"decision": "deny", "reason": "r"}'), True),
        ("gemini-cli", "PreCompress", run(2, stderr="x"), False),
        ("gemini-cli", "BeforeAgent", run(1, BLOCK_JSON), True),  # JSON whatever the exit code
        ("gemini-cli", "BeforeAgent", run(1, "not JSON"), False),  # exit 1: a warning
        ("gemini-cli", "BeforeAgent", run(3, "no"), True),
        ("gemini-cli", "BeforeAgent", run(2), False),  # silent: only a failed hook
        ("gemini-cli", "BeforeAgent", run(2, stderr="why"), True),
        ("hermes", "pre_tool_call", run(2, stderr="x"), False),
        ("hermes", "pre_tool_call", run(1, '{"action": "block"}'), True),
        ("hermes", "post_llm_call", run(0, BLOCK_JSON), False),
    ],
)
def test_how_each_host_reads_a_hook(tool: str, event: str, hook: HookRun, blocked: bool) -> None:
    """Exit codes and stdout mean different things on each host."""
    assert (HOSTS[tool].read(event, hook).block is not None) is blocked


@pytest.mark.parametrize(
    ("tool", "event", "stdout", "context"),
    [
        ("claude-code", "UserPromptSubmit", "plain", "plain"),
        ("claude-code", "Stop", "plain", None),
        ("codex", "SessionStart", "plain", "plain"),
        ("codex", "PreCompact", "plain", None),
        ("gemini-cli", "SessionStart", "plain", None),  # a systemMessage, not context
        (
            "gemini-cli",
            "SessionStart",
            '{"hookSpecificOutput": {"additionalContext": "ctx"}}',
            "ctx",
        ),
        ("hermes", "pre_llm_call", '{"context": "ctx"}', "ctx"),
        ("hermes", "post_llm_call", '{"context": "ctx"}', None),
    ],
)
def test_what_reaches_the_model(tool: str, event: str, stdout: str, context: str | None) -> None:
    """Which hook output becomes context differs by host and event."""
    assert HOSTS[tool].read(event, run(0, stdout)).context == context


def test_timeouts_per_host() -> None:
    """Defaults, per-event defaults, Codex's 1 s minimum, Gemini's milliseconds, Claude's budget."""
    claude, codex, gemini = HOSTS["claude-code"], HOSTS["codex"], HOSTS["gemini-cli"]
    assert claude.timeout_s(HookSpec("Stop", "x"), {}) == 600
    assert claude.timeout_s(HookSpec("UserPromptSubmit", "x"), {}) == 30
    assert claude.timeout_s(HookSpec("SessionEnd", "x"), {}) == 1.5
    ends, _ = claude.parse_hooks(
        {"SessionEnd": [{"hooks": [{"command": "a", "timeout": 600}, {"command": "b"}]}]}
    )
    assert [claude.timeout_s(s, {}) for s in ends] == [60, 60]  # shared, raised up to 60 s
    (low,), _ = claude.parse_hooks({"SessionEnd": [{"hooks": [{"command": "a", "timeout": 0.5}]}]})
    assert claude.timeout_s(low, {}) == 1.5  # never lowered
    budget = {"CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS": "4000"}
    assert claude.timeout_s(ends[0], budget) == 4  # the variable overrides it outright
    old = claude.at_version("2.1.73")
    (end,), _ = old.parse_hooks({"SessionEnd": [{"hooks": [{"command": "a", "timeout": 600}]}]})
    assert old.timeout_s(end, budget) == 1.5  # before v2.1.74: killed after 1.5 s
    (spec,), _ = codex.parse_hooks({"Stop": [{"hooks": [{"command": "x", "timeout": 0}]}]})
    assert codex.timeout_s(spec, {}) == 1
    (spec,), _ = gemini.parse_hooks(
        {"AfterAgent": [{"hooks": [{"type": "command", "command": "x", "timeout": 1500}]}]}
    )
    assert gemini.timeout_s(spec, {}) == 1.5


def test_config_warnings_name_what_was_skipped() -> None:
    """Unknown events, non-command hooks and entries without a command are skipped, with a reason."""
    specs, warnings = HOSTS["claude-code"].parse_hooks(
        {
            "Stop": [{"hooks": [{"type": "prompt", "prompt": "judge"}, {"type": "command"}]}],
            "PreCompress": [{"hooks": [{"command": "x"}]}],
            "UserPromptSubmit": [{"matcher": "ignored", "hooks": [{"command": "ok"}]}],
        }
    )
    assert [(s.event, s.command, s.matcher) for s in specs] == [("UserPromptSubmit", "ok", None)]
    assert warnings == [
        "hooks.Stop[0].hooks[0] is a 'prompt' hook; hooksim runs command hooks only",
        "hooks.Stop[0].hooks[1] has no command; skipped",
        "unknown hook event 'PreCompress'; skipped",
    ]
    _, warnings = HOSTS["cursor"].parse_hooks({"Stop": [{"command": "x"}]})
    assert warnings == ["unknown hook type 'Stop'; skipped"]


def test_a_timeout_the_host_would_not_keep_is_a_warning() -> None:
    """Hermes logs a timeout below 1 s or above 300 s and uses its default or the cap; a timeout
    that is not positive is named on the other hosts too."""
    specs, warnings = HOSTS["hermes"].parse_hooks(
        {
            "post_llm_call": [
                {"command": "a", "timeout": -1},
                {"command": "b", "timeout": 900},
                {"command": "c", "timeout": "soon"},
            ]
        }
    )
    assert [s.timeout_s for s in specs] == [60.0, 300.0, 60.0]
    assert warnings == [
        "hooks.post_llm_call[0].timeout must be >=1; using default 60s",
        "hooks.post_llm_call[1].timeout=900s exceeds max 300s; clamping",
        "hooks.post_llm_call[2].timeout must be an int (got 'soon'); using default 60s",
    ]
    _, warnings = HOSTS["claude-code"].parse_hooks(
        {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": -1}]}]}
    )
    assert warnings == [
        "hooks.Stop[0].hooks[0]: timeout -1 is not positive; the host skips this hook"
    ]  # real 2.1.332 never ran it
    _, warnings = HOSTS["gemini-cli"].parse_hooks(
        {"AfterAgent": [{"hooks": [{"type": "command", "command": "x", "timeout": 0}]}]}
    )
    assert warnings == ["hooks.AfterAgent[0].hooks[0]: timeout 0 is not positive; default used"]


RECORDER = "import json, os, sys; open(os.environ['OUT'], 'a').write(json.dumps({'event': json.load(sys.stdin)['hook_event_name'], 'env': {k: v for k, v in os.environ.items() if k.endswith('_DIR') or k.startswith(('CURSOR_', 'CLAUDE_'))}}) + chr(10))"


@pytest.mark.parametrize(
    ("tool", "filename", "config"),
    [
        (
            "claude-code",
            "settings.json",
            {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "CMD"}]}]}},
        ),
        (
            "codex",
            "hooks.json",
            {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "CMD"}]}]}},
        ),
        ("codex", "config.toml", None),
        ("cursor", "hooks.json", {"version": 1, "hooks": {"stop": [{"command": "CMD"}]}}),
        (
            "gemini-cli",
            "settings.json",
            {"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "CMD"}]}]}},
        ),
        ("hermes", "config.yaml", None),
    ],
)
def test_hooks_from_each_hosts_own_config_file(
    tool: str, filename: str, config: dict[str, Any] | None, tmp_path: Path
) -> None:
    """--hooks-config reads the host's file format; the hook sees the host's variables."""
    out = tmp_path / "out.jsonl"
    command = shlex.join([sys.executable, "-c", RECORDER])
    path = tmp_path / filename
    if filename == "config.toml":
        path.write_text(
            f"[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = 'command'\ncommand = {json.dumps(command)}\n"
        )
    elif filename == "config.yaml":
        path.write_text(
            f"model: x\nhooks:\n  post_llm_call:\n    - command: {json.dumps(command)}\n"
        )
    else:
        path.write_text(json.dumps(config).replace('"CMD"', json.dumps(command)))
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        f"name: s\nenv: {{OUT: {json.dumps(str(out))}}}\nturns:\n  - {{user: a, assistant: b}}\n"
    )
    run_scenario(load_scenario(scenario), tool=tool, hooks_config=path)
    (record_,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert record_["event"] == HOSTS[tool].events["stop"]
    env = record_["env"]
    if tool == "claude-code":
        assert env["CLAUDE_PROJECT_DIR"].endswith("project")
    if tool == "cursor":
        assert env["CURSOR_PROJECT_DIR"] == env["CLAUDE_PROJECT_DIR"]
        assert "CURSOR_VERSION" in env
    if tool == "gemini-cli":
        assert env["GEMINI_PROJECT_DIR"] == env["CLAUDE_PROJECT_DIR"]
    if tool == "hermes":
        assert not any(k.startswith(("CLAUDE_", "CURSOR_")) for k in env)


def test_claude_code_versions_follow_the_changelog() -> None:
    """Timeout, stop cap, PreCompact blocking and PostCompact change at their versions."""
    claude = HOSTS["claude-code"]
    old, mid = claude.at_version("2.1.2"), claude.at_version("v2.1.143")
    assert (old.default_timeout_s, old.stop_cap, old.events["post_compact"]) == (60, None, None)
    assert "PreCompact" not in old.blocking
    assert (mid.default_timeout_s, mid.stop_cap, mid.events["post_compact"]) == (
        600,
        8,
        "PostCompact",
    )
    assert "PreCompact" in mid.blocking
    assert claude.blocking == mid.blocking  # the shared profile is untouched
    for bad, message in [("two", "is not like 1.2.3"), ("1.0.80", "from v1.0.85 on")]:
        with pytest.raises(ValueError, match=message):
            claude.at_version(bad)
    with pytest.raises(ValueError, match=r"from v0\.129\.0 to v0\.171\.0, not 0\.120"):
        HOSTS["codex"].at_version("0.120")
    with pytest.raises(ValueError, match=r"from v0\.21\.0 .* on, not 0\.20\.0"):
        HOSTS["gemini-cli"].at_version("0.20.0")
    with pytest.raises(ValueError, match="hooksim models Cursor as of"):
        HOSTS["cursor"].at_version("2.0")


def test_versions_change_only_what_their_history_says() -> None:
    """Codex before 0.150.0 has no SessionEnd (real 0.141.0 fires none, real 0.150.0 does);
    Gemini CLI before 0.30.0 reads exit codes the old way."""
    codex = HOSTS["codex"]
    assert codex.at_version("0.169.0").events["session_end"] == "SessionEnd"
    assert codex.at_version("0.150.0").events["session_end"] == "SessionEnd"
    assert codex.at_version("0.141.0").events["session_end"] is None
    gemini = HOSTS["gemini-cli"]
    three = HookRun(1, "", "cmd", 0, exit_code=3, stdout="no")
    assert gemini.read("BeforeTool", three).block == "no"
    assert gemini.at_version("0.29.0").read("BeforeTool", three).block is None


def test_a_version_and_a_launch_both_hold(tmp_path: Path) -> None:
    """hosts.codex with version and launch: the exec launch of that version, not of the newest."""
    path = tmp_path / "old-exec.yaml"
    path.write_text(
        "name: an old exec\ntool: codex\nhosts:\n  codex: {version: 0.141.0, launch: exec}\n"
        "turns:\n  - {user: hi, assistant: hello}\n"
    )
    scenario = load_scenario(path).on("codex")
    host = scenario.profile(HOSTS["codex"])
    assert (host.exec_launch, host.events["session_end"]) == (True, None)


def test_a_version_for_a_host_modelled_once_is_a_setup_error(tmp_path: Path) -> None:
    """hosts.codex.version names the key and why it cannot be honoured."""
    from hooksim.replay.runner import SetupError

    path = tmp_path / "s.yaml"
    path.write_text(
        "name: s\nturns:\n  - {user: a, error: 500}\nhosts:\n  codex:\n    version: '0.120'\n"
        "    hooks: {Stop: [{hooks: [{command: 'true'}]}]}\n"
    )
    with pytest.raises(SetupError, match=r"s.yaml: hosts.codex.version: hooksim models Codex CLI"):
        run_scenario(load_scenario(path), tool="codex")


def test_claude_code_exec_form_and_shell_field() -> None:
    """args runs the command with those arguments without a shell; a plain command, and one
    whose shell is bash, run with /bin/sh off Windows (real 2.1.332 passes spawn shell: true)."""
    host = HOSTS["claude-code"]
    block = {
        "Stop": [
            {
                "hooks": [
                    {"type": "command", "command": "/usr/bin/env", "args": ["true"]},
                    {"type": "command", "command": "echo $0", "shell": "bash"},
                    {"type": "command", "command": "echo plain"},
                ]
            }
        ]
    }
    specs, warnings = host.parse_hooks(block)
    assert warnings == []
    assert [host.argv_for(s, {}) for s in specs] == [
        ["/usr/bin/env", "true"],
        ["/bin/sh", "-c", "echo $0"],
        ["/bin/sh", "-c", "echo plain"],
    ]


def test_claude_code_if_condition_needs_its_tool() -> None:
    """A tool hook's if condition selects only calls of its tool; elsewhere it is a warning."""
    host = HOSTS["claude-code"]
    block = {
        "PreToolUse": [{"hooks": [{"type": "command", "command": "x", "if": "Bash(git *)"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "y", "if": "Bash(git *)"}]}],
    }
    specs, warnings = host.parse_hooks(block)
    assert warnings == ["hooks.Stop: an if condition applies to tool events only; ignored"]

    def call(tool: str, **tool_input: str) -> dict[str, object]:
        return {"cwd": "/p", "tool_name": tool, "tool_input": tool_input}

    assert host.selects(specs[0], "Bash", call("Bash", command="cd x && git status"))
    assert not host.selects(specs[0], "Bash", call("Bash", command="gitk"))
    assert not host.selects(specs[0], "Read", call("Read", file_path="/p/git"))


def test_claude_code_if_conditions_it_cannot_judge_are_named() -> None:
    """A condition Claude Code cannot parse, or whose pattern hooksim does not model, is a warning."""
    host = HOSTS["claude-code"]
    block = {
        "PreToolUse": [
            {
                "hooks": [
                    {"type": "command", "command": "a", "if": "Bash(git *) "},
                    {"type": "command", "command": "b", "if": "Agent(reviewer)"},
                    {"type": "command", "command": "c", "if": "Read(~/notes/**)"},
                    {"type": "command", "command": "d", "if": "WebFetch(domain:example.com)"},
                ]
            }
        ],
    }
    specs, warnings = host.parse_hooks(block)
    assert warnings == [
        "hooks.PreToolUse: if 'Bash(git *) ' is not a permission rule (Tool or Tool(pattern));"
        " Claude Code never runs this hook",
        "hooks.PreToolUse: if 'Agent(reviewer)': hooksim does not model Agent patterns; the hook"
        " runs for every Agent call",
        "hooks.PreToolUse: if 'Read(~/notes/**)': hooksim does not model Read patterns; the hook"
        " runs for every Read call",
    ]
    fetch = {"cwd": "/p", "tool_name": "WebFetch"}
    assert host.selects(
        specs[3], "WebFetch", {**fetch, "tool_input": {"url": "https://example.com/a"}}
    )
    assert not host.selects(
        specs[3], "WebFetch", {**fetch, "tool_input": {"url": "https://evil.test/"}}
    )
    assert not host.selects(
        specs[0],
        "Bash",
        {"cwd": "/p", "tool_name": "Bash", "tool_input": {"command": "git status"}},
    )


# What each profile must cite, whatever else it states.
CORE_TOPICS = {"spawn", "parallel", "matcher", "default_timeout_s", "exit codes", "config_files"}


@pytest.mark.parametrize("tool", sorted(HOSTS))
def test_every_fact_is_cited_or_unverified(tool: str) -> None:
    """Each fact has a source (code at a commit, docs, changelog, a real run) or says unverified."""
    host = HOSTS[tool]
    assert {f.topic for f in host.facts} >= CORE_TOPICS
    for f in host.facts:
        assert f.sources or f.unverified, f"{tool}: {f.topic} has no source"
        for source in f.sources:
            assert source.kind in ("code", "release", "docs", "changelog", "observed")
            if source.kind == "release":  # a released package's file, at a line (or a byte)
                assert re.fullmatch(r"[\w.@/-]+==[\w.-]+ \S+(#L|@)\d+", source.where), source
            if source.kind in ("code", "changelog"):
                repo, rest = source.where.split("@", 1)
                assert "/" in repo
                assert len(rest.split(" ", 1)[0]) == 12, source
                assert "#" in rest, source  # a line or a function


def test_hosts_sources_prints_each_fact_with_its_citation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--sources lists every fact, its sources indented under it, and flags the unverified."""
    assert main(["hosts", "--sources", "--tool", "gemini-cli"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Gemini CLI (gemini-cli): v0.61.0")
    assert "  - not_awaited: PreCompress and SessionEnd are awaited" in out
    assert "      code: google-gemini/gemini-cli@5411f113cafa packages/core/src/context/" in out
    assert main(["hosts", "--sources"]) == 0
    out = capsys.readouterr().out
    for host in HOSTS.values():
        assert f"{host.title} ({host.name})" in out
        for f in host.unverified():
            assert f"- {f.topic}: {f.text} [unverified]" in out


def test_validate_and_the_timeline_name_the_trust_gate_and_unverified_facts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hosts that skip untrusted hooks say so in validate; the timeline adds unverified facts."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: x\ntool: cursor\nhooks: {stop: [{command: 'true'}]}\n"
        "turns:\n  - {user: hi, assistant: hello}\n"
    )
    assert main(["validate", str(path), str(path)]) == 0
    err = capsys.readouterr().err
    assert err.count("note: cursor: project hooks (.cursor/hooks.json) run only in a trusted") == 1
    assert err.rstrip().endswith("untrusted, it skips them (2 files)")
    assert main(["validate", "-v", str(path)]) == 0
    err = capsys.readouterr().err
    assert f"{path}: note: cursor: project hooks (.cursor/hooks.json) run only in a trusted" in err
    result = run_scenario(load_scenario(path))
    assert result.notes[0].startswith("trust: project hooks")
    assert "unverified: parallel: whether hooks of one event run in parallel" in "\n".join(
        result.notes
    )


def test_launch_exec_only_where_the_host_has_it(tmp_path: Path, capsys: Any) -> None:
    """hosts.<host>.launch: exec replays codex exec; a host without it is refused by file and key."""
    turns = "turns: [{user: hi, assistant: ho}]\n"
    codex = tmp_path / "codex.yaml"
    codex.write_text(
        "name: exec\ntool: codex\nhosts: {codex: {launch: exec}}\n"
        "hooks: {Stop: [{hooks: [{type: command, command: 'true'}]}]}\n" + turns
    )
    result = run_scenario(load_scenario(codex))
    assert [f.event for f in result.firings] == [
        "SessionStart",
        "UserPromptSubmit",
        "Stop",
        "SessionEnd",
    ]
    claude = tmp_path / "claude.yaml"
    claude.write_text(
        "name: exec\ntool: claude-code\nhosts: {claude-code: {launch: exec}}\n"
        "hooks: {Stop: [{hooks: [{type: command, command: 'true'}]}]}\n" + turns
    )
    assert main(["run", str(claude)]) != 0
    out = capsys.readouterr()
    assert f"{claude}: hosts.claude-code.launch: 'exec': Claude Code runs interactive or print" in (
        out.out + out.err
    )


def test_gemini_substitutes_quoted_from_0_23() -> None:
    """Gemini CLI puts the project directory into the command string quoted from v0.23.0 (shell-quote's way), raw before."""
    gemini = HOSTS["gemini-cli"]
    env = {"GEMINI_PROJECT_DIR": "/w/my project", "GEMINI_SESSION_ID": "s:1"}
    command = "ls $GEMINI_PROJECT_DIR; echo $GEMINI_SESSION_ID"
    assert gemini.argv(command, env) == ["bash", "-c", "ls '/w/my project'; echo s\\:1"]
    old = gemini.at_version("0.22.0")
    assert old.argv(command, env) == ["bash", "-c", "ls /w/my project; echo $GEMINI_SESSION_ID"]
