"""Hermes's profile: its attributes (events, timeouts, spawn rules) and its rules (parsing its hook
config, matching, reading a hook's output)."""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..profile import Host
from ..records import ConfigError, HookRun, HookSpec, Verdict
from ..session import SessionInfo
from .config import ALLOWLIST, approvals, parse_hooks_block
from .constants import CLI_TOOL_ENV, DEFAULT_TIMEOUT_S
from .facts import FACTS
from .hook_package import SOURCE, gate_state, installed_hooks
from .output import block_message, injected_context, meant_for_hermes, pre_verify_message
from .session import HermesSession, hermes_payload
from .transcript import HermesStateDb

# A file tool's result is its own JSON (resolved_path, lint, diff, a stale-file warning) that a
# scenario cannot script; a terminal call's can be the real output, as the probes script it.
_TOOL_RAN = (
    "the tool really runs on the host: its result is Hermes' own (write_file's and patch's JSON"
    " with the resolved path, a lint, a diff), not the scenario's scripted result"
)


class Hermes(Host):
    name = "hermes"
    title = "Hermes"
    modelled = "hermes-agent 0.19.0 (agent.shell_hooks, read and run)"
    versions = (
        "0.19.0 only; real runs of 0.13.0 to 0.18.2 (shell hooks since 0.13.0) differ from its"
        " replay (conformance-versions, docs/host-versions.md)"
    )
    events = {
        "session_start": "on_session_start",
        "prompt_submit": "pre_llm_call",
        "pre_tool": "pre_tool_call",
        "post_tool": "post_tool_call",
        "stop": "post_llm_call",
        "pre_compact": None,
        "post_compact": None,
        "session_end": "on_session_finalize",
    }
    config_files = ("~/.hermes/config.yaml hooks:",)
    spawn = "exec"
    # Hermes-agent's terminal tool (tools/terminal_tool.py), argument command.
    shell_tool = "terminal"
    # Its local environment runs a command with bash -c (tools/environments/base.py _run_bash).
    shell_tool_argv = ("bash", "-c")
    match_all = ()  # ``re.fullmatch``; "*" is no regex, so it means equality and matches nothing
    parallel = False
    default_timeout_s = float(DEFAULT_TIMEOUT_S)
    blocking = frozenset({"pre_tool_call"})
    stop_can_continue = False
    exit_2 = "logged only (v0.19.0)"
    session_class = HermesSession
    transcript = HermesStateDb
    # What `hooksim compare --real` may find different from the real Hermes, and why.
    real_tolerances = {
        "payload/post_tool_call/extra.result": _TOOL_RAN,
        "payload/*/extra.conversation_history[[]* tool[]].content": _TOOL_RAN,
    }
    plugins_refused = (
        "a Hermes plugin is a Python module whose register(ctx) adds callbacks Hermes calls in"
        " its own process, with no hook process to run; give shell hooks under hooks:"
    )
    checked = (
        "the released hermes-agent 0.19.0 (read, and run by tox -e conformance: its shell-hook"
        " runner and its real agent loop against hooksim, event by event)"
    )
    file_tools = {"write_file": ("write", "path"), "patch": ("patch",)}
    facts = FACTS
    default_model = "hermes-4"
    home_variable = "HERMES_HOME"  # set to the run's own home, as for the real agent
    user_config = "~/.hermes/config.yaml"
    config_shape = "entries"
    # Its consent is keyed on the exact command: a changed one is new to it.
    consent_note = "Hermes asks to approve the tapped commands: start it once with --accept-hooks"
    stderr_reaches_model = False  # a shell hook's stderr is logged, never read
    calls_in_one_response = True  # one API request, then the calls in order
    real_not_judged = dict.fromkeys(
        ("shown_to_user", "shown_to_user_never"),
        "Hermes shows its user nothing of a shell hook (it logs failures): there is no output"
        " to read",
    )

    def default_hooks(self) -> tuple[Any, str] | None:
        """A scenario that names no hooks runs what ``hermes-hooks install`` writes."""
        return installed_hooks(), SOURCE

    def hook_state(self, home: Path) -> str | None:
        """The compaction gate's state file, which the hook package keeps in the home."""
        return gate_state(home)

    def unconsented(self, spec: HookSpec, home: Path) -> str | None:
        """v0.19.0 registers a hook whose event and command are in the home's allowlist file; at
        a terminal it asks for another, elsewhere it skips it (``--accept-hooks`` approves)."""
        if (spec.event, spec.command) in approvals(home / ALLOWLIST):
            return None
        return (
            f"Hermes has not consented to it (no {spec.event} entry for this command in"
            f" {ALLOWLIST}): it skips the hook unless started with --accept-hooks"
        )

    def load_config(self, path: Path) -> Any:
        """The ``hooks:`` block of a Hermes ``config.yaml``."""
        from ruamel.yaml import YAML
        from ruamel.yaml.error import YAMLError

        try:
            data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, YAMLError) as e:
            raise ConfigError(f"{path}: cannot read the hooks config ({e})") from None
        if data is not None and not isinstance(data, dict):
            raise ConfigError(f"{path}: a Hermes config is a mapping")
        hooks = (data or {}).get("hooks")
        return hooks if hooks is None or isinstance(hooks, dict) else {"__invalid__": hooks}

    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        return parse_hooks_block(block)

    def env(self, event: str, info: SessionInfo) -> dict[str, str]:
        """What the Hermes process has put in its own environment by then (hooks inherit it):
        ``HERMES_QUIET``, in the CLI ``HERMES_INTERACTIVE`` and its tools' settings, and the
        latest agent's ``HERMES_SESSION_ID``."""
        return {
            k: str(v)
            for k, v in info.process.items()
            if k.startswith("HERMES_") or k in CLI_TOOL_ENV or k == "TERMINAL_CWD"
        }

    def shell_tool_result(self, output: str, exit_code: int) -> str:
        """The terminal tool's JSON: its output (stderr merged in, stripped), the exit code and
        no error (tools/terminal_tool.py, ``result_dict``)."""
        result = {"output": output.strip(), "exit_code": exit_code, "error": None}
        return json.dumps(result, ensure_ascii=False)

    def join_reasons(self, reasons: list[str]) -> str:
        """The first block in registration order wins; the model gets its message only."""
        return reasons[0] if reasons else ""

    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        """``shlex.split(os.path.expanduser(command))``, ``~`` being the hook's HOME."""
        if (command == "~" or command.startswith("~/")) and "HOME" in env:
            command = env["HOME"] + command[1:]
        return shlex.split(os.path.expanduser(command))

    def encode(self, payload: dict[str, Any]) -> bytes:
        """``_serialize_payload``: ``ensure_ascii=False``, default separators, no newline."""
        return json.dumps(payload, ensure_ascii=False, default=str).encode("utf-8")

    def read(self, event: str, run: HookRun) -> Verdict:
        if run.timed_out or run.spawn_error:
            return Verdict(f"logged: {'timed out' if run.timed_out else run.spawn_error}")
        note = "ok" if run.exit_code == 0 else f"logged: exit {run.exit_code}"
        if event == "pre_verify":  # Hermes' stop gate: continue (or block) keeps the turn going
            follow_up = pre_verify_message(run.stdout)
            if follow_up is not None:
                # The message is the user message the model goes on with, as it is.
                return Verdict(f"continue: {follow_up}", block=follow_up, told=follow_up)
        if event in self.blocking:
            message = block_message(run.stdout)
            if message is not None:
                # The model gets it as the tool's result: {"error": message}.
                told = json.dumps({"error": message}, ensure_ascii=False)
                return Verdict(f"block: {message}", block=message, told=told)
        context = injected_context(event, run.stdout)
        if context is not None:
            return Verdict("context", context=context)
        fault = "failed" if run.exit_code != 0 else None
        if run.stdout.strip():
            note += " (stdout ignored)"
            fault = fault or ("refused" if meant_for_hermes(run.stdout) else None)
        return Verdict(note, fault=fault)


def payload_bytes(event: str, **fields: Any) -> bytes:
    """``_serialize_payload`` of v0.19.0: key order, ``ensure_ascii=False``, no trailing newline."""
    return Hermes().encode(hermes_payload(event, **fields))


PROFILE = Hermes  # what the registry (``hosts.FOLDERS``) loads
