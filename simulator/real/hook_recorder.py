"""The recorder a real-host run puts in front of every hook command, and its probes.

Where the host keeps its own account of each hook run (``Driver.watches``), the recorder only
watches. ``hooksim run --real`` installs, in place of each hook command, ::

    exec "<python>" -I -m hooksim.real.hook_recorder SPEC ID "$0"

The host's shell replaces itself with the recorder, which records what the hook is given
(stdin read without taking it: ``peek_stdin``) and replaces itself with that same shell
(``$0``) running the hook's command (``watch``): the hook is the process the host started, and
how it ended is read from the host's account.

Elsewhere it runs the hook (``main``): ::

    "<python>" -I -m hooksim.real.hook_recorder SPEC ID; exit $?

The trailing ``; exit $?`` keeps a shell from replacing itself with the recorder, so the
recorder's parent is the shell the host started, and its command line says which one; a host
that runs hooks without a shell passes the three words on as arguments, which are ignored. The
recorder reads stdin whole, runs the original command as the host would have (the same shell
and options, or ``shlex.split`` without one), passes stdin, stdout, stderr and the exit status
through, and records how it ended too. The record is written once at the start and again at
the end, so a hook the host killed is still on file.

``SPEC`` is a JSON file written by the run (the original commands by ``ID``, where to record,
where the current turn is announced). Each record is one JSON file per hook process: event,
argv, the shell, stdin bytes, the environment it received, cwd, wall-clock times, the process
that started the hook (``host_pid``), and exit, stdout and stderr where known. A probe
(``wrapping.probe_command``, a few lines of ``sh``) records every firing of an event, so that a firing
with no matching hook is still seen. Standard library only: it runs once per hook process.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import stat
import sys
import termios
import time
from pathlib import Path
from typing import Any

# What only a hook the recorder runs itself needs (``main``) is imported there: a watched hook
# (``watch``) pays for no more than it uses, once per hook process.

PROBE = "probe"
# A hook's own command as its host substituted it (a Gemini CLI extension's), carried in the
# hook's environment: run in place of the spec's, and not passed on to the hook.
CARRIED = "HOOKSIM_HOOK_COMMAND"


def _parent_cmdline() -> list[str]:
    try:
        raw = Path(f"/proc/{os.getppid()}/cmdline").read_bytes()
    except OSError:
        return []
    return [part.decode("utf-8", "replace") for part in raw.split(b"\0") if part]


def _host_pid(parent: list[str]) -> int:
    """The process that started the hook: the parent of the shell the host ran us in, else our
    parent (a host that runs hooks without a shell). A hook can see it (Claude Code names it
    in ``CLAUDE_PID``), so the comparison maps it to ``<host pid>`` on both sides."""
    ppid = os.getppid()
    if not (len(parent) >= 2 and "hooksim.real.hook_recorder" in parent[-1]):
        return ppid
    try:
        stat = Path(f"/proc/{ppid}/stat").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ppid
    # pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ')'
    return int(stat.rpartition(")")[2].split()[1])


def _argv_for(command: str, parent: list[str]) -> tuple[list[str], list[str]]:
    """How to run ``command`` as the host ran us: ``(argv, shell)``; shell ``[]``: no shell."""
    if len(parent) >= 2 and "hooksim.real.hook_recorder" in parent[-1]:
        shell = parent[:-1]
        return [*shell, command], shell
    import shlex

    return shlex.split(os.path.expanduser(command)), []


def _announced(spec: dict[str, Any], event: str, stdin: bytes) -> dict[str, Any]:
    """The turn this hook belongs to and its virtual instant, as the driver announced them
    (``turn_file``)."""
    try:
        text = Path(spec["turn_file"]).read_text(encoding="utf-8")
    except (OSError, KeyError):
        return {}
    return _announced_in(text, spec, event, stdin)


def _announced_in(text: str, spec: dict[str, Any], event: str, stdin: bytes) -> dict[str, Any]:
    """The turn and virtual instant an announcement (the turn file's ``text``) gives a hook
    of ``event``. A host that compacts on its own does so inside the turn after the compaction
    step, before that turn's model request: its compaction events belong to the step
    (``compaction``)."""
    try:
        loaded = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(loaded, dict):
        return {}
    compaction = loaded.get("compaction")
    if isinstance(compaction, dict) and _is_compaction(spec, event, stdin):
        return compaction
    return loaded


def _is_compaction(spec: dict[str, Any], event: str, stdin: bytes) -> bool:
    if event in spec.get("compaction_events", ()):
        return True
    if event != spec.get("session_start_event"):
        return False
    try:
        payload = json.loads(stdin)
    except ValueError:
        return False
    return isinstance(payload, dict) and payload.get("source") == "compact"


def _write(path: Path, record: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


def _hook_of(spec: dict[str, Any], hook_id: str) -> tuple[dict[str, Any], str, dict[str, str]]:
    """The hook ``hook_id`` names, its event, and the environment the host gave it (a command
    the host substituted in, carried in its environment, taken out: ``CARRIED``)."""
    hook = spec["hooks"].get(hook_id, {})
    received = dict(os.environ)
    if CARRIED in received:
        hook = {**hook, "command": received.pop(CARRIED)}
    return hook, str(hook.get("event", "")), received


def main(argv: list[str] | None = None) -> int:
    """Record one hook process and run the hook it stands in for: ``SPEC ID`` (see above)."""
    args = sys.argv[1:] if argv is None else argv
    started = time.time()
    stdin = peek_stdin()
    spec = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    hook_id = args[1]
    hook, event, received = _hook_of(spec, hook_id)
    announced = _announced(spec, event, stdin)
    record = _record(
        hook_id, event, hook, args, stdin, received=received, announced=announced, started=started
    )
    out_dir = Path(spec["record_dir"])
    path = out_dir / f"{time.time_ns()}-{os.getpid()}.json"
    _write(path, record)
    if not isinstance(hook.get("command"), str):
        record.update(end=time.time(), exit=0)
        _write(path, record)
        return 0
    env = _hook_environment(spec, record, received=received, announced=announced)
    return _run_hook(hook["command"], env, record, path)


def watch(args: list[str]) -> int:
    """Record one hook process and become the hook: ``SPEC ID SHELL`` (see above). The record
    holds what the hook is given; how it ends is the host's to say."""
    started = time.time()
    stdin = peek_stdin()
    spec = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    hook_id, shell = args[1], args[2]
    hook, event, received = _hook_of(spec, hook_id)
    announced = _announced(spec, event, stdin)
    record = _record(
        hook_id, event, hook, args, stdin, received=received, announced=announced, started=started
    )
    record.update(parent=[], host_pid=os.getppid(), shell=[shell, "-c"], watched=True)
    path = Path(spec["record_dir"]) / f"{time.time_ns()}-{os.getpid()}.json"
    command = hook.get("command")
    _write(path, record)
    if not isinstance(command, str):
        os.write(2, f"{shell}: no command\n".encode())
        return 127
    env = _hook_environment(spec, record, received=received, announced=announced)
    sys.stdout.flush()
    try:
        os.execvpe(shell, [shell, "-c", command], env)
    except OSError as e:  # the shell the host just ran is gone: say it as a shell would
        os.write(2, f"{shell}: {e.strerror}\n".encode())
        return 127


def peek_stdin(wait_s: float = 5.0) -> bytes:
    """What the host wrote to the hook's stdin, read without taking it: the hook reads the
    host's own pipe, whole, and may close it unread. A pipe is copied with ``tee(2)`` once the
    host has closed its end (a full pipe is grown, up to the system's limit, so a host
    blocked writing a long payload can finish); a socket (Node's child stdio) is read with
    ``MSG_PEEK`` once the host has shut its side; a file is read at offset 0 with ``pread``."""
    try:
        mode = os.fstat(0).st_mode
    except OSError:
        return b""
    if stat.S_ISREG(mode):
        return _pread_all(0)
    if stat.S_ISSOCK(mode):
        return _peek_socket(0, wait_s)
    if not stat.S_ISFIFO(mode):
        return b""
    poller = select.poll()
    poller.register(0, select.POLLIN | select.POLLHUP)
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        events = poller.poll(50)
        if any(ev & select.POLLHUP for _, ev in events):
            break
        if _queued(0) >= _capacity(0):
            _grow(0)
    return _tee_all(0)


def _peek_socket(fd: int, wait_s: float) -> bytes:
    """The bytes queued on the stream socket ``fd`` once its peer has shut its writing side,
    read with ``MSG_PEEK``: left where they are."""
    import socket

    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLRDHUP | select.POLLHUP)
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        if any(ev & (select.POLLRDHUP | select.POLLHUP) for _, ev in poller.poll(50)):
            break
    sock = socket.socket(fileno=os.dup(fd))
    try:
        size = max(_queued(fd), 1 << 16)
        while True:
            data = sock.recv(size, socket.MSG_PEEK | socket.MSG_DONTWAIT)
            if len(data) < size:
                return data
            size *= 2
    except OSError:
        return b""
    finally:
        sock.close()


def _pread_all(fd: int) -> bytes:
    chunks, offset = [], 0
    while chunk := os.pread(fd, 1 << 16, offset):
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def _queued(fd: int) -> int:
    buf = bytearray(4)
    try:
        fcntl.ioctl(fd, termios.FIONREAD, buf)
    except OSError:
        return 0
    return int.from_bytes(buf, sys.byteorder)


def _capacity(fd: int) -> int:
    try:
        return fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
    except (OSError, AttributeError):
        return 1 << 16


def _grow(fd: int) -> None:
    try:
        limit = int(Path("/proc/sys/fs/pipe-max-size").read_text())
        if _capacity(fd) < limit:
            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, limit)
    except (OSError, ValueError, AttributeError):
        pass


def _tee_all(fd: int) -> bytes:
    """The bytes queued in the pipe ``fd``, copied with ``tee(2)``: left where they are."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    size = _queued(fd)
    if size == 0:
        return b""
    r, w = os.pipe()
    try:
        with contextlib.suppress(OSError):
            fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, max(size, 4096))
        copied = libc.tee(fd, w, ctypes.c_size_t(size), 0)
        if copied <= 0:
            return b""
        os.close(w)
        w = -1
        chunks = []
        while chunk := os.read(r, 1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)


def _record(
    record_id: str,
    event: str,
    hook: dict[str, Any],
    args: list[str],
    stdin: bytes,
    *,
    received: dict[str, str],
    announced: dict[str, Any],
    started: float,
) -> dict[str, Any]:
    """The record of a hook process as it starts: what it was given, and by whom."""
    parent = _parent_cmdline()
    return {
        "id": record_id,
        "event": event,
        "command": hook.get("command"),
        "argv": args,
        "parent": parent,
        "host_pid": _host_pid(parent),
        "stdin": stdin.decode("utf-8", "replace"),
        "env": received,
        "cwd": os.getcwd(),
        "start": started,
        "end": None,
        "exit": None,
        "stdout": "",
        "stderr": "",
        "turn": int(received.get("HOOKSIM_TURN") or announced.get("turn", 0)),
        "step": str(announced.get("step", "")),
        "virtual_ms": announced.get("now_ms")
        if "HOOKSIM_NOW" not in received
        else int(float(received["HOOKSIM_NOW"]) * 1000),
        "pid": os.getpid(),
    }


def _hook_environment(
    spec: dict[str, Any],
    record: dict[str, Any],
    *,
    received: dict[str, str],
    announced: dict[str, Any],
) -> dict[str, str]:
    """What the hook runs with: the host's environment, and what a hooksim run gives every hook
    (the mock bridge, the virtual clock) unless the host already passed it on; the record
    keeps the environment as the host gave it."""
    env = dict(received)
    for key, value in spec.get("env", {}).items():
        env.setdefault(key, value)
    if "HOOKSIM_TURN" not in received and announced:
        env["HOOKSIM_TURN"] = str(record["turn"])
        env["HOOKSIM_NOW"] = f"{announced.get('now_ms', 0) / 1000:.3f}"
    env["HOOKSIM_EVENT"] = record["event"]
    return env


def _run_hook(command: str, env: dict[str, str], record: dict[str, Any], path: Path) -> int:
    """Run the hook as the host would have, on the host's own stdin (left unread), its stdout
    and stderr passed on as they come and for as long as anything holds them, its exit status
    through, and record how it ended (stopped by the host, too)."""
    import signal
    import subprocess

    argv, shell = _argv_for(command, record["parent"])
    record["shell"] = shell
    if not shell:
        record["argv"] = argv  # what the hook process was started with
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    except OSError as e:  # said as a shell says it (126: found, not executable), never as ours
        code = 126 if isinstance(e, PermissionError) else 127
        record.update(end=time.time(), exit=code, stderr=f"{argv[0]}: {e.strerror or e}")
        _write(path, record)
        print(record["stderr"], file=sys.stderr)
        return code

    def forward(signum: int, _frame: object) -> None:
        """The host stops the hook: stop the real one, and say so in the record."""
        proc.send_signal(signum)
        record.update(end=time.time(), killed=signal.Signals(signum).name)
        _write(path, record)
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    assert proc.stdout is not None
    assert proc.stderr is not None
    out, err = _relay({proc.stdout.fileno(): 1, proc.stderr.fileno(): 2})
    proc.wait()
    record.update(
        end=time.time(),
        exit=proc.returncode,
        stdout=out.decode("utf-8", "replace"),
        stderr=err.decode("utf-8", "replace"),
    )
    _write(path, record)
    return proc.returncode if proc.returncode >= 0 else 128 - proc.returncode


def _relay(pipes: dict[int, int]) -> tuple[bytes, bytes]:
    """Copy each pipe to its fd (1, 2) as it comes, until no process holds it open; what
    went to 1 and to 2. A host that stopped reading loses the rest, as the hook would."""
    kept: dict[int, list[bytes]] = {1: [], 2: []}
    poller = select.poll()
    for fd in pipes:
        poller.register(fd, select.POLLIN | select.POLLHUP)
    open_ = set(pipes)
    while open_:
        for fd, _ in poller.poll():
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                poller.unregister(fd)
                open_.discard(fd)
                continue
            kept[pipes[fd]].append(chunk)
            with contextlib.suppress(OSError):
                os.write(pipes[fd], chunk)
    return b"".join(kept[1]), b"".join(kept[2])


def read_records(directory: Path) -> list[dict[str, Any]]:
    """Every record in a run's record directory, in the order the hooks started: the
    recorder's, and each probe's (``wrapping.probe_command``), made from the files it left."""
    records = []
    for path in directory.glob("*.json"):
        try:
            records.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue
    spec_path = directory.parent / "recorder.json"
    spec = json.loads(spec_path.read_text(encoding="utf-8")) if spec_path.is_file() else {}
    records += [_probe_record(done, spec) for done in directory.glob("*.probe")]
    return sorted(records, key=lambda r: (r["start"], r["pid"]))


# What only a probe's command holds (``wrapping.probe_command``): the file it marks its
# record done with.
PROBE_MARK = '> "$d.probe"'


def _probe_record(done: Path, spec: dict[str, Any]) -> dict[str, Any]:
    """The record of one probe process, from the files it left (``wrapping.probe_command``)."""

    def part(suffix: str) -> bytes:
        try:
            return done.with_suffix(suffix).read_bytes()
        except OSError:
            return b""

    stamp, _, pid = done.stem.partition("-")
    event = part(".probe").decode().strip()
    stdin = part(".stdin")
    received = dict(
        item.split("=", 1)
        for item in part(".env").decode("utf-8", "replace").split("\0")
        if "=" in item
    )
    announced = _announced_in(part(".turn").decode("utf-8", "replace"), spec, event, stdin)
    record = {
        "id": PROBE,
        "event": event,
        "command": None,
        "argv": [],
        "parent": [p.decode("utf-8", "replace") for p in part(".parent").split(b"\0") if p],
        "host_pid": int(part(".ppid") or 0),
        "stdin": stdin.decode("utf-8", "replace"),
        "env": received,
        "cwd": part(".cwd").decode("utf-8", "replace").rstrip("\n"),
        "start": int(stamp) / 1e9,
        "exit": 0,
        "stdout": "",
        "stderr": "",
        "pid": int(pid or 0),
        "turn": int(received.get("HOOKSIM_TURN") or announced.get("turn", 0)),
        "step": str(announced.get("step", "")),
        "virtual_ms": announced.get("now_ms")
        if "HOOKSIM_NOW" not in received
        else int(float(received["HOOKSIM_NOW"]) * 1000),
    }
    record["end"] = record["start"]
    return record


if __name__ == "__main__":
    raise SystemExit(watch(sys.argv[1:]) if len(sys.argv) == 4 else main())
