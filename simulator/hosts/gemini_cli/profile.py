"""Gemini CLI's profile: its attributes (events, timeouts, spawn rules) and its rules (parsing its
hook config, matching, reading a hook's output)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..config import parse_matcher_groups
from ..output import additional_context, first_line
from ..plugins import hook_specs
from ..profile import Host, Switch, as_version, parse_version, read_json_once
from ..records import ConfigError, HookRun, HookSpec, Plugin, Verdict
from ..session import SessionInfo
from ..sources import GEMINI, GEMINI_MAIN
from .constants import (
    _QUOTE_SPECIAL,
    _RAN,
    ADVISORY,
    CONTEXT_EVENTS,
    EVENTS,
    EXIT_CODES_SINCE,
    MATCHER_EVENTS,
    MODEL_EVENTS,
    SUBSTITUTED,
    TOOL_EVENTS,
)
from .extension import hydrate, read_gemini_extension
from .facts import FACTS
from .session import GeminiSession
from .transcript import GeminiChat


class GeminiCli(Host):
    name = "gemini-cli"
    folder_variables = ("GEMINI_CLI_HOME",)
    title = "Gemini CLI"
    modelled = "v0.61.0 (code on main, real binary)"
    versions = (
        "v0.21.0 to v0.61.0 (default v0.61.0), real runs from v0.39.0 on (before v0.53.0 a"
        " request's session context and prompt are two messages); before, from the source only (hooks before v0.24.0 only with tools.enableHooks: true; the first 0.21"
        " release on npm is 0.21.3): runs of 0.21.3 and 0.26.0 differ from their replays"
        " (the events of a turn, transcript_path, the prompt after SessionStart context, /bin/sh"
        " -c in 0.21.3; conformance-versions, docs/host-versions.md)"
    )
    checked = (
        f"source ({GEMINI}@{GEMINI_MAIN[:12]}), real 0.61.0 compared by `hooksim compare --real`"
        " (gemini -p per turn; tox -e conformance-gemini-cli)"
    )
    events = {
        "session_start": "SessionStart",
        "prompt_submit": "BeforeAgent",
        "pre_tool": "BeforeTool",
        "post_tool": "AfterTool",
        "stop": "AfterAgent",
        "pre_compact": "PreCompress",
        "post_compact": None,
        "session_end": "SessionEnd",
    }
    config_files = ("~/.gemini/settings.json", ".gemini/settings.json")
    spawn = "shell"
    shell_tool = "run_shell_command"  # packages/core/src/tools/definitions/base-declarations.ts
    shell_tool_argv = ("bash", "-c")  # utils/shell-utils.ts getShellConfiguration (Unix)
    parallel = True  # unless any matching group sets sequential: true (hookPlanner)
    dedupe = True
    default_timeout_s = 60.0  # DEFAULT_HOOK_TIMEOUT = 60000 ms
    config_timeout_unit = "ms"
    # settings.ts mergeSettings: user, then the workspace's (a trusted folder's) settings, each
    # event's groups concatenated (settingsSchema.ts: hooks.* mergeStrategy CONCAT).
    project_configs = (".gemini/settings.json",)
    timeout_signal = "SIGTERM"  # to bash only; the SIGKILL 5 s later never comes (facts)
    # Not BeforeToolSelection: hookSystem.fireBeforeToolSelectionEvent reads only its toolConfig.
    blocking = frozenset(
        {"BeforeAgent", "AfterAgent", "BeforeTool", "AfterTool", "BeforeModel", "AfterModel"}
    )
    not_awaited = frozenset[str]()
    stop_cap = None  # the retry only spends the per-prompt turn budget
    exit_2 = "denies when it prints; silent exit 2 only fails (v0.30.0 on)"
    session_class = GeminiSession
    transcript = GeminiChat
    resumes = True  # gemini --resume: SessionStart(resume)
    plugin_kind = "extension"  # a folder under ~/.gemini/extensions
    trust = (
        "in an untrusted folder Gemini CLI registers no settings hooks, the user's included,"
        " and a headless run refuses to start; in a trusted one new project hooks"
        " (.gemini/settings.json) run after a warning (GEMINI_CLI_TRUST_WORKSPACE=true trusts"
        " the folder)"
    )
    exit_codes_since_0_30 = True
    rewrites_tool_input = True  # v0.24.0 on: BeforeTool's tool_input changes the call
    # The variables hookRunner sets (and substitutes into the command string), in its order;
    # before v0.39.0 only the project directory's two names.
    hook_variables = (
        "GEMINI_PROJECT_DIR",
        "GEMINI_PLANS_DIR",
        "GEMINI_CWD",
        "GEMINI_SESSION_ID",
        "CLAUDE_PROJECT_DIR",
    )
    quoted_substitution = True  # v0.23.0 on; before, the values went into the string raw
    # v0.53.0 on: a request joins consecutive entries of one role (the session context and
    # the prompt) into one message; before, each entry was a message of its own.
    coalesces_roles = True
    headless = False  # ``hosts.gemini-cli.launch: headless``: each prompt a ``gemini -p`` run
    # hooksim compare --real also watches the model events, which fire on every request.
    probe_extra = ("BeforeModel", "BeforeToolSelection", "AfterModel")
    # Headless /compress compresses without waiting while its text goes on to the model.
    races = (("PreCompress(manual)", "BeforeAgent"),)
    real_tolerances = {
        "payload/AfterModel/llm_response.usageMetadata.*": "the token counts are the model's"
        " to report: hooksim's fake model reports a full window where a run forces a"
        " compaction, the replay's answers 100",
        "payload/AfterTool/tool_response.llmContent": _RAN,
        "payload/AfterTool/tool_response.returnDisplay": _RAN,
    }
    user_config = "~/.gemini/settings.json"
    real_not_judged = dict.fromkeys(
        ("shown_to_user", "shown_to_user_never"),
        "gemini -p prints its reply, not the notices its hooks raise: the interactive UI shows"
        " them",
    )
    substitutes_in_plugins = True  # an extension's hooks: every string, the command's too
    file_tools = {
        "write_file": ("write", "file_path"),
        "replace": ("edit", "file_path", "allow_multiple"),
    }
    facts = FACTS

    def at_version(self, version: str) -> Host:
        """Gemini CLI at ``version`` (v0.21.0 on): before v0.53.0 the model events' requests
        had the session context and the prompt as two messages, before v0.39.0 hooks got only
        the project directory's variables, before v0.30.0 only exit 2 with stderr denied,
        before v0.24.0 a BeforeTool hook could not change the tool's input, before v0.23.0 the
        substituted values went into the command string unquoted."""
        v = parse_version(self.title, version)
        if v < (0, 21, 0):
            raise ValueError(
                f"hooksim models Gemini CLI from v0.21.0 (its first hooks) on, not {version}"
            )
        if v > (0, 61, 0):
            raise ValueError(f"hooksim models Gemini CLI up to v0.61.0, not {version}")
        changes: dict[str, Any] = {}
        if v < (0, 53, 0):
            changes["coalesces_roles"] = False
        if v < (0, 39, 0):
            changes["hook_variables"] = ("GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR")
        if v < (0, 24, 0):
            changes["rewrites_tool_input"] = False
        if v < (0, 23, 0):
            changes["quoted_substitution"] = False
        if v < EXIT_CODES_SINCE:
            changes["exit_codes_since_0_30"] = False
            changes["exit_2"] = "blocks, stderr is the reason (before v0.30.0)"
        return as_version(self, version, changes)

    def read_plugin(self, folder: Path) -> Plugin:
        return read_gemini_extension(folder)

    def plugin_place(self, plugin: Plugin, home: Path, workdir: Path) -> Path:
        """``gemini extensions install`` copies the folder to ``~/.gemini/extensions/NAME``."""
        return home / ".gemini" / "extensions" / plugin.name

    def plugin_specs(
        self, plugin: Plugin, place: Path, *, home: Path, project: Path
    ) -> tuple[list[HookSpec], list[str]]:
        """Its hooks with every string hydrated: ``${extensionPath}`` (where it is installed),
        ``${workspacePath}`` (the project), ``${/}`` and ``${pathSeparator}``; no variable of
        its own reaches its hooks."""
        context = {
            "extensionPath": str(place),
            "workspacePath": project.as_posix(),
            "/": "/",
            "pathSeparator": "/",
        }
        blocks = [hydrate(h.block, context) for h in plugin.hooks]
        return hook_specs(self, plugin, blocks, origin=str(place), env={})

    def launched(self, how: str) -> Host:
        """``headless``: every prompt a ``gemini -p`` run (``--resume latest`` after the first)."""
        if how == "interactive":
            return self
        if how != "headless":
            raise ValueError(f"{how!r}: hooksim runs Gemini CLI interactive or headless")
        headless: type[Host] = type(
            f"{type(self).__name__}Headless", (type(self),), {"headless": True}
        )
        return headless()

    def disabled(self, spec: HookSpec, file: Path, files: Sequence[Path]) -> Switch | None:
        """``hooksConfig.enabled: false`` in the last settings file that sets it turns every
        hook off (no hook system starts); a hook whose name (its ``name``, else its command) a
        file's ``hooksConfig.disabled`` lists is off (the lists of all files add up)."""
        read = [(path, c) for path in files if isinstance(c := _hooks_config(path), dict)]
        enabled = [(path, c["enabled"]) for path, c in read if "enabled" in c]
        if enabled and enabled[-1][1] is False:
            return Switch(
                "hooksConfig.enabled is false",
                enabled[-1][0],
                ("hooksConfig", "enabled"),
                "set hooksConfig.enabled to true",
            )
        name = self._hook_name(spec, file)
        for path, c in read:
            if isinstance(c.get("disabled"), list) and name in c["disabled"]:
                return Switch(
                    f"hooksConfig.disabled lists {name!r}",
                    path,
                    ("hooksConfig", "disabled", json.dumps(name)),
                    f"remove {name!r} from hooksConfig.disabled",
                )
        return None

    def _hook_name(self, spec: HookSpec, file: Path) -> str:
        """The name Gemini CLI knows a hook by (hookRegistry ``getHookName``): its ``name``,
        else its command."""
        try:
            node: Any = _typed_only(self.load_config(file))[0]
            for key in spec.where:
                node = node[key]
        except (ConfigError, KeyError, IndexError, TypeError):
            return spec.command
        name = (node.get("name") or node.get("command")) if isinstance(node, dict) else None
        return name if isinstance(name, str) else spec.command

    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        typed, warnings = _typed_only(block)
        specs, more = parse_matcher_groups(
            typed,
            events=EVENTS,
            matcher_events=MATCHER_EVENTS,
            timeout_unit_s=0.001 if self.config_timeout_unit == "ms" else 1.0,
            handler_env=True,  # hookRunner: ...hookConfig.env, after its own variables
        )
        return specs, warnings + more

    def matches(self, spec: HookSpec, value: str | None) -> bool:
        """hookPlanner: a regex test for tool names, the exact string for triggers and sources."""
        matcher = None if spec.matcher is None else spec.matcher.strip()
        if not matcher or matcher == "*" or value is None:
            return True
        if spec.event in TOOL_EVENTS:
            return super().matches(HookSpec(spec.event, spec.command, matcher=matcher), value)
        return matcher == value

    match_search = True  # RegExp.test: a search

    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        quote = shell_quote if self.quoted_substitution else str
        for name in SUBSTITUTED:
            if name in env and name in self.hook_variables:
                command = command.replace(f"${name}", quote(env[name]))
        return ["bash", "-c", command]

    def env(self, event: str, info: SessionInfo) -> dict[str, str]:
        slug = re.sub(r"[^a-z0-9]+", "-", Path(info.cwd).name.lower()).strip("-") or "project"
        plans = Path(info.home or "~") / ".gemini" / "tmp" / slug / info.session_id / "plans"
        variables = {
            "GEMINI_PROJECT_DIR": info.cwd,
            "GEMINI_PLANS_DIR": str(plans),
            "GEMINI_CWD": info.cwd,
            "GEMINI_SESSION_ID": info.session_id,
            "CLAUDE_PROJECT_DIR": info.cwd,
        }
        env = {"GEMINI_CLI_NO_RELAUNCH": "true"}  # set for its relaunched process, inherited
        env.update((k, v) for k, v in variables.items() if k in self.hook_variables)
        return env

    def next_input(self, event: str, stdin: bytes, run: HookRun) -> bytes:
        """hookRunner.applyHookOutputToInput: in a sequential run, what the next hook reads."""
        if run.exit_code != 0 or run.timed_out or run.spawn_error:
            return stdin
        output, _ = self.hook_output(run, 0)
        specific = output.get("hookSpecificOutput") if output else None
        if not isinstance(specific, dict):
            return stdin
        try:
            payload = json.loads(stdin)
        except ValueError:
            return stdin
        if not isinstance(payload, dict):
            return stdin
        context = specific.get("additionalContext")
        if event == "BeforeAgent" and isinstance(context, str) and "prompt" in payload:
            payload["prompt"] = f"{payload['prompt']}\n\n{context}"
        elif event == "BeforeModel" and isinstance(specific.get("llm_request"), dict):
            payload["llm_request"] = {**payload.get("llm_request", {}), **specific["llm_request"]}
        elif event == "BeforeTool" and isinstance(specific.get("tool_input"), dict):
            payload["tool_input"] = {**payload.get("tool_input", {}), **specific["tool_input"]}
        else:
            return stdin
        return self.encode(payload)

    def read(self, event: str, run: HookRun) -> Verdict:
        if run.timed_out or run.spawn_error:
            return Verdict(f"warning: {'timed out' if run.timed_out else run.spawn_error}")
        code_ = run.exit_code or 0
        output, text = self.hook_output(run, code_)
        if output is None and text is None:
            if code_ == 0:
                return Verdict("ok")
            return Verdict(f"failed (goes on): exit {code_}, no output", fault="failed")
        if output is None:
            assert text is not None
            # hookRunner convertPlainTextToHookOutput: text is a systemMessage on exit 0, a
            # "Warning: " one on exit 1, a deny's reason on any other code.
            if code_ == 0:
                return Verdict(f"systemMessage: {first_line(text)}", shown=text)
            if code_ == 1 or (not self.exit_codes_since_0_30 and code_ != 2):
                warned = f"Warning: {text}" if code_ == 1 and self.exit_codes_since_0_30 else None
                return Verdict(
                    f"warning (goes on): exit {code_} {first_line(text)}".strip(),
                    shown=warned,
                    fault="failed",
                )
            return self._deny(event, text, f"exit {code_}")
        message = output.get("systemMessage")
        message = message if isinstance(message, str) and message else None
        # types.ts getEffectiveReason: stopReason, else reason, else a stock phrase.
        reason = str(output.get("stopReason") or output.get("reason") or "No reason provided")
        if output.get("continue") is False and event not in ADVISORY:
            return Verdict(
                f"continue: false ({output.get('stopReason', '')})",
                stop=True,
                shown=_joined(message, _stopped_shown(event, message, reason)),
                clear=clears(event, output),
            )
        context = additional_context(output) if event in CONTEXT_EVENTS else None
        if output.get("decision") in ("deny", "block"):
            verdict = self._deny(event, reason, f"decision {output['decision']}", context, message)
            verdict.clear = clears(event, output)
            verdict.note += ", with clearContext" if verdict.clear else ""
            return verdict
        specific = output.get("hookSpecificOutput")
        rewrite = specific.get("tool_input") if isinstance(specific, dict) else None
        if event == "BeforeTool" and isinstance(rewrite, dict) and self.rewrites_tool_input:
            return Verdict(
                "tool_input: merged into the tool's input", updated_input=rewrite, shown=message
            )
        return Verdict("context (JSON)" if context else "ok", context=context, shown=message)

    def hook_output(self, run: HookRun, exit_code: int) -> tuple[dict[str, Any] | None, str | None]:
        """hookRunner: the JSON object a hook printed, or else its text (None, None: nothing)."""
        if self.exit_codes_since_0_30:
            text = run.stdout.strip() or run.stderr.strip()
        elif exit_code == 0:
            text = run.stdout.strip()
        else:
            text = run.stderr.strip()  # before v0.30.0 stdout was read only on exit 0
            return None, text or None
        if not text:
            return None, None
        try:
            parsed = json.loads(text)
            if isinstance(parsed, str):
                parsed = json.loads(parsed)
        except ValueError:
            return None, text
        return (parsed, None) if isinstance(parsed, dict) else (None, None)

    def _deny(
        self,
        event: str,
        reason: str,
        why: str,
        context: str | None = None,
        message: str | None = None,
    ) -> Verdict:
        """A deny: the model is told the reason where the session goes on with it (a denied
        tool's function response, an AfterAgent retry's prompt); the user is shown the
        ``systemMessage`` and the host's own line about it."""
        if event not in self.blocking:
            return Verdict(
                f"{why}: {event} cannot be denied; ignored", shown=message, fault="refused"
            )
        told = reason if event in ("AfterTool", "AfterAgent") else None
        line = None
        if event == "BeforeTool":  # the error the model and the user get (hook-utils.ts)
            told = line = f"Tool execution blocked: {reason}"
        elif event == "AfterTool":
            line = f"Tool result blocked: {reason}"
        elif event in ("BeforeAgent", "AfterAgent"):  # client.ts AgentExecutionBlocked
            line = f"Agent execution blocked: {(message or '').strip() or reason}"
        elif event in MODEL_EVENTS:  # turn.ts: the event carries the reason alone
            line = f"Agent execution blocked: {reason}"
        note = (
            f"{why}: the model gets the reason in place of the result"
            if event == "AfterTool"
            else f"block: {first_line(reason)}"
        )
        return Verdict(note, block=reason, context=context, told=told, shown=_joined(message, line))


def clears(event: str, output: dict[str, Any]) -> bool:
    """``hookSpecificOutput.clearContext: true``, which only AfterAgent's output reads
    (AfterAgentHookOutput.shouldClearContext; every other event's says false)."""
    specific = output.get("hookSpecificOutput")
    return (
        event == "AfterAgent"
        and isinstance(specific, dict)
        and specific.get("clearContext") is True
    )


def _stopped_shown(event: str, message: str | None, reason: str) -> str | None:
    """``continue: false``, as the user sees it: the agent's stop (client.ts
    AgentExecutionStopped) or a tool's (coreToolHookTriggers.ts returnDisplay)."""
    if event in ("BeforeAgent", "AfterAgent"):
        return f"Agent execution stopped: {(message or '').strip() or reason}"
    if event in TOOL_EVENTS:
        return f"Agent execution stopped by hook: {reason}"
    if event in MODEL_EVENTS:  # turn.ts: the event carries the reason alone
        return f"Agent execution stopped: {reason}"
    return None


def _joined(*texts: str | None) -> str | None:
    """The texts shown one after another, one per line (None: nothing shown)."""
    return "\n".join(t for t in texts if t) or None


def _hooks_config(path: Path) -> Any:
    """A settings file's ``hooksConfig``; None when it has none or cannot be read."""
    try:
        data = read_json_once(path)
    except ConfigError:
        return None
    return data.get("hooksConfig") if isinstance(data, dict) else None


def _typed_only(block: Any) -> tuple[Any, list[str]]:
    """The hooks block without the hooks Gemini CLI discards for lacking a ``type``."""
    if not isinstance(block, dict):
        return block, []
    warnings: list[str] = []
    kept: dict[str, Any] = {}
    for event, groups in block.items():
        if not isinstance(groups, list):
            kept[event] = groups
            continue
        kept[event] = []
        for g, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(handlers, list):
                typed = [h for h in handlers if not isinstance(h, dict) or "type" in h]
                warnings += [
                    f"hooks.{event}[{g}].hooks[{h}] has no type; Gemini CLI discards it"
                    for h, handler in enumerate(handlers)
                    if isinstance(handler, dict) and "type" not in handler
                ]
                kept[event].append({**group, "hooks": typed})
            else:
                kept[event].append(group)
    return kept, warnings


def shell_quote(arg: str) -> str:
    """escapeShellArg for bash: nothing for an empty value, else shell-quote's ``quote``."""
    if not arg:
        return ""
    if re.search(r'["\s\\]', arg) and "'" not in arg:
        return "'" + arg + "'"
    if re.search(r"[\"'\s]", arg):
        return '"' + re.sub(r'(["\\$`!])', r"\\\1", arg) + '"'
    return _QUOTE_SPECIAL.sub(lambda m: (m.group(1) or "") + "\\" + m.group(2), arg)


PROFILE = GeminiCli  # what the registry (``hosts.FOLDERS``) loads
