"""A failing mind is seen: each failed call is a line of <hermes home>/logs/hermes-hooks.log.

Real hook processes, Hermes' bytes, the recording stub bridge. The hook still exits 0 with
nothing on stdout whatever the log can or cannot do.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from hermes_hooks.call_log import MAX_DETAIL, MAX_LOG_BYTES, CallLog, call_log_path, rotate
from tests.conftest import StubBridge
from tests.hooks.test_process import run_hook
from tests.payloads import hermes_payload, prompt_payload, session_start_payload, stop_payload

STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"


@pytest.fixture
def env(stub_bridge: StubBridge, tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    return {**os.environ, "HOME": str(home), "HERMES_HOME": str(home / ".hermes")}


def log_lines(env: dict[str, str]) -> list[str]:
    path = Path(call_log_path(env["HERMES_HOME"]))
    return path.read_text().splitlines() if path.exists() else []


def test_a_failed_call_is_one_line_of_the_log(stub_bridge: StubBridge, env: dict[str, str]) -> None:
    """Exit 3 with a message: the hook exits 0, and the log names time, event, tool and why."""
    stub_bridge.behave("save_memory", "exit3")
    env.update(stub_bridge.env)
    result = run_hook("stop", stop_payload("It is 42."), env)
    assert (result.returncode, result.stdout) == (0, b"")
    [line] = log_lines(env)
    assert re.fullmatch(
        STAMP + r" post_llm_call save_memory failed: .*stub_bridge\.py call save_memory exited 3",
        line,
    ), line
    assert stat_mode(call_log_path(env["HERMES_HOME"])) == 0o600
    assert stat_mode(os.path.dirname(call_log_path(env["HERMES_HOME"]))) == 0o700


def stat_mode(path: str) -> int:
    return os.stat(path).st_mode & 0o777


def test_a_hung_mind_is_logged_as_killed(stub_bridge: StubBridge, env: dict[str, str]) -> None:
    """A call past WAGGLE_BRIDGE_TIMEOUT_S is killed and logged with the budget it had."""
    stub_bridge.behave("start_session", "hang")
    env.update(stub_bridge.env)
    env["WAGGLE_BRIDGE_TIMEOUT_S"] = "0.5"
    result = run_hook("session-start", session_start_payload(), env)
    assert result.returncode == 0
    [line] = log_lines(env)
    assert line.endswith("call start_session timed out after 0.5s; killed"), line
    assert " on_session_start start_session failed: " in line


def test_success_after_failures_says_so_once(stub_bridge: StubBridge, env: dict[str, str]) -> None:
    """Failures, then a success: one ok line; later successes write nothing more."""
    stub_bridge.behave("save_memory", "fail", "fail", "ok")
    env.update(stub_bridge.env)
    for _ in range(4):
        run_hook("user-prompt-submit", prompt_payload(), env)
    lines = log_lines(env)
    assert [line.split(" ", 4)[1:4] for line in lines] == [
        ["pre_llm_call", "save_memory", "failed:"],
        ["pre_llm_call", "save_memory", "failed:"],
        ["pre_llm_call", "save_memory", "ok:"],
    ]
    assert lines[-1].endswith("ok: calls succeed again")


def test_a_healthy_mind_writes_no_log(stub_bridge: StubBridge, env: dict[str, str]) -> None:
    run_hook("user-prompt-submit", prompt_payload(), env)
    assert stub_bridge.tools() == ["save_memory"]
    assert not Path(env["HERMES_HOME"]).exists()


def test_a_failed_compaction_is_logged_too(stub_bridge: StubBridge, env: dict[str, str]) -> None:
    """The gate swallows its own failure (best effort); the log still has it."""
    env["WAGGLE_HERMES_COMPACT_ON_STOP"] = "1"
    stub_bridge.behave("cleanup_frames", "exit2")
    env.update(stub_bridge.env)
    result = run_hook("stop", stop_payload(), env)
    assert result.returncode == 0
    [line] = log_lines(env)
    assert " post_llm_call cleanup_frames failed: " in line


def test_an_unusable_mind_command_is_logged(env: dict[str, str]) -> None:
    """A WAGGLE_MIND_CMD that cannot be parsed fails every call: logged, with no tool."""
    env["WAGGLE_MIND_CMD"] = "'unbalanced"
    run_hook("stop", stop_payload(), env)
    [line] = log_lines(env)
    assert re.fullmatch(
        STAMP + r" post_llm_call - failed: WAGGLE_MIND_CMD cannot be parsed .*", line
    )


def test_the_log_is_bounded_and_rotated(tmp_path: Path) -> None:
    """Past MAX_LOG_BYTES the log becomes hermes-hooks.log.1 and a new one starts; a line's
    reason is cut at MAX_DETAIL characters."""
    path = str(tmp_path / "logs" / "hermes-hooks.log")
    log = CallLog(path, "post_llm_call")
    message = "x" * 10_000
    lines = MAX_LOG_BYTES // MAX_DETAIL + 10
    for _ in range(lines):
        log.failed("save_memory", message)
    assert os.path.getsize(path + ".1") > MAX_LOG_BYTES
    assert 0 < os.path.getsize(path) < MAX_LOG_BYTES
    assert all(len(line) < MAX_DETAIL + 80 for line in Path(path).read_text().splitlines())
    for _ in range(lines):
        log.failed("save_memory", message)
    names = sorted(os.listdir(tmp_path / "logs"))
    assert names == ["hermes-hooks.log", "hermes-hooks.log.1", "hermes-hooks.log.lock"]


def test_two_hooks_that_both_filled_the_log_rotate_it_once(tmp_path: Path) -> None:
    """A hook that finds the log already rotated by another (a small file there now) leaves
    it alone: the history in .1 is never replaced by a fresh one-line log."""
    path = tmp_path / "logs" / "hermes-hooks.log"
    first, second = CallLog(str(path), "pre_llm_call"), CallLog(str(path), "post_llm_call")
    while not (path.parent / "hermes-hooks.log.1").exists():
        first.failed("save_memory", "y" * 400)
    history = (path.parent / "hermes-hooks.log.1").read_text()
    second.failed("save_memory", "after")  # a fresh log: no rotation
    rotate(str(path))  # as a hook that had seen the full log before the first one rotated it
    assert (path.parent / "hermes-hooks.log.1").read_text() == history
    assert path.read_text().endswith("save_memory failed: after\n")


def test_a_fifo_at_the_log_path_never_blocks_the_hook(
    stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """Something other than a regular file where the log goes: skipped, the hook goes on."""
    path = Path(call_log_path(env["HERMES_HOME"]))
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    stub_bridge.behave("save_memory", "fail")
    env.update(stub_bridge.env)
    result = run_hook("user-prompt-submit", prompt_payload(), env, timeout=20)
    assert (result.returncode, result.stdout) == (0, b"")
    assert b"save_memory exited 1" in result.stderr


def test_a_multi_line_message_stays_one_line(tmp_path: Path) -> None:
    path = tmp_path / "hermes-hooks.log"
    CallLog(str(path), "pre_llm_call").failed("save_memory", "first\nsecond\r\nthird")
    assert path.read_text().endswith(" pre_llm_call save_memory failed: first second third\n")


# Hermes' own `hermes hooks test EVENT` / `hermes hooks doctor` payloads (hermes-agent 0.19.0,
# hermes_cli/hooks.py _DEFAULT_PAYLOADS, serialized by agent/shell_hooks._serialize_payload),
# byte for byte as a run of that release gives them.
HERMES_TEST_FIRES = {
    "session-start": b'{"hook_event_name": "on_session_start", "tool_name": null, "tool_input": null, "session_id": "test-session", "cwd": "/tmp", "extra": {}}',
    "user-prompt-submit": b'{"hook_event_name": "pre_llm_call", "tool_name": null, "tool_input": null, "session_id": "test-session", "cwd": "/tmp", "extra": {"user_message": "What is the weather?", "conversation_history": [], "is_first_turn": true, "model": "gpt-4", "platform": "cli"}}',
    "stop": b'{"hook_event_name": "post_llm_call", "tool_name": null, "tool_input": null, "session_id": "test-session", "cwd": "/tmp", "extra": {"model": "gpt-4", "platform": "cli"}}',
}


@pytest.mark.parametrize("subcommand", sorted(HERMES_TEST_FIRES))
def test_hermes_own_test_fires_reach_no_mind(
    subcommand: str, stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """`hermes hooks test` and `doctor` payloads: no call, one line saying why, exit 0."""
    env["WAGGLE_HERMES_COMPACT_ON_STOP"] = "1"
    result = run_hook(subcommand, HERMES_TEST_FIRES[subcommand], env)
    assert (result.returncode, result.stdout) == (0, b"")
    assert result.stderr.decode() == (
        f"hermes-hooks {subcommand}: Hermes' test payload (session test-session); "
        "nothing sent to the mind\n"
    )
    assert stub_bridge.calls() == []


def test_a_real_fire_of_a_session_named_test_session_is_captured(
    stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """A real fire carries telemetry_schema_version: the session's name alone skips nothing."""
    payload = json.loads(hermes_payload("pre_llm_call", session_id="test-session"))
    payload["extra"].update(user_message="hi", telemetry_schema_version="hermes.observer.v1")
    run_hook("user-prompt-submit", json.dumps(payload).encode(), env)
    assert stub_bridge.tools() == ["save_memory"]


@pytest.mark.parametrize(
    "written",
    ["~/bin/mind call-me", "$HOME/bin/mind call-me", "${HOME}/bin/mind call-me"],
)
def test_home_in_the_mind_command_is_expanded(
    written: str, stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """`~`, `$HOME` and `${HOME}` in WAGGLE_MIND_CMD are the hook's HOME, as Hermes and a shell read them."""
    mind = Path(env["HOME"], "bin", "mind")
    mind.parent.mkdir()
    mind.write_text(f'#!/bin/sh\nshift\nexec {stub_bridge.env["WAGGLE_MIND_CMD"]} "$@"\n')
    mind.chmod(0o755)
    env["WAGGLE_MIND_CMD"] = written
    result = run_hook("user-prompt-submit", prompt_payload(), env)
    assert (result.returncode, result.stderr) == (0, b"")
    assert stub_bridge.tools() == ["save_memory"]
