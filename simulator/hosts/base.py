"""What every host profile states, and the pieces several hosts share.

A host profile is one small module with a ``Host`` subclass. Its class attributes state the
facts (which event sits at each lifecycle point, shell or exec, parallel or not, default
timeouts, which events a hook can block, the stop-loop cap); its methods state the behaviour:
how the host's config file lists hooks, what a payload looks like (in the profile's
``Session``), and how the host reads a hook's exit code and output. The runner knows none of
this: it spawns what the profile asks for and hands each finished process back to it.

The same attributes feed the lifecycle table in README (``hooksim hosts``), so the
table cannot drift from what hooksim does.
"""

from __future__ import annotations

import difflib
import json
import re
import shutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..steps import Compact, NewSession, RawEvent, Resume, Step, ToolCall, Turn
from .conversation import Conversation
from .sources import Fact

if TYPE_CHECKING:
    from .transcript import Transcript

# The lifecycle points every host is described by, in session order.
LIFECYCLE = (
    "session_start",
    "prompt_submit",
    "pre_tool",
    "post_tool",
    "stop",
    "pre_compact",
    "post_compact",
    "session_end",
)
# A host without a cap on blocked stops would loop for ever; hooksim ends such a loop here and
# says so in the run's effects.
SAFETY_LOOP_LIMIT = 50


class ConfigError(Exception):
    """A host config file hooksim cannot read; ``str()`` names the file and what is wrong."""


@dataclass(frozen=True)
class HookSpec:
    """One configured command hook, in the host-neutral form the runner spawns."""

    event: str
    command: str
    timeout_s: float | None = None  # None: the host's default for the event
    matcher: str | None = None  # None: matches every firing of the event
    sequential: bool = False  # Gemini CLI: this group's hooks run one after another
    loop_limit: int | None = None  # Cursor's stop hooks: follow-ups allowed (None: no cap)
    fail_closed: bool = False  # Cursor: a crash or timeout blocks instead of failing open
    args: tuple[str, ...] | None = None  # Claude Code's exec form: argv, no shell
    shell: str | None = None  # Claude Code's ``shell`` field: the shell to run ``command`` with
    background: bool = False  # ``async: true``: the host starts it and does not wait
    rewake: bool = False  # Claude Code's ``asyncRewake``: in the background, exit 2 wakes the model
    shared_timeout_s: float | None = None  # a budget the event's hooks share (Claude SessionEnd)
    condition: str | None = None  # Claude Code's ``if`` (permission rule syntax)
    order: int = 0  # its place among all the hooks, as the host numbers them (Codex's run ids)
    # A plugin's (extension's) hook: where the host loaded the plugin from ("": a settings
    # hook), and the variables the host adds to its environment for that plugin.
    origin: str = ""
    env: tuple[tuple[str, str], ...] = ()
    # Where its config entry is: the file ("": the scenario's hooks block), the keys that lead
    # to the entry inside the hooks block (``("PreToolUse", 0, "hooks", 1)``), and its line
    # when known (0: look it up in ``source`` by ``where``).
    source: str = ""
    where: tuple[str | int, ...] = ()
    line: int = 0
    # The settings layer it comes from: "" the scenario's hooks (the user's settings);
    # "project" a project file the scenario seeds (``Host.project_configs``); "config" a file
    # standing in for the scenario's hooks (``--hooks-config``, Hermes' installed entries).
    layer: str = ""


@dataclass(frozen=True)
class PluginHooks:
    """One hooks block of a plugin, where its file holds it: ``file`` (relative to the plugin's
    folder), ``index`` (the manifest's ``hooks`` list item it is; None: the file's own)."""

    file: str
    index: int | None
    block: Any  # as written; the host substitutes its variables when it loads the plugin


@dataclass(frozen=True)
class Plugin:
    """A plugin (Claude Code) or extension (Gemini CLI) folder, as its manifest names it."""

    name: str
    source: Path  # the folder the scenario names
    hooks: tuple[PluginHooks, ...]
    warnings: tuple[str, ...] = ()  # what of it the host would not load, or hooksim cannot run


@dataclass
class HookRun:
    """One hook process: what ran, when (virtual), how it ended, and how the host read it."""

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
    context: str | None = None  # what the host would give the model from this hook
    told: str | None = None  # its block or follow-up, as the model gets it if the session goes on
    shown: str | None = None  # what the host shows the user from this hook
    verdict: str = ""  # the host's reading, e.g. "block: reason", "error (fails open)"
    spec: HookSpec | None = None
    stdin: bytes = b""  # the payload bytes the hook received
    pid: int | None = None  # the hook's process id, to attribute its bridge calls
    tag: str = ""  # an in-process handler's id (OpenClaw), which its bridge calls carry
    step: str = ""  # the label of the step it ran in ("": none)
    fault: str | None = None  # how it went wrong, as the host counts it (``FAULTS``)


# How a hook run can go wrong for the host (``Verdict.fault``, ``HookRun.fault``):
FAULTS = {
    "failed": "the host counts it as failed",  # a crash, a non-zero exit it does not read
    "timed_out": "killed by its timeout",
    "refused": "output the host refuses or ignores",  # invalid JSON, a refused schema, ...
}
TRACEBACK = "Traceback (most recent call last):"
# Python's first words on stderr when it cannot open the script it was given (it exits 2).
PYTHON_CANNOT_OPEN = re.compile(r"(?:\S*/)?(?P<who>python[\d.]*): can't open file ")


def fault_of(run: HookRun, verdict: Verdict) -> str | None:
    """How a finished hook went wrong (a key of ``FAULTS``), or None: what the profile's
    reading says (``Verdict.fault``), after a timeout or a spawn error, and a Python traceback
    on stderr whatever the exit."""
    if run.timed_out:
        return "timed_out"
    if run.spawn_error:
        return "failed"
    if verdict.fault is not None:
        return verdict.fault
    return "failed" if TRACEBACK in run.stderr else None


@dataclass
class Verdict:
    """How a host reads one finished hook process."""

    note: str = "ok"
    block: str | None = None  # a block the host honours, with its reason
    context: str | None = None
    stop: bool = False  # ``continue: false``: the host stops the agent
    followup: str | None = None  # the turn goes on with this (Cursor's follow-up message)
    loop_limit: int | None = None
    env: dict[str, str] | None = None  # variables for later hooks (Cursor's sessionStart)
    updated_input: dict[str, Any] | None = None  # a pre-tool hook's rewrite of the tool's input
    clear: bool = False  # the host empties the conversation if it stops or retries (Gemini CLI)
    # The block (or follow-up) as the host hands it to the model, in the host's own wrapping,
    # when the session goes on with it (``Session.deliver``): a denied tool's result, a
    # blocked stop's continuation prompt. None: this block never reaches the model.
    told: str | None = None
    shown: str | None = None  # what the host shows the user from this hook, in its words
    fault: str | None = None  # the hook failed, or its output was refused (``FAULTS``)


@dataclass
class Firing:
    """One event the host fired: how many hooks ran, and what the host did with their results."""

    turn: int
    event: str
    virtual_ms: int
    match: str | None = None
    waited: bool = True
    blocked: bool = False
    reason: str = ""
    # Every text the host hands the model because of the hooks, in the host's own wrapping:
    # their context, and (once delivered) a block reason, a retry prompt, a follow-up.
    context: list[str] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)  # what the host shows the user from them
    stop: bool = False
    followup: str | None = None
    loop_limit: int | None = None
    effect: str = ""  # what the host did because of the hooks, in words
    cut: int = 0  # > 0: a loop the host would not end, cut by hooksim after this many in a row
    runs: list[HookRun] = field(default_factory=list)
    session: str = ""  # the session it belongs to, when a scenario runs several at once
    updated_input: dict[str, Any] | None = None  # the tool input a hook rewrote (the last wins)
    result: Any = None  # an in-process host's merged result of its handlers (OpenClaw)
    step: str = ""  # the label of the step it fired in ("": none), for expectations to name
    clear: bool = False  # a hook asked the host to empty the conversation (Gemini CLI)
    cleared: bool = False  # and the host did: the model starts over from here

    @property
    def continued(self) -> bool:
        """The hooks blocked the event, or (Cursor) asked for a follow-up turn."""
        return self.blocked or self.followup is not None


class Fire(Protocol):
    """The runner's side: fire one event, spawn its hooks, return the host's reading of them."""

    def __call__(
        self, event: str, payload: dict[str, Any] | bytes, *, match: str | None = None
    ) -> Firing: ...


@dataclass(frozen=True)
class ToolRun:
    """What running one tool call did to the world around the hooks."""

    effect: str = ""  # what changed, in words ("": nothing worth saying)
    result: str | None = None  # the tool's output when it really ran; None: the scripted result


RunTool = Callable[[ToolCall], ToolRun]
"""Runs a tool call the host lets through (its input as the host runs it) in the replay's
project: file tools change files, a ``run: true`` shell call runs."""


@dataclass
class SessionInfo:
    """What a scenario says about the session: ids, model, working directory."""

    cwd: str
    session_id: str
    model: str
    platform: str
    transcript_path: str
    now_ms: Callable[[], int]
    sender_id: str = ""  # the user id a gateway platform reports
    home: str = ""  # the HOME the host runs with (where its own state folders are)
    # State of the host process, shared by every session it serves (Hermes: the variables it
    # sets in its own environment, which every hook inherits).
    process: dict[str, Any] = field(default_factory=dict)
    # Where the tools the host lets through take effect (the replay's project); None: nowhere.
    run_tool: RunTool | None = None
    # The environment the host process was started with (what it derives variables from), and
    # the folder it stands installed in (a replay's stand-in: paths from its own install).
    env: Mapping[str, str] = field(default_factory=dict)
    install: str = ""
    # What was said so far (``conversation``): the session loop adds to it as it goes.
    conversation: Conversation = field(init=False)

    def __post_init__(self) -> None:
        self.conversation = Conversation(self._clock)

    def _clock(self) -> int:
        """The virtual instant, as ``now_ms`` says it when asked (the runner sets it later)."""
        return self.now_ms()


class Session:
    """One host's session loop: turns one scenario step into the events that host fires."""

    def __init__(self, host: Host, info: SessionInfo, fire: Fire) -> None:
        self.host = host
        self.info = info
        self.fire = fire
        self.launched = False
        self.sessions = 1
        self.ran: dict[int, ToolCall] = {}  # the turn's tool calls as run, by number (from 1)
        self.calls_made = 0  # the session's tool calls so far, which its default ids number

    @property
    def said(self) -> Conversation:
        """The session's conversation, which the loop adds to as things are said."""
        return self.info.conversation

    def ev(self, point: str) -> str | None:
        """The host's event at a lifecycle point (None: the host has none)."""
        return self.host.events[point]

    def step(self, step: Step) -> None:
        if isinstance(step, Turn):
            self.turn(step)
        elif isinstance(step, NewSession):
            self.new_session(step)
        elif isinstance(step, Compact):
            self.compact(step)
        elif isinstance(step, Resume):
            self.resume(step)
        else:
            self.raw(step)

    def turn(self, turn: Turn) -> None:
        raise NotImplementedError

    def compact(self, step: Compact) -> None:
        raise NotImplementedError

    def new_session(self, step: NewSession) -> None:
        raise NotImplementedError

    def resume(self, step: Resume) -> None:
        """The user quits and starts the host again on this session (``Host.resumes``)."""
        raise NotImplementedError(f"{self.host.title} is not resumed by hooksim")

    def finished_in_background(self, run: HookRun) -> None:
        """A hook the host did not wait for has ended (``run`` says how); by default nothing
        follows from it."""

    def exit(self) -> None:
        """The user quits at the end of the scenario."""

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        raise NotImplementedError

    def raw(self, step: RawEvent) -> None:
        if step.stdin is not None:
            self.fire(step.event, step.stdin)
        else:
            self.fire(step.event, self.payload(step.event, **(step.extra or {})))

    def next_session_id(self, step: NewSession) -> None:
        self.sessions += 1
        self.info.session_id = step.session_id or f"session-{self.sessions}"

    def tool_calls(
        self,
        turn: Turn,
        events: tuple[str, str],
        fields: Callable[[ToolCall, int], dict[str, Any]],
        result: Callable[[ToolCall], dict[str, Any]],
    ) -> bool:
        """Fire the before and after events around each tool call of the turn.

        ``fields(call, n)`` is what both payloads carry, ``result(call)`` what only the after
        event adds. A blocked call does not run, so its after event does not fire. Returns
        False when a hook stopped the agent.
        """
        before, after = events
        self.ran = {}
        for n, call in enumerate(turn.tools, 1):
            tool = fields(call, n)
            call_id = str(tool.get("tool_use_id") or f"call_{n}")
            self.said.called(call, call_id)
            pre = self.fire(before, self.payload(before, **tool), match=call.name)
            if self.halted(pre):
                return False
            if pre.blocked:
                pre.effect = f"the {call.name} call is blocked; the reason goes to the model"
                self.deliver(pre)
                denial = "\n".join(self.told(pre)) or pre.reason
                self.said.returned(call, call_id, denial, denied=True)
                if call.compact and not self.compact_mid_turn():
                    return False
                continue
            ran = self.ran[n] = self.run_tool(call, pre)
            self.said.ran(ran, call_id)
            post = self.fire(
                after, self.payload(after, **fields(ran, n), **result(ran)), match=call.name
            )
            # The host writes the result down once the after event's hooks are done.
            self.said.returned(ran, call_id, ran.result)
            if self.halted(post):
                return False
            if call.compact and not self.compact_mid_turn():
                return False
        return True

    def compact_mid_turn(self) -> bool:
        """A tool call's ``compact: auto``: the host compacts before the turn's next request;
        False when a hook stopped the agent. Only a host that does so (``compacts_mid_turn``)
        gets here: a run refuses the key on the others."""
        return True

    def tool_ids(self, turn: Turn) -> list[str]:
        """The id of each of the turn's tool calls: the scenario's (``tools: [{id}]``), else the
        host's numbering (``Host.tool_id``), which runs on through the session: a model gives
        every call an id of its own."""
        ids = []
        for call in turn.tools:
            self.calls_made += 1
            ids.append(call.id or self.host.tool_id(self.calls_made))
        return ids

    def run_tool(self, call: ToolCall, pre: Firing) -> ToolCall:
        """The call as the host runs it once its pre-tool hooks let it through: with the input a
        hook rewrote (where the host reads one), run where the session's tools take effect
        (``info.run_tool``), with the result the tool gave if it ran for real. What it did
        becomes the pre-tool firing's effect."""
        ran = call
        said = []
        if pre.updated_input is not None:
            ran = replace(call, args=self.rewritten(call.args, pre.updated_input))
            said.append(f"a hook rewrote the {call.name} input")
        if self.info.run_tool is not None:
            done = self.info.run_tool(ran)
            said += [done.effect] if done.effect else []
            ran = ran if done.result is None else replace(ran, result=done.result)
        if said:
            pre.effect = "; ".join(said)
        return ran

    def rewritten(self, args: dict[str, Any], updated: dict[str, Any]) -> dict[str, Any]:
        """A tool's input once a pre-tool hook rewrote it: the hook's input replaces it (Claude
        Code's and Codex's ``updatedInput``)."""
        return dict(updated)

    def halted(self, firing: Firing) -> bool:
        """``continue: false`` from a hook: the host stops the agent, so the turn ends here."""
        if firing.stop:
            firing.effect = f"continue: false; {self.host.title} stops, the turn ends"
        return firing.stop

    def stop_loop(self, fire_stop: Callable[[int], Firing], cap: int | None) -> None:
        """Fire the stop event until no hook blocks it (or asks to continue).

        ``fire_stop(n)`` fires the n-th stop of the turn (0 first; ``n > 0`` is a continuation,
        ``stop_hook_active``). ``cap`` is how many such stops in a row the host accepts before
        it ends the turn anyway (``cap_of`` may set it from the firing); None: no cap, and
        hooksim ends the loop at ``SAFETY_LOOP_LIMIT``.
        """
        n = 0
        while True:
            firing = fire_stop(n)
            self.said.stop_hooks(
                firing.event,
                [run.command for run in firing.runs],
                [firing.reason] if firing.continued else [],
                [run.command for run in firing.runs if run.told],
            )
            if self.halted(firing) or not firing.continued:
                return
            n += 1
            limit = self.cap_of(firing, cap)
            if limit is not None and n >= limit:
                firing.effect = self.capped(n, limit)
                return
            if n >= SAFETY_LOOP_LIMIT:
                firing.effect = (
                    f"blocked {n} times in a row with no cap; hooksim ended the loop at {n}"
                )
                firing.cut = n
                return
            firing.effect = self.continued(n)
            self.deliver(firing)
            self.fed_back(firing)

    def fed_back(self, firing: Firing) -> None:
        """The stop's block goes to the model as a message of its own, before it answers
        again (in the host's wrapping: ``told``, joined)."""
        told = self.told(firing) or ([firing.followup] if firing.followup else [])
        if told:
            self.said.fed_back(firing.event, "\n".join(told))

    def deliver(self, firing: Firing) -> None:
        """The session goes on with this firing's block (or follow-up): the model gets it, in
        the host's wrapping (``told``), beside the context the hooks gave."""
        firing.context += self.told(firing)

    def told(self, firing: Firing) -> list[str]:
        """What the model gets from a block the session goes on with: each hook's own
        (``HookRun.told``, from the profile's ``read``), by default."""
        return [run.told for run in firing.runs if run.told]

    def cap_of(self, firing: Firing, cap: int | None) -> int | None:
        """The cap that applies after this firing (Cursor: the hook's own loop_limit)."""
        return cap

    def capped(self, n: int, cap: int) -> str:
        return f"blocked {n} times in a row: {self.host.title} ends the turn (cap {cap})"

    def continued(self, n: int) -> str:
        return f"the model continues (continuation {n})"


class Host:
    """A host profile. Subclasses state the facts as class attributes and the rules as methods."""

    name: ClassVar[str]
    title: ClassVar[str]
    modelled: ClassVar[str]  # the version or documents this profile follows
    versions: ClassVar[str] = ""  # the range ``hosts.<host>.version`` accepts, in words
    checked: ClassVar[str] = ""  # how the facts were checked (source, docs, real binary)
    facts: ClassVar[tuple[Fact, ...]] = ()  # every fact, with its sources
    trust: ClassVar[str | None] = None  # hooks the host skips until trusted, in words
    events: ClassVar[dict[str, str | None]]  # LIFECYCLE point -> event name
    config_files: ClassVar[tuple[str, ...]]
    spawn: ClassVar[str]  # "exec" (argv, no shell) or "shell"
    # The tool that runs a shell command, as the hooks see it (``tool_name``; its argument is
    # ``command`` on every host): what a scenario's ``tools: [{shell: CMD}]`` becomes.
    shell_tool: ClassVar[str]
    # How that tool runs a command (the command follows), for a call with ``run: true``.
    shell_tool_argv: ClassVar[tuple[str, ...]] = ("bash", "-c")
    parallel: ClassVar[bool]  # hooks of one event run concurrently
    dedupe: ClassVar[bool] = False  # an identical command listed twice runs once
    match_all: ClassVar[tuple[str, ...]] = ("", "*")  # matchers that select every firing
    match_search: ClassVar[bool] = False  # the regex may match part of the value
    default_timeout_s: ClassVar[float]
    config_timeout_unit: ClassVar[str] = "s"  # the unit of ``timeout`` in the config file
    # The project's own hooks files, relative to the project, in the order the host merges
    # them after the user's settings (the scenario's hooks); a scenario seeds them (files:).
    project_configs: ClassVar[tuple[str, ...]] = ()
    event_timeouts_s: ClassVar[dict[str, float]] = {}
    term_grace_s: ClassVar[float | None] = None  # SIGTERM, then SIGKILL after this; None: SIGKILL
    blocking: ClassVar[frozenset[str]]  # events a hook can block
    not_awaited: ClassVar[frozenset[str]] = frozenset()  # fire-and-forget events
    # Firings that may come in either order when next to each other: the host fires one from
    # work it does not wait for. ``EVENT(trigger)`` names a firing by its payload's trigger.
    races: ClassVar[tuple[tuple[str, str], ...]] = ()
    stop_can_continue: ClassVar[bool] = True  # a stop hook can make the model go on
    stop_cap: ClassVar[int | None] = None  # blocked stops in a row before the host ends the turn
    stop_cap_unit: ClassVar[str] = "blocks in a row"
    exit_2: ClassVar[str]  # what exit code 2 means, in words (for the table)
    session_class: ClassVar[type[Session]]
    # The host compacts inside a turn, between tool calls, when a response reports a full
    # context (a tool call's ``compact: auto``); the others refuse the key.
    compacts_mid_turn: ClassVar[bool] = False
    # The model a session without session.model calls: the host's own default where a real run
    # of it names one, else hooksim's stand-in.
    default_model: ClassVar[str] = "model-1"
    # Hooks run inside the host's own process (OpenClaw's JavaScript handlers), not as
    # processes: the replay hands them to a runner of that language instead of spawning them.
    in_process: ClassVar[bool] = False
    # The variable that names the host's home in a hook's environment, set to the run's own
    # (Hermes: HERMES_HOME); "": none.
    home_variable: ClassVar[str] = ""
    # Where a user's hooks for all projects live (``hooksim record`` taps them there).
    user_config: ClassVar[str] = ""
    # How the config file lists an event's hooks: "groups" (matcher groups, each with its
    # ``hooks``) or "entries" (each entry a hook: Hermes, Cursor).
    config_shape: ClassVar[str] = "groups"
    # What the host asks of a user before a changed hook runs (``hooksim record`` says it).
    consent_note: ClassVar[str] = ""
    # A blocking hook's stderr (exit 2) is what the model is told; False where the host reads
    # only stdout.
    stderr_reaches_model: ClassVar[bool] = True
    # One model response carries all of a turn's tool calls (Hermes: one API request, then
    # the calls in order); False: one call per response.
    calls_in_one_response: ClassVar[bool] = False
    # The host substitutes its variables in every string of a plugin's hooks, the command's
    # too (Gemini CLI's extensions).
    substitutes_in_plugins: ClassVar[bool] = False
    # The host's file tools that change the project when a call runs, by the name its hooks
    # see: the kind of tool (``replay.file_tools.KINDS``) and its fields.
    file_tools: ClassVar[dict[str, tuple[str, ...]]] = {}
    # What a real run cannot judge on this host, by expectation, with the reason.
    real_not_judged: ClassVar[dict[str, str]] = {}
    # Cells of README's hosts table that the profile states in words (row name -> text).
    table_cells: ClassVar[dict[str, str]] = {}
    # Why ``hooksim record`` and ``tap`` cannot stand in front of this host's hooks ("": they can).
    tap_refused: ClassVar[str] = ""
    # The writer of the transcript the host writes as a session goes (its folder's
    # ``transcript.py``; the replay writes it the same way); None: none.
    transcript: ClassVar[type[Transcript] | None] = None
    resumes: ClassVar[bool] = False  # hooksim replays a resumed session (a ``resume:`` step)
    # What a plugin is to this host ("plugin", "extension"); "": hooksim installs none, and
    # ``plugins_refused`` says why (the host has no plugin hooks, or hooksim does not model them).
    plugin_kind: ClassVar[str] = ""
    plugins_refused: ClassVar[str] = ""

    def default_hooks(self) -> tuple[Any, str] | None:
        """The hooks block a scenario that names no hooks runs here, and where it comes from;
        None: a scenario must name its hooks."""
        return None

    def hook_state(self, home: Path) -> str | None:
        """What the hooks keep in the host's home that expectations read (``state_file``);
        None: nothing."""
        return None

    def at_version(self, version: str) -> Host:
        """This host as a given version behaved; a profile that models one version refuses."""
        raise ValueError(
            f"hooksim models {self.title} as of {self.modelled} only; drop 'version' for it"
        )

    def launched(self, how: str) -> Host:
        """This host as the user runs it (``interactive``, or a host's non-interactive mode)."""
        if how == "interactive":
            return self
        raise ValueError(f"{how!r}: hooksim runs {self.title} interactively only")

    # --- configuration -------------------------------------------------------------------
    def load_config(self, path: Path) -> Any:
        """The hooks part of the host's own config file (JSON ``hooks`` key by default)."""
        data = read_json(path)
        return data.get("hooks") if isinstance(data, dict) else None

    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        """Hook specs in config order, and warnings for entries the host would skip."""
        raise NotImplementedError

    def knows(self, event: str) -> bool:
        """Whether hooks can be bound to ``event``: the profile accepts it in a hooks config."""
        _, warnings = self.parse_hooks({event: []})
        return not any(w.startswith("unknown ") for w in warnings)

    # --- plugins -------------------------------------------------------------------------
    def read_plugin(self, folder: Path) -> Plugin:
        """The plugin in ``folder``, as written; ValueError says why it is not one."""
        raise ValueError(f"hooksim does not install {self.title} plugins: {self.plugins_refused}")

    def plugin_place(self, plugin: Plugin, home: Path, workdir: Path) -> Path:
        """Where the host loads the plugin from once installed (under the run's HOME or work
        directory)."""
        raise NotImplementedError

    def plugin_specs(
        self, plugin: Plugin, place: Path, *, home: Path, project: Path
    ) -> tuple[list[HookSpec], list[str]]:
        """The plugin's hooks as the host registers them from ``place``, and warnings."""
        raise NotImplementedError

    def with_plugins(self, settings: list[HookSpec], plugins: list[HookSpec]) -> list[HookSpec]:
        """Every hook the host registers: the settings' hooks, then the plugins'."""
        return [*settings, *plugins]

    # --- spawning ------------------------------------------------------------------------
    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        """The process the host starts for a command, given the hook's environment."""
        shell = shutil.which("bash") or "/bin/sh"
        return [shell, "-c", command]

    def argv_for(self, spec: HookSpec, env: Mapping[str, str]) -> list[str]:
        """The process for one configured hook (``argv`` of its command by default)."""
        return self.argv(spec.command, env)

    def shell_tool_result(self, output: str, exit_code: int) -> str:
        """What the shell tool gives the model for a command that ran (``run: true``): its
        output (stdout and stderr as they came), by default."""
        return output

    def unverified(self) -> list[Fact]:
        """The facts nothing public settles."""
        return [f for f in self.facts if f.unverified]

    def notes(self, specs: list[HookSpec]) -> list[str]:
        """What a run's timeline says about hooks on this host: the trust gate hooksim does not
        model (it runs them as trusted) and the facts nothing public settles."""
        if not specs:
            return []
        notes = [f"trust: {self.trust}; hooksim runs them as trusted"] if self.trust else []
        return notes + [f"unverified: {f.topic}: {f.text}" for f in self.unverified()]

    def selects(self, spec: HookSpec, value: str | None, payload: Mapping[str, Any]) -> bool:
        """Whether a hook runs for this firing: its matcher (``matches``), and whatever else
        the host reads from the payload first (Claude Code's ``if`` conditions)."""
        return self.matches(spec, value)

    def matches(self, spec: HookSpec, value: str | None) -> bool:
        """Whether a hook's matcher selects this firing: a matcher in ``match_all`` (or none)
        selects every firing; otherwise the regex must match ``value`` (``re.fullmatch``, or
        ``re.search`` when ``match_search``), or equal it when it is not a valid regex."""
        if spec.matcher is None or spec.matcher in self.match_all:
            return True
        if value is None:
            return False
        try:
            find = re.search if self.match_search else re.fullmatch
            return find(spec.matcher, value) is not None
        except re.error:
            return spec.matcher == value

    def join_reasons(self, reasons: list[str]) -> str:
        """The block message the model gets when several hooks block (joined, by default)."""
        return "\n".join(r for r in reasons if r)

    def timeout_s(self, spec: HookSpec, env: Mapping[str, str]) -> float:
        """Seconds a hook may run, given its spec and its environment."""
        if spec.timeout_s is not None:
            return spec.timeout_s
        return self.event_timeouts_s.get(spec.event, self.default_timeout_s)

    def env(self, event: str, info: SessionInfo) -> dict[str, str]:
        """Variables the host adds to (or changes in) a hook's environment."""
        return {}

    def tool_id(self, n: int) -> str:
        """The id hooksim gives the session's ``n``-th tool call when the scenario gives none
        (the fake model of a real run gives the same)."""
        return f"call_{n}"

    def hook_env(self, event: str, index: int, info: SessionInfo) -> dict[str, str]:
        """Variables of one hook of a firing, by its place among the firing's hooks (Claude
        Code's SessionStart env file); none by default."""
        return {}

    def encode(self, payload: dict[str, Any]) -> bytes:
        """Stdin bytes: compact JSON as Node's ``JSON.stringify`` and serde_json write it."""
        return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()

    def next_input(self, event: str, stdin: bytes, run: HookRun) -> bytes:
        """In a sequential run, the stdin of the next hook after ``run`` (the same, by default)."""
        return stdin

    # --- reading results -----------------------------------------------------------------
    def read(self, event: str, run: HookRun) -> Verdict:
        raise NotImplementedError

    def session(self, info: SessionInfo, fire: Fire) -> Session:
        return self.session_class(self, info, fire)


def parse_version(title: str, version: str) -> tuple[int, ...]:
    """``"v2.1.100"`` or ``"0.30.0"`` as a tuple of ints; a ValueError names the host."""
    try:
        return tuple(int(part) for part in version.removeprefix("v").split("."))
    except ValueError:
        raise ValueError(f"{title} version {version!r} is not like 1.2.3") from None


def as_version(host: Host, version: str, changes: dict[str, Any]) -> Host:
    """``host`` with some facts changed, as it was at ``version``."""
    v = parse_version(host.title, version)
    facts = {"modelled": f"v{version.removeprefix('v')} (by its history)", **changes}
    name = f"{type(host).__name__}_{'_'.join(map(str, v))}"
    return type(name, (type(host),), facts)()  # type: ignore[no-any-return]


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read ({e})") from None
    except ValueError as e:
        raise ConfigError(f"{path}: not valid JSON ({e})") from None


def event_lists(
    block: Any, known: frozenset[str], warnings: list[str], noun: str = "hook event"
) -> Iterator[tuple[str, list[Any]]]:
    """The ``(event, entries)`` pairs of a hooks object; what a host would skip is a warning."""
    if block is None:
        return
    if not isinstance(block, dict):
        warnings.append("hooks is not an object; no hooks registered")
        return
    for event, entries in block.items():
        if event not in known:
            warnings.append(f"unknown {noun} {event!r}; skipped")
        elif not isinstance(entries, list):
            warnings.append(f"hooks.{event} must be a list; skipped")
        else:
            yield event, entries


@dataclass(frozen=True)
class _TimeoutRule:
    """How a host reads a hook's timeout: its keys, its unit, its floor, and whether a
    non-positive one skips the hook."""

    keys: tuple[str, ...]
    unit_s: float
    min_s: float
    skip_nonpositive: bool


def parse_matcher_groups(
    block: Any,
    *,
    events: frozenset[str],
    matcher_events: frozenset[str],
    timeout_unit_s: float = 1.0,
    min_timeout_s: float = 0.0,
    timeout_keys: tuple[str, ...] = ("timeout",),
    skip_nonpositive_timeout: bool = False,
    handler_env: bool = False,
) -> tuple[list[HookSpec], list[str]]:
    """The ``{Event: [{matcher, hooks: [{type, command, timeout}]}]}`` shape.

    Claude Code's ``settings.json``, Codex's ``hooks.json`` (and ``[hooks]`` in
    ``config.toml``) and Gemini CLI's ``settings.json`` all use it. Entries the host would
    reject or that are not command hooks are skipped with a warning. ``handler_env``: a
    handler's ``env`` object adds to its environment (Gemini CLI).
    """
    rule = _TimeoutRule(timeout_keys, timeout_unit_s, min_timeout_s, skip_nonpositive_timeout)
    specs: list[HookSpec] = []
    warnings: list[str] = []
    for event, groups in event_lists(block, events, warnings):
        for g, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                warnings.append(f"hooks.{event}[{g}] has no hooks list; skipped")
                continue
            matcher = group.get("matcher") if event in matcher_events else None
            warnings += misspelt_keys(group, GROUP_KEYS, f"hooks.{event}[{g}]")
            for h, handler in enumerate(handlers):
                where = f"hooks.{event}[{g}].hooks[{h}]"
                if isinstance(handler, dict):
                    warnings += misspelt_keys(handler, HANDLER_KEYS, where)
                spec = _handler_spec(
                    handler, where, warnings, event=event, group=group, matcher=matcher,
                    rule=rule, keys=(event, g, "hooks", h),
                )  # fmt: skip
                env = handler.get("env") if handler_env and isinstance(handler, dict) else None
                if spec is not None and isinstance(env, dict):
                    spec = replace(spec, env=tuple((str(k), str(v)) for k, v in env.items()))
                if spec is not None:
                    specs.append(spec)
    return specs, warnings


# The keys of a matcher group and of a hook in it, on any host of that shape: an unknown key
# close to one of them is a typo the host ignores silently (``matchr``: every tool matches).
GROUP_KEYS = ("matcher", "hooks", "sequential")
HANDLER_KEYS = ("type", "command", "timeout", "timeoutSec", "args", "shell", "async",
                "asyncRewake", "if", "statusMessage", "once", "env", "name", "description")  # fmt: skip
MISSPELT = re.compile(r"unknown key '(?P<key>[^']+)' \(did you mean '(?P<meant>[^']+)'\?\)")


def misspelt_keys(entry: Mapping[str, Any], known: tuple[str, ...], where: str) -> list[str]:
    """A warning for each key of ``entry`` that is not one the host reads but is close to one:
    the host ignores it, and what the author meant does not happen."""
    found = []
    for key in entry:
        if not isinstance(key, str) or key in known:
            continue
        close = difflib.get_close_matches(key, known, n=1, cutoff=0.8)
        if close:
            found.append(f"{where}: unknown key {key!r} (did you mean {close[0]!r}?); ignored")
    return found


def _handler_spec(
    handler: Any,
    where: str,
    warnings: list[str],
    *,
    event: str,
    group: dict[str, Any],
    matcher: Any,
    rule: _TimeoutRule,
    keys: tuple[str | int, ...],
) -> HookSpec | None:
    """One handler of a matcher group as a HookSpec (``keys``: where it is in the hooks
    block, ``where`` the same for warnings); None, with a warning, when skipped."""
    if not isinstance(handler, dict):
        warnings.append(f"{where} is not an object; skipped")
        return None
    kind = handler.get("type", "command")
    if kind != "command":
        warnings.append(f"{where} is a {kind!r} hook; hooksim runs command hooks only")
        return None
    command = handler.get("command")
    args = _handler_args(handler.get("args"), where, warnings)
    if (not isinstance(command, str) or not command.strip()) and args is None:
        warnings.append(f"{where} has no command; skipped")
        return None
    shell = handler.get("shell")
    runs, timeout_s = _handler_timeout(handler, where, warnings, rule)
    if not runs:
        return None
    return HookSpec(
        event,
        command if isinstance(command, str) else " ".join(args or ()),
        timeout_s,
        matcher if isinstance(matcher, str) else None,
        sequential=bool(group.get("sequential", False)),
        args=tuple(args) if args is not None else None,
        shell=shell if isinstance(shell, str) else None,
        background=handler.get("async") is True or handler.get("asyncRewake") is True,
        rewake=handler.get("asyncRewake") is True,
        where=keys,
    )


def _handler_args(args: Any, where: str, warnings: list[str]) -> list[str] | None:
    """A handler's ``args``: a non-empty list of strings, else None (with a warning if set)."""
    if args is not None and not (
        isinstance(args, list) and args and all(isinstance(a, str) for a in args)
    ):
        warnings.append(f"{where}: args {args!r} is not a list of strings; ignored")
        return None
    return args


def _handler_timeout(
    handler: dict[str, Any], where: str, warnings: list[str], rule: _TimeoutRule
) -> tuple[bool, float | None]:
    """Whether the host runs the hook, and its timeout in seconds (None: the default)."""
    timeout = next((handler[k] for k in rule.keys if k in handler), None)
    if timeout is not None and not isinstance(timeout, (int, float)):
        warnings.append(f"{where}: timeout {timeout!r} is not a number; default used")
        timeout = None
    elif timeout is not None and timeout <= 0 and rule.skip_nonpositive:
        warnings.append(f"{where}: timeout {timeout!r} is not positive; the host skips this hook")
        return False, None
    elif timeout is not None and timeout <= 0 and not rule.min_s:
        warnings.append(f"{where}: timeout {timeout!r} is not positive; default used")
        timeout = None
    return True, None if timeout is None else max(timeout * rule.unit_s, rule.min_s)


def parse_json_output(stdout: str) -> dict[str, Any] | None:
    """Stdout as one JSON object, or None."""
    text = stdout.strip()
    if not text.startswith("{"):
        return None
    try:
        parsed = json.loads(text)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def additional_context(output: dict[str, Any]) -> str | None:
    """``hookSpecificOutput.additionalContext`` when it is a non-blank string."""
    specific = output.get("hookSpecificOutput")
    context = specific.get("additionalContext") if isinstance(specific, dict) else None
    return context if isinstance(context, str) and context.strip() else None


def telling_line(stderr: str) -> str:
    """The line of a failed hook's stderr that says most: a Python traceback's last (the
    exception), else the first."""
    lines = [line.strip() for line in stderr.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    return (lines[-1] if TRACEBACK in stderr else lines[0])[:200]


def first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[0][:200] if lines else ""
