"""What every real-host driver is, and the host processes it runs.

A driver knows one real agent CLI, in that host's folder (``hosts/<host>/real.py``,
``driver_of``): where its config goes (``install``), what its process needs in its environment
(``env``), and how a step reaches it (``start``, ``send``, ``new_session``, ``finish``). The host
runs one of two ways, each a base class here: ``LineDriver``, one process for the whole
session, a JSON line per step on its stdin; ``ExecDriver``, one process per turn. Either way
the driver spawns, reads, times out and kills the host's processes, keeping what the host
writes with the turn it belongs to.

A driver reads the run it belongs to through ``Session`` (``session.RealSession`` is one), so
the drivers never import the session loop, which picks one by host name (``DRIVERS``).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol, TextIO

from ..hosts import Firing, HookRun, Host, part
from ..replay.plugins import Installed
from ..scenario import Scenario

# Reported in place of the usage a host would compact at (Claude Code's window is 1M tokens).
FULL_CONTEXT_TOKENS = 995_000
TURN_TIMEOUT_S = 120.0


class RealHostError(Exception):
    """The real host could not run the scenario; ``str()`` says why in one line."""


class Session(Protocol):
    """What a driver reads of the run it belongs to, and the lists it adds to."""

    scenario: Scenario
    host: Host
    binary: str  # the host's executable
    home: Path  # the temporary HOME its config goes under
    project: Path  # its working directory
    launch_env: dict[str, str]  # the environment it starts with
    stderr_path: Path
    stderr_file: TextIO  # where its stderr goes
    output: list[dict[str, Any]]  # its JSON messages, each with the turn it belongs to
    plugins: list[Installed]  # the scenario's plugins, where the host loads them from
    notes: list[str]  # what the run could not do as the scenario says
    turn: int  # the turn now running
    spec: Path  # what the recorder reads (``hook_recorder``)

    def confine(self, argv: list[str]) -> list[str]:
        """A host process's argv, confined as the run is (``real.confine``)."""
        ...


@dataclass(frozen=True)
class After:
    """What a real run shows after one firing: the firings later in its turn, the main model
    requests sent from its hook's start to the next turn, every request, and the later
    firings with their probe records."""

    same_turn: list[Firing]
    model: list[dict[str, Any]]
    requests: list[dict[str, Any]]
    later: list[tuple[Firing, dict[str, Any]]]


def driver_of(host: Host) -> type[Driver] | None:
    """The driver of ``host``'s real runs: its folder's ``real.DRIVER`` (None: hooksim drives
    no real run of it)."""
    real = part(host, "real")
    driver: type[Driver] | None = None if real is None else real.DRIVER
    return driver


class Driver:
    """One real host: where its config goes, how it starts, how a step reaches it."""

    name: ClassVar[str]
    dialect: ClassVar[str]  # the fake model API it calls (``model_server.DIALECTS``)
    binary: ClassVar[str]  # the executable's name on PATH
    package: ClassVar[str]  # where it comes from, for messages
    launch: ClassVar[str] = "interactive"  # how the driver runs it (a scenario's hosts.X.launch)
    # True: a SessionStart(compact) belongs to the compaction step (the host fires it as part
    # of compacting); False: the host queues it for the next turn, where it is counted.
    compact_session_start_in_step: ClassVar[bool] = True
    # True: the host keeps its own account of each hook run (``outcomes`` reads it), so the
    # recorder only watches: it records what the hook is given and becomes the hook
    # (``hook_recorder.watch``). False: the recorder runs the hook and records how it ended.
    watches: ClassVar[bool] = False

    def __init__(self, run: Session) -> None:
        self.run = run

    @classmethod
    def account(cls, output: list[dict[str, Any]]) -> list[tuple[str, list[str]]] | None:
        """The host's own verdict on each hook run, firing by firing, where its output gives
        one: ``(firing, [outcome of each hook process])`` in the order they fired (None: it
        gives none). ``compare --real`` holds the replay's readings against it
        (``account_of``)."""
        return None

    @classmethod
    def account_of(cls, run: HookRun) -> str:
        """How the host's account would name the outcome of a replayed hook run."""
        raise NotImplementedError

    @classmethod
    def account_key(cls, firing: Firing) -> str:
        """How the host's account names a firing."""
        return firing.event

    def outcomes(self, records: list[dict[str, Any]]) -> None:
        """How each watched hook run ended (``exit``, ``stdout``, ``stderr``, ``end``, and
        ``killed`` for one the host stopped), read from the host's own account into its record;
        a run the account does not name is marked ``unaccounted``."""

    def install(self, wrapped: dict[str, Any]) -> list[str]:
        """Write the wrapped hooks into the host's config under the temporary HOME; notes."""
        raise NotImplementedError

    def env(self, url: str) -> dict[str, str]:
        """Variables that point the host at the fake server and keep it offline."""
        raise NotImplementedError

    def start(self) -> None:
        """Launch (or prepare) the host before the first step."""

    def send(self, text: str) -> None:
        """One user message (or slash command); returns when the host is idle again."""
        raise NotImplementedError

    def finish(self) -> None:
        """The user quits."""

    def new_session(self) -> None:
        """``/new``: by default the host's own ``/clear``."""
        self.send("/clear")

    def resume(self) -> None:
        """The user quits and starts the host again on the same session (the hosts whose
        profile ``resumes``)."""
        raise RealHostError(f"{self.name}: hooksim does not resume a session of it")

    def close(self) -> None:
        """Whatever happened, nothing of the host keeps running."""

    def shown_to_user(self, message: dict[str, Any]) -> str | None:
        """The text one of the host's output messages shows its user from a hook (None: it
        shows none; the session lists ``shown_to_user`` as not judged for a host whose output
        never says)."""
        return None

    @classmethod
    def blocked(cls, host: Host, firing: Firing, probe: dict[str, Any], seen: After) -> bool | None:
        """Whether the host did what a block of ``firing`` does, where its run shows that its
        own way (None: what came next in the turn tells, ``result._continued``)."""
        return None

    def wire_call(self, name: str, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The tool call the model makes for a scenario's call, which names the tool as the
        hooks see it (the same by default)."""
        return name, args

    def version(self) -> str:
        rc, out = self.command([self.run.binary, "--version"], timeout=60)
        return out.strip().splitlines()[0] if rc == 0 and out.strip() else "unknown"

    def command(self, argv: list[str], timeout: float) -> tuple[int, str]:
        """A short command of the host's own (its version): exit status and stdout."""
        try:
            done = subprocess.run(
                argv,
                capture_output=True,
                text=True,
                timeout=timeout,
                env=self.run.launch_env or None,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            return 1, str(e)
        return done.returncode, done.stdout

    def keep_output(self, message: dict[str, Any]) -> None:
        """One JSON message the host wrote, kept with the turn it belongs to."""
        self.run.output.append({"turn": self.run.turn, **message})


class LineDriver(Driver):
    """A host kept running for the whole session, one JSON line per step on its stdin, each
    step over when the host writes ``{"type": "result"}`` on stdout."""

    def __init__(self, run: Session) -> None:
        super().__init__(run)
        self.proc: subprocess.Popen[str] | None = None

    def spawn(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(
            self.run.confine(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.run.stderr_file,
            env=self.run.launch_env,
            cwd=self.run.project,
            text=True,
            encoding="utf-8",
            start_new_session=True,
        )

    def write_line(self, line: dict[str, Any]) -> None:
        assert self.proc is not None
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(line) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise RealHostError(f"{self.name} exited early: {self.stderr_tail()}") from None
        self.read_until(lambda msg: msg.get("type") == "result")

    def read_until(self, done: Callable[[dict[str, Any]], bool]) -> None:
        """Read the host's JSON lines until ``done(message)``, keeping them with their turn."""
        assert self.proc is not None
        assert self.proc.stdout is not None
        deadline = time.monotonic() + TURN_TIMEOUT_S
        for line in self.proc.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict):
                self.keep_output(message)
                if done(message):
                    return
            if time.monotonic() > deadline:
                raise RealHostError(
                    f"{self.run.host.name}: no end of turn {self.run.turn}"
                    f" within {TURN_TIMEOUT_S:g}s"
                )

    def stderr_tail(self) -> str:
        """The last line the host wrote on stderr, for a message."""
        self.run.stderr_file.flush()
        text = self.run.stderr_path.read_text(encoding="utf-8", errors="replace").strip()
        return text.splitlines()[-1][:300] if text else "(no stderr)"

    def finish(self) -> None:
        if self.proc is None:
            return
        assert self.proc.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            self.proc.stdin.close()
        self.read_until(lambda msg: False)
        try:
            self.proc.wait(timeout=TURN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            self.run.notes.append(f"{self.run.host.name} did not exit; killed")

    def close(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()


class ExecDriver(Driver):
    """A host run once per turn, each turn over when its process exits; from the second turn
    on it resumes the session the first one started (``started``)."""

    def __init__(self, run: Session) -> None:
        super().__init__(run)
        self.started = False

    def new_session(self) -> None:
        """``/new``: the next run starts a session of its own."""
        self.started = False

    def exec_turn(self, argv: list[str]) -> None:
        """One host process for one turn: run it to its end, keep its JSON lines."""
        try:
            done = subprocess.run(
                self.run.confine(argv),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                encoding="utf-8",
                env=self.run.launch_env,
                cwd=self.run.project,
                timeout=TURN_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise RealHostError(
                f"{self.run.host.name}: turn {self.run.turn} did not end within {TURN_TIMEOUT_S:g}s"
            ) from None
        except OSError as e:
            raise RealHostError(f"{self.run.host.name}: cannot start {argv[0]} ({e})") from None
        self.run.stderr_file.write(done.stderr)
        for line in done.stdout.splitlines():
            with contextlib.suppress(ValueError):
                message = json.loads(line)
                if isinstance(message, dict):
                    self.keep_output(message)
