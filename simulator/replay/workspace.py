"""One run's work directory, and the environment every hook of the run starts from.

Shared by the replay (``hook_process``) and the real-host drivers (``hooksim.real``), so a hook
sees the same variables whichever runs it. Hooks get, added to what the user's shell gave:

- a temporary ``HOME`` (and, for Hermes, ``HERMES_HOME`` inside it);
- ``WAGGLE_MIND_CMD`` pointing at the mock bridge (unless the scenario sets it), and the mock
  bridge's own variables (its ledger, plan, frames and the temporary frames' lifetime);
- the virtual clock's driver: our ``sitecustomize`` on ``PYTHONPATH`` (Python hooks), or
  libfaketime through ``LD_PRELOAD`` (any dynamically linked hook);
- ``HOOKSIM_SCENARIO_DIR`` (the scenario file's folder) and ``HOOKSIM_PYTHON`` (the Python
  running hooksim), so a scenario can name its own hook scripts;
- ``TMPDIR`` inside the work directory (a real host's scratch files and the temporary
  folders it names from it stay there, as a hook's do), ``SHELL=/bin/sh``, and the scenario's
  ``env`` last, so it may change any of them;
- coverage's variables, inherited, so ``coverage``'s subprocess patch measures the hooks.

Variables a user may have exported for their real setup (``WAGGLE_*``, ``HERMES_*``,
``HOOKSIM_*``) are not inherited: a scenario's result must not depend on the shell it ran in.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import importlib.util
import json
import os
import py_compile
import shlex
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..hosts import HOSTS, Host, SessionInfo
from ..scenario import Scenario

CHILD_DIR = Path(__file__).with_name("_child")
# Run as a module, not as a file path: ``-I`` keeps the clock start-up and the caller's
# PYTHONPATH out, and a module of the installed package is one coverage measures.
MOCK_BRIDGE = ["-I", "-m", "hooksim.replay.mock_bridge"]
FAKETIME_LIBS = (
    "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/faketime/libfaketime.so.1",
)
# Variables of hooksim's own environment a hook never gets: the hook package's and hooksim's,
# and every one that names a folder of the user's outside the run (the XDG folders, the hosts'
# homes as each profile's ``folder_variables`` names them, the shell's previous and current
# folders), so that a hook run in a throwaway HOME (a scenario, ``fire``, ``lint --probe``)
# finds its defaults there and writes nothing outside.
NOT_INHERITED = (
    "WAGGLE_",
    "HERMES_",
    "HOOKSIM_",
    "FAKETIME",
    "XDG_",
    "OLDPWD",
    "PWD",
    *sorted({name for host in HOSTS.values() for name in host.folder_variables}),
)


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

    @property
    def install(self) -> Path:
        """Where a replay's host stands installed (never created): the folder the paths a host
        derives from its own install (Codex's PATH entries) start from."""
        return self.root / "install"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    @property
    def reads(self) -> Path:
        """Where the hook processes record the files they read (``HOOKSIM_READS``)."""
        return self.root / "reads.log"

    def create(self) -> None:
        for d in (self.home, self.hermes_home, self.project, self.tmp):
            d.mkdir(parents=True, exist_ok=True)
        self.ledger.touch()
        self.reads.touch()

    def files_read(self) -> list[str]:
        """The files the run's hook processes read, outside the run's own folder, each once."""
        try:
            text = self.reads.read_bytes().decode("utf-8", "surrogateescape")
        except OSError:
            return []
        # Each as the file it is (a link's target: a link reads its target's bytes).
        inside = str(self.root.resolve()) + os.sep
        read = {os.path.realpath(p) for p in text.splitlines() if p}
        return sorted(p for p in read if not p.startswith(inside))


def hook_environment(
    scenario: Scenario,
    workspace: Workspace,
    *,
    home_variable: str = "",
    clock: str = "python",
    not_inherited: tuple[str, ...] = NOT_INHERITED,
    inherited: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The variables every hook of one run starts from (see the module's docstring).

    ``clock`` is the clock's driver (``python`` or ``faketime``); ``not_inherited`` the
    prefixes of variables left out of ``inherited`` (default: this process's environment).
    """
    source = os.environ if inherited is None else inherited
    env = {k: v for k, v in source.items() if not k.startswith(not_inherited)}
    env.update(
        HOME=str(workspace.home),
        WAGGLE_MIND_CMD=shlex.join([sys.executable, *MOCK_BRIDGE]),
        HOOKSIM_LEDGER=str(workspace.ledger),
        HOOKSIM_BRIDGE_PLAN=json.dumps(scenario.bridge),
        HOOKSIM_FRAMES=str(workspace.frames),
        HOOKSIM_TEMPORARY_TTL_MS=str(int(scenario.temporary_ttl_s * 1000)),
        HOOKSIM_SCENARIO_DIR=str(scenario.path.resolve().parent),
        HOOKSIM_PYTHON=sys.executable,
        SHELL="/bin/sh",  # what Codex runs hooks with; a scenario's env may name another
        TMPDIR=str(workspace.tmp),
    )
    if home_variable:  # the host's home, named as its profile says (Hermes: HERMES_HOME)
        env[home_variable] = str(workspace.hermes_home)
    if clock == "faketime":
        lib = faketime_library()
        if lib is None:
            raise SetupError(
                f"{scenario.path}: clock driver 'faketime' needs libfaketime"
                " (Debian: apt-get install libfaketime)"
            )
        env["LD_PRELOAD"] = " ".join(filter(None, [lib, env.get("LD_PRELOAD")]))
        env["FAKETIME_TIMESTAMP_FILE"] = str(workspace.clock_file)
        env["FAKETIME_NO_CACHE"] = "1"
    else:
        compile_clock_module()
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(CHILD_DIR), env.get("PYTHONPATH")]))
    with_env(env, scenario.env)
    return env


# The lists of the hooks' environment where hooksim puts its clock (either driver) first.
_CLOCK_FIRST = {"PYTHONPATH": os.pathsep, "LD_PRELOAD": " "}


def with_env(env: dict[str, str], added: Mapping[str, str]) -> None:
    """``added`` (a scenario's ``env``, what a hook set for later hooks) set in ``env``, with
    hooksim's clock kept first where ``env`` has it: our folder on ``PYTHONPATH``, libfaketime
    in ``LD_PRELOAD``. A scenario that puts its hook's modules on ``PYTHONPATH`` keeps the
    virtual clock (and its reads recorded) instead of running its hooks on real time."""
    ours = {str(CHILD_DIR), *FAKETIME_LIBS}
    for key, value in added.items():
        separator = _CLOCK_FIRST.get(key)
        kept = [p for p in env.get(key, "").split(separator) if p in ours] if separator else []
        given = [p for p in value.split(separator) if p and p not in kept] if kept else []
        env[key] = separator.join([*kept, *given]) if separator and kept else value


READS_PRELOAD = CHILD_DIR / "reads.cjs"


@functools.cache
def compile_clock_module() -> None:
    """Write the clock module's compiled form beside it, once a process, where the installed
    package can be written (as Python itself does on import): hooks run with
    PYTHONDONTWRITEBYTECODE=1 and would each compile it again (uv installs no compiled files).
    A folder that cannot be written costs each hook the compile, nothing else."""
    source = str(CHILD_DIR / "sitecustomize.py")
    with contextlib.suppress(OSError, py_compile.PyCompileError):
        compiled = Path(importlib.util.cache_from_source(source))
        if not compiled.exists() or compiled.stat().st_mtime < Path(source).stat().st_mtime:
            py_compile.compile(source, cfile=str(compiled), doraise=True)


def _reads_environment(
    workspace: Workspace, env: Mapping[str, str], scenario: Scenario
) -> dict[str, str]:
    """What makes a replay's Python and Node hook processes record the files they read (for
    ``hooksim run --cache``): ``HOOKSIM_READS``, our ``sitecustomize`` on ``PYTHONPATH`` (with
    the faketime driver too, where it then leaves the clock alone), and ``reads.cjs`` preloaded
    through ``NODE_OPTIONS``. Only the replay's hooks: a real host is never instrumented."""
    python_path = env.get("PYTHONPATH", "")
    compile_clock_module()
    if str(CHILD_DIR) not in python_path.split(os.pathsep):
        python_path = os.pathsep.join(filter(None, [str(CHILD_DIR), python_path]))
    node = " ".join(filter(None, [f'--require "{READS_PRELOAD}"', env.get("NODE_OPTIONS")]))
    added = {"HOOKSIM_READS": str(workspace.reads), "PYTHONPATH": python_path, "NODE_OPTIONS": node}
    if scenario.clock_driver == "faketime":
        added["HOOKSIM_CLOCK"] = "faketime"
    return added


def replay_environment(
    scenario: Scenario, workspace: Workspace, host: Host, record_reads: bool = False
) -> dict[str, str]:
    """The variables every hook of one replay starts from: ``hook_environment``, and with
    ``record_reads`` (``hooksim run --cache``) what records the files the hooks read (see
    ``_reads_environment``)."""
    env = hook_environment(
        scenario, workspace, home_variable=host.home_variable, clock=scenario.clock_driver
    )
    if record_reads:
        env.update(_reads_environment(workspace, env, scenario))
    return env


def records_reads(env: Mapping[str, str]) -> bool:
    """Whether a hook of this environment records what it reads, Python and Node alike."""
    python = str(CHILD_DIR) in env.get("PYTHONPATH", "").split(os.pathsep)
    return python and str(READS_PRELOAD) in env.get("NODE_OPTIONS", "")


class HookEnvironment:
    """The environment of each firing's hooks in one run: ``hook_environment``, then the
    host's own variables for the event, what earlier hooks set for later ones, the scenario's
    ``env``, and the virtual instant (``HOOKSIM_NOW``, or libfaketime's clock file).

    Safe to call from several threads at once (concurrent sessions fire at the same time).
    """

    def __init__(
        self, scenario: Scenario, host: Host, workspace: Workspace, record_reads: bool = False
    ) -> None:
        self.scenario = scenario
        self.host = host
        self.workspace = workspace
        self._lock = threading.Lock()
        self._late_env: dict[str, str] = {}  # set by hooks the host did not wait for
        self.base_env = replay_environment(scenario, workspace, host, record_reads)
        # A scenario (or a hook's late env) that sets these itself leaves reads unrecorded.
        merged = dict(self.base_env)
        with_env(merged, scenario.env)
        self.records_reads = record_reads and records_reads(merged)

    def remember_env(self, env: Mapping[str, str]) -> None:
        """Variables a hook set for later hooks (Cursor's sessionStart ``env``)."""
        with self._lock:
            self._late_env.update(env)

    def env_for(self, event: str, info: SessionInfo, now_ms: int, turn: int) -> dict[str, str]:
        """The environment of every hook of one firing of ``event`` at virtual ``now_ms``."""
        env = dict(self.base_env)
        env.update(self.host.env(event, info))
        with self._lock:
            with_env(env, self._late_env)
        with_env(env, self.scenario.env)
        env.update(HOOKSIM_NOW=f"{now_ms / 1000:.3f}", HOOKSIM_TURN=str(turn), HOOKSIM_EVENT=event)
        if self.records_reads and not records_reads(env):
            self.records_reads = False  # a hook's late env took the recorders away
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
