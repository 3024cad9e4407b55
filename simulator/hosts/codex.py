"""OpenAI Codex CLI, as ``codex-rs/hooks`` and the hooks page describe it (about v0.129, May 2026).

Timeline: ``SessionStart`` is *queued* (at launch, after ``/clear``, after a compaction) and runs
before the next model request, which hooksim places after that turn's ``UserPromptSubmit`` (the
order inside the first turn is not documented). Per turn: ``UserPromptSubmit``, tool events,
then ``Stop``; a block turns the reason into a continuation prompt and ``Stop`` fires again with
``stop_hook_active: true``, with no cap (a stop hook "may loop forever"). An API error fires
``StopFailure``. Compaction: ``PreCompact`` (observe-only: exit 2 and ``decision: block`` are
intentionally unsupported), ``PostCompact``, and ``SessionStart(compact)`` queued. There is no
session-end event.

Hooks run as ``$SHELL -lc command`` (``/bin/sh`` without ``$SHELL``), all matching hooks of an
event at once. Exit 2 blocks only with a non-empty stderr; without one the hook just failed.
Other codes fail open; plain stdout is context for ``SessionStart`` and ``UserPromptSubmit``.
"""

from __future__ import annotations

import sys
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..scenario import Compact, NewSession, Turn
from .base import (
    ConfigError,
    HookSpec,
    Host,
    Session,
    parse_matcher_groups,
)
from .claude_code import STOP_FAILURE_ERRORS as CLAUDE_STOP_FAILURE_ERRORS
from .claude_code import ClaudeStyleReading

# Codex classifies a failed turn as Claude Code does, with ``overloaded`` of its own
# (openai/codex ``codex-rs/hooks`` StopFailure, commit 72cdcc98).
STOP_FAILURE_ERRORS = {**CLAUDE_STOP_FAILURE_ERRORS, "overloaded": "overloaded"}

EVENTS = frozenset(
    {
        "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
        "SessionStart", "UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop", "StopFailure",
    }
)  # fmt: skip
MATCHER_EVENTS = frozenset(
    {"PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact", "SessionStart",
     "SubagentStart", "SubagentStop", "StopFailure"}
)  # fmt: skip
TURN_SCOPE = frozenset(
    {"PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "Stop"}
)


class CodexSession(Session):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queued: list[str] = []  # SessionStart sources, first in first out
        self.turn_id = ""

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        payload: dict[str, Any] = {"session_id": self.info.session_id}
        if event in TURN_SCOPE:
            payload["turn_id"] = self.turn_id
        payload.update(
            transcript_path=None, cwd=self.info.cwd, hook_event_name=event, model=self.info.model
        )
        if event not in ("PreCompact", "PostCompact"):
            payload["permission_mode"] = "default"
        payload.update(fields)
        return payload

    def _run_queued_session_starts(self) -> bool:
        """Run the queued SessionStarts, first in first out; False when one says stop."""
        while self.queued:
            source = self.queued.pop(0)
            started = self.fire(
                "SessionStart", self.payload("SessionStart", source=source), match=source
            )
            if self.halted(started):
                return False
        return True

    def turn(self, turn: Turn) -> None:
        if not self.launched:
            self.launched = True
            self.queued.append("startup")
        self.turn_id = str(uuid.uuid4())
        submitted = self.fire(
            "UserPromptSubmit", self.payload("UserPromptSubmit", prompt=turn.user)
        )
        if self.halted(submitted):
            return
        if submitted.blocked:
            submitted.effect = "the prompt is blocked; no model request"
            return
        if not self._run_queued_session_starts():  # before the model request
            return
        if not self.tool_calls(
            turn,
            ("PreToolUse", "PostToolUse"),
            lambda call, n: {"tool_name": call.name, "tool_input": call.args,
                             "tool_use_id": f"call_{n}"},
            lambda call: {"tool_response": call.result},
        ):  # fmt: skip
            return
        if turn.interrupted:
            return
        if turn.error is not None:
            error = STOP_FAILURE_ERRORS[turn.error.cause]
            self.fire(
                "StopFailure",
                self.payload("StopFailure", error=error, error_details=None,
                             last_assistant_message=None),
                match=error,
            )  # fmt: skip
            return
        message = turn.assistant
        self.stop_loop(
            lambda n: self.fire(
                "Stop",
                self.payload("Stop", stop_hook_active=n > 0, last_assistant_message=message),
            ),
            self.host.stop_cap,
        )

    def compact(self, step: Compact) -> None:
        self.fire(
            "PreCompact", self.payload("PreCompact", trigger=step.trigger), match=step.trigger
        )
        self.fire(
            "PostCompact", self.payload("PostCompact", trigger=step.trigger), match=step.trigger
        )
        self.queued.append("compact")

    def new_session(self, step: NewSession) -> None:
        self.next_session_id(step)
        self.launched = True
        self.queued.append("clear")


class Codex(ClaudeStyleReading, Host):
    name = "codex"
    title = "Codex CLI"
    modelled = "codex-rs/hooks (commit 0082977c, about v0.129, May 2026)"
    events = {
        "session_start": "SessionStart",
        "prompt_submit": "UserPromptSubmit",
        "pre_tool": "PreToolUse",
        "post_tool": "PostToolUse",
        "stop": "Stop",
        "pre_compact": "PreCompact",
        "post_compact": "PostCompact",
        "session_end": None,
    }
    config_files = ("~/.codex/hooks.json", "~/.codex/config.toml [hooks]", "<repo>/.codex/...")
    spawn = "shell"
    parallel = True
    default_timeout_s = 600.0  # timeout_sec.unwrap_or(600).max(1)
    blocking = frozenset({"UserPromptSubmit", "PreToolUse", "Stop", "SubagentStop"})
    stop_cap = None
    exit_2 = "blocks only with non-empty stderr; else failed"
    session_class = CodexSession
    plain_text_context = frozenset({"SessionStart", "UserPromptSubmit", "SubagentStart"})
    json_on_error = False  # any other exit code is a failed hook
    exit_2_needs_stderr = True
    block_needs_reason = True
    stop_context_continues = False

    def load_config(self, path: Path) -> Any:
        if path.suffix == ".toml":
            if sys.version_info >= (3, 11):
                import tomllib
            else:  # pragma: no cover - Python 3.10
                import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]
            try:
                data = tomllib.loads(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError) as e:
                raise ConfigError(f"{path}: cannot read ({e})") from None
            except tomllib.TOMLDecodeError as e:
                raise ConfigError(f"{path}: not valid TOML ({e})") from None
            return data.get("hooks")
        return super().load_config(path)

    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        return parse_matcher_groups(
            block, events=EVENTS, matcher_events=MATCHER_EVENTS, min_timeout_s=1.0,
            timeout_keys=("timeout", "timeoutSec"),
        )  # fmt: skip

    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        """``$SHELL -lc``: a login shell, whose profile may reset PATH."""
        return [env.get("SHELL") or "/bin/sh", "-lc", command]
