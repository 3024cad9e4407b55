"""The transcript each host writes, as a hook finds it when it fires: at the path the payload
names, in the host's own format, holding what the real host has written by then (real runs:
tests/real/test_transcripts.py)."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hooksim.judge.verdict import run_one
from hooksim.replay.runner import run_scenario
from hooksim.replay.transcript import WRITERS
from hooksim.scenario import load_scenario

ROOT = Path(__file__).parents[2]
COPIER = Path(__file__).with_name("transcript_copier.py")
COPY = json.dumps(f"{shlex.quote(sys.executable)} {shlex.quote(str(COPIER))}")
COPY_AND_BLOCK = json.dumps(
    f"{shlex.quote(sys.executable)} {shlex.quote(str(COPIER))} --block-once"
)


def copies(tmp_path: Path, text: str) -> list[dict[str, Any]]:
    """Run a scenario; what the copying hook kept at each firing, in order."""
    path = tmp_path / "s.yaml"
    path.write_text("name: t\n" + textwrap.dedent(text))
    result = run_scenario(load_scenario(path), keep_workdir=True, workdir_root=tmp_path)
    assert result.workdir is not None
    kept = sorted((result.workdir / "home" / "copies").iterdir())
    return [json.loads(p.read_text()) for p in kept]


def kinds(fmt: str, copy: dict[str, Any]) -> list[str] | None:
    """The kinds of the records a hook found (None: no file)."""
    records = copy["records"]
    return None if records is None else [WRITERS[fmt].kind_of(r) for r in records]


def test_claude_code_writes_its_session_jsonl_as_the_real_one_does(tmp_path: Path) -> None:
    """No file until the first message; the prompt after UserPromptSubmit, the call before
    PreToolUse, its result after PostToolUse, a blocked Stop's feedback and its hooks' summary
    before the next answer."""
    hook = f"[{{hooks: [{{type: command, command: {COPY}}}]}}]"
    kept = copies(
        tmp_path,
        f"""\
        tool: claude-code
        hooks:
          SessionStart: {hook}
          UserPromptSubmit: {hook}
          PreToolUse: {hook}
          PostToolUse: {hook}
          Stop: [{{hooks: [{{type: command, command: {COPY_AND_BLOCK}}}]}}]
        turns:
          - user: list the files
            tools: [{{name: Bash, args: {{command: ls}}, result: a.txt}}]
            assistant: [working, done]
          - {{user: again, assistant: again done}}
        """,
    )
    seen = {f"{i}:{c['event']}": kinds("claude-code-jsonl", c) for i, c in enumerate(kept)}
    first = ["queue-operation", "queue-operation", "user", "assistant"]
    ran = [*first, "user", "assistant"]
    blocked = [*ran, "user", "attachment/hook_blocking_error", "system/stop_hook_summary"]
    assert seen == {
        "0:SessionStart": None,
        "1:UserPromptSubmit": None,
        "2:PreToolUse": first,
        "3:PostToolUse": first,
        "4:Stop": ran,
        "5:Stop": [*blocked, "assistant"],
        "6:UserPromptSubmit": [
            *blocked,
            "assistant",
            "system/stop_hook_summary",
            "queue-operation",
            "queue-operation",
        ],
        "7:Stop": [
            *blocked,
            "assistant",
            "system/stop_hook_summary",
            "queue-operation",
            "queue-operation",
            "user",
            "assistant",
        ],
    }
    path = Path(kept[0]["path"])
    assert path.parent.name == re.sub(r"[^A-Za-z0-9]", "-", str(path.parents[4] / "project"))
    assert path.name == "session-1.jsonl"
    stop = kept[5]["records"]
    assert stop[6]["message"]["content"] == "Stop hook feedback:\none more time"
    assert stop[-1]["message"]["content"] == [{"type": "text", "text": "done"}]
    assert [r.get("parentUuid") for r in stop[3:]] == [r.get("uuid") for r in stop[2:-1]]


def test_claude_code_compaction_and_clear_are_in_the_transcript(tmp_path: Path) -> None:
    """A compaction's boundary and summary follow its hooks; /clear starts a file of its own."""
    hook = f"[{{hooks: [{{type: command, command: {COPY}}}]}}]"
    kept = copies(
        tmp_path,
        f"""\
        tool: claude-code
        hooks: {{PostCompact: {hook}, UserPromptSubmit: {hook}, Stop: {hook}}}
        turns:
          - {{user: one, assistant: first}}
          - {{compact: manual}}
          - {{user: two, assistant: second}}
          - {{new_session: fresh}}
          - {{user: three, assistant: third}}
        """,
    )
    events = [(c["event"], kinds("claude-code-jsonl", c)) for c in kept]
    compacted = events[2][1]
    assert events[2][0] == "PostCompact"
    assert compacted is not None
    assert "system/compact_boundary" not in compacted
    after = events[3][1]
    assert after is not None
    assert after[-7:] == [
        "system/compact_boundary",
        "user",
        "user",
        "user",
        "user",
        "queue-operation",
        "queue-operation",
    ]
    assert kept[3]["records"][-6]["isCompactSummary"] is True
    assert Path(kept[-1]["path"]).name == "fresh.jsonl"
    assert kinds("claude-code-jsonl", kept[-1]) == [
        "queue-operation",
        "queue-operation",
        "user",
        "assistant",
    ]


def test_codex_writes_its_rollout_as_the_real_one_does(tmp_path: Path) -> None:
    """The session's first lines before SessionStart, the prompt after UserPromptSubmit (its
    context after it), a command's completion before PostToolUse, its output after, a blocked
    Stop's hook prompt, the turn's completion after the last Stop."""
    hook = f"[{{hooks: [{{type: command, command: {COPY}}}]}}]"
    context = json.dumps(json.dumps({"hookSpecificOutput": {"additionalContext": "remember"}}))
    kept = copies(
        tmp_path,
        f"""\
        tool: codex
        hosts: {{codex: {{launch: exec}}}}
        hooks:
          SessionStart: {hook}
          UserPromptSubmit: [{{hooks: [{{type: command, command: {COPY}}},
                                        {{type: command, command: 'echo {context}'}}]}}]
          PreToolUse: {hook}
          PostToolUse: {hook}
          SessionEnd: {hook}
          Stop: [{{hooks: [{{type: command, command: {COPY_AND_BLOCK}}}]}}]
        turns:
          - user: list
            tools: [{{name: Bash, args: {{command: ls}}, result: a.txt}}]
            assistant: [working, done]
        """,
    )
    seen = [(c["event"], kinds("codex-rollout", c)) for c in kept]
    start = [
        "session_meta",
        "event_msg/task_started",
        "response_item/message/developer",
        "response_item/message/user/environment",
        "turn_context",
        "event_msg/thread_settings_applied",
    ]
    assert seen[0] == ("SessionStart", start)
    assert seen[1] == ("UserPromptSubmit", start)
    prompt = [
        *start,
        "response_item/message/user",
        "event_msg/item_completed/UserMessage",
        "response_item/message/developer/hook-context",
        "response_item/function_call",
        "token_usage_record",
    ]
    assert seen[2] == ("PreToolUse", prompt)
    assert seen[3] == ("PostToolUse", [*prompt, "event_msg/item_completed/CommandExecution"])
    stop = seen[4][1]
    assert stop is not None
    assert stop[-6:] == [
        "response_item/function_call_output",
        "event_msg/token_count",
        "event_msg/item_completed/AgentMessage",
        "response_item/message/assistant",
        "token_usage_record",
        "event_msg/token_count",
    ]
    again = seen[5][1]
    assert again is not None
    assert again[len(stop) : len(stop) + 2] == [
        "response_item/message/user",
        "event_msg/item_completed/HookPrompt",
    ]
    assert seen[6][0] == "SessionEnd"
    assert seen[6][1] == [*again, "event_msg/task_complete"]
    hook_prompt = kept[5]["records"][len(stop)]["payload"]["content"][0]["text"]
    assert hook_prompt.startswith('<hook_prompt hook_run_id="stop:')
    assert "one more time" in hook_prompt
    assert Path(kept[0]["path"]).name == "rollout-2026-06-01T09-00-00-session-1.jsonl"


def test_gemini_cli_writes_its_chat_file_as_the_real_one_does(tmp_path: Path) -> None:
    """A prompt, a tool's response and a retry's prompt go in when their request goes out
    (after PreCompress); a headless run that resumes names a file of its own in SessionStart
    and then writes on in the session's."""
    hook = f"[{{hooks: [{{type: command, command: {COPY}}}]}}]"
    kept = copies(
        tmp_path,
        f"""\
        tool: gemini-cli
        hosts: {{gemini-cli: {{launch: headless}}}}
        hooks:
          SessionStart: {hook}
          BeforeAgent: {hook}
          PreCompress: {hook}
          BeforeModel: {hook}
          BeforeTool: {hook}
          AfterAgent: [{{hooks: [{{type: command, command: {COPY_AND_BLOCK}}}]}}]
        turns:
          - user: list
            tools: [{{name: run_shell_command, args: {{command: ls}}, result: a.txt}}]
            assistant: [working, done]
          - {{after: 2m, user: again, assistant: again done}}
        """,
    )
    seen = [(c["event"], kinds("gemini-chat-jsonl", c)) for c in kept]
    head = ["metadata", "$set/lastUpdated,messages"]
    assert seen[:4] == [
        ("SessionStart", head),
        ("BeforeAgent", head),
        ("PreCompress", head),
        ("BeforeModel", [*head, "user", "$set/lastUpdated"]),
    ]
    called = [*head, "user", "$set/lastUpdated", "gemini", "$set/lastUpdated"]
    assert seen[4] == ("BeforeTool", called)
    assert seen[5] == ("PreCompress", [*called, "gemini/toolCalls"])
    resumed = next(c for c in kept[1:] if c["event"] == "SessionStart")
    session = Path(kept[0]["path"])
    assert session.name == "session-2026-06-01T09-00-session-.jsonl"
    assert Path(resumed["path"]).name == "session-2026-06-01T09-02-session-.jsonl"
    assert kinds("gemini-chat-jsonl", resumed) == head
    after = kept[kept.index(resumed) + 1]
    assert after["event"] == "BeforeAgent"
    assert Path(after["path"]) == session
    assert kinds("gemini-chat-jsonl", after)[-2:] == ["$set/sessionId", "$set/lastUpdated,messages"]
    retry = [c for c in kept if c["event"] == "AfterAgent"][1]["records"]
    assert [r["content"] for r in retry if r.get("type") == "user"][-1] == [
        {"text": "one more time"}
    ]


def test_hermes_session_store_fills_as_hermes_flushes_it(tmp_path: Path) -> None:
    """No transcript_path: the store at $HERMES_HOME/state.db gets the session's row before
    the first pre_llm_call, the prompt and the call before pre_tool_call, the rest of the turn
    before post_llm_call."""
    hook = f"[{{command: {COPY}}}]"
    kept = copies(
        tmp_path,
        f"""\
        tool: hermes
        hooks:
          on_session_start: {hook}
          pre_llm_call: {hook}
          pre_tool_call: {hook}
          post_tool_call: {hook}
          post_llm_call: {hook}
        turns:
          - user: list
            tools: [{{name: terminal, args: {{command: ls}}}}]
            assistant: listed
        """,
    )
    seen = [(c["event"], kinds("hermes-state-db", c)) for c in kept]
    assert seen == [
        ("on_session_start", []),
        ("pre_llm_call", ["sessions"]),
        ("pre_tool_call", ["sessions", "messages/user", "messages/assistant"]),
        ("post_tool_call", ["sessions", "messages/user", "messages/assistant"]),
        (
            "post_llm_call",
            [
                "sessions",
                "messages/user",
                "messages/assistant",
                "messages/tool",
                "messages/assistant",
            ],
        ),
    ]
    rows = kept[-1]["records"]
    assert json.loads(rows[2]["tool_calls"])[0]["function"]["name"] == "terminal"
    assert (rows[3]["tool_call_id"], rows[4]["content"]) == ("call_1", "listed")
    assert kept[0]["path"].endswith("/home/.hermes/state.db")


def test_cursor_transcript_is_what_its_readers_expect(tmp_path: Path) -> None:
    """Unverified: one line per message, the user's text in <user_query> tags."""
    kept = copies(
        tmp_path,
        f"""\
        tool: cursor
        hooks: {{stop: [{{command: {COPY}}}]}}
        turns:
          - {{user: hello, assistant: hi}}
        """,
    )
    assert kept[0]["records"] == [
        {
            "role": "user",
            "message": {
                "content": [{"type": "text", "text": "<user_query>\nhello\n</user_query>"}]
            },
        },
        {"role": "assistant", "message": {"content": [{"type": "text", "text": "hi"}]}},
    ]
    assert "/.cursor/projects/" in kept[0]["path"]


def test_the_shipped_transcript_loop_passes_on_every_host_it_names() -> None:
    """The Stop loop that reads the transcript ends on the promise of its second continuation,
    on Claude Code, Codex CLI and Gemini CLI (hooksim run, as a user runs it)."""
    done = subprocess.run(
        [sys.executable, "-m", "hooksim", "run", "scenarios/across/transcript-loop.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].startswith("3 passed, 0 failed")


@pytest.mark.parametrize("tool", ["claude-code", "codex", "gemini-cli", "cursor"])
def test_a_replay_writes_the_same_transcript_every_time(tmp_path: Path, tool: str) -> None:
    """Ids and times come from the session and the virtual clock: two replays write the same
    records (but for the run's own folder)."""
    hook = (
        f"[{{command: {COPY}}}]"
        if tool == "cursor"
        else (f"[{{hooks: [{{type: command, command: {COPY}}}]}}]")
    )
    event = {"cursor": "stop", "gemini-cli": "AfterAgent"}
    text = f"""\
        tool: {tool}
        hooks: {{{event.get(tool, "Stop")}: {hook}}}
        turns:
          - {{user: hello, assistant: hi}}
        """
    runs = []
    for n in (1, 2):
        (tmp_path / str(n)).mkdir()
        kept = copies(tmp_path / str(n), text)
        text_of_run = re.sub(r"[^\"\s]*hooksim-[a-z0-9_-]{8}", "RUN", json.dumps(kept))
        runs.append(re.sub(r"[0-9a-f]{64}", "HASH", text_of_run))  # of the project's path
    assert runs[0] == runs[1]


def test_a_headless_resume_names_a_chat_file_by_its_own_minute(tmp_path: Path) -> None:
    """Gemini CLI headless, ``--resume latest`` two minutes on: the resumed run's SessionStart
    names a chat file by the minute of the resume (one that need not exist), its later events
    the first run's file (real 0.61.0)."""
    scenario = tmp_path / "resume.yaml"
    scenario.write_text(
        "name: resume across a minute\ntool: gemini-cli\n"
        "hosts: {gemini-cli: {launch: headless}}\nhooks:\n"
        "  SessionStart: [{hooks: [{type: command, command: \"grep -o 'chats/session-[^\\\"]*'"
        ' >> starts.txt"}]}]\n'
        "  BeforeAgent: [{hooks: [{type: command, command: \"grep -o 'chats/session-[^\\\"]*'"
        ' >> prompts.txt"}]}]\n'
        "turns:\n  - {user: first, assistant: one}\n  - {after: 2m, user: second, assistant: two}\n"
        "expect:\n  files:\n"
        '    starts.txt: {equals: "chats/session-2026-06-01T09-00-session-.jsonl\\n'
        'chats/session-2026-06-01T09-02-session-.jsonl\\n"}\n'
        '    prompts.txt: {equals: "chats/session-2026-06-01T09-00-session-.jsonl\\n'
        'chats/session-2026-06-01T09-00-session-.jsonl\\n"}\n'
    )
    outcome = run_one(scenario)
    assert [o.failures for o in outcome] == [[]], outcome[0].failures
