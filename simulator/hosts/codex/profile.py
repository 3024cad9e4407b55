"""Codex CLI's profile: its attributes (events, timeouts, spawn rules) and its rules (parsing its
hook config, matching, reading a hook's output)."""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from platform import machine
from typing import Any

from ..claude_style import ClaudeStyleReading
from ..config import parse_matcher_groups
from ..output import additional_context, first_line, parse_json_output
from ..profile import Host, Switch, as_version, parse_version
from ..records import ConfigError, HookRun, HookSpec, Verdict
from ..session import SessionInfo
from ..sources import CODEX
from .constants import (
    DISPLAY_ORDER,
    EVENTS,
    EXACT_MATCHER,
    MATCHER_EVENTS,
    SESSION_END_DEFAULT_S,
    SESSION_END_MAX_S,
)
from .facts import FACTS
from .session import CodexSession, random_suffix
from .transcript import CodexRollout

# The npm package's native build, by machine: its target triple and platform package
# (bin/codex.js PLATFORM_PACKAGE_BY_TARGET).
NATIVE = {
    "x86_64": ("x86_64-unknown-linux-musl", "linux-x64"),
    "aarch64": ("aarch64-unknown-linux-musl", "linux-arm64"),
}


def rejected(event: str, output: dict[str, Any]) -> str | None:
    """Why Codex refuses a hook's JSON output for ``event`` (the hook then failed, and nothing
    of its output but its systemMessage counts), or None: output_parser.rs's
    ``unsupported_*`` checks of PreToolUse and PostToolUse."""
    if event == "PreToolUse":
        for key, said in (
            ("continue", "continue:false"),
            ("stopReason", "stopReason"),
            ("suppressOutput", "suppressOutput"),
        ):
            value = output.get(key)
            if (key == "continue" and value is False) or (key != "continue" and value):
                return f"PreToolUse hook returned unsupported {said}"
        return _pre_tool_use_decision(output)
    if event == "PostToolUse" and output.get("continue") is not False:
        if output.get("suppressOutput"):
            return "PostToolUse hook returned unsupported suppressOutput"
        if output.get("decision") != "block" and output.get("reason") is not None:
            return "PostToolUse hook returned reason without decision"
        if output.get("decision") == "block" and not str(output.get("reason") or "").strip():
            return "PostToolUse hook returned decision:block without a non-empty reason"
    return None


def _pre_tool_use_decision(output: dict[str, Any]) -> str | None:
    """PreToolUse's decision fields: hookSpecificOutput's when it has one, else the old
    ``decision``/``reason`` pair (output_parser.rs ``parse_pre_tool_use``)."""
    specific = output.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    decision, reason = specific.get("permissionDecision"), specific.get("permissionDecisionReason")
    decided = ("permissionDecision", "permissionDecisionReason", "updatedInput")
    if any(k in specific for k in decided):
        if specific.get("updatedInput") is not None and decision != "allow":
            return "PreToolUse hook returned updatedInput without permissionDecision:allow"
        if decision == "allow" and specific.get("updatedInput") is None:
            return "PreToolUse hook returned unsupported permissionDecision:allow"
        if decision == "ask":
            return "PreToolUse hook returned unsupported permissionDecision:ask"
        if decision == "deny" and not str(reason or "").strip():
            return "PreToolUse hook returned permissionDecision:deny without a reason"
        if decision is None and reason is not None:
            return "PreToolUse hook returned permissionDecisionReason without permissionDecision"
        return None
    legacy, why = output.get("decision"), output.get("reason")
    if legacy == "approve":
        return "PreToolUse hook returned unsupported decision:approve"
    if legacy == "block" and not str(why or "").strip():
        return "PreToolUse hook returned decision:block without a non-empty reason"
    if legacy is None and why is not None:
        return "PreToolUse hook returned reason without decision"
    return None


class Codex(ClaudeStyleReading, Host):
    name = "codex"
    folder_variables = ("CODEX_HOME",)
    title = "Codex CLI"
    modelled = "v0.171.0 (codex-rs on main, real binary)"
    versions = (
        "v0.129.0 to v0.171.0 (default v0.171.0), real runs from v0.141.0 on (before v0.150.0"
        " without SessionEnd, before v0.163.0 its aliases under tmp/arg0/, before v0.169.0"
        " without StopFailure and Interrupt); before"
        " v0.141.0 hooks run with $SHELL -lc as at commit 0082977c, from the"
        " source only: codex exec runs no hooks before 0.141.0 (0.140.0 ran none) and 0.129.0"
        " and 0.130.0 have no --dangerously-bypass-hook-trust, so no unattended run can check"
        " them (runs in conformance-versions); interactive, or codex exec per turn"
        " (hosts.codex.launch: exec)"
    )
    checked = f"source ({CODEX} main) and real 0.169.0 and 0.171.0 runs (codex exec)"
    events = {
        "session_start": "SessionStart",
        "prompt_submit": "UserPromptSubmit",
        "pre_tool": "PreToolUse",
        "post_tool": "PostToolUse",
        "stop": "Stop",
        "pre_compact": "PreCompact",
        "post_compact": "PostCompact",
        "session_end": "SessionEnd",
    }
    config_files = ("~/.codex/hooks.json", "~/.codex/config.toml [hooks]", "<repo>/.codex/...")
    # discovery.rs discover_handlers: layers lowest precedence first (user, then the project's
    # .codex folder), each layer's hooks.json then its config.toml [hooks].
    project_configs = (".codex/hooks.json", ".codex/config.toml")
    spawn = "shell"
    # Hooks see every shell tool as Bash (codex-rs core/src/tools/hook_names.rs).
    shell_tool = "Bash"
    # The user's shell as a login shell (codex-rs core/src/shell.rs derive_exec_args, -lc).
    shell_tool_argv = ("bash", "-lc")
    parallel = True
    default_timeout_s = 600.0  # timeout_sec.unwrap_or(600).max(1)
    event_timeouts_s = {"SessionEnd": SESSION_END_DEFAULT_S}
    blocking = frozenset({"UserPromptSubmit", "PreToolUse", "Stop", "SubagentStop"})
    stop_cap = None
    # The hook's shell leads a session of its own; a timeout SIGKILLs its whole group.
    timeout_kills_group = True
    exit_2 = "blocks only with non-empty stderr; else failed"
    session_class = CodexSession
    transcript = CodexRollout
    plugins_refused = (
        "Codex CLI 0.171.0 runs a plugin's hooks only for a plugin installed from a marketplace"
        " and trusted, which hooksim does not model; give them under hosts.codex.hooks"
    )
    plain_text_context = frozenset({"SessionStart", "UserPromptSubmit", "SubagentStart"})
    json_on_error = False  # any other exit code is a failed hook
    exit_2_needs_stderr = True
    block_needs_reason = True
    stop_context_continues = False
    continue_ignored = frozenset({"SessionEnd"})
    brace_text_is_context = False  # stdout like "{oops" (or "[...") is a failed hook
    updated_input_needs_allow = True  # output_parser.rs: else the hook failed
    login_shell = False  # 0.129.0: $SHELL -lc
    # The folder under CODEX_HOME/tmp that holds the alias folders: arg0-<os> from 0.163.0,
    # arg0 before.
    alias_root = "arg0-linux"
    has_stop_failure = True
    has_interrupt = True
    match_search = True
    matcher_events = MATCHER_EVENTS
    exec_launch = False  # True: each turn is one `codex exec` process (launched("exec"))
    sends_transcript_path = True  # the rollout file, since the first hooks (hook_runtime.rs)
    compacts_mid_turn = True  # run_turn: token_limit_reached && needs_follow_up
    # Names a real run picks at random, mapped before compare --real compares (with why).
    run_time_names = {
        r"codex-arg0[A-Za-z0-9]{6}": (
            "codex-arg0<random>",
            "the alias folder's name ends in six random characters (tempfile)",
        ),
    }
    # What a real run shows that is no behaviour of Codex's own, each with the reason.
    real_tolerances = {
        "payload/PostToolUse/tool_response": "a file tool really runs on the host: apply_patch's"
        " result is Codex's own text (exit code, wall time, the files it changed), not the"
        " scenario's scripted result",
    }
    trust = (
        "hooks run only once reviewed and trusted (a run can pass --dangerously-bypass-hook-trust)"
    )
    user_config = "~/.codex/hooks.json"
    real_not_judged = dict.fromkeys(
        ("shown_to_user", "shown_to_user_never"),
        "codex exec --json prints no hook output (systemMessage, stopReason, a blocked prompt's"
        " reason): the TUI shows them",
    )
    file_tools = {"apply_patch": ("apply_patch", "command")}
    facts = FACTS

    def at_version(self, version: str) -> Host:
        """Codex as at ``version``: before 0.141.0, as at 0082977c (about 0.129), from the
        source only: hooks run with ``$SHELL -lc``; before 0.150.0 no SessionEnd; before 0.169.0
        no StopFailure or Interrupt; before 0.163.0 the alias folder first on a hook's PATH is
        under ``tmp/arg0/``, not ``tmp/arg0-linux/``. Runs in conformance-versions: 0.141.0,
        0.150.0 and 0.168.0 run hooks with ``/bin/bash -c`` (not a login shell), 0.141.0 fires
        no SessionEnd, 0.150.0 and 0.168.0 do."""
        v = parse_version(self.title, version)
        if v < (0, 129, 0) or v > (0, 171, 0):
            raise ValueError(f"hooksim models Codex CLI from v0.129.0 to v0.171.0, not {version}")
        changes: dict[str, Any] = {}
        if v < (0, 169, 0):
            changes = {"has_stop_failure": False, "has_interrupt": False}
        if v < (0, 163, 0):
            changes["alias_root"] = "arg0"
        if v < (0, 150, 0):
            changes["events"] = {**self.events, "session_end": None}
        if v < (0, 141, 0):
            changes["login_shell"] = True
        return as_version(self, version, changes)

    def launched(self, how: str) -> Host:
        """``exec``: each turn is one ``codex exec`` run (``codex exec resume --last`` after the
        first), with approval policy never; ``interactive``: the TUI."""
        if how == "interactive" or self.exec_launch:
            return self
        if how != "exec":
            raise ValueError(f"{how!r}: Codex CLI runs interactive or exec")
        modelled = f"{self.modelled}, codex exec per turn"
        name = f"{type(self).__name__}_exec"
        return type(name, (type(self),), {"exec_launch": True, "modelled": modelled})()  # type: ignore[no-any-return]

    def load_config(self, path: Path) -> Any:
        if path.suffix == ".toml":
            return _read_toml(path).get("hooks")
        return super().load_config(path)

    def disabled(self, spec: HookSpec, file: Path, files: Sequence[Path]) -> Switch | None:
        """``hooks = false`` under ``[features]`` (or its old name ``codex_hooks``) in the last
        config.toml that sets it turns every hook off: Codex then loads none."""
        said = []
        for path in files:
            features = _features(path)
            key = next((k for k in ("hooks", "codex_hooks") if k in features), None)
            if key is not None:
                said.append((path, key, features[key]))
        if not said or said[-1][2] is not False:
            return None
        path, key, _ = said[-1]
        return Switch(
            f"[features] {key} is false",
            path,
            ("features", key),
            f"set {key} = true under [features], or remove it",
        )

    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        """The hooks, each numbered as Codex numbers them (``display_order``, in a run's id):
        event by event in ``DISPLAY_ORDER``, then in the order the file lists them."""
        specs, warnings = parse_matcher_groups(
            block,
            events=EVENTS,
            matcher_events=self.matcher_events,
            min_timeout_s=1.0,
            timeout_keys=("timeout", "timeoutSec"),
        )
        rank = {event: n for n, event in enumerate(DISPLAY_ORDER)}
        numbered = sorted(range(len(specs)), key=lambda i: rank.get(specs[i].event, len(rank)))
        order = {i: n for n, i in enumerate(numbered)}
        return [dataclasses.replace(s, order=order[i]) for i, s in enumerate(specs)], warnings

    def blocked(self, event: str, run: HookRun, reason: str, said: str) -> Verdict:
        """Codex's words: a denied tool call's result and a blocked stop's continuation prompt
        are built from every blocking hook of the firing (``CodexSession.told``), each reason
        trimmed; a blocked prompt's reason is one of the hook's entries the user is shown."""
        text = reason.strip()
        told = text if event in ("PreToolUse", "Stop", "SubagentStop") else None
        shown = text or None if event == "UserPromptSubmit" else None
        return Verdict(f"block: {first_line(reason)}", block=reason, told=told, shown=shown)

    def join_reasons(self, reasons: list[str]) -> str:
        """Every blocking hook's reason, trimmed, a blank line between (common.rs
        ``join_text_chunks``)."""
        return "\n\n".join(r.strip() for r in reasons if r.strip())

    def feedback_told(self, event: str, run: HookRun, reason: str) -> str:
        return reason

    def message_shown(self, event: str, run: HookRun, output: dict[str, Any]) -> str | None:
        """A ``systemMessage`` is a warning entry of the hook's run, shown as it is."""
        message = output.get("systemMessage")
        return message if isinstance(message, str) and message else None

    def stop_shown(self, event: str, run: HookRun, output: dict[str, Any]) -> str | None:
        """``continue: false``'s ``stopReason`` is a stop entry of the hook's run, shown as it is."""
        stop_reason = output.get("stopReason")
        return stop_reason if isinstance(stop_reason, str) and stop_reason else None

    def exit_2_shown(self, event: str, run: HookRun) -> str | None:
        return None  # a failed hook, not a message

    def read(self, event: str, run: HookRun) -> Verdict:
        """As Claude Code reads it, except: stdout that starts with ``[`` is JSON that is not an
        object, a failed hook; ``continue: false`` from UserPromptSubmit keeps its context for
        later turns (user_prompt_submit.rs ``parse_completed``)."""
        finished = run.exit_code == 0 and not (run.timed_out or run.spawn_error)
        if finished and run.stdout.strip().startswith("["):
            return Verdict("failed: stdout is not a JSON object", fault="refused")
        output = parse_json_output(run.stdout) if finished else None
        refused = rejected(event, output) if output is not None else None
        if refused is not None and output is not None:
            # The hook failed: nothing of its output counts but its systemMessage, a warning.
            return Verdict(
                f"failed: {refused}", shown=self.message_shown(event, run, output), fault="refused"
            )
        verdict = super().read(event, run)
        if verdict.stop and event == "UserPromptSubmit" and run.exit_code == 0:
            output = parse_json_output(run.stdout)
            verdict.context = additional_context(output) if output else None
        return verdict

    def matches(self, spec: HookSpec, value: str | None) -> bool:
        """common.rs ``matches_matcher``: exact names split on ``|``, else an unanchored regex."""
        matcher = spec.matcher
        if matcher is None or matcher in self.match_all:
            return True
        if value is None:
            return False
        if EXACT_MATCHER.fullmatch(matcher):
            return value in matcher.split("|")
        try:
            find = re.search if self.match_search else re.fullmatch
            return find(matcher, value) is not None
        except re.error:
            return False  # an invalid regex matches nothing

    def timeout_s(self, spec: HookSpec, env: Mapping[str, str]) -> float:
        if spec.event == "SessionEnd":
            return min(spec.timeout_s or SESSION_END_DEFAULT_S, SESSION_END_MAX_S)
        return super().timeout_s(spec, env)

    def env(self, event: str, info: SessionInfo) -> dict[str, str]:
        """What Codex installed with npm leaves in every hook's environment: its launcher
        (``bin/codex.js``) names the package (CODEX_MANAGED_BY_NPM and
        CODEX_MANAGED_PACKAGE_ROOT), and the native binary puts two folders before PATH: the one it makes for its own
        aliases (``apply_patch``, ``codex-linux-sandbox``) under CODEX_HOME, named at random,
        and its package's ``codex-path`` (the bundled ``rg``)."""
        install = info.install or "/usr/local/lib"
        package = f"{install}/node_modules/@openai/codex"
        triple, platform = NATIVE.get(machine(), NATIVE["x86_64"])
        vendor = f"{install}/node_modules/@openai/codex-{platform}/vendor/{triple}"
        codex_home = info.env.get("CODEX_HOME") or f"{info.home}/.codex"
        aliases = f"{codex_home}/tmp/{self.alias_root}/codex-arg0{random_suffix()}"
        # No aliases under the temporary folder (Rust's temp_dir(): TMPDIR, else /tmp).
        temp = PurePosixPath(info.env.get("TMPDIR") or "/tmp")
        if PurePosixPath(codex_home).is_relative_to(temp):
            aliases = ""
        path = info.env.get("PATH", "")
        return {
            "CODEX_MANAGED_BY_NPM": "1",
            "CODEX_MANAGED_PACKAGE_ROOT": package,
            "PATH": ":".join(filter(None, [aliases, f"{vendor}/codex-path", path])),
        }

    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        """``/bin/bash -c`` on 0.169.0; ``$SHELL -lc`` (a login shell) before."""
        if self.login_shell:
            return [env.get("SHELL") or "/bin/sh", "-lc", command]
        return ["/bin/bash", "-c", command]


def _read_toml(path: Path) -> dict[str, Any]:
    """A config.toml as a table; ConfigError when it cannot be read."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]
    try:
        data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read ({e})") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML ({e})") from None
    return data


def _features(path: Path) -> dict[str, Any]:
    """The ``[features]`` table of a config.toml; empty for another file or one unreadable."""
    if path.suffix != ".toml":
        return {}
    try:
        features = _read_toml(path).get("features")
    except ConfigError:
        return {}
    return features if isinstance(features, dict) else {}


PROFILE = Codex  # what the registry (``hosts.FOLDERS``) loads
