"""The recorder runs the hook as the host would have, passes everything through, and records."""

from __future__ import annotations

import json
import os
import select
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

from hooksim.real.hook_recorder import read_records
from hooksim.real.wrapping import probe_command, recorder_command


def setup(tmp_path: Path, command: str) -> Path:
    spec = tmp_path / "spec.json"
    (tmp_path / "records").mkdir()
    (tmp_path / "turn.json").write_text(json.dumps({"turn": 3, "now_ms": 1_750_000_000_000}))
    spec.write_text(
        json.dumps(
            {
                "hooks": {"Stop.0.0": {"event": "Stop", "command": command}},
                "record_dir": str(tmp_path / "records"),
                "turn_file": str(tmp_path / "turn.json"),
                "env": {"FROM_HOOKSIM": "1"},
            }
        )
    )
    return spec


def test_a_shell_hook_runs_in_the_hosts_shell_and_is_recorded(tmp_path: Path) -> None:
    """Stdin, stdout, stderr and exit pass through; the record names the shell and the turn."""
    hook = 'cat; echo " $FROM_HOOKSIM $HOOKSIM_TURN"; echo warn >&2; exit 3'
    spec = setup(tmp_path, hook)
    done = subprocess.run(
        ["/bin/sh", "-c", recorder_command(spec, "Stop.0.0")],
        input=b'{"a": 1}\n',
        capture_output=True,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (3, b'{"a": 1}\n 1 3\n', b"warn\n")
    [record] = read_records(tmp_path / "records")
    assert record["event"] == "Stop"
    assert record["shell"] == ["/bin/sh", "-c"]
    assert record["stdin"] == '{"a": 1}\n'
    assert (record["exit"], record["turn"], record["virtual_ms"]) == (3, 3, 1_750_000_000_000)
    assert "FROM_HOOKSIM" not in record["env"]  # the environment as the host gave it


def test_a_probe_only_records_and_an_exec_host_gets_argv(tmp_path: Path) -> None:
    """A probe prints nothing and exits 0, in a host's shell or handed to ``sh`` as an argv,
    and its record says what it was given; without a shell a hook's command is split like argv."""
    spec = setup(tmp_path, f"{sys.executable} -c 'print(42)'")
    probe = probe_command(spec, "Stop", shell=True)
    in_shell = subprocess.run(
        ["/bin/sh", "-c", probe],
        input=b'{"p": 1}',
        capture_output=True,
        check=False,
        env={**os.environ, "FROM_HOST": "yes"},
    )
    bare = probe_command(spec, "Stop", shell=False)
    as_argv = subprocess.run(shlex.split(bare), input=b"{}", capture_output=True, check=False)
    argv = [sys.executable, "-I", "-m", "hooksim.real.hook_recorder", str(spec), "Stop.0.0"]
    exec_run = subprocess.run(argv, input=b"{}", capture_output=True, check=False)
    assert (in_shell.returncode, in_shell.stdout, in_shell.stderr) == (0, b"", b"")
    assert (as_argv.returncode, as_argv.stdout, as_argv.stderr) == (0, b"", b"")
    assert (exec_run.returncode, exec_run.stdout) == (0, b"42\n")
    records = read_records(tmp_path / "records")
    assert [(r["id"], r["event"]) for r in records] == [
        ("probe", "Stop"),
        ("probe", "Stop"),
        ("Stop.0.0", "Stop"),
    ]
    first = records[0]
    assert (first["stdin"], first["turn"], first["env"]["FROM_HOST"]) == ('{"p": 1}', 3, "yes")
    assert first["parent"][:2] == ["/bin/sh", "-c"]  # the host's shell, running the probe
    assert first["host_pid"] == os.getpid()
    assert records[2]["shell"] == []


# What a hook can tell about how it was started: who started it, its own pid, the shell, an
# argument with ``;`` in it, a builtin, and the payload on stdin.
SELF_AWARE = "echo \"ppid=$PPID self=$$ zero=$0\"; printf '%s\\n' 'a;b'; type cd; cat"


def _host_runs(command: str, stdin: object, **popen: object) -> subprocess.Popen[bytes]:
    """A host stand-in: ``/bin/sh -c COMMAND`` as its child, stdin handed over as given."""
    return subprocess.Popen(
        ["/bin/sh", "-c", command],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **popen,
    )  # type: ignore[call-overload]


def test_a_watched_hook_is_the_process_its_host_started(tmp_path: Path) -> None:
    """Newcomer trial 5, finding 1: watching, the recorder changes nothing the hook can see. The
    hook is the host's own child (its pid, its parent), in the host's shell ($0), its command
    as written (``;`` inside an argument, a builtin), the payload whole on the host's own pipe;
    the record holds what it was given, and how it ended is left to the host's account."""
    spec = setup(tmp_path, SELF_AWARE)
    proc = _host_runs(recorder_command(spec, "Stop.0.0", watch=True), subprocess.PIPE)
    out, err = proc.communicate(b'{"a": 1}\n')
    assert (proc.returncode, err) == (0, b"")
    assert out.decode().splitlines() == [
        f"ppid={os.getpid()} self={proc.pid} zero=/bin/sh",
        "a;b",
        "cd is a shell builtin",
        '{"a": 1}',
    ]
    [record] = read_records(tmp_path / "records")
    assert (record["id"], record["stdin"], record["shell"]) == (
        "Stop.0.0",
        '{"a": 1}\n',
        ["/bin/sh", "-c"],
    )
    assert (record["host_pid"], record["pid"], record["exit"]) == (os.getpid(), proc.pid, None)
    assert "FROM_HOOKSIM" not in record["env"]


def test_a_watched_hook_reads_a_socket_as_node_hands_it(tmp_path: Path) -> None:
    """Node gives a child's stdin as a socket: the payload is recorded and left for the hook."""
    spec = setup(tmp_path, "cat")
    ours, theirs = socket.socketpair()
    proc = _host_runs(recorder_command(spec, "Stop.0.0", watch=True), theirs)
    theirs.close()
    ours.sendall(b'{"b": 2}')
    ours.shutdown(socket.SHUT_WR)
    out, _ = proc.communicate()
    ours.close()
    assert out == b'{"b": 2}'
    assert read_records(tmp_path / "records")[0]["stdin"] == '{"b": 2}'


def test_what_the_host_kills_is_the_hook(tmp_path: Path) -> None:
    """The host's SIGTERM reaches the hook itself, at once: its trap runs, and nothing of the
    recorder is left running a command the host has given up on."""
    hook = f"trap 'kill $!; echo stopped > {tmp_path}/trap; exit 143' TERM; : > {tmp_path}/set; sleep 60 & wait"
    spec = setup(tmp_path, hook)
    proc = _host_runs(recorder_command(spec, "Stop.0.0", watch=True), subprocess.PIPE)
    proc.stdin.write(b"{}")  # type: ignore[union-attr]
    proc.stdin.close()  # type: ignore[union-attr]
    while not (tmp_path / "set").exists():
        time.sleep(0.01)  # the hook's shell has set its trap
    proc.terminate()
    assert proc.wait(timeout=30) == 143
    proc.stdout.close()  # type: ignore[union-attr]
    proc.stderr.close()  # type: ignore[union-attr]
    assert (tmp_path / "trap").read_text() == "stopped\n"
    assert not [p for p in _processes() if "hooksim.real.hook_recorder" in p and str(spec) in p]


def _processes() -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                found.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode())
            except OSError:
                continue
    return found


def test_a_command_that_cannot_start_is_said_as_a_shell_says_it(tmp_path: Path) -> None:
    """Newcomer trial 5, finding 14: the recorder never names itself to the user."""
    spec = setup(tmp_path, str(tmp_path / "missing.py"))
    argv = [sys.executable, "-I", "-m", "hooksim.real.hook_recorder", str(spec), "Stop.0.0"]
    done = subprocess.run(argv, input=b"{}", capture_output=True, check=False)
    assert done.returncode == 127
    assert done.stderr.decode() == f"{tmp_path / 'missing.py'}: No such file or directory\n"
    assert read_records(tmp_path / "records")[0]["exit"] == 127


def test_a_hook_the_recorder_runs_reads_the_hosts_stdin_and_speaks_as_it_goes(
    tmp_path: Path,
) -> None:
    """Where the recorder runs the hook (a host without its own account), the hook reads the
    host's own stdin (the record still holds the payload) and its output reaches the host as
    it is written, not when it ends: the host reads the first line while the hook still runs."""
    go = tmp_path / "go"
    spec = setup(tmp_path, f"head -c 5; echo; echo first; while [ ! -e {go} ]; do sleep 0.01; done")
    proc = _host_runs(recorder_command(spec, "Stop.0.0"), subprocess.PIPE)
    assert proc.stdin is not None
    assert proc.stdout is not None
    proc.stdin.write(b'{"a": 1}')
    proc.stdin.close()
    # Unanswered for a minute is a hook whose output is held back until it ends.
    assert select.select([proc.stdout], [], [], 60)[0], "no output while the hook runs"
    assert proc.stdout.readline() == b'{"a":\n'
    assert proc.stdout.readline() == b"first\n"  # the hook is still waiting for `go`
    go.touch()
    assert proc.wait(timeout=60) == 0
    proc.stdout.close()
    proc.stderr.close()  # type: ignore[union-attr]
    [record] = read_records(tmp_path / "records")
    assert (record["stdin"], record["stdout"]) == ('{"a": 1}', '{"a":\nfirst\n')
