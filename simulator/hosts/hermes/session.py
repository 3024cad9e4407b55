"""Hermes's session loop: what it fires when, with which payload, and what it does with the hooks'
answers."""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import json
import os
from typing import Any

from ...steps import Compact, NewSession, ToolCall, Turn
from ..records import Firing
from ..session import Session
from .constants import (
    CLI_TOOL_ENV,
    DEFAULT_MAX_VERIFY_NUDGES,
    EMPTY_REPLY_EXPLANATION,
    EMPTY_RETRIES,
    FILE_MUTATING_TOOLS,
    INTERRUPTED_WAITING,
    TELEMETRY_SCHEMA_VERSION,
)


def hermes_payload(
    event: str,
    *,
    session_id: str,
    cwd: str,
    extra: dict[str, Any],
    tool_name: str | None = None,
    args: Any = None,
) -> dict[str, Any]:
    """The payload object of v0.19.0, in ``_serialize_payload``'s key order."""
    extra = {**extra}
    extra.setdefault("telemetry_schema_version", TELEMETRY_SCHEMA_VERSION)
    return {
        "hook_event_name": event,
        "tool_name": tool_name,
        "tool_input": args if isinstance(args, dict) else None,
        "session_id": session_id,
        "cwd": cwd,
        "extra": extra,
    }


def _hex(seed: str, n: int) -> str:
    """Hex digits where Hermes draws ``uuid4().hex[:n]``: fixed by the scenario, so runs repeat."""
    return hashlib.sha256(seed.encode()).hexdigest()[:n]


def session_id_at(ms: int, seed: str, *, gateway: bool = False) -> str:
    """A Hermes session id: ``YYYYMMDD_HHMMSS_`` and 6 hex digits (the CLI, agent_init) or 8
    (a gateway's session store), from the (virtual) local time the session starts."""
    stamp = dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).strftime("%Y%m%d_%H%M%S")
    return f"{stamp}_{_hex(seed, 8 if gateway else 6)}"


def _edited_paths(turn: Turn, cwd: str) -> list[str]:
    """Files the turn changed: its ``edited`` list, else its write_file/patch calls' paths."""
    if turn.edited is not None:
        paths = list(turn.edited)
    else:
        paths = [
            str(call.args["path"])
            for call in turn.tools
            if call.name in FILE_MUTATING_TOOLS and isinstance(call.args.get("path"), str)
        ]
    return sorted({os.path.join(cwd, p) for p in paths})


class HermesSession(Session):
    """One Hermes agent's state across turns: session id, the agent's message list, turn count.

    The message list keeps Hermes' own shapes (``agent.chat_completion_helpers``,
    ``agent.turn_context``): a user message with ``api_content`` when a hook's context was
    injected, assistant messages with ``reasoning`` and ``finish_reason``, tool calls and tool
    results, ``_db_persisted`` once the session database has them.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.history: list[dict[str, Any]] = []
        self.turns = 0
        self.gateway = self.info.platform != "cli"
        self.explicit_id = self.info.session_id not in ("", "session-1")
        if not self.explicit_id:
            self.info.session_id = session_id_at(self.info.now_ms(), f"{self.info.cwd}:1")

    def payload(
        self, event: str, tool_name: str | None = None, args: Any = None, **extra: Any
    ) -> dict[str, Any]:
        return hermes_payload(
            event,
            session_id=self.info.session_id,
            cwd=self.info.cwd,
            extra=extra,
            tool_name=tool_name,
            args=args,
        )

    def _agent_started(self) -> None:
        """agent_init: the agent publishes its session id in the process environment, which
        every later hook inherits (``set_current_session_id``). A gateway is one process for
        every chat: the id is the last agent's, whichever chat a hook belongs to."""
        process = self.info.process
        process["HERMES_QUIET"] = "1"  # cli.py and gateway/run.py set it at import
        if not self.gateway:
            process["HERMES_INTERACTIVE"] = "1"  # cli.main, before the first turn
            # cli.load_cli_config, at import: the terminal tool's and the browser's settings
            # (the defaults, with no config of their own) bridged into the environment.
            process.update(CLI_TOOL_ENV, TERMINAL_CWD=self.info.cwd)
        process["HERMES_SESSION_ID"] = self.info.session_id

    def _persisted(self) -> list[dict[str, Any]]:
        for message in self.history:
            message["_db_persisted"] = True
        return copy.deepcopy(self.history)

    def turn(self, turn: Turn) -> None:
        """One turn, as the CLI's turn loop runs it: it ends in a reply, an interruption or a
        failed model call."""
        info = self.info
        if not self.launched:
            self.launched = True
            self._agent_started()
            self.said.started("startup", info.session_id)
            self.fire(
                "on_session_start",
                self.payload("on_session_start", model=info.model, platform=info.platform),
            )
        self.turns += 1
        # cli.py passes task_id=self.session_id; turn_context adds 8 hex digits of a uuid4.
        task_id = info.session_id
        turn_id = f"{info.session_id}:{task_id}:{_hex(f'{info.session_id}:{self.turns}', 8)}"
        self._submit(turn, task_id, turn_id)
        self._collapse_candidates()
        calls = self._tool_calls(turn, task_id, turn_id)
        if turn.error is not None:
            # run_conversation returns early on a failed call: finalize_turn, and with it
            # post_llm_call and on_session_end, never runs. The user message stays unanswered.
            for message in self.history:
                message["_db_persisted"] = True
            self.said.failed()
            self.said.persisted()
            return
        if turn.interrupted:
            # InterruptedError during the model call: what had streamed is kept as the
            # answer; finalize_turn's completed does not look at ``interrupted``.
            if turn.assistant:
                self.history.append({"role": "assistant", "content": turn.assistant})
            elif turn.tools:
                self.history.append({"role": "assistant", "content": INTERRUPTED_WAITING})
            self.said.replied(self.history[-1]["content"] if self.history else "")
            self.said.persisted()
            self._end(task_id, turn_id, completed=True, interrupted=True)
            return
        self._reply(turn, task_id, turn_id, calls)

    def _reply(self, turn: Turn, task_id: str, turn_id: str, calls: int) -> None:
        """The turn's answer (an empty one: Hermes' explanation) joins the agent's messages and
        goes to post_llm_call; then on_session_end. ``calls``: the model calls made so far."""
        info = self.info
        if turn.empty_reply:
            calls += 1 + EMPTY_RETRIES
            # The turn's messages end with Hermes' "(empty)" sentinel (as the real loop's do,
            # tests/conformance); the explanation goes to post_llm_call only.
            self.history.append({"role": "assistant", "content": "(empty)"})
            self.said.replied("(empty)")
            response = EMPTY_REPLY_EXPLANATION
        else:
            calls, response = self._pre_verify(turn, calls + 1)
            self.history.append(
                {
                    "role": "assistant",
                    "content": response,
                    "reasoning": None,
                    "finish_reason": "stop",
                }
            )
        self.said.persisted()  # the turn's messages reach state.db before post_llm_call
        self.fire(
            "post_llm_call",
            self.payload(
                "post_llm_call",
                task_id=task_id,
                turn_id=turn_id,
                user_message=turn.user,
                assistant_response=response,
                conversation_history=self._persisted(),
                model=info.model,
                platform=info.platform,
            ),
        )
        self._end(task_id, turn_id, completed=True, interrupted=False)

    def _submit(self, turn: Turn, task_id: str, turn_id: str) -> None:
        """pre_llm_call, then the user message joins the agent's messages (merged into an
        unanswered one before it, as ``repair_message_sequence`` does before the model call)."""
        info = self.info
        is_first = not self.history
        unanswered = bool(self.history) and self.history[-1].get("role") == "user"
        current: dict[str, Any] = {"role": "user", "content": turn.user}
        before = copy.deepcopy(self.history)
        self.said.submitted(turn.user)
        pre = self.fire(
            "pre_llm_call",
            self.payload(
                "pre_llm_call",
                task_id=task_id,
                turn_id=turn_id,
                user_message=turn.user,
                conversation_history=[*before, dict(current)],
                is_first_turn=is_first,
                model=info.model,
                platform=info.platform,
                sender_id=info.sender_id,
            ),
        )
        if pre.context:
            current["api_content"] = turn.user + "\n\n" + "\n\n".join(pre.context)
        self.said.prompt(turn.user)
        if unanswered:
            # repair_message_sequence: two user messages in a row are merged into the first,
            # whose api_content is dropped; the new message, with the hooks' context, is gone.
            merged = self.history[-1]
            merged["content"] = f"{merged['content']}\n\n{turn.user}"
            merged.pop("api_content", None)
            if pre.context:
                pre.effect = (
                    "the context does not reach the model: the previous message had no answer,"
                    " so Hermes merged this one into it and sent the merged text without it"
                )
                pre.context = []
                for run in pre.runs:
                    if run.context is not None:
                        run.verdict = "context, not delivered (merged into the unanswered message)"
                        run.context = None
        else:
            self.history.append(current)

    def _collapse_candidates(self) -> None:
        """repair_message_sequence before the model call: an answer kept as a pre_verify
        candidate, followed by the turn's final answer, is replaced by that answer."""
        kept: list[dict[str, Any]] = []
        for message in self.history:
            if (
                kept
                and message.get("role") == "assistant"
                and kept[-1].get("role") == "assistant"
                and kept[-1].get("finish_reason") == "verify_hook_continue"
            ):
                kept[-1] = message
            else:
                kept.append(message)
        self.history[:] = kept

    def _tool_calls(self, turn: Turn, task_id: str, turn_id: str) -> int:
        """The model responses that ask for the turn's tools (one for them all unless the
        scenario groups them), each an API request of its own (its ``api_request_id``), its
        assistant message flushed to state.db before its calls run, then each call as
        model_tools runs it (conversation_loop.py: ``_flush_messages_to_session_db``, then
        ``_execute_tool_calls``). Returns the model calls made."""
        ids = self.tool_ids(turn)
        responses = turn.responses(self.host.calls_in_one_response)
        for request, response in enumerate(responses, 1):
            asked = [(call, ids[n - 1]) for n, call in response]
            self.history.append(
                {
                    "role": "assistant",
                    "content": "",
                    "reasoning": None,
                    "finish_reason": "tool_calls",
                    "tool_calls": [
                        {
                            "id": i,
                            "call_id": i,
                            "response_item_id": "fc_" + i.removeprefix("call_"),
                            "type": "function",
                            "function": {"name": c.name, "arguments": json.dumps(c.args)},
                        }
                        for c, i in asked
                    ],
                }
            )
            for k, (call, call_id) in enumerate(asked):
                self.said.called(call, call_id, same_response=k > 0)
            self.said.asked()
            self.said.persisted()  # the response (and what came before it) reach state.db first
            for call, call_id in asked:
                common = {
                    "task_id": task_id,
                    "tool_call_id": call_id,
                    "turn_id": turn_id,
                    "api_request_id": f"{turn_id}:api:{request}",
                }
                self._tool_call(call, call_id, common)
        return len(responses)

    def _tool_call(self, call: ToolCall, call_id: str, common: dict[str, str]) -> None:
        """One tool: pre_tool_call (a block replaces the result), the tool, post_tool_call, and
        its result in the agent's messages."""
        pre = self.fire(
            "pre_tool_call",
            self.payload("pre_tool_call", call.name, call.args, **common, middleware_trace=[]),
            match=call.name,
        )
        error_type: str | None
        error_message: str | None
        if pre.blocked:
            pre.effect = (
                f"the {call.name} call is blocked; the model gets the message as its result"
            )
            self.deliver(pre)
            result = json.dumps({"error": pre.reason}, ensure_ascii=False)
            status, error_type, error_message = "blocked", "plugin_block", pre.reason
            duration_ms = 0
        else:
            result = self.run_tool(call, pre).result
            status, error_type, error_message = tool_status(result)
            duration_ms = int(call.duration_s * 1000)
        self.fire(
            "post_tool_call",
            self.payload(
                "post_tool_call",
                call.name,
                call.args,
                result=result,
                **common,
                duration_ms=duration_ms,
                status=status,
                error_type=error_type,
                error_message=error_message,
                middleware_trace=[],
            ),
            match=call.name,
        )
        self.history.append(
            {
                "role": "tool",
                "name": call.name,
                "tool_name": call.name,
                "content": result,
                "tool_call_id": call_id,
            }
        )
        self.said.returned(call, call_id, result, denied=pre.blocked)

    def _pre_verify(self, turn: Turn, calls: int) -> tuple[int, str]:
        """Hermes' stop gate for a turn that edited files: while a ``pre_verify`` hook answers
        continue (at most ``agent.max_verify_nudges`` times, default 3), the answer is kept as a
        candidate and the model goes on with the hook's message, answering with the turn's next
        reply. Returns the model calls made and the final answer."""
        changed = _edited_paths(turn, self.info.cwd)
        cap = int(self.info.process.get("max_verify_nudges", DEFAULT_MAX_VERIFY_NUDGES))
        attempt = 0
        response = turn.reply(0) or ""
        self.said.replied(response)
        while changed and attempt < cap:
            firing = self.fire(
                "pre_verify",
                self.payload(
                    "pre_verify",
                    platform=self.info.platform,
                    model=self.info.model,
                    coding=False,
                    attempt=attempt,
                    final_response=response,
                    changed_paths=changed,
                ),
            )
            if not firing.blocked:
                return calls, response
            attempt += 1
            firing.effect = (
                f"the model goes on with the hook's message (continuation {attempt} of at most"
                f" {cap})"
            )
            self.deliver(firing)
            self.history.append(
                {
                    "role": "assistant",
                    "content": response,
                    "reasoning": None,
                    "finish_reason": "verify_hook_continue",
                }
            )
            # The candidate answer is persisted; the hook's message follows it, as a user
            # message the durable transcript leaves out (conversation_loop.py, pre_verify).
            self.said.persisted()
            self.said.fed_back("pre_verify", "\n".join(self.told(firing)))
            calls += 1
            response = turn.reply(attempt) or ""
            self.said.replied(response)
        return calls, response

    def _end(self, task_id: str, turn_id: str, *, completed: bool, interrupted: bool) -> None:
        for message in self.history:
            message["_db_persisted"] = True
        self.fire(
            "on_session_end",
            self.payload(
                "on_session_end",
                task_id=task_id,
                turn_id=turn_id,
                completed=completed,
                interrupted=interrupted,
                model=self.info.model,
                platform=self.info.platform,
            ),
        )

    def told(self, firing: Firing) -> list[str]:
        """The first block in registration order wins (``join_reasons``): the model gets its
        message only."""
        return [text for text in (run.told for run in firing.runs) if text][:1]

    def compact(self, step: Compact) -> None:
        """Hermes compresses its context with no shell-hook event: nothing fires."""

    def new_session(self, step: NewSession) -> None:
        platform = self.info.platform
        self.fire(
            "on_session_finalize",
            self.payload("on_session_finalize", platform=platform, reason="session_boundary"),
        )
        self.sessions += 1
        self.info.session_id = step.session_id or session_id_at(
            self.info.now_ms(), f"{self.info.cwd}:{self.sessions}", gateway=self.gateway
        )
        self.info.process["HERMES_SESSION_ID"] = self.info.session_id  # _sync_process_session_id
        self.history = []
        self.launched = False
        self.fire(
            "on_session_reset",
            self.payload("on_session_reset", platform=platform, reason="new_session"),
        )

    def exit(self) -> None:
        self.fire(
            "on_session_finalize",
            self.payload("on_session_finalize", platform=self.info.platform, reason="shutdown"),
        )


def tool_status(result: str) -> tuple[str, str | None, str | None]:
    """``model_tools._tool_result_observer_fields``: a JSON result with an ``error`` is one."""
    try:
        parsed = json.loads(result)
    except ValueError:
        return "ok", None, None
    if isinstance(parsed, dict) and parsed.get("error"):
        return "error", "tool_error", str(parsed["error"])
    return "ok", None, None
