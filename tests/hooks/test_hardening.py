"""The hook in a hostile environment, as real processes: kills, odd payloads, odd files."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import STUB_BRIDGE, StubBridge
from tests.hooks.test_process import hook_argv, run_hook
from tests.payloads import prompt_payload, stop_payload
from tests.processes import alive, dead_pid


@pytest.fixture
def env(stub_bridge: StubBridge, tmp_path: Path) -> dict[str, str]:
    """The environment Hermes would pass: inherited, with a temporary HOME and HERMES_HOME."""
    home = tmp_path / "home"
    home.mkdir()
    return {**os.environ, "HOME": str(home), "HERMES_HOME": str(home / ".hermes")}


def wait_for(condition: object, what: str, deadline_s: float = 60) -> None:
    """Poll ``condition()`` until true; a generous deadline, never a race against a sleep."""
    end = time.monotonic() + deadline_s
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_killing_the_hook_kills_the_hanging_bridge_and_its_children(
    signum: int, stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """Hermes killing the hook (as it does on its own timeout) leaves no bridge process behind."""
    stub_bridge.behave("save_memory", "hang")
    env.update(stub_bridge.env, WAGGLE_BRIDGE_TIMEOUT_S="3600")
    marker = Path(str(stub_bridge.log) + ".grandchild")
    hook = subprocess.Popen(
        hook_argv("user-prompt-submit"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert hook.stdin is not None
    hook.stdin.write(prompt_payload())
    hook.stdin.close()
    wait_for(lambda: marker.exists() and marker.read_text().strip(), "the bridge to start")
    bridge_pid = int(json.loads(stub_bridge.log.read_text().splitlines()[0])["pid"])
    grandchild = int(marker.read_text())
    hook.send_signal(signum)
    hook.wait(timeout=60)
    assert hook.stdout is not None
    assert hook.stderr is not None
    out, err = hook.stdout.read(), hook.stderr.read()
    hook.stdout.close()
    hook.stderr.close()
    assert not alive(bridge_pid)
    assert not alive(grandchild)
    if signum != signal.SIGKILL:  # a signal we can see: exit 0, one line, nothing on stdout
        assert (hook.returncode, out) == (0, b"")
        assert len(err.decode().splitlines()) == 1


def test_killing_the_hooks_whole_process_group_kills_the_bridge(
    stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """A supervisor that SIGKILLs the hook's whole process group leaves no bridge behind.

    The bridge runs in a session of its own (so a timeout can kill its children), out of
    reach of the group's signal; the watcher that kills it must not be in the group either.
    """
    stub_bridge.behave("save_memory", "hang")
    env.update(stub_bridge.env, WAGGLE_BRIDGE_TIMEOUT_S="3600")
    marker = Path(str(stub_bridge.log) + ".grandchild")
    hook = subprocess.Popen(
        hook_argv("user-prompt-submit"),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,  # the hook leads a group of its own, as under a supervisor
    )
    assert hook.stdin is not None
    hook.stdin.write(prompt_payload())
    hook.stdin.close()
    wait_for(lambda: marker.exists() and marker.read_text().strip(), "the bridge to start")
    bridge_pid = int(json.loads(stub_bridge.log.read_text().splitlines()[0])["pid"])
    grandchild = int(marker.read_text())
    try:
        os.killpg(hook.pid, signal.SIGKILL)
        hook.wait(timeout=60)
        assert not alive(bridge_pid)
        assert not alive(grandchild)
    finally:
        for pid in (bridge_pid, grandchild):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_call_ends_when_the_bridge_exits_whatever_its_children_hold_open(
    stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """A bridge that leaves a child holding its stdout open: the call is its exit, not the
    timeout (the hook would otherwise wait out WAGGLE_BRIDGE_TIMEOUT_S and report a failure)."""
    stub_bridge.behave("save_memory", "daemon")
    env.update(stub_bridge.env, WAGGLE_BRIDGE_TIMEOUT_S="60")
    marker = Path(str(stub_bridge.log) + ".grandchild")
    try:
        done = run_hook("user-prompt-submit", prompt_payload(), env, timeout=120)
        assert (done.returncode, done.stdout, done.stderr.decode()) == (0, b"", "")
        assert [c["tool"] for c in stub_bridge.calls()] == ["save_memory"]
    finally:
        if marker.exists():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(marker.read_text()), signal.SIGKILL)


def test_a_huge_timeout_is_clamped_and_the_call_succeeds(
    stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """WAGGLE_BRIDGE_TIMEOUT_S=1e7 (past what poll() can wait) is clamped: the save happens."""
    from hermes_hooks.bridge import MAX_TIMEOUT_S, Bridge

    assert Bridge.from_env({"WAGGLE_BRIDGE_TIMEOUT_S": "1e308"}).timeout_s == MAX_TIMEOUT_S
    env["WAGGLE_BRIDGE_TIMEOUT_S"] = "1e7"
    result = run_hook("user-prompt-submit", prompt_payload(), env)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    assert stub_bridge.tools() == ["save_memory"]


def test_a_flooding_bridge_is_a_failed_call_not_gigabytes(
    stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """A bridge printing without end is cut at 1 MiB and killed: one line, exit 0."""
    stub_bridge.behave("save_memory", "flood")
    env.update(stub_bridge.env)
    result = run_hook("user-prompt-submit", prompt_payload(), env, timeout=120)
    assert (result.returncode, result.stdout) == (0, b"")
    assert result.stderr.decode().endswith(
        "call save_memory printed more than 1048576 bytes; killed\n"
    )


def test_a_bridge_echoing_the_prompt_does_not_put_it_in_the_log(
    stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """The failed call's line names tool and exit; an excerpt quoting our input is withheld."""
    stub_bridge.behave("save_memory", "echo")
    env.update(stub_bridge.env)
    result = run_hook("user-prompt-submit", prompt_payload("my password is hunter2"), env)
    line = result.stderr.decode()
    assert "hunter2" not in line
    assert line.endswith(
        "call save_memory exited 1: (its message quotes what we sent it; not shown)\n"
    )


def test_a_long_bridge_message_is_one_short_line(
    stub_bridge: StubBridge, env: dict[str, str], tmp_path: Path
) -> None:
    """A bridge error message of a megabyte is quoted as at most 120 characters on one line."""
    script = tmp_path / "loud.sh"
    script.write_text(
        f"#!{sys.executable}\nimport sys\nsys.stdin.read()\nsys.stderr.write('x' * 1000000)\n"
        "sys.exit(7)\n"
    )
    script.chmod(0o755)
    env["WAGGLE_MIND_CMD"] = str(script)
    result = run_hook("user-prompt-submit", prompt_payload(), env)
    line = result.stderr.decode()
    assert line.count("\n") == 1
    assert " call save_memory exited 7: " + "x" * 119 + "\u2026\n" in line


@pytest.mark.parametrize(
    ("stdin", "content"),
    [
        (
            b'{"session_id": "s1", "extra": {"user_message": "cut emoji \\ud83d here", "turn_id": "t"}}',
            "cut emoji \ufffd here",
        ),
        (
            b'{"session_id": "s1", "tool_input": '
            + b"9" * 4301
            + b', "extra": {"user_message": "hi", "turn_id": "t"}}',
            "hi",
        ),
        (
            b'{"session_id": "s1", "tool_input": '
            + b"[" * 100_000
            + b"]" * 100_000
            + b', "extra": {"user_message": "hi", "turn_id": "t", "conversation_history": '
            + b"{"
            + b'"a":{' * 5000
            + b"}" * 5000
            + b"}}}",
            "hi",
        ),
    ],
    ids=["lone-surrogate", "huge-integer", "deep-nesting"],
)
def test_every_legal_payload_is_captured(
    stdin: bytes, content: str, stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """Payloads JSON allows but Python balks at still give the save, with the fields we send."""
    result = run_hook("user-prompt-submit", stdin, env)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    (call,) = stub_bridge.calls()
    assert call["arguments"] == {
        "content": content,
        "role": "user",
        "temporary": True,
        "session_id": "s1",
        "turn_id": "t",
        "source": "hermes",
    }


@pytest.mark.parametrize("name", [".hive-mind-last-compact", ".hive-mind-last-compact.lock"])
def test_a_fifo_at_our_state_path_is_one_line_not_a_hang(
    name: str, stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """A FIFO where the state or lock file goes: the save happens, compaction skips in one line."""
    home = Path(env["HERMES_HOME"])
    home.mkdir(mode=0o700)
    os.mkfifo(home / name)
    env["WAGGLE_HERMES_COMPACT_ON_STOP"] = "1"
    result = run_hook("stop", stop_payload(), env, timeout=60)
    assert (result.returncode, result.stdout) == (0, b"")
    assert result.stderr.decode() == (
        f"hermes-hooks stop: compaction skipped: {home / name} is a FIFO, not a regular file; "
        "left alone\n"
    )
    assert stub_bridge.tools() == ["save_memory"]


def test_planted_symlinks_are_not_followed(
    stub_bridge: StubBridge, env: dict[str, str], tmp_path: Path
) -> None:
    """A symlink at the state path is replaced; a dangling one at the lock path creates nothing."""
    home = Path(env["HERMES_HOME"])
    home.mkdir(mode=0o700)
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (home / ".hive-mind-last-compact").symlink_to(victim)
    env["WAGGLE_HERMES_COMPACT_ON_STOP"] = "1"
    result = run_hook("stop", stop_payload(), env)
    assert (result.returncode, result.stderr) == (0, b"")
    assert victim.read_text() == "precious"
    assert not (home / ".hive-mind-last-compact").is_symlink()
    (home / ".hive-mind-last-compact").unlink()
    (home / ".hive-mind-last-compact.lock").unlink()
    (home / ".hive-mind-last-compact.lock").symlink_to(tmp_path / "created-by-us")
    result = run_hook("stop", stop_payload(), env)
    assert not (tmp_path / "created-by-us").exists()
    assert result.stderr.decode().startswith("hermes-hooks stop: compaction skipped: ")


def test_modes_are_private_under_umask_000(
    stub_bridge: StubBridge, env: dict[str, str], tmp_path: Path
) -> None:
    """A missing HERMES_HOME is created 0700 at every level, lock and state 0600, under umask 000."""
    env["HERMES_HOME"] = str(tmp_path / "a" / "b" / "hh")
    env["WAGGLE_HERMES_COMPACT_ON_STOP"] = "1"
    result = subprocess.run(
        ["sh", "-c", 'umask 000; exec "$@"', "sh", *hook_argv("stop")],
        input=stop_payload(),
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, b"")
    for directory in ("a", "a/b", "a/b/hh"):
        assert stat.S_IMODE((tmp_path / directory).stat().st_mode) == 0o700
    for name in (".hive-mind-last-compact", ".hive-mind-last-compact.lock"):
        assert stat.S_IMODE((tmp_path / "a/b/hh" / name).stat().st_mode) == 0o600
    assert sorted(p.name for p in (tmp_path / "a/b/hh").iterdir()) == [
        ".hive-mind-last-compact",
        ".hive-mind-last-compact.lock",
    ]


def test_a_killed_writers_temp_file_is_removed_by_the_next_write(
    stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """A stale state temp file (dead writer, old) goes; the state is written."""
    home = Path(env["HERMES_HOME"])
    home.mkdir(mode=0o700)
    dead = dead_pid()
    stale = home / f"..hive-mind-last-compact.{dead}.00000000.tmp"
    stale.write_text("1000")
    os.utime(stale, (1, 1))
    env["WAGGLE_HERMES_COMPACT_ON_STOP"] = "1"
    result = run_hook("stop", stop_payload(), env)
    assert (result.returncode, result.stderr) == (0, b"")
    assert not stale.exists()


@pytest.mark.parametrize("pidfd", [True, False], ids=["pidfd", "without pidfd"])
def test_a_call_ends_at_the_bridges_exit_with_or_without_a_pidfd(
    pidfd: bool, stub_bridge: StubBridge, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the kernel has no pidfd, the call looks for the bridge's exit between reads."""
    from hermes_hooks.bridge import Bridge

    if not pidfd:
        monkeypatch.delattr(os, "pidfd_open", raising=False)
    stub_bridge.behave("save_memory", "daemon")
    for name, value in stub_bridge.env.items():
        monkeypatch.setenv(name, value)
    marker = Path(str(stub_bridge.log) + ".grandchild")
    bridge = Bridge([sys.executable, str(STUB_BRIDGE)], timeout_s=60)
    try:
        assert bridge.call("save_memory", {"content": "x"}) == {"ok": True}
    finally:
        if marker.exists():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(marker.read_text()), signal.SIGKILL)
