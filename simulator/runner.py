"""Run one scenario: real hook processes, a virtual clock, a mock bridge, a recorded result.

Each scenario gets its own work directory with a temporary HOME and HERMES_HOME; nothing
touches the real home. Hooks are spawned as Hermes v0.19.0 spawns them
(``shlex.split(os.path.expanduser(cmd))``, no shell, stdin then EOF, the inherited environment,
a per-hook timeout in real time) with, added to their environment:

- the scenario's ``env``;
- ``WAGGLE_MIND_CMD`` pointing at the mock bridge (unless the scenario sets it);
- the virtual clock: ``HOOKSIM_NOW`` plus our ``sitecustomize`` on ``PYTHONPATH`` (Python
  hooks), or libfaketime through ``LD_PRELOAD`` (any dynamically linked hook);
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
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .hermes import HermesSession, HookSpec, injected_context, parse_hooks_block
from .scenario import NewSession, Scenario

CHILD_DIR = Path(__file__).with_name("_child")
# Run as a module, not as a file path: ``-I`` keeps the clock start-up and the caller's
# PYTHONPATH out, and a module of the installed package is one coverage measures.
MOCK_BRIDGE = ["-I", "-m", "simulator.mock_bridge"]
FAKETIME_LIBS = (
    "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/faketime/libfaketime.so.1",
)
_NOT_INHERITED = ("WAGGLE_", "HERMES_", "HOOKSIM_", "FAKETIME")
# After a timeout Hermes kills the hook and then waits for its pipes; a grandchild holding them
# would hang Hermes. We wait this long, then kill the hook's whole process group and say so.
_PIPE_GRACE_S = 2.0


class SetupError(Exception):
    """The scenario cannot start (hooks config unreadable, clock driver missing, ...)."""


@dataclass
class HookRun:
    """One hook process: what ran, when (virtual), and how it ended."""

    turn: int
    event: str
    command: str
    virtual_ms: int
    exit_code: int | None
    stdout: str
    stderr: str
    duration_s: float
    timed_out: bool = False
    spawn_error: str | None = None
    context: str | None = None  # what Hermes would inject into the prompt (pre_llm_call only)


@dataclass
class RunResult:
    scenario: Scenario
    runs: list[HookRun] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    turn_ms: dict[int, int] = field(default_factory=dict)
    temporary_frames: dict[int, int] = field(default_factory=dict)
    state_file: str | None = None
    warnings: list[str] = field(default_factory=list)
    workdir: Path | None = None


def default_hooks_block() -> dict[str, list[dict[str, str]]]:
    """The entries ``hermes-hooks install`` writes for this installation."""
    from hermes_hooks.entries import hook_entries

    return {event: [{"command": command}] for event, command in hook_entries().items()}


def load_hooks_config(path: str | Path) -> dict[str, Any] | None:
    """The ``hooks:`` block of a Hermes ``config.yaml``."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        data = YAML(typ="safe", pure=True).load(Path(path).read_text(encoding="utf-8"))
    except (OSError, YAMLError) as e:
        raise SetupError(f"{path}: cannot read the hooks config ({e})") from None
    if data is not None and not isinstance(data, dict):
        raise SetupError(f"{path}: a Hermes config is a mapping")
    hooks = (data or {}).get("hooks")
    return hooks if hooks is None or isinstance(hooks, dict) else {"__invalid__": hooks}


def faketime_library() -> str | None:
    """libfaketime's path when installed (Debian: package ``libfaketime``)."""
    return next((lib for lib in FAKETIME_LIBS if os.path.exists(lib)), None)


class ScenarioRun:
    """The mutable state of one run; ``run()`` returns the recorded result."""

    def __init__(self, scenario: Scenario, hooks_block: Any, workdir: Path) -> None:
        self.scenario = scenario
        self.specs, warnings = parse_hooks_block(hooks_block)
        self.result = RunResult(scenario, warnings=warnings, workdir=workdir)
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
        self.base_env = self._base_env()

    def _base_env(self) -> dict[str, str]:
        sc = self.scenario
        env = {k: v for k, v in os.environ.items() if not k.startswith(_NOT_INHERITED)}
        env.update(
            HOME=str(self.home),
            HERMES_HOME=str(self.hermes_home),
            WAGGLE_MIND_CMD=shlex.join([sys.executable, *MOCK_BRIDGE]),
            HOOKSIM_LEDGER=str(self.ledger),
            HOOKSIM_BRIDGE_PLAN=json.dumps(sc.bridge),
            HOOKSIM_FRAMES=str(self.frames),
            HOOKSIM_TEMPORARY_TTL_MS=str(int(sc.temporary_ttl_s * 1000)),
        )
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
        session = HermesSession(
            cwd=sc.session.get("cwd", str(self.project)),
            session_id=sc.session.get("id", "session-1"),
            model=sc.session.get("model", "hermes-4"),
            platform=sc.session.get("platform", "cli"),
        )
        for number, step in sc.numbered_steps:
            self.now_ms += int(step.after_s * 1000)
            if not isinstance(step, NewSession):
                self.result.turn_ms[number] = self.now_ms
            for firing in session.firings(step):
                for spec in self.specs:
                    if spec.event == firing.event and spec.matches(firing.tool_name):
                        self.result.runs.append(self._spawn(spec, firing.stdin, number))
            if number:
                self.result.temporary_frames[number] = self._temporary_frames()
        self.result.calls = [
            json.loads(line) for line in self.ledger.read_text(encoding="utf-8").splitlines()
        ]
        state = self.hermes_home / ".hive-mind-last-compact"
        self.result.state_file = (
            state.read_text(encoding="utf-8", errors="replace") if state.exists() else None
        )
        return self.result

    def _env_for(self, event: str, turn: int) -> dict[str, str]:
        env = dict(self.base_env)
        env.update(
            HOOKSIM_NOW=f"{self.now_ms / 1000:.3f}", HOOKSIM_TURN=str(turn), HOOKSIM_EVENT=event
        )
        if self.scenario.clock_driver == "faketime":
            instant = dt.datetime.fromtimestamp(self.now_ms / 1000, dt.timezone.utc)
            # '@' = start at this instant and tick; the file is re-read on every call.
            self.clock_file.write_text("@" + instant.strftime("%Y-%m-%d %H:%M:%S") + "\n")
            env["TZ"] = "UTC"
        return env

    def _spawn(self, spec: HookSpec, stdin: bytes, turn: int) -> HookRun:
        run = HookRun(turn, spec.event, spec.command, self.now_ms, None, "", "", 0.0)
        try:
            argv = shlex.split(os.path.expanduser(spec.command))
        except ValueError as e:
            run.spawn_error = f"command cannot be parsed ({e})"
            return run
        started = time.monotonic()
        try:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=self._env_for(spec.event, turn),
                cwd=self.project,
                start_new_session=True,  # ours, not Hermes': lets us clean up a leaked tree
            )
        except FileNotFoundError:
            run.spawn_error = "command not found"
            return run
        except PermissionError:
            run.spawn_error = "command not executable"
            return run
        except OSError as e:
            run.spawn_error = f"cannot start ({e})"
            return run
        try:
            out, err = proc.communicate(stdin, timeout=spec.timeout_s)
        except subprocess.TimeoutExpired:
            run.timed_out = True
            proc.kill()  # v0.19.0 kills the direct child only
            try:
                out, err = proc.communicate(timeout=_PIPE_GRACE_S)
            except subprocess.TimeoutExpired:
                _kill_group(proc)
                out, err = proc.communicate()
                err += b"\nhooksim: a process left behind by the hook held its pipes open; killed"
        run.duration_s = time.monotonic() - started
        run.exit_code = proc.returncode
        run.stdout = out.decode("utf-8", "replace")
        run.stderr = err.decode("utf-8", "replace")
        run.context = injected_context(spec.event, run.stdout)
        return run

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


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def run_scenario(
    scenario: Scenario,
    *,
    hooks_config: str | Path | None = None,
    keep_workdir: bool = False,
    workdir_root: str | Path | None = None,
) -> RunResult:
    """Run one scenario in a fresh work directory; remove it afterwards unless asked to keep it."""
    if hooks_config is not None:
        block: Any = load_hooks_config(hooks_config)
    elif scenario.hooks is not None:
        block = scenario.hooks
    else:
        block = default_hooks_block()
    if scenario.tool != "hermes":
        raise SetupError(f"{scenario.path}: unknown tool {scenario.tool!r}")
    workdir = Path(tempfile.mkdtemp(prefix="hooksim-", dir=workdir_root))
    try:
        return ScenarioRun(scenario, block, workdir).run()
    finally:
        if not keep_workdir:
            shutil.rmtree(workdir, ignore_errors=True)
