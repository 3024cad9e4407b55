"""Run one scenario: drive its session through the host profile, record what happened.

Each scenario gets its own work directory with a temporary HOME (and HERMES_HOME); nothing
touches the real home. The host profile (``hooksim.hosts``) decides which events fire and
what their payloads are; this module fires them as that host does (in parallel or one after
another, awaited or not), has ``hooksim.replay.hook_process`` spawn each hook (argv, environment,
virtual clock, timeout and kill), hands every finished process back to the profile to read,
and records it all.
"""

from __future__ import annotations

import itertools
import json
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from .. import beneath
from ..hosts import (
    ConfigError,
    Firing,
    Host,
    SessionInfo,
    UnknownHost,
    get_host,
    part,
)
from ..hosts.records import ToolRun
from ..scenario import Compact, Scenario, ScheduledStep, SessionPlan, ToolCall, Turn
from . import sweep
from .attribution import attribute
from .dispatch import Dispatcher, RunningSession
from .hook_process import HookLauncher
from .mock_bridge import read_ledger, temporary_frames
from .plugins import install_plugins, plugin_hooks
from .project import Place, file_states, project_hooks, run_tool, seed, seeds_hooks
from .result import RunResult
from .transcript import transcript_for
from .workspace import HookEnvironment, SetupError, Workspace, faketime_library

__all__ = [
    "CONFIG_NOTE",
    "RunResult",
    "ScenarioRun",
    "SetupError",
    "faketime_library",
    "load_hooks_config",
    "run_scenario",
]


CONFIG_NOTE = "--hooks-config "  # how the notes about a --hooks-config file begin


def in_process_dispatcher(host: Host) -> Any:
    """The dispatcher of a host whose hooks run inside its own process: its folder's
    ``replay`` part hands them to a runner of their language (OpenClaw's Node runner)."""
    replay = part(host, "replay")
    if replay is None:
        raise SetupError(
            f"{host.title}: its hooks run in its own process, and its folder has no replay for them"
        )
    return replay.DISPATCHER


def load_hooks_config(path: str | Path, host: Host, *, parse: bool = True) -> Any:
    """The hooks of a host's own config file (``config.yaml``, ``settings.json``, ...): a
    regular file (a FIFO or a device is refused before it is read). ``parse`` False: only that
    it can be read."""
    try:
        beneath.check_regular(Path(path))
        return host.load_config(Path(path)) if parse else None
    except (ConfigError, beneath.Refused) as e:
        raise SetupError(str(e)) from None
    except (RecursionError, MemoryError):  # a deep nesting: the stack, or the memory it takes
        raise SetupError(f"{path}: nested too deeply to read") from None
    except OSError as e:
        raise SetupError(f"{path}: {e.strerror or e}") from None


def _session_env(plan: SessionPlan) -> dict[str, str]:
    """What one of several sessions adds to its hooks' environment: its name for the mock
    bridge, and its own bridge plan if it has one."""
    env = {"HOOKSIM_SESSION": plan.id}
    if plan.bridge is not None:
        env["HOOKSIM_BRIDGE_PLAN"] = json.dumps(plan.bridge)
    return env


def _clock_of(state: RunningSession) -> int:
    return state.now_ms


class ScenarioRun:
    """The mutable state of one run; ``run()`` returns the recorded result.

    A scenario with ``sessions:`` runs them on one virtual clock, as a gateway serving several
    chats does: steps of different sessions that start at the same instant run at the same
    time, each session in its own thread, so their hooks are real processes running at once.
    """

    def __init__(
        self,
        scenario: Scenario,
        hooks_block: Any,
        workdir: Path,
        host: Host,
        source: str = "",
        *,
        record_reads: bool = False,
    ) -> None:
        self.scenario = scenario
        self.host = host
        specs, warnings = host.parse_hooks(hooks_block)
        # Where the block came from ("": the scenario's own hooks), for messages to name.
        if source:
            specs = [replace(s, source=source, layer="config") for s in specs]
        self.specs = specs
        self.result = RunResult(
            scenario, warnings=warnings, workdir=workdir, host_title=host.title, specs=self.specs
        )
        self.workspace = Workspace(workdir)
        self.workspace.create()
        self.project = self.workspace.project
        seed(scenario, self.workspace)
        mine, said = project_hooks(host, scenario, self.workspace, after=len(self.specs))
        self.specs = self.result.specs = [*self.specs, *mine]
        self.result.warnings += said
        more, said = plugin_hooks(
            host, install_plugins(scenario, host, self.workspace), self.workspace
        )
        self.specs = self.result.specs = host.with_plugins(self.specs, more)
        self.result.warnings += said
        self.result.notes = host.notes(self.specs)
        self.environment = HookEnvironment(scenario, host, self.workspace, record_reads)
        self.launcher = HookLauncher(host, self.workspace)
        self.dispatcher = (
            in_process_dispatcher(host)(
                host, self.specs, self.environment, self.launcher, self.result, block=hooks_block
            )
            if host.in_process
            else Dispatcher(host, self.specs, self.environment, self.launcher, self.result)
        )
        self.start_ms = int(scenario.start.timestamp() * 1000)
        self._fired: Counter[str] = Counter()  # events fired so far, by session label
        self.sessions = self._sessions()

    def _sessions(self) -> list[RunningSession]:
        sc, host = self.scenario, self.host
        process: dict[str, Any] = {}  # one host process serves every session of the run
        if "max_verify_nudges" in sc.session:  # Hermes' agent.max_verify_nudges
            process["max_verify_nudges"] = sc.session["max_verify_nudges"]
        default_model = host.default_model
        plans: list[tuple[str, str, str, str | None, str | None, str, dict[str, str]]]
        if not sc.sessions:
            single = sc.session
            plans = [
                (
                    "",
                    single.get("id", "session-1"),
                    single.get("platform", "cli"),
                    single.get("model"),
                    single.get("cwd"),
                    single.get("sender", ""),
                    {},
                )
            ]
        else:
            plans = [
                (p.id, p.id, p.platform, p.model, p.cwd, p.sender, _session_env(p))
                for p in sc.sessions
            ]
        sessions = []
        for k, (label, sid, platform, model, cwd, sender, env) in enumerate(plans):
            transcript = self.workspace.root / f"transcript{f'-{k + 1}' if label else ''}.jsonl"
            state = RunningSession(
                SessionInfo(
                    cwd=cwd or str(self.project),
                    session_id=sid,
                    model=model or default_model,
                    platform=platform,
                    transcript_path=str(transcript),
                    now_ms=lambda: 0,
                    sender_id=sender,
                    provider=str(sc.session.get("provider", "")),
                    process=process,
                    home=str(self.workspace.home),
                    env=self.environment.base_env,
                    install=str(self.workspace.install),
                ),
                label,
                env,
                now_ms=self.start_ms,
            )
            state.info.now_ms = partial(_clock_of, state)
            state.info.run_tool = partial(self._run_tool, state)
            transcript_for(host, state.info, self.workspace.hermes_home)
            state.host_session = host.session(state.info, partial(self._fire, state))
            sessions.append(state)
        return sessions

    def _fire(
        self,
        state: RunningSession,
        event: str,
        payload: dict[str, Any] | bytes,
        *,
        match: str | None = None,
    ) -> Firing:
        """One event, fired as the host does; the context its hooks gave joins the session's
        conversation, beside the dialogue (a block the session goes on with is the host's to
        say, in its own words)."""
        firing = self.dispatcher.fire(state, event, payload, match=match)
        self._fired[state.label] += 1  # a session's steps run on one thread at a time
        for text in firing.context:
            state.info.conversation.context(event, text)
        return firing

    def _run_tool(self, state: RunningSession, call: ToolCall) -> ToolRun:
        """A tool call the host lets through, run on the project (``project.run_tool``); a
        shell call's environment is its hooks' at that instant."""
        info = state.info
        return run_tool(
            self.host,
            call,
            Place(self.project, self.workspace.home, info.cwd),
            lambda: self.environment.env_for("(tool)", info, state.now_ms, state.turn),
        )

    @property
    def base_env(self) -> dict[str, str]:
        """The environment every hook of this run starts from."""
        return self.environment.base_env

    def run(self) -> RunResult:
        # A step's clock_back moves the clock from that step on: one set back without an after
        # is an instant of its own, after the step before it.
        groups = itertools.groupby(self.scenario.schedule, key=lambda s: (s.offset_s, s.clock_s))
        for instant, ((_, clock_s), group) in enumerate(groups):
            steps = list(group)
            now = self.start_ms + int(clock_s * 1000)
            by_session: dict[int, list[ScheduledStep]] = {}
            for item in steps:
                by_session.setdefault(item.session, []).append(item)
                if item.turn:
                    self.result.turn_ms[item.turn] = now
            jobs = [
                partial(self._steps, self.sessions[k], items, now)
                for k, items in by_session.items()
            ]
            if len(jobs) == 1:
                jobs[0]()
            else:  # coinciding steps of several sessions: at the same time, as a gateway does
                meet = self.workspace.root / f"meet-{instant}"
                meet.mkdir()
                jobs = [
                    partial(self._meeting, self.sessions[k], job, meet, len(jobs))
                    for k, job in zip(by_session, jobs, strict=True)
                ]
                with ThreadPoolExecutor(len(jobs)) as pool:
                    list(pool.map(lambda job: job(), jobs))
            for item in steps:
                if item.turn:
                    self.result.temporary_frames[item.turn] = temporary_frames(
                        self.workspace.frames
                    )
        for state in self.sessions:
            state.step = ""  # quitting is no step of the scenario's
            state.host_session.exit()
            self.dispatcher.run_deferred(state)
        self.dispatcher.close()
        self.launcher.kill_leftovers()
        self.result.files.update(file_states(self.scenario, self.workspace))
        self.result.leaks = list(self.launcher.leaks.found)
        self.result.leak_detection = self.launcher.leaks.available
        return self._collect()

    def _meeting(
        self, state: RunningSession, job: Callable[[], None], meet: Path, count: int
    ) -> None:
        """One session's steps at an instant others share; its mark in ``meet`` when they end
        (the mock bridge's ``meet`` outcome waits for every session's mark or call)."""
        mark = str(self.sessions.index(state))
        state.env.update(
            HOOKSIM_MEET=str(meet), HOOKSIM_MEET_COUNT=str(count), HOOKSIM_MEET_AS=mark
        )
        try:
            job()
        finally:
            for key in ("HOOKSIM_MEET", "HOOKSIM_MEET_COUNT", "HOOKSIM_MEET_AS"):
                state.env.pop(key, None)
            (meet / mark).touch()

    def _steps(self, state: RunningSession, items: list[ScheduledStep], now: int) -> None:
        """One session's steps at one instant, in order."""
        for item in items:
            step = item.step
            state.now_ms, state.turn, state.step = now, item.turn, step.label
            state.info.conversation.turn = item.turn
            fired_before = self._fired[state.label]
            state.host_session.step(step)
            self.dispatcher.run_deferred(state)
            if item.turn:
                self.result.files.update(file_states(self.scenario, self.workspace, item.turn))
            if isinstance(step, Compact) and self._fired[state.label] == fired_before:
                self.dispatcher.record(
                    Firing(
                        item.turn,
                        f"(compact {step.trigger})",
                        now,
                        session=state.label,
                        effect=f"{self.host.title} fires no hook event for a compaction",
                    )
                )

    def _collect(self) -> RunResult:
        """What the mock bridge saw and the state file the hook left, added to the result."""
        ws = self.workspace
        try:
            self.result.calls = read_ledger(ws.ledger.read_text(encoding="utf-8"))
        except ValueError as e:
            raise SetupError(str(e)) from None
        attribute(self.result.calls, self.result.runs)
        self.result.reads = ws.files_read()
        self.result.reads_recorded = self.environment.records_reads
        self.result.state_file = self.host.hook_state(ws.hermes_home)
        for session in self.sessions:  # what the model was sent at each turn
            self.result.conversations.update(session.info.conversation.sent)
        return self.result


def _hooks_block(
    scenario: Scenario, host: Host, hooks_config: str | Path | None
) -> tuple[Any, str, list[str]]:
    """The hooks block the run registers, where it came from ("": the scenario), and notes.

    A config file stands in for the hooks a scenario does not name (on Hermes, the installed
    entries); a scenario's own hooks are part of what it tests, so they stay.
    """
    source, said = "", []
    if scenario.hooks is not None:
        block: Any = scenario.hooks
    elif hooks_config is not None:
        try:  # it stands in for the settings' hooks; a plugin's hooks are the plugin's own
            block, source = load_hooks_config(hooks_config, host), str(hooks_config)
        except SetupError as e:
            if not scenario.plugins:
                raise SetupError(f"{e} (read as {host.title}'s hooks config)") from None
            block = {}
            said.append(
                f"{CONFIG_NOTE}{hooks_config} was read for {host.title} and is not one"
                f" of its hooks configs ({' '.join(str(e).split())}); those scenarios ran"
                " their plugins alone"
            )
    elif (own := own_hooks(scenario, host)) is not None:
        block, source = own
    else:
        raise SetupError(f"{scenario.path}: {no_hooks(host)}")
    return block, source, said


def own_hooks(scenario: Scenario, host: Host) -> tuple[Any, str] | None:
    """The hooks block a run of ``scenario`` on ``host`` registers when no config file stands
    in, and where it comes from ("": the scenario): its own hooks; the host's default hooks
    (Hermes: what hermes-hooks install writes); none of the settings' where its plugins or
    the project's own hooks files bring them. None: it has no hooks to run there."""
    if scenario.hooks is not None:
        return scenario.hooks, ""
    installed = host.default_hooks()
    if installed is not None:
        return installed
    if scenario.plugins or seeds_hooks(host, scenario):
        return {}, ""
    return None


def no_hooks(host: Host) -> str:
    """What a scenario with no hooks for ``host`` is told to add."""
    return (
        f"no hooks for {host.name}: add hosts.{host.name}.hooks to the scenario (or hooks: when"
        f" it is the scenario's tool), or pass --hooks-config with a {host.title} config file"
    )


def run_scenario(
    scenario: Scenario,
    *,
    tool: str | None = None,
    host: Host | None = None,
    hooks_config: str | Path | None = None,
    keep_workdir: bool = False,
    workdir_root: str | Path | None = None,
    record_reads: bool = False,
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
    try:
        host = scenario.profile(host)
    except ValueError as e:
        raise SetupError(f"{scenario.path}: {e}") from None
    between = [
        n
        for n, step in scenario.numbered_steps
        if isinstance(step, Turn) and any(call.compact for call in step.tools)
    ]
    if between and not host.compacts_mid_turn:
        raise SetupError(
            f"{scenario.path}: turn {between[0]}: tools: [{{compact: auto}}]: {host.title}"
            " compacts between turns only; give the compaction as a step ({compact: auto})"
        )
    block, source, said = _hooks_block(scenario, host, hooks_config)
    workdir = Path(tempfile.mkdtemp(prefix=sweep.PREFIX, dir=workdir_root))
    if not keep_workdir:  # a folder kept for the user is the user's: no sweep removes it
        sweep.mark(workdir)
    run = None
    try:
        run = ScenarioRun(scenario, block, workdir, host, source, record_reads=record_reads)
        run.launcher.keep_output = keep_workdir
        run.result.notes += said
        return run.run()
    except BaseException:
        if run is not None:  # a run that stopped halfway leaves no process of its hooks behind
            run.launcher.kill_leftovers()
        raise
    finally:
        if not keep_workdir:
            shutil.rmtree(workdir, ignore_errors=True)
