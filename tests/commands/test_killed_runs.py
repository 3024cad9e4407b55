"""A run stopped by SIGTERM writes the reports of what finished; one killed by SIGKILL leaves
work the next run removes, by the run's own mark."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.processes import alive

WAIT_S = 60.0


def hooksim(args: list[str], tmp: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "TMPDIR": str(tmp)}
    return subprocess.Popen(
        [sys.executable, "-m", "hooksim", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp.parent,
    )


def wait_for(path: Path) -> None:
    deadline = time.monotonic() + WAIT_S
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


def scenario(folder: Path, name: str, command: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(
        f"name: {name}\ntool: claude-code\nhooks:\n  Stop: [{{hooks: [{{type: command, command: "
        f"'{command}', timeout: 3600}}]}}]\nturns:\n  - {{user: hi, assistant: ok}}\n"
    )
    return path


@pytest.fixture
def tmp(tmp_path: Path) -> Path:
    folder = tmp_path / "tmp"
    folder.mkdir()
    return folder


def test_sigterm_writes_the_reports_of_what_finished(tmp_path: Path, tmp: Path) -> None:
    started = tmp_path / "started"
    quick = scenario(tmp_path, "a-quick", "true")
    slow = scenario(tmp_path, "b-slow", f"touch {started}; sleep 3600")
    junit = tmp_path / "junit.xml"
    run = hooksim(["run", str(quick), str(slow), "--junit-xml", str(junit)], tmp)
    wait_for(started)
    run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=WAIT_S)
    assert run.returncode == 128 + signal.SIGTERM
    assert "interrupted (SIGTERM)" in err
    cases = {c.get("name"): c for c in ET.parse(junit).getroot()}
    cases = {name.split("[")[0]: case for name, case in cases.items()}
    assert set(cases) == {"a-quick", "b-slow"}
    assert cases["a-quick"].find("failure") is None
    assert cases["a-quick"].find("error") is None
    assert "interrupted (SIGTERM) before it finished" in ET.tostring(cases["b-slow"], "unicode")
    assert list(tmp.iterdir()) == []


def test_the_next_run_removes_what_a_killed_run_left(tmp_path: Path, tmp: Path) -> None:
    started = tmp_path / "started"
    pid_file = tmp_path / "pid"
    slow = scenario(tmp_path, "slow", f"sleep 3600 & echo $! > {pid_file}; touch {started}; wait")
    run = hooksim(["run", str(slow)], tmp)
    wait_for(started)
    run.kill()
    run.communicate(timeout=WAIT_S)
    left = [p for p in tmp.iterdir() if p.name.startswith("hooksim-")]
    assert len(left) == 1
    sleeper = int(pid_file.read_text())
    assert alive(sleeper)
    foreign = tmp / "hooksim-not-ours"  # no mark: never removed by its name alone
    foreign.mkdir()
    quick = scenario(tmp_path, "quick", "true")
    again = hooksim(["run", str(quick)], tmp)
    again.communicate(timeout=WAIT_S)
    assert again.returncode == 0
    deadline = time.monotonic() + WAIT_S
    while alive(sleeper) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not alive(sleeper)
    assert [p.name for p in tmp.iterdir()] == ["hooksim-not-ours"]


def test_a_kept_work_folder_is_never_swept(tmp_path: Path, tmp: Path) -> None:
    """--keep-workdir leaves the folder for the user: no later run removes it."""
    quick = scenario(tmp_path, "quick", "true")
    kept = hooksim(["run", str(quick), "--keep-workdir"], tmp)
    kept.communicate(timeout=WAIT_S)
    [folder] = [p for p in tmp.iterdir() if p.name.startswith("hooksim-")]
    again = hooksim(["run", str(quick)], tmp)
    again.communicate(timeout=WAIT_S)
    assert folder.is_dir()
