"""What every step of OpenClaw's session loop shares (``OpenClawBase``): the context each
firing carries, the gateway a session runs on, and what a run writes down (its transcript,
the model calls, the workspace's bootstrap files). ``tool_calls`` builds a turn's tool calls
on it, ``session`` the steps themselves."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..conversation import ASSISTANT, USER
from ..records import Firing
from ..session import Session, SessionHost
from .messages import (
    ABORT_SIGNAL,
    API,
    BOOTSTRAP_FILES,
    CONTEXT_WINDOW,
    CONTEXTS,
    FUNCTION,
    GATEWAY_PORT,
    MISSING_RESULT,
    PRESENT,
    PROCESS_EXIT,
    PROVIDER,
    RUN_HOOKS,
    TEMPLATE,
    TRACE,
    UNDEFINED,
    USAGE,
    monitors,
    text_entry,
)


@dataclass(frozen=True)
class Mode:
    """How the user runs OpenClaw, as the session loop needs to know (the profile sets it)."""

    local: bool = False  # each turn one `openclaw agent --local` process
    session_start: bool = True  # session_start fires (not under --local)


class OpenClawHost(SessionHost, Protocol):
    """What OpenClaw's loop reads of its profile besides every loop's."""

    @property
    def shell_tool(self) -> str: ...


class OpenClawBase(Session):
    """The state of one OpenClaw session and what every step of it does."""

    host: OpenClawHost

    mode = Mode()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.runs = 0
        self.run_messages: list[dict[str, Any]] = []  # the current run's, as the run holds them
        self.prompt = ""  # the current run's prompt with its hooks' context, as the model gets it
        self.transcript: list[dict[str, Any]] = []  # what was written, compactions marked
        self.history: list[dict[str, Any]] = []  # what the model is sent again, as written
        self.before_run: list[dict[str, Any]] = []  # the history when the current run started
        self.started = False  # the current session has started (session_start, where it fires)
        self.announced = False  # session_start fired for it (a gateway's session_end follows)
        self.model = self.info.model
        self.provider = self.info.provider or PROVIDER
        # One gateway serves every session of a run: its state is the host process's.
        self.gateway = self.info.process.setdefault("openclaw", {"up": False, "sessions": 0})
        self.gateway["sessions"] += 1

    # --- what every firing carries ------------------------------------------------------
    @property
    def local(self) -> bool:
        return self.mode.local

    @property
    def key(self) -> str:
        """The key OpenClaw files ``--session-id ID`` under: buildExplicitSessionIdSessionKey
        (dist/session-LWX45H--.mjs:92-93), lower-cased as the session store keys are."""
        return f"agent:main:explicit:{self.info.session_id.lower()}"

    def ctx(self, event: str, **extra: Any) -> dict[str, Any]:
        """The context object (a handler's second argument) of ``event``: the keys OpenClaw
        gives that hook (``CONTEXTS``), from what the session knows and ``extra`` (the run, the
        tool call); a hook it has no table for gets the turn's."""
        known = {
            "agentId": "main",
            "sessionKey": self.key,
            "sessionId": self.info.session_id,
            "workspaceDir": self.info.cwd,
            "trigger": "user",
            "trace": TRACE,
            "activeProjectKeys": [f"path:{self.info.cwd}"],
            "modelProviderId": self.provider,
            "modelId": self.model,
            "contextTokenBudget": CONTEXT_WINDOW,
            "contextWindowSource": "modelsConfig",
            "abortSignal": ABORT_SIGNAL,
            "requester": {"senderIsOwner": True},
            "port": GATEWAY_PORT,
            "config": {},
            "getCron": FUNCTION,
            "childSessionKey": self.key,
            **extra,
        }
        if self.local and event in RUN_HOOKS:
            known["trace"] = {k: v for k, v in TRACE.items() if k != "parentSpanId"}
        keys = CONTEXTS.get(event, CONTEXTS["before_agent_reply"])
        return {k: known.get(k, UNDEFINED) for k in keys}

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        """A raw event step's firing: ``extra`` is the event object."""
        if ":" in event:
            return {"event": {"sessionKey": self.key, "context": fields}}
        return {"event": fields, "ctx": self.ctx(event)}

    def hook(
        self,
        event: str,
        fields: dict[str, Any],
        *,
        wait: bool = True,
        tool: str | None = None,
        **ctx: Any,
    ) -> Firing:
        """Fire a typed hook: its event has the keys OpenClaw always writes (``PRESENT``), and
        its context the hook's own keys."""
        fields = {**fields, **{k: v for k, v in PRESENT.get(event, {}).items() if k not in fields}}
        return self.fire(
            event, {"event": fields, "ctx": self.ctx(event, **ctx), "wait": wait}, match=tool
        )

    def internal(self, key: str, context: dict[str, Any], session_key: str | None = None) -> Firing:
        """An internal event; the gateway's own carry their key as the session key
        (``gateway:startup``, dist/server-startup-post-attach-BGo-VOeM.mjs:734; observed)."""
        event = {"sessionKey": self.key if session_key is None else session_key, "context": context}
        return self.fire(key, {"event": event})

    def messages(self, run: bool = False, *, stored: bool = False) -> list[dict[str, Any]]:
        """The session's messages before the current run, as the hooks that carry ``messages``
        see them: as OpenClaw wrote them (each reply and tool result with the run that wrote
        it, a tool result without its details unless ``stored``: as the transcript holds
        them), a compaction's summary first; with ``run``, then the run's own as the run holds
        them (the prompt's text in a content list, a tool result with its details, no
        bookkeeping). Observed on before_prompt_build and agent_end (``stored``: the agent_end
        of a run before_agent_run blocked)."""
        before = [
            m if stored else {k: v for k, v in m.items() if k != "details"} for m in self.before_run
        ]
        return [*before, *self.run_messages] if run else before

    def _reply(self, content: str | list[dict[str, Any]], stop: str) -> dict[str, Any]:
        """An assistant message as OpenClaw writes it: the model's answer with where it came
        from, what it cost and why it stopped (observed on before_message_write)."""
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        return {
            "role": ASSISTANT,
            "content": content,
            "api": API,
            "provider": self.provider,
            "model": self.model,
            "usage": USAGE,
            "stopReason": stop,
            "timestamp": self.info.now_ms(),
            "responseId": "response",
        }

    def cap_of(self, firing: Firing, cap: int | None) -> int | None:
        """``stop_cap`` revisions are allowed: the one after them is ignored."""
        return None if cap is None else cap + 1

    def capped(self, n: int, cap: int) -> str:
        return f"revision ignored: OpenClaw allows at most {cap - 1} in a run; the reply stands"

    def continued(self, n: int) -> str:
        return f"the model answers again (revision {n})"

    def told(self, firing: Firing) -> list[str]:
        """A block the model is given: the one merged reason, as OpenClaw passes it on."""
        return [firing.reason] if firing.reason else []

    def rewritten(self, args: dict[str, Any], updated: dict[str, Any]) -> dict[str, Any]:
        """before_tool_call's params are laid over the call's own (mergeParamsWithApprovalOverrides,
        dist/agent-tools.before-tool-call-D6M7yTR3.mjs:854-863)."""
        return {**args, **updated}

    # --- the gateway ----------------------------------------------------------------------
    def _launch(self) -> None:
        """The gateway starts before the first step: gateway:startup, gateway_start, then its
        cron service (cron_changed twice, cron_reconciled; observed)."""
        self.launched = True
        if self.gateway["up"] or self.local:
            return
        self.gateway["up"] = True
        started = {"workspaceDir": self.info.cwd, "cfg": {}, "deps": {}}
        self.internal("gateway:startup", started, "gateway:startup")
        self.fire(
            "gateway_start", {"event": {"port": GATEWAY_PORT}, "ctx": self.ctx("gateway_start")}
        )
        # The cron service adds the agent's built-in monitors, the heartbeat and the weekly
        # skill review (claws-monitors-D6BUlzfu.mjs:24-25; observed), then the gateway
        # reconciles it (dist/server-start-BG4nMCFD.mjs:1047-1066).
        for job in monitors(self.info.now_ms()):
            self.fire(
                "cron_changed",
                {
                    "event": {
                        "action": "added",
                        "jobId": job["id"],
                        "job": job,
                        "sessionTarget": job["sessionTarget"],
                        "agentId": "main",
                        "nextRunAtMs": job["state"]["nextRunAtMs"],
                    },
                    "ctx": self.ctx("cron_changed"),
                },
            )
        self.fire(
            "cron_reconciled",
            {"event": {"reason": "startup", "enabled": True}, "ctx": self.ctx("cron_reconciled")},
        )

    def _session_start(self, resumed_from: str | None) -> None:
        self.started = True
        self.said.started("startup", self.info.session_id)
        if not self.mode.session_start:
            return
        self.announced = True  # a gateway that stops ends the sessions it started
        event = {"sessionId": self.info.session_id, "sessionKey": self.key}
        self.hook(
            "session_start",
            {**event, **({"resumedFrom": resumed_from} if resumed_from else {})},
            wait=False,
        )

    def _done(self) -> None:
        """The end of one ``openclaw agent --local`` run: the process exits."""
        if self.local:
            self.fire(
                PROCESS_EXIT,
                {
                    "effect": "openclaw agent --local exits once the hook work"
                    " it started has ended; the next run loads the"
                    " plugins anew"
                },
            )

    def _ensure_workspace(self) -> None:
        """Before a run OpenClaw writes the bootstrap files the workspace lacks from its
        templates, and BOOTSTRAP.md into a brand-new workspace (none of the others, no
        ``memory/``, no MEMORY.md): files of the project, which a tool lists like any other
        (ensureAgentWorkspace, dist/workspace-DDLxBwAa.mjs:656-675, 708-713, 743-752; a real
        run's ``ls`` lists them). hooksim writes a placeholder for OpenClaw's template text. A
        brand-new workspace also becomes a git repository, where git is installed
        (ensureGitRepo, :591-603)."""
        root = Path(self.info.cwd)
        if not root.is_dir():  # a profile driven alone, with no workspace on disk
            return
        core = [n for n in BOOTSTRAP_FILES if n != "BOOTSTRAP.md"]
        brand_new = not any((root / n).exists() for n in (*core, "memory", "MEMORY.md"))
        for name in [*core, *(["BOOTSTRAP.md"] if brand_new else [])]:
            if not (root / name).exists():
                (root / name).write_text(f"{TEMPLATE}\n", encoding="utf-8")
        git = shutil.which("git")
        if brand_new and git and not (root / ".git").exists():
            subprocess.run(
                [git, "init", "-q"], cwd=root, capture_output=True, check=False, timeout=10
            )

    def _bootstrap(self) -> dict[str, Any]:
        """agent:bootstrap's context: the workspace's bootstrap files, with their text (the
        project's own, or the template OpenClaw wrote), and the resolved config (``cfg``,
        which hooksim does not hold: an empty object)."""
        self._ensure_workspace()
        files = []
        for name in BOOTSTRAP_FILES:
            path = Path(self.info.cwd) / name
            try:
                entry = {"content": path.read_text(encoding="utf-8"), "missing": False}
            except OSError:
                entry = {"missing": True}
            files.append({"name": name, "path": str(path), **entry})
        return {
            "workspaceDir": self.info.cwd,
            "bootstrapFiles": files,
            "cfg": {},
            "sessionKey": self.key,
            "sessionId": self.info.session_id,
            "agentId": "main",
        }

    def _model_call(self, run: str, n: int, outcome: str) -> None:
        """One request to the model, observed by model_call_started and model_call_ended
        (modelCallHookEventBase, dist/attempt.model-diagnostic-events-B1vBuHmP.mjs:259-273); a
        compaction's summariser names no context window source (observed)."""
        call = {
            "runId": run,
            "callId": f"{run}:model:{n}",
            "sessionKey": self.key,
            "sessionId": self.info.session_id,
            "provider": self.provider,
            "model": self.model,
            "api": API,
            "transport": "auto",
            "contextTokenBudget": CONTEXT_WINDOW,
            "contextWindowSource": "modelsConfig",
        }
        ctx = self.ctx("model_call_started", runId=run)
        if run == "compaction":
            del call["contextWindowSource"], ctx["contextWindowSource"]
        self.fire("model_call_started", {"event": call, "ctx": ctx, "wait": False})
        ended = {
            **call,
            "durationMs": 0,
            "outcome": outcome,
            "requestPayloadBytes": 0,
            "responseStreamBytes": 0,
            "timeToFirstByteMs": 0,
        }
        self.fire("model_call_ended", {"event": ended, "ctx": ctx, "wait": False})

    def _agent_end(
        self, run: str, *, success: bool, error: str | None = None, stored: bool = False
    ) -> None:
        event = {
            "messages": self.messages(run=True, stored=stored),
            "success": success,
            "durationMs": 0,
            "runId": run,
        }
        self.hook(
            "agent_end", {**event, **({"error": error} if error else {})}, wait=False, runId=run
        )

    def _write(
        self, run: str, message: dict[str, Any], paired: dict[str, Any] | None = None
    ) -> Firing:
        """before_message_write: a message about to be written to the transcript; ``paired``,
        the tool call a tool result answers."""
        firing = self.hook("before_message_write", {"message": message}, runId=run)
        result = firing.result if isinstance(firing.result, dict) else {}
        if result.get("block"):
            firing.effect = "the message is not written to the transcript"
            if paired is not None:  # the history pairs each call with a result
                self.history.append(
                    {
                        **text_entry("toolResult", MISSING_RESULT, self.info.now_ms()),
                        **paired,
                        "isError": True,
                    }
                )
            return firing
        if isinstance(result.get("message"), dict) and result["message"] != message:
            firing.effect = "a handler rewrote the message written to the transcript"
            message = result["message"]
        self.transcript.append(message)
        kept = dict(message)
        if message.get("role") != USER:
            kept["__openclaw"] = {"runId": run}
        self.history.append(kept)
        return firing
