"""A run stopped by a signal: nothing the hooks started outlives hooksim, the work directory goes,
one line says so; at a run's end nothing a hook or a shell call detached is left; a loud hook's
output is kept up to a cap."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hooksim.replay.hook_process import OUTPUT_CAP
from hooksim.replay.runner import run_scenario
from hooksim.scenario import load_scenario

from tests.processes import alive

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="processes are followed on Linux only"
)

HOOKSIM = [sys.executable, "-c", "from hooksim.cli import main; raise SystemExit(main())"]


def scenario(tmp_path: Path, command: str, tools: str = "", expect: str = "") -> Path:
    """A Claude Code scenario of one turn whose UserPromptSubmit hook runs ``command``."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: stopping\ntool: claude-code\n"
        "hooks:\n  UserPromptSubmit:\n"
        f"    - hooks: [{{type: command, command: {json.dumps(command)}}}]\n"
        f"turns:\n  - user: hi\n{tools}    assistant: ok\n"
        + (f"expect:\n{expect}" if expect else "")
    )
    return path


def wait_for(path: Path, deadline_s: float = 120.0) -> str:
    """The text of ``path`` once its line has been written whole (by a shell's builtin echo:
    no process of its own is left running when it ends)."""
    deadline = time.monotonic() + deadline_s
    while not (path.exists() and path.read_text().endswith("\n")):
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.05)
    return path.read_text()


def start(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    """``hooksim run`` as a real process, its work directories under ``tmp_path/tmp``."""
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp"), "HOME": str(tmp_path)}
    return subprocess.Popen(
        [*HOOKSIM, "run", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


# The hook starts a child, writes both pids (whole, by a rename), then waits for the child.
BLOCKING = "sleep 3601 & echo $$ $! > {pids}; wait"


@pytest.mark.parametrize(
    ("signum", "name", "code"),
    [
        (signal.SIGINT, "SIGINT", 130),
        (signal.SIGTERM, "SIGTERM", 143),
        (signal.SIGHUP, "SIGHUP", 129),
    ],
)
def test_a_signal_stops_the_run_kills_its_processes_and_removes_the_workdir(
    tmp_path: Path, signum: int, name: str, code: int
) -> None:
    """SIGINT, SIGTERM or SIGHUP: the hook and its child die, the work directory goes, one line
    says so, and the exit code is 128 + the signal's number."""
    pids = tmp_path / "pids"
    hooksim = start(tmp_path, str(scenario(tmp_path, BLOCKING.format(pids=pids))))
    hook, child = map(int, wait_for(pids).split())
    hooksim.send_signal(signum)
    out, err = hooksim.communicate(timeout=120)
    assert hooksim.returncode == code
    assert err == f"hooksim: interrupted ({name}): stopped the run, killed 2 process(es)\n"
    assert "Traceback" not in out
    assert not alive(hook)
    assert not alive(child)
    assert list((tmp_path / "tmp").iterdir()) == []


def test_a_run_stopped_with_keep_workdir_keeps_it(tmp_path: Path) -> None:
    """--keep-workdir keeps the work directory of a run a signal stopped, as of one that ended."""
    pids = tmp_path / "pids"
    path = scenario(tmp_path, BLOCKING.format(pids=pids))
    hooksim = start(tmp_path, str(path), "--keep-workdir")
    _hook, child = map(int, wait_for(pids).split())
    hooksim.send_signal(signal.SIGTERM)
    _, err = hooksim.communicate(timeout=120)
    assert (hooksim.returncode, err.count("\n")) == (143, 1)
    assert not alive(child)
    (kept,) = (tmp_path / "tmp").iterdir()
    assert (kept / "project").is_dir()


def test_a_hook_that_signals_hooksim_cannot_cut_the_cleanup_short(tmp_path: Path) -> None:
    """A hook sending SIGTERM to hooksim stops the run as any SIGTERM does: its child dies too
    and the work directory goes."""
    pids = tmp_path / "pids"
    command = f"sleep 3603 & echo $! > {pids}.part && mv {pids}.part {pids}; kill -TERM $PPID; wait"
    hooksim = start(tmp_path, str(scenario(tmp_path, command)))
    out, err = hooksim.communicate(timeout=120)
    assert hooksim.returncode == 143
    assert re.fullmatch(
        r"hooksim: interrupted \(SIGTERM\): stopped the run, killed \d+ process\(es\)\n", err
    )
    assert "Traceback" not in out
    assert not alive(int(wait_for(pids)))
    assert list((tmp_path / "tmp").iterdir()) == []


def test_a_daemon_a_shell_call_starts_does_not_outlive_the_run(tmp_path: Path) -> None:
    """A ``run: true`` call that detaches a daemon (``setsid ... &``) leaves nothing running."""
    pids = tmp_path / "pids"
    tools = (
        "    tools: [{shell: "
        + json.dumps(
            f"setsid sh -c 'echo $$ > {pids}.part; exec sleep 3606' </dev/null >/dev/null 2>&1 &"
            f" while [ ! -s {pids}.part ]; do sleep 0.01; done; mv {pids}.part {pids}"
        )
        + ", run: true}]\n"
    )
    hooksim = start(tmp_path, str(scenario(tmp_path, "true", tools)))
    out, _ = hooksim.communicate(timeout=120)
    assert hooksim.returncode == 0, out
    assert not alive(int(wait_for(pids)))


def test_a_double_forked_daemon_that_cleared_its_environment_is_killed_and_reported(
    tmp_path: Path,
) -> None:
    """``(env -i setsid sleep &)`` names neither its hook nor its session: it is still killed at
    the end, and counted as left by an unknown hook."""
    pids = tmp_path / "pids"
    command = f"(env -i setsid sh -c 'echo $$ > {pids}.part; exec sleep 3602' </dev/null >/dev/null 2>&1 &)"
    command += f"; while [ ! -s {pids}.part ]; do sleep 0.01; done; mv {pids}.part {pids}"
    path = scenario(tmp_path, command)
    hooksim = start(tmp_path, str(path))
    out, _ = hooksim.communicate(timeout=120)
    assert hooksim.returncode == 1
    assert "processes left running by hooks: expected 0, got 1 (pid " in out
    assert "left by an unknown hook" in out
    assert not alive(int(wait_for(pids)))


def test_a_loud_hook_keeps_its_output_up_to_the_cap_and_says_how_much_more(
    tmp_path: Path,
) -> None:
    """A hook printing 5 MB keeps the first OUTPUT_CAP bytes of stdout, then a note of the rest."""
    size = 5_000_000
    result = run_scenario(
        load_scenario(scenario(tmp_path, f"head -c {size} /dev/zero | tr '\\0' y"))
    )
    (run,) = result.runs
    kept, note = run.stdout[:OUTPUT_CAP], run.stdout[OUTPUT_CAP:]
    assert kept == "y" * OUTPUT_CAP
    assert note == f"\n… [hooksim: {size - OUTPUT_CAP} bytes more not kept]"
    assert run.exit_code == 0


def test_a_kept_workdir_holds_a_loud_hooks_whole_output(tmp_path: Path) -> None:
    """With the work directory kept, what was not kept in memory is in ``output/`` there."""
    size = 3_000_000
    path = scenario(tmp_path, f"head -c {size} /dev/zero | tr '\\0' y; echo done >&2")
    result = run_scenario(load_scenario(path), keep_workdir=True, workdir_root=tmp_path)
    assert result.workdir is not None
    assert (result.workdir / "output" / "1.stdout").read_bytes() == b"y" * size
    assert result.runs[0].stderr == "done\n"


def test_a_shell_calls_output_is_kept_up_to_the_cap(tmp_path: Path) -> None:
    """A ``run: true`` call's output is cut at the cap too, with the same note."""
    size = 2 * OUTPUT_CAP + 10
    tools = (
        "    tools: [{shell: "
        + json.dumps(f"head -c {size} /dev/zero | tr '\\0' y")
        + ", run: true}]\n"
    )
    hooks = "cat > ~/post.json"
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: loud\ntool: claude-code\nhooks:\n  PostToolUse:\n"
        f"    - hooks: [{{type: command, command: {json.dumps(hooks)}}}]\n"
        f"turns:\n  - user: hi\n{tools}    assistant: ok\n"
    )
    result = run_scenario(load_scenario(path), keep_workdir=True, workdir_root=tmp_path)
    assert result.workdir is not None
    post = json.loads((result.workdir / "home" / "post.json").read_text())
    stdout = post["tool_response"]["stdout"]
    assert stdout == "y" * OUTPUT_CAP + f"\n… [hooksim: {size - OUTPUT_CAP} bytes more not kept]"
