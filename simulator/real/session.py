"""The session loop of a real-host run: a scenario on a real agent CLI, offline, recorded as
hooksim records its replays.

``run_real(scenario, "claude-code", binary)`` starts a fake model server for the host's API on
127.0.0.1 (``model_server``), installs the scenario's hooks into a temporary HOME in the host's
own config format with the recorder (``hook_recorder``) in front of each command and a probe
hook on every event (``wrapping``), drives the host turn by turn without a terminal (its
driver, from ``DRIVERS``), and builds a ``RunResult`` from what happened (``result``). The same
``expect:`` block then judges it, but for ``NOT_JUDGED`` (and a host's ``NOT_JUDGED_ON``).

What a real host cannot be asked to do is said in the run's notes, never silently changed:
virtual time does not reach the host (``after:`` gaps are skipped; the hooks still read the
scenario's clock, which the recorder hands them), raw events cannot be fired, an interrupted
turn runs to its end.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from ..hosts import HOSTS, Host, get_host, part
from ..replay.mock_bridge import temporary_frames
from ..replay.plugins import Installed, install_plugins
from ..replay.project import file_states, seed
from ..replay.result import FileState
from ..replay.runner import own_hooks
from ..replay.workspace import NOT_INHERITED, SetupError, Workspace, hook_environment
from ..scenario import Compact, NewSession, RawEvent, Resume, Scenario, Step, ToolCall, Turn
from .confine import Confinement, available, confinement
from .confine import refusal as unconfined_refusal
from .driver import FULL_CONTEXT_TOKENS, Driver, RealHostError, driver_of
from .hook_recorder import read_records
from .models.reply import ModelScript, Reply, ToolUse
from .models.server import ModelServer
from .result import RealRun, build_result, sent_per_turn
from .tools import refusal
from .wrapping import wrap_hooks, wrap_plugins, wrap_seeded_configs

# Expectations a real run can judge, and those it cannot (they are hooksim's own words).
NOT_JUDGED = {
    "effects": "the host's effects are hooksim's description of its own replay",
    "warnings": "the warnings are hooksim's reading of the hooks config, not the host's output",
}


def not_judged(tool: str) -> dict[str, str]:
    """The expectations a real run of ``tool`` cannot judge, each with the reason: what no
    real run can, and what the host's output does not expose (``Host.real_not_judged``; what
    it shows its user from a hook is read where its output says it, as Claude Code's
    stream-json notices)."""
    return {**NOT_JUDGED, **get_host(tool).real_not_judged}


# Plumbing every hook gets, as in a hooksim run; the recorder adds it if a host drops it.
_PLUMBING = ("WAGGLE_MIND_CMD", "HOOKSIM_", "PYTHONPATH", "TZ", "LD_PRELOAD", "FAKETIME")
# A real host also reads its own vendor's variables: none of the user's may reach it.
_NOT_INHERITED = (*NOT_INHERITED, "ANTHROPIC_", "CLAUDE", "OPENAI_", "CODEX_", "GEMINI_", "GOOGLE_")

# The real hosts hooksim drives, by host name: those whose folder has a ``real`` part.
DRIVERS: dict[str, type[Driver]] = {
    host.name: driver
    for host in sorted(HOSTS.values(), key=lambda h: h.name)
    if (driver := driver_of(host)) is not None
}


def find_binary(host: str, path: str | None) -> str:
    """The host's executable: ``path`` if given (a bare name looked up on PATH), else the
    host's own name on PATH."""
    driver = DRIVERS.get(host)
    if driver is None:
        raise RealHostError(
            f"--real {host}: hooksim drives {', '.join(DRIVERS)} as real hosts, not {host}"
        )
    name = path or driver.binary
    # A bare name is looked up on PATH, as a shell does; a path is taken as it is.
    found = shutil.which(name) if os.sep not in name else name
    if not found:
        raise RealHostError(
            f"--real {host}: no {name!r} on PATH; install {driver.package} or give"
            f" its path as --real {host}=PATH"
        )
    if not os.access(found, os.X_OK):
        raise RealHostError(f"--real {host}: {found} is not an executable file")
    return found


class RealSession:
    """One real run: its mutable state (work directory, script, recordings) and its loop, each
    step handed to the host's driver."""

    def __init__(
        self,
        scenario: Scenario,
        host: Host,
        binary: str,
        workdir: Path,
        *,
        confined: Confinement | None = None,
    ) -> None:
        self.scenario = scenario
        self.confined = confined
        self.host = host
        self.binary = binary
        self.workdir = workdir
        self.workspace = Workspace(workdir)  # home, project, the mock bridge's ledger and frames
        self.home = self.workspace.home
        self.project = self.workspace.project
        self.records_dir = workdir / "records"
        self.ledger = self.workspace.ledger
        self.frames = self.workspace.frames
        self.turn_file = workdir / "turn.json"
        self.spec = workdir / "recorder.json"
        self.tmp = workdir / "tmp"
        for d in (self.home, self.project, self.records_dir, self.tmp):
            d.mkdir(parents=True, exist_ok=True)
        self.ledger.touch()
        # The project's own hooks files run behind the recorder too (the host loads them).
        self.watches = DRIVERS[host.name].watches
        seeded, self.project_hooks = wrap_seeded_configs(
            host, scenario, self.spec, watch=self.watches
        )
        try:  # the scenario's files:, as a replay seeds them; the host works in this project
            seed(seeded, self.workspace)
        except SetupError as e:
            raise RealHostError(str(e)) from None
        self.files: dict[tuple[str, int], FileState] = {}  # expect.files' after their turns
        self.stderr_path = workdir / "host-stderr.txt"
        self.stderr_file: TextIO = self.stderr_path.open("w", encoding="utf-8")
        self.script = ModelScript()
        self.driver = DRIVERS[host.name](self)
        self.notes: list[str] = []
        self.output: list[dict[str, Any]] = []
        self.now_ms = int(scenario.start.timestamp() * 1000)
        self.turn = 0
        self.launch_env: dict[str, str] = {}
        self.plugins: list[Installed] = []  # the scenario's plugins, where the host loads them
        # turn -> the auto compaction step it hosts, and that step's virtual instant
        self.compaction_turn: dict[int, dict[str, int | str]] = {}
        self.calls_made = 0  # the tool calls the fake model made so far (their default ids)

    def environment(self, url: str) -> dict[str, str]:
        """What the host process starts with: every hook's plumbing, as in a replay, and the
        driver's own variables (its config home, the fake model's address)."""
        env = hook_environment(
            self.scenario,
            self.workspace,
            not_inherited=_NOT_INHERITED,
        )
        # The host's own scratch files stay in the work directory.
        env["TMPDIR"] = str(self.tmp)
        env.update(self.driver.env(url))
        return env

    def announce(self, turn: int, step: str = "") -> None:
        """Tell the recorder which turn (and virtual instant) the hooks now starting belong to,
        and the label of their step."""
        self.turn = turn
        announced: dict[str, Any] = {"turn": turn, "now_ms": self.now_ms, "step": step}
        if turn in self.compaction_turn:
            announced["compaction"] = self.compaction_turn[turn]
        self.turn_file.write_text(json.dumps(announced))

    def replies(self, turn: Turn, compacts_next: bool) -> list[Reply]:
        """What the model answers in this turn: each tool call, then the final text."""
        uses = [
            ToolUse(*self.driver.wire_call(c.name, c.args), self.call_id(c)) for c in turn.tools
        ]
        # The calls grouped in responses as the scenario says, else as the profile replays
        # them (all in one response, or one call per response). A response asking for a call
        # with compact: auto reports a full context window: the host compacts once the call is
        # done (Codex: mid-turn).
        calls = [
            Reply(
                tool_calls=tuple(uses[n - 1] for n, _ in response),
                input_tokens=FULL_CONTEXT_TOKENS if any(c.compact for _, c in response) else 100,
            )
            for response in turn.responses(self.host.calls_in_one_response)
        ]
        tokens = FULL_CONTEXT_TOKENS if compacts_next else 100
        if turn.error is not None:
            if turn.error.status is None:
                self.note_once(
                    f"a failed call without a status ({turn.error.cause}) is answered"
                    " with status 500 on a real host"
                )
            return [*calls, Reply(status=turn.error.status or 500)]
        # Then the reply after each continuation a stop hook asks for (the last repeats).
        replies = [turn.assistant or "", *turn.continuations]
        return [*calls, *(Reply(text, input_tokens=tokens) for text in replies)]

    def call_id(self, call: ToolCall) -> str:
        """The id the fake model gives a call: the scenario's, else the host's numbering, which
        runs on through the session as a real model's ids are each call's own."""
        self.calls_made += 1
        return call.id or self.host.tool_id(self.calls_made)

    def run(self) -> RealRun:
        """The scenario on the host, step by step, and what it did as a ``RealRun``."""
        sc = self.scenario
        started = time.monotonic()
        wrapped, hooks = wrap_hooks(self.host, sc.hooks, self.spec, watch=self.watches)
        try:  # installed as a replay installs them, the recorder in front of their hooks
            self.plugins = install_plugins(sc, self.host, self.workspace)
        except SetupError as e:
            raise RealHostError(str(e)) from None
        hooks.update(wrap_plugins(self.host, self.plugins, self.spec, watch=self.watches))
        hooks.update(self.project_hooks)
        with ModelServer(
            self.driver.dialect, self.script, self.workdir / "requests.jsonl"
        ) as server:
            self.launch_env = self.environment(server.url)
            self.write_spec(hooks)
            self.notes += self.driver.install(wrapped)
            if (sc.launch or "interactive") != self.driver.launch:
                self.notes.append(
                    f"{self.host.title} is run {self.driver.launch}, the scenario replays it"
                    f" {sc.launch or 'interactive'}: hosts.{self.host.name}.launch:"
                    f" {self.driver.launch} replays what was run"
                )
            version = self.driver.version()
            self.announce(0)
            self.driver.start()
            try:
                turn_ms, frames = self.steps()
                self.announce(self.turn)
                self.driver.finish()
            finally:
                self.driver.close()
                self.stderr_file.close()
            requests = server.requests()
        records = read_records(self.records_dir)
        self.driver.outcomes(records)
        shown = [(m["turn"], text) for m in self.output if (text := self.driver.shown_to_user(m))]
        result = build_result(sc, self.host, records, requests, self.ledger, shown=shown)
        result.turn_ms, result.temporary_frames, result.workdir = turn_ms, frames, self.workdir
        result.conversations = sent_per_turn(self.driver.dialect, requests)
        result.files = {**self.files, **file_states(sc, self.workspace)}
        return RealRun(
            result,
            records,
            requests,
            self.notes,
            version,
            time.monotonic() - started,
            self.launch_env,
            self.output,
        )

    def confine(self, argv: list[str]) -> list[str]:
        """A host process's argv, inside the run's confinement (``confine``) if it has one."""
        return argv if self.confined is None else self.confined.argv(argv)

    def write_spec(self, hooks: dict[str, dict[str, Any]]) -> None:
        """What the recorder reads (``hook_recorder``): the original commands by id, where to
        record, where the turn is announced, and the plumbing every hook gets."""
        plumbing = {k: v for k, v in self.launch_env.items() if k.startswith(_PLUMBING)}
        self.spec.write_text(
            json.dumps(
                {
                    "hooks": hooks,
                    "record_dir": str(self.records_dir),
                    "turn_file": str(self.turn_file),
                    "env": plumbing,
                    "compaction_events": [
                        e
                        for e in (self.host.events["pre_compact"], self.host.events["post_compact"])
                        if e
                    ],
                    "session_start_event": self.host.events["session_start"]
                    if self.driver.compact_session_start_in_step
                    else None,
                }
            )
        )

    def steps(self) -> tuple[dict[int, int], dict[int, int]]:
        """Every step on the host, in order; each numbered step's virtual instant, and the
        mock bridge's temporary frames after it."""
        turn_ms: dict[int, int] = {}
        frames: dict[int, int] = {}
        numbered = self.scenario.numbered_steps
        for i, (number, step) in enumerate(numbered):
            following = numbered[i + 1][1] if i + 1 < len(numbered) else None
            self.now_ms += int(step.after_s * 1000)
            if step.after_s:
                self.note_once(
                    "after: gaps are not waited for on a real host; the hooks read the"
                    " scenario's virtual clock (the recorder hands it to them)"
                )
            if number:
                turn_ms[number] = self.now_ms
            self.step(number, step, following)
            if number:
                frames[number] = temporary_frames(self.frames)
                self.files.update(file_states(self.scenario, self.workspace, number))
        return turn_ms, frames

    def note_once(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def step(self, number: int, step: Step, following: Step | None) -> None:
        if isinstance(step, Turn):
            self.announce(number, step.label)
            compacts_next = isinstance(following, Compact) and following.trigger == "auto"
            self.script.set_turn(number, self.replies(step, compacts_next))
            if step.interrupted:
                self.note_once(
                    f"turn {number}: a real host is not interrupted; the turn runs to its end"
                )
            if any(c.name == self.host.shell_tool and not c.run for c in step.tools):
                self.note_once(
                    f"{self.host.title}'s shell tool runs every command it is not refused: a"
                    " shell call without run: true runs here too, where the replay gives it its"
                    " scripted result"
                )
            self.driver.send(step.user)
        elif isinstance(step, Compact):
            self.compact(number, step)
        elif isinstance(step, NewSession):
            self.announce(0, step.label)  # as in hooksim, /new is not a turn
            self.driver.new_session()
        elif isinstance(step, Resume):
            self.announce(0, step.label)  # nor is a resume: its SessionEnd and SessionStart
            self.driver.resume()
        elif isinstance(step, RawEvent):
            self.note_once(f"turn {number}: a raw event cannot be fired on a real host; skipped")

    def compact(self, number: int, step: Compact) -> None:
        """``/compact`` (manual); auto: the previous reply reported a full context window, so
        the host compacts before its next model request, and those events count here."""
        index = next(i for i, (n, _) in enumerate(self.scenario.numbered_steps) if n == number)
        previous = self.scenario.numbered_steps[index - 1][1] if index else None
        later = [n for n, s in self.scenario.numbered_steps[index + 1 :] if isinstance(s, Turn)]
        if step.trigger == "auto" and isinstance(previous, Turn) and later:
            self.compaction_turn[later[0]] = {
                "turn": number,
                "now_ms": self.now_ms,
                "step": step.label,
            }
            self.note_once(
                f"turn {number}: auto compaction is forced by the usage the fake model reports;"
                f" {self.host.title} compacts inside turn {later[0]}, before its model request,"
                " and those events are counted at this step"
            )
            return
        if step.trigger == "auto":
            self.note_once(
                f"turn {number}: no turn before and after to force an auto compaction;"
                " sent /compact (manual) instead"
            )
        if self.driver.launch == "exec":
            self.note_once(
                f"turn {number}: {self.host.title} run as exec has no /compact; the"
                " manual compaction is skipped"
            )
            return
        self.announce(number, step.label)
        self.script.set_turn(number, [])
        self.driver.send(f"/compact {step.instructions}".strip())


def with_hooks(scenario: Scenario, host: Host) -> Scenario:
    """The scenario with the hooks it runs: its own, or on Hermes those ``hermes-hooks install``
    writes (as ``hooksim run`` does)."""
    if scenario.hooks is not None or scenario.plugins:
        return scenario
    own = own_hooks(scenario, host)  # the host's default hooks, or the project's own files
    if own is not None:
        return replace(scenario, hooks=own[0])
    raise RealHostError(f"{scenario.path}: no hooks for {host.name}: add hosts.{host.name}.hooks")


def run_real(
    scenario: Scenario,
    tool: str,
    binary: str | None = None,
    *,
    keep_workdir: bool = False,
    unconfined: bool = False,
) -> RealRun:
    """Run one scenario on the real ``tool`` (its binary at ``binary``, else on PATH), confined
    (``confine``) unless ``unconfined``; without confinement, it refuses before anything runs."""
    path = find_binary(tool, binary)
    host = get_host(tool)
    scenario = scenario.on(tool)
    host = scenario.profile(host)
    scenario = with_hooks(scenario, host)
    refused = refusal(scenario, host)
    if refused:
        raise RealHostError(refused)
    if not unconfined and available() is None:
        raise RealHostError(unconfined_refusal(scenario, host.title))
    workdir = Path(tempfile.mkdtemp(prefix="hooksim-real-"))
    try:
        confined = None if unconfined else confinement(workdir)
        own_run = getattr(part(host, "real"), "run", None)
        if own_run is not None:  # its hooks live in its process (OpenClaw): a run of its own
            real: RealRun = own_run(scenario, host, path, workdir, confined=confined)
        else:
            real = RealSession(replace(scenario), host, path, workdir, confined=confined).run()
        if confined is None:
            real.notes.append(
                "unconfined (--unconfined): the host and its tools ran on this machine"
            )
        if keep_workdir:
            real.result.workdir = workdir
        return real
    finally:
        if not keep_workdir:
            shutil.rmtree(workdir, ignore_errors=True)
