"""Start one hook process as its host does: argv, timeout, kill, and what it left running.

``HookLauncher`` owns everything about a single hook process and nothing about the session
around it: the host's argv, the working directory, the timeout and how the host kills a hook
that overruns it, and the watch for processes it leaves behind. Its environment comes from
``HookEnvironment`` (``workspace``); the dispatcher asks for both and never touches a process
itself.
"""

from __future__ import annotations

import contextlib
import os
import select
import selectors
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import IO

from ..hosts import HookRun, HookSpec, Host
from .leaks import LeakWatch, session_alive, stopping
from .workspace import Workspace

# The work directories of the runs of this process, removed when a signal stops it.
workdirs: set[str] = set()

# What is kept in memory of each stream of a hook or a shell call (a hook printing a gigabyte
# would otherwise take several); the rest is counted, and written to ``output/`` in a kept
# work directory.
OUTPUT_CAP = 1024 * 1024
_CHUNK = 64 * 1024


class Output:
    """One stream of a process: its first ``OUTPUT_CAP`` bytes, a count of the rest, and (if
    ``spill`` is open) the whole of it in a file."""

    def __init__(self, spill: int | None = None) -> None:
        self.kept = bytearray()
        self.more = 0
        self._spill = spill

    def add(self, data: bytes) -> None:
        room = OUTPUT_CAP - len(self.kept)
        self.kept += data[:room]
        self.more += max(0, len(data) - room)
        if self._spill is not None:
            try:
                os.write(self._spill, data)  # a regular file: written whole
            except OSError:  # the disk is full, the directory went: the file stops there
                self.close()

    def close(self) -> None:
        if self._spill is not None:
            os.close(self._spill)
            self._spill = None

    def text(self) -> str:
        """What was kept, and a note of how much more there was."""
        text = self.kept.decode("utf-8", "replace")
        return text + f"\n… [hooksim: {self.more} bytes more not kept]" if self.more else text


def spill_files(root: Path, name: str) -> tuple[int | None, int | None]:
    """``root/output/NAME.stdout`` and ``.stderr``, created new; (None, None) if they cannot be.

    The directory is opened without following a link, and the files are created, never
    opened if there: a hook that put a link there cannot have us write outside the run.
    """
    folder = root / "output"
    with contextlib.suppress(FileExistsError, OSError):
        folder.mkdir()
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return None, None
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    files: list[int | None] = []
    try:
        for stream in ("stdout", "stderr"):
            try:
                files.append(os.open(f"{name}.{stream}", flags, 0o600, dir_fd=fd))
            except OSError:
                files.append(None)
    finally:
        os.close(fd)
    return files[0], files[1]


def communicate(
    proc: subprocess.Popen[bytes], stdin: bytes, timeout: float | None, out: Output, err: Output
) -> None:
    """``proc.communicate(stdin, timeout)``, keeping the output in ``out`` and ``err``.

    Reads in this thread as ``communicate`` does (stdin written in chunks a pipe takes whole),
    so memory stays bounded and the timeout is the same: ``TimeoutExpired`` once it passes,
    whether the process or something holding its pipes is still going.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    sent = 0
    pipes: dict[int, tuple[IO[bytes], Output | None]] = {}
    if proc.stdin is not None:
        if stdin:
            pipes[proc.stdin.fileno()] = (proc.stdin, None)
        else:
            proc.stdin.close()
    for pipe, stream in ((proc.stdout, out), (proc.stderr, err)):
        if pipe is not None:
            pipes[pipe.fileno()] = (pipe, stream)
    with selectors.DefaultSelector() as selector:
        for fd, (_, reads) in pipes.items():
            selector.register(fd, selectors.EVENT_WRITE if reads is None else selectors.EVENT_READ)
        while selector.get_map():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise subprocess.TimeoutExpired(proc.args, timeout or 0)
            for key, _ in selector.select(left):
                pipe, output = pipes[key.fd]
                if output is None:
                    try:
                        sent += os.write(key.fd, stdin[sent : sent + select.PIPE_BUF])
                    except BrokenPipeError:  # the hook closed its stdin: the rest is not read
                        sent = len(stdin)
                    if sent < len(stdin):
                        continue
                    data = b""
                else:
                    data = os.read(key.fd, _CHUNK)
                    output.add(data)
                if not data:
                    selector.unregister(key.fd)
                    with contextlib.suppress(BrokenPipeError):
                        pipe.close()
    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    proc.wait(timeout=left)


# How long hooksim waits for a hook its host signalled at the timeout and never SIGKILLs (the
# host would wait for ever): hooksim's bound, not the host's.
NO_KILL_BOUND_S = 30.0


def _ended(session: int, deadline: float) -> bool:
    """Wait until no process of ``session`` runs, or ``deadline``; whether none does."""
    while session_alive(session):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True


class HookLauncher:
    """Spawns hook processes for one run, as ``host`` does, in ``workspace``.

    Safe to call from several threads at once: hooks of one event may run in parallel, hooks a
    host does not wait for run in the background, and coinciding turns of concurrent sessions
    spawn at the same time.
    """

    def __init__(self, host: Host, workspace: Workspace) -> None:
        self.host = host
        self.workspace = workspace
        self._lock = threading.Lock()
        self._left_behind: list[int] = []  # process groups of hooks killed on timeout
        self.leaks = LeakWatch()
        self.keep_output = False  # the work directory is kept: whole outputs go to output/
        self._outputs = 0
        workdirs.add(str(workspace.root))

    def spawn(self, spec: HookSpec, stdin: bytes, env: dict[str, str], run: HookRun) -> None:
        """Run one hook to its end (or the host's timeout) and record how it ended in ``run``."""
        if stopping.is_set():
            run.spawn_error = "not started: the run is stopping"
            return
        try:
            argv = self.host.argv_for(spec, env)
        except ValueError as e:
            run.spawn_error = f"command cannot be parsed ({e})"
            return
        timeout = self.host.timeout_s(spec, env)
        env = {**env, **self.leaks.tag(run)}  # every process the hook starts carries its id
        started = time.monotonic()
        try:
            with self.leaks.spawning():
                proc = subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    env=env,
                    cwd=self.workspace.project,
                    start_new_session=True,  # ours, not the host's: a leak is told by its session
                )
                self.leaks.started(env, proc.pid)
        except FileNotFoundError:
            run.spawn_error = "command not found"
            return
        except PermissionError:
            run.spawn_error = "command not executable"
            return
        except OSError as e:
            run.spawn_error = f"cannot start ({e})"
            return
        run.pid = proc.pid
        out, err = Output(), Output()
        if self.keep_output:
            out, err = map(Output, spill_files(self.workspace.root, self._next_output()))
        try:
            communicate(proc, stdin, timeout, out, err)
        except subprocess.TimeoutExpired:
            run.timed_out = True
            out.kept.clear()
            err.kept.clear()
            out.more = err.more = 0
            self._stop_after_timeout(proc)
        finally:
            out.close()
            err.close()
        run.duration_s = time.monotonic() - started
        self.leaks.ended(env, proc.pid)
        self.leaks.scan()
        run.exit_code = proc.returncode
        run.stdout = out.text()
        run.stderr = err.text()

    def _next_output(self) -> str:
        with self._lock:
            self._outputs += 1
            return str(self._outputs)

    def _stop_after_timeout(self, proc: subprocess.Popen[bytes]) -> None:
        """Stop a hook as its host does, and discard its output.

        The host's signal (``Host.timeout_signal``) to the hook's process group or to the hook
        itself, then SIGKILL after the host's grace period where one follows, then a wait for
        that process only, as ``subprocess.run`` does: what the signal did not reach keeps
        running and keeps its pipes, as it would under the host. hooksim kills such leftovers
        when the scenario ends (``kill_leftovers``). A host that sends no SIGKILL waits for the
        hook however long it takes; hooksim's own bound (``NO_KILL_BOUND_S``) ends the wait.
        """
        host = self.host

        def send(sig: signal.Signals) -> None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                if host.timeout_kills_group:
                    os.killpg(proc.pid, sig)  # the hook leads its group (start_new_session)
                else:
                    proc.send_signal(sig)

        first = signal.Signals[host.timeout_signal]
        send(first)
        grace = host.term_grace_s
        deadline = time.monotonic() + (NO_KILL_BOUND_S if grace is None else grace)
        if first != signal.SIGKILL:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            if proc.returncode is None:
                send(signal.SIGKILL)
        proc.wait()
        # What the group's signal reached is gone before the run looks for leftovers.
        if host.timeout_kills_group and not _ended(proc.pid, deadline):
            send(signal.SIGKILL)
            _ended(proc.pid, time.monotonic() + NO_KILL_BOUND_S)
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        with self._lock:
            self._left_behind.append(proc.pid)

    def kill_leftovers(self) -> None:
        """What the hooks left running (found one last time) dies with the run."""
        self.leaks.scan()
        self.leaks.adopt_orphans()
        self.leaks.kill_all()
        with self._lock:
            groups, self._left_behind = self._left_behind, []
        for group in groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
