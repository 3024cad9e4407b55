"""Hermes v0.19.0 payload bytes, as ``agent.shell_hooks._serialize_payload`` writes them."""

from __future__ import annotations

import json
from typing import Any


def hermes_payload(event: str, session_id: str = "s1", cwd: str = "/work", **extra: Any) -> bytes:
    """Key order, separators and ``ensure_ascii=False`` as Hermes sends them; no trailing newline."""
    extra.setdefault("telemetry_schema_version", "hermes.observer.v1")
    payload = {
        "hook_event_name": event,
        "tool_name": None,
        "tool_input": None,
        "session_id": session_id,
        "cwd": cwd,
        "extra": extra,
    }
    return json.dumps(payload, ensure_ascii=False, default=str).encode()


def stop_payload(assistant_response: object = "Here is the answer.", **extra: Any) -> bytes:
    extra.setdefault("task_id", "task-1")
    extra.setdefault("turn_id", "turn-1")
    extra.setdefault("user_message", "What is the answer?")
    extra["assistant_response"] = assistant_response
    extra.setdefault("conversation_history", [])
    extra.setdefault("model", "hermes-4")
    extra.setdefault("platform", "cli")
    return hermes_payload("post_llm_call", **extra)


def prompt_payload(user_message: object = "What is the answer?", **extra: Any) -> bytes:
    extra.setdefault("task_id", "task-1")
    extra.setdefault("turn_id", "turn-1")
    extra["user_message"] = user_message
    extra.setdefault("conversation_history", [])
    extra.setdefault("is_first_turn", True)
    extra.setdefault("model", "hermes-4")
    extra.setdefault("platform", "cli")
    extra.setdefault("sender_id", "")
    return hermes_payload("pre_llm_call", **extra)


def session_start_payload(**extra: Any) -> bytes:
    extra.setdefault("model", "hermes-4")
    extra.setdefault("platform", "cli")
    return hermes_payload("on_session_start", **extra)
