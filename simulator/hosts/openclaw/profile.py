"""OpenClaw's profile: its attributes (events, timeouts, spawn rules) and its rules (parsing its
hook config, matching, reading a hook's output)."""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from ..output import first_line
from ..profile import Host
from ..records import ConfigError, Firing, HookRun, HookSpec, Verdict
from ..session import Fire, Session, SessionInfo
from .base import Mode
from .config import TOP_KEYS, config_warnings, loadout, section, strings
from .constants import (
    BLOCK_PREFIX,
    BUDGETS_MS,
    CLAIMING,
    CONVERSATION_HOOKS,
    FAIL_CLOSED,
    HOOK_NAMES,
    INTERNAL_FAMILIES,
    INTERNAL_KEYS,
    INTERNAL_WAITS_MS,
    MERGES,
    MODIFYING,
    PROMPT_INJECTION_HOOKS,
    READ_KEYS,
    SYNCHRONOUS,
    TOOL_BLOCKED,
    VERSION,
)
from .facts import FACTS
from .messages import TOOL_HOOK_FAILED
from .session import OpenClawSession
from .tools import FILE_TOOLS

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


class OpenClaw(Host):
    name = "openclaw"
    folder_variables = ("OPENCLAW_STATE_DIR", "OPENCLAW_HOME")
    title = "OpenClaw"
    modelled = f"openclaw {VERSION} (the npm package, read as shipped)"
    versions = (
        f"{VERSION} (one release read; no hook changelog to replay older ones), real runs of"
        " 2026.9.5 and 2026.9.6 match it, 2026.9.3 and 2026.9.4 differ (conformance-versions,"
        " docs/host-versions.md); a gateway, or `openclaw agent --local` per turn"
        " (hosts.openclaw.launch: local)"
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
    blocking = frozenset(
        {
            "before_tool_call",
            "before_agent_run",
            "before_agent_reply",
            "before_message_write",
            "before_install",
        }
    )
    not_awaited = frozenset(
        {
            "after_tool_call",
            "llm_input",
            "llm_output",
            "agent_end",
            "model_call_started",
            "model_call_ended",
            "session_start",
            "session_end",
            "before_reset",
        }
    )
    stop_can_continue = True
    stop_cap = 3  # docs/plugins/hooks/prompt-and-session.md:301
    stop_cap_unit = "revisions (`before_agent_finalize`)"
    exit_2 = "— (no processes: a handler that throws fails open, or closed for the gates)"
    session_class = OpenClawSession
    in_process = True
    relaunches = True  # agent --local runs, then a gateway (or back), in one session
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
    # `agent --local` starts every plugin it loads, activation or not (observed:
    # scenarios/openclaw/12-local-start-and-budgets.yaml on the real 2026.9.6).
    local_starts_every_plugin: ClassVar[bool] = True
    # Before it exits, `agent --local` waits for the hook work it tracks, which ends for a
    # handler when its budget runs out: a handler past its budget stops with the process
    # (observed, same scenario).
    local_exit_waits_for_late_handlers: ClassVar[bool] = False
    # After registering its plugins, a process loads them again in discovery passes
    # (register() runs, its handlers never fire; dist/loader-runtime-load-CMBCNIWa.mjs:851,
    # 5455): twice in an `agent --local` run, once in a gateway (observed).
    discovery_passes_local: ClassVar[int] = 2
    discovery_passes_gateway: ClassVar[int] = 1

    file_tools = FILE_TOOLS
    facts = FACTS

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
        block = {k: data[k] for k in TOP_KEYS if k in data}
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
        warnings = config_warnings(block)
        if not isinstance(block, dict) or any(w.endswith("nothing loads") for w in warnings):
            return [], warnings
        paths = strings(
            section(block, "plugins", "load").get("paths"), "plugins.load.paths", warnings
        )
        dirs = strings(
            section(block, "hooks", "internal", "load").get("extraDirs"),
            "hooks.internal.load.extraDirs",
            warnings,
        )
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
        parts = [
            _field(event, key, item)
            for key, item in value.items()
            if item is not None and key not in unknown
        ]
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
            keys = (
                "systemPrompt",
                "prependSystemContext",
                "appendSystemContext",
                "prependContext",
                "appendContext",
            )
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


PROFILE = OpenClaw  # what the registry (``hosts.FOLDERS``) loads
