"""OpenClaw 2026.9.6 (the npm package ``openclaw``), as its shipped ``dist/`` and ``docs/`` read.

OpenClaw's hooks are JavaScript in its own Node process, not commands: plugin folders whose
``register(api)`` calls ``api.on(name, handler, {priority, timeoutMs, matcher, ...})`` (the
typed hooks), and ``HOOK.md`` folders whose handler listens to internal events
(``agent:bootstrap``, ``command:new``, ``session:compact:before``, ``gateway:startup``...).
hooksim loads them in a Node runner of its own (``hooksim.replay.openclaw``) and this profile
states what OpenClaw does around them: which hooks fire in which order for each step
(``openclaw_session``), how each kind of hook runs (modify and gate hooks one after another by
priority with their results merged, claim hooks until one claims, observe hooks at once,
``tool_result_persist`` and ``before_message_write`` synchronously), the default budgets, which
hooks fail closed, who may register which hook, and how OpenClaw reads what a handler returns.

Two ways to run it (``hosts.openclaw.launch``): ``gateway`` (the default: a gateway serves the
session, and ``session_start``, ``HOOK.md`` hooks and the gateway's own events fire) and
``local`` (each turn one ``openclaw agent --local`` process: plugins load anew each turn, no
``HOOK.md`` hooks, no ``session_start``).

A scenario's ``hooks:`` for OpenClaw is the part of an ``openclaw.json`` that names them:
``plugins`` (``load.paths``, ``entries.<id>.hooks``, ``entries.<id>.config``, ``allow``,
``deny``, ``enabled``) and ``hooks.internal`` (``load.extraDirs``, ``entries``, ``enabled``),
relative paths read from the scenario's folder (from the config file's, for ``--hooks-config``).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from .base import (
    ConfigError,
    Fire,
    Firing,
    HookRun,
    HookSpec,
    Host,
    Session,
    SessionInfo,
    Verdict,
    first_line,
)
from .openclaw_session import TOOL_HOOK_FAILED, Mode, OpenClawSession
from .sources import Source, fact, observed, release, unverified

VERSION = "2026.9.6"


def dist(file: str, line: int, note: str = "") -> Source:
    """A line of the package's compiled ``dist/`` (its ``//#region`` comments name the source)."""
    return release("openclaw", VERSION, f"dist/{file}", line, note)


def doc(path: str, line: int, note: str = "") -> Source:
    """A line of the documentation the package ships (also at docs.openclaw.ai)."""
    return release("openclaw", VERSION, f"docs/{path}", line, note)


# dist/hooks-CKanWLsK.mjs:408-451, pluginHookNameSet: every name api.on accepts.
HOOK_NAMES = (
    "before_model_resolve", "agent_turn_prepare", "before_prompt_build", "before_agent_reply",
    "model_call_started", "model_call_ended", "llm_input", "llm_output",
    "before_agent_finalize", "agent_end", "before_compaction", "after_compaction",
    "before_reset", "inbound_claim", "channel_pairing_requested", "message_received",
    "message_sending", "reply_payload_sending", "message_sent", "before_tool_call",
    "after_tool_call", "tool_result_persist", "before_message_write", "session_start",
    "session_end", "subagent_delivery_target", "subagent_spawned", "subagent_progress",
    "subagent_ended", "gateway_start", "gateway_stop", "heartbeat_prompt_contribution",
    "cron_reconciled", "cron_changed", "skill_proposal_evaluate", "skill_proposal_changed",
    "skill_changed", "before_dispatch", "reply_dispatch", "before_install", "before_agent_run",
    "resolve_exec_env",
)  # fmt: skip
# Same file :453-457 and :459-469.
PROMPT_INJECTION_HOOKS = ("agent_turn_prepare", "before_prompt_build",
                          "heartbeat_prompt_contribution")  # fmt: skip
CONVERSATION_HOOKS = (
    "before_model_resolve", "agent_turn_prepare", "before_prompt_build", "before_agent_reply",
    "llm_input", "llm_output", "before_agent_finalize", "agent_end", "before_agent_run",
)  # fmt: skip
# dist/internal-hook-types-Deg4lhm7.mjs:2-33.
INTERNAL_FAMILIES = ("command", "session", "agent", "gateway", "message")
INTERNAL_KEYS = (
    "agent:bootstrap", "command:new", "command:reset", "command:stop", "gateway:pre-restart",
    "gateway:shutdown", "gateway:startup", "message:preprocessed", "message:received",
    "message:sent", "message:transcribed", "session:auto-reset", "session:compact:after",
    "session:compact:before", "session:patch",
)  # fmt: skip
# How each hook runs (the runner's bind* calls, dist/hooks-CKanWLsK.mjs:1218-1305); the rest
# observe (runVoidHook).
MODIFYING = (
    "before_model_resolve", "agent_turn_prepare", "before_prompt_build", "before_agent_finalize",
    "before_agent_run", "before_tool_call", "before_install", "message_sending",
    "reply_payload_sending", "subagent_delivery_target", "heartbeat_prompt_contribution",
    "resolve_exec_env",
)  # fmt: skip
CLAIMING = ("before_agent_reply", "inbound_claim", "before_dispatch", "reply_dispatch")
SYNCHRONOUS = ("tool_result_persist", "before_message_write")
# The merge of each modify hook's results (the runner's mergeResults), by name.
MERGES = {
    "before_model_resolve": "model_resolve",
    "agent_turn_prepare": "turn_prepare",
    "heartbeat_prompt_contribution": "turn_prepare",
    "before_prompt_build": "prompt_build",
    "before_agent_finalize": "finalize",
    "before_agent_run": "agent_run",
    "before_tool_call": "tool_call",
}
# The keys each merge reads of a handler's result (the runner's mergeResults, as
# replay/openclaw/dispatch.mjs MERGES copies it); a merge not here reads the result whole.
READ_KEYS = {
    "model_resolve": ("modelOverride", "providerOverride"),
    "turn_prepare": ("prependContext", "appendContext"),
    "prompt_build": ("systemPrompt", "prependContext", "appendContext", "toolsAllow",
                     "prependSystemContext", "appendSystemContext"),
    "finalize": ("action", "reason", "retry"),
    "tool_call": ("params", "block", "blockReason", "requireApproval"),
    "agent_run": ("outcome", "reason", "message", "category", "metadata"),
}  # fmt: skip
# dist/hooks-CKanWLsK.mjs:516-535: the default budget of each hook, per handler.
BUDGETS_MS = {
    "agent_end": 30_000, "channel_pairing_requested": 2_000, "before_compaction": 30_000,
    "after_compaction": 30_000, "skill_changed": 30_000, "skill_proposal_changed": 30_000,
    "gateway_stop": 5_000, "before_agent_run": 15_000, "before_install": 15_000,
    "before_tool_call": 15_000, "before_agent_finalize": 15_000, "before_prompt_build": 15_000,
    "message_sending": 15_000, "reply_payload_sending": 15_000, "resolve_exec_env": 15_000,
    "skill_proposal_evaluate": 120_000,
}  # fmt: skip
# dist/hook-runner-global-C81Znoo2.mjs:95-99.
FAIL_CLOSED = ("before_agent_run", "before_install", "before_tool_call")
# docs/automation/hooks/event-types.md:108-110: the caller's bounded wait on these.
INTERNAL_WAITS_MS = {"gateway:shutdown": 5_000, "gateway:pre-restart": 10_000}
# dist/agent-tools.before-tool-call-D6M7yTR3.mjs:2756 and :3005-3011 (TOOL_HOOK_FAILED).
TOOL_BLOCKED = "Tool call blocked by plugin hook"
# dist/hooks-CKanWLsK.mjs:296-305, resolveBlockMessage.
BLOCK_PREFIX = "Your message could not be sent"


_COUNTED = (
    "token counts are what the model reports: the real run's fake model reports its own (a full"
    " window to force a compaction), hooksim's none"
)
_CONFIG = (
    "the whole resolved openclaw.json (providers, gateway port, load paths of the run), which"
    " hooksim does not hold"
)


_ESTIMATED = (
    "OpenClaw's estimate of the transcript's tokens, counted over its own message forms (system"
    " prompt, runtime context) that hooksim does not write"
)
_SUMMARY = "the length of the summary, a text the model writes"
_SERVICES = (
    "the running gateway's own services (its cron scheduler's functions), which hooksim does"
    " not run"
)
_PORT = "the loopback port the real run picks free at run time"
_ENTRY = (
    "OpenClaw's session store entry (its times, skills snapshot, delivery state), which"
    " hooksim does not keep"
)
_STORED = (
    "the transcript as OpenClaw's store reads it back: each entry with the store's own"
    " bookkeeping (entry ids, positions, record times) and its compaction marker"
)


def block_message(decision: Mapping[str, Any], blocked_by: str) -> str:
    """What the user is shown when ``before_agent_run`` blocks (resolveBlockMessage)."""
    message = decision.get("message")
    text = message.strip() if isinstance(message, str) else ""
    by = blocked_by.strip()
    if text:
        return f"{BLOCK_PREFIX}: {text} (blocked by {by})" if by else f"{BLOCK_PREFIX}: {text}"
    return f"{BLOCK_PREFIX}: blocked by {by}" if by else f"{BLOCK_PREFIX}: blocked"


@dataclass(frozen=True)
class Loadout:
    """What an OpenClaw config names for hooksim to load: plugin folders, ``HOOK.md`` folders,
    and the rest of the config (entries, switches) as OpenClaw reads it."""

    plugins: tuple[Path, ...]
    hook_dirs: tuple[Path, ...]
    config: dict[str, Any]


def section(data: Any, *keys: str) -> dict[str, Any]:
    """The object at ``keys`` inside ``data`` ({} where any of them is not an object)."""
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def _strings(value: Any, where: str, warnings: list[str]) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        warnings.append(f"{where} is not a list of paths; ignored")
        return []
    return list(value)


def _hook_folders(folder: Path) -> list[Path]:
    """An ``extraDirs`` entry: itself when it holds a HOOK.md, else each folder in it that
    does (dist/discovery-C4C8d96P.mjs:111-128, ``includeRoot``)."""
    if (folder / "HOOK.md").is_file():
        return [folder]
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if (p / "HOOK.md").is_file())


def loadout(block: Mapping[str, Any], base: Path) -> Loadout:
    """The folders an OpenClaw config block names (relative paths from ``base``), in the
    order OpenClaw loads them; a folder that does not exist is left for the loader to name."""
    warnings: list[str] = []
    load = section(block, "plugins", "load")
    paths = [base / p for p in _strings(load.get("paths"), "plugins.load.paths", warnings)]
    extra = section(block, "hooks", "internal", "load")
    dirs = _strings(extra.get("extraDirs"), "hooks.internal.load.extraDirs", warnings)
    folders = [hook for d in dirs for hook in (_hook_folders(base / d) or [base / d])]
    return Loadout(tuple(paths), tuple(folders), dict(block))


_TOP_KEYS = ("plugins", "hooks")
_PLUGIN_KEYS = ("load", "entries", "allow", "deny", "enabled", "slots")
_INTERNAL_KEYS = ("enabled", "entries", "load")


def _config_warnings(block: Any) -> list[str]:
    """What of a hooks block OpenClaw would not read, in words."""
    if not isinstance(block, dict):
        return ["hooks is not an object (the plugins and hooks of an openclaw.json); nothing loads"]
    warnings = [f"{k!r} is not read here (OpenClaw's hooks are in plugins and hooks); ignored"
                for k in block if k not in _TOP_KEYS]  # fmt: skip
    plugins, hooks = block.get("plugins", {}), block.get("hooks", {})
    if not isinstance(plugins, dict) or not isinstance(hooks, dict):
        return [*warnings, "plugins and hooks must be objects; nothing loads"]
    warnings += [f"plugins.{k} is not an OpenClaw plugins key; ignored"
                 for k in plugins if k not in _PLUGIN_KEYS]  # fmt: skip
    internal = hooks.get("internal", {})
    warnings += [f"hooks.{k} is not read here (only hooks.internal is); ignored"
                 for k in hooks if k != "internal"]  # fmt: skip
    if isinstance(internal, dict):
        warnings += [f"hooks.internal.{k} is not an OpenClaw key; ignored"
                     for k in internal if k not in _INTERNAL_KEYS]  # fmt: skip
    return warnings


class OpenClaw(Host):
    name = "openclaw"
    title = "OpenClaw"
    modelled = f"openclaw {VERSION} (the npm package, read as shipped)"
    versions = (
        f"{VERSION} only (one release read; no hook changelog to replay older ones); a gateway,"
        " or `openclaw agent --local` per turn (hosts.openclaw.launch: local)"
    )
    checked = (
        f"the openclaw {VERSION} package's dist/ and docs/ (file and line); the order of its"
        " typed hooks in a turn observed offline"
    )
    events = {
        "session_start": "session_start",
        "prompt_submit": "before_prompt_build",
        "pre_tool": "before_tool_call",
        "post_tool": "after_tool_call",
        "stop": "before_agent_finalize",
        "pre_compact": "before_compaction",
        "post_compact": "after_compaction",
        "session_end": "session_end",
    }
    config_files = ("~/.openclaw/openclaw.json",)
    spawn = "in-process"
    shell_tool = "exec"  # docs/tools/exec.md:17, its `command` argument
    shell_tool_argv = ("sh", "-c")  # docs/tools/exec.md:77: $SHELL, which hooksim sets to /bin/sh
    parallel = False
    default_timeout_s = 0.0  # none: most hooks have no budget unless configured
    event_timeouts_s = {name: ms / 1000 for name, ms in BUDGETS_MS.items()}
    blocking = frozenset({"before_tool_call", "before_agent_run", "before_agent_reply",
                          "before_message_write", "before_install"})  # fmt: skip
    not_awaited = frozenset({"after_tool_call", "llm_input", "llm_output", "agent_end",
                             "model_call_started", "model_call_ended", "session_start",
                             "session_end", "before_reset"})  # fmt: skip
    stop_can_continue = True
    stop_cap = 3  # docs/plugins/hooks/prompt-and-session.md:301
    stop_cap_unit = "revisions (`before_agent_finalize`)"
    exit_2 = "— (no processes: a handler that throws fails open, or closed for the gates)"
    session_class = OpenClawSession
    in_process = True
    # What `hooksim compare --real` may find different from the real OpenClaw, and why.
    real_tolerances = {
        "payload/*compaction/tokenCount": _COUNTED,
        "payload/session:compact:*/context.tokenCount*": _ESTIMATED,
        "payload/session:compact:after/context.summaryLength": _SUMMARY,
        "payload/*/context.cfg*": _CONFIG,
        "payload/gateway:startup/context.deps*": _SERVICES,
        "payload/gateway_start/port": _PORT,
        "payload/command:*/context.sessionEntry*": _ENTRY,
        "payload/command:*/context.previousSessionEntry*": _ENTRY,
        "payload/before_reset/messages": _STORED,
    }
    tap_refused = (
        "OpenClaw's hooks are JavaScript handlers inside its own process, not commands a tap can"
        " stand in front of; replay its plugins with hooksim run (tool: openclaw) and check them"
        " against the real gateway with --real openclaw"
    )
    plugins_refused = (
        "name OpenClaw plugin folders in hooks: (plugins.load.paths), as an openclaw.json does"
    )
    table_cells = {
        "spawn": "in-process (a JavaScript module in OpenClaw's Node process)",
        "hooks of one event": "by kind: modify and gate hooks one after another by priority,"
        " observe hooks at once, claim hooks until one claims",
        "default timeout": "none; 15 s for the gates and prompt hooks, 30 s for `agent_end`"
        " and compaction, 5 s `gateway_stop` (`hooksim hosts --sources`)",
        "exit 2": "— (a throw fails open; closed for `before_tool_call`, `before_agent_run`)",
    }

    # The rules the Node runner applies (``rules()``); a wrong profile changes one of them.
    launch_mode: ClassVar[str] = "gateway"
    kinds: ClassVar[dict[str, str]] = {
        **{name: "modify" for name in MODIFYING},
        **{name: "claim" for name in CLAIMING},
        **{name: "sync" for name in SYNCHRONOUS},
    }
    merges: ClassVar[dict[str, str]] = MERGES
    fail_closed: ClassVar[tuple[str, ...]] = FAIL_CLOSED
    budgets_ms: ClassVar[dict[str, int]] = BUDGETS_MS
    conversation_hooks: ClassVar[tuple[str, ...]] = CONVERSATION_HOOKS
    prompt_injection_hooks: ClassVar[tuple[str, ...]] = PROMPT_INJECTION_HOOKS
    priority_order: ClassVar[str] = "higher_first"
    isolate: ClassVar[tuple[str, ...]] = ("before_tool_call",)
    timeouts_cancel: ClassVar[bool] = False
    hook_dirs_local: ClassVar[bool] = False  # HOOK.md folders load under `agent --local`
    session_start_local: ClassVar[bool] = False  # session_start fires under `agent --local`
    # A gateway starts a plugin that is not bundled only for a manifest's activation or an
    # entry's hook policy (dist/gateway-startup-plugin-loader-D5IcJB75.mjs:48-50, 128-131).
    gateway_starts_every_plugin: ClassVar[bool] = False

    facts = (
        fact(
            "events",
            "42 typed hook names (api.on); internal keys for HOOK.md and api.registerHook"
            " handlers (agent:bootstrap, command:new|reset|stop, session:compact:before|after,"
            " gateway:startup|shutdown, message:*); an unknown typed name is ignored with a"
            " warning; before_agent_start is gone",
            dist("hooks-CKanWLsK.mjs", 408),
            dist("internal-hook-types-Deg4lhm7.mjs", 17),
            dist("loader-runtime-load-CMBCNIWa.mjs", 4286, "unknown typed hook ... ignored"),
        ),
        fact(
            "order",
            "one turn: before_message_write (the prompt; after llm_input under --local),"
            " before_agent_reply, before_model_resolve, agent:bootstrap, agent_turn_prepare,"
            " before_prompt_build, before_agent_run, llm_input, then per model call"
            " model_call_started/ended, per tool before_tool_call, after_tool_call,"
            " tool_result_persist, before_message_write; then before_message_write (the"
            " reply), before_agent_finalize, agent_end, llm_output",
            observed(f"openclaw {VERSION}", "a spy plugin recording every hook, one tool call"),
            dist("builtin-openclaw-q1hiFm14.mjs", 4055, "agent_end, then"),
            dist("builtin-openclaw-q1hiFm14.mjs", 8309, "llm_output"),
        ),
        fact(
            "order",
            "the assistant message that carries tool calls is written (before_message_write)"
            " before the first call's before_tool_call (an exec call's resolve_exec_env"
            " between them); a claimed turn fires nothing after before_agent_reply",
            observed(f"openclaw {VERSION}", "a gateway's turns with an exec call, and a claim"),
        ),
        fact(
            "spawn",
            "none: a handler is a JavaScript function OpenClaw imports and calls in its own Node"
            " process (hooksim calls it in a Node runner of its own)",
            dist("loader-301ZJ-A-.mjs", 87, "HOOK.md handlers: await import(...)"),
            dist("loader-runtime-load-CMBCNIWa.mjs", 2128, "api.on"),
        ),
        fact(
            "parallel",
            "by kind: observe hooks all at once (Promise.allSettled); modify, claim and internal"
            " hooks one after another",
            dist("hooks-CKanWLsK.mjs", 807),
            dist("hooks-CKanWLsK.mjs", 837),
            dist("internal-hooks-BksM5BTY.mjs", 91),
        ),
        fact(
            "matcher",
            "before_tool_call and after_tool_call take a list of canonical tool ids (exec, read,"
            " write...), compared lower-cased; no regex, no wildcard; other hooks ignore it with"
            " a warning",
            dist("hooks-CKanWLsK.mjs", 31),
            dist("loader-runtime-load-CMBCNIWa.mjs", 4310),
        ),
        fact(
            "exit codes",
            "none: a handler returns (read by its hook's kind), throws (logged; it fails closed"
            " for the gates) or runs out of its budget",
            dist("hooks-CKanWLsK.mjs", 744),
        ),
        fact(
            "priority",
            "higher priority first, ties in registration order",
            dist("hooks-CKanWLsK.mjs", 554),
            doc("plugins/hooks/reference.md", 40),
        ),
        fact(
            "modify hooks",
            "one after another, results merged: before_tool_call's block is terminal (lower"
            " priorities never run) and its params are the last handler's, each handler seeing"
            " the original params; before_prompt_build's contexts join in priority order, its"
            " systemPrompt is the first; before_agent_run takes the most restrictive decision"
            " and an invalid one blocks",
            dist("hooks-CKanWLsK.mjs", 837),
            dist("hooks-CKanWLsK.mjs", 1083),
            dist("hooks-CKanWLsK.mjs", 650),
            dist("hooks-CKanWLsK.mjs", 1048),
        ),
        fact(
            "claim hooks",
            "before_agent_reply's handlers run in turn until one returns {handled: true}; its"
            " reply ends the turn without a model call",
            dist("hooks-CKanWLsK.mjs", 905),
        ),
        fact(
            "observe hooks",
            "all handlers at once; what they return is not read",
            dist("hooks-CKanWLsK.mjs", 807),
        ),
        fact(
            "sync hooks",
            "tool_result_persist and before_message_write run synchronously; a returned"
            " Promise is ignored with a warning; each handler sees the previous one's message",
            dist("hooks-CKanWLsK.mjs", 762),
        ),
        fact(
            "not_awaited",
            "after_tool_call, llm_input, llm_output, agent_end, model_call_started/ended,"
            " session_start, session_end and before_reset are started and not awaited",
            dist("builtin-openclaw-q1hiFm14.mjs", 3502, "after_tool_call"),
            dist("builtin-openclaw-q1hiFm14.mjs", 6842, "llm_input"),
            dist("context-engine-lifecycle-BFtpAsr8.mjs", 268, "agent_end"),
            dist("attempt.model-diagnostic-events-B1vBuHmP.mjs", 293, "model_call_*"),
            dist("get-reply-DXzvDRjY.mjs", 6029, "session_start"),
            dist("get-reply-DXzvDRjY.mjs", 6009, "session_end"),
            dist("commands-reset-hooks-hwpOXaFJ.mjs", 102, "before_reset"),
        ),
        unverified(
            "not_awaited",
            "whether `openclaw agent --local` waits for that work before it exits (taken as"
            " yes: hook promises join its async work scope)",
            dist("hooks-CKanWLsK.mjs", 392, "trackAsyncWork"),
        ),
        fact(
            "default_timeout_s",
            "per handler: 15 s for before_tool_call, before_agent_run, before_prompt_build,"
            " before_agent_finalize; 30 s agent_end and compaction; 5 s gateway_stop; none for"
            " the rest; plugins.entries.<id>.hooks.timeouts.<hook> beats hooks.timeoutMs beats"
            " the plugin's own timeoutMs; a timeout does not cancel the handler",
            dist("hooks-CKanWLsK.mjs", 516),
            dist("loader-runtime-load-CMBCNIWa.mjs", 1875),
            doc("plugins/hooks/reference.md", 73),
        ),
        fact(
            "fail closed",
            "a throw or timeout in before_tool_call, before_agent_run or before_install"
            " blocks; every other hook fails open (logged, the handler's result skipped)",
            dist("hook-runner-global-C81Znoo2.mjs", 95),
            dist("agent-tools.before-tool-call-D6M7yTR3.mjs", 3062),
        ),
        fact(
            "permissions",
            "a non-bundled plugin needs plugins.entries.<id>.hooks.allowConversationAccess for"
            " the conversation hooks, else the hook is dropped with a warning;"
            " allowPromptInjection: false drops the prompt hooks",
            dist("loader-runtime-load-CMBCNIWa.mjs", 4296),
            dist("hook-policy-decisions-DL3kOjGW.mjs", 5),
        ),
        fact(
            "given to the model",
            "before_tool_call's blockReason as the tool's error result; before_prompt_build's"
            " and agent_turn_prepare's contexts in the prompt; before_agent_finalize's revise"
            " reason before another pass",
            dist("agent-tools.before-tool-call-D6M7yTR3.mjs", 3005),
            observed(f"openclaw {VERSION}", "the blockReason reached the model verbatim"),
        ),
        fact(
            "shown to the user",
            "before_agent_run's block message (Your message could not be sent: ...);"
            " before_agent_reply's claimed reply; event.messages of /new and /reset",
            dist("builtin-openclaw-q1hiFm14.mjs", 5622),
            doc("automation/hooks/writing-hooks.md", 114),
        ),
        fact(
            "internal hooks",
            "family handlers, then the exact key's, each awaited in turn; return values are"
            " ignored; errors are logged; no timeout but the caller's 5 s wait on"
            " gateway:shutdown",
            dist("internal-hooks-BksM5BTY.mjs", 91),
            doc("automation/hooks/event-types.md", 108),
        ),
        fact(
            "modes",
            "HOOK.md hooks load only in a gateway; session_start and the gateway's events fire"
            " only there; `openclaw agent --local` loads plugins anew for each turn",
            dist("loader-301ZJ-A-.mjs", 50, "imported only by the gateway's startup and reload"),
            observed(f"openclaw {VERSION}", "no session_start under --local"),
        ),
        fact(
            "compaction",
            "session:compact:before, before_compaction, the summary, session:compact:after,"
            " after_compaction; observe only; no manual compaction under --local",
            dist("embedded-agent-BaH7wGBd.mjs", 449),
            doc("cli/agent.md", 365),
        ),
        fact(
            "compaction",
            "an automatic compaction runs only before a model request (preflight compaction):"
            " under --local at the start of the next run, in its process, before that run's"
            " hooks; the gateway also tries right after the turn that filled the window, an"
            " attempt that ends after before_compaction; each run starts with agent:bootstrap"
            " and calls the model for the summary",
            dist("agent-runner-memory-DnzQbIgI.mjs", 541),
            doc("cli/agent.md", 365),
            observed(f"openclaw {VERSION}", "local and gateway runs with a full context window"),
        ),
        fact(
            "gateway start-up",
            "gateway:startup, gateway_start, then the cron service: cron_changed twice"
            " (action added: the agent's heartbeat and weekly skill review jobs) and"
            " cron_reconciled {reason: startup, enabled}",
            dist("server-cron-Dd6AX5Mc.mjs", 3341, "the cron_changed event's fields"),
            dist("server-start-BG4nMCFD.mjs", 1053, "cron_reconciled's event"),
            observed(f"openclaw {VERSION}", "a real gateway's start-up, in this order"),
        ),
        fact(
            "plugin start",
            "a gateway starts a plugin that is not bundled only when its manifest declares"
            " activation.onCapabilities [hook] or plugins.entries.<id>.hooks sets a hook policy"
            " (allowConversationAccess, allowPromptInjection, timeoutMs, timeouts); it says"
            " nothing of one it leaves out (hooksim warns)",
            dist("gateway-startup-plugin-loader-D5IcJB75.mjs", 48),
            dist("gateway-startup-plugin-loader-D5IcJB75.mjs", 128),
            observed(f"openclaw {VERSION}", "a gateway listing the plugins it started"),
        ),
        fact(
            "bootstrap files",
            "before a run OpenClaw writes the bootstrap files a workspace lacks (AGENTS.md,"
            " SOUL.md, IDENTITY.md, USER.md; BOOTSTRAP.md in a brand-new one) into it: a tool"
            " lists them (hooksim writes a placeholder for the templates' text); a brand-new"
            " workspace also gets `git init`",
            dist("workspace-DDLxBwAa.mjs", 656, "ensureAgentWorkspace"),
            dist("workspace-DDLxBwAa.mjs", 591, "git init in a brand-new workspace"),
            observed(f"openclaw {VERSION}", "`ls` in a real run's new workspace"),
        ),
        fact(
            "exec",
            "resolve_exec_env fires before an exec call's before_tool_call; the result carries"
            ' details (status, exitCode, aggregated output, cwd), its text "(no output)" when'
            " there is none",
            dist("bash-tools-B2oth0P7.mjs", 2934),
            dist("bash-tools-B2oth0P7.mjs", 3878),
            observed(f"openclaw {VERSION}", "resolve_exec_env right before before_tool_call"),
        ),
        fact(
            "session key",
            "the sessionKey handlers see for `openclaw agent --session-id ID`:"
            " agent:main:explicit:ID, ID lower-cased (a real run: S1 -> agent:main:explicit:s1)",
            dist("session-LWX45H--.mjs", 92),
        ),
        fact(
            "reset",
            "/new as the gateway resets a session (sessions.reset): command:new (awaited; what"
            " its handlers push to event.messages reaches no chat there, only a channel's /new"
            " routes it), before_reset with the whole stored transcript, session_end (reason"
            " new), session_start (resumedFrom), subagent_ended; the session keeps its id",
            dist("session-reset-service-z65ES5vD.mjs", 941, "command:new's context"),
            dist("session-reset-service-z65ES5vD.mjs", 1144, "the id kept"),
            dist("commands-reset-hooks-hwpOXaFJ.mjs", 59, "a channel's /new replies the messages"),
            dist("session-reset-service-z65ES5vD.mjs", 388, "session_end, then session_start"),
            observed(
                f"openclaw {VERSION}",
                "sessions.reset: command:reset, before_reset, session_end, session_start",
            ),
        ),
        fact(
            "stop",
            "before_agent_finalize's revise makes the model answer again, at most three times"
            " in a run",
            doc("plugins/hooks/prompt-and-session.md", 301),
        ),
        fact(
            "config_files",
            "openclaw.json (OPENCLAW_CONFIG_PATH): plugins and hooks.internal",
            doc("automation/hooks/configuration.md", 35),
        ),
    )

    def launched(self, how: str) -> Host:
        """``gateway`` (also ``interactive``, the default) or ``local``: each turn one
        ``openclaw agent --local`` run."""
        if how in ("interactive", "gateway"):
            return self
        if how != "local":
            raise ValueError(f"{how!r}: hooksim runs OpenClaw as gateway or local")
        return type(  # type: ignore[no-any-return]
            f"{type(self).__name__}Local",
            (type(self),),
            {"launch_mode": "local", "modelled": f"{self.modelled}, openclaw agent --local"},
        )()

    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        """No process: OpenClaw's handlers are called inside its own (``in_process``)."""
        raise ValueError("OpenClaw's hooks are JavaScript handlers, not commands to start")

    def session(self, info: SessionInfo, fire: Fire) -> Session:
        """The session loop, told how the user runs OpenClaw (``launch_mode``)."""
        session = self.session_class(self, info, fire)
        local = self.launch_mode == "local"
        session.mode = Mode(local=local, session_start=not local or self.session_start_local)
        return session

    def knows(self, event: str) -> bool:
        return event in HOOK_NAMES or event in INTERNAL_KEYS or event in INTERNAL_FAMILIES

    def load_config(self, path: Path) -> Any:
        """An ``openclaw.json``'s plugins and hooks, its relative paths made absolute from its
        folder (plain JSON; JSON5's comments are not read)."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as e:
            raise ConfigError(f"{path}: cannot read ({e})") from None
        except ValueError as e:
            raise ConfigError(f"{path}: not valid JSON ({e}); JSON5 is not read") from None
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: not a JSON object")
        block = {k: data[k] for k in _TOP_KEYS if k in data}
        found = loadout(block, path.parent.resolve())
        plugins = dict(block.get("plugins") or {})
        plugins["load"] = {**(plugins.get("load") or {}), "paths": [str(p) for p in found.plugins]}
        hooks = dict(block.get("hooks") or {})
        internal = dict(hooks.get("internal") or {})
        internal["load"] = {"extraDirs": [str(p) for p in found.hook_dirs]}
        return {**block, "plugins": plugins, "hooks": {**hooks, "internal": internal}}

    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        """One spec per plugin and HOOK.md folder the block names (their handlers are known
        once the runner has loaded them), and what OpenClaw would not read."""
        warnings = _config_warnings(block)
        if not isinstance(block, dict) or any(w.endswith("nothing loads") for w in warnings):
            return [], warnings
        paths = _strings(section(block, "plugins", "load").get("paths"), "plugins.load.paths",
                         warnings)  # fmt: skip
        dirs = _strings(section(block, "hooks", "internal", "load").get("extraDirs"),
                        "hooks.internal.load.extraDirs", warnings)  # fmt: skip
        specs = [HookSpec("(plugin)", p) for p in paths]
        specs += [HookSpec("(HOOK.md)", d) for d in dirs]
        return specs, warnings

    def rules(self) -> dict[str, Any]:
        """What the Node runner needs to register and dispatch as OpenClaw does."""
        return {
            "hook_names": list(HOOK_NAMES),
            "conversation_hooks": list(self.conversation_hooks),
            "prompt_injection_hooks": list(self.prompt_injection_hooks),
            "internal_keys": list(INTERNAL_KEYS),
            "internal_families": list(INTERNAL_FAMILIES),
            "kinds": dict(self.kinds),
            "merges": dict(self.merges),
            "fail_closed": list(self.fail_closed),
            "budgets_ms": dict(self.budgets_ms),
            "internal_waits_ms": dict(INTERNAL_WAITS_MS),
            "priority": self.priority_order,
            "isolate": list(self.isolate),
            "timeouts_cancel": self.timeouts_cancel,
        }

    def kind(self, event: str) -> str:
        """How OpenClaw runs the handlers of ``event``: modify, claim, sync, observe or
        internal."""
        return (
            "internal"
            if ":" in event or event in INTERNAL_FAMILIES
            else self.kinds.get(event, "observe")
        )

    def read(self, event: str, run: HookRun) -> Verdict:
        """A handler is read when the runner reports it (``read_handler``); this is that note."""
        return Verdict(run.verdict or "ok", context=run.context)

    # --- reading what the runner reports --------------------------------------------------
    def read_handler(self, event: str, record: Mapping[str, Any]) -> Verdict:
        """How OpenClaw reads one handler call: its status and what it returned."""
        status = record.get("status")
        closed = event in self.fail_closed
        consequence = self._failure(event) if closed else "fails open: logged, its result skipped"
        if status == "running":
            return Verdict("still running")
        if status == "timed_out":
            late = record.get("late") or {}
            note = f"timed out after {record.get('budgetMs')} ms ({consequence}); not cancelled"
            if late:
                went = (float(late.get("ended", 0)) - float(record.get("started", 0))) / 1000
                note += f": it went on and {_ended(late)} at +{went:g}s"
            return Verdict(note)
        if status == "threw":
            if self.kind(event) == "internal":
                return Verdict(
                    f"threw {record.get('error')!r}: logged, the next handler runs", fault="failed"
                )
            return Verdict(f"threw {record.get('error')!r} ({consequence})", fault="failed")
        return self._returned(event, record.get("value"), record)

    def _failure(self, event: str) -> str:
        if event == "before_tool_call":
            return "fails closed: the tool call is blocked"
        if event == "before_agent_run":
            return "fails closed: the run is blocked"
        return "fails closed"

    def _returned(self, event: str, value: Any, record: Mapping[str, Any]) -> Verdict:
        kind = self.kind(event)
        if record.get("ignoredPromise"):
            return Verdict(
                "returned a Promise: ignored (this hook is synchronous)", fault="refused"
            )
        if value is None:
            return Verdict("ok")
        if kind in ("observe", "internal"):
            return Verdict(f"returned {_short(value)}: not read ({kind} hook)", fault="refused")
        if not isinstance(value, dict):
            return Verdict(
                f"returned {_short(value)}: not an object, nothing to merge", fault="refused"
            )
        read = READ_KEYS.get(self.merges.get(event, ""))
        unknown = [k for k in value if read is not None and k not in read]
        parts = [_field(event, key, item) for key, item in value.items()
                 if item is not None and key not in unknown]  # fmt: skip
        said = "; ".join(p for p in parts if p)
        if unknown:
            close = [m for k in unknown if (m := _meant(k, read or ()))]
            hint = f"; did you mean {', '.join(dict.fromkeys(close))}?" if close else ""
            ignored = f"unknown keys: {', '.join(unknown)}{hint}"
            note = f"{said}; {ignored}" if said else f"nothing it acts on ({ignored})"
            return Verdict(note, fault="refused")
        return Verdict(said or f"returned {_short(value)}")

    def read_firing(self, firing: Firing, reply: Mapping[str, Any]) -> None:
        """What OpenClaw does with a firing's merged result (or its failure)."""
        result, error = reply.get("result"), reply.get("error")
        firing.result = result
        event = firing.event
        said: list[str] = []
        if error and event in self.fail_closed:
            firing.blocked = True
            firing.reason = self._failed_reason(event)
            said.append(f"a handler failed and {event} fails closed")
            if event == "before_agent_run":
                firing.shown.append(firing.reason)
        elif isinstance(result, dict):
            said += self._merged(firing, result)
        if reply.get("stopped_by") and reply.get("skipped"):
            n = int(reply["skipped"])
            said.append(
                f"the chain ends there: {n} lower-priority handler{'s' * (n != 1)} never run"
            )
        firing.effect = "; ".join(filter(None, [firing.effect, *said]))

    def _failed_reason(self, event: str) -> str:
        if event == "before_tool_call":
            return TOOL_HOOK_FAILED
        return block_message({}, "before_agent_run")

    def _merged(self, firing: Firing, result: dict[str, Any]) -> list[str]:
        """The merged result of a modify or claim hook, read as the caller reads it."""
        event = firing.event
        if event == "before_tool_call":
            if result.get("block") is True:
                firing.blocked = True
                firing.reason = str(result.get("blockReason") or TOOL_BLOCKED)
            elif isinstance(result.get("params"), dict):
                firing.updated_input = dict(result["params"])
            if result.get("requireApproval") and not firing.blocked:
                return [
                    "a handler asks for approval; hooksim does not model the approval, the call runs"
                ]
        elif event == "before_agent_run":
            decision = result.get("decision") or {}
            if decision.get("outcome") == "block":
                firing.blocked = True
                firing.reason = block_message(decision, str(result.get("pluginId") or "unknown"))
                firing.shown.append(firing.reason)
        elif event in ("before_prompt_build", "agent_turn_prepare"):
            keys = ("systemPrompt", "prependSystemContext", "appendSystemContext",
                    "prependContext", "appendContext")  # fmt: skip
            firing.context += [
                str(result[k]) for k in keys if isinstance(result.get(k), str) and result[k]
            ]
            if "toolsAllow" in result:
                return [f"tools limited to {result['toolsAllow']}"]
        elif event == "before_agent_finalize" and result.get("action") == "revise":
            firing.blocked = True
            retry = section(result, "retry")
            firing.reason = str(retry.get("instruction") or result.get("reason") or "")
        elif self.kind(event) == "internal":
            messages = [m for m in result.get("messages") or [] if isinstance(m, str) and m.strip()]
            firing.shown += ["\n\n".join(messages)] if messages else []
        return []


def _ended(outcome: Mapping[str, Any]) -> str:
    if outcome.get("status") == "threw":
        return f"threw {outcome.get('error')!r}"
    value = outcome.get("value")
    return "returned" if value is None else f"returned {_short(value)}"


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


def _meant(key: str, read: tuple[str, ...]) -> str | None:
    """The key a handler most likely meant (``blocked``: ``block``, ``reason``:
    ``blockReason``), or None."""
    low = key.lower()
    near = [r for r in read if low.startswith(r.lower()) or r.lower().endswith(low)]
    if near:
        return near[0]
    close = difflib.get_close_matches(low, [r.lower() for r in read], n=1)
    return next((r for r in read if close and r.lower() == close[0]), None)


def _field(event: str, key: str, value: Any) -> str:
    """One field of a handler's result, as OpenClaw reads it for ``event``."""
    known = {
        ("before_tool_call", "block"): "block" if value is True else "",
        ("before_tool_call", "blockReason"): f"reason {first_line(str(value))!r}",
        ("before_tool_call", "params"): f"params {_short(value)} (the last handler's win)",
        ("before_agent_reply", "handled"): "claims the turn" if value else "declines",
        ("before_agent_reply", "reply"): f"reply {_short(value)}",
        ("before_agent_run", "outcome"): f"outcome {value}",
        ("before_agent_finalize", "action"): f"action {value}",
        ("before_message_write", "block"): "block: the message is not written" if value else "",
        ("before_message_write", "message"): "rewrites the message",
        ("tool_result_persist", "message"): "rewrites the tool result written down",
    }
    if (event, key) in known:
        return known[(event, key)]
    if key.endswith("Context") or key == "systemPrompt":
        return f"{key} {_short(value)}"
    return f"{key} {_short(value)}"


__all__ = [
    "BUDGETS_MS",
    "CONVERSATION_HOOKS",
    "FAIL_CLOSED",
    "HOOK_NAMES",
    "INTERNAL_KEYS",
    "Loadout",
    "OpenClaw",
    "block_message",
    "loadout",
    "section",
]
