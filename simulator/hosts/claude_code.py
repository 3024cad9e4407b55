"""Claude Code, as its hooks reference and changelog describe it up to v2.1.239 (August 2026).

Timeline: ``SessionStart(startup)`` at launch; per turn ``UserPromptSubmit``, then
``PreToolUse``/``PostToolUse`` per tool call, then ``Stop`` (not on an interrupt; an API error
fires ``StopFailure`` instead). A blocked ``Stop`` makes the model continue and fires ``Stop``
again with ``stop_hook_active: true``; after 8 blocks in a row the turn ends anyway (v2.1.143).
Compaction: ``PreCompact`` (can block since v2.1.105: the compaction is skipped), then
``PostCompact`` and ``SessionStart(compact)``. ``/clear`` ends the session (``SessionEnd``) and
starts another (``SessionStart(clear)``); quitting fires ``SessionEnd`` with a 1.5 s budget.

Hooks run through bash, all matching hooks of an event at once, an identical command once.
Exit 0: stdout starting with ``{`` is JSON, other stdout is context for ``SessionStart`` and
``UserPromptSubmit`` only. Exit 2: a block with stderr as the reason, even an empty one. Other
codes: a non-blocking error, unless stdout is valid JSON, which then decides.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any, ClassVar

from ..scenario import Compact, NewSession, Turn
from .base import (
    Firing,
    HookRun,
    HookSpec,
    Host,
    Session,
    SessionInfo,
    Verdict,
    additional_context,
    first_line,
    parse_json_output,
    parse_matcher_groups,
)

EVENTS = frozenset(
    {
        "SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Notification", "Stop",
        "StopFailure", "SubagentStop", "PreCompact", "PostCompact", "SessionEnd",
    }
)  # fmt: skip
MATCHER_EVENTS = frozenset(
    {"SessionStart", "PreToolUse", "PostToolUse", "Notification", "SubagentStop", "PreCompact",
     "PostCompact", "SessionEnd", "StopFailure"}
)  # fmt: skip
PLAIN_TEXT_CONTEXT = frozenset({"SessionStart", "UserPromptSubmit"})
SESSION_END_BUDGET_S = 1.5  # shared by SessionEnd hooks; a per-hook timeout raises it up to 60 s
SESSION_END_MAX_S = 60.0


FEEDBACK_EVENTS = frozenset(
    {"PostToolUse"}
)  # the tool already ran: a block only tells the model why
STOP_EVENTS = frozenset({"Stop", "SubagentStop"})


class ClaudeStyleReading:
    """How Claude Code reads a finished hook; Codex reads the same way with other settings."""

    blocking: ClassVar[frozenset[str]]
    plain_text_context: ClassVar[frozenset[str]] = PLAIN_TEXT_CONTEXT  # plain stdout is context
    json_on_error: ClassVar[bool] = True  # valid JSON decides even after a non-zero exit
    exit_2_needs_stderr: ClassVar[bool] = False  # exit 2 with empty stderr is only a failure
    block_needs_reason: ClassVar[bool] = False  # decision: block without a reason is a failure
    stop_context_continues: ClassVar[bool] = True  # a Stop additionalContext continues the turn

    def read(self, event: str, run: HookRun) -> Verdict:
        if run.timed_out or run.spawn_error:
            return Verdict(
                "cancelled: timed out" if run.timed_out else f"failed: {run.spawn_error}"
            )
        output = parse_json_output(run.stdout)
        if run.exit_code == 2:
            stderr = run.stderr.strip()
            if self.exit_2_needs_stderr and not stderr:
                return Verdict("failed: exit 2 without stderr does not block")
            reason = str(output.get("reason") or stderr) if output else stderr
            if event in FEEDBACK_EVENTS:
                return Verdict(
                    f"exit 2: shown to the model: {first_line(reason)}", context=reason or None
                )
            if event not in self.blocking:
                return Verdict(f"exit 2: {event} cannot be blocked; stderr shown to the user only")
            return Verdict(f"block: {first_line(reason)}", block=reason)
        if run.exit_code != 0 and not (self.json_on_error and output is not None):
            return Verdict(
                f"error (fails open): exit {run.exit_code} {first_line(run.stderr)}".strip()
            )
        if output is None:
            text = run.stdout.strip()
            if text.startswith("{"):
                return Verdict("failed: stdout is not valid JSON")
            if text and event in self.plain_text_context:
                return Verdict("context (plain text)", context=text)
            return Verdict("ok" if not text else "ok (stdout not used)")
        if output.get("continue") is False and event not in (
            "PreCompact",
            "PostCompact",
            "SessionEnd",
        ):
            return Verdict(f"continue: false ({output.get('stopReason', '')})", stop=True)
        context = additional_context(output)
        specific = output.get("hookSpecificOutput")
        denied = isinstance(specific, dict) and specific.get("permissionDecision") == "deny"
        if event == "PreToolUse" and denied:
            assert isinstance(specific, dict)
            reason = str(specific.get("permissionDecisionReason") or "")
            return Verdict(f"deny: {first_line(reason)}", block=reason)
        if output.get("decision") == "block":
            reason = str(output.get("reason") or "")
            if event in FEEDBACK_EVENTS:
                return Verdict(f"block reason shown to the model: {first_line(reason)}",
                               context="\n".join(filter(None, [reason, context])) or None)  # fmt: skip
            if event not in self.blocking:
                return Verdict(
                    f"decision block ignored: {event} cannot be blocked", context=context
                )
            if self.block_needs_reason and not reason.strip():
                return Verdict("failed: decision block without a reason does not block")
            return Verdict(f"block: {first_line(reason)}", block=reason, context=context)
        if context and self.stop_context_continues and event in STOP_EVENTS:
            return Verdict(f"the turn continues with context: {first_line(context)}", context=context,
                           followup=context)  # fmt: skip
        return Verdict("context (JSON)" if context else "ok", context=context)


class ClaudeSession(Session):
    host: ClaudeCode

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "session_id": self.info.session_id,
            "transcript_path": self.info.transcript_path,
            "cwd": self.info.cwd,
        }
        if event not in ("SessionStart", "SessionEnd", "PreCompact", "PostCompact"):
            payload["permission_mode"] = "default"
        payload["hook_event_name"] = event
        payload.update(fields)
        return payload

    def _start(self, source: str) -> Firing:
        self.launched = True
        return self.fire(
            "SessionStart",
            self.payload("SessionStart", source=source, model=self.info.model),
            match=source,
        )

    def turn(self, turn: Turn) -> None:
        if not self.launched:
            self._start("startup")
        submitted = self.fire(
            "UserPromptSubmit", self.payload("UserPromptSubmit", prompt=turn.user)
        )
        if submitted.blocked or submitted.stop:
            submitted.effect = "the prompt is blocked and erased; no model call"
            return
        if not self.tool_calls(
            turn,
            ("PreToolUse", "PostToolUse"),
            lambda call, n: {"tool_name": call.name, "tool_input": call.args,
                             "tool_use_id": f"toolu_{n:02d}"},
            lambda call: {"tool_response": call.result},
        ):  # fmt: skip
            return
        if turn.interrupted:
            return  # Stop does not fire on a user interrupt
        if turn.assistant is None:
            self.fire(
                "StopFailure",
                self.payload("StopFailure", error="server_error", last_assistant_message=""),
                match="server_error",
            )
            return
        fields: dict[str, Any] = {"last_assistant_message": turn.assistant}
        fields = fields if self.host.sends_last_message else {}
        self.stop_loop(
            lambda n: self.fire(
                "Stop",
                self.payload(
                    "Stop", stop_hook_active=n > 0, **fields, background_tasks=[], session_crons=[]
                ),
            ),
            self.host.stop_cap,
        )

    def compact(self, step: Compact) -> None:
        pre = self.fire(
            "PreCompact",
            self.payload("PreCompact", trigger=step.trigger, custom_instructions=step.instructions),
            match=step.trigger,
        )
        if pre.blocked:
            pre.effect = (
                "compaction skipped; the conversation continues"
                if step.trigger == "auto"
                else "/compact is blocked"
            )
            return
        summary = f"Summary of the conversation before {step.trigger} compaction."
        post = self.ev("post_compact")  # since v2.1.76
        if post is not None:
            self.fire(
                post,
                self.payload(post, trigger=step.trigger, compact_summary=summary),
                match=step.trigger,
            )
        self._start("compact")

    def new_session(self, step: NewSession) -> None:
        if self.launched:
            self.fire("SessionEnd", self.payload("SessionEnd", reason="clear"), match="clear")
        self.next_session_id(step)
        self._start("clear")

    def exit(self) -> None:
        if self.launched:
            reason = "prompt_input_exit"
            self.fire("SessionEnd", self.payload("SessionEnd", reason=reason), match=reason)


class ClaudeCode(ClaudeStyleReading, Host):
    name = "claude-code"
    title = "Claude Code"
    modelled = "v2.1.239 (hooks reference and changelog, August 2026)"
    events = {
        "session_start": "SessionStart",
        "prompt_submit": "UserPromptSubmit",
        "pre_tool": "PreToolUse",
        "post_tool": "PostToolUse",
        "stop": "Stop",
        "pre_compact": "PreCompact",
        "post_compact": "PostCompact",
        "session_end": "SessionEnd",
    }
    config_files = (
        "~/.claude/settings.json",
        ".claude/settings.json",
        ".claude/settings.local.json",
    )
    spawn = "shell"
    parallel = True
    dedupe = True
    default_timeout_s = 600.0  # since v2.1.3; 60 s before
    event_timeouts_s = {"UserPromptSubmit": 30.0, "SessionEnd": SESSION_END_BUDGET_S}
    blocking = frozenset({"UserPromptSubmit", "PreToolUse", "Stop", "SubagentStop", "PreCompact"})
    stop_cap = 8  # CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, v2.1.143
    exit_2 = "blocks, stderr is the reason (even empty)"
    session_class = ClaudeSession
    sends_last_message = True  # Stop's last_assistant_message, since v2.1.47

    def at_version(self, version: str) -> Host:
        """Claude Code as the changelog says it was at ``version`` (v1.0.85, with SessionEnd, on).

        Before v2.1.3 hooks had a 60 s default timeout; before v2.1.47 Stop had no
        ``last_assistant_message``; before v2.1.76 there was no PostCompact; before v2.1.105 a
        PreCompact hook could not block; before v2.1.143 blocked stops had no cap.
        """
        try:
            v = tuple(int(part) for part in version.removeprefix("v").split("."))
        except ValueError:
            raise ValueError(f"Claude Code version {version!r} is not like 2.1.100") from None
        if v < (1, 0, 85):
            raise ValueError(f"hooksim models Claude Code from v1.0.85 on, not {version}")
        facts: dict[str, Any] = {"modelled": f"v{version.removeprefix('v')} (by the changelog)"}
        if v < (2, 1, 3):
            facts["default_timeout_s"] = 60.0
        if v < (2, 1, 47):
            facts["sends_last_message"] = False
        if v < (2, 1, 76):
            facts["events"] = {**self.events, "post_compact": None}
        if v < (2, 1, 105):
            facts["blocking"] = self.blocking - {"PreCompact"}
        if v < (2, 1, 143):
            facts["stop_cap"] = None
        return type(f"ClaudeCode_{'_'.join(map(str, v))}", (type(self),), facts)()  # type: ignore[no-any-return]

    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        return parse_matcher_groups(block, events=EVENTS, matcher_events=MATCHER_EVENTS)

    def timeout_s(self, spec: HookSpec, env: Mapping[str, str]) -> float:
        """SessionEnd: a 1.5 s budget (or ``CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS``), which a
        hook's own timeout can raise up to 60 s."""
        if spec.event != "SessionEnd":
            return super().timeout_s(spec, env)
        budget = self.event_timeouts_s.get("SessionEnd", self.default_timeout_s)
        with contextlib.suppress(KeyError, ValueError):
            budget = float(env["CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"]) / 1000
        if spec.timeout_s is not None:
            budget = max(budget, min(spec.timeout_s, SESSION_END_MAX_S))
        return budget

    def env(self, event: str, info: SessionInfo) -> dict[str, str]:
        env = {"CLAUDE_PROJECT_DIR": info.cwd}
        if event == "SessionStart":
            env["CLAUDE_ENV_FILE"] = f"{info.transcript_path}.env"
        return env
