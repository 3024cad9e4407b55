"""The Hermes Agent v0.19.0 host: which events fire in a session, their payload bytes, the hooks.

Faithful to ``agent.shell_hooks`` and the CLI's turn loop of v0.19.0 (see the project's reference
on Hermes shell hooks, sections 4 and 6 to 10): ``on_session_start`` before the first turn's
``pre_llm_call``; ``pre_llm_call`` every turn; per tool call ``pre_tool_call`` and
``post_tool_call``; ``post_llm_call`` for a reply (an empty one carries Hermes' explanation,
``agent/turn_finalizer.py``); ``pre_verify`` before a turn that edited files finishes;
``on_session_end`` after every turn that reaches ``finalize_turn`` (a reply or an interruption;
it is a per-turn event despite its name), never after a failed model call, which returns early
from ``agent/conversation_loop.py``; on ``/new``,
``on_session_finalize`` for the old session and ``on_session_reset`` for the new one. There is
no compaction event for shell hooks, so a compaction step fires nothing here: that gap is why
``hermes_hooks`` compacts from its Stop hook. Quitting fires ``on_session_finalize``.

Hooks run without a shell (``shlex.split`` of the command, ``~`` expanded), one after another.
Exit codes are only logged, exit 2 included; stdout is read as one JSON value:
``{"context": ...}`` is injected into the turn by ``pre_llm_call``, and a block
(``action``/``decision``) stops a ``pre_tool_call``'s tool, whose ``post_tool_call`` still fires
with ``status: blocked``.
"""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import json
import os
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..steps import Compact, NewSession, ToolCall, Turn
from .base import (
    ConfigError,
    Firing,
    HookRun,
    HookSpec,
    Host,
    Session,
    SessionInfo,
    Verdict,
    parse_json_output,
)
from .sources import HERMES, Source, code, fact, observed, release

# hermes_cli.plugins.VALID_HOOKS, v0.19.0.
VALID_HOOKS = frozenset(
    {
        "pre_tool_call", "post_tool_call", "transform_terminal_output", "transform_tool_result",
        "transform_llm_output", "pre_llm_call", "post_llm_call", "pre_verify", "pre_api_request",
        "post_api_request", "api_request_error", "on_session_start", "on_session_end",
        "on_session_finalize", "on_session_reset", "subagent_start", "subagent_stop",
        "pre_gateway_dispatch", "pre_approval_request", "post_approval_response",
        "kanban_task_claimed", "kanban_task_completed", "kanban_task_blocked",
    }
)  # fmt: skip
TOOL_EVENTS = frozenset({"pre_tool_call", "post_tool_call"})
DEFAULT_TIMEOUT_S = 60
MAX_TIMEOUT_S = 300
TELEMETRY_SCHEMA_VERSION = "hermes.observer.v1"
FILE_MUTATING_TOOLS = frozenset({"write_file", "patch"})  # run_agent._FILE_MUTATING_TOOLS
DEFAULT_MAX_VERIFY_NUDGES = 3  # agent.verify_hooks.DEFAULT_MAX_VERIFY_NUDGES
EMPTY_RETRIES = 3  # conversation_loop: an empty reply is retried 3 times
# close_interrupted_tool_sequence's text after an interrupted tool turn: the conversation
# loop's "waiting for model response" notice, whose elapsed time hooksim takes as 0.
INTERRUPTED_WAITING = "Operation interrupted: waiting for model response (0.0s elapsed)."
# What Hermes answers in the assistant's place after an empty reply and its retries:
# run_agent.AIAgent._format_turn_completion_explanation("empty_response_exhausted").
EMPTY_REPLY_EXPLANATION = (
    "⚠️ No reply: the model returned empty content after retries and any fallback providers."
    " Try `continue`, switch model/provider, or inspect the tool output above."
)


# What the CLI exports from its default terminal and browser settings (cli.py, load_cli_config),
# so every hook inherits it; TERMINAL_CWD is the working directory.
_IMAGE = "nikolaik/python-nodejs:python3.11-nodejs20"
CLI_TOOL_ENV = {
    "TERMINAL_ENV": "local",
    "TERMINAL_HOME_MODE": "auto",
    "TERMINAL_LIFETIME_SECONDS": "300",
    "TERMINAL_DOCKER_IMAGE": _IMAGE,
    "TERMINAL_DOCKER_FORWARD_ENV": "[]",
    "TERMINAL_SINGULARITY_IMAGE": f"docker://{_IMAGE}",
    "TERMINAL_MODAL_IMAGE": _IMAGE,
    "TERMINAL_DAYTONA_IMAGE": _IMAGE,
    "TERMINAL_DOCKER_VOLUMES": "[]",
    "TERMINAL_DOCKER_MOUNT_CWD_TO_WORKSPACE": "False",
    "BROWSER_INACTIVITY_TIMEOUT": "120",
}


def _hermes(path: str, line: int, note: str = "") -> Source:
    """A line of the released hermes-agent this profile models."""
    return release("hermes-agent", "0.19.0", path, line, note)


def _timeout(raw: dict[str, Any], where: str, warnings: list[str]) -> int:
    """The entry's timeout as ``_parse_single_entry`` keeps it, with the warning it logs."""
    try:
        timeout = int(raw.get("timeout", DEFAULT_TIMEOUT_S))
    except (TypeError, ValueError):
        warnings.append(f"{where}.timeout must be an int (got {raw.get('timeout')!r}); using"
                        f" default {DEFAULT_TIMEOUT_S}s")  # fmt: skip
        return DEFAULT_TIMEOUT_S
    if timeout < 1:
        warnings.append(f"{where}.timeout must be >=1; using default {DEFAULT_TIMEOUT_S}s")
        return DEFAULT_TIMEOUT_S
    if timeout > MAX_TIMEOUT_S:
        warnings.append(f"{where}.timeout={timeout}s exceeds max {MAX_TIMEOUT_S}s; clamping")
        return MAX_TIMEOUT_S
    return timeout


def parse_hooks_block(block: Any) -> tuple[list[HookSpec], list[str]]:
    """Hook specs in config order, and the warnings Hermes would log for skipped entries.

    Never raises, like ``_parse_hooks_block``: a bad entry is skipped with a warning.
    """
    specs: list[HookSpec] = []
    warnings: list[str] = []
    seen: set[tuple[str, str | None, str]] = set()
    if not isinstance(block, dict):
        return specs, (
            [] if block is None else ["hooks: is not a mapping; no shell hooks registered"]
        )
    for event, entries in block.items():
        if event == "output_spill":  # a reserved sub-key, skipped silently by Hermes
            continue
        if event not in VALID_HOOKS:
            warnings.append(f"unknown hook event {event!r} in hooks: config; skipped")
            continue
        if entries is None:
            continue
        if not isinstance(entries, list):
            warnings.append(f"hooks.{event} must be a list of hook definitions")
            continue
        for i, raw in enumerate(entries):
            if not isinstance(raw, dict) or not str(raw.get("command") or "").strip():
                warnings.append(f"hooks.{event}[{i}] has no command; skipped")
                continue
            matcher = raw.get("matcher")
            if matcher is not None and not isinstance(matcher, str):
                warnings.append(f"hooks.{event}[{i}].matcher is not a string; dropped")
                matcher = None
            elif matcher is not None and event not in TOOL_EVENTS:
                warnings.append(
                    f"hooks.{event}[{i}].matcher is honoured only for tool events; dropped"
                )
                matcher = None
            timeout = _timeout(raw, f"hooks.{event}[{i}]", warnings)  # after the matcher, as logged
            spec = HookSpec(
                event, str(raw["command"]).strip(), float(timeout), (matcher or "").strip() or None,
                where=(event, i),
            )  # fmt: skip
            key = (spec.event, spec.matcher, spec.command)  # registration is idempotent
            if key not in seen:
                seen.add(key)
                specs.append(spec)
    return specs, warnings


def injected_context(event: str, stdout: str) -> str | None:
    """What Hermes takes from a hook's stdout, as ``_parse_response`` reads it for non-tool events.

    All of stdout must be one JSON object with a non-blank string ``context``; anything else is
    ignored. Only ``pre_llm_call`` uses it (appended to the model's copy of the user message);
    other events drop it, so this returns None for them.
    """
    if event != "pre_llm_call" or not stdout.strip():
        return None
    try:
        parsed = json.loads(stdout.strip())
    except ValueError:
        return None
    context = parsed.get("context") if isinstance(parsed, dict) else None
    return context if isinstance(context, str) and context.strip() else None


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


def payload_bytes(event: str, **fields: Any) -> bytes:
    """``_serialize_payload`` of v0.19.0: key order, ``ensure_ascii=False``, no trailing newline."""
    return Hermes().encode(hermes_payload(event, **fields))


def block_message(stdout: str) -> str | None:
    """The block a ``pre_tool_call`` hook's stdout asks for, as ``_parse_response`` reads it."""
    parsed = parse_json_output(stdout)
    if parsed is None:
        return None
    default = "Blocked by shell hook."
    for key, first, second in (("action", "message", "reason"), ("decision", "reason", "message")):
        if parsed.get(key) == "block":
            message = parsed.get(first) or parsed.get(second)
            return message if isinstance(message, str) and message.strip() else default
    return None


def pre_verify_message(stdout: str) -> str | None:
    """The follow-up a ``pre_verify`` hook's stdout asks for, as ``_parse_response`` reads it:
    ``action`` (or ``decision``) ``continue`` or ``block`` with a non-blank message/reason."""
    parsed = parse_json_output(stdout)
    if parsed is None:
        return None
    action = str(parsed.get("action") or parsed.get("decision") or "").strip().lower()
    message = parsed.get("message") or parsed.get("reason")
    if action in ("continue", "block") and isinstance(message, str) and message.strip():
        return message.strip()
    return None


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
        calls = 0
        if turn.tools:
            calls += 1
            api_request_id = f"{turn_id}:api:{calls}"
            self._tool_calls(turn, task_id, turn_id, api_request_id)
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
                {"role": "assistant", "content": response, "reasoning": None,
                 "finish_reason": "stop"}
            )  # fmt: skip
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

    def _tool_calls(self, turn: Turn, task_id: str, turn_id: str, api_request_id: str) -> None:
        """One model response asking for the turn's tools, then each tool, as model_tools runs
        it: pre_tool_call (a block replaces the result), the tool, post_tool_call."""
        ids = self.tool_ids(turn)
        self.history.append(
            {
                "role": "assistant",
                "content": "",
                "reasoning": None,
                "finish_reason": "tool_calls",
                "tool_calls": [
                    {"id": i, "call_id": i, "response_item_id": "fc_" + i.removeprefix("call_"),
                     "type": "function",
                     "function": {"name": c.name, "arguments": json.dumps(c.args)}}
                    for i, c in zip(ids, turn.tools, strict=True)
                ],
            }
        )  # fmt: skip
        for k, (call, call_id) in enumerate(zip(turn.tools, ids, strict=True)):
            self.said.called(call, call_id, same_response=k > 0)  # one response asks for all
        self.said.persisted()  # the user message and the call reach state.db first
        for call, call_id in zip(turn.tools, ids, strict=True):
            common = {
                "task_id": task_id,
                "tool_call_id": call_id,
                "turn_id": turn_id,
                "api_request_id": api_request_id,
            }
            self._tool_call(call, call_id, common)

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
            {"role": "tool", "name": call.name, "tool_name": call.name, "content": result,
             "tool_call_id": call_id}
        )  # fmt: skip
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
                    "pre_verify", platform=self.info.platform, model=self.info.model,
                    coding=False, attempt=attempt, final_response=response,
                    changed_paths=changed,
                ),
            )  # fmt: skip
            if not firing.blocked:
                return calls, response
            attempt += 1
            firing.effect = (
                f"the model goes on with the hook's message (continuation {attempt} of at most"
                f" {cap})"
            )
            self.deliver(firing)
            self.history.append(
                {"role": "assistant", "content": response, "reasoning": None,
                 "finish_reason": "verify_hook_continue"}
            )  # fmt: skip
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
    transcript_format = "hermes-state-db"
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
    facts = (
        fact(
            "transcript",
            "no transcript_path in any payload; the session store, $HERMES_HOME/state.db"
            " (SQLite: sessions and messages), is what a hook can read, by HERMES_HOME and"
            " HERMES_SESSION_ID in its environment; the session's row before the first"
            " pre_llm_call, the prompt and a tool call flushed before pre_tool_call, the rest of"
            " the turn before post_llm_call",
            _hermes("hermes_state.py", 757, "SCHEMA_SQL"),
            _hermes("agent/conversation_loop.py", 5040, "flush before the tools run"),
            _hermes("agent/agent_init.py", 1292, "HERMES_SESSION_ID"),
            observed("0.19.0", "a hook reading state.db at every event"),
        ),
        fact(
            "plugins",
            "a plugin (~/.hermes/plugins/NAME: plugin.yaml and __init__.py) registers Python"
            " callbacks with ctx.register_hook; Hermes calls them in its own process, so"
            " hooksim refuses plugins: on Hermes",
            _hermes("hermes_cli/plugins.py", 19, "plugin.yaml and register(ctx)"),
            _hermes("hermes_cli/plugins.py", 1158, "register_hook"),
        ),
        fact(
            "events",
            "on_session_start before the first pre_llm_call; pre_llm_call each turn;"
            " pre_tool_call/post_tool_call per tool call; post_llm_call for a reply;"
            " on_session_end after every turn that reaches finalize_turn; /new fires"
            " on_session_finalize then on_session_reset; quitting fires on_session_finalize",
            _hermes("agent/conversation_loop.py", 391, "on_session_start"),
            _hermes("agent/turn_context.py", 697, "pre_llm_call"),
            _hermes("agent/turn_finalizer.py", 485, "post_llm_call"),
            _hermes("agent/turn_finalizer.py", 616, "on_session_end"),
            _hermes("cli.py", 7025, "on_session_finalize / on_session_reset at /new"),
            _hermes("cli.py", 1261, "on_session_finalize at shutdown"),
        ),
        fact(
            "valid events",
            "the hooks: keys Hermes accepts; any other key is skipped with a warning",
            _hermes("hermes_cli/plugins.py", 135),
            _hermes("agent/shell_hooks.py", 305),
        ),
        fact(
            "compaction",
            "no compaction event reaches shell hooks: a compaction step fires nothing",
            _hermes("hermes_cli/plugins.py", 135, "no pre/post compaction hook"),
        ),
        fact(
            "failed model call",
            "a failed call returns early from the conversation loop: pre_llm_call only, no"
            " post_llm_call, no on_session_end",
            _hermes("agent/conversation_loop.py", 4076),
            observed("hermes-agent 0.19.0", "tests/conformance"),
        ),
        fact(
            "empty reply",
            "retried, then answered with Hermes' own explanation: post_llm_call carries it as"
            " assistant_response",
            _hermes("agent/conversation_loop.py", 5394),
            _hermes("run_agent.py", 3143),
        ),
        fact(
            "task_id",
            "the CLI runs each turn with task_id = the session id",
            _hermes("cli.py", 12090),
        ),
        fact(
            "environment",
            "hooks inherit Hermes' own environment: HERMES_QUIET, HERMES_INTERACTIVE (the CLI),"
            " HERMES_SESSION_ID once the agent starts, and the CLI's terminal and browser"
            " settings (TERMINAL_CWD = the working directory, TERMINAL_ENV=local, ...)",
            _hermes("cli.py", 697),
            _hermes("cli.py", 718),
            observed("hermes-agent 0.19.0", "hooksim compare --tool hermes --real"),
        ),
        fact(
            "spawn",
            "no shell: shlex.split of the command with ~ expanded; subprocess.run with stdin",
            _hermes("agent/shell_hooks.py", 451),
            _hermes("agent/shell_hooks.py", 462),
        ),
        fact(
            "parallel",
            "an event's callbacks run one after another, in config order",
            _hermes("hermes_cli/plugins.py", 1915),
        ),
        fact(
            "matcher",
            "a regex tested with re.fullmatch on the tool name; pre_tool_call and post_tool_call"
            " only (elsewhere ignored with a warning); an invalid regex means equality",
            _hermes("agent/shell_hooks.py", 193),
            _hermes("agent/shell_hooks.py", 387),
        ),
        fact(
            "default_timeout_s",
            "60 s; below 1 the default, above 300 clamped to 300",
            _hermes("agent/shell_hooks.py", 137),
            _hermes("agent/shell_hooks.py", 412),
        ),
        fact(
            "exit codes",
            "a non-zero exit (2 included) is logged; stdout is still read. Not released yet:"
            " later source makes exit 2 block a pre_tool_call, and adds fail_closed",
            _hermes("agent/shell_hooks.py", 524),
            code(
                HERMES,
                "00067189dfecf833d4d009c2dd977ae85cf800e0",
                "agent/shell_hooks.py",
                5,
                "after 0.19.0: exit 2 blocks pre_tool_call",
            ),
        ),
        fact(
            "stdout",
            "one JSON value: {context} from pre_llm_call joins the turn; {action: block} or"
            " {decision: block} stops a pre_tool_call's tool; anything else is ignored",
            _hermes("agent/shell_hooks.py", 599),
            _hermes("agent/shell_hooks.py", 616),
        ),
        fact(
            "given to the model",
            "a blocked tool's message is its result, json.dumps({'error': MESSAGE},"
            " ensure_ascii=False); a pre_verify continue's message is the next user message, as"
            " it is; the user is shown nothing of a shell hook (its failures are logged)",
            _hermes("agent/tool_executor.py", 469),
            _hermes("agent/conversation_loop.py", 5615),
            _hermes("agent/shell_hooks.py", 517, "stderr logged"),
            observed("hermes-agent 0.19.0", "scenarios/across/guard-reason.yaml"),
        ),
        fact(
            "payload",
            "hook_event_name, tool_name, tool_input, session_id, cwd, extra (the other keyword"
            " arguments), as json.dumps(ensure_ascii=False, default=str)",
            _hermes("agent/shell_hooks.py", 536),
        ),
        fact(
            "config_files",
            "the hooks: block of ~/.hermes/config.yaml; a hook runs once consented"
            " (--accept-hooks, HERMES_ACCEPT_HOOKS=1, hooks_auto_accept: true, or the TTY prompt)",
            _hermes("agent/shell_hooks.py", 238),
            _hermes("agent/shell_hooks.py", 266),
        ),
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
        return {k: str(v) for k, v in info.process.items()
                if k.startswith("HERMES_") or k in CLI_TOOL_ENV or k == "TERMINAL_CWD"}  # fmt: skip

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
            fault = fault or ("refused" if _meant_for_hermes(run.stdout) else None)
        return Verdict(note, fault=fault)


def _meant_for_hermes(stdout: str) -> bool:
    """Whether ignored stdout was meant for Hermes: text that is not a JSON object (Hermes reads
    JSON only), or an object with a key Hermes reads on another event; an object of the hook's
    own keys is ignored quietly."""
    try:
        output = json.loads(stdout.strip())
    except ValueError:
        return True
    read = ("context", "decision", "action", "message", "reason")
    return not isinstance(output, dict) or any(key in output for key in read)
