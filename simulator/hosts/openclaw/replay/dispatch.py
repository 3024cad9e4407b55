"""Fire OpenClaw's hooks in hooksim's Node runner, and record each handler call as a hook run.

The ``Dispatcher`` of the other hosts spawns one process per hook; OpenClaw runs its handlers
inside its own process, so this one sends each firing to a Node runner (``node``) that holds
the plugins and ``HOOK.md`` hooks, and turns what it reports into the same ``Firing`` and
``HookRun`` records: one run per handler call (its label, the virtual instant it started,
``exit 0`` when it returned, ``1`` when it threw, a timeout, its output), each read by the
profile (``OpenClaw.read_handler``), and the firing read from the merged result
(``OpenClaw.read_firing``).

One runner serves the gateway (every session of the run); under ``launch: local`` each
session's turn gets a runner of its own, stopped when ``openclaw agent --local`` would exit
(the profile's ``PROCESS_EXIT``), so plugins load anew each turn as they do there.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from typing import Any

from ....replay.dispatch import Dispatcher, RunningSession
from ....replay.hook_process import HookLauncher
from ....replay.result import RunResult
from ....replay.workspace import HookEnvironment, SetupError
from ...profile import Host
from ...records import Firing, HookRun, HookSpec, fault_of
from ..config import loadout
from ..messages import (
    COMPACTION_RUNTIME,
    GATEWAY_EXIT,
    GATEWAY_SHUTDOWN_MS,
    GATEWAY_STOPPING,
    PROCESS_EXIT,
    RELAUNCH,
    js_values,
)
from ..profile import OpenClaw
from .loading import runner_load
from .node import NodeRunner, RunnerError, node_binary


def _given(payload: dict[str, Any] | bytes) -> dict[str, Any]:
    """What the session loop fires: ``{"event", "ctx", "wait"}``; a raw step's exact bytes are
    the event object (JSON), or ``{"raw": TEXT}`` when they are not an object."""
    if not isinstance(payload, bytes):
        return dict(payload)
    text = payload.decode("utf-8", "replace")
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    return {"event": value if isinstance(value, dict) else {"raw": text}, "ctx": {}}


def _exit_code(status: str) -> int | None:
    return {"returned": 0, "threw": 1}.get(status)


class OpenClawDispatcher(Dispatcher):
    """Fires OpenClaw's hooks for every session of one run, in Node runners it starts."""

    def __init__(
        self,
        host: Host,
        specs: list[HookSpec],
        environment: HookEnvironment,
        launcher: HookLauncher,
        result: RunResult,
        *,
        block: Any,
    ) -> None:
        super().__init__(host, specs, environment, launcher, result)
        assert isinstance(host, OpenClaw)
        self.openclaw = host
        scenario = environment.scenario
        if scenario.clock_driver == "faketime":
            raise SetupError(
                f"{scenario.path}: clock driver 'faketime' does not reach OpenClaw's handlers,"
                " which run in hooksim's Node runner on its own virtual clock; drop clock.driver"
            )
        node = node_binary()
        if node is None:
            raise SetupError(
                f"{scenario.path}: tool openclaw runs its plugins in Node.js: no node on PATH"
                " (install Node 20 or later)"
            )
        self.node = node
        base = scenario.path.resolve().parent
        self.loadout = loadout(block if isinstance(block, dict) else {}, base)
        self._launched(host.launch_mode == "local")
        self.runners: dict[str, NodeRunner] = {}  # "" the gateway's; a session label under local
        self.last_at: dict[str, int] = {}
        self.by_tag: dict[str, tuple[HookRun, str]] = {}
        self.handler_specs: dict[tuple[str, str], HookSpec] = {}
        self.starts = 0
        self._runners_lock = threading.Lock()

    def _launched(self, local: bool) -> None:
        """OpenClaw runs as ``agent --local`` (``local``) or a gateway from now on: the plugins
        and HOOK.md hooks such a process loads."""
        host = self.openclaw
        self.local = local
        starts_all = host.local_starts_every_plugin if local else host.gateway_starts_every_plugin
        self.plugins, self.hook_dirs = runner_load(
            self.loadout, hook_dirs=not local or host.hook_dirs_local, gateway=not starts_all
        )

    # --- runners --------------------------------------------------------------------------
    def _runner(self, state: RunningSession) -> NodeRunner:
        key = state.label if self.local else ""
        with self._runners_lock:
            runner = self.runners.get(key)
            if runner is None:
                runner = self.runners[key] = self._start(state)
        return runner

    def _start(self, state: RunningSession) -> NodeRunner:
        """A new runner: the plugins and HOOK.md hooks loaded and registered."""
        self.starts += 1
        env = self.environment.env_for("(openclaw)", state.info, state.now_ms, state.turn)
        log = self.environment.workspace.root / f"openclaw-runner-{self.starts}.log"
        try:
            runner = NodeRunner(self.node, env, self.environment.workspace.project, log)
            reply = runner.call(
                {
                    "op": "init",
                    "rules": self.openclaw.rules(),
                    "plugins": self.plugins,
                    "hookDirs": self.hook_dirs,
                    "config": self.loadout.config,
                    "at": state.now_ms,
                    "tick": self.environment.scenario.clock_tick,
                    "discovery": self._discovery,
                    "process": self.starts,
                }
            )
        except RunnerError as e:
            raise SetupError(f"{self.environment.scenario.path}: openclaw: {e}") from None
        self._registered(reply)
        return runner

    @property
    def _discovery(self) -> int:
        """How many discovery passes call the plugins' register() again in this process."""
        host = self.openclaw
        return host.discovery_passes_local if self.local else host.discovery_passes_gateway

    def _registered(self, reply: Mapping[str, Any]) -> None:
        """What the runner registered: a spec per handler, and OpenClaw's warnings (once)."""
        with self._lock:
            for warning in reply.get("warnings", []):
                if warning not in self.result.warnings:
                    self.result.warnings.append(warning)
            if self.handler_specs:
                return
            for handler in reply.get("handlers", []):
                budget = handler.get("budget_ms") or self.openclaw.budgets_ms.get(handler["event"])
                spec = HookSpec(
                    handler["event"],
                    handler["label"],
                    budget / 1000 if budget else None,
                    ",".join(handler["matcher"]) if handler.get("matcher") else None,
                )
                self.handler_specs.setdefault((handler["event"], handler["label"]), spec)
            self.result.specs = list(self.handler_specs.values()) or self.result.specs

    def close(self) -> None:
        """Every runner still running stops (the end of the run, or an error)."""
        with self._runners_lock:
            runners, self.runners = list(self.runners.values()), {}
        for runner in runners:
            runner.close()

    # --- firing ---------------------------------------------------------------------------
    def fire(
        self,
        state: RunningSession,
        event: str,
        payload: dict[str, Any] | bytes,
        *,
        match: str | None = None,
    ) -> Firing:
        """Run one hook's handlers in the runner as OpenClaw does; the host's reading."""
        data = _given(payload)
        if event.startswith("("):
            return self._pseudo(state, event, data)
        wait = data.get("wait", True) is not False
        runner = self._runner(state)
        back = state.now_ms < self.last_at.get(state.label, state.now_ms)
        self.last_at[state.label] = state.now_ms
        command = {
            "op": "fire",
            "event": event,
            "tool": match,
            "wait": wait,
            "turn": state.turn,
            "at": state.now_ms,
            "back": back,
            "env": state.env,
            "payload": {"event": data.get("event", {}), "ctx": data.get("ctx", {})},
        }
        try:
            reply = runner.call(command)
        except RunnerError as e:
            self.close()
            raise SetupError(f"{self.environment.scenario.path}: openclaw: {event}: {e}") from None
        firing = Firing(
            state.turn,
            event,
            int(reply["now"]),
            match=match,
            waited=wait,
            session=state.label,
            step=state.step,
        )
        stdin = self.openclaw.encode(js_values(data.get("event", {})))
        firing.runs = [self._run(state, event, r, stdin, runner.pid) for r in reply["records"]]
        return self._fired(firing, reply)

    def _fired(self, firing: Firing, reply: dict[str, Any]) -> Firing:
        """The profile's reading of a firing, what OpenClaw logged, and the record of it."""
        event, wait = firing.event, firing.waited
        self.openclaw.read_firing(firing, reply)
        said = [firing.effect] if firing.effect else []
        if not wait and firing.runs:
            said.append(f"OpenClaw does not wait for {event}; its handlers run on")
        if reply.get("settled") == "stuck":
            said.append(
                f"a handler never settles: OpenClaw would wait for {event} for ever;"
                " hooksim goes on"
            )
        said += [f"OpenClaw logs: {line}" for line in reply.get("logs", [])]
        firing.effect = "; ".join(said)
        self._updated(reply)
        self.record(firing, firing.runs)
        return firing

    def _run(
        self, state: RunningSession, event: str, record: dict[str, Any], stdin: bytes, pid: int
    ) -> HookRun:
        spec = self.handler_specs.get((event, record["label"]))
        if "input" in record:  # the event as the handler got it (the runner's copy)
            stdin = self.openclaw.encode(record["input"])
        run = HookRun(
            state.turn,
            event,
            record["label"],
            int(record["started"]),
            spec=spec,
            stdin=stdin,
            pid=pid,
            tag=record["tag"],
            step=state.step,
        )
        self.by_tag[record["tag"]] = (run, event)
        self._apply(run, event, record)
        return run

    def _apply(self, run: HookRun, event: str, record: dict[str, Any]) -> None:
        """A handler's record (again, when it changed after its firing) on its run."""
        status = str(record.get("status"))
        late = record.get("late") or {}
        run.exit_code = _exit_code(status)
        run.timed_out = status == "timed_out"
        run.stdout, run.stderr = record.get("stdout", ""), record.get("stderr", "")
        ended = record.get("ended")
        run.duration_s = (float(ended) - float(record["started"])) / 1000 if ended else 0.0
        verdict = self.openclaw.read_handler(event, record)
        run.verdict, run.fault = verdict.note, fault_of(run, verdict)
        if late and not run.verdict.startswith("timed out"):
            run.verdict += f"; then {late.get('status')}"

    def _updated(self, reply: Mapping[str, Any]) -> None:
        """Handlers that ended after their firing was reported, and uncaught errors."""
        for record in reply.get("updates", []):
            found = self.by_tag.get(record["tag"])
            if found is not None:
                self._apply(found[0], found[1], record)
        with self._lock:
            self.result.warnings += [f"OpenClaw would log: {p}" for p in reply.get("problems", [])]

    def _pseudo(self, state: RunningSession, event: str, data: dict[str, Any]) -> Firing:
        """The end of an OpenClaw process, or a step that fires nothing, with what it did."""
        firing = Firing(
            state.turn,
            event,
            state.now_ms,
            session=state.label,
            step=state.step,
            effect=str(data.get("effect", "")),
        )
        if event in (PROCESS_EXIT, GATEWAY_EXIT):
            firing.effect = self._exit(state, event)
        elif event == GATEWAY_STOPPING and "" in self.runners:
            self._call(self.runners[""], {"op": "quiesce"})
        elif event == RELAUNCH:
            self._launched(bool(data.get("local")))
        elif event == COMPACTION_RUNTIME:
            self._call(self._runner(state), {"op": "discover"})
        if firing.effect:  # a process's end is worth a line only when it changed something
            self.record(firing)
        return firing

    def _exit(self, state: RunningSession, event: str) -> str:
        """The process exits once the work its hooks started has ended: under --local at
        once, a gateway within its shutdown budget (``GATEWAY_SHUTDOWN_MS``)."""
        key = state.label if self.local else ""
        with self._runners_lock:
            runner = self.runners.pop(key, None)
        if runner is None:
            return ""
        waited = ""
        if event == PROCESS_EXIT:
            drain = {"op": "drain", "handlers": self.openclaw.local_exit_waits_for_late_handlers}
            reply = self._call(runner, drain)
            if reply.get("settled") == "stuck":
                waited = "a handler it waits for never settles; hooksim stops it"
        else:
            drain = {"op": "drain", "within": GATEWAY_SHUTDOWN_MS, "handlers": True}
            reply = self._call(runner, drain)
            if reply.get("settled") == "stuck":
                waited = f"its shutdown budget ({GATEWAY_SHUTDOWN_MS // 1000} s) runs out"
        runner.close()
        left = [self.by_tag[tag][0] for tag in reply.get("running", []) if tag in self.by_tag]
        for run in left:  # a handler past its budget has its verdict; one not waited for not yet
            if not run.timed_out:
                run.verdict = f"still running when the process exited ({run.verdict})"
        stopped = f"{len(left)} handler(s) still running stop with it" if left else ""
        return "; ".join(filter(None, [waited, stopped]))

    def _call(self, runner: NodeRunner, command: dict[str, Any]) -> dict[str, Any]:
        """A command besides a firing; what changed meanwhile is applied."""
        try:
            reply = runner.call(command)
        except RunnerError as e:
            self.close()
            raise SetupError(f"{self.environment.scenario.path}: openclaw: {e}") from None
        self._updated(reply)
        return reply

    def run_deferred(self, state: RunningSession) -> None:
        """Nothing waits here: handlers OpenClaw does not await run on in the runner."""


__all__ = ["OpenClawDispatcher"]
