"""A turn's tool calls on OpenClaw (``OpenClawTools``): each model response that asks for
some, then each call through before_tool_call, the tool (run, refused or failed) and
after_tool_call, with what the run persists of its result."""

from __future__ import annotations

from typing import Any

from ...steps import ToolCall, Turn
from ..records import Firing
from .base import OpenClawBase
from .messages import (
    NO_OUTPUT,
    TOOL_HOOK_FAILED,
    UNDEFINED,
    text_entry,
)
from .tools import derived_paths, failed, given, thrown


class OpenClawTools(OpenClawBase):
    """The tool calls of a turn."""

    def _tools(self, run: str, turn: Turn) -> int:
        """The turn's tool calls, each response of the model that asks for some followed by
        its calls; the number of the next model call."""
        self.ran = {}
        responses = turn.responses(self.host.calls_in_one_response)
        for asking, calls in enumerate(responses, 1):
            self._model_call(run, asking, "completed")
            asked = self._reply(
                [
                    {
                        "type": "toolCall",
                        "id": c.id or f"call{n}",
                        "name": c.name,
                        "arguments": c.args,
                    }
                    for n, c in calls
                ],
                "toolUse",
            )
            self.run_messages.append(asked)
            self._write(run, asked)
            # The calls of one response run side by side: each is prepared (before_tool_call)
            # in turn, then they run, and their results are written in the calls' order
            # (executeToolCallGroups, dist/agent-core-DG5aPUnb.mjs:751-822). after_tool_call
            # fires as each call ends, which the replay takes in the calls' order too.
            prepared = [self._prepare(run, n, call) for n, call in calls]
            for done in [
                self._finish(n, call, fields, pre)
                for (n, call), (fields, pre) in zip(calls, prepared, strict=True)
            ]:
                self._persist(run, *done)
        return len(responses) + 1

    def _prepare(self, run: str, n: int, call: ToolCall) -> tuple[dict[str, Any], Firing]:
        """A call before it runs: its before_tool_call (after resolve_exec_env for exec), and
        the fields its later hooks share."""
        call_id = call.id or f"call{n}"
        self.said.called(call, call_id)
        fields = {
            "toolName": call.name,
            "params": dict(call.args),
            "runId": run,
            "toolCallId": call_id,
        }
        if call.name == self.host.shell_tool:
            self._exec_env()
        derived = derived_paths(call, self.info.cwd)
        pre = self.hook(
            "before_tool_call",
            {**fields, **({"derivedPaths": derived} if derived else {})},
            tool=call.name,
            **self._ids(fields),
        )
        return fields, pre

    @staticmethod
    def _ids(fields: dict[str, Any]) -> dict[str, Any]:
        return {k: fields[k] for k in ("runId", "toolName", "toolCallId")}

    def _finish(
        self, n: int, call: ToolCall, fields: dict[str, Any], pre: Firing
    ) -> tuple[ToolCall, dict[str, Any], dict[str, Any], bool]:
        """A prepared call runs (or is refused) and after_tool_call is told how it ended: the
        call, its ids, its result and whether it is an error."""
        call_id = fields["toolCallId"]
        if pre.blocked:
            result, after = self._refused(call, call_id, pre)
            error = True
        else:
            effect = pre.effect
            ran = self.ran[n] = self.run_tool(call, pre)
            pre.effect = "; ".join(
                filter(None, [effect, pre.effect if pre.effect != effect else ""])
            )
            extra = self._exec_details(call, ran.result)
            text = extra["details"]["aggregated"] or NO_OUTPUT if extra else ran.result
            result = given(ran, self.tool_run) or {
                "content": [{"type": "text", "text": text}],
                **extra,
            }
            after = {"params": dict(ran.args), "durationMs": int(call.duration_s * 1000)}
            error_text = thrown(ran, self.tool_run)
            if error_text is not None:
                result, after["error"] = failed(call.name, error_text), error_text
            text = result["content"][0]["text"]
            self.said.returned(ran, call_id, text, denied=error_text is not None)
            error = error_text is not None
        # The agent loop copies the result with the terminate flag its after-call step gave,
        # undefined unless a tool ends the run (dist/agent-core-DG5aPUnb.mjs:1211-1216).
        seen = {**result, "terminate": UNDEFINED}
        self.hook(
            "after_tool_call",
            {**fields, "result": seen, **after},
            wait=False,
            tool=call.name,
            **self._ids(fields),
        )
        return call, self._ids(fields), result, error

    def _refused(
        self, call: ToolCall, call_id: str, pre: Firing
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A call before_tool_call blocked: the reason goes to the model as its result; a gate
        that failed makes the call throw, and the model gets the error as JSON (observed). The
        result, and what after_tool_call adds. A block's details carry its reason
        (buildBlockedToolResult, dist/agent-tools.before-tool-call-D6M7yTR3.mjs:3381-3393)."""
        pre.effect = "; ".join(
            filter(
                None,
                [
                    pre.effect,
                    f"the {call.name} call is blocked;"
                    " the reason goes to the model as its error"
                    " result",
                ],
            )
        )
        details: dict[str, Any] = {
            "status": "blocked",
            "deniedReason": "plugin-before-tool-call",
            "reason": pre.reason,
        }
        after: dict[str, Any] = {"error": pre.reason}
        result: dict[str, Any] = {
            "content": [{"type": "text", "text": pre.reason}],
            "details": details,
        }
        if pre.reason == TOOL_HOOK_FAILED:
            result = failed(call.name, pre.reason)
            pre.reason = result["content"][0]["text"]
            after["durationMs"] = 0
        self.deliver(pre)
        self.said.returned(call, call_id, pre.reason, denied=True)
        return result, after

    def _persist(
        self, run: str, call: ToolCall, ids: dict[str, Any], result: dict[str, Any], error: bool
    ) -> None:
        """The tool result is written down: tool_result_persist may rewrite it, then
        before_message_write."""
        call_id = ids["toolCallId"]
        message = {
            **text_entry("toolResult", result["content"][0]["text"], self.info.now_ms()),
            "toolCallId": call_id,
            "toolName": call.name,
            **{k: v for k, v in result.items() if k == "details"},
            "isError": error,
        }
        self.run_messages.append(message)
        persisted = self.hook(
            "tool_result_persist",
            {
                "toolName": call.name,
                "toolCallId": call_id,
                "message": message,
                "isSynthetic": False,
            },
            tool=call.name,
            **ids,
        )
        result_message = (
            persisted.result.get("message") if isinstance(persisted.result, dict) else None
        )
        if isinstance(result_message, dict) and result_message != message:
            persisted.effect = "a handler rewrote the tool result written to the transcript"
            message = result_message
        self._write(run, message, paired={"toolCallId": call_id, "toolName": call.name})

    def _exec_env(self) -> None:
        """resolve_exec_env: before an exec call's before_tool_call, OpenClaw asks the plugins
        for the command's environment (prepareParamsWithResolvedExecEnv,
        dist/bash-tools-B2oth0P7.mjs:2934-2962; observed right before before_tool_call)."""
        self.hook(
            "resolve_exec_env", {"sessionKey": self.key, "toolName": "exec", "host": "gateway"}
        )

    def _exec_details(self, call: ToolCall, text: str) -> dict[str, Any]:
        """What an exec call's result carries beside its text (its ``details``,
        dist/bash-tools-B2oth0P7.mjs:3878-3888): hooksim's command ended with status 0; its
        text is the output, trimmed (observed), or "(no output)"
        (dist/bash-tools.exec-output-Cei3R_ZV.mjs:2-7)."""
        if call.name != self.host.shell_tool:
            return {}
        return {
            "details": {
                "status": "completed",
                "exitCode": 0,
                "exitSignal": None,
                "exitReason": "exit",
                "durationMs": int(call.duration_s * 1000),
                "aggregated": text.strip(),
                "noOutputTimedOut": False,
                "cwd": self.info.cwd,
            }
        }
