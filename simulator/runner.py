"""Run one scenario: real hook processes, a virtual clock, a mock bridge, a recorded result.

Each scenario gets its own work directory with a temporary HOME (and HERMES_HOME); nothing
touches the real home. The host profile (``hooksim.hosts``) decides which events fire and
what their payloads are; this module spawns each event's hooks as that host does (exec or
shell, in parallel or one after another, awaited or not, the host's timeouts and kill), hands
every finished process back to the profile to read, and records it all. Hooks get, added to
their environment:

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
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from .hosts import ConfigError, Firing, HookRun, HookSpec, Host, SessionInfo, UnknownHost, get_host
from .scenario import Compact, Scenario

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


@dataclass
class RunResult:
    scenario: Scenario
    runs: list[HookRun] = field(default_factory=list)
    firings: list[Firing] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    turn_ms: dict[int, int] = field(default_factory=dict)
    temporary_frames: dict[int, int] = field(default_factory=dict)
    state_file: str | None = None
    warnings: list[str] = field(default_factory=list)
    workdir: Path | None = None
    host_title: str = "Hermes"


def default_hooks_block() -> dict[str, list[dict[str, str]]]:
    """The entries ``hermes-hooks install`` writes for this installation."""
    from hermes_hooks.entries import hook_entries

    return {event: [{"command": command}] for event, command in hook_entries().items()}


def load_hooks_config(path: str | Path, host: Host) -> Any:
    """The hooks of a host's own config file (``config.yaml``, ``settings.json``, ...)."""
    try:
        return host.load_config(Path(path))
    except ConfigError as e:
        raise SetupError(str(e)) from None


def faketime_library() -> str | None:
    """libfaketime's path when installed (Debian: package ``libfaketime``)."""
    return next((lib for lib in FAKETIME_LIBS if os.path.exists(lib)), None)


class ScenarioRun:
    """The mutable state of one run; ``run()`` returns the recorded result."""

    def __init__(self, scenario: Scenario, hooks_block: Any, workdir: Path, host: Host) -> None:
        self.scenario = scenario
        self.host = host
        self.specs, warnings = host.parse_hooks(hooks_block)
        self.result = RunResult(scenario, warnings=warnings, workdir=workdir, host_title=host.title)
        self.workdir = workdir
        self.home = workdir / "home"
        self.hermes_home = self.home / ".hermes"
        self.project = workdir / "project"
        self.ledger = workdir / "bridge-ledger.jsonl"
        self.frames = workdir / "frames.sqlite"
        self.clock_file = workdir / "faketime"
        for d in (self.home, self.hermes_home, self.project):
            d.mkdir(parents=True, exist_ok=True)
        self.ledger.touch()
        self.now_ms = int(scenario.start.timestamp() * 1000)
        self.turn = 0
        self.base_env = self._base_env()
        self.info = SessionInfo(
            cwd=scenario.session.get("cwd", str(self.project)),
            session_id=scenario.session.get("id", "session-1"),
            model=scenario.session.get("model", "hermes-4" if host.name == "hermes" else "model-1"),
            platform=scenario.session.get("platform", "cli"),
            transcript_path=str(workdir / "transcript.jsonl"),
            now_ms=lambda: self.now_ms,
        )
        self._background: list[threading.Thread] = []
        self._late_env: dict[str, str] = {}  # set by hooks the host did not wait for
        self._lock = threading.Lock()
        self._left_behind: list[int] = []  # process groups of hooks killed on timeout

    def _base_env(self) -> dict[str, str]:
        sc = self.scenario
        env = {k: v for k, v in os.environ.items() if not k.startswith(_NOT_INHERITED)}
        env.update(
            HOME=str(self.home),
            WAGGLE_MIND_CMD=shlex.join([sys.executable, *MOCK_BRIDGE]),
            HOOKSIM_LEDGER=str(self.ledger),
            HOOKSIM_BRIDGE_PLAN=json.dumps(sc.bridge),
            HOOKSIM_FRAMES=str(self.frames),
            HOOKSIM_TEMPORARY_TTL_MS=str(int(sc.temporary_ttl_s * 1000)),
            HOOKSIM_SCENARIO_DIR=str(sc.path.resolve().parent),
            HOOKSIM_PYTHON=sys.executable,
            SHELL="/bin/sh",  # what Codex runs hooks with; a scenario's env may name another
        )
        if self.host.name == "hermes":
            env["HERMES_HOME"] = str(self.hermes_home)
        if sc.clock_driver == "faketime":
            lib = faketime_library()
            if lib is None:
                raise SetupError(
                    f"{sc.path}: clock driver 'faketime' needs libfaketime (Debian: apt-get install libfaketime)"
                )
            env["LD_PRELOAD"] = " ".join(filter(None, [lib, env.get("LD_PRELOAD")]))
            env["FAKETIME_TIMESTAMP_FILE"] = str(self.clock_file)
            env["FAKETIME_NO_CACHE"] = "1"
        else:
            env["PYTHONPATH"] = os.pathsep.join(
                filter(None, [str(CHILD_DIR), env.get("PYTHONPATH")])
            )
        env.update(sc.env)
        return env

    def run(self) -> RunResult:
        sc = self.scenario
        session = self.host.session(self.info, self.fire)
        for number, step in sc.numbered_steps:
            self.now_ms += int(step.after_s * 1000)
            self.turn = number
            if number:
                self.result.turn_ms[number] = self.now_ms
            fired_before = len(self.result.firings)
            session.step(step)
            if isinstance(step, Compact) and len(self.result.firings) == fired_before:
                self.result.firings.append(
                    Firing(number, f"(compact {step.trigger})", self.now_ms,
                           effect=f"{self.host.title} fires no hook event for a compaction")
                )  # fmt: skip
            if number:
                self.result.temporary_frames[number] = self._temporary_frames()
        session.exit()
        for thread in self._background:
            thread.join()
        for group in self._left_behind:  # what a killed hook left running dies with the run
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
        self.result.calls = [
            json.loads(line) for line in self.ledger.read_text(encoding="utf-8").splitlines()
        ]
        state = self.hermes_home / ".hive-mind-last-compact"
        self.result.state_file = (
            state.read_text(encoding="utf-8", errors="replace") if state.exists() else None
        )
        return self.result

    def fire(
        self,
        event: str,
        payload: dict[str, Any] | bytes,
        *,
        match: str | None = None,
    ) -> Firing:
        """Spawn the hooks bound to one event as the host does; return the host's reading."""
        host = self.host
        wait = event not in host.not_awaited
        stdin = payload if isinstance(payload, bytes) else host.encode(payload)
        specs = [s for s in self.specs if s.event == event and host.matches(s, match)]
        if host.dedupe:
            specs = list({s.command: s for s in reversed(specs)}.values())[::-1]
        firing = Firing(self.turn, event, self.now_ms, match, waited=wait)
        self.result.firings.append(firing)
        if not specs:
            return firing
        env = self._env_for(event, self.turn)
        runs = [
            HookRun(self.turn, event, s.command, self.now_ms, None, "", "", 0.0, spec=s)
            for s in specs
        ]
        self.result.runs.extend(runs)
        firing.runs = runs
        jobs = [partial(self._spawn, s, stdin, env, r) for s, r in zip(specs, runs, strict=True)]
        if not wait:
            firing.effect = f"{host.title} does not wait for {event}"
            for job, run in zip(jobs, runs, strict=True):
                thread = threading.Thread(target=self._in_background, args=(job, run), daemon=True)
                thread.start()
                self._background.append(thread)
            return firing
        if host.parallel and len(jobs) > 1 and not any(s.sequential for s in specs):
            with ThreadPoolExecutor(len(jobs)) as pool:
                list(pool.map(lambda job: job(), jobs))
        else:
            for job in jobs:
                job()
        self._read(firing)
        return firing

    def _read(self, firing: Firing) -> None:
        """The host reads each finished hook; their verdicts together are the firing's outcome."""
        reasons = []
        for run in firing.runs:
            verdict = self.host.read(firing.event, run)
            run.verdict = verdict.note
            run.context = verdict.context
            if verdict.block is not None:
                firing.blocked = True
                reasons.append(verdict.block)
            if verdict.context is not None:
                firing.context.append(verdict.context)
            firing.stop = firing.stop or verdict.stop
            if verdict.followup is not None and firing.followup is None:
                firing.followup = verdict.followup
                firing.loop_limit = verdict.loop_limit
        firing.reason = self.host.join_reasons(reasons)

    def _in_background(self, job: partial[None], run: HookRun) -> None:
        """A hook the host does not wait for: run it; what it sets for later hooks still counts."""
        job()
        verdict = self.host.read(run.event, run)
        run.verdict = f"not awaited: {verdict.note}"
        if verdict.env:
            with self._lock:
                self._late_env.update(verdict.env)

    def _env_for(self, event: str, turn: int) -> dict[str, str]:
        env = dict(self.base_env)
        env.update(self.host.env(event, self.info))
        with self._lock:
            env.update(self._late_env)
        env.update(self.scenario.env)
        env.update(
            HOOKSIM_NOW=f"{self.now_ms / 1000:.3f}", HOOKSIM_TURN=str(turn), HOOKSIM_EVENT=event
        )
        if self.scenario.clock_driver == "faketime":
            instant = dt.datetime.fromtimestamp(self.now_ms / 1000, dt.timezone.utc)
            # '@' = start at this instant and tick; the file is re-read on every call.
            self.clock_file.write_text("@" + instant.strftime("%Y-%m-%d %H:%M:%S") + "\n")
            env["TZ"] = "UTC"
        return env

    def _spawn(self, spec: HookSpec, stdin: bytes, env: dict[str, str], run: HookRun) -> None:
        try:
            argv = self.host.argv(spec.command, env)
        except ValueError as e:
            run.spawn_error = f"command cannot be parsed ({e})"
            return
        timeout = self.host.timeout_s(spec, env)
        started = time.monotonic()
        try:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                cwd=self.project,
                start_new_session=True,  # ours, not the host's: lets us clean up a leaked tree
            )
        except FileNotFoundError:
            run.spawn_error = "command not found"
            return
        except PermissionError:
            run.spawn_error = "command not executable"
            return
        except OSError as e:
            run.spawn_error = f"cannot start ({e})"
            return
        try:
            out, err = proc.communicate(stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            run.timed_out = True
            out, err = self._stop_after_timeout(proc)
        run.duration_s = time.monotonic() - started
        run.exit_code = proc.returncode
        run.stdout = out.decode("utf-8", "replace")
        run.stderr = err.decode("utf-8", "replace")

    def _stop_after_timeout(self, proc: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
        """Stop a hook as its host does, and discard its output.

        SIGKILL (or SIGTERM, then SIGKILL after the host's grace period) to the hook itself,
        then a wait for that process only, as ``subprocess.run`` does: a grandchild the hook
        started keeps running and keeps its pipes, as it would under the host. hooksim kills
        such leftovers when the scenario ends.
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

    def _temporary_frames(self) -> int:
        if not self.frames.exists():
            return 0
        db = sqlite3.connect(self.frames, timeout=30)
        try:
            row = db.execute("SELECT count(*) FROM frames WHERE temporary = 1").fetchone()
        except sqlite3.OperationalError:
            return 0
        finally:
            db.close()
        return int(row[0])


def run_scenario(
    scenario: Scenario,
    *,
    tool: str | None = None,
    host: Host | None = None,
    hooks_config: str | Path | None = None,
    keep_workdir: bool = False,
    workdir_root: str | Path | None = None,
) -> RunResult:
    """Run one scenario on its tool (or ``tool``, or a given ``host`` profile).

    Each run gets a fresh work directory, removed afterwards unless asked to keep it.
    """
    if host is None:
        try:
            host = get_host(tool or scenario.tool)
        except UnknownHost as e:
            raise SetupError(f"{scenario.path}: {e}") from None
    scenario = scenario.on(host.name)
    if scenario.version is not None:
        try:
            host = host.at_version(scenario.version)
        except ValueError as e:
            raise SetupError(f"{scenario.path}: hosts.{host.name}.version: {e}") from None
    if hooks_config is not None:
        block: Any = load_hooks_config(hooks_config, host)
    elif scenario.hooks is not None:
        block = scenario.hooks
    elif host.name == "hermes":
        block = default_hooks_block()
    else:
        raise SetupError(
            f"{scenario.path}: no hooks for {host.name}: add hosts.{host.name}.hooks to the"
            f" scenario (or hooks: when it is the scenario's tool), or pass --hooks-config with"
            f" a {host.title} config file"
        )
    workdir = Path(tempfile.mkdtemp(prefix="hooksim-", dir=workdir_root))
    try:
        return ScenarioRun(scenario, block, workdir, host).run()
    finally:
        if not keep_workdir:
            shutil.rmtree(workdir, ignore_errors=True)
