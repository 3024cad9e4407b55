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

from pathlib import Path
from typing import Any

from ...steps import Compact, NewSession, Step, Turn
from ..conversation import ASSISTANT, USER, Message
from ..records import Firing
from .base import Mode
from .messages import (
    COMPACTION_RUNTIME,
    COMPACTION_SUMMARY,
    CONTEXT_WINDOW,
    GATEWAY_EXIT,
    GATEWAY_STOPPING,
    HARNESS,
    RELAUNCH,
    RUN_USAGE,
    STOPPING,
    SYSTEM_PROMPT,
    TOOLS,
    composed,
    runtime_context,
    stamped_prompt,
    summary_entry,
    text_entry,
    user_entry,
)
from .tool_calls import OpenClawTools


class OpenClawSession(OpenClawTools):
    """OpenClaw's session loop: a turn, a compaction, /new, quitting."""

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
