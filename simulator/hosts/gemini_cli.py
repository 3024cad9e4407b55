"""Gemini CLI, as ``docs/hooks/reference.md`` and ``hookRunner.ts`` describe it (2026).

Timeline: ``SessionStart(startup)`` at launch; per turn ``BeforeAgent`` (the prompt-submit
point), ``BeforeTool``/``AfterTool`` per tool call, then ``AfterAgent`` with the response and
``stop_hook_active``: a deny (exit 2 or ``decision: deny|block``) forces a retry turn, and no
cap is documented. Compaction fires ``PreCompress``, advisory and asynchronous: Gemini does not
wait for it and cannot be stopped by it; nothing fires after it. ``/clear`` fires ``SessionEnd``
and ``SessionStart(clear)``; quitting fires ``SessionEnd``, which is best effort (not awaited).

Hooks run through the shell, an identical one once, in parallel unless any matching group
says ``sequential: true`` (then all of them run in order, as ``hookPlanner`` decides); a
timeout (default 60 000 ms, configured in milliseconds) sends SIGTERM, then SIGKILL 5 s later.
Exit 0: stdout is JSON, other text becomes a ``systemMessage`` (not context). Exit 2: a block
with stderr as the reason. Other codes: a warning, and the CLI goes on.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

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
        "SessionStart", "SessionEnd", "BeforeAgent", "AfterAgent", "BeforeModel",
        "BeforeToolSelection", "AfterModel", "BeforeTool", "AfterTool", "Notification",
        "PreCompress",
    }
)  # fmt: skip
MATCHER_EVENTS = frozenset({"BeforeTool", "AfterTool", "SessionStart", "SessionEnd", "PreCompress"})
CONTEXT_EVENTS = frozenset({"SessionStart", "BeforeAgent", "AfterTool"})


class GeminiSession(Session):
    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        instant = dt.datetime.fromtimestamp(self.info.now_ms() / 1000, dt.timezone.utc)
        payload: dict[str, Any] = {
            "session_id": self.info.session_id,
            "transcript_path": self.info.transcript_path,
            "cwd": self.info.cwd,
            "hook_event_name": event,
            "timestamp": instant.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        }
        payload.update(fields)
        return payload

    def _start(self, source: str) -> Firing:
        self.launched = True
        return self.fire("SessionStart", self.payload("SessionStart", source=source), match=source)

    def turn(self, turn: Turn) -> None:
        if not self.launched and self.halted(self._start("startup")):
            return
        before = self.fire("BeforeAgent", self.payload("BeforeAgent", prompt=turn.user))
        if self.halted(before):
            return
        if before.blocked:
            before.effect = "the prompt is blocked"
            return
        if not self.tool_calls(
            turn,
            ("BeforeTool", "AfterTool"),
            lambda call, n: {"tool_name": call.name, "tool_input": call.args},
            lambda call: {"tool_response": {"llmContent": call.result}},
        ):
            return
        if turn.interrupted or turn.assistant is None:
            return
        prompt, response = turn.user, turn.assistant
        self.stop_loop(
            lambda n: self.fire(
                "AfterAgent",
                self.payload(
                    "AfterAgent", prompt=prompt, prompt_response=response, stop_hook_active=n > 0
                ),
            ),
            self.host.stop_cap,
        )

    def compact(self, step: Compact) -> None:
        self.fire(
            "PreCompress", self.payload("PreCompress", trigger=step.trigger), match=step.trigger
        )

    def new_session(self, step: NewSession) -> None:
        if self.launched:
            self.fire("SessionEnd", self.payload("SessionEnd", reason="clear"), match="clear")
        self.next_session_id(step)
        self._start("clear")

    def exit(self) -> None:
        if self.launched:
            self.fire("SessionEnd", self.payload("SessionEnd", reason="exit"), match="exit")


class GeminiCli(Host):
    name = "gemini-cli"
    title = "Gemini CLI"
    modelled = "docs/hooks/reference.md @ 06c0d81, hookRunner.ts @ 0017a72 (2026)"
    events = {
        "session_start": "SessionStart",
        "prompt_submit": "BeforeAgent",
        "pre_tool": "BeforeTool",
        "post_tool": "AfterTool",
        "stop": "AfterAgent",
        "pre_compact": "PreCompress",
        "post_compact": None,
        "session_end": "SessionEnd",
    }
    config_files = ("~/.gemini/settings.json", ".gemini/settings.json")
    spawn = "shell"
    parallel = True  # unless any matching group sets sequential: true (hookPlanner)
    dedupe = True  # identical hooks run once
    match_search = True  # hookPlanner: RegExp.test, a search
    default_timeout_s = 60.0  # DEFAULT_HOOK_TIMEOUT = 60000 ms
    config_timeout_unit = "ms"
    term_grace_s = 5.0
    blocking = frozenset(
        {"BeforeAgent", "AfterAgent", "BeforeTool", "BeforeModel", "BeforeToolSelection"}
    )
    not_awaited = frozenset({"PreCompress", "SessionEnd"})
    stop_cap = None  # not documented
    exit_2 = "blocks, stderr is the reason"
    session_class = GeminiSession

    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        return parse_matcher_groups(
            block,
            events=EVENTS,
            matcher_events=MATCHER_EVENTS,
            timeout_unit_s=0.001 if self.config_timeout_unit == "ms" else 1.0,
        )

    def env(self, event: str, info: SessionInfo) -> dict[str, str]:
        return {"GEMINI_PROJECT_DIR": info.cwd, "CLAUDE_PROJECT_DIR": info.cwd}

    def read(self, event: str, run: HookRun) -> Verdict:
        if run.timed_out or run.spawn_error:
            return Verdict(f"warning: {'timed out' if run.timed_out else run.spawn_error}")
        if run.exit_code == 2:
            reason = run.stderr.strip()
            if event not in self.blocking:
                return Verdict(f"exit 2: {event} is advisory; ignored")
            return Verdict(f"block: {first_line(reason)}", block=reason)
        if run.exit_code != 0:
            return Verdict(
                f"warning (goes on): exit {run.exit_code} {first_line(run.stderr)}".strip()
            )
        output = parse_json_output(run.stdout)
        if output is None:
            text = run.stdout.strip()
            return Verdict(f"systemMessage: {first_line(text)}" if text else "ok")
        if output.get("continue") is False:
            return Verdict(f"continue: false ({output.get('stopReason', '')})", stop=True)
        context = additional_context(output) if event in CONTEXT_EVENTS else None
        if output.get("decision") in ("deny", "block"):
            reason = str(output.get("reason") or "")
            if event not in self.blocking:
                return Verdict(f"decision {output['decision']} ignored: {event} is advisory")
            return Verdict(f"block: {first_line(reason)}", block=reason, context=context)
        return Verdict("context (JSON)" if context else "ok", context=context)
