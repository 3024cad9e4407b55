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
import signal
import subprocess
import threading
import time

from ..hosts import HookRun, HookSpec, Host
from .leaks import LeakWatch, stopping
from .workspace import Workspace

# The work directories of the runs of this process, removed when a signal stops it.
workdirs: set[str] = set()


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
        try:
            out, err = proc.communicate(stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            run.timed_out = True
            out, err = self._stop_after_timeout(proc)
        run.duration_s = time.monotonic() - started
        self.leaks.ended(env, proc.pid)
        self.leaks.scan()
        run.exit_code = proc.returncode
        run.stdout = out.decode("utf-8", "replace")
        run.stderr = err.decode("utf-8", "replace")

    def _stop_after_timeout(self, proc: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
        """Stop a hook as its host does, and discard its output.

        SIGKILL (or SIGTERM, then SIGKILL after the host's grace period) to the hook itself,
        then a wait for that process only, as ``subprocess.run`` does: a grandchild the hook
        started keeps running and keeps its pipes, as it would under the host. hooksim kills
        such leftovers when the scenario ends (``kill_leftovers``).
        """
        grace = self.host.term_grace_s
        if grace is not None:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=grace)
        if proc.returncode is None:
            proc.kill()
            proc.wait()
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        with self._lock:
            self._left_behind.append(proc.pid)
        return b"", b""

    def kill_leftovers(self) -> None:
        """What the hooks left running (found one last time) dies with the run."""
        self.leaks.scan()
        self.leaks.kill_all()
        with self._lock:
            groups, self._left_behind = self._left_behind, []
        for group in groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
