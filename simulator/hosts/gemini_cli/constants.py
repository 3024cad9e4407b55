"""The names and numbers this host's session loop and profile share."""

from __future__ import annotations

import re

EVENTS = frozenset(
    {
        "SessionStart",
        "SessionEnd",
        "BeforeAgent",
        "AfterAgent",
        "BeforeModel",
        "BeforeToolSelection",
        "AfterModel",
        "BeforeTool",
        "AfterTool",
        "Notification",
        "PreCompress",
    }
)
MATCHER_EVENTS = frozenset({"BeforeTool", "AfterTool", "SessionStart", "SessionEnd", "PreCompress"})
TOOL_EVENTS = frozenset({"BeforeTool", "AfterTool"})
MODEL_EVENTS = frozenset({"BeforeModel", "AfterModel"})  # their blocks end the model request
CONTEXT_EVENTS = frozenset({"SessionStart", "BeforeAgent", "AfterTool"})
# Their docs: flow control (continue, decision) is ignored; BeforeToolSelection's too, by its
# code (hookSystem.fireBeforeToolSelectionEvent reads only the tool config).
ADVISORY = frozenset(
    {"SessionStart", "SessionEnd", "PreCompress", "Notification", "BeforeToolSelection"}
)
MAX_TURNS = 100  # client.ts: the per-prompt turn budget
# What the model reads after a tool's result when a BeforeTool hook rewrote its input (the
# 0.61.0 scheduler, bundle/chunk-JDPZ4CE3.js 347173).
REWRITE_NOTE = "\n\n[System] Tool input parameters were modified by a hook before execution."
# What a compression leaves the model: the summary as a user message and the model's reply to
# it (chatCompressionService.ts); the recent turns it also keeps are not modelled.
COMPRESSED = ("Summary of the conversation so far.", "Got it. Thanks for the additional context!")
# The commits on main that changed the hook environment (first released in v0.39.0 and v0.23.0).
VARIABLES_SINCE = "a4318f22ece9c8fbcbafb87e4ec0a84f71b11d2e"
QUOTED_SINCE = "41a1a3eed15f0dd6566c0eaf9ef6a6b5d6b7408c"
# The commit that joins a role's consecutive chat entries in each request (first in v0.53.0).
COALESCED_SINCE = "3ff5ba20fc1ad7d867218bbdb34756eb54d6eccb"
EXIT_CODES_SINCE = (0, 30, 0)  # hookRunner.ts: "all other non-zero exit codes are blocking"
# The variables hookRunner.expandCommand substitutes into the command string.
SUBSTITUTED = (
    "GEMINI_PROJECT_DIR",
    "GEMINI_CWD",
    "GEMINI_PLANS_DIR",
    "GEMINI_SESSION_ID",
    "CLAUDE_PROJECT_DIR",
)
# shell-quote's quote(): what escapeShellArg gives bash (backslashes, not quotes, where it can).
_QUOTE_SPECIAL = re.compile(r"([A-Za-z]:)?([#!\"$&'()*,:;<=>?@\[\\\]^`{|}])")
_RAN = "the tool really runs on the host: its output is not the scenario's scripted result"
