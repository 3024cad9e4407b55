"""The installed hook run as Hermes runs it: a real process, Hermes' bytes, a real stub bridge."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import StubBridge
from tests.payloads import prompt_payload, session_start_payload, stop_payload
from tests.processes import alive


def hook_argv(subcommand: str) -> list[str]:
    """The console script next to this interpreter when installed, else ``python -m``."""
    script = shutil.which("hermes-hooks", path=str(Path(sys.executable).parent))
    if script:
        return [script, subcommand]
    return [sys.executable, "-m", "hermes_hooks", subcommand]


def run_hook(
    subcommand: str, payload: bytes, env: dict[str, str], timeout: float = 30
) -> subprocess.CompletedProcess[bytes]:
    """Spawn like Hermes v0.19.0: argv without a shell, payload on stdin then EOF."""
    return subprocess.run(
        hook_argv(subcommand),
        input=payload,
        capture_output=True,
        timeout=timeout,
        env=env,
        check=False,
    )


@pytest.fixture
def env(stub_bridge: StubBridge, tmp_path: Path) -> dict[str, str]:
    """The environment Hermes would pass: inherited, with a temporary HOME and HERMES_HOME."""
    home = tmp_path / "home"
    home.mkdir()
    return {**os.environ, "HOME": str(home), "HERMES_HOME": str(home / ".hermes")}


def test_stop_saves_then_compacts_in_real_processes(
    stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """`hermes-hooks stop` with the flag on: save then cleanup, exit 0, stdout empty, state stamped."""
    env["WAGGLE_HERMES_COMPACT_ON_STOP"] = "1"
    result = run_hook("stop", stop_payload("It is 42."), env)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    calls = stub_bridge.calls()
    assert [c["tool"] for c in calls] == ["save_memory", "cleanup_frames"]
    assert calls[0]["arguments"] == {
        "content": "It is 42.",
        "role": "assistant",
        "temporary": False,
        "session_id": "s1",
        "turn_id": "turn-1",
        "source": "hermes",
    }
    assert calls[1]["arguments"] == {"mode": "compact"}
    stamp = Path(env["HERMES_HOME"], ".hive-mind-last-compact").read_text()
    assert abs(int(stamp) - time.time() * 1000) < 60_000


def test_second_stop_inside_the_window_does_not_compact(
    stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """Two Stop hooks in a row, as two processes: the state file carries the window across."""
    env["WAGGLE_HERMES_COMPACT_ON_STOP"] = "true"
    run_hook("stop", stop_payload("one"), env)
    run_hook("stop", stop_payload("two"), env)
    assert stub_bridge.tools() == ["save_memory", "cleanup_frames", "save_memory"]


def test_default_off_never_creates_hermes_home(
    stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """With the flag unset the Stop hook saves and touches no state file."""
    result = run_hook("stop", stop_payload(), env)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    assert stub_bridge.tools() == ["save_memory"]
    assert not Path(env["HERMES_HOME"]).exists()


def test_prompt_and_session_start_in_real_processes(
    stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """The other two bindings, run as processes, call their bridge tools and print nothing."""
    for subcommand, payload in (
        ("session-start", session_start_payload()),
        ("user-prompt-submit", prompt_payload()),
    ):
        result = run_hook(subcommand, payload, env)
        assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    assert stub_bridge.tools() == ["start_session", "save_memory"]


def test_python_dash_m_entry_point(stub_bridge: StubBridge, env: dict[str, str]) -> None:
    """`python -m hermes_hooks stop` behaves like the console script."""
    result = subprocess.run(
        [sys.executable, "-m", "hermes_hooks", "stop"],
        input=stop_payload(),
        capture_output=True,
        env=env,
        check=False,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    assert stub_bridge.tools() == ["save_memory"]


def test_hanging_bridge_is_killed_with_its_children(
    stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """A bridge that hangs (and forks a sleeper) is killed at WAGGLE_BRIDGE_TIMEOUT_S; exit 0."""
    stub_bridge.behave("save_memory", "hang")
    env.update(stub_bridge.env, WAGGLE_BRIDGE_TIMEOUT_S="1")
    started = time.monotonic()
    result = run_hook("stop", stop_payload(), env, timeout=20)
    elapsed = time.monotonic() - started
    assert result.returncode == 0
    assert result.stdout == b""
    assert result.stderr.decode().endswith("call save_memory timed out after 1s; killed\n")
    assert elapsed < 15  # far below the 3600 s the stub would sleep
    grandchild = int(Path(str(stub_bridge.log) + ".grandchild").read_text())
    assert not alive(grandchild)


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (b"", "empty payload on stdin"),
        (b"{", "payload is not valid JSON (line 1, column 2)"),
        (b"[]", "payload is not a JSON object (got list)"),
        (
            b'{"hook_event_name": "post_llm_call", "session_id": "s"}',
            "payload has no 'extra' object",
        ),
    ],
)
def test_bad_stdin_real_process(
    stdin: bytes, message: str, stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """Bad input to a real hook process: exit 0, one stderr line, no traceback, no stdout."""
    result = run_hook("stop", stdin, env)
    assert (result.returncode, result.stdout) == (0, b"")
    assert result.stderr.decode() == f"hermes-hooks stop: {message}\n"
    assert stub_bridge.calls() == []


def test_bad_timeout_variable_falls_back_to_the_default(
    stub_bridge: StubBridge, env: dict[str, str]
) -> None:
    """A WAGGLE_BRIDGE_TIMEOUT_S that is not a positive number uses the default of 10 s."""
    from hermes_hooks.bridge import Bridge

    for bad in ("soon", "0", "-1", "nan", "inf", ""):
        assert Bridge.from_env({"WAGGLE_BRIDGE_TIMEOUT_S": bad}).timeout_s == 10
    assert Bridge.from_env({"WAGGLE_BRIDGE_TIMEOUT_S": "2.5"}).timeout_s == 2.5
    env["WAGGLE_BRIDGE_TIMEOUT_S"] = "soon"
    result = run_hook("stop", stop_payload(), env)
    assert (result.returncode, result.stderr) == (0, b"")
    assert stub_bridge.tools() == ["save_memory"]


def test_hook_import_path_is_stdlib_only(env: dict[str, str]) -> None:
    """Running a hook imports nothing outside the standard library and our own package."""
    code = (
        "import sys, io\n"
        "before = set(sys.modules)\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(b''))\n"
        "from hermes_hooks.cli import main\n"
        "main(['stop'])\n"
        "stdlib = set(sys.stdlib_module_names)\n"
        "added = set(sys.modules) - before\n"
        "print('\\n'.join(sorted(m for m in added if m.split('.')[0] not in stdlib)))\n"
    )
    # Not measured: coverage, started on the hook package's import, would be among what it adds.
    unmeasured = {k: v for k, v in env.items() if not k.startswith("COVERAGE_")}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=unmeasured, check=True
    )
    assert {m.split(".")[0] for m in result.stdout.split()} == {"hermes_hooks"}
