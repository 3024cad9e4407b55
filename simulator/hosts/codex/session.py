"""Codex CLI's session loop: what it fires when, with which payload, and what it does with the
hooks' answers."""

from __future__ import annotations

import random
import string
import uuid
from typing import Any, Protocol

from ...steps import Compact, NewSession, Turn
from ..claude_style import response_before_id
from ..conversation import COMPACTED, PROMPT, USER, Message
from ..output import json_object
from ..records import Firing
from ..session import Session, SessionHost
from .constants import STOP_FAILURE_ERRORS, TURN_SCOPE


class CodexHost(SessionHost, Protocol):
    """What Codex's loop reads of its profile besides every loop's."""

    @property
    def continue_ignored(self) -> frozenset[str]: ...
    @property
    def exec_launch(self) -> bool: ...
    @property
    def has_interrupt(self) -> bool: ...
    @property
    def has_stop_failure(self) -> bool: ...
    @property
    def sends_transcript_path(self) -> bool: ...


class CodexSession(Session):
    host: CodexHost

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queued: list[str] = []  # SessionStart sources, first in first out
        self.turn_id = ""
        self.next_turn_id = ""  # the next turn's, taken by an automatic compaction before it
        self.running = False  # exec: a `codex exec` process is running for this session

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        payload: dict[str, Any] = {"session_id": self.info.session_id}
        if event in TURN_SCOPE:
            payload["turn_id"] = self.turn_id
        transcript = self.info.transcript_path if self.host.sends_transcript_path else None
        payload.update(
            transcript_path=transcript,
            cwd=self.info.cwd,
            hook_event_name=event,
            model=self.info.model,
        )
        if event not in ("PreCompact", "PostCompact", "SessionEnd", "Interrupt"):
            # hook_permission_mode: approval policy never (codex exec's) is bypassPermissions.
            payload["permission_mode"] = "bypassPermissions" if self.host.exec_launch else "default"
        if event == "SessionEnd":
            del payload["model"]
        payload.update(fields)
        return response_before_id(payload)

    def told(self, firing: Firing) -> list[str]:
        """What the model gets when the session goes on with a block. A denied tool call: its
        result, every blocking hook's reason joined by a blank line (hook_runtime.rs
        ``run_pre_tool_use_hooks``; common.rs ``join_text_chunks``). A blocked stop: one
        ``<hook_prompt>`` per blocking hook, the reason escaped as XML text, in the user message
        that continues the turn (stop.rs ``parse_completed``; items.rs
        ``build_hook_prompt_message``)."""
        blocking = [run for run in firing.runs if run.told]
        if not blocking:
            return []
        if firing.event == "PreToolUse":
            reason = "\n\n".join(str(run.told) for run in blocking)
            payload = json_object(blocking[0].stdin)
            tool = payload.get("tool_name")
            tool_input = payload.get("tool_input")
            command = tool_input.get("command") if isinstance(tool_input, dict) else None
            if tool in ("Bash", "apply_patch") and isinstance(command, str):
                return [f"Command blocked by PreToolUse hook: {reason}. Command: {command}"]
            return [f"Tool call blocked by PreToolUse hook: {reason}. Tool: {tool}"]
        if firing.event in ("Stop", "SubagentStop"):
            source = f"{self.info.home}/.codex/hooks.json"  # the user's hooks file
            label = "stop" if firing.event == "Stop" else "subagent_stop"
            return [
                f'<hook_prompt hook_run_id="{label}:{run.spec.order if run.spec else 0}:{source}">'
                f"{xml_text(str(run.told))}</hook_prompt>"
                for run in blocking
            ]
        return [str(run.told) for run in blocking]

    def _run_queued_session_starts(self) -> bool:
        """Run the queued SessionStarts, first in first out; False when one says stop."""
        while self.queued:
            source = self.queued.pop(0)
            if source == "clear":  # the new session's rollout starts with its first turn
                self.said.started(source, self.info.session_id)
            started = self.fire(
                "SessionStart", self.payload("SessionStart", source=source), match=source
            )
            if self.halted(started):
                return False
        return True

    def _start(self) -> None:
        """The host process starts for this session and queues its SessionStart: ``startup``
        the first time, ``resume`` for each later ``codex exec resume``."""
        if self.running or (self.launched and not self.host.exec_launch):
            return
        source = "resume" if self.launched else "startup"
        self.queued.append(source)
        self.said.started(source, self.info.session_id)  # the rollout's lines come first
        self.launched = self.running = True

    def turn(self, turn: Turn) -> None:
        self._start()
        try:
            self._turn(turn)
        finally:
            if self.host.exec_launch:  # the exec process ends with its turn
                self.running = False
                self._end("other")

    def _turn(self, turn: Turn) -> None:
        self.turn_id, self.next_turn_id = self.next_turn_id or str(uuid.uuid4()), ""
        if not self._run_queued_session_starts():  # run_turn: before the turn's input
            return
        self.said.submitted(turn.user)
        submitted = self.fire(
            "UserPromptSubmit", self.payload("UserPromptSubmit", prompt=turn.user)
        )
        if self.halted(submitted):
            return
        if submitted.blocked:
            submitted.effect = "the prompt is blocked; no model request"
            return
        self.said.prompt(turn.user)
        ids = self.tool_ids(turn)
        # No Codex hook fires per model request: how the calls are grouped in responses shows
        # only in the rollout (each response's token usage and count) and in when a mid-turn
        # compaction comes (after the calls of the response that reported a full context).
        if not self.tool_calls(
            turn,
            ("PreToolUse", "PostToolUse"),
            lambda call, n: {
                "tool_name": call.name,
                "tool_input": call.args,
                "tool_use_id": ids[n - 1],
            },
            lambda call: {"tool_response": call.result},
        ):
            return
        if turn.interrupted or turn.error is not None:
            self.said.failed()  # the request went out; no answer came back
        if turn.interrupted:
            if self.host.has_interrupt:
                self.fire("Interrupt", self.payload("Interrupt"))
            return
        if turn.error is not None:
            if not self.host.has_stop_failure:
                return
            error = STOP_FAILURE_ERRORS[turn.error.cause]
            self.fire(
                "StopFailure",
                self.payload(
                    "StopFailure", error=error, error_details=None, last_assistant_message=None
                ),
                match=error,
            )
            return

        def fire_stop(n: int) -> Firing:
            # Each Stop carries the reply its continuation ended with.
            self.said.replied(turn.reply(n) or "")
            return self.fire(
                "Stop",
                self.payload("Stop", stop_hook_active=n > 0, last_assistant_message=turn.reply(n)),
            )

        self.stop_loop(fire_stop, self.host.stop_cap)

    def compact(self, step: Compact) -> None:
        if self.host.exec_launch:
            if step.trigger != "auto":
                return  # codex exec has no /compact: only the TUI's command compacts by hand
            # The next exec compacts first thing, before its turn's input (the context the
            # last turn reported is over the limit): its SessionStart(resume) is queued first.
            self._start()
        if step.trigger == "auto":
            # Codex compacts automatically at the start of the next turn, before its input is
            # sampled: the compaction's events carry that turn's id (real 0.171.0).
            self.turn_id = self.next_turn_id = str(uuid.uuid4())
        self.turn_id = self.turn_id or str(uuid.uuid4())
        self._compact_now(step.trigger)

    def compact_mid_turn(self) -> bool:
        """A response asking for tool calls reported a full context: once its calls are done
        (real 0.171.0: after both of a response's two calls), run_turn compacts before its
        next sampling request (phase MidTurn), in the same turn (its turn_id), fires
        SessionStart(compact) at once (not at the next turn, as after a compaction between
        turns: real 0.171.0), and goes on; a hook's continue: false ends the turn there."""
        return self._compact_now("auto") and self._run_queued_session_starts()

    def _compact_now(self, trigger: str) -> bool:
        """PreCompact, the compaction, PostCompact, and SessionStart(compact) queued; False when
        a hook's continue: false stopped it."""
        pre = self.fire("PreCompact", self.payload("PreCompact", trigger=trigger), match=trigger)
        if pre.stop and "PreCompact" not in self.host.continue_ignored:
            pre.effect = "continue: false; Codex CLI does not compact, the turn ends"
            return False
        self.said.compacted(trigger, COMPACT_SUMMARY, compacted(self.said.messages))
        post = self.fire("PostCompact", self.payload("PostCompact", trigger=trigger), match=trigger)
        self.queued.append("compact")
        if post.stop and "PostCompact" not in self.host.continue_ignored:
            post.effect = "continue: false; Codex CLI stops the turn after compacting"
            return False
        return True

    def _end(self, reason: str) -> None:
        if self.launched and self.ev("session_end") is not None:
            self.fire("SessionEnd", self.payload("SessionEnd", reason=reason), match=reason)

    def new_session(self, step: NewSession) -> None:
        if self.host.exec_launch:  # a new `codex exec` (without resume) starts the next session
            self.next_session_id(step)
            self.launched = self.running = False
            self.queued.clear()
            return
        self._end("clear")
        self.next_session_id(step)
        self.launched = True
        self.queued.append("clear")

    def exit(self) -> None:
        if not self.host.exec_launch:  # each exec already ended its own process
            self._end("other")


# What the model is sent after a compaction, before the summary (real 0.171.0: the rollout's
# ``compacted`` message).
COMPACT_SUMMARY = (
    "Another language model started to solve this problem and produced a summary of its"
    " thinking process. Summary of the conversation so far."
)


def compacted(messages: list[Message]) -> list[Message]:
    """What Codex keeps of the conversation when it compacts: the user's prompts (not a hook's
    prompt), then the summary as a user message (real 0.171.0's requests and its rollout's
    ``replacement_history``)."""
    kept = [m for m in messages if m.kind in (PROMPT, COMPACTED)]
    return [*kept, Message(USER, COMPACT_SUMMARY, COMPACTED)]


def random_suffix() -> str:
    """Six random letters and digits, as ``tempfile`` names the alias folder."""
    return "".join(random.choices(string.ascii_letters + string.digits, k=6))


def xml_text(text: str) -> str:
    """``text`` escaped as XML text, as quick_xml's serializer escapes it: ``&``, ``<``, ``>``
    (quotes stay; a real 0.171.0 run showed ``'`` and ``"`` as they are)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
