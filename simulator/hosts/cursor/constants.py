"""The names and numbers this host's session loop and profile share."""

from __future__ import annotations

EVENTS = frozenset(
    {
        "sessionStart",
        "sessionEnd",
        "beforeSubmitPrompt",
        "preToolUse",
        "postToolUse",
        "postToolUseFailure",
        "beforeShellExecution",
        "afterShellExecution",
        "beforeMCPExecution",
        "afterMCPExecution",
        "beforeReadFile",
        "afterFileEdit",
        "subagentStart",
        "subagentStop",
        "afterAgentResponse",
        "afterAgentThought",
        "stop",
        "preCompact",
    }
)
TOOL_EVENTS = frozenset({"preToolUse", "postToolUse", "postToolUseFailure"})
DEFAULT_LOOP_LIMIT = 5
CURSOR_VERSION = "2.4.0"
