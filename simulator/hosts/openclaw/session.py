"""OpenClaw's session loop: which hooks it fires for each step of a session, in its order.

Each hook goes to hooksim's Node runner with the event object and the context OpenClaw hands
its handlers (``fire(name, {"event": ..., "ctx": ..., "wait": ...})``); internal events
(``agent:bootstrap``) carry ``{sessionKey, context}``. What the runner reports comes back as
the ``Firing``: the merged result in ``result``, and a block, context, a tool input rewrite
where the profile (``OpenClaw.read_firing``) reads one.

Pseudo events mark an OpenClaw process's end: ``PROCESS_EXIT`` after each ``openclaw agent
--local`` run (it waits for the hook work it started, then exits; the next run loads the
plugins anew); ``GATEWAY_STOPPING`` when the user stops the gateway, once the last step's real
work (a bridge call still running) has ended, and ``GATEWAY_EXIT`` once it has stopped.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ...steps import Compact, NewSession, Step, ToolCall, Turn
from ..conversation import ASSISTANT, USER, Message
from ..records import Firing
from ..session import Session, SessionHost
from .messages import (
    ABORT_SIGNAL,
    API,
    BOOTSTRAP_FILES,
    COMPACTION_RUNTIME,
    COMPACTION_SUMMARY,
    CONTEXT_WINDOW,
    CONTEXTS,
    FUNCTION,
    GATEWAY_EXIT,
    GATEWAY_PORT,
    GATEWAY_STOPPING,
    HARNESS,
    MISSING_RESULT,
    NO_OUTPUT,
    PRESENT,
    PROCESS_EXIT,
    PROVIDER,
    RELAUNCH,
    RUN_HOOKS,
    RUN_USAGE,
    STOPPING,
    SYSTEM_PROMPT,
    TEMPLATE,
    TOOL_HOOK_FAILED,
    TOOLS,
    TRACE,
    UNDEFINED,
    USAGE,
    composed,
    monitors,
    runtime_context,
    stamped_prompt,
    summary_entry,
    text_entry,
    user_entry,
)
from .tools import derived_paths, failed, given, thrown


@dataclass(frozen=True)
class Mode:
    """How the user runs OpenClaw, as the session loop needs to know (the profile sets it)."""

    local: bool = False  # each turn one `openclaw agent --local` process
    session_start: bool = True  # session_start fires (not under --local)


class OpenClawHost(SessionHost, Protocol):
    """What OpenClaw's loop reads of its profile besides every loop's."""

    @property
    def shell_tool(self) -> str: ...


class OpenClawSession(Session):
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

    # --- a turn ---------------------------------------------------------------------------
    def turn(self, turn: Turn) -> None:
        self._launch()
        self.runs += 1
        run = f"run-{self.runs}"
        # The run holds its prompt's text in a content list, without OpenClaw's bookkeeping
        # (observed on agent_end).
        self.run_messages = [text_entry(USER, turn.user, self.info.now_ms())]
        self.before_run = list(self.history)
        self.said.submitted(turn.user)
        if not self.started:
            self._session_start(None)
        if not self.local:
            self._write(run, user_entry(turn.user, self.info.now_ms(), run))
        if self._claimed(run, turn) or self._prepared(run, turn):
            return self._done()
        self._llm_input(run)
        if self.local:  # --local writes the prompt down only now (observed)
            self._write(run, user_entry(turn.user, self.info.now_ms(), run))
        calls = self._tools(run, turn)
        if not turn.replied:
            self._model_call(run, calls, "error" if turn.error else "aborted")
            self.said.failed()
            self._agent_end(run, success=False, error=str(turn.error or "aborted"))
            return self._done()
        texts: list[str] = []

        def fire_stop(n: int) -> Firing:
            self._model_call(run, calls + n, "completed")
            text = turn.reply(n) or ""
            texts.append(text)
            self.said.replied(text)
            reply = self._reply(text, "stop")
            self.run_messages.append(reply)
            self._write(run, reply)
            return self._finalize(run, text, again=n > 0)

        self.stop_loop(fire_stop, self.host.stop_cap)
        self._agent_end(run, success=True)
        self._llm_output(run, texts)
        self._done()

    def _llm_input(self, run: str) -> None:
        """llm_input, not awaited: what the run is about to send the model."""
        self.hook(
            "llm_input",
            {
                "runId": run,
                "sessionId": self.info.session_id,
                "provider": self.provider,
                "model": self.model,
                "systemPrompt": SYSTEM_PROMPT,
                "prompt": stamped_prompt(self.prompt, self.info.now_ms()),
                "historyMessages": self._model_history(),
                "imagesCount": 0,
                "tools": TOOLS,
            },
            wait=False,
            runId=run,
        )

    def _llm_output(self, run: str, texts: list[str]) -> None:
        """llm_output, not awaited: the run's replies, after agent_end."""
        self.hook(
            "llm_output",
            {
                "runId": run,
                "sessionId": self.info.session_id,
                "provider": self.provider,
                "model": self.model,
                "contextTokenBudget": CONTEXT_WINDOW,
                "contextWindowSource": "modelsConfig",
                "resolvedRef": f"{self.provider}/{self.model}",
                "harnessId": HARNESS,
                "assistantTexts": texts,
                "lastAssistant": self.run_messages[-1],
                "usage": RUN_USAGE,
            },
            wait=False,
            runId=run,
        )

    def _finalize(self, run: str, text: str, *, again: bool) -> Firing:
        """before_agent_finalize on the model's reply: the transcript path is
        attempt.sessionFile, which names the session's key (observed), and the messages the
        session's, not the model's projection of them (dist/builtin-openclaw-q1hiFm14.mjs:13338,
        13355-13368)."""
        return self.hook(
            "before_agent_finalize",
            {
                "runId": run,
                "sessionId": self.info.session_id,
                "sessionKey": self.key,
                "provider": self.provider,
                "model": self.model,
                "cwd": self.info.cwd,
                "transcriptPath": self.key,
                "stopHookActive": again,
                "lastAssistantMessage": text,
                "messages": [
                    *self.messages(),
                    runtime_context(self.info.now_ms(), for_model=False),
                    *self.run_messages,
                ],
            },
            runId=run,
        )

    def _claimed(self, run: str, turn: Turn) -> bool:
        """before_agent_reply: a handler that claims the turn answers it; no model call."""
        claim = self.hook("before_agent_reply", {"cleanedBody": turn.user}, runId=run)
        result = claim.result if isinstance(claim.result, dict) else {}
        if not result.get("handled"):
            return False
        reply = result.get("reply")
        text = reply.get("text") if isinstance(reply, dict) else reply
        claim.effect = "a handler claims the turn: its reply is the answer; the model is not called"
        claim.blocked = True  # the run stops here, as a gate's block stops it
        self.said.prompt(turn.user)
        if isinstance(text, str) and text:
            claim.shown.append(text)
            self.said.replied(text)
        return True

    def _prepared(self, run: str, turn: Turn) -> bool:
        """The hooks before the model: the model, the bootstrap files, the prompt's context,
        then the run's gate. True when the gate blocks the run."""
        resolved = self.hook("before_model_resolve", {"prompt": turn.user}, runId=run)
        if isinstance(resolved.result, dict):
            self.model = resolved.result.get("modelOverride") or self.model
            self.provider = resolved.result.get("providerOverride") or self.provider
        self.internal("agent:bootstrap", self._bootstrap())
        messages = self.messages()
        prepare = self.hook(
            "agent_turn_prepare",
            {"prompt": turn.user, "messages": messages, "queuedInjections": []},
            runId=run,
        )
        build = self.hook(
            "before_prompt_build", {"prompt": turn.user, "messages": messages}, runId=run
        )
        self.said.prompt(turn.user)
        self.prompt = composed(turn.user, prepare, build)
        gate = self.hook(
            "before_agent_run",
            {
                "prompt": self.prompt,
                "messages": self._model_history(),
                "systemPrompt": SYSTEM_PROMPT,
                "senderIsOwner": True,
            },
            runId=run,
        )
        if not gate.blocked:
            for firing in (prepare, build):
                for text in firing.context:
                    self.said.context(firing.event, text)
            return False
        for firing in (prepare, build):
            if firing.context:
                firing.context = []
                firing.effect = "; ".join(
                    filter(
                        None,
                        [firing.effect, "its context never reaches a model: the run is blocked"],
                    )
                )
        gate.effect = "; ".join(
            filter(
                None,
                [gate.effect, "the run is blocked: the model is not called, the user is shown why"],
            )
        )
        self._blocked_run(run, gate.reason)
        return True

    def _model_history(self) -> list[dict[str, Any]]:
        """The session's messages as the model is sent them, before_agent_run's ``messages``:
        each prompt in the envelope of its time, then the runtime context (observed)."""
        now = self.info.now_ms()
        stamped = [
            {**m, "content": stamped_prompt(m["content"], m.get("timestamp", now))}
            if m.get("role") == USER and isinstance(m.get("content"), str)
            else m
            for m in self.messages()
        ]
        return [*stamped, runtime_context(now)]

    def _blocked_run(self, run: str, reason: str) -> None:
        """A run before_agent_run blocked: the user is shown why, and that notice is written in
        place of the prompt (the run's only message on agent_end; observed, its idempotency key
        and bookkeeping as OpenClaw writes them)."""
        now = self.info.now_ms()
        notice = {
            **text_entry(USER, reason, now),
            "idempotencyKey": f"hook-block:before_agent_run:user:{run}",
            "__openclaw": {
                "beforeAgentRunBlocked": {"blockedBy": "before_agent_run", "blockedAt": now}
            },
        }
        self.run_messages = [notice]
        self._write(run, notice)
        self._agent_end(run, success=False, error=reason, stored=True)

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

    # --- tool calls -----------------------------------------------------------------------
    def _tools(self, run: str, turn: Turn) -> int:
        """The turn's tool calls, each response of the model that asks for some followed by
        its calls; the number of the next model call."""
        self.ran = {}
        responses = turn.responses(self.host.calls_in_one_response)
        for asking, calls in enumerate(responses, 1):
            self._model_call(run, asking, "completed")
            asked = self._reply(
                [
                    {
                        "type": "toolCall",
                        "id": c.id or f"call{n}",
                        "name": c.name,
                        "arguments": c.args,
                    }
                    for n, c in calls
                ],
                "toolUse",
            )
            self.run_messages.append(asked)
            self._write(run, asked)
            # The calls of one response run side by side: each is prepared (before_tool_call)
            # in turn, then they run, and their results are written in the calls' order
            # (executeToolCallGroups, dist/agent-core-DG5aPUnb.mjs:751-822). after_tool_call
            # fires as each call ends, which the replay takes in the calls' order too.
            prepared = [self._prepare(run, n, call) for n, call in calls]
            for done in [
                self._finish(n, call, fields, pre)
                for (n, call), (fields, pre) in zip(calls, prepared, strict=True)
            ]:
                self._persist(run, *done)
        return len(responses) + 1

    def _prepare(self, run: str, n: int, call: ToolCall) -> tuple[dict[str, Any], Firing]:
        """A call before it runs: its before_tool_call (after resolve_exec_env for exec), and
        the fields its later hooks share."""
        call_id = call.id or f"call{n}"
        self.said.called(call, call_id)
        fields = {
            "toolName": call.name,
            "params": dict(call.args),
            "runId": run,
            "toolCallId": call_id,
        }
        if call.name == self.host.shell_tool:
            self._exec_env()
        derived = derived_paths(call, self.info.cwd)
        pre = self.hook(
            "before_tool_call",
            {**fields, **({"derivedPaths": derived} if derived else {})},
            tool=call.name,
            **self._ids(fields),
        )
        return fields, pre

    @staticmethod
    def _ids(fields: dict[str, Any]) -> dict[str, Any]:
        return {k: fields[k] for k in ("runId", "toolName", "toolCallId")}

    def _finish(
        self, n: int, call: ToolCall, fields: dict[str, Any], pre: Firing
    ) -> tuple[ToolCall, dict[str, Any], dict[str, Any], bool]:
        """A prepared call runs (or is refused) and after_tool_call is told how it ended: the
        call, its ids, its result and whether it is an error."""
        call_id = fields["toolCallId"]
        if pre.blocked:
            result, after = self._refused(call, call_id, pre)
            error = True
        else:
            effect = pre.effect
            ran = self.ran[n] = self.run_tool(call, pre)
            pre.effect = "; ".join(
                filter(None, [effect, pre.effect if pre.effect != effect else ""])
            )
            extra = self._exec_details(call, ran.result)
            text = extra["details"]["aggregated"] or NO_OUTPUT if extra else ran.result
            result = given(ran, self.tool_run) or {
                "content": [{"type": "text", "text": text}],
                **extra,
            }
            after = {"params": dict(ran.args), "durationMs": int(call.duration_s * 1000)}
            error_text = thrown(ran, self.tool_run)
            if error_text is not None:
                result, after["error"] = failed(call.name, error_text), error_text
            text = result["content"][0]["text"]
            self.said.returned(ran, call_id, text, denied=error_text is not None)
            error = error_text is not None
        # The agent loop copies the result with the terminate flag its after-call step gave,
        # undefined unless a tool ends the run (dist/agent-core-DG5aPUnb.mjs:1211-1216).
        seen = {**result, "terminate": UNDEFINED}
        self.hook(
            "after_tool_call",
            {**fields, "result": seen, **after},
            wait=False,
            tool=call.name,
            **self._ids(fields),
        )
        return call, self._ids(fields), result, error

    def _refused(
        self, call: ToolCall, call_id: str, pre: Firing
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A call before_tool_call blocked: the reason goes to the model as its result; a gate
        that failed makes the call throw, and the model gets the error as JSON (observed). The
        result, and what after_tool_call adds. A block's details carry its reason
        (buildBlockedToolResult, dist/agent-tools.before-tool-call-D6M7yTR3.mjs:3381-3393)."""
        pre.effect = "; ".join(
            filter(
                None,
                [
                    pre.effect,
                    f"the {call.name} call is blocked;"
                    " the reason goes to the model as its error"
                    " result",
                ],
            )
        )
        details: dict[str, Any] = {
            "status": "blocked",
            "deniedReason": "plugin-before-tool-call",
            "reason": pre.reason,
        }
        after: dict[str, Any] = {"error": pre.reason}
        result: dict[str, Any] = {
            "content": [{"type": "text", "text": pre.reason}],
            "details": details,
        }
        if pre.reason == TOOL_HOOK_FAILED:
            result = failed(call.name, pre.reason)
            pre.reason = result["content"][0]["text"]
            after["durationMs"] = 0
        self.deliver(pre)
        self.said.returned(call, call_id, pre.reason, denied=True)
        return result, after

    def _persist(
        self, run: str, call: ToolCall, ids: dict[str, Any], result: dict[str, Any], error: bool
    ) -> None:
        """The tool result is written down: tool_result_persist may rewrite it, then
        before_message_write."""
        call_id = ids["toolCallId"]
        message = {
            **text_entry("toolResult", result["content"][0]["text"], self.info.now_ms()),
            "toolCallId": call_id,
            "toolName": call.name,
            **{k: v for k, v in result.items() if k == "details"},
            "isError": error,
        }
        self.run_messages.append(message)
        persisted = self.hook(
            "tool_result_persist",
            {
                "toolName": call.name,
                "toolCallId": call_id,
                "message": message,
                "isSynthetic": False,
            },
            tool=call.name,
            **ids,
        )
        result_message = (
            persisted.result.get("message") if isinstance(persisted.result, dict) else None
        )
        if isinstance(result_message, dict) and result_message != message:
            persisted.effect = "a handler rewrote the tool result written to the transcript"
            message = result_message
        self._write(run, message, paired={"toolCallId": call_id, "toolName": call.name})

    def _exec_env(self) -> None:
        """resolve_exec_env: before an exec call's before_tool_call, OpenClaw asks the plugins
        for the command's environment (prepareParamsWithResolvedExecEnv,
        dist/bash-tools-B2oth0P7.mjs:2934-2962; observed right before before_tool_call)."""
        self.hook(
            "resolve_exec_env", {"sessionKey": self.key, "toolName": "exec", "host": "gateway"}
        )

    def _exec_details(self, call: ToolCall, text: str) -> dict[str, Any]:
        """What an exec call's result carries beside its text (its ``details``,
        dist/bash-tools-B2oth0P7.mjs:3878-3888): hooksim's command ended with status 0; its
        text is the output, trimmed (observed), or "(no output)"
        (dist/bash-tools.exec-output-Cei3R_ZV.mjs:2-7)."""
        if call.name != self.host.shell_tool:
            return {}
        return {
            "details": {
                "status": "completed",
                "exitCode": 0,
                "exitSignal": None,
                "exitReason": "exit",
                "durationMs": int(call.duration_s * 1000),
                "aggregated": text.strip(),
                "noOutputTimedOut": False,
                "cwd": self.info.cwd,
            }
        }

    # --- compaction, /new, quitting -------------------------------------------------------
    def compact(self, step: Compact) -> None:
        """A compaction: the gateway's ``sessions compact``, or the automatic one a full
        context window brings. OpenClaw compacts only before a model request: under --local
        the next run compacts first, in its own process (so this one does not exit); the
        gateway first tries right after the turn that filled the window, and that attempt
        stops after before_compaction, then compacts before the next turn's request
        (observed, as the real runs count them: at the compaction step)."""
        if self.local and step.trigger == "manual":
            self.fire(
                f"(compact {step.trigger})",
                {
                    "effect": "openclaw agent --local has no"
                    " manual compaction (/compact is rejected; it needs a gateway)"
                },
            )
            return
        self._launch()
        if self.local:
            self.fire(COMPACTION_RUNTIME, {})
        if step.trigger == "auto" and not self.local:
            self._compaction_started()
        count, tokens = self._compaction_started()
        summary = f"Summary of the conversation before {step.trigger} compaction."
        self._model_call("compaction", 1, "completed")
        kept = [Message(COMPACTION_SUMMARY, summary), *filter(None, [self.said.last(ASSISTANT)])]
        self.said.compacted(step.trigger, summary, kept)
        last = next((m for m in reversed(self.history) if m.get("role") == ASSISTANT), None)
        self.history = [summary_entry(summary, self.info.now_ms()), *([last] if last else [])]
        # The store keeps what came before and marks the compaction (observed on before_reset).
        self.transcript.append(
            {
                "role": "system",
                "timestamp": self.info.now_ms(),
                "content": [{"type": "text", "text": "Compaction"}],
            }
        )
        # The after events carry the kept count (observed).
        self.internal(
            "session:compact:after",
            {
                "sessionId": self.info.session_id,
                "missingSessionKey": False,
                "messageCount": len(kept),
                "compactedCount": count - len(kept),
                "summaryLength": len(summary),
                "tokensBefore": tokens,
                "firstKeptEntryId": "kept",
            },
        )
        # An automatic compaction also counts the tokens left (observed; a manual one does not).
        left = {"tokenCount": 28 * len(kept)} if step.trigger == "auto" else {}
        self.hook(
            "after_compaction",
            {
                "messageCount": len(kept),
                **left,
                "compactedCount": count - len(kept),
                "sessionFile": self.session_file,
            },
        )

    def _compaction_started(self) -> tuple[int, int]:
        """The summariser's run starts: its bootstrap, then the before events (no transcript
        path: the session lives in OpenClaw's store). The message and token counts."""
        count = len(self.said.messages)
        tokens = 28 * count
        self.internal("agent:bootstrap", self._bootstrap())
        self.internal("session:compact:before", self._compaction_stats(count, tokens))
        self.hook("before_compaction", {"messageCount": count, "tokenCount": tokens})
        return count, tokens

    def _compaction_stats(self, count: int, tokens: int) -> dict[str, Any]:
        return {
            "sessionId": self.info.session_id,
            "missingSessionKey": False,
            "messageCount": count,
            "tokenCount": tokens,
            "messageCountOriginal": count,
            "tokenCountOriginal": tokens,
        }

    @property
    def store_path(self) -> str:
        """OpenClaw's session store, under its state folder (beside the project)."""
        return f"{Path(self.info.cwd).parent / 'state'}/agents/main/sessions/sessions.json"

    @property
    def session_file(self) -> str:
        """Where OpenClaw keeps the session: its SQLite store under the state folder
        (formatSqliteSessionFileMarker)."""
        return f"sqlite:main:{self.info.session_id}:{self.store_path}"

    def new_session(self, step: NewSession) -> None:
        """/new, as the gateway resets a session (``sessions.reset``, reason new;
        performGatewaySessionReset, dist/session-reset-service-z65ES5vD.mjs:941-1280):
        command:new (awaited), before_reset with the whole transcript, session_end and the
        next session_start (not awaited), then subagent_ended for the session's bindings. The
        session keeps its key and id (:1144, ``currentEntry?.sessionId``), so a step's new id
        is not taken. Under --local the next run simply names another session."""
        if self.local:
            self.next_session_id(step)
            self.started = False
            self.transcript, self.history = [], []
            return
        self._launch()
        sid = self.info.session_id
        reset = self.internal(
            "command:new",
            {
                "agentId": "main",
                "sessionEntry": {"sessionId": sid},
                "previousSessionEntry": {"sessionId": sid},
                "commandSource": "gateway:sessions.reset",
                "cfg": {},
                "storePath": self.store_path,
                "workspaceDir": self.info.cwd,
            },
        )
        self._unsent(reset)
        self.hook(
            "before_reset",
            {"sessionFile": self.session_file, "messages": self.transcript, "reason": "new"},
            wait=False,
        )
        # buildSessionEndHookPayload, dist/active-sessions-shutdown-tracker-BFQRb1PT.mjs:32-51.
        self.hook(
            "session_end",
            {
                "sessionId": sid,
                "sessionKey": self.key,
                "messageCount": 0,
                "reason": "new",
                "nextSessionId": sid,
            },
            wait=False,
        )
        self.transcript, self.history = [], []
        self._session_start(sid)
        # emitSessionUnboundLifecycleEvent, dist/session-reset-service-z65ES5vD.mjs:419-433.
        self.fire(
            "subagent_ended",
            {
                "event": {
                    "targetSessionKey": self.key,
                    "targetKind": "acp",
                    "reason": "session-reset",
                    "sendFarewell": True,
                    "outcome": "reset",
                },
                "ctx": self.ctx("subagent_ended"),
            },
        )

    def _unsent(self, reset: Firing) -> None:
        """What command:new's handlers push to ``event.messages`` reaches no one from a
        gateway's reset: only a chat channel's /new routes them to the user
        (emitResetCommandHooks, dist/commands-reset-hooks-hwpOXaFJ.mjs:59-80)."""
        if reset.shown:
            reset.shown.clear()
            reset.effect = "; ".join(
                filter(
                    None,
                    [
                        reset.effect,
                        "its messages reach no one: a gateway's reset replies to no chat",
                    ],
                )
            )

    def exit(self) -> None:
        """The gateway is stopped (SIGTERM), after the last step of every session:
        gateway:shutdown, gateway_stop, then each session's session_end; then it exits."""
        self.gateway["sessions"] -= 1
        if self.local or not self.gateway["up"]:
            return
        self._stop_gateway(exits=self.gateway["sessions"] == 0)

    def _stop_gateway(self, *, exits: bool) -> None:
        if self.gateway["up"] != "stopping":
            self.gateway["up"] = "stopping"
            self.fire(GATEWAY_STOPPING, {})
            # A stop expects no restart: restartExpectedMs null (dist/run-S_R0Bn7l.mjs:1571-1573).
            stopping = {"reason": STOPPING, "restartExpectedMs": None}
            self.internal("gateway:shutdown", stopping, "gateway:shutdown")
            self.fire(
                "gateway_stop", {"event": {"reason": STOPPING}, "ctx": self.ctx("gateway_stop")}
            )
        if self.announced:  # not a session --local runs started (observed)
            self.hook(
                "session_end",
                {
                    "sessionId": self.info.session_id,
                    "sessionKey": self.key,
                    "messageCount": 0,
                    "reason": "shutdown",
                },
            )
        if exits:
            self.fire(
                GATEWAY_EXIT,
                {
                    "effect": "the gateway process exits once the work its hooks"
                    " still run has ended, within its shutdown"
                    " budget"
                },
            )

    def step(self, step: Step) -> None:
        """A step; one that says ``launch`` first runs OpenClaw the other way: the gateway is
        stopped before --local runs, or started (at the step) after them."""
        if step.launch and (step.launch == "local") != self.local:
            if self.gateway["up"]:
                self._stop_gateway(exits=True)
                self.gateway["up"] = False
            local = step.launch == "local"
            self.fire(RELAUNCH, {"local": local})
            again = getattr(self.host, "session_start_local", False)
            self.mode = Mode(local=local, session_start=not local or again)
        super().step(step)
