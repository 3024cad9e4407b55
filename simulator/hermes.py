"""The Hermes Agent v0.19.0 host: which events fire in a session, their payload bytes, the hooks.

Faithful to ``agent.shell_hooks`` and the CLI's turn loop of v0.19.0 (see the project's reference
on Hermes shell hooks, sections 4 and 6 to 10): ``on_session_start`` before the first turn's
``pre_llm_call``; ``pre_llm_call`` every turn; per tool call ``pre_tool_call`` and
``post_tool_call``; ``post_llm_call`` only with a final response and not interrupted;
``on_session_end`` after every turn (it is a per-turn event despite its name); on ``/new``,
``on_session_finalize`` for the old session and ``on_session_reset`` for the new one. There is
no compaction event.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from .scenario import NewSession, RawEvent, Step, Turn

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


@dataclass(frozen=True)
class HookSpec:
    """One entry of the ``hooks:`` block, as ``_parse_single_entry`` keeps it."""

    event: str
    command: str
    timeout_s: int = DEFAULT_TIMEOUT_S
    matcher: str | None = None

    def matches(self, tool_name: str | None) -> bool:
        """``re.fullmatch`` on tool events; an invalid regex falls back to equality."""
        if self.event not in TOOL_EVENTS or self.matcher is None:
            return True
        if tool_name is None:
            return False
        try:
            return re.fullmatch(self.matcher, tool_name) is not None
        except re.error:
            return self.matcher == tool_name


def parse_hooks_block(block: Any) -> tuple[list[HookSpec], list[str]]:
    """Hook specs in config order, and the warnings Hermes would log for skipped entries.

    Never raises, like ``_parse_hooks_block``: a bad entry is skipped with a warning.
    """
    specs: list[HookSpec] = []
    warnings: list[str] = []
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
            try:
                timeout = int(raw.get("timeout", DEFAULT_TIMEOUT_S))
            except (TypeError, ValueError):
                timeout = DEFAULT_TIMEOUT_S
            timeout = DEFAULT_TIMEOUT_S if timeout < 1 else min(timeout, MAX_TIMEOUT_S)
            matcher = raw.get("matcher")
            if not isinstance(matcher, str) or event not in TOOL_EVENTS or not matcher.strip():
                matcher = None
            specs.append(
                HookSpec(event, str(raw["command"]).strip(), timeout, matcher and matcher.strip())
            )
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


def payload_bytes(
    event: str,
    *,
    session_id: str,
    cwd: str,
    extra: dict[str, Any],
    tool_name: str | None = None,
    args: Any = None,
) -> bytes:
    """``_serialize_payload`` of v0.19.0: key order, ``ensure_ascii=False``, no trailing newline."""
    extra = {**extra}
    extra.setdefault("telemetry_schema_version", TELEMETRY_SCHEMA_VERSION)
    payload = {
        "hook_event_name": event,
        "tool_name": tool_name,
        "tool_input": args if isinstance(args, dict) else None,
        "session_id": session_id,
        "cwd": cwd,
        "extra": extra,
    }
    return json.dumps(payload, ensure_ascii=False, default=str).encode("utf-8")


@dataclass(frozen=True)
class Firing:
    """One event to fire: its name, stdin bytes, and the tool name matchers look at."""

    event: str
    stdin: bytes
    tool_name: str | None = None


@dataclass
class HermesSession:
    """The CLI agent's state across turns: session id, history, first-turn flag."""

    cwd: str
    session_id: str = "session-1"
    model: str = "hermes-4"
    platform: str = "cli"
    history: list[dict[str, str]] = field(default_factory=list)
    started: bool = False
    _sessions: int = 1

    def firings(self, step: Step) -> list[Firing]:
        """The events Hermes fires for one scenario step, in order."""
        if isinstance(step, NewSession):
            return self._new_session(step)
        if isinstance(step, RawEvent):
            return [self._raw(step)]
        return self._turn(step)

    def _payload(
        self, event: str, extra: dict[str, Any], tool_name: str | None = None, args: Any = None
    ) -> bytes:
        return payload_bytes(
            event,
            session_id=self.session_id,
            cwd=self.cwd,
            extra=extra,
            tool_name=tool_name,
            args=args,
        )

    def _turn(self, turn: Turn) -> list[Firing]:
        out: list[Firing] = []
        if not self.started:
            self.started = True
            extra = {"model": self.model, "platform": self.platform}
            out.append(Firing("on_session_start", self._payload("on_session_start", extra)))
        task_id = str(uuid.uuid4())
        turn_id = f"{self.session_id}:{task_id}:{uuid.uuid4().hex[:8]}"
        is_first = not self.history
        self.history.append({"role": "user", "content": turn.user})
        pre = {
            "task_id": task_id,
            "turn_id": turn_id,
            "user_message": turn.user,
            "conversation_history": list(self.history),
            "is_first_turn": is_first,
            "model": self.model,
            "platform": self.platform,
            "sender_id": "",
        }
        out.append(Firing("pre_llm_call", self._payload("pre_llm_call", pre)))
        for n, call in enumerate(turn.tools, 1):
            common = {
                "task_id": task_id,
                "tool_call_id": f"call_{n}",
                "turn_id": turn_id,
                "api_request_id": "",
            }
            out.append(
                Firing(
                    "pre_tool_call",
                    self._payload(
                        "pre_tool_call", {**common, "middleware_trace": []}, call.name, call.args
                    ),
                    call.name,
                )
            )
            post: dict[str, Any] = {
                "result": call.result,
                **common,
                "duration_ms": 0,
                "status": "ok",
                "error_type": None,
                "error_message": None,
                "middleware_trace": [],
            }
            out.append(
                Firing(
                    "post_tool_call",
                    self._payload("post_tool_call", post, call.name, call.args),
                    call.name,
                )
            )
        completed = bool(turn.assistant) and not turn.interrupted
        if completed:
            assert turn.assistant is not None
            self.history.append({"role": "assistant", "content": turn.assistant})
            post_llm = {
                "task_id": task_id,
                "turn_id": turn_id,
                "user_message": turn.user,
                "assistant_response": turn.assistant,
                "conversation_history": list(self.history),
                "model": self.model,
                "platform": self.platform,
            }
            out.append(Firing("post_llm_call", self._payload("post_llm_call", post_llm)))
        end = {
            "task_id": task_id,
            "turn_id": turn_id,
            "completed": completed,
            "interrupted": turn.interrupted,
            "model": self.model,
            "platform": self.platform,
        }
        out.append(Firing("on_session_end", self._payload("on_session_end", end)))
        return out

    def _new_session(self, step: NewSession) -> list[Firing]:
        finalize = self._payload(
            "on_session_finalize", {"platform": self.platform, "reason": "session_boundary"}
        )
        self._sessions += 1
        self.session_id = step.session_id or f"session-{self._sessions}"
        self.history = []
        self.started = False
        reset = self._payload(
            "on_session_reset", {"platform": self.platform, "reason": "new_session"}
        )
        return [Firing("on_session_finalize", finalize), Firing("on_session_reset", reset)]

    def _raw(self, step: RawEvent) -> Firing:
        if step.stdin is not None:
            return Firing(step.event, step.stdin)
        return Firing(step.event, self._payload(step.event, dict(step.extra or {})))
