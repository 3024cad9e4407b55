"""A run stopped by a signal: nothing the hooks started outlives hooksim, the work directory goes,
one line says so."""

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
    """The text of ``path`` once it has been written (written whole: a rename)."""
    deadline = time.monotonic() + deadline_s
    while not path.exists():
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
BLOCKING = "sleep 3601 & echo $$ $! > {pids}.part && mv {pids}.part {pids}; wait"


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
