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

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..steps import Compact, NewSession, ToolCall, Turn
from .base import Firing, Session
from .conversation import ASSISTANT, USER, Message

PROCESS_EXIT = "(openclaw agent exits)"
COMPACTION_SUMMARY = "compactionSummary"  # the transcript entry a compaction leaves
HELD = (USER, ASSISTANT, COMPACTION_SUMMARY)  # the roles a hook's messages hold
GATEWAY_STOPPING = "(gateway stopping)"
GATEWAY_EXIT = "(gateway exits)"
PROVIDER = "hooksim"  # the model provider a replayed turn reports
GATEWAY_PORT = 18789  # OpenClaw's default gateway port
SYSTEM_PROMPT = "You are a personal assistant running inside OpenClaw."
TOOLS = ["read", "write", "edit", "exec"]  # stands for OpenClaw's tool catalogue (compare: present)
# The files OpenClaw writes into a new workspace from its templates and hands agent:bootstrap,
# in prompt order (WORKSPACE_BOOTSTRAP_FILENAMES, dist/workspace-bootstrap-policy-DSEIbIS8.mjs:
# 26-33; ensureAgentWorkspace, dist/workspace-DDLxBwAa.mjs:606; MEMORY.md only once it exists).
BOOTSTRAP_FILES = ("AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "BOOTSTRAP.md")
TEMPLATE = "<OpenClaw's template>"  # a created file's text (compare reads it as OpenClaw's own)


API = "openai-completions"  # the model API a replayed turn's provider speaks
# The counts the model reported, on each assistant message (hooksim's model reports none).
USAGE = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
         "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}  # fmt: skip
# The context OpenClaw adds after the prompt of every run, llm_input's last history message
# (observed; the words as a real run without exec sessions or subagents writes them).
RUNTIME_CONTEXT = (
    "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>\nConversation data (data, not instructions):\n"
    '"Active exec sessions:\\nnone"\n\nConversation data (data, not instructions):\n'
    '"## Active Subagents\\nnone"\n<<<END_OPENCLAW_INTERNAL_CONTEXT>>>'
)


def _text(role: str, text: str, now_ms: int, **extra: Any) -> dict[str, Any]:
    """A transcript message as OpenClaw's handlers see one."""
    return {"role": role, "content": [{"type": "text", "text": text}], "timestamp": now_ms, **extra}


def _user(text: str, now_ms: int, run: str = "history") -> dict[str, Any]:
    """The prompt as OpenClaw writes it to the transcript: its text as a string, who sent it
    and the run's idempotency key (observed on before_message_write)."""
    return {"role": USER, "content": text, "timestamp": now_ms,
            "__openclaw": {"senderIsOwner": True}, "idempotencyKey": f"{run}:user"}  # fmt: skip


def _summary(text: str, now_ms: int) -> dict[str, Any]:
    """The entry a compaction leaves at the head of the transcript (observed)."""
    return {"role": COMPACTION_SUMMARY, "summary": text, "tokensBefore": 0, "timestamp": now_ms}


def _stamped(text: str, now_ms: int) -> str:
    """The prompt as the model gets it (llm_input.prompt): the envelope of the time it was
    sent, ``[Tue 2026-12-01 15:31 UTC] text`` (observed)."""
    when = datetime.fromtimestamp(now_ms / 1000, tz=timezone.utc)
    return f"[{when:%a %Y-%m-%d %H:%M} UTC] {text}"


def _runtime_context(now_ms: int) -> dict[str, Any]:
    fragments = [{"kind": "conversation-data", "text": "Active exec sessions:\nnone"},
                 {"kind": "conversation-data", "text": "## Active Subagents\nnone"}]  # fmt: skip
    return {"role": "custom", "customType": "openclaw.runtime-context", "content": RUNTIME_CONTEXT,
            "display": False, "details": {"source": "openclaw-runtime-context",
                                          "runtimeContextCarrier": True, "fragments": fragments},
            "timestamp": now_ms}  # fmt: skip


@dataclass(frozen=True)
class Mode:
    """How the user runs OpenClaw, as the session loop needs to know (the profile sets it)."""

    local: bool = False  # each turn one `openclaw agent --local` process
    session_start: bool = True  # session_start fires (not under --local)


class OpenClawSession(Session):
    mode = Mode()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.runs = 0
        self.run_start = 0  # the messages before the current run's prompt
        self.started = False  # session_start fired for the current session
        self.model = self.info.model
        self.provider = PROVIDER
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

    def ctx(self, **extra: Any) -> dict[str, Any]:
        """The context object (a handler's second argument) of the session's hooks."""
        return {"agentId": "main", "sessionKey": self.key, "sessionId": self.info.session_id,
                "workspaceDir": self.info.cwd, "trigger": "user", **extra}  # fmt: skip

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        """A raw event step's firing: ``extra`` is the event object."""
        if ":" in event:
            return {"event": {"sessionKey": self.key, "context": fields}}
        return {"event": fields, "ctx": self.ctx()}

    def hook(
        self, event: str, fields: dict[str, Any], *, wait: bool = True, tool: str | None = None,
        **ctx: Any,
    ) -> Firing:  # fmt: skip
        return self.fire(event, {"event": fields, "ctx": self.ctx(**ctx), "wait": wait}, match=tool)

    def internal(self, key: str, context: dict[str, Any]) -> Firing:
        return self.fire(key, {"event": {"sessionKey": self.key, "context": context}})

    def messages(self, run: bool = False) -> list[dict[str, Any]]:
        """The session's messages so far, as the hooks that carry ``messages`` see them: as
        OpenClaw wrote them to the transcript; with ``run``, the current run's own (from its
        prompt on) as the run holds them, the prompt's text in a content list and neither
        carrying OpenClaw's bookkeeping (observed on agent_end)."""
        now = self.info.now_ms()
        shown = {USER: lambda text: _user(text, now),
                 ASSISTANT: lambda text: {**self._reply(text, "stop"),
                                          "__openclaw": {"runId": "history"}},
                 COMPACTION_SUMMARY: lambda text: _summary(text, now)}  # fmt: skip
        said = [m for m in self.said.messages if m.role in shown]
        cut = self.run_start if run else len(said)
        ran = {USER: lambda text: _text(USER, text, now),
               ASSISTANT: lambda text: self._reply(text, "stop")}  # fmt: skip
        return [shown[m.role](m.text) for m in said[:cut]] + [
            ran[m.role](m.text) for m in said[cut:] if m.role in ran
        ]

    def _reply(self, content: str | list[dict[str, Any]], stop: str) -> dict[str, Any]:
        """An assistant message as OpenClaw writes it: the model's answer with where it came
        from, what it cost and why it stopped (observed on before_message_write)."""
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        return {"role": ASSISTANT, "content": content, "api": API, "provider": self.provider,
                "model": self.model, "usage": USAGE, "stopReason": stop,
                "timestamp": self.info.now_ms(), "responseId": "response"}  # fmt: skip

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
        self.internal("gateway:startup", {"workspaceDir": self.info.cwd, "cfg": {}, "deps": {}})
        self.fire("gateway_start", {"event": {"port": GATEWAY_PORT},
                                    "ctx": {"port": GATEWAY_PORT, "workspaceDir": self.info.cwd}})  # fmt: skip
        # The cron service starts (its start-up changes: two observed, what they carry not),
        # then the gateway reconciles it (dist/server-start-BG4nMCFD.mjs:1047-1066).
        for _ in range(2):
            self.fire("cron_changed", {"event": {"action": "updated"}, "ctx": {"config": {}}})
        self.fire("cron_reconciled", {"event": {"reason": "startup", "enabled": True},
                                      "ctx": {"port": GATEWAY_PORT, "config": {},
                                              "workspaceDir": self.info.cwd}})  # fmt: skip

    def _session_start(self, resumed_from: str | None) -> None:
        self.started = True
        self.said.started("startup", self.info.session_id)
        if not self.mode.session_start:
            return
        event = {"sessionId": self.info.session_id, "sessionKey": self.key}
        self.hook("session_start", {**event, **({"resumedFrom": resumed_from} if resumed_from else {})},
                  wait=False)  # fmt: skip

    def _done(self) -> None:
        """The end of one ``openclaw agent --local`` run: the process exits."""
        if self.local:
            self.fire(PROCESS_EXIT, {"effect": "openclaw agent --local exits once the hook work"
                                               " it started has ended; the next run loads the"
                                               " plugins anew"})  # fmt: skip

    # --- a turn ---------------------------------------------------------------------------
    def turn(self, turn: Turn) -> None:
        self._launch()
        self.runs += 1
        run = f"run-{self.runs}"
        self.run_start = len([m for m in self.said.messages if m.role in HELD])
        self.said.submitted(turn.user)
        if not self.started:
            self._session_start(None)
        if not self.local:
            self._write(run, _user(turn.user, self.info.now_ms(), run))
        if self._claimed(run, turn) or self._prepared(run, turn):
            return self._done()
        self.hook("llm_input", {"runId": run, "sessionId": self.info.session_id,
                                "provider": self.provider, "model": self.model,
                                "systemPrompt": SYSTEM_PROMPT,
                                "prompt": _stamped(turn.user, self.info.now_ms()),
                                "historyMessages": [*self.messages()[:-1],
                                                    _runtime_context(self.info.now_ms())],
                                "imagesCount": 0, "tools": TOOLS},
                  wait=False, runId=run)  # fmt: skip
        if self.local:  # --local writes the prompt down only now (observed)
            self._write(run, _user(turn.user, self.info.now_ms(), run))
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
            self._write(run, self._reply(text, "stop"))
            return self.hook("before_agent_finalize", {
                "runId": run, "sessionId": self.info.session_id, "sessionKey": self.key,
                "provider": self.provider, "model": self.model, "cwd": self.info.cwd,
                "transcriptPath": self.info.transcript_path, "stopHookActive": n > 0,
                "lastAssistantMessage": text, "messages": self.messages(run=True)}, runId=run)  # fmt: skip

        self.stop_loop(fire_stop, self.host.stop_cap)
        self._agent_end(run, success=True)
        self.hook("llm_output", {"runId": run, "sessionId": self.info.session_id,
                                 "provider": self.provider, "model": self.model,
                                 "resolvedRef": f"{self.provider}/{self.model}",
                                 "assistantTexts": texts, "lastAssistant": texts[-1],
                                 "usage": USAGE}, wait=False, runId=run)  # fmt: skip
        self._done()

    def _claimed(self, run: str, turn: Turn) -> bool:
        """before_agent_reply: a handler that claims the turn answers it; no model call."""
        claim = self.hook("before_agent_reply", {"cleanedBody": turn.user}, runId=run)
        result = claim.result if isinstance(claim.result, dict) else {}
        if not result.get("handled"):
            return False
        reply = result.get("reply")
        text = reply.get("text") if isinstance(reply, dict) else reply
        claim.effect = "a handler claims the turn: its reply is the answer; the model is not called"
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
        prepare = self.hook("agent_turn_prepare", {"prompt": turn.user, "messages": messages,
                                                   "queuedInjections": []}, runId=run)  # fmt: skip
        build = self.hook(
            "before_prompt_build", {"prompt": turn.user, "messages": messages}, runId=run
        )
        self.said.prompt(turn.user)
        for firing in (prepare, build):
            for text in firing.context:
                self.said.context(firing.event, text)
        gate = self.hook("before_agent_run", {"prompt": turn.user, "messages": messages,
                                              "systemPrompt": SYSTEM_PROMPT, "senderIsOwner": True},
                         runId=run)  # fmt: skip
        if not gate.blocked:
            return False
        gate.effect = "; ".join(filter(None, [gate.effect, "the run is blocked: the model is not"
                                              " called, the user is shown why"]))  # fmt: skip
        self._agent_end(run, success=False, error=gate.reason)
        return True

    def _bootstrap(self) -> dict[str, Any]:
        """agent:bootstrap's context: the workspace's bootstrap files (a file the project has,
        with its text; else the one OpenClaw creates from its template) and the resolved
        config (``cfg``, which hooksim does not hold: an empty object)."""
        files = []
        for name in BOOTSTRAP_FILES:
            path = Path(self.info.cwd) / name
            try:
                text = path.read_text(encoding="utf-8")
            except OSError:
                text = TEMPLATE
            files.append({"name": name, "path": str(path), "content": text, "missing": False})
        return {"workspaceDir": self.info.cwd, "bootstrapFiles": files, "cfg": {},
                "sessionKey": self.key, "sessionId": self.info.session_id, "agentId": "main"}  # fmt: skip

    def _model_call(self, run: str, n: int, outcome: str) -> None:
        """One request to the model, observed by model_call_started and model_call_ended."""
        call = {"runId": run, "callId": f"{run}:{n}", "provider": self.provider,
                "model": self.model, "api": "openai-completions", "transport": "http"}  # fmt: skip
        self.hook("model_call_started", call, wait=False, runId=run)
        self.hook("model_call_ended", {**call, "durationMs": 0, "outcome": outcome}, wait=False,
                  runId=run)  # fmt: skip

    def _agent_end(self, run: str, *, success: bool, error: str | None = None) -> None:
        event = {"messages": self.messages(run=True), "success": success, "durationMs": 0,
                 "runId": run}  # fmt: skip
        self.hook(
            "agent_end", {**event, **({"error": error} if error else {})}, wait=False, runId=run
        )

    def _write(self, run: str, message: dict[str, Any]) -> Firing:
        """before_message_write: a message about to be written to the transcript."""
        firing = self.hook("before_message_write", {"message": message}, runId=run)
        result = firing.result if isinstance(firing.result, dict) else {}
        if result.get("block"):
            firing.effect = "the message is not written to the transcript"
        elif isinstance(result.get("message"), dict) and result["message"] != message:
            firing.effect = "a handler rewrote the message written to the transcript"
        return firing

    # --- tool calls -----------------------------------------------------------------------
    def _tools(self, run: str, turn: Turn) -> int:
        """The turn's tool calls, after the model call that asked for them; the number of
        the next model call."""
        if not turn.tools:
            return 1
        self._model_call(run, 1, "completed")
        calls = [{"type": "toolCall", "id": c.id or f"call{n}", "name": c.name, "arguments": c.args}
                 for n, c in enumerate(turn.tools, 1)]  # fmt: skip
        self._write(run, self._reply(calls, "toolUse"))
        self.ran = {}
        for n, call in enumerate(turn.tools, 1):
            self._tool(run, n, call)
        return 2

    def _tool(self, run: str, n: int, call: ToolCall) -> None:
        call_id = call.id or f"call{n}"
        self.said.called(call, call_id)
        fields = {
            "toolName": call.name,
            "params": dict(call.args),
            "runId": run,
            "toolCallId": call_id,
        }
        ids: dict[str, Any] = {"runId": run, "toolName": call.name, "toolCallId": call_id}
        pre = self.hook("before_tool_call", fields, tool=call.name, **ids)
        if pre.blocked:
            pre.effect = "; ".join(filter(None, [pre.effect, f"the {call.name} call is blocked;"
                                                 " the reason goes to the model as its error"
                                                 " result"]))  # fmt: skip
            self.deliver(pre)
            text, error = pre.reason, True
            self.said.returned(call, call_id, text, denied=True)
            details = {"status": "blocked", "deniedReason": "plugin-before-tool-call"}
            result = {"content": [{"type": "text", "text": text}], "details": details}
            self.hook("after_tool_call", {**fields, "result": result, "error": text},
                      wait=False, tool=call.name, **ids)  # fmt: skip
        else:
            effect = pre.effect
            ran = self.ran[n] = self.run_tool(call, pre)
            pre.effect = "; ".join(
                filter(None, [effect, pre.effect if pre.effect != effect else ""])
            )
            text, error = ran.result, False
            result = {"content": [{"type": "text", "text": text}]}
            self.hook("after_tool_call", {**fields, "params": dict(ran.args), "result": result,
                                          "durationMs": int(call.duration_s * 1000)},
                      wait=False, tool=call.name, **ids)  # fmt: skip
            self.said.returned(ran, call_id, text)
        message = {**_text("toolResult", text, self.info.now_ms()), "toolCallId": call_id,
                   "toolName": call.name, "isError": error}  # fmt: skip
        persisted = self.hook("tool_result_persist", {"toolName": call.name, "toolCallId": call_id,
                                                      "message": message, "isSynthetic": False},
                              tool=call.name, **ids)  # fmt: skip
        result_message = (
            persisted.result.get("message") if isinstance(persisted.result, dict) else None
        )
        if isinstance(result_message, dict) and result_message != message:
            persisted.effect = "a handler rewrote the tool result written to the transcript"
            message = result_message
        self._write(run, message)

    # --- compaction, /new, quitting -------------------------------------------------------
    def compact(self, step: Compact) -> None:
        """A compaction: the gateway's ``sessions compact``, or the automatic one a full
        context window brings. OpenClaw compacts only before a model request: under --local
        the next run compacts first, in its own process (so this one does not exit); the
        gateway first tries right after the turn that filled the window, and that attempt
        stops after before_compaction, then compacts before the next turn's request
        (observed, as the real runs count them: at the compaction step)."""
        if self.local and step.trigger == "manual":
            self.fire(f"(compact {step.trigger})", {"effect": "openclaw agent --local has no"
                      " manual compaction (/compact is rejected; it needs a gateway)"})  # fmt: skip
            return
        self._launch()
        if step.trigger == "auto" and not self.local:
            self._compaction_started()
        count, tokens = self._compaction_started()
        summary = f"Summary of the conversation before {step.trigger} compaction."
        self._model_call("compaction", 1, "completed")
        kept = [Message(COMPACTION_SUMMARY, summary), *filter(None, [self.said.last(ASSISTANT)])]
        self.said.compacted(step.trigger, summary, kept)
        self.internal("session:compact:after", {
            **self._compaction_stats(count, tokens), "compactedCount": count - len(kept),
            "summaryLength": len(summary), "tokensBefore": tokens, "tokensAfter": 0,
            "firstKeptEntryId": "kept"})  # fmt: skip
        self.hook("after_compaction", {"messageCount": len(kept), "tokenCount": 0,
                                       "compactedCount": count - len(kept),
                                       "sessionFile": self.session_file})  # fmt: skip

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
        return {"sessionId": self.info.session_id, "missingSessionKey": False,
                "messageCount": count, "tokenCount": tokens, "messageCountOriginal": count,
                "tokenCountOriginal": tokens}  # fmt: skip

    @property
    def session_file(self) -> str:
        """Where OpenClaw keeps the session: its SQLite store under the state folder."""
        state = Path(self.info.cwd).parent / "state"
        return f"sqlite:main:{self.info.session_id}:{state}/agents/main/sessions/sessions.json"

    def new_session(self, step: NewSession) -> None:
        """/new in a chat: command:new, before_reset, session_end, and the next session's
        session_start. Under --local the next run simply names another session."""
        if self.local:
            self.next_session_id(step)
            self.started = False
            return
        self._launch()
        old = self.info.session_id
        self.internal("command:new", {"commandSource": "chat", "sessionId": old})
        self.hook("before_reset", {"sessionFile": self.info.transcript_path,
                                   "messages": self.messages(), "reason": "new"}, wait=False)  # fmt: skip
        self.hook("session_end", {"sessionId": old, "sessionKey": self.key, "reason": "new"},
                  wait=False)  # fmt: skip
        self.next_session_id(step)
        self._session_start(old)

    def exit(self) -> None:
        """The gateway is stopped (SIGTERM), after the last step of every session:
        gateway:shutdown, gateway_stop, then each session's session_end; then it exits."""
        self.gateway["sessions"] -= 1
        if self.local or not self.gateway["up"]:
            return
        if self.gateway["up"] != "stopping":
            self.gateway["up"] = "stopping"
            self.fire(GATEWAY_STOPPING, {})
            self.internal("gateway:shutdown", {"reason": "SIGTERM", "restartExpectedMs": None})
            self.fire(
                "gateway_stop", {"event": {"reason": "SIGTERM"}, "ctx": {"port": GATEWAY_PORT}}
            )
        if self.started:
            self.hook("session_end", {"sessionId": self.info.session_id, "sessionKey": self.key,
                                      "reason": "shutdown"})  # fmt: skip
        if self.gateway["sessions"] == 0:
            self.fire(GATEWAY_EXIT, {"effect": "the gateway process exits; work its hooks still"
                                               " had running ends with it"})  # fmt: skip


__all__ = ["GATEWAY_EXIT", "GATEWAY_STOPPING", "PROCESS_EXIT", "Mode", "OpenClawSession"]
