"""Run a scenario on a real agent CLI, offline, and record it as hooksim records its replays.

``run_real(scenario, "claude-code", binary)`` starts a fake model server for the host's API on
127.0.0.1 (``model_server``), installs the scenario's hooks into a temporary HOME in the host's
own config format with the recorder (``hook_recorder``) in front of each command and a probe
hook on every event, drives the host turn by turn without a terminal, and builds a
``RunResult`` from what happened: one ``HookRun`` per recorded hook process, one ``Firing`` per
probe record, the mock bridge's ledger. The same ``expect:`` block then judges it.

What a real host cannot be asked to do is said in the run's notes, never silently changed:
virtual time does not reach the host (``after:`` gaps are skipped; the hooks still read the
scenario's clock, which the recorder hands them), raw events cannot be fired, an interrupted
turn runs to its end. What the host made of a hook's output is observed, not assumed: context
is what reached the fake model, and a firing blocked (or continued) by its hooks is read from
what the host did next.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from ..hosts import Firing, HookRun, Host, get_host
from ..replay.mock_bridge import temporary_frames
from ..replay.runner import RunResult, default_hooks_block
from ..replay.workspace import NOT_INHERITED, Workspace, hook_environment
from ..scenario import Compact, NewSession, RawEvent, Scenario, Step, Turn
from .hook_recorder import PROBE, read_records
from .model_server import ModelScript, ModelServer, Reply, ToolUse

# Expectations a real run can judge, and those it cannot (they are hooksim's own words).
NOT_JUDGED = {"effects": "the host's effects are hooksim's description of its own replay"}
# Reported in place of the usage a host would compact at (Claude Code's window is 1M tokens).
FULL_CONTEXT_TOKENS = 995_000
TURN_TIMEOUT_S = 120.0
# Plumbing every hook gets, as in a hooksim run; the recorder adds it if a host drops it.
_PLUMBING = ("WAGGLE_MIND_CMD", "HOOKSIM_", "PYTHONPATH", "TZ", "LD_PRELOAD", "FAKETIME")
# A real host also reads its own vendor's variables: none of the user's may reach it.
_NOT_INHERITED = (*NOT_INHERITED, "ANTHROPIC_", "CLAUDE", "OPENAI_", "CODEX_", "GEMINI_", "GOOGLE_")


class RealHostError(Exception):
    """The real host could not run the scenario; ``str()`` says why in one line."""


@dataclass
class RealRun:
    """One scenario run on a real host: the result ``expect`` judges, and the raw record."""

    result: RunResult
    records: list[dict[str, Any]]
    requests: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)
    version: str = ""
    seconds: float = 0.0
    launch_env: dict[str, str] = field(default_factory=dict)
    host_output: list[dict[str, Any]] = field(default_factory=list)


def recorder_command(spec: Path, hook_id: str, *, shell: bool = True) -> str:
    """The command installed in place of a hook (see ``hook_recorder``); ``shell=False`` for a
    host that splits the command itself and runs it without a shell (Hermes)."""
    command = shlex.join(
        [sys.executable, "-I", "-m", "hooksim.real.hook_recorder", str(spec), hook_id]
    )
    return command + "; exit $?" if shell else command


def wrap_matcher_groups(
    block: Any, spec: Path, probe_events: list[str]
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """A ``{Event: [{matcher, hooks: [...]}]}`` block with the recorder in front of every command
    and a probe group on each of ``probe_events``; also the original hooks by id."""
    wrapped: dict[str, Any] = copy.deepcopy(block) if isinstance(block, dict) else {}
    hooks: dict[str, dict[str, Any]] = {}
    for event, groups in wrapped.items():
        for g, group in enumerate(groups if isinstance(groups, list) else []):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if isinstance(handler, dict) and isinstance(handler.get("command"), str):
                    hook_id = f"{event}.{g}.{h}"
                    hooks[hook_id] = {"event": event, "command": handler["command"]}
                    handler["command"] = recorder_command(spec, hook_id)
    for event in probe_events:
        wrapped.setdefault(event, []).append(
            {"hooks": [{"type": "command", "command": recorder_command(spec, f"{PROBE}.{event}")}]}
        )
    return wrapped, hooks


def wrap_hermes_entries(
    block: Any, spec: Path, probe_events: list[str]
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """Hermes' ``{event: [{command, matcher, timeout}]}`` block, wrapped as
    ``wrap_matcher_groups`` wraps the others (the recorder runs each command as Hermes would)."""
    wrapped: dict[str, Any] = copy.deepcopy(block) if isinstance(block, dict) else {}
    hooks: dict[str, dict[str, Any]] = {}
    for event, entries in wrapped.items():
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            if isinstance(entry, dict) and isinstance(entry.get("command"), str):
                hook_id = f"{event}.{i}"
                hooks[hook_id] = {"event": event, "command": entry["command"]}
                entry["command"] = recorder_command(spec, hook_id, shell=False)
    for event in probe_events:
        entries = wrapped.get(event)
        wrapped[event] = [*(entries if isinstance(entries, list) else []),
                          {"command": recorder_command(spec, f"{PROBE}.{event}", shell=False)}]  # fmt: skip
    return wrapped, hooks


def wrap_hooks(
    host: Host, block: Any, spec: Path
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The scenario's hooks with the recorder in front of each, and a probe on every event."""
    wrap = wrap_hermes_entries if host.name == "hermes" else wrap_matcher_groups
    return wrap(block, spec, probe_events(host, block))


def probe_events(host: Host, block: Any) -> list[str]:
    """Events to watch: the host's lifecycle events, its stop-failure event, and any the
    scenario's hooks name."""
    events = [e for e in host.events.values() if e]
    events += [e for e in getattr(host, "probe_extra", ()) if e not in events]
    if isinstance(block, dict):
        events += [e for e in block if isinstance(e, str) and e not in events]
    return events


def all_strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON value (what a request body says, wherever it says it)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from all_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from all_strings(item)


def hook_texts(record: dict[str, Any], *, stderr_on_exit_2: bool = True) -> list[str]:
    """What a hook offered the host to pass on: its JSON's context, reason and message, its
    plain stdout, and stderr after exit 2."""
    texts: list[str] = []
    stdout = str(record.get("stdout") or "").strip()
    try:
        output = json.loads(stdout) if stdout.startswith("{") else None
    except ValueError:
        output = None
    if isinstance(output, dict):
        specific = output.get("hookSpecificOutput")
        if isinstance(specific, dict):
            texts += [str(specific.get(k) or "") for k in ("additionalContext",
                      "permissionDecisionReason")]  # fmt: skip
        texts += [str(output.get(k) or "") for k in ("reason", "systemMessage", "followup_message",
                                                     "context", "message")]  # fmt: skip
    elif stdout:
        texts.append(stdout)
    if record.get("exit") == 2 and stderr_on_exit_2:
        texts.append(str(record.get("stderr") or "").strip())
    return [t for t in texts if t.strip()]


class Driver:
    """One real host: where its config goes, how it starts, how a step reaches it."""

    name: ClassVar[str]
    dialect: ClassVar[str]
    binary: ClassVar[str]  # the executable's name on PATH
    package: ClassVar[str]  # where it comes from, for messages
    launch: ClassVar[str] = "interactive"  # how the driver runs it (a scenario's hosts.X.launch)
    # True: a SessionStart(compact) belongs to the compaction step (the host fires it as part
    # of compacting); False: the host queues it for the next turn, where it is counted.
    compact_session_start_in_step: ClassVar[bool] = True

    def __init__(self, run: RealSession) -> None:
        self.run = run

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

    def close(self) -> None:
        """Whatever happened, nothing of the host keeps running."""

    def wire_call(self, name: str, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The tool call the model makes for a scenario's call, which names the tool as the
        hooks see it (the same by default)."""
        return name, args

    def version(self) -> str:
        rc, out = self.run.command([self.run.binary, "--version"], timeout=60)
        return out.strip().splitlines()[0] if rc == 0 and out.strip() else "unknown"


class LineDriver(Driver):
    """A host kept running for the whole session, one JSON line per step on its stdin, each
    step over when the host writes ``{"type": "result"}`` on stdout."""

    def __init__(self, run: RealSession) -> None:
        super().__init__(run)
        self.proc: subprocess.Popen[str] | None = None

    def spawn(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(
            argv,
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
            raise RealHostError(f"{self.name} exited early: {self.run.stderr_tail()}") from None
        self.run.read_until(self.proc, lambda msg: msg.get("type") == "result")

    def finish(self) -> None:
        if self.proc is None:
            return
        assert self.proc.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            self.proc.stdin.close()
        self.run.read_until(self.proc, lambda msg: False)
        self.run.wait(self.proc)

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


class ClaudeCodeDriver(LineDriver):
    """Claude Code: one ``claude -p`` process for the session, a turn per stdin line."""

    name = "claude-code"
    dialect = "anthropic"
    binary = "claude"
    package = "@anthropic-ai/claude-code"

    def install(self, wrapped: dict[str, Any]) -> list[str]:
        settings = self.run.home / ".claude" / "settings.json"
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps({"hooks": wrapped}, indent=2), encoding="utf-8")
        return []

    def env(self, url: str) -> dict[str, str]:
        return {
            "ANTHROPIC_BASE_URL": url,
            "ANTHROPIC_API_KEY": "sk-hooksim-offline",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_MAX_RETRIES": "0",  # a scripted error status is final, not retried
        }

    def start(self) -> None:
        tools = sorted({c.name for t in self.run.scenario.steps if isinstance(t, Turn)
                        for c in t.tools}) or ["Bash"]  # fmt: skip
        argv = [self.run.binary, "-p", "--input-format", "stream-json", "--output-format",
                "stream-json", "--verbose", "--allowedTools", ",".join(tools)]  # fmt: skip
        model = self.run.scenario.session.get("model")
        if model:
            argv += ["--model", model]
        # Claude Code refuses to skip permissions as root; --allowedTools lets the scripted
        # tools run without a prompt instead.
        self.spawn(argv)

    def send(self, text: str) -> None:
        self.write_line({"type": "user", "message": {"role": "user", "content": text}})


class CodexDriver(Driver):
    """Codex CLI: ``codex exec`` for the first turn, ``codex exec resume --last`` for the rest.

    Its hooks run only when trusted: ``--dangerously-bypass-hook-trust`` trusts them for each
    run (said in the run's notes). A model provider in ``config.toml`` points it at the fake
    Responses API; a small ``model_auto_compact_token_limit`` lets the fake model's reported
    usage force an automatic compaction.
    """

    name = "codex"
    dialect = "responses"
    binary = "codex"
    package = "@openai/codex"
    launch = "exec"
    compact_session_start_in_step = False  # run_turn drains it with the turn's own

    def __init__(self, run: RealSession) -> None:
        super().__init__(run)
        self.codex_home = run.home / ".codex"
        self.started = False

    def install(self, wrapped: dict[str, Any]) -> list[str]:
        self.codex_home.mkdir(parents=True, exist_ok=True)
        (self.codex_home / "hooks.json").write_text(
            json.dumps({"hooks": wrapped}, indent=2), encoding="utf-8"
        )
        return [
            "Codex runs hooks only once trusted: each exec passes --dangerously-bypass-hook-trust"
        ]

    def env(self, url: str) -> dict[str, str]:
        model = self.run.scenario.session.get("model", "model-1")
        (self.codex_home / "config.toml").parent.mkdir(parents=True, exist_ok=True)
        (self.codex_home / "config.toml").write_text(
            f"model = {json.dumps(model)}\n"
            'model_provider = "hooksim"\n'
            f"model_auto_compact_token_limit = {FULL_CONTEXT_TOKENS // 2}\n"
            "[model_providers.hooksim]\n"
            'name = "hooksim"\n'
            f"base_url = {json.dumps(url + '/v1')}\n"
            'wire_api = "responses"\n'
            'env_key = "HOOKSIM_MODEL_KEY"\n'
            "[features]\n"
            "hooks = true\n",
            encoding="utf-8",
        )
        return {"CODEX_HOME": str(self.codex_home), "HOOKSIM_MODEL_KEY": "sk-hooksim-offline"}

    def send(self, text: str) -> None:
        argv = [self.run.binary, "exec"]
        if self.started:
            argv += ["resume", "--last"]
        argv += ["--json", "--skip-git-repo-check", "--dangerously-bypass-hook-trust",
                 "--dangerously-bypass-approvals-and-sandbox", text]  # fmt: skip
        self.started = True
        self.run.exec_turn(argv)

    def new_session(self) -> None:
        """``/new``: the next exec starts a session of its own."""
        self.started = False

    def wire_call(self, name: str, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """Codex's hooks see its shell tool, ``exec_command {cmd}``, as ``Bash {command}``."""
        if name == "Bash" and "command" in args:
            rest = {k: v for k, v in args.items() if k not in ("command", "description")}
            return "exec_command", {"cmd": args["command"], **rest}
        return name, args


class GeminiCliDriver(Driver):
    """Gemini CLI: ``gemini -p`` per turn, ``--resume latest`` after the first.

    Headless mode needs the API-key login chosen in ``settings.json`` (else the base URL
    selects a gateway login it rejects) and a trusted workspace (else it refuses to start and
    project hooks do not run); ``--yolo`` lets the scripted tools run. A named model keeps the
    CLI from asking a classifier model which one to use.
    """

    name = "gemini-cli"
    dialect = "gemini"
    binary = "gemini"
    package = "@google/gemini-cli"
    launch = "headless"  # without a terminal there is no interactive session

    def __init__(self, run: RealSession) -> None:
        super().__init__(run)
        self.started = False

    def install(self, wrapped: dict[str, Any]) -> list[str]:
        settings = self.run.home / ".gemini" / "settings.json"
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps({
            "hooks": wrapped,
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "telemetry": {"enabled": False},
            "privacy": {"usageStatisticsEnabled": False},
            "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
        }, indent=2), encoding="utf-8")  # fmt: skip
        return ["the workspace is trusted (GEMINI_CLI_TRUST_WORKSPACE=true): untrusted, headless"
                " Gemini CLI does not start and project hooks do not run"]  # fmt: skip

    def env(self, url: str) -> dict[str, str]:
        return {
            "GOOGLE_GEMINI_BASE_URL": url,
            "GEMINI_API_KEY": "hooksim-offline",
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
        }

    def send(self, text: str) -> None:
        model = self.run.scenario.session.get("model", "gemini-2.5-pro")
        argv = [self.run.binary, "-p", text, "--yolo", "-o", "json", "-m", model]
        if self.started:
            argv += ["--resume", "latest"]
        self.started = True
        self.run.exec_turn(argv)

    def new_session(self) -> None:
        """``/new``: the next run starts a session of its own."""
        self.started = False


class HermesDriver(LineDriver):
    """Hermes: its interactive CLI (``HermesCLI.chat`` per message, ``hooksim.real.hermes_loop``) in
    one process run by the interpreter of the ``hermes`` executable, against a fake
    OpenAI-compatible server (its ``custom`` provider). Hooks are consented in the config
    (``hooks_auto_accept``), as a terminal user would at the first prompt."""

    name = "hermes"
    dialect = "openai-chat"
    binary = "hermes"
    package = "hermes-agent"

    def __init__(self, run: RealSession) -> None:
        super().__init__(run)
        self.hermes_home = run.home / ".hermes"

    def install(self, wrapped: dict[str, Any]) -> list[str]:
        self.hermes_home.mkdir(parents=True, exist_ok=True)
        config = {"hooks": wrapped, "hooks_auto_accept": True}
        (self.hermes_home / "config.yaml").write_text(json.dumps(config, indent=2))  # JSON is YAML
        return ["hooks consented in config.yaml (hooks_auto_accept), as at Hermes' first prompt"]

    def env(self, url: str) -> dict[str, str]:
        tools = {c.name for t in self.run.scenario.steps if isinstance(t, Turn) for c in t.tools}
        return {
            "HERMES_HOME": str(self.hermes_home),
            "HOOKSIM_MODEL_URL": f"{url}/v1",
            "HOOKSIM_MODEL_NAME": str(self.run.scenario.session.get("model") or "fake-model"),
            "HOOKSIM_TOOLSETS": "file,terminal" if tools else "file",
        }

    def python(self) -> str:
        """The interpreter the ``hermes`` script runs with (its ``#!`` line)."""
        with open(self.run.binary, "rb") as f:
            first = f.readline().decode("utf-8", "replace")
        if not first.startswith("#!"):
            raise RealHostError(f"--real hermes: {self.run.binary} is not a Python script")
        return first[2:].strip().split()[0]

    def start(self) -> None:
        self.spawn([self.python(), "-I", str(Path(__file__).with_name("hermes_loop.py"))])

    def send(self, text: str) -> None:
        self.write_line({"user": text})

    def new_session(self) -> None:
        self.write_line({"new": True})


DRIVERS: dict[str, type[Driver]] = {
    d.name: d for d in (ClaudeCodeDriver, CodexDriver, GeminiCliDriver, HermesDriver)
}


def find_binary(host: str, path: str | None) -> str:
    """The host's executable: ``path`` if given, else its name on PATH."""
    driver = DRIVERS.get(host)
    if driver is None:
        raise RealHostError(
            f"--real {host}: hooksim drives {', '.join(DRIVERS)} as real hosts, not {host}"
        )
    found = path or shutil.which(driver.binary)
    if not found:
        raise RealHostError(
            f"--real {host}: no {driver.binary!r} on PATH; install {driver.package} or give"
            f" its path as --real {host}=PATH"
        )
    if not os.access(found, os.X_OK):
        raise RealHostError(f"--real {host}: {found} is not an executable file")
    return found


class RealSession:
    """The mutable state of one real run (work directory, server, recordings)."""

    def __init__(self, scenario: Scenario, host: Host, binary: str, workdir: Path) -> None:
        self.scenario = scenario
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
        self.stderr_path = workdir / "host-stderr.txt"
        self.stderr_file = self.stderr_path.open("w", encoding="utf-8")
        self.script = ModelScript()
        self.driver = DRIVERS[host.name](self)
        self.notes: list[str] = []
        self.output: list[dict[str, Any]] = []
        self.now_ms = int(scenario.start.timestamp() * 1000)
        self.turn = 0
        self.launch_env: dict[str, str] = {}
        # turn -> the auto compaction step it hosts, and that step's virtual instant
        self.compaction_turn: dict[int, dict[str, int]] = {}

    # --- process helpers ------------------------------------------------------------------
    def command(self, argv: list[str], timeout: float) -> tuple[int, str]:
        try:
            done = subprocess.run(
                argv,
                capture_output=True,
                text=True,
                timeout=timeout,
                env=self.launch_env or None,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            return 1, str(e)
        return done.returncode, done.stdout

    def stderr_tail(self) -> str:
        self.stderr_file.flush()
        text = self.stderr_path.read_text(encoding="utf-8", errors="replace").strip()
        return text.splitlines()[-1][:300] if text else "(no stderr)"

    def read_until(self, proc: subprocess.Popen[str], done: Any) -> None:
        """Read the host's JSON lines until ``done(message)``, keeping them with their turn."""
        assert proc.stdout is not None
        deadline = time.monotonic() + TURN_TIMEOUT_S
        for line in proc.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict):
                self.output.append({"turn": self.turn, **message})
                if done(message):
                    return
            if time.monotonic() > deadline:
                raise RealHostError(f"{self.host.name}: no end of turn {self.turn} within"
                                    f" {TURN_TIMEOUT_S:g}s")  # fmt: skip

    def exec_turn(self, argv: list[str]) -> None:
        """One host process for one turn: run it to its end, keep its JSON lines."""
        try:
            done = subprocess.run(
                argv,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                encoding="utf-8",
                env=self.launch_env,
                cwd=self.project,
                timeout=TURN_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise RealHostError(f"{self.host.name}: turn {self.turn} did not end within"
                                f" {TURN_TIMEOUT_S:g}s") from None  # fmt: skip
        except OSError as e:
            raise RealHostError(f"{self.host.name}: cannot start {argv[0]} ({e})") from None
        self.stderr_file.write(done.stderr)
        for line in done.stdout.splitlines():
            with contextlib.suppress(ValueError):
                message = json.loads(line)
                if isinstance(message, dict):
                    self.output.append({"turn": self.turn, **message})

    def wait(self, proc: subprocess.Popen[str]) -> None:
        try:
            proc.wait(timeout=TURN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            self.notes.append(f"{self.host.name} did not exit; killed")

    # --- the run ---------------------------------------------------------------------------
    def environment(self, url: str) -> dict[str, str]:
        """What the host process starts with: every hook's plumbing, as in a replay, and the
        driver's own variables (its config home, the fake model's address)."""
        env = hook_environment(
            self.scenario,
            self.workspace,
            hermes_home=False,  # the Hermes driver names its own
            not_inherited=_NOT_INHERITED,
        )
        # The host's own scratch files stay in the work directory.
        env["TMPDIR"] = str(self.tmp)
        env.update(self.driver.env(url))
        return env

    def announce(self, turn: int) -> None:
        """Tell the recorder which turn (and virtual instant) the hooks now starting belong to."""
        self.turn = turn
        announced: dict[str, Any] = {"turn": turn, "now_ms": self.now_ms}
        if turn in self.compaction_turn:
            announced["compaction"] = self.compaction_turn[turn]
        self.turn_file.write_text(json.dumps(announced))

    def replies(self, turn: Turn, compacts_next: bool) -> list[Reply]:
        """What the model answers in this turn: each tool call, then the final text."""
        uses = [ToolUse(*self.driver.wire_call(c.name, c.args), self.call_id(n))
                for n, c in enumerate(turn.tools, 1)]  # fmt: skip
        # One response with every call where the profile replays them so (Hermes: one API
        # request, then the calls in order); one call per response elsewhere.
        if self.host.name == "hermes":
            calls = [Reply(tool_calls=tuple(uses))] if uses else []
        else:
            calls = [Reply(tool_calls=(use,)) for use in uses]
        tokens = FULL_CONTEXT_TOKENS if compacts_next else 100
        if turn.error is not None:
            if turn.error.status is None:
                self.note_once(f"a failed call without a status ({turn.error.cause}) is answered"
                               " with status 500 on a real host")  # fmt: skip
            return [*calls, Reply(status=turn.error.status or 500)]
        return [*calls, Reply(turn.assistant or "", input_tokens=tokens)]

    def call_id(self, n: int) -> str:
        return f"toolu_{n:02d}" if self.host.name == "claude-code" else f"call_{n}"

    def run(self) -> RealRun:
        sc = self.scenario
        started = time.monotonic()
        wrapped, hooks = wrap_hooks(self.host, sc.hooks, self.spec)
        with ModelServer(
            self.driver.dialect, self.script, self.workdir / "requests.jsonl"
        ) as server:
            self.launch_env = self.environment(server.url)
            plumbing = {k: v for k, v in self.launch_env.items() if k.startswith(_PLUMBING)}
            self.spec.write_text(json.dumps({
                "hooks": hooks, "record_dir": str(self.records_dir),
                "turn_file": str(self.turn_file), "env": plumbing,
                "compaction_events": [e for e in (self.host.events["pre_compact"],
                                                  self.host.events["post_compact"]) if e],
                "session_start_event": self.host.events["session_start"]
                if self.driver.compact_session_start_in_step else None,
            }))  # fmt: skip
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
            turn_ms: dict[int, int] = {}
            frames: dict[int, int] = {}
            numbered = sc.numbered_steps
            try:
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
                self.announce(self.turn)
                self.driver.finish()
            finally:
                self.driver.close()
                self.stderr_file.close()
            requests = server.requests()
        records = read_records(self.records_dir)
        result = build_result(sc, self.host, records, requests, self.ledger)
        result.turn_ms, result.temporary_frames, result.workdir = turn_ms, frames, self.workdir
        return RealRun(result, records, requests, self.notes, version,
                       time.monotonic() - started, self.launch_env, self.output)  # fmt: skip

    def note_once(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def step(self, number: int, step: Step, following: Step | None) -> None:
        if isinstance(step, Turn):
            self.announce(number)
            compacts_next = isinstance(following, Compact) and following.trigger == "auto"
            self.script.set_turn(number, self.replies(step, compacts_next))
            if step.interrupted:
                self.note_once(
                    f"turn {number}: a real host is not interrupted; the turn runs to its end"
                )
            self.driver.send(step.user)
        elif isinstance(step, Compact):
            self.compact(number, step)
        elif isinstance(step, NewSession):
            self.announce(0)  # as in hooksim, /new is not a turn
            self.driver.new_session()
        elif isinstance(step, RawEvent):
            self.note_once(f"turn {number}: a raw event cannot be fired on a real host; skipped")

    def compact(self, number: int, step: Compact) -> None:
        """``/compact`` (manual); auto: the previous reply reported a full context window, so
        the host compacts before its next model request, and those events count here."""
        index = next(i for i, (n, _) in enumerate(self.scenario.numbered_steps) if n == number)
        previous = self.scenario.numbered_steps[index - 1][1] if index else None
        later = [n for n, s in self.scenario.numbered_steps[index + 1 :] if isinstance(s, Turn)]
        if step.trigger == "auto" and isinstance(previous, Turn) and later:
            self.compaction_turn[later[0]] = {"turn": number, "now_ms": self.now_ms}
            self.note_once(
                f"turn {number}: auto compaction is forced by the usage the fake model reports;"
                f" {self.host.title} compacts inside turn {later[0]}, before its model request,"
                " and those events are counted at this step"
            )
            return
        if step.trigger == "auto":
            self.note_once(f"turn {number}: no turn before and after to force an auto compaction;"
                           " sent /compact (manual) instead")  # fmt: skip
        if self.driver.launch == "exec":
            self.note_once(f"turn {number}: {self.host.title} run as exec has no /compact; the"
                           " manual compaction is skipped")  # fmt: skip
            return
        self.announce(number)
        self.script.set_turn(number, [])
        self.driver.send(f"/compact {step.instructions}".strip())


def build_result(
    scenario: Scenario, host: Host, records: list[dict[str, Any]],
    requests: list[dict[str, Any]], ledger: Path,
) -> RunResult:  # fmt: skip
    """A ``RunResult`` from a real run's records: firings from the probes, runs from the hooks,
    context from what reached the model, blocks from what the host did next."""
    result = RunResult(scenario, host_title=f"{host.title} (real)")
    firings: list[tuple[Firing, dict[str, Any]]] = []
    for record in records:
        if record["id"] == PROBE:
            payload = payload_of(record)
            match = next((str(payload[k]) for k in ("source", "trigger", "tool_name", "reason")
                          if k in payload), None)  # fmt: skip
            firing = Firing(record["turn"], record["event"], _virtual(record), match)
            firings.append((firing, record))
    for record in records:
        if record["id"] == PROBE:
            continue
        run = HookRun(
            record["turn"], record["event"], str(record.get("command")), _virtual(record),
            record.get("exit"), str(record.get("stdout") or ""), str(record.get("stderr") or ""),
            (record.get("end") or time.time()) - record["start"],
            timed_out=record.get("end") is None or "killed" in record,
        )  # fmt: skip
        result.runs.append(run)
        same = [(f, p) for f, p in firings if p["event"] == record["event"]
                and p["stdin"] == record["stdin"]]  # fmt: skip
        if not same:  # a sequential run changed the input (Gemini CLI): the probe runs last
            same = [(f, p) for f, p in firings if p["event"] == record["event"]
                    and p["turn"] == record["turn"] and p["start"] >= record["start"]]  # fmt: skip
        if same:
            firing = min(same, key=lambda fp: abs(fp[1]["start"] - record["start"]))[0]
            firing.runs.append(run)
            reached = _reached_model(host, record, requests)
            run.context = "\n".join(reached) or None
            firing.context += reached
    ordered = [f for f, _ in firings]
    for i, (firing, probe) in enumerate(firings):
        firing.blocked = _continued(
            host, firing, probe, ordered[i + 1 :], requests, firings[i + 1 :]
        )
    result.firings = ordered
    result.calls = [json.loads(line) for line in ledger.read_text(encoding="utf-8").splitlines()]
    return result


def payload_of(record: dict[str, Any]) -> dict[str, Any]:
    """The JSON object a recorded hook got on stdin ({} when it was not one)."""
    try:
        payload = json.loads(record["stdin"])
    except ValueError:
        return {}
    return payload if isinstance(payload, dict) else {}


def _virtual(record: dict[str, Any]) -> int:
    value = record.get("virtual_ms")
    return int(value) if isinstance(value, (int, float)) else int(record["start"] * 1000)


def _reached_model(host: Host, record: dict[str, Any], requests: list[dict[str, Any]]) -> list[str]:
    """The hook's texts that appear in a model request sent after the hook started (Hermes
    only logs an exit 2: its stderr is never offered to the model)."""
    later = [r for r in requests if r.get("at", 0) >= record["start"] and r.get("body")]
    sent = ["\n".join(all_strings(r["body"])) for r in later]
    offered = hook_texts(record, stderr_on_exit_2=host.name != "hermes")
    return [text for text in offered if any(text in body for body in sent)]


def _continued(  # noqa: PLR0917
    host: Host, firing: Firing, probe: dict[str, Any], after: list[Firing],
    requests: list[dict[str, Any]], later: list[tuple[Firing, dict[str, Any]]],
) -> bool:  # fmt: skip
    """Whether the host did what a block (or a continue request) of this firing does."""
    ev = host.events
    if firing.event not in host.blocking and firing.event != ev["stop"]:
        return False  # nothing its hooks say can stop it
    same_turn = [f for f in after if f.turn == firing.turn]
    end = next((p["start"] for f, p in later if f.turn != firing.turn), float("inf"))
    model_after = [
        r for r in requests if r.get("kind") == "main" and probe["start"] <= r.get("at", 0) < end
    ]
    if firing.event == ev["stop"]:
        # Blocked or continued: the model was asked again in this turn.
        return bool(model_after)
    if firing.event == ev["prompt_submit"]:
        return not model_after and not any(f.event == ev["stop"] for f in same_turn)
    if firing.event == ev["pre_tool"]:
        if host.name == "hermes":  # a blocked call still fires post_tool_call, status blocked
            post = next((p for f, p in later if f.turn == firing.turn
                         and f.event == ev["post_tool"]), None)  # fmt: skip
            extra = payload_of(post).get("extra") if post is not None else None
            return isinstance(extra, dict) and extra.get("status") == "blocked"
        nxt = next((f for f in same_turn if f.event in (ev["pre_tool"], ev["post_tool"])), None)
        return nxt is None or nxt.event != ev["post_tool"]
    if firing.event == ev["pre_compact"]:
        summary = [
            r for r in requests if r.get("kind") == "summary" and r.get("at", 0) >= probe["start"]
        ]
        return not summary and not any(f.event == ev["post_compact"] for f in same_turn)
    return False


def with_hooks(scenario: Scenario, host: Host) -> Scenario:
    """The scenario with the hooks it runs: its own, or on Hermes those ``hermes-hooks install``
    writes (as ``hooksim run`` does)."""
    if scenario.hooks is not None:
        return scenario
    if host.name == "hermes":
        return replace(scenario, hooks=default_hooks_block())
    raise RealHostError(f"{scenario.path}: no hooks for {host.name}: add hosts.{host.name}.hooks")


def run_real(
    scenario: Scenario, tool: str, binary: str | None = None, *, keep_workdir: bool = False
) -> RealRun:
    """Run one scenario on the real ``tool`` (its binary at ``binary``, else on PATH)."""
    path = find_binary(tool, binary)
    host = get_host(tool)
    scenario = scenario.on(tool)
    if scenario.version is not None:
        host = host.at_version(scenario.version)
    if scenario.launch is not None:
        host = host.launched(scenario.launch)
    scenario = with_hooks(scenario, host)
    workdir = Path(tempfile.mkdtemp(prefix="hooksim-real-"))
    try:
        real = RealSession(replace(scenario), host, path, workdir).run()
        if keep_workdir:
            real.result.workdir = workdir
        return real
    finally:
        if not keep_workdir:
            shutil.rmtree(workdir, ignore_errors=True)
