"""The recorder runs the hook as the host would have, passes everything through, and records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hooksim.real.hook_recorder import read_records
from hooksim.real.wrapping import recorder_command


def setup(tmp_path: Path, command: str) -> Path:
    spec = tmp_path / "spec.json"
    (tmp_path / "records").mkdir()
    (tmp_path / "turn.json").write_text(json.dumps({"turn": 3, "now_ms": 1_750_000_000_000}))
    spec.write_text(json.dumps({
        "hooks": {"Stop.0.0": {"event": "Stop", "command": command}},
        "record_dir": str(tmp_path / "records"), "turn_file": str(tmp_path / "turn.json"),
        "env": {"FROM_HOOKSIM": "1"},
    }))  # fmt: skip
    return spec


def test_a_shell_hook_runs_in_the_hosts_shell_and_is_recorded(tmp_path: Path) -> None:
    """Stdin, stdout, stderr and exit pass through; the record names the shell and the turn."""
    hook = 'cat; echo " $FROM_HOOKSIM $HOOKSIM_TURN"; echo warn >&2; exit 3'
    spec = setup(tmp_path, hook)
    done = subprocess.run(
        ["/bin/sh", "-c", recorder_command(spec, "Stop.0.0")],
        input=b'{"a": 1}\n', capture_output=True, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (3, b'{"a": 1}\n 1 3\n', b"warn\n")
    [record] = read_records(tmp_path / "records")
    assert record["event"] == "Stop"
    assert record["shell"] == ["/bin/sh", "-c"]
    assert record["stdin"] == '{"a": 1}\n'
    assert (record["exit"], record["turn"], record["virtual_ms"]) == (3, 3, 1_750_000_000_000)
    assert "FROM_HOOKSIM" not in record["env"]  # the environment as the host gave it


def test_a_probe_only_records_and_an_exec_host_gets_argv(tmp_path: Path) -> None:
    """A probe prints nothing and exits 0; without a shell the command is split like argv."""
    spec = setup(tmp_path, f"{sys.executable} -c 'print(42)'")
    probe = subprocess.run(
        ["/bin/sh", "-c", recorder_command(spec, "probe.Stop")],
        input=b"{}", capture_output=True, check=False,
    )  # fmt: skip
    argv = [sys.executable, "-I", "-m", "hooksim.real.hook_recorder", str(spec), "Stop.0.0"]
    exec_run = subprocess.run(argv, input=b"{}", capture_output=True, check=False)
    assert (probe.returncode, probe.stdout) == (0, b"")
    assert (exec_run.returncode, exec_run.stdout) == (0, b"42\n")
    records = read_records(tmp_path / "records")
    assert [(r["id"], r["event"]) for r in records] == [("probe", "Stop"), ("Stop.0.0", "Stop")]
    assert records[1]["shell"] == []
