"""What a replayed run is made of, on every host: a hook as configured (``HookSpec``), one run of
it (``HookRun``), the host's reading of it (``Verdict``), one firing of an event (``Firing``),
and how a hook went wrong as the host counts it (``FAULTS``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import Any

from ..steps import ToolCall

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
    _: KW_ONLY  # how it ended, and the rest, are named where a run is made
    exit_code: int | None = None  # None: it did not end by itself (killed, never started)
    stdout: str = ""
    stderr: str = ""
    duration_s: float = 0.0
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
    "refused": "output the host refuses",  # invalid JSON, a refused schema, a key it drops, ...
    "ignored": "output nothing reads",  # neither the model nor the user: a plain line, ...
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
    _: KW_ONLY  # the rest are named where a firing is made
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
    capped: int = 0  # > 0: a loop the host ended at its cap (``Host.stop_cap``), after this many
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


@dataclass(frozen=True)
class ToolRun:
    """What running one tool call did to the world around the hooks."""

    effect: str = ""  # what changed, in words ("": nothing worth saying)
    result: str | None = None  # the tool's output when it really ran; None: the scripted result
    # Each file a file tool read or changed, by the path the project shows: its text before and
    # after the call (None: no such file), for a host that gives back what changed.
    files: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)
    missing: str | None = None  # the file a read did not find, by its absolute path


RunTool = Callable[[ToolCall], ToolRun]
"""Runs a tool call the host lets through (its input as the host runs it) in the replay's
project: file tools change files, a ``run: true`` shell call runs."""
