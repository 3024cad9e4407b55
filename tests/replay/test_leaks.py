"""Leaked processes: what a hook leaves running is named, fails the run unless allowed, and dies."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.hosts.records import HookRun
from hooksim.replay import leaks
from hooksim.replay.runner import run_scenario
from hooksim.scenario import load_scenario

from tests.processes import alive

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="leaked processes are detected on Linux only"
)

SCENARIOS = Path(__file__).parents[2] / "scenarios"
LEAKY = SCENARIOS / "hooks" / "leaky_hook.py"
SHIPPED = SCENARIOS / "across" / "leaked-processes.yaml"


def leaky(mode: str) -> str:
    return shlex.join([sys.executable, str(LEAKY), mode])


def scenario(tmp_path: Path, tool: str, hooks: str, expect: str = "") -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(
        f"name: leaks\ntool: {tool}\nturns:\n  - {{user: hi, assistant: ok}}\n"
        f"hooks:\n{hooks}\n" + (f"expect:\n{expect}\n" if expect else "")
    )
    return path


def stop_hooks(tool: str, commands: list[str]) -> str:
    """The turn-end hooks of ``tool``, in its own config shape."""
    if tool == "hermes":
        return "  post_llm_call:\n" + "".join(f"    - command: {json.dumps(c)}\n" for c in commands)
    if tool == "cursor":
        return "  stop:\n" + "".join(f"    - command: {json.dumps(c)}\n" for c in commands)
    event = "AfterAgent" if tool == "gemini-cli" else "Stop"
    entries = "".join(f"        - {{type: command, command: {json.dumps(c)}}}\n" for c in commands)
    return f"  {event}:\n    - hooks:\n{entries}"


@pytest.mark.parametrize("tool", ["hermes", "claude-code", "codex", "cursor", "gemini-cli"])
def test_each_way_of_leaking_is_named_with_its_hook(tmp_path: Path, tool: str) -> None:
    """A background child, a setsid child and a double-forked grandchild are each reported."""
    modes = ["background", "setsid", "double-fork"]
    path = scenario(tmp_path, tool, stop_hooks(tool, [leaky(m) for m in modes]))
    result = run_scenario(load_scenario(path))
    assert [leak.command for leak in result.leaks] == ["sleep 300"] * 3
    by_mode = {leak.run.command.split()[-1]: leak for leak in result.leaks if leak.run}
    assert sorted(by_mode) == sorted(modes)
    assert not by_mode["background"].own_session
    assert by_mode["setsid"].own_session
    assert by_mode["double-fork"].own_session
    assert {leak.run.event for leak in result.leaks if leak.run} == {
        {"hermes": "post_llm_call", "cursor": "stop", "gemini-cli": "AfterAgent"}.get(tool, "Stop")
    }
    for leak in result.leaks:
        assert not alive(leak.pid), "leaked processes die with the scenario"


def test_a_leak_fails_the_run_unless_allowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No allowance means 0: the failure names pid, command and hook, and the timeline shows it."""
    path = scenario(tmp_path, "claude-code", stop_hooks("claude-code", [leaky("background")]))
    assert main(["run", str(path)]) == 1
    out = capsys.readouterr().out
    assert "processes left running by hooks: expected 0, got 1 (pid " in out
    assert "'sleep 300' left by Stop at turn 1" in out
    assert "left running: pid " in out
    assert "sleep 300 (in the hook's session)" in out


@pytest.mark.parametrize(("allowance", "code"), [("allow", 0), ("1", 0), ("2", 1)])
def test_the_scenario_allows_leaks_by_count_or_at_all(
    tmp_path: Path, allowance: str, code: int
) -> None:
    """``leaked_processes: allow`` passes any number; a count must match exactly."""
    hooks = stop_hooks("codex", [leaky("setsid")])
    path = scenario(tmp_path, "codex", hooks, f"  leaked_processes: {allowance}")
    assert main(["run", str(path)]) == code


def test_leaks_are_in_the_json_report(tmp_path: Path) -> None:
    """--json lists each leaked process with its pid, command, session and the hook's index."""
    hooks = stop_hooks("hermes", ["true", leaky("double-fork")])
    path = scenario(tmp_path, "hermes", hooks, "  leaked_processes: 1")
    assert main(["run", str(path), "--json", str(tmp_path / "run.json")]) == 0
    (entry,) = json.loads((tmp_path / "run.json").read_text())
    (leak,) = entry["leaked_processes"]
    assert leak["command"] == "sleep 300"
    assert leak["own_session"] is True
    assert (leak["hook"], leak["turn"], leak["event"]) == (1, 1, "post_llm_call")
    assert entry["hooks"][leak["hook"]]["command"].endswith("double-fork")


def test_a_process_that_clears_its_environment_is_still_attributed(tmp_path: Path) -> None:
    """Without the hook's variable, the session the hook started tells whose it is."""
    hooks = stop_hooks("cursor", ["true", "env -i sleep 300 >/dev/null 2>&1 &"])
    path = scenario(tmp_path, "cursor", hooks, "  leaked_processes: 1")
    result = run_scenario(load_scenario(path))
    (leak,) = result.leaks
    assert leak.run is result.runs[1]


def test_a_hook_that_waits_for_its_children_leaks_nothing(tmp_path: Path) -> None:
    """Children reaped before the hook exits, and the mock bridge it calls, are not leaks."""
    hooks = stop_hooks("gemini-cli", ["sleep 0 & wait; echo {} | $WAGGLE_MIND_CMD call ping"])
    result = run_scenario(load_scenario(scenario(tmp_path, "gemini-cli", hooks)))
    assert result.runs[0].exit_code == 0
    assert result.leaks == []


def test_the_shipped_scenario_catches_six_on_every_host() -> None:
    """scenarios/across/leaked-processes.yaml passes on all five hosts with its six leaks."""
    scenario_ = load_scenario(SHIPPED)
    for tool in scenario_.tools():
        result = run_scenario(scenario_, tool=tool)
        assert len(result.leaks) == 6, tool
        assert all(leak.run is not None for leak in result.leaks), tool


def test_a_hook_ending_while_another_scans_is_not_its_own_leak(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hooks run at once: one starts and ends while another's scan walks the process tree.

    The walk sees the new hook running (it started after the walk took its list of live hooks)
    and the hook ends before the walk decides; the hook itself is then gone, not leaked. The two
    moments are forced here by wrapping the walk's readers, since threads hit them only by luck.
    """
    from hooksim.hosts.records import HookRun
    from hooksim.replay import leaks

    watch = leaks.LeakWatch()
    run = HookRun(1, "Stop", "exit 0", 0)
    env = {**os.environ, **watch.tag(run)}
    started: list[subprocess.Popen[bytes]] = []
    walk, read_marker = leaks._descendants, leaks._marker

    def walk_after_a_hook_starts(root: int, skip: set[int]) -> list[int]:
        with watch.spawning():
            hook = subprocess.Popen(
                [sys.executable, "-c", "import sys; sys.stdin.read()"],
                stdin=subprocess.PIPE,
                env=env,
                start_new_session=True,
            )
            watch.started(env, hook.pid)
        started.append(hook)
        return walk(root, skip)

    def marker_then_the_hook_ends(pid: int) -> str | None:
        marker = read_marker(pid)
        if started and pid == started[0].pid and started[0].returncode is None:
            started[0].communicate(b"")
            watch.ended(env, pid)
        return marker

    monkeypatch.setattr(leaks, "_descendants", walk_after_a_hook_starts)
    monkeypatch.setattr(leaks, "_marker", marker_then_the_hook_ends)
    assert watch.scan() == []
    assert started[0].returncode == 0


def test_a_leak_caught_before_it_execs_is_named_by_what_it_runs(tmp_path: Path) -> None:
    """A process found between fork and exec is named again when the run ends: by the
    command it runs then, never '?'."""
    watch = leaks.LeakWatch()
    run = HookRun(1, "Stop", "a hook", 0)
    env = {**os.environ, **watch.tag(run)}
    go = tmp_path / "go"
    # The leaked child waits for ``go`` before it execs ``sleep``: the scan sees it as Python.
    child = (
        "import os, time\n"
        f"while not os.path.exists({str(go)!r}): time.sleep(0.01)\n"
        "os.execvp('sleep', ['sleep', '3607'])\n"
    )
    hook_code = (
        "import subprocess, sys\n"
        f"subprocess.Popen([sys.executable, '-c', {child!r}], start_new_session=False)\n"
    )
    with watch.spawning():
        hook = subprocess.Popen([sys.executable, "-c", hook_code], env=env, start_new_session=True)
        watch.started(env, hook.pid)
    hook.wait()
    watch.ended(env, hook.pid)
    (leak,) = watch.scan()
    assert leak.command.startswith(sys.executable)
    go.touch()
    deadline = time.monotonic() + 120
    while Path(f"/proc/{leak.pid}/cmdline").read_bytes() != b"sleep\x003607\x00":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    watch.kill_all()
    assert leak.command == "sleep 3607"
    assert not alive(leak.pid)
