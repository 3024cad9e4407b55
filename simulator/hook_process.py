"""Start one hook process as its host does: argv, environment, virtual clock, timeout and kill.

``HookLauncher`` owns everything about a single hook process and nothing about the session
around it: the scenario's work directory (``Workspace``), the environment every hook gets, the
clock that environment carries, the host's argv, the timeout and how the host kills a hook
that overruns it. The session loop (``hooksim.runner``) asks it for an event's environment and
to spawn each hook; it never touches a process itself.

Hooks get, added to their environment:

- the host's own variables (``CLAUDE_PROJECT_DIR``, ``CURSOR_VERSION``, ...);
- the scenario's ``env``;
- ``WAGGLE_MIND_CMD`` pointing at the mock bridge (unless the scenario sets it);
- the virtual clock: ``HOOKSIM_NOW`` plus our ``sitecustomize`` on ``PYTHONPATH`` (Python
  hooks), or libfaketime through ``LD_PRELOAD`` (any dynamically linked hook);
- ``HOOKSIM_SCENARIO_DIR`` (the scenario file's folder) and ``HOOKSIM_PYTHON`` (the Python
  running hooksim), so a scenario can name its own hook scripts;
- coverage's variables, inherited, so ``coverage``'s subprocess patch measures the hooks.

Variables a user may have exported for their real setup (``WAGGLE_*``, ``HERMES_*``,
``HOOKSIM_*``) are not inherited: a scenario's result must not depend on the shell it ran in.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .hosts import HookRun, HookSpec, Host, SessionInfo
from .leaks import LeakWatch
from .scenario import Scenario

CHILD_DIR = Path(__file__).with_name("_child")
# Run as a module, not as a file path: ``-I`` keeps the clock start-up and the caller's
# PYTHONPATH out, and a module of the installed package is one coverage measures.
MOCK_BRIDGE = ["-I", "-m", "hooksim.mock_bridge"]
FAKETIME_LIBS = (
    "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/faketime/libfaketime.so.1",
)
_NOT_INHERITED = ("WAGGLE_", "HERMES_", "HOOKSIM_", "FAKETIME")


class SetupError(Exception):
    """The scenario cannot start (hooks config unreadable, clock driver missing, ...)."""


def faketime_library() -> str | None:
    """libfaketime's path when installed (Debian: package ``libfaketime``)."""
    return next((lib for lib in FAKETIME_LIBS if os.path.exists(lib)), None)


@dataclass(frozen=True)
class Workspace:
    """One run's directory: a temporary home, the project, the bridge's ledger and frames."""

    root: Path

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def hermes_home(self) -> Path:
        return self.home / ".hermes"

    @property
    def project(self) -> Path:
        return self.root / "project"

    @property
    def ledger(self) -> Path:
        return self.root / "bridge-ledger.jsonl"

    @property
    def frames(self) -> Path:
        return self.root / "frames.sqlite"

    @property
    def clock_file(self) -> Path:
        return self.root / "faketime"

    def create(self) -> None:
        for d in (self.home, self.hermes_home, self.project):
            d.mkdir(parents=True, exist_ok=True)
        self.ledger.touch()


class HookLauncher:
    """Spawns hook processes for one run, as ``host`` does, in ``workspace``.

    Safe to call from several threads at once: hooks of one event may run in parallel, hooks a
    host does not wait for run in the background, and coinciding turns of concurrent sessions
    spawn at the same time.
    """

    def __init__(self, scenario: Scenario, host: Host, workspace: Workspace) -> None:
        self.scenario = scenario
        self.host = host
        self.workspace = workspace
        self._lock = threading.Lock()
        self._late_env: dict[str, str] = {}  # set by hooks the host did not wait for
        self._left_behind: list[int] = []  # process groups of hooks killed on timeout
        self.leaks = LeakWatch()
        self.base_env = self._base_env()

    def _base_env(self) -> dict[str, str]:
        sc, ws = self.scenario, self.workspace
        env = {k: v for k, v in os.environ.items() if not k.startswith(_NOT_INHERITED)}
        env.update(
            HOME=str(ws.home),
            WAGGLE_MIND_CMD=shlex.join([sys.executable, *MOCK_BRIDGE]),
            HOOKSIM_LEDGER=str(ws.ledger),
            HOOKSIM_BRIDGE_PLAN=json.dumps(sc.bridge),
            HOOKSIM_FRAMES=str(ws.frames),
            HOOKSIM_TEMPORARY_TTL_MS=str(int(sc.temporary_ttl_s * 1000)),
            HOOKSIM_SCENARIO_DIR=str(sc.path.resolve().parent),
            HOOKSIM_PYTHON=sys.executable,
            SHELL="/bin/sh",  # what Codex runs hooks with; a scenario's env may name another
        )
        if self.host.name == "hermes":
            env["HERMES_HOME"] = str(ws.hermes_home)
        if sc.clock_driver == "faketime":
            lib = faketime_library()
            if lib is None:
                raise SetupError(
                    f"{sc.path}: clock driver 'faketime' needs libfaketime (Debian: apt-get install libfaketime)"
                )
            env["LD_PRELOAD"] = " ".join(filter(None, [lib, env.get("LD_PRELOAD")]))
            env["FAKETIME_TIMESTAMP_FILE"] = str(ws.clock_file)
            env["FAKETIME_NO_CACHE"] = "1"
        else:
            env["PYTHONPATH"] = os.pathsep.join(
                filter(None, [str(CHILD_DIR), env.get("PYTHONPATH")])
            )
        env.update(sc.env)
        return env

    def remember_env(self, env: Mapping[str, str]) -> None:
        """Variables a hook set for later hooks (Cursor's sessionStart ``env``)."""
        with self._lock:
            self._late_env.update(env)

    def env_for(self, event: str, info: SessionInfo, now_ms: int, turn: int) -> dict[str, str]:
        """The environment of every hook of one firing of ``event`` at virtual ``now_ms``."""
        env = dict(self.base_env)
        env.update(self.host.env(event, info))
        with self._lock:
            env.update(self._late_env)
        env.update(self.scenario.env)
        env.update(HOOKSIM_NOW=f"{now_ms / 1000:.3f}", HOOKSIM_TURN=str(turn), HOOKSIM_EVENT=event)
        if not self.scenario.clock_tick:
            env["HOOKSIM_TICK"] = "0"
        if self.scenario.clock_driver == "faketime":
            instant = dt.datetime.fromtimestamp(now_ms / 1000, dt.timezone.utc)
            # '@' = start at this instant and tick, no prefix = stay there; the file is re-read
            # on every call. One virtual clock for the run, so hooks firing together write the
            # same instant.
            tick = "@" if self.scenario.clock_tick else ""
            with self._lock:
                self.workspace.clock_file.write_text(
                    tick + instant.strftime("%Y-%m-%d %H:%M:%S") + "\n"
                )
            env["TZ"] = "UTC"
        return env

    def spawn(self, spec: HookSpec, stdin: bytes, env: dict[str, str], run: HookRun) -> None:
        """Run one hook to its end (or the host's timeout) and record how it ended in ``run``."""
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
