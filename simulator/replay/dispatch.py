"""Fire one event of one session as the host does, and have the host read what its hooks did.

``Dispatcher.fire`` is what a host's session loop calls for each event: it selects the hooks
bound to the event (matchers, duplicates), spawns them through the ``HookLauncher`` in
parallel or one after another (handing each hook's output on where the host does), runs the
hooks the host does not wait for once the step is over, and asks the host profile to read
each finished hook (block, context, stop, follow-up) into the ``Firing``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..hosts import Firing, HookRun, HookSpec, Host, SessionInfo
from ..hosts.records import fault_of
from .hook_process import HookLauncher
from .result import RunResult
from .workspace import HookEnvironment


@dataclass
class RunningSession:
    """One session of a run: the host's session loop, its ids, where it is on the clock."""

    info: SessionInfo
    label: str  # shown in the timeline when a scenario runs several sessions
    env: dict[str, str]  # added to its hooks' environment (its own bridge plan)
    host_session: Any = None  # the profile's Session, set once ``fire`` can be bound
    turn: int = 0
    now_ms: int = 0
    step: str = ""  # the label of the step now running ("": none)
    # Hooks the host does not wait for, run when the step that fired them is over.
    deferred: list[tuple[partial[None], HookRun]] = field(default_factory=list)


class Dispatcher:
    """Fires events for every session of one run and records them in its result.

    Safe to call from several threads at once: coinciding steps of concurrent sessions fire
    at the same time.
    """

    def __init__(
        self,
        host: Host,
        specs: list[HookSpec],
        environment: HookEnvironment,
        launcher: HookLauncher,
        result: RunResult,
    ) -> None:
        self.host = host
        self.specs = specs
        self.environment = environment
        self.launcher = launcher
        self.result = result
        self._lock = threading.Lock()  # the result's lists, appended to by several sessions

    def record(self, firing: Firing, runs: Sequence[HookRun] = ()) -> None:
        """Add a firing and its hook runs to the result (several sessions may fire at once)."""
        with self._lock:
            self.result.firings.append(firing)
            self.result.runs.extend(runs)

    def fire(
        self,
        state: RunningSession,
        event: str,
        payload: dict[str, Any] | bytes,
        *,
        match: str | None = None,
    ) -> Firing:
        """Spawn the hooks bound to one event of one session as the host does; return the
        host's reading."""
        host = self.host
        wait = event not in host.not_awaited
        stdin = payload if isinstance(payload, bytes) else host.encode(payload)
        fields = payload if isinstance(payload, dict) else {}
        specs = [s for s in self.specs if s.event == event and host.selects(s, match, fields)]
        if host.dedupe:  # an identical hook runs once per source (each plugin's, the settings')
            specs = list({(s.origin, s.command): s for s in reversed(specs)}.values())[::-1]
        turn, now = state.turn, state.now_ms
        firing = Firing(
            turn, event, now, match=match, waited=wait, session=state.label, step=state.step
        )
        runs = [
            HookRun(turn, event, s.command, now, spec=s, stdin=stdin, step=state.step)
            for s in specs
        ]
        self.record(firing, runs)
        if not specs:
            return firing
        env = self.environment.env_for(event, state.info, now, turn)
        env.update(state.env)
        firing.runs = runs
        spawn = self.launcher.spawn
        # Each hook's environment, once: the firing's, then its own variables on top (its
        # plugin's, and its place among all the firing's hooks: Claude Code's env file).
        hooks = [
            (s, r, {**env, **dict(s.env), **host.hook_env(event, n, state.info)})
            for n, (s, r) in enumerate(zip(specs, runs, strict=True))
        ]
        if wait:  # async hooks: started, not awaited
            state.deferred += [
                (partial(spawn, s, stdin, e, r), r) for s, r, e in hooks if s.background
            ]
            hooks = [h for h in hooks if not h[0].background]
            firing.runs = [r for _, r, _ in hooks]
        else:
            firing.effect = (
                f"{host.title} does not wait for {event}; its hooks run after the step's other"
                " hooks"
            )
            state.deferred += [(partial(spawn, s, stdin, e, r), r) for s, r, e in hooks]
            return firing
        self._await(event, stdin, hooks)
        self.read(firing)
        return firing

    def _await(
        self, event: str, stdin: bytes, hooks: list[tuple[HookSpec, HookRun, dict[str, str]]]
    ) -> None:
        """Run the hooks a firing waits for, at once where the host runs them in parallel."""
        host, spawn = self.host, self.launcher.spawn
        if host.parallel and len(hooks) > 1 and not any(s.sequential for s, _, _ in hooks):
            with ThreadPoolExecutor(len(hooks)) as pool:
                list(pool.map(lambda hook: spawn(hook[0], stdin, hook[2], hook[1]), hooks))
            return
        # One after another: the host may hand each hook's output on in the next's input.
        for spec, run, hook_env in hooks:
            run.stdin = stdin
            spawn(spec, stdin, hook_env, run)
            stdin = host.next_input(event, stdin, run)

    def read(self, firing: Firing) -> None:
        """The host reads each finished hook; their verdicts together are the firing's outcome."""
        reasons = []
        for run in firing.runs:
            verdict = self.host.read(firing.event, run)
            run.verdict = verdict.note
            run.fault = fault_of(run, verdict)
            run.context = verdict.context
            run.told, run.shown = verdict.told, verdict.shown
            if verdict.shown is not None:
                firing.shown.append(verdict.shown)
            if verdict.block is not None:
                firing.blocked = True
                reasons.append(verdict.block)
            if verdict.context is not None:
                firing.context.append(verdict.context)
            firing.stop = firing.stop or verdict.stop
            firing.clear = firing.clear or verdict.clear
            if verdict.followup is not None and firing.followup is None:
                firing.followup = verdict.followup
                firing.loop_limit = verdict.loop_limit
            if verdict.updated_input is not None:  # in config order: the last rewrite wins
                firing.updated_input = verdict.updated_input
        firing.reason = self.host.join_reasons(reasons)

    def close(self) -> None:
        """The run is over: nothing of the dispatcher's own is left to stop (each hook process
        ended or was killed with its firing)."""

    def run_deferred(self, state: RunningSession) -> None:
        """Run the hooks the host did not wait for, now that the step that fired them is over.

        The host goes on without them, so the latest they can finish is after everything else
        the step does: hooksim runs them then, one after another, and never races them against
        other hooks. What they set for later hooks (Cursor's ``env``) reaches the next step's
        hooks, as a hook that needs them to have finished first would see on a busy machine.
        """
        while state.deferred:  # what follows from one (a rewake turn) may defer more
            deferred, state.deferred = state.deferred, []
            for job, run in deferred:
                job()
                verdict = self.host.read(run.event, run)
                run.verdict = f"not awaited: {verdict.note}"
                run.fault = fault_of(run, verdict)
                if verdict.env:
                    self.environment.remember_env(verdict.env)
                state.host_session.finished_in_background(run)
