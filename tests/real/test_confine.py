"""A confined real run (``hooksim.real.confine``): what the host and its tools run sees the
machine read-only but for the run's work directory, ``/tmp`` as an overlay whose writes stay in
the run, and a PID namespace of its own. Skipped where the machine offers no confinement."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hooksim.real.confine import Confinement, available


def _overlay() -> bool:
    found = available()
    return found is not None and found[1]


def _confined(workdir: Path, script: str) -> subprocess.CompletedProcess[str]:
    found = available()
    if found is None:
        pytest.skip("neither bubblewrap nor unshare confines a process on this machine")
    argv = Confinement(found[0], workdir, overlay=found[1]).argv(["/bin/sh", "-c", script])
    return subprocess.run(
        argv, capture_output=True, text=True, cwd=workdir, check=False, timeout=60
    )


def test_only_the_run_changes(tmp_path: Path) -> None:
    """A broken guard's `rm -rf` or redirect outside the run changes nothing there (under /tmp
    the confined process sees its own change, which stays in the run); inside the run it
    does; /tmp reads as the machine's and takes writes that stay in the run."""
    run, outside = tmp_path / "run", tmp_path / "outside"
    run.mkdir()
    outside.mkdir()
    (outside / "keep").write_text("kept\n")
    done = _confined(
        run,
        f"""
        cat {outside}/keep; rm -rf {outside}/keep 2>/dev/null; echo x > {outside}/new 2>/dev/null
        echo made > {run}/inside; echo scratch > /tmp/hooksim-confine-probe
        cat /tmp/hooksim-confine-probe; ls /proc | grep -c '^[0-9]'
    """,
    )
    lines = done.stdout.split()
    if not _overlay():  # an older bubblewrap: /tmp is read-only like the rest
        lines.insert(1, "scratch")
    assert lines[:2] == ["kept", "scratch"], done.stderr
    assert int(lines[2]) < 10  # the processes it sees: a PID namespace of its own
    assert (outside / "keep").read_text() == "kept\n"
    assert not (outside / "new").exists()
    assert not Path("/tmp/hooksim-confine-probe").exists()
    assert (run / "inside").read_text() == "made\n"


def test_what_the_run_started_is_gone_with_it(tmp_path: Path) -> None:
    """A process the host or a hook left in the background ends with the run."""
    done = _confined(tmp_path, "sleep 300 & echo $!")
    assert done.returncode == 0, done.stderr
    left = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _is_our_sleep(p, tmp_path)]
    assert left == []


def _is_our_sleep(proc: Path, cwd: Path) -> bool:
    try:
        return (proc / "cmdline").read_bytes() == b"sleep\x00300\x00" and (
            proc / "cwd"
        ).resolve() == cwd
    except OSError:
        return False
