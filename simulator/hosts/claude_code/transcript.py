"""Claude Code's session JSONL, written as the session goes (``hosts.transcript``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from ..claude_style import HOOK_OUTPUT_REMINDER
from ..conversation import FEEDBACK, Said
from ..session import SessionInfo
from ..transcript import Transcript, folder_name, iso

# --- Claude Code --------------------------------------------------------------------------
CLAUDE_VERSION = "2.1.337"
_COMPACT_CAVEAT = (
    "<local-command-caveat>The command below was run directly in Claude Code, not sent to you"
    " as a request, and its output goes straight to the user. It's recorded here as context for"
    " later messages.</local-command-caveat>"
)


class ClaudeCodeJsonl(Transcript):
    """Claude Code's session JSONL, as real 2.1.337 writes it (``claude -p``, stream-json: the
    values of ``entrypoint`` and ``promptSource`` an interactive session writes are not known).

    The file appears with the session's first message: what comes before (the queued prompt)
    waits in memory. Each message record points at the one before (``parentUuid``). A prompt
    is written once its UserPromptSubmit hooks are done, a tool call before PreToolUse, its
    result after PostToolUse, a reply before Stop; a blocked Stop's feedback, then the summary
    of the Stop hooks, before the model answers again; a compaction's records once its hooks are
    done, before the next prompt.
    """

    format = "claude-code-jsonl"
    reproduced = frozenset(
        {
            "queue-operation",
            "user",
            "assistant",
            "system/stop_hook_summary",
            "system/compact_boundary",
            "attachment/hook_blocking_error",
        }
    )
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
        # The model response the last assistant record belongs to: its message id, request id,
        # request ref and the record's block index.
        self.response: dict[str, Any] | None = None
        self.open_session()

    def open_session(self) -> None:
        home = Path(self.info.home)
        folder = folder_name(self.info.cwd)
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
        fields = {
            "userType": "external",
            "entrypoint": "sdk-cli",
            "cwd": self.info.cwd,
            "sessionId": self.info.session_id,
            "version": CLAUDE_VERSION,
            "gitBranch": "HEAD",
        }
        return {**fields, "slug": self.slug} if self.slug else fields

    def chained(self, said: Said, record: dict[str, Any]) -> dict[str, Any]:
        """A message record, chained to the one before it."""
        uid = self.uid()
        head = {"parentUuid": self.parent, "isSidechain": False}
        self.parent = uid
        return {**head, **record, "uuid": uid, "timestamp": iso(said.at_ms), **self.common()}

    def on_session(self, said: Said) -> None:
        if said.source in ("startup", "clear"):
            self.open_session()

    def on_submitted(self, said: Said) -> None:
        queued = {
            "type": "queue-operation",
            "operation": "enqueue",
            "timestamp": iso(said.at_ms),
            "sessionId": self.info.session_id,
        }
        self.prompt_id = self.uid()
        self.write([{**queued, "content": said.text}, {**queued, "operation": "dequeue"}])

    def on_prompt(self, said: Said) -> None:
        self.prompts += 1
        self.write(
            [
                self.chained(
                    said,
                    {
                        "promptId": self.prompt_id,
                        "type": "user",
                        "message": {"role": "user", "content": said.text},
                    },
                )
                | {
                    "permissionMode": "default",
                    "promptSource": "sdk",
                    "sentAtMs": said.at_ms,
                    "rowSource": "local",
                    "turnOrigin": "sdk",
                    "turnPromptId": self.prompt_id,
                    "turnPosition": {"promptIndex": 0, "turnIndex": self.prompts},
                }
            ]
        )

    def assistant(self, said: Said, content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
        """An assistant record: one content block of a model response. A call its response
        asked for beside the one before it (``joined``) is a record of that response's message:
        its id, request and request ref, the block's index after the one before (real 2.1.332:
        ``apiBlockIndex`` 0 and 1, one ``message.id`` and ``requestId``)."""
        last = self.response if said.joined else None
        message_id = last["id"] if last is not None else f"msg_{self.uid().replace('-', '')[:24]}"
        message = {
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "model": self.info.model,
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {
                "input_tokens": 100,
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
                "output_tokens": 1,
            },
            "stop_details": None,
        }
        extra = {"toolInputStreamMs": 0} if stop == "tool_use" else {}
        # requestId: the API's request-id header, which every answer of Anthropic's carries.
        if last is not None:
            request, ref, block = last["request"], last["ref"], last["block"] + 1
        else:
            request, ref, block = f"req_{self.uid().replace('-', '')[:24]}", self.uid(), 0
        self.response = {"id": message_id, "request": request, "ref": ref, "block": block}
        return self.chained(
            said,
            {
                "message": message,
                **extra,
                "apiBlockIndex": block,
                "requestId": request,
                "requestRef": ref,
                "requestedModel": self.info.model,
                "promptCacheRequested": "5m",
                "type": "assistant",
            },
        ) | {"effort": "medium", "perTurnEffort": "medium", "madeBy": "model"}

    def on_call(self, said: Said) -> None:
        assert said.call is not None
        use = {
            "type": "tool_use",
            "id": said.call_id,
            "name": said.call.name,
            "input": said.call.args,
        }
        record = self.assistant(said, [use], "tool_use")
        self.calls[said.call_id] = record["uuid"]
        self.write([record])

    def on_result(self, said: Said) -> None:
        result = {
            "tool_use_id": said.call_id,
            "type": "tool_result",
            "content": said.text,
            "is_error": said.denied,
        }
        outcome: Any = said.text
        if said.call is not None and said.call.name == "Bash" and not said.denied:
            outcome = {
                "stdout": said.text,
                "stderr": "",
                "interrupted": False,
                "isImage": False,
                "noOutputExpected": False,
            }
        # A result points at its own call's record, which is not the last record when its
        # response asked for more calls (real 2.1.332).
        call = self.calls.get(said.call_id)
        self.parent = call or self.parent
        self.write(
            [
                self.chained(
                    said,
                    {
                        "promptId": self.prompt_id,
                        "type": "user",
                        "message": {"role": "user", "content": [result]},
                    },
                )
                | {
                    "toolUseResult": outcome,
                    "sandboxed": False,
                    "sourceToolAssistantUUID": call or "",
                    "toolResultScreened": False,
                    "permissionDecision": {
                        "decision": "accept",
                        "source": "config",
                        "reasonType": "rule",
                        "ruleSource": "cliArg",
                    },
                }
            ]
        )

    def on_reply(self, said: Said) -> None:
        self.write([self.assistant(said, [{"type": "text", "text": said.text}], "end_turn")])

    def on_feedback(self, said: Said) -> None:
        """A blocked Stop: its feedback as a user message (without Claude Code's reminder
        wrapping, which it keeps apart as ``hookTextLead``), the blocking error, and then the
        Stop hooks' summary."""
        text = said.text.removeprefix(HOOK_OUTPUT_REMINDER + "\n")
        text = text.removesuffix("\n</system-reminder>")
        lead = HOOK_OUTPUT_REMINDER.removeprefix("<system-reminder>\n")
        records = [
            self.chained(
                said,
                {
                    "promptId": self.prompt_id,
                    "type": "user",
                    "message": {"role": "user", "content": text},
                    "isMeta": True,
                    "rowSource": "hook",
                    "hookText": True,
                    "hookTextLead": lead,
                },
            )
        ]
        held, self.held = self.held, None
        if held is not None:
            for command in self.blocking:
                error = {
                    "type": "hook_blocking_error",
                    "hookName": said.source,
                    "toolUseID": held["toolUseID"],
                    "hookEvent": said.source,
                    "blockingError": {"blockingError": held["hookErrors"][0], "command": command},
                }
                shown = (
                    f"<system-reminder>\n{said.source} hook blocking error from command:"
                    f' "{command}": {held["hookErrors"][0]}\n</system-reminder>'
                )
                records.append(
                    self.chained(said, {"attachment": error, "type": "attachment"})
                    | {"rendered": [{"content": shown}], "renderedRole": "system"}
                )
            held["parentUuid"], self.parent = self.parent, held["uuid"]
            records.append(held)
        self.write(records)

    def on_stop_hooks(self, said: Said) -> None:
        """The Stop hooks' summary; a blocked Stop's waits for its feedback."""
        if not said.commands:
            return
        record = self.chained(
            said,
            {
                "type": "system",
                "subtype": "stop_hook_summary",
                "hookCount": len(said.commands),
                "hookInfos": [{"command": c, "durationMs": 0} for c in said.commands],
                "hookErrors": list(said.reasons),
                "failedHookErrorIndexes": [],
                "hookAdditionalContext": [],
                "preventedContinuation": False,
                "stopReason": "",
                "hasOutput": bool(said.reasons),
                "level": "suggestion",
            },
        ) | {"toolUseID": self.uid()}
        if said.reasons:  # written after the feedback: the chain goes on from it
            self.held, self.blocking, self.parent = record, said.blocking, record["parentUuid"]
        else:
            self.write([record])

    def on_compacted(self, said: Said) -> None:
        """The compaction's boundary, the summary the model continues from, and for /compact
        the command's own three records."""
        self.slug = self.slug or "replayed-session-slug"
        boundary = self.chained(
            said,
            {
                "type": "system",
                "subtype": "compact_boundary",
                "content": "Conversation compacted",
                "isMeta": False,
                "level": "info",
                "compactMetadata": {"trigger": said.source, "preTokens": 0},
            },
        )
        boundary["logicalParentUuid"], boundary["parentUuid"] = boundary["parentUuid"], None
        summary = (
            "This session is being continued from a previous conversation that ran out of"
            f" context. The summary below covers the earlier portion of the conversation.\n\n"
            f"Summary:\n{said.text}"
        )
        records = [
            boundary,
            self.chained(
                said,
                {
                    "promptId": self.prompt_id,
                    "type": "user",
                    "message": {"role": "user", "content": summary},
                    "isVisibleInTranscriptOnly": True,
                    "isCompactSummary": True,
                    "turnPosition": {"promptIndex": 0, "turnIndex": self.prompts},
                    "sentAtMs": said.at_ms,
                    "rowSource": "local",
                },
            ),
        ]
        if said.source == "manual":
            records += self._compact_command(said)
        self.write(records)

    def _compact_command(self, said: Said) -> list[dict[str, Any]]:
        """The three records ``/compact`` itself leaves: its caveat, the command, its output."""
        command = (
            "<command-name>/compact</command-name>\n            <command-message>"
            "compact</command-message>\n            <command-args></command-args>"
        )
        return [
            self.chained(
                said,
                {
                    "promptId": self.prompt_id,
                    "type": "user",
                    "message": {"role": "user", "content": content},
                    **extra,
                },
            )
            for content, extra in (
                (_COMPACT_CAVEAT, {"isMeta": True, "rowSource": "harness"}),
                (command, {"rowSource": "local"}),
                (
                    "<local-command-stdout>Compacted</local-command-stdout>",
                    {"rowSource": "local", "repeatsCompactSummary": True},
                ),
            )
        ]

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
                keys |= {
                    f"message.content[{b.get('type')}]" for b in content if isinstance(b, dict)
                }
        return frozenset(keys)
