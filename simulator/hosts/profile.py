"""What every host profile states (``Host``).

A profile is a ``Host`` subclass in its folder's ``profile.py``. Its class attributes state the
facts (which event sits at each lifecycle point, shell or exec, parallel or not, default
timeouts, which events a hook can block, the stop-loop cap); its methods state the behaviour:
how the host's config file lists hooks, what a payload looks like (in the profile's
``Session``), and how the host reads a hook's exit code and output. The runner knows none of
this: it spawns what the profile asks for and hands each finished process back to it.

The same attributes feed the lifecycle table in README (``hooksim hosts``), so the table cannot
drift from what hooksim does.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .records import ConfigError, HookRun, HookSpec, Plugin, Verdict
from .session import Fire, Session, SessionInfo
from .sources import Fact

if TYPE_CHECKING:
    from .transcript import Transcript


@dataclass(frozen=True)
class Switch:
    """A setting that keeps hooks from running: what it says (``disableAllHooks is true``), the
    file that sets it, the texts that lead to its line there, in order, and how to undo it."""

    setting: str
    path: Path
    keys: tuple[str, ...]
    fix: str


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
    # How the host stops a hook at its timeout: this signal, to the hook's process group (a host
    # that starts each hook in a group of its own and signals the group) or to its process only,
    # then SIGKILL ``term_grace_s`` later when the first was not (None: nothing follows).
    timeout_signal: ClassVar[str] = "SIGKILL"
    timeout_kills_group: ClassVar[bool] = False
    term_grace_s: ClassVar[float | None] = None
    blocking: ClassVar[frozenset[str]]  # events a hook can block
    not_awaited: ClassVar[frozenset[str]] = frozenset()  # fire-and-forget events
    # Firings that may come in either order when next to each other: the host fires one from
    # work it does not wait for. ``EVENT(trigger)`` names a firing by its payload's trigger.
    races: ClassVar[tuple[tuple[str, str], ...]] = ()
    stop_can_continue: ClassVar[bool] = True  # a stop hook can make the model go on
    stop_cap: ClassVar[int | None] = None  # blocked stops in a row before the host ends the turn
    stop_cap_unit: ClassVar[str] = "blocks in a row"
    # The stop payload's key that tells a hook it has blocked before (its loop guard), if any.
    stop_flag: ClassVar[str | None] = None
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
    # The variables by which a user points the host at folders of theirs (its home, its
    # config): a replayed hook never inherits them from the shell hooksim runs in, so that it
    # finds its defaults in the run's throwaway HOME and writes nothing outside the run.
    folder_variables: ClassVar[tuple[str, ...]] = ()
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
    relaunches: ClassVar[bool] = False  # a step may change how it runs (a step's ``launch:``)
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

    def unconsented(self, spec: HookSpec, home: Path) -> str | None:
        """Why the host skips ``spec`` for want of its user's approval, ``home`` being the folder
        its config is in (where it keeps what was approved); None: it runs it, or asks none."""
        return None

    def disabled(self, spec: HookSpec, file: Path, files: Sequence[Path]) -> Switch | None:
        """The setting that keeps ``spec`` (written in ``file``) from running, among the config
        files the host reads (``files``, in its order); None: no setting turns it off."""
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

    def timeout_kill(self) -> str:
        """How the host stops a hook at its timeout, in words."""
        whom = (
            "the hook's process group"
            if self.timeout_kills_group
            else "only the hook's own process"
        )
        how = f"with {self.timeout_signal}"
        if self.timeout_signal != "SIGKILL":
            grace = self.term_grace_s
            how += (
                ", and no SIGKILL follows" if grace is None else f", then SIGKILL {grace:g} s later"
            )
        return f"{self.title} signals {whom}, {how}"

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


def read_json_once(path: Path) -> Any:
    """``read_json``, parsed once while the file keeps its size and time: a setting looked up
    for each of thousands of hooks (``explain``, ``lint``) costs one read. The value is shared
    between callers: read it, never change it."""
    try:
        info = path.stat()
    except OSError as e:
        raise ConfigError(f"{path}: cannot read ({e.strerror})") from None
    return _read_json_at(path, info.st_size, info.st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _read_json_at(path: Path, size: int, mtime_ns: int) -> Any:
    del size, mtime_ns  # part of the cache's key only
    return read_json(path)


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read ({e})") from None
    except ValueError as e:
        raise ConfigError(f"{path}: not valid JSON ({e})") from None
