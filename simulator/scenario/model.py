"""A validated scenario: its steps on one virtual clock, its hosts, bridge plan and expectations.

Built by ``load`` from a file; used by every stage above (replay, judge, explore, real).
Imports only ``steps``.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from ..hosts import DEFAULT_HOST, HOSTS, Host
from ..steps import SHELL, NewSession, Resume, Step, Turn


class ScenarioError(Exception):
    """A scenario file that cannot run; ``str()`` is ``file:line: what is wrong``."""


@dataclass(frozen=True)
class SessionPlan:
    """One of several sessions running at once (``sessions:``), as a gateway serves chats."""

    id: str
    steps: tuple[Step, ...]
    platform: str = "telegram"
    model: str | None = None
    cwd: str | None = None
    sender: str = ""
    line: int = 0
    bridge: dict[str, list[str]] | None = None  # its own bridge plan; None: the scenario's


@dataclass(frozen=True)
class ScheduledStep:
    """A step placed on the run's one virtual clock: when, which turn, which session."""

    offset_s: float  # since the scenario's start
    turn: int  # 1-based turn number across all sessions; 0 for a /new or a resume
    session: int  # index into ``Scenario.sessions`` (0 for a one-session scenario)
    step: Step
    clock_s: float = 0.0  # the wall clock's instant: ``offset_s`` less every clock_back so far

    @property
    def label(self) -> str:
        """What expectations may call this step (its ``label``; "" when it has none)."""
        return self.step.label


@dataclass(frozen=True)
class HostPart:
    """What one host needs beyond the shared session: its hooks, variables, expectations."""

    hooks: Any = None  # that host's hooks block, in its own config shape; None: not given
    env: dict[str, str] = field(default_factory=dict)
    expect: dict[str, Any] = field(default_factory=dict)
    version: str | None = None  # the host's version to replay; None: the profile's own
    launch: str | None = None  # how the user runs the host (Codex: exec); None: interactive
    plugins: tuple[Path, ...] | None = None  # its plugin folders; None: not given
    expect_lines: dict[str, int] = field(default_factory=dict)  # the line of each expect: key


@dataclass(frozen=True)
class SeedFile:
    """One file (or folder) put in place before the session: its text, or a copy of ``source``;
    neither, in a commit: the file is deleted."""

    path: str  # relative to the project, or ~/PATH in the run's HOME (``project_path``)
    text: str | None = None
    source: Path | None = None  # ``from:``, resolved against the scenario's folder
    at: str = ""  # where the entry is, for messages: ``FILE:LINE``
    mode: int | None = None  # ``mode:``, its permissions (a file's); None: as written or copied


@dataclass(frozen=True)
class Commit:
    """One commit of ``files.git.commits``: its files written (or deleted), then committed."""

    message: str
    files: tuple[SeedFile, ...]


@dataclass(frozen=True)
class Seed:
    """``files:``: what the project (and the run's HOME) holds before the session.

    With ``git``, the project is a git repository: ``commits`` made in order, then the other
    files written and left uncommitted; without commits, one commit of the files.
    """

    files: tuple[SeedFile, ...] = ()
    git: bool = False
    commits: tuple[Commit, ...] = ()


def project_path(text: str) -> tuple[bool, PurePosixPath]:
    """Where a scenario's path points: whether it is in the run's HOME (``~/PATH``), and the
    path inside the project (or HOME), normalised. ValueError says why a path is refused: it is
    absolute, leaves its folder with ``..``, or names the folder itself."""
    home = text == "~" or text.startswith("~/")
    rest = text[2:] if home else text
    where = "the run's HOME" if home else "the project"
    if rest.startswith("/"):
        raise ValueError(
            f"{text!r} is absolute: give a path relative to the project (the hooks' working"
            " directory), or ~/PATH for the run's temporary HOME"
        )
    parts: list[str] = []
    for part in PurePosixPath(rest).parts:
        if part == "..":
            if not parts:
                raise ValueError(f"{text!r} leaves {where} folder (..)")
            parts.pop()
        elif part != ".":
            parts.append(part)
    if not parts:
        raise ValueError(f"{text!r} names {where} folder itself, not a file in it")
    return home, PurePosixPath(*parts)


@dataclass(frozen=True)
class Scenario:
    path: Path
    name: str
    steps: tuple[Step, ...]
    description: str = ""
    tool: str = DEFAULT_HOST
    env: dict[str, str] = field(default_factory=dict)
    start: dt.datetime = dt.datetime(2026, 6, 1, 9, tzinfo=dt.timezone.utc)
    clock_driver: str = "python"
    session: dict[str, str] = field(default_factory=dict)
    hooks: dict[str, Any] | None = None
    bridge: dict[str, list[str]] = field(default_factory=dict)
    temporary_ttl_s: float = 0.0
    expect: dict[str, Any] = field(default_factory=dict)
    hosts: dict[str, HostPart] = field(default_factory=dict)
    version: str | None = None  # set by on(): the version of the host it runs on
    launch: str | None = None  # set by on(): how the user runs that host (None: interactive)
    timeline: str = "on_failure"  # or "always": hooksim run prints passing runs' timelines too
    checks: bool | dict[str, Any] = True  # the built-in checks: all, none, or chosen ones
    clock_tick: bool = True  # False: every hook reads exactly its firing's instant
    invariants: dict[str, Any] = field(default_factory=dict)  # hold for every session
    explore: dict[str, Any] = field(default_factory=dict)  # the space hooksim explore draws from
    runs_on: tuple[str, ...] = ()  # the hosts the file names (its tool and hosts:); () = tool
    sessions: tuple[SessionPlan, ...] = ()  # several sessions at once; then ``steps`` is empty
    files: Seed = Seed()  # what the project holds before the session
    # The tool's plugin (extension) folders, installed as the host installs them; set by on()
    # for the host it runs on (from hosts.NAME.plugins, else plugins: on the scenario's tool).
    plugins: tuple[Path, ...] = ()
    # The file's line of each key of expect: and invariants: (set by on(): the host's first),
    # where a report points when that expectation fails.
    expect_lines: dict[str, int] = field(default_factory=dict)

    def tools(self, only: str | None = None) -> list[str]:
        """The hosts this session runs on: ``only`` if given, else its tool and ``hosts:``."""
        if only:
            return [only]
        if self.runs_on:
            return list(self.runs_on)
        return [self.tool, *(name for name in self.hosts if name != self.tool)]

    def profile(self, host: Host) -> Host:
        """``host`` at this scenario's version and launch (the scenario is ``on`` that host).

        ValueError says which key is wrong: ``hosts.NAME.version: ...`` or ``...launch: ...``.
        """
        # The method is looked up on the host as changed so far: the launch of a version.
        for key, value, change in (
            ("version", self.version, "at_version"),
            ("launch", self.launch, "launched"),
        ):
            if value is not None:
                try:
                    host = getattr(host, change)(value)
                except ValueError as e:
                    raise ValueError(f"hosts.{host.name}.{key}: {e}") from None
        return host

    def on(self, tool: str) -> Scenario:
        """This session as run on ``tool``: that host's hooks, with its env and expect merged in,
        and each shell call (``tools: [{shell: CMD}]``) made that host's own shell tool."""
        part = self.hosts.get(tool, HostPart())
        hooks = (
            part.hooks if part.hooks is not None else (self.hooks if tool == self.tool else None)
        )
        plugins = (
            part.plugins
            if part.plugins is not None
            else (self.plugins if tool == self.tool else ())
        )
        host = HOSTS.get(tool)
        shell = host.shell_tool if host is not None else SHELL
        return replace(
            self,
            tool=tool,
            hooks=hooks,
            plugins=plugins,
            env={**self.env, **part.env},
            expect={**self.expect, **part.expect},
            expect_lines={**self.expect_lines, **part.expect_lines},
            hosts={},
            version=part.version,
            launch=part.launch,
            steps=_with_shell(self.steps, shell),
            sessions=tuple(
                replace(plan, steps=_with_shell(plan.steps, shell)) for plan in self.sessions
            ),
        )

    @property
    def numbered_steps(self) -> list[tuple[int, Step]]:
        """Steps with their turn number (1-based; a ``/new`` or a resume gets 0: not a turn)."""
        return [(s.turn, s.step) for s in self.schedule]

    @property
    def schedule(self) -> list[ScheduledStep]:
        """Every step on the one virtual clock, in the order it starts.

        Each session's ``after`` counts from that session's previous step (the first from the
        scenario's start). Steps of different sessions starting at the same instant keep the
        sessions' order here; the runner runs them at the same time. Turns are numbered in
        this order, across sessions.
        """
        placed: list[tuple[float, int, int, Step]] = []
        plans = [plan.steps for plan in self.sessions] or [self.steps]
        for k, steps in enumerate(plans):
            offset = 0.0
            for i, step in enumerate(steps):
                offset += step.after_s
                placed.append((offset, k, i, step))
        placed.sort(key=lambda p: (p[0], p[1], p[2]))
        schedule: list[ScheduledStep] = []
        n, back = 0, 0.0
        for offset, k, _, step in placed:
            number = 0 if isinstance(step, (NewSession, Resume)) else n + 1
            n = max(n, number)
            back += step.clock_back_s  # from this step on: the steps before keep their instant
            schedule.append(ScheduledStep(offset, number, k, step, offset - back))
        return schedule


_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)")
_UNIT_S = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}


MAX_DURATION_S = 366 * 86400  # a year of virtual time: more is a typo, and beyond a clock
DURATION_FORMS = "seconds as a number, or e.g. 90s, 1m, 1h30m, 250ms, 2d; from 0 up to 366d"


def parse_duration(value: float | str) -> float:
    """Seconds from a number of seconds or a string such as ``90s``, ``1h30m``, ``250ms``.

    ValueError names the value and the forms allowed; negative, infinite and longer than
    ``MAX_DURATION_S`` are refused.
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        seconds = float(value)
    elif isinstance(value, str):
        text = value.strip()
        parts = _DURATION_PART.findall(text)
        if not parts or _DURATION_PART.sub("", text).strip():
            raise ValueError(f"{value!r} is not a duration: use {DURATION_FORMS}")
        seconds = sum(float(n) * _UNIT_S[unit] for n, unit in parts)
    else:
        raise ValueError(f"{value!r} is not a duration: use {DURATION_FORMS}")
    if not 0 <= seconds <= MAX_DURATION_S:  # also false for NaN
        raise ValueError(f"{value!r} is out of range: use {DURATION_FORMS}")
    return seconds


def _with_shell(steps: tuple[Step, ...], shell: str) -> tuple[Step, ...]:
    """The steps with each abstract shell call named as ``shell``, the host's shell tool."""
    return tuple(
        replace(
            step,
            tools=tuple(
                replace(call, name=shell) if call.name == SHELL else call for call in step.tools
            ),
        )
        if isinstance(step, Turn) and any(call.name == SHELL for call in step.tools)
        else step
        for step in steps
    )
