"""Codex's rollout JSONL, written as the session goes (``hosts.transcript``)."""

from __future__ import annotations

import datetime as dt
import html
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from ..conversation import Said
from ..session import SessionInfo
from ..transcript import Transcript, iso

# --- Codex CLI ----------------------------------------------------------------------------
CODEX_VERSION = "0.171.0"
_CODEX_INSTRUCTIONS = (
    "(hooksim: Codex CLI's own instructions to the model stand here; their words are not"
    " reproduced)"
)
_USAGE = {
    "input_tokens": 100,
    "cached_input_tokens": 0,
    "cache_write_input_tokens": 0,
    "output_tokens": 1,
    "reasoning_output_tokens": 0,
    "total_tokens": 101,
}
_HOOK_PROMPT = re.compile(r'<hook_prompt hook_run_id="([^"]*)">(.*?)</hook_prompt>', re.DOTALL)


class CodexRollout(Transcript):
    """Codex's rollout JSONL, as real 0.171.0 (``codex exec``) writes it: each line
    ``{timestamp, ordinal, type, payload}`` (a ``response_item`` also has ``metadata``).

    A session's first lines (its metadata, Codex's instructions, the environment context, the
    turn's context) come before its SessionStart; each later run of ``codex exec resume`` adds
    the thread settings and the turn's start. A prompt is written once UserPromptSubmit is done
    (a context its hooks give after it), a tool call before PreToolUse, a shell command's
    completion before PostToolUse and its output after, a reply before Stop, a blocked Stop's
    ``<hook_prompt>`` after it, the turn's completion after the last Stop; a model response's
    calls, then its token usage, before the first PreToolUse, and its token count after the
    last call's output; a compaction's records between PreCompact and PostCompact.
    """

    format = "codex-rollout"
    reproduced = frozenset(
        {
            "session_meta",
            "event_msg/task_started",
            "event_msg/thread_settings_applied",
            "event_msg/item_completed/UserMessage",
            "event_msg/item_completed/AgentMessage",
            "event_msg/item_completed/CommandExecution",
            "event_msg/item_completed/HookPrompt",
            "event_msg/item_completed/ContextCompaction",
            "event_msg/token_count",
            "event_msg/task_complete",
            "response_item/message/developer",
            "response_item/message/developer/hook-context",
            "response_item/message/user",
            "response_item/message/user/environment",
            "response_item/message/assistant",
            "response_item/function_call",
            "response_item/function_call_output",
            "turn_context",
            "token_usage_record",
            "compacted",
        }
    )
    not_reproduced: ClassVar[dict[str, str]] = {
        "world_state": "Codex's snapshot of its own settings and instructions for the next"
        " request (hashes of its prompts, its skills, its model catalog)",
    }

    def __init__(self, info: SessionInfo, hermes_home: Path) -> None:
        super().__init__(info, hermes_home)
        self.begun = False  # the turn's start is written
        self.prompted = False  # the turn's prompt is written (a context may wait for it)
        self.waiting: list[Said] = []
        self.turn_id = ""
        self.turn_ms = 0
        self.last_reply = ""
        self.lines = 0
        self.asked = self.answered = 0  # the last response's calls, and those with an output
        self.open_session(info.now_ms())

    def open_session(self, ms: int) -> None:
        instant = dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc)
        folder = Path(self.info.home) / ".codex" / "sessions" / instant.strftime("%Y/%m/%d")
        stamp = instant.strftime("%Y-%m-%dT%H-%M-%S")
        self.name(folder / f"rollout-{stamp}-{self.info.session_id}.jsonl")
        self.lines = 0

    def line(self, said: Said, kind: str, payload: dict[str, Any], **extra: Any) -> dict[str, Any]:
        record = {
            "timestamp": iso(said.at_ms),
            "ordinal": self.lines,
            "type": kind,
            "payload": payload,
            **extra,
        }
        self.lines += 1
        return record

    def item(self, said: Said, payload: dict[str, Any]) -> dict[str, Any]:
        """A ``response_item`` line, with the history bookkeeping Codex keeps beside it."""
        payload = {
            **payload,
            "internal_chat_message_metadata_passthrough": {
                "turn_id": self.turn_id,
                "create_time": said.at_ms / 1000,
            },
        }
        metadata = {
            "history_sequence": self.lines,
            "sampled_through_sequence": 0,
            "client_authored": False,
            "model_search_state": "unused",
        }
        return self.line(said, "response_item", payload, metadata=metadata)

    def message(self, said: Said, role: str, text: str, kind: str = "input_text") -> dict[str, Any]:
        part: dict[str, Any] = {"type": kind, "text": text}
        head: dict[str, Any] = {"type": "message", "id": f"msg_{self.uid()}"}
        if kind == "output_text":
            part["annotations"] = []
            head["status"] = "completed"
        return self.item(said, {**head, "role": role, "content": [part]})

    def event(self, said: Said, kind: str, **payload: Any) -> dict[str, Any]:
        return self.line(said, "event_msg", {"type": kind, **payload})

    def completed(self, said: Said, item: dict[str, Any]) -> dict[str, Any]:
        return self.event(
            said,
            "item_completed",
            thread_id=self.info.session_id,
            turn_id=self.turn_id,
            item=item,
            started_at_ms=said.at_ms,
            completed_at_ms=said.at_ms,
        )

    def turn_start(self, said: Said) -> dict[str, Any]:
        self.turn_id, self.turn_ms = self.uid(), said.at_ms
        self.begun, self.prompted = True, False
        attribution = {
            "turn_id": self.turn_id,
            "turn_trigger": "exec",
            "parent_turn_id": None,
            "initiating_agent_path": None,
            "root_turn_id": self.turn_id,
        }
        return self.event(
            said,
            "task_started",
            turn_attribution=attribution,
            turn_id=self.turn_id,
            root_turn_id=self.turn_id,
            started_at=said.at_ms // 1000,
            model_context_window=258400,
            collaboration_mode_kind="default",
        )

    def mode(self) -> dict[str, Any]:
        return {
            "mode": "default",
            "settings": {
                "model": self.info.model,
                "reasoning_effort": None,
                "developer_instructions": None,
            },
        }

    def turn_context(self, said: Said) -> dict[str, Any]:
        return self.line(
            said,
            "turn_context",
            {
                "turn_id": self.turn_id,
                "root_turn_id": self.turn_id,
                "disabled_plugin_ids": [],
                "cwd": self.info.cwd,
                "approval_policy": "never",
                "approvals_reviewer": "user",
                "permission_profile": {"type": "disabled"},
                "model": self.info.model,
                "collaboration_mode": self.mode(),
                "multi_agent_version": "v1",
                "realtime_active": False,
                "summary": "none",
                "sandbox_policy": {"type": "danger-full-access"},
            },
        )

    def settings(self, said: Said) -> dict[str, Any]:
        settings = {
            "model": self.info.model,
            "model_provider_id": "openai",
            "approval_policy": "never",
            "approvals_reviewer": "user",
            "requested_approvals_reviewer": "user",
            "permission_profile": {"type": "disabled"},
            "cwd": self.info.cwd,
            "runtime_workspace_roots": [self.info.cwd],
            "collaboration_mode": self.mode(),
            "disabled_plugin_ids": [],
        }
        return self.event(
            said,
            "thread_settings_applied",
            thread_id=self.info.session_id,
            thread_settings=settings,
        )

    def usage(self, said: Said) -> dict[str, Any]:
        return self.line(
            said,
            "token_usage_record",
            {
                "thread_id": self.info.session_id,
                "turn_id": self.turn_id,
                "session_id": self.info.session_id,
                "root_turn_id": self.turn_id,
                "response_id": f"resp_{self.uid()}",
                "usage": _USAGE,
                "turn_token_usage": _USAGE,
                "thread_token_usage": _USAGE,
            },
        )

    def count_tokens(self, said: Said) -> dict[str, Any]:
        info = {
            "total_token_usage": _USAGE,
            "last_token_usage": _USAGE,
            "last_usage_includes_reasoning": False,
            "model_context_window": 258400,
        }
        return self.event(said, "token_count", info=info, rate_limits={"limit_id": "codex"})

    def on_session(self, said: Said) -> None:
        if said.source in ("startup", "clear"):
            self.open_session(said.at_ms)
            meta = self.line(
                said,
                "session_meta",
                {
                    "account_scoped": False,
                    "session_id": self.info.session_id,
                    "id": self.info.session_id,
                    "timestamp": iso(said.at_ms),
                    "cwd": self.info.cwd,
                    "runtime_workspace_roots": [self.info.cwd],
                    "originator": "codex_exec",
                    "cli_version": CODEX_VERSION,
                    "source": "exec",
                    "thread_source": "user",
                    "model_provider": "openai",
                    "base_instructions": {"text": _CODEX_INSTRUCTIONS},
                    "history_mode": "paginated",
                    "context_window": {"window_id": self.uid()},
                },
            )
            context = (
                f"<environment_context>\n  <cwd>{self.info.cwd}</cwd>\n  <shell>bash"
                "</shell>\n</environment_context>"
            )
            self.append(
                [
                    meta,
                    self.turn_start(said),
                    self.message(said, "developer", _CODEX_INSTRUCTIONS),
                    self.message(said, "user", context),
                    self.turn_context(said),
                    self.settings(said),
                ]
            )
        elif said.source == "resume":  # a later ``codex exec resume``
            self.append([self.settings(said), self.turn_start(said), self.turn_context(said)])

    def on_submitted(self, said: Said) -> None:
        if not self.begun:  # a later turn of an interactive session
            self.append([self.turn_start(said), self.turn_context(said)])

    def on_prompt(self, said: Said) -> None:
        text = {"type": "text", "text": said.text, "text_elements": []}
        self.append(
            [
                self.message(said, "user", said.text),
                self.completed(said, {"type": "UserMessage", "id": self.uid(), "content": [text]}),
            ]
        )
        self.prompted = True
        waiting, self.waiting = self.waiting, []
        for context in waiting:
            self.on_context(context)

    def on_context(self, said: Said) -> None:
        """A hook's context, as a developer message; UserPromptSubmit's after the prompt."""
        if said.source == "UserPromptSubmit" and not self.prompted:
            self.waiting.append(said)
            return
        record = self.message(said, "developer", said.text)
        passthrough = record["payload"]["internal_chat_message_metadata_passthrough"]
        passthrough["content_item_kinds"] = ["hooks.additional_context"]
        self.append([record])

    def on_call(self, said: Said) -> None:
        assert said.call is not None
        name, args = said.call.name, dict(said.call.args)
        if name == "Bash" and "command" in args:  # the model's shell tool, as hooks see it
            name, args = "exec_command", {"cmd": args.pop("command"), **args}
        call = self.item(
            said,
            {
                "type": "function_call",
                "status": "completed",
                "id": f"fc_{self.uid()}",
                "name": name,
                "arguments": json.dumps(args),
                "call_id": said.call_id,
            },
        )
        self.asked = self.asked + 1 if said.joined else 1
        self.answered = 0
        self.append([call])

    def on_asked(self, said: Said) -> None:
        """The response has asked for its calls: its token usage, once, before they run."""
        self.append([self.usage(said)])

    def on_ran(self, said: Said) -> None:
        if said.call is None or said.call.name != "Bash":
            return
        command = str(said.call.args.get("command", ""))
        self.append(
            [
                self.completed(
                    said,
                    {
                        "type": "CommandExecution",
                        "id": said.call_id,
                        "process_id": "0",
                        "command": ["/bin/bash", "-lc", command],
                        "cwd": f"file://{self.info.cwd}",
                        "parsed_cmd": [],
                        "source": "unified_exec_startup",
                        "status": "completed",
                        "aggregated_output": said.text,
                        "exit_code": 0,
                        "duration": {"secs": 0, "nanos": 0},
                    },
                )
            ]
        )

    def on_result(self, said: Said) -> None:
        """A call's output; once every call of its response has one, the token count."""
        output = self.item(
            said,
            {
                "type": "function_call_output",
                "id": f"fco_{self.uid()}",
                "call_id": said.call_id,
                "output": said.text,
            },
        )
        self.answered += 1
        done = self.answered == self.asked
        self.append([output, self.count_tokens(said)] if done else [output])

    def on_reply(self, said: Said) -> None:
        self.last_reply = said.text
        message = self.message(said, "assistant", said.text, "output_text")
        agent = self.completed(
            said,
            {
                "type": "AgentMessage",
                "id": message["payload"]["id"],
                "content": [{"type": "Text", "text": said.text}],
            },
        )
        message["ordinal"], agent["ordinal"] = agent["ordinal"], message["ordinal"]
        self.append([agent, message, self.usage(said), self.count_tokens(said)])

    def on_feedback(self, said: Said) -> None:
        """A blocked Stop's ``<hook_prompt>``: the user message that continues the turn."""
        prompt = self.message(said, "user", said.text)
        fragments = [
            {"text": html.unescape(text), "hookRunId": run_id}
            for run_id, text in _HOOK_PROMPT.findall(said.text)
        ]
        hook = self.completed(
            said, {"type": "HookPrompt", "id": prompt["payload"]["id"], "fragments": fragments}
        )
        self.append([prompt, hook])

    def on_stop_hooks(self, said: Said) -> None:
        if said.reasons:
            return
        self.begun = False
        self.append(
            [
                self.event(
                    said,
                    "task_complete",
                    root_turn_id=self.turn_id,
                    turn_id=self.turn_id,
                    last_agent_message=self.last_reply,
                    started_at=self.turn_ms // 1000,
                    completed_at=said.at_ms // 1000,
                    duration_ms=said.at_ms - self.turn_ms,
                    time_to_first_token_ms=0,
                )
            ]
        )

    def on_failed(self, said: Said) -> None:
        self.begun = False

    def on_compacted(self, said: Said) -> None:
        """The summary the model wrote, then the compaction: what the model is sent from now on
        (the user's prompts and the summary), and the turn's context again."""
        summary = self.message(said, "assistant", said.text, "output_text")
        kept = [m for m in self.info.conversation.messages if m.role == "user"]
        window = self.uid()
        compacted = self.line(
            said,
            "compacted",
            {
                "message": said.text,
                "replacement_history": [
                    {
                        "type": "message",
                        "role": "user",
                        "content": [{"type": "input_text", "text": m.text}],
                    }
                    for m in kept
                ],
                "replacement_history_metadata": [],
                "retained_context": None,
                "window_number": 1,
                "first_window_id": window,
                "previous_window_id": window,
                "window_id": self.uid(),
                "compaction_response_id": f"resp_{self.uid()}",
                "latest_token_usage_record": None,
                "resume_metadata": None,
            },
        )
        self.append(
            [
                self.count_tokens(said),
                summary,
                self.usage(said),
                self.count_tokens(said),
                compacted,
                self.turn_context(said),
                self.settings(said),
                self.count_tokens(said),
                self.completed(said, {"type": "ContextCompaction", "id": self.uid()}),
            ]
        )

    @classmethod
    def kind_of(cls, record: Mapping[str, Any]) -> str:
        kind = str(record.get("type"))
        payload = record.get("payload")
        if not isinstance(payload, dict) or kind not in ("event_msg", "response_item"):
            return kind
        kind = f"{kind}/{payload.get('type')}"
        item = payload.get("item")
        if isinstance(item, dict):
            return f"{kind}/{item.get('type')}"
        if payload.get("type") != "message":
            return kind
        kind = f"{kind}/{payload.get('role')}"
        passthrough = payload.get("internal_chat_message_metadata_passthrough") or {}
        kinds = passthrough.get("content_item_kinds") or []
        if "hooks.additional_context" in kinds:
            return f"{kind}/hook-context"
        if "environments.environment_context" in kinds or _starts(payload, "<environment_"):
            return f"{kind}/environment"
        return kind

    @classmethod
    def keys_of(cls, record: Mapping[str, Any]) -> frozenset[str]:
        """Its keys, its payload's, and an event's item's."""
        keys = set(record)
        payload = record.get("payload")
        if isinstance(payload, dict):
            keys |= {f"payload.{k}" for k in payload}
            item = payload.get("item")
            if isinstance(item, dict):
                keys |= {f"payload.item.{k}" for k in item}
        return frozenset(keys)


def _starts(payload: Mapping[str, Any], prefix: str) -> bool:
    content = payload.get("content")
    first = content[0] if isinstance(content, list) and content else {}
    return isinstance(first, dict) and str(first.get("text", "")).startswith(prefix)
