"""Each host's transcript, written as the session goes, where the payloads say it is.

A hook that reads the transcript (a Stop loop looking for a promise in the last assistant
message, a summariser, a chat logger) finds the file the real host would have on disk at the
moment it fires. The host's session loop says what happens (``hosts.conversation``); a writer
here listens, and turns each entry into the records that host writes at that moment, in its
own format. Which writer a host gets is its profile's ``transcript_format``; the profile also
cites where the format was read.

One writer per format, each small:

- ``ClaudeCodeJsonl``: Claude Code's session JSONL, ``~/.claude/projects/<cwd>/<id>.jsonl``;
- ``CodexRollout``: Codex's rollout JSONL, ``~/.codex/sessions/Y/M/D/rollout-<time>-<id>.jsonl``;
- ``GeminiChat``: Gemini CLI's chat file, ``~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl``;
- ``HermesStateDb``: Hermes' session store, ``$HERMES_HOME/state.db`` (SQLite), which a hook
  reaches through ``HERMES_HOME`` and ``HERMES_SESSION_ID`` (its payloads name no transcript);
- ``CursorJsonl``: what third-party readers of Cursor's agent transcripts expect (unverified).

Each writer also says which of its host's record kinds it writes (``reproduced``) and which
not, with the reason (``not_reproduced``), and how to read a record's kind and keys
(``kind_of``, ``keys_of``): the real-host test compares a real transcript with a replayed one by
those, and the docs list them.

Ids are derived from the session and a counter, times from the virtual clock: a replay writes
the same transcript every time.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fnmatch
import hashlib
import html
import json
import re
import sqlite3
import uuid
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar

from ..hosts import Host, SessionInfo
from ..hosts.claude_code import HOOK_OUTPUT_REMINDER
from ..hosts.conversation import FEEDBACK, Said

_IDS = uuid.UUID("6f1c3e2a-8d4b-4f0e-9a57-2b1d0c9e7f30")  # the namespace of replayed ids


def _iso(ms: int) -> str:
    """An instant as the hosts write it: ``2026-06-01T09:00:00.000Z``."""
    instant = dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc)
    return instant.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Transcript:
    """One host's transcript: where its file is, and what each entry of the conversation adds
    to it. ``heard`` is the conversation's listener; ``on_<kind>`` handles one kind."""

    format: ClassVar[str]
    reproduced: ClassVar[frozenset[str]] = frozenset()  # record kinds written
    not_reproduced: ClassVar[dict[str, str]] = {}  # kind (a glob) -> why it is not written

    def __init__(self, info: SessionInfo, hermes_home: Path) -> None:
        self.info = info
        self.hermes_home = hermes_home
        self.count = 0
        self.path: Path | None = None

    def heard(self, said: Said) -> None:
        handle = getattr(self, f"on_{said.kind}", None)
        if handle is not None:
            handle(said)

    def uid(self) -> str:
        """The next id of this session, the same on every replay."""
        self.count += 1
        return str(uuid.uuid5(_IDS, f"{self.info.session_id}:{self.count}"))

    def name(self, path: Path) -> None:
        """This is the file the session's payloads name from now on."""
        self.path = path
        self.info.transcript_path = str(path)

    def append(self, records: Iterable[Mapping[str, Any]], path: Path | None = None) -> None:
        """JSON lines at the end of the file, as the hosts write them (compact, one a line)."""
        target = path or self.path
        if target is None:
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("a", encoding="utf-8") as f:
            for record in records:
                f.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")

    @classmethod
    def kind_of(cls, record: Mapping[str, Any]) -> str:
        raise NotImplementedError

    @classmethod
    def keys_of(cls, record: Mapping[str, Any]) -> frozenset[str]:
        """A record's keys, and one level down where the format nests its content."""
        return frozenset(record)

    @classmethod
    def why_not(cls, kind: str) -> str | None:
        """Why a kind is not written (None: it is, or nothing says)."""
        return next((why for pattern, why in cls.not_reproduced.items()
                     if fnmatch.fnmatchcase(kind, pattern)), None)  # fmt: skip


# --- Claude Code --------------------------------------------------------------------------
CLAUDE_VERSION = "2.1.332"
_COMPACT_CAVEAT = (
    "<local-command-caveat>The command below was run directly in Claude Code, not sent to you"
    " as a request, and its output goes straight to the user. It's recorded here as context for"
    " later messages.</local-command-caveat>"
)


def claude_project_folder(cwd: str) -> str:
    """The folder under ``~/.claude/projects`` of a working directory: each character that is
    not a letter or a digit becomes ``-`` (real 2.1.332: ``/tmp/x-1/project`` is
    ``-tmp-x-1-project``)."""
    return re.sub(r"[^A-Za-z0-9]", "-", cwd)


class ClaudeCodeJsonl(Transcript):
    """Claude Code's session JSONL, as real 2.1.332 writes it (``claude -p``, stream-json: the
    values of ``entrypoint`` and ``promptSource`` an interactive session writes are not known).

    The file appears with the session's first message: what comes before (the queued prompt)
    waits in memory. Each message record points at the one before (``parentUuid``). A prompt
    is written once its UserPromptSubmit hooks are done, a tool call before PreToolUse, its
    result after PostToolUse, a reply before Stop; a blocked Stop's feedback, then the summary
    of the Stop hooks, before the model answers again; a compaction's records once its hooks are
    done, before the next prompt.
    """

    format = "claude-code-jsonl"
    reproduced = frozenset({
        "queue-operation", "user", "assistant", "system/stop_hook_summary",
        "system/compact_boundary", "attachment/hook_blocking_error",
    })  # fmt: skip
    not_reproduced: ClassVar[dict[str, str]] = {
        "attachment/*": "Claude Code's own context for the model (environment, model, date,"
        " the system prompt and tool listings, skills, agents): its words, not the session's",
        "api-request*": "the request cache's bookkeeping (hashes of Claude Code's system prompt)",
        "atis-latch": "Claude Code's internal bookkeeping",
        "tools-used": "the request cache's bookkeeping of tool schemas",
        "last-prompt": "the resume marker, written whenever the CLI flushes (no fixed point)",
        "cost-state": "the session's running cost account (the fake model's usage), at exit",
    }

    def __init__(self, info: SessionInfo, hermes_home: Path) -> None:
        super().__init__(info, hermes_home)
        self.parent: str | None = None
        self.waiting: list[dict[str, Any]] = []  # records before the file exists
        self.held: dict[str, Any] | None = None  # a blocked Stop's summary, after its feedback
        self.blocking: tuple[str, ...] = ()  # the commands of the hooks that blocked it
        self.prompt_id = ""
        self.prompts = 0
        self.slug = ""
        self.calls: dict[str, str] = {}  # tool call id -> the uuid of its assistant record
        self.open_session()

    def open_session(self) -> None:
        home = Path(self.info.home)
        folder = claude_project_folder(self.info.cwd)
        path = home / ".claude" / "projects" / folder / f"{self.info.session_id}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)  # CLAUDE_ENV_FILE is beside it
        self.name(path)
        self.parent, self.waiting, self.slug, self.prompts = None, [], "", 0

    def heard(self, said: Said) -> None:
        if self.held is not None and said.kind != FEEDBACK:
            self.write([self.held])
            self.held = None
        super().heard(said)

    def write(self, records: list[dict[str, Any]]) -> None:
        """Records at the end of the file; before the first message, they wait for it."""
        assert self.path is not None
        if not self.path.exists():
            self.waiting += records
            if not any(r.get("type") in ("user", "assistant") for r in records):
                return
            records, self.waiting = self.waiting, []
        self.append(records)

    def common(self) -> dict[str, Any]:
        fields = {"userType": "external", "entrypoint": "sdk-cli", "cwd": self.info.cwd,
                  "sessionId": self.info.session_id, "version": CLAUDE_VERSION,
                  "gitBranch": "HEAD"}  # fmt: skip
        return {**fields, "slug": self.slug} if self.slug else fields

    def chained(self, said: Said, record: dict[str, Any]) -> dict[str, Any]:
        """A message record, chained to the one before it."""
        uid = self.uid()
        head = {"parentUuid": self.parent, "isSidechain": False}
        self.parent = uid
        return {**head, **record, "uuid": uid, "timestamp": _iso(said.at_ms), **self.common()}

    def on_session(self, said: Said) -> None:
        if said.source in ("startup", "clear"):
            self.open_session()

    def on_submitted(self, said: Said) -> None:
        queued = {"type": "queue-operation", "operation": "enqueue",
                  "timestamp": _iso(said.at_ms), "sessionId": self.info.session_id}  # fmt: skip
        self.prompt_id = self.uid()
        self.write([{**queued, "content": said.text}, {**queued, "operation": "dequeue"}])

    def on_prompt(self, said: Said) -> None:
        self.prompts += 1
        self.write([self.chained(said, {
            "promptId": self.prompt_id, "type": "user",
            "message": {"role": "user", "content": said.text},
        }) | {"permissionMode": "default", "promptSource": "sdk", "sentAtMs": said.at_ms,
              "rowSource": "local", "turnOrigin": "sdk",
              "turnPosition": {"promptIndex": 0, "turnIndex": self.prompts}}])  # fmt: skip

    def assistant(self, said: Said, content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
        message = {
            "id": f"msg_{self.uid().replace('-', '')[:24]}", "type": "message",
            "role": "assistant", "model": self.info.model, "content": content,
            "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 100, "cache_creation_input_tokens": 0,
                      "cache_read_input_tokens": 0, "output_tokens": 1},
            "stop_details": None,
        }  # fmt: skip
        extra = {"toolInputStreamMs": 0} if stop == "tool_use" else {}
        # requestId: the API's request-id header, which every answer of Anthropic's carries.
        request = f"req_{self.uid().replace('-', '')[:24]}"
        return self.chained(said, {"message": message, **extra, "apiBlockIndex": 0,
                                   "requestId": request, "requestRef": self.uid(),
                                   "requestedModel": self.info.model,
                                   "promptCacheRequested": "5m", "type": "assistant"}) | {
            "effort": "medium", "perTurnEffort": "medium", "madeBy": "model"}  # fmt: skip

    def on_call(self, said: Said) -> None:
        assert said.call is not None
        use = {"type": "tool_use", "id": said.call_id, "name": said.call.name,
               "input": said.call.args}  # fmt: skip
        record = self.assistant(said, [use], "tool_use")
        self.calls[said.call_id] = record["uuid"]
        self.write([record])

    def on_result(self, said: Said) -> None:
        result = {"tool_use_id": said.call_id, "type": "tool_result", "content": said.text,
                  "is_error": said.denied}  # fmt: skip
        outcome: Any = said.text
        if said.call is not None and said.call.name == "Bash" and not said.denied:
            outcome = {"stdout": said.text, "stderr": "", "interrupted": False,
                       "isImage": False, "noOutputExpected": False}  # fmt: skip
        self.write([self.chained(said, {
            "promptId": self.prompt_id, "type": "user",
            "message": {"role": "user", "content": [result]},
        }) | {"toolUseResult": outcome, "sandboxed": False,
              "sourceToolAssistantUUID": self.calls.get(said.call_id, ""),
              "permissionDecision": {"decision": "accept", "source": "config",
                                     "reasonType": "rule", "ruleSource": "cliArg"}}])  # fmt: skip

    def on_reply(self, said: Said) -> None:
        self.write([self.assistant(said, [{"type": "text", "text": said.text}], "end_turn")])

    def on_feedback(self, said: Said) -> None:
        """A blocked Stop: its feedback as a user message (without Claude Code's reminder
        wrapping, which it keeps apart as ``hookTextLead``), the blocking error, and then the
        Stop hooks' summary."""
        text = said.text.removeprefix(HOOK_OUTPUT_REMINDER + "\n")
        text = text.removesuffix("\n</system-reminder>")
        lead = HOOK_OUTPUT_REMINDER.removeprefix("<system-reminder>\n")
        records = [self.chained(said, {
            "promptId": self.prompt_id, "type": "user",
            "message": {"role": "user", "content": text},
            "isMeta": True, "rowSource": "hook", "hookText": True, "hookTextLead": lead,
        })]  # fmt: skip
        held, self.held = self.held, None
        if held is not None:
            for command in self.blocking:
                error = {"type": "hook_blocking_error", "hookName": said.source,
                         "toolUseID": held["toolUseID"], "hookEvent": said.source,
                         "blockingError": {"blockingError": held["hookErrors"][0],
                                           "command": command}}  # fmt: skip
                shown = (f"<system-reminder>\n{said.source} hook blocking error from command:"
                         f' "{command}": {held["hookErrors"][0]}\n</system-reminder>')  # fmt: skip
                records.append(self.chained(said, {"attachment": error, "type": "attachment"}) | {
                    "rendered": [{"content": shown}], "renderedRole": "system"})  # fmt: skip
            held["parentUuid"], self.parent = self.parent, held["uuid"]
            records.append(held)
        self.write(records)

    def on_stop_hooks(self, said: Said) -> None:
        """The Stop hooks' summary; a blocked Stop's waits for its feedback."""
        if not said.commands:
            return
        record = self.chained(said, {
            "type": "system", "subtype": "stop_hook_summary", "hookCount": len(said.commands),
            "hookInfos": [{"command": c, "durationMs": 0} for c in said.commands],
            "hookErrors": list(said.reasons), "failedHookErrorIndexes": [],
            "hookAdditionalContext": [], "preventedContinuation": False, "stopReason": "",
            "hasOutput": bool(said.reasons), "level": "suggestion",
        }) | {"toolUseID": self.uid()}  # fmt: skip
        if said.reasons:  # written after the feedback: the chain goes on from it
            self.held, self.blocking, self.parent = record, said.blocking, record["parentUuid"]
        else:
            self.write([record])

    def on_compacted(self, said: Said) -> None:
        """The compaction's boundary, the summary the model continues from, and for /compact
        the command's own three records."""
        self.slug = self.slug or "replayed-session-slug"
        boundary = self.chained(said, {
            "type": "system", "subtype": "compact_boundary", "content": "Conversation compacted",
            "isMeta": False, "level": "info",
            "compactMetadata": {"trigger": said.source, "preTokens": 0},
        })  # fmt: skip
        boundary["logicalParentUuid"], boundary["parentUuid"] = boundary["parentUuid"], None
        summary = (
            "This session is being continued from a previous conversation that ran out of"
            f" context. The summary below covers the earlier portion of the conversation.\n\n"
            f"Summary:\n{said.text}"
        )
        records = [boundary, self.chained(said, {
            "promptId": self.prompt_id, "type": "user",
            "message": {"role": "user", "content": summary},
            "isVisibleInTranscriptOnly": True, "isCompactSummary": True,
            "turnPosition": {"promptIndex": 0, "turnIndex": self.prompts},
            "sentAtMs": said.at_ms, "rowSource": "local",
        })]  # fmt: skip
        if said.source == "manual":
            command = ("<command-name>/compact</command-name>\n            <command-message>"
                       "compact</command-message>\n            <command-args></command-args>")  # fmt: skip
            for content, extra in (
                (_COMPACT_CAVEAT, {"isMeta": True, "rowSource": "harness"}),
                (command, {"rowSource": "local"}),
                ("<local-command-stdout>Compacted</local-command-stdout>",
                 {"rowSource": "local", "repeatsCompactSummary": True}),
            ):  # fmt: skip
                records.append(self.chained(said, {
                    "promptId": self.prompt_id, "type": "user",
                    "message": {"role": "user", "content": content}, **extra}))  # fmt: skip
        self.write(records)

    @classmethod
    def kind_of(cls, record: Mapping[str, Any]) -> str:
        kind = str(record.get("type"))
        if kind == "system":
            return f"system/{record.get('subtype')}"
        if kind == "attachment":
            attachment = record.get("attachment")
            return f"attachment/{attachment.get('type') if isinstance(attachment, dict) else ''}"
        return kind

    @classmethod
    def keys_of(cls, record: Mapping[str, Any]) -> frozenset[str]:
        """Its keys, its message's (but ``usage``, the API's accounting), and the kinds of the
        message's content blocks."""
        keys = set(record)
        message = record.get("message")
        if isinstance(message, dict):
            keys |= {f"message.{k}" for k in message if k != "usage"}
            content = message.get("content")
            if isinstance(content, list):
                keys |= {f"message.content[{b.get('type')}]" for b in content
                         if isinstance(b, dict)}  # fmt: skip
        return frozenset(keys)


# --- Codex CLI ----------------------------------------------------------------------------
CODEX_VERSION = "0.171.0"
_CODEX_INSTRUCTIONS = (
    "(hooksim: Codex CLI's own instructions to the model stand here; their words are not"
    " reproduced)"
)
_USAGE = {"input_tokens": 100, "cached_input_tokens": 0, "cache_write_input_tokens": 0,
          "output_tokens": 1, "reasoning_output_tokens": 0, "total_tokens": 101}  # fmt: skip
_HOOK_PROMPT = re.compile(r'<hook_prompt hook_run_id="([^"]*)">(.*?)</hook_prompt>', re.DOTALL)


class CodexRollout(Transcript):
    """Codex's rollout JSONL, as real 0.171.0 (``codex exec``) writes it: each line
    ``{timestamp, ordinal, type, payload}`` (a ``response_item`` also has ``metadata``).

    A session's first lines (its metadata, Codex's instructions, the environment context, the
    turn's context) come before its SessionStart; each later run of ``codex exec resume`` adds
    the thread settings and the turn's start. A prompt is written once UserPromptSubmit is done
    (a context its hooks give after it), a tool call before PreToolUse, a shell command's
    completion before PostToolUse and its output after, a reply before Stop, a blocked Stop's
    ``<hook_prompt>`` after it, the turn's completion after the last Stop; a compaction's records
    between PreCompact and PostCompact.
    """

    format = "codex-rollout"
    reproduced = frozenset({
        "session_meta", "event_msg/task_started", "event_msg/thread_settings_applied",
        "event_msg/item_completed/UserMessage", "event_msg/item_completed/AgentMessage",
        "event_msg/item_completed/CommandExecution", "event_msg/item_completed/HookPrompt",
        "event_msg/item_completed/ContextCompaction", "event_msg/token_count",
        "event_msg/task_complete", "response_item/message/developer",
        "response_item/message/developer/hook-context", "response_item/message/user",
        "response_item/message/user/environment", "response_item/message/assistant",
        "response_item/function_call", "response_item/function_call_output",
        "turn_context", "token_usage_record", "compacted",
    })  # fmt: skip
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
        self.open_session(info.now_ms())

    def open_session(self, ms: int) -> None:
        instant = dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc)
        folder = Path(self.info.home) / ".codex" / "sessions" / instant.strftime("%Y/%m/%d")
        stamp = instant.strftime("%Y-%m-%dT%H-%M-%S")
        self.name(folder / f"rollout-{stamp}-{self.info.session_id}.jsonl")
        self.lines = 0

    def line(self, said: Said, kind: str, payload: dict[str, Any], **extra: Any) -> dict[str, Any]:
        record = {"timestamp": _iso(said.at_ms), "ordinal": self.lines, "type": kind,
                  "payload": payload, **extra}  # fmt: skip
        self.lines += 1
        return record

    def item(self, said: Said, payload: dict[str, Any]) -> dict[str, Any]:
        """A ``response_item`` line, with the history bookkeeping Codex keeps beside it."""
        payload = {**payload, "internal_chat_message_metadata_passthrough":
                   {"turn_id": self.turn_id, "create_time": said.at_ms / 1000}}  # fmt: skip
        metadata = {"history_sequence": self.lines, "sampled_through_sequence": 0,
                    "client_authored": False, "model_search_state": "unused"}  # fmt: skip
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
        return self.event(said, "item_completed", thread_id=self.info.session_id,
                          turn_id=self.turn_id, item=item, started_at_ms=said.at_ms,
                          completed_at_ms=said.at_ms)  # fmt: skip

    def turn_start(self, said: Said) -> dict[str, Any]:
        self.turn_id, self.turn_ms = self.uid(), said.at_ms
        self.begun, self.prompted = True, False
        attribution = {"turn_id": self.turn_id, "turn_trigger": "exec", "parent_turn_id": None,
                       "initiating_agent_path": None, "root_turn_id": self.turn_id}  # fmt: skip
        return self.event(said, "task_started", turn_attribution=attribution,
                          turn_id=self.turn_id, root_turn_id=self.turn_id,
                          started_at=said.at_ms // 1000, model_context_window=258400,
                          collaboration_mode_kind="default")  # fmt: skip

    def mode(self) -> dict[str, Any]:
        return {"mode": "default", "settings": {"model": self.info.model,
                "reasoning_effort": None, "developer_instructions": None}}  # fmt: skip

    def turn_context(self, said: Said) -> dict[str, Any]:
        return self.line(said, "turn_context", {
            "turn_id": self.turn_id, "root_turn_id": self.turn_id, "disabled_plugin_ids": [],
            "cwd": self.info.cwd, "approval_policy": "never", "approvals_reviewer": "user",
            "permission_profile": {"type": "disabled"}, "model": self.info.model,
            "collaboration_mode": self.mode(), "multi_agent_version": "v1",
            "realtime_active": False, "summary": "none",
            "sandbox_policy": {"type": "danger-full-access"},
        })  # fmt: skip

    def settings(self, said: Said) -> dict[str, Any]:
        settings = {
            "model": self.info.model, "model_provider_id": "openai", "approval_policy": "never",
            "approvals_reviewer": "user", "requested_approvals_reviewer": "user",
            "permission_profile": {"type": "disabled"}, "cwd": self.info.cwd,
            "runtime_workspace_roots": [self.info.cwd], "collaboration_mode": self.mode(),
            "disabled_plugin_ids": [],
        }  # fmt: skip
        return self.event(said, "thread_settings_applied", thread_id=self.info.session_id,
                          thread_settings=settings)  # fmt: skip

    def usage(self, said: Said) -> dict[str, Any]:
        return self.line(said, "token_usage_record", {
            "thread_id": self.info.session_id, "turn_id": self.turn_id,
            "session_id": self.info.session_id, "root_turn_id": self.turn_id,
            "response_id": f"resp_{self.uid()}", "usage": _USAGE, "turn_token_usage": _USAGE,
            "thread_token_usage": _USAGE,
        })  # fmt: skip

    def count_tokens(self, said: Said) -> dict[str, Any]:
        info = {"total_token_usage": _USAGE, "last_token_usage": _USAGE,
                "last_usage_includes_reasoning": False, "model_context_window": 258400}  # fmt: skip
        return self.event(said, "token_count", info=info, rate_limits={"limit_id": "codex"})

    def on_session(self, said: Said) -> None:
        if said.source in ("startup", "clear"):
            self.open_session(said.at_ms)
            meta = self.line(said, "session_meta", {
                "account_scoped": False, "session_id": self.info.session_id,
                "id": self.info.session_id, "timestamp": _iso(said.at_ms), "cwd": self.info.cwd,
                "runtime_workspace_roots": [self.info.cwd], "originator": "codex_exec",
                "cli_version": CODEX_VERSION, "source": "exec", "thread_source": "user",
                "model_provider": "openai", "base_instructions": {"text": _CODEX_INSTRUCTIONS},
                "history_mode": "paginated", "context_window": {"window_id": self.uid()},
            })  # fmt: skip
            context = (f"<environment_context>\n  <cwd>{self.info.cwd}</cwd>\n  <shell>bash"
                       "</shell>\n</environment_context>")  # fmt: skip
            self.append([
                meta, self.turn_start(said), self.message(said, "developer", _CODEX_INSTRUCTIONS),
                self.message(said, "user", context), self.turn_context(said), self.settings(said),
            ])  # fmt: skip
        elif said.source == "resume":  # a later ``codex exec resume``
            self.append([self.settings(said), self.turn_start(said), self.turn_context(said)])

    def on_submitted(self, said: Said) -> None:
        if not self.begun:  # a later turn of an interactive session
            self.append([self.turn_start(said), self.turn_context(said)])

    def on_prompt(self, said: Said) -> None:
        text = {"type": "text", "text": said.text, "text_elements": []}
        self.append([self.message(said, "user", said.text),
                     self.completed(said, {"type": "UserMessage", "id": self.uid(),
                                           "content": [text]})])  # fmt: skip
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
        call = self.item(said, {"type": "function_call", "status": "completed",
                                "id": f"fc_{self.uid()}", "name": name,
                                "arguments": json.dumps(args), "call_id": said.call_id})  # fmt: skip
        self.append([call, self.usage(said)])

    def on_ran(self, said: Said) -> None:
        if said.call is None or said.call.name != "Bash":
            return
        command = str(said.call.args.get("command", ""))
        self.append([self.completed(said, {
            "type": "CommandExecution", "id": said.call_id, "process_id": "0",
            "command": ["/bin/bash", "-lc", command], "cwd": f"file://{self.info.cwd}",
            "parsed_cmd": [], "source": "unified_exec_startup", "status": "completed",
            "aggregated_output": said.text, "exit_code": 0,
            "duration": {"secs": 0, "nanos": 0},
        })])  # fmt: skip

    def on_result(self, said: Said) -> None:
        output = self.item(said, {"type": "function_call_output", "id": f"fco_{self.uid()}",
                                  "call_id": said.call_id, "output": said.text})  # fmt: skip
        self.append([output, self.count_tokens(said)])

    def on_reply(self, said: Said) -> None:
        self.last_reply = said.text
        message = self.message(said, "assistant", said.text, "output_text")
        agent = self.completed(said, {"type": "AgentMessage", "id": message["payload"]["id"],
                                      "content": [{"type": "Text", "text": said.text}]})  # fmt: skip
        message["ordinal"], agent["ordinal"] = agent["ordinal"], message["ordinal"]
        self.append([agent, message, self.usage(said), self.count_tokens(said)])

    def on_feedback(self, said: Said) -> None:
        """A blocked Stop's ``<hook_prompt>``: the user message that continues the turn."""
        prompt = self.message(said, "user", said.text)
        fragments = [{"text": html.unescape(text), "hookRunId": run_id}
                     for run_id, text in _HOOK_PROMPT.findall(said.text)]  # fmt: skip
        hook = self.completed(said, {"type": "HookPrompt", "id": prompt["payload"]["id"],
                                     "fragments": fragments})  # fmt: skip
        self.append([prompt, hook])

    def on_stop_hooks(self, said: Said) -> None:
        if said.reasons:
            return
        self.begun = False
        self.append([self.event(
            said, "task_complete", root_turn_id=self.turn_id, turn_id=self.turn_id,
            last_agent_message=self.last_reply, started_at=self.turn_ms // 1000,
            completed_at=said.at_ms // 1000, duration_ms=said.at_ms - self.turn_ms,
            time_to_first_token_ms=0,
        )])  # fmt: skip

    def on_failed(self, said: Said) -> None:
        self.begun = False

    def on_compacted(self, said: Said) -> None:
        """The summary the model wrote, then the compaction: what the model is sent from now on
        (the user's prompts and the summary), and the turn's context again."""
        summary = self.message(said, "assistant", said.text, "output_text")
        kept = [m for m in self.info.conversation.messages if m.role == "user"]
        window = self.uid()
        compacted = self.line(said, "compacted", {
            "message": said.text,
            "replacement_history": [{"type": "message", "role": "user",
                                     "content": [{"type": "input_text", "text": m.text}]}
                                    for m in kept],
            "replacement_history_metadata": [], "retained_context": None, "window_number": 1,
            "first_window_id": window, "previous_window_id": window, "window_id": self.uid(),
            "compaction_response_id": f"resp_{self.uid()}", "latest_token_usage_record": None,
            "resume_metadata": None,
        })  # fmt: skip
        self.append([
            self.count_tokens(said), summary, self.usage(said), self.count_tokens(said),
            compacted, self.turn_context(said), self.settings(said), self.count_tokens(said),
            self.completed(said, {"type": "ContextCompaction", "id": self.uid()}),
        ])  # fmt: skip

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


# --- Gemini CLI ---------------------------------------------------------------------------
_TOKENS = {"input": 100, "output": 1, "cached": 0, "thoughts": 0, "tool": 0, "total": 101}


class GeminiChat(Transcript):
    """Gemini CLI's chat file, as 0.61.0 writes it (``ChatRecordingService``): JSON lines, the
    session's metadata first, then each message as it is recorded and ``{"$set": …}`` updates
    (``lastUpdated`` after each message, the whole message list at a resume).

    A new session starts its file before SessionStart with the metadata and the session
    context; a prompt, a tool's response and a retry's prompt are written when the request
    that carries them goes out (after PreCompress, before BeforeModel); a tool call's message
    before BeforeTool, completed with the call and its result after AfterTool; a reply before
    AfterAgent. A headless run that resumes names a file of its own in SessionStart (the file
    the CLI opens before it loads the session, its time in the name), then writes on in the
    session's file.
    """

    format = "gemini-chat-jsonl"
    reproduced = frozenset({
        "metadata", "$set/lastUpdated,messages", "$set/lastUpdated", "$set/sessionId", "user",
        "user/functionResponse", "gemini", "gemini/toolCalls",
    })  # fmt: skip
    not_reproduced: ClassVar[dict[str, str]] = {
        "$rewindTo": "a rewind of the chat (/rewind), which no scenario step makes",
        "$set/memoryScratchpad": "Gemini CLI's memory scratchpad, which no scenario step fills",
    }

    def __init__(self, info: SessionInfo, hermes_home: Path) -> None:
        super().__init__(info, hermes_home)
        self.main: Path | None = None  # the session's own file
        self.messages: list[dict[str, Any]] = []
        self.waiting: list[dict[str, Any]] = []  # written when the next request goes out
        self.last_call: dict[str, Any] | None = None
        self.resuming = False
        self.name(self.chat_file(info.now_ms()))

    def chat_file(self, ms: int) -> Path:
        minute = dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).strftime("%Y-%m-%dT%H-%M")
        folder = Path(self.info.home) / ".gemini" / "tmp" / Path(self.info.cwd).name / "chats"
        return folder / f"session-{minute}-{self.info.session_id[:8]}.jsonl"

    def head(self, said: Said) -> list[dict[str, Any]]:
        """A new file's first lines: the metadata, and the message list with the context."""
        stamp = _iso(said.at_ms)
        meta = {"sessionId": self.info.session_id,
                "projectHash": hashlib.sha256(self.info.cwd.encode()).hexdigest(),
                "startTime": stamp, "lastUpdated": stamp, "kind": "main"}  # fmt: skip
        context = {"id": self.uid().replace("-", ""), "timestamp": stamp, "type": "user",
                   "content": [{"text": "<session_context>\nThis is the Gemini CLI.\n"
                                f"- **Workspace Directories:**\n  - {self.info.cwd}\n"
                                "</session_context>"}]}  # fmt: skip
        return [meta, {"$set": {"messages": [context], "lastUpdated": stamp}}]

    def on_session(self, said: Said) -> None:
        if said.source == "compact":
            return
        path = self.chat_file(said.at_ms)
        self.name(path)
        self.append(self.head(said))
        if said.source == "resume":
            self.resuming = True
        else:
            self.main, self.messages = path, []

    def on_submitted(self, said: Said) -> None:
        if not self.resuming:
            return
        self.resuming = False
        self.name(self.main or self.path or self.chat_file(said.at_ms))
        self.append([{"$set": {"sessionId": self.info.session_id}},
                     {"$set": {"messages": self.resumed(), "lastUpdated": _iso(said.at_ms)}}])  # fmt: skip

    def resumed(self) -> list[dict[str, Any]]:
        """The message list as a resume rebuilds it: the content as parts, and a response of
        its own after each message that called tools."""
        rebuilt: list[dict[str, Any]] = []
        for message in self.messages:
            content = message["content"]
            if message["type"] == "gemini":
                calls = message.get("toolCalls") or []
                parts = [{"functionCall": {"id": c["id"], "name": c["name"], "args": c["args"]}}
                         for c in calls] or [{"text": content}]  # fmt: skip
                rebuilt.append({**message, "content": parts})
                if calls:
                    rebuilt.append({"id": f"{message['id']}_response",
                                    "timestamp": message["timestamp"], "type": "user",
                                    "content": [p for c in calls for p in c["result"]]})  # fmt: skip
            else:
                rebuilt.append({**message, "content": content})
        return rebuilt

    def record(self, message: dict[str, Any]) -> None:
        """A message and the ``lastUpdated`` that follows it."""
        self.messages.append(message)
        self.append([message, {"$set": {"lastUpdated": message["timestamp"]}}])

    def user(self, said: Said, content: list[dict[str, Any]]) -> dict[str, Any]:
        return {"id": self.uid(), "timestamp": _iso(said.at_ms), "type": "user", "content": content}

    def gemini(self, said: Said, content: str) -> dict[str, Any]:
        return {"id": self.uid(), "timestamp": _iso(said.at_ms), "type": "gemini",
                "content": content, "thoughts": [], "tokens": _TOKENS,
                "model": self.info.model}  # fmt: skip

    def on_prompt(self, said: Said) -> None:
        self.waiting.append(self.user(said, [{"text": said.text}]))

    def on_feedback(self, said: Said) -> None:
        self.waiting.append(self.user(said, [{"text": said.text}]))

    def on_sending(self, said: Said) -> None:
        waiting, self.waiting = self.waiting, []
        for message in waiting:
            self.record(message)

    def on_call(self, said: Said) -> None:
        self.last_call = self.gemini(said, "")
        self.record(self.last_call)

    def on_result(self, said: Said) -> None:
        """The call's message again, now with the call and its result; the result itself goes
        to the model with the next request."""
        assert said.call is not None
        response = [{"functionResponse": {"id": said.call_id, "name": said.call.name,
                                          "response": {"output": said.text}}}]  # fmt: skip
        shell = said.call.name == "run_shell_command"
        call = {"id": said.call_id, "name": said.call.name, "args": said.call.args,
                "result": response, "status": "error" if said.denied else "success",
                "timestamp": _iso(said.at_ms), "resultDisplay": said.text,
                "description": str(said.call.args.get("command", "")) if shell else "",
                "displayName": "Shell" if shell else said.call.name,
                "renderOutputAsMarkdown": False}  # fmt: skip
        if self.last_call is not None:
            self.last_call["toolCalls"] = [*self.last_call.get("toolCalls", []), call]
            self.append([self.last_call])
        self.waiting.append(self.user(said, response))

    def on_reply(self, said: Said) -> None:
        self.record(self.gemini(said, said.text))

    @classmethod
    def kind_of(cls, record: Mapping[str, Any]) -> str:
        if "$set" in record:
            update = record["$set"]
            return "$set/" + ",".join(sorted(update)) if isinstance(update, dict) else "$set"
        if "$rewindTo" in record:
            return "$rewindTo"
        if "projectHash" in record:
            return "metadata"
        kind = str(record.get("type"))
        content = record.get("content")
        if isinstance(content, list) and any("functionResponse" in p for p in content):
            return f"{kind}/functionResponse"
        return f"{kind}/toolCalls" if record.get("toolCalls") else kind

    @classmethod
    def keys_of(cls, record: Mapping[str, Any]) -> frozenset[str]:
        keys = set(record)
        for call in record.get("toolCalls") or []:
            keys |= {f"toolCalls.{k}" for k in call}
        return frozenset(keys)


# --- Hermes -------------------------------------------------------------------------------
# hermes-agent 0.19.0 hermes_state.py, SCHEMA_SQL: the two tables a hook reads a session from.
HERMES_TABLES = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, session_key TEXT, chat_id TEXT,
    chat_type TEXT, thread_id TEXT, display_name TEXT, origin_json TEXT,
    expiry_finalized INTEGER DEFAULT 0, model TEXT, model_config TEXT, system_prompt TEXT,
    parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT,
    message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0,
    input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0,
    cache_read_tokens INTEGER DEFAULT 0, cache_write_tokens INTEGER DEFAULT 0,
    reasoning_tokens INTEGER DEFAULT 0, cwd TEXT, git_branch TEXT, git_repo_root TEXT,
    billing_provider TEXT, billing_base_url TEXT, billing_mode TEXT, estimated_cost_usd REAL,
    actual_cost_usd REAL, cost_status TEXT, cost_source TEXT, pricing_version TEXT, title TEXT,
    api_call_count INTEGER DEFAULT 0, handoff_state TEXT, handoff_platform TEXT,
    handoff_error TEXT, compression_failure_cooldown_until REAL, compression_failure_error TEXT,
    compression_fallback_streak INTEGER NOT NULL DEFAULT 0, profile_name TEXT,
    rewind_count INTEGER NOT NULL DEFAULT 0, archived INTEGER NOT NULL DEFAULT 0,
    FOREIGN KEY (parent_session_id) REFERENCES sessions(id)
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT,
    effect_disposition TEXT, timestamp REAL NOT NULL, token_count INTEGER, finish_reason TEXT,
    reasoning TEXT, reasoning_content TEXT, reasoning_details TEXT, codex_reasoning_items TEXT,
    codex_message_items TEXT, platform_message_id TEXT, observed INTEGER DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1, compacted INTEGER NOT NULL DEFAULT 0, api_content TEXT
);
CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id, timestamp);
"""


class HermesStateDb(Transcript):
    """Hermes' session store, ``$HERMES_HOME/state.db``, as hermes-agent 0.19.0 fills it: the
    session's row once its first turn starts (before pre_llm_call), then the messages in
    batches where Hermes flushes them: the prompt and the call before the first
    pre_tool_call, the rest of the turn before post_llm_call. A ``pre_verify`` hook's message is
    left out, as Hermes leaves it out of the durable transcript."""

    format = "hermes-state-db"
    reproduced = frozenset({"sessions", "messages/user", "messages/assistant", "messages/tool"})
    not_reproduced: ClassVar[dict[str, str]] = {
        "messages_fts*": "the full-text search index of the messages (SQLite's own tables)",
        "session_model_usage": "the tokens each model used (the fake model's are meaningless)",
        "gateway_routing": "a gateway's routing of chats to sessions",
        "compression_locks": "the lock a compaction holds",
        "async_delegations": "delegated background tasks",
    }

    def __init__(self, info: SessionInfo, hermes_home: Path) -> None:
        super().__init__(info, hermes_home)
        self.name(hermes_home / "state.db")
        self.waiting: list[tuple[str, str, dict[str, Any], float]] = []
        self.session_due = False

    def on_session(self, said: Said) -> None:
        """The agent opens its store at start; the session's row waits for its first turn."""
        self.session_due = True
        self.store().close()

    def on_submitted(self, said: Said) -> None:
        if not self.session_due:
            return
        self.session_due = False
        config = json.dumps({"max_iterations": 90, "reasoning_config": None, "max_tokens": None})
        with contextlib.closing(self.store()) as db, db:
            db.execute(
                "INSERT OR IGNORE INTO sessions (id, source, model, model_config, system_prompt,"
                " started_at, cwd) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (self.info.session_id, self.info.platform, self.info.model, config,
                 "(hooksim: Hermes' system prompt is not reproduced)", said.at_ms / 1000,
                 self.info.cwd),
            )  # fmt: skip

    def store(self) -> sqlite3.Connection:
        assert self.path is not None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path)
        db.executescript(HERMES_TABLES)
        return db

    def wait(self, said: Said, role: str, content: str, **columns: Any) -> None:
        self.waiting.append((role, content, columns, said.at_ms / 1000))

    def on_prompt(self, said: Said) -> None:
        self.wait(said, "user", said.text)

    def on_call(self, said: Said) -> None:
        assert said.call is not None
        call = {"id": said.call_id, "call_id": said.call_id,
                "response_item_id": "fc_" + said.call_id.removeprefix("call_"),
                "type": "function", "function": {"name": said.call.name,
                                                 "arguments": json.dumps(said.call.args)}}  # fmt: skip
        if self.waiting and self.waiting[-1][2].get("finish_reason") == "tool_calls":
            self.waiting[-1][2]["tool_calls"].append(call)  # one response asked for them all
        else:
            self.wait(said, "assistant", "", tool_calls=[call], finish_reason="tool_calls")

    def on_result(self, said: Said) -> None:
        assert said.call is not None
        self.wait(said, "tool", said.text, tool_call_id=said.call_id, tool_name=said.call.name)

    def on_reply(self, said: Said) -> None:
        self.wait(said, "assistant", said.text, finish_reason="stop")

    def on_persisted(self, said: Said) -> None:
        waiting, self.waiting = self.waiting, []
        if not waiting:
            return
        with contextlib.closing(self.store()) as db, db:
            for role, content, columns, at in waiting:
                calls = columns.get("tool_calls")
                db.execute(
                    "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls,"
                    " tool_name, timestamp, finish_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (self.info.session_id, role, content, columns.get("tool_call_id"),
                     json.dumps(calls) if calls else None, columns.get("tool_name"), at,
                     columns.get("finish_reason")),
                )  # fmt: skip
            db.execute(
                "UPDATE sessions SET message_count = (SELECT count(*) FROM messages WHERE"
                " session_id = ?), tool_call_count = tool_call_count + ? WHERE id = ?",
                (self.info.session_id, sum(r == "tool" for r, *_ in waiting),
                 self.info.session_id),
            )  # fmt: skip
            # What the first model response costs, as Hermes books it after that response.
            db.execute(
                "UPDATE sessions SET billing_provider = ?, billing_base_url = ?,"
                " estimated_cost_usd = 0.0, cost_status = 'unknown', cost_source = 'none'"
                " WHERE id = ? AND billing_provider IS NULL",
                ("custom", "", self.info.session_id),
            )  # fmt: skip

    @classmethod
    def kind_of(cls, record: Mapping[str, Any]) -> str:
        return "sessions" if "source" in record else f"messages/{record.get('role')}"

    @classmethod
    def keys_of(cls, record: Mapping[str, Any]) -> frozenset[str]:
        """The columns that hold a value (a table's columns are the same in every row), but a
        session's ``title``: a side request of Hermes' own writes it whenever it returns, after
        the first turn."""
        return frozenset(k for k, v in record.items() if v is not None and k != "title")


# --- Cursor -------------------------------------------------------------------------------
class CursorJsonl(Transcript):
    """Cursor's agent transcript, unverified: its hooks reference names ``transcript_path``
    and nothing of the file. hooksim writes what third-party readers of it parse: one JSON line
    per message, ``{"role", "message": {"content": [{"type": "text", "text"}]}}``, the user's
    text in ``<user_query>`` tags, under ``~/.cursor/projects/<cwd>/agent-transcripts/<id>/``;
    a reply before ``stop``. Tool calls are left out: nothing says how Cursor writes them."""

    format = "cursor-jsonl"
    reproduced = frozenset({"user", "assistant"})

    def __init__(self, info: SessionInfo, hermes_home: Path) -> None:
        super().__init__(info, hermes_home)
        self.open_session()

    def open_session(self) -> None:
        folder = claude_project_folder(self.info.cwd).lstrip("-")
        sid = self.info.session_id
        self.name(Path(self.info.home) / ".cursor" / "projects" / folder / "agent-transcripts"
                  / sid / f"{sid}.jsonl")  # fmt: skip

    def line(self, role: str, text: str) -> None:
        self.append([{"role": role, "message": {"content": [{"type": "text", "text": text}]}}])

    def on_session(self, said: Said) -> None:
        self.open_session()

    def on_prompt(self, said: Said) -> None:
        self.line("user", f"<user_query>\n{said.text}\n</user_query>")

    def on_feedback(self, said: Said) -> None:
        self.line("user", f"<user_query>\n{said.text}\n</user_query>")

    def on_reply(self, said: Said) -> None:
        self.line("assistant", said.text)

    @classmethod
    def kind_of(cls, record: Mapping[str, Any]) -> str:
        return str(record.get("role"))


WRITERS: dict[str, type[Transcript]] = {
    w.format: w for w in (ClaudeCodeJsonl, CodexRollout, GeminiChat, HermesStateDb, CursorJsonl)
}


def transcript_for(host: Host, info: SessionInfo, hermes_home: Path) -> Transcript | None:
    """The writer of ``host``'s transcript for one session, listening to its conversation (None
    for a host whose profile names no format)."""
    writer = WRITERS.get(host.transcript_format)
    if writer is None:
        return None
    transcript = writer(info, hermes_home)
    info.conversation.listen(transcript.heard)
    return transcript


def read_records(path: Path, fmt: str) -> list[dict[str, Any]]:
    """A transcript's records, in order: JSON lines, or for Hermes' store its session rows and
    then its message rows."""
    if fmt == HermesStateDb.format:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        db.row_factory = sqlite3.Row
        try:
            rows = [dict(r) for r in db.execute("SELECT * FROM sessions")]
            return rows + [dict(r) for r in db.execute("SELECT * FROM messages ORDER BY id")]
        finally:
            db.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


__all__ = [
    "WRITERS",
    "ClaudeCodeJsonl",
    "CodexRollout",
    "CursorJsonl",
    "GeminiChat",
    "HermesStateDb",
    "Transcript",
    "read_records",
    "transcript_for",
]
