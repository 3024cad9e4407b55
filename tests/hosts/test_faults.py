"""How each host counts a finished hook that went wrong (``Verdict.fault``), which the built-in
checks judge: ``failed`` (a crash, an exit the host does not read as a decision), ``refused``
(output it refuses), ``ignored`` (output nothing reads), ``timed_out``; None for a hook that did
what it meant."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hooksim.hosts import HookRun, get_host
from hooksim.hosts.records import fault_of


def _run(
    event: str, stdout: str = "", stderr: str = "", code: int | None = 0, **payload: Any
) -> HookRun:
    stdin = json.dumps({"hook_event_name": event, **payload}).encode()
    return HookRun(
        1,
        event,
        "hook",
        0,
        exit_code=code,
        stdout=stdout,
        stderr=stderr,
        duration_s=0.1,
        stdin=stdin,
    )


def _fault(tool: str, run: HookRun) -> str | None:
    return fault_of(run, get_host(tool).read(run.event, run))


def _json(value: Any) -> str:
    return json.dumps(value)


CLAUDE_CODE = [
    (
        "a deny",
        _run(
            "PreToolUse",
            _json(
                {
                    "hookSpecificOutput": {
                        "hookEventName": "PreToolUse",
                        "permissionDecision": "deny",
                        "permissionDecisionReason": "no",
                    }
                }
            ),
            tool_name="Bash",
        ),
        None,
    ),
    ("exit 2 with a reason", _run("Stop", stderr="keep going", code=2), None),
    (
        "a crash",
        _run("PreToolUse", stderr="Traceback (most recent call last):\nKeyError: 'x'", code=1),
        "failed",
    ),
    (
        "a traceback after exit 0",
        _run("UserPromptSubmit", stderr="Traceback (most recent call last):\nValueError"),
        "failed",
    ),
    (
        "a python that could not open its script",
        _run("Stop", stderr="python3: can't open file '/x/y.py': [Errno 2] No such file", code=2),
        "failed",
    ),
    ("brace text that does not parse", _run("Stop", "{decision: 'block'}"), "refused"),
    ("a key of the wrong type", _run("UserPromptSubmit", _json({"continue": "no"})), "refused"),
    (
        "a hookSpecificOutput of another event",
        _run(
            "UserPromptSubmit",
            _json(
                {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "x"}}
            ),
        ),
        "refused",
    ),
    (
        "permissionDecision at the top level",
        _run("PreToolUse", _json({"permissionDecision": "deny", "reason": "no"})),
        "refused",
    ),
    ("a misspelt key", _run("Stop", _json({"decison": "block", "reason": "x"})), "refused"),
    ("a key of the hook's own", _run("Stop", _json({"ok": True})), None),
    ("plain text on Stop (kept in the transcript)", _run("Stop", "done"), None),
    ("plain text on UserPromptSubmit", _run("UserPromptSubmit", "context"), None),
    ("plain text on PreCompact", _run("PreCompact", "keep names", trigger="manual"), None),
    (
        "plain text on an automatic compaction's PostCompact (kept in the transcript)",
        _run("PostCompact", "noted", trigger="auto"),
        None,
    ),
    (
        "plain text on a manual compaction's PostCompact",
        _run("PostCompact", "noted", trigger="manual"),
        None,
    ),
    (
        "a block PostCompact cannot take",
        _run("PostCompact", _json({"decision": "block"})),
        "refused",
    ),
]


@pytest.mark.parametrize(("case", "run", "fault"), CLAUDE_CODE, ids=[c[0] for c in CLAUDE_CODE])
def test_claude_code(case: str, run: HookRun, fault: str | None) -> None:
    assert _fault("claude-code", run) == fault


OTHERS = [
    ("codex", "a list on stdout", _run("UserPromptSubmit", "[1]"), "refused"),
    ("codex", "exit 2 without stderr", _run("UserPromptSubmit", code=2), "refused"),
    ("codex", "exit 1", _run("PreToolUse", code=1, tool_name="Bash"), "failed"),
    ("gemini-cli", "a silent exit 1", _run("BeforeTool", code=1), "failed"),
    ("gemini-cli", "a warning on exit 1", _run("BeforeTool", stderr="careful", code=1), "failed"),
    (
        "gemini-cli",
        "a deny on an event that cannot deny",
        _run("BeforeToolSelection", _json({"decision": "deny"})),
        "refused",
    ),
    ("gemini-cli", "a deny by exit 2", _run("BeforeTool", stderr="no", code=2), None),
    ("cursor", "exit 1", _run("beforeSubmitPrompt", code=1), "failed"),
    ("cursor", "stdout that is not JSON", _run("beforeSubmitPrompt", "nope"), "refused"),
    ("cursor", "exit 2 where nothing can be denied", _run("preCompact", code=2), "refused"),
    ("cursor", "preCompact output", _run("preCompact", _json({"continue": False})), "ignored"),
    ("hermes", "a non-zero exit", _run("pre_tool_call", code=3), "failed"),
    ("hermes", "plain text Hermes ignores", _run("post_llm_call", "hello"), "refused"),
    (
        "hermes",
        "a context key on an event that reads none",
        _run("post_llm_call", _json({"context": "x"})),
        "refused",
    ),
    ("hermes", "a JSON of the hook's own", _run("post_llm_call", _json({"ok": True})), None),
    (
        "hermes",
        "a block",
        _run("pre_tool_call", _json({"decision": "block", "reason": "no"})),
        None,
    ),
]


@pytest.mark.parametrize(
    ("tool", "case", "run", "fault"), OTHERS, ids=[f"{c[0]}: {c[1]}" for c in OTHERS]
)
def test_the_shell_hosts(tool: str, case: str, run: HookRun, fault: str | None) -> None:
    assert _fault(tool, run) == fault


def test_a_timeout_and_a_spawn_error_on_every_host() -> None:
    for tool in ("claude-code", "codex", "gemini-cli", "cursor", "hermes"):
        killed = _run("Stop", code=None)
        killed.timed_out = True
        assert _fault(tool, killed) == "timed_out", tool
        missing = _run("Stop", code=None)
        missing.spawn_error = "command not found"
        assert _fault(tool, missing) == "failed", tool


@pytest.mark.parametrize(
    ("record", "fault", "note"),
    [
        (
            {"status": "returned", "value": {"block": True, "blockReason": "no"}},
            None,
            "block; reason 'no'",
        ),
        (
            {"status": "returned", "value": {"blocked": True, "reason": "no"}},
            "refused",
            "nothing it acts on (unknown keys: blocked, reason; did you mean block, blockReason?)",
        ),
        (
            {"status": "returned", "value": {"block": True, "why": "no"}},
            "refused",
            "block; unknown keys: why",
        ),
        (
            {"status": "returned", "value": 3},
            "refused",
            "returned 3: not an object, nothing to merge",
        ),
        ({"status": "threw", "error": "boom"}, "failed", None),
    ],
)
def test_openclaw_handlers(record: dict[str, Any], fault: str | None, note: str | None) -> None:
    verdict = get_host("openclaw").read_handler("before_tool_call", record)
    assert verdict.fault == fault
    if note is not None:
        assert verdict.note == note
