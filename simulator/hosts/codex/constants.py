"""The names and numbers this host's session loop and profile share."""

from __future__ import annotations

import re

from ..claude_style import STOP_FAILURE_ERRORS as CLAUDE_STOP_FAILURE_ERRORS

# Codex classifies a failed turn as Claude Code does, with ``overloaded`` of its own
# (openai/codex ``codex-rs/hooks`` StopFailure, commit 72cdcc98).
STOP_FAILURE_ERRORS = {**CLAUDE_STOP_FAILURE_ERRORS, "overloaded": "overloaded"}

EVENTS = frozenset(
    {
        "PreToolUse",
        "PermissionRequest",
        "PostToolUse",
        "PreCompact",
        "PostCompact",
        "SessionStart",
        "UserPromptSubmit",
        "SubagentStart",
        "SubagentStop",
        "Stop",
        "StopFailure",
        "SessionEnd",
        "Interrupt",
    }
)
# dispatcher.rs select_handlers_for_matcher_inputs: UserPromptSubmit and Stop drop their
# matcher; PreCompact and PostCompact match the trigger (real 0.171.0 too).
MATCHER_EVENTS = frozenset(
    {
        "PreToolUse",
        "PermissionRequest",
        "PostToolUse",
        "SessionStart",
        "SessionEnd",
        "SubagentStart",
        "SubagentStop",
        "StopFailure",
        "PreCompact",
        "PostCompact",
    }
)
TURN_SCOPE = frozenset(
    {
        "PreToolUse",
        "PermissionRequest",
        "PostToolUse",
        "UserPromptSubmit",
        "Stop",
        "PreCompact",
        "PostCompact",
    }
)
# The order Codex numbers its hooks in, event by event (codex_config HookEventsToml
# into_matcher_groups). SessionEnd, added later, comes before Stop: real 0.171.0 runs numbered
# a Stop hook after every other event's (hook_run_id "stop:7" and "stop:8"); where StopFailure
# and Interrupt sit is not settled (after Stop, here).
DISPLAY_ORDER = (
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "UserPromptSubmit",
    "SubagentStart",
    "SubagentStop",
    "SessionEnd",
    "Stop",
)
SESSION_END_DEFAULT_S = 1.0  # session_end.rs SESSION_END_DEFAULT_TIMEOUT_SEC
SESSION_END_MAX_S = 3.0  # SESSION_END_MAX_TIMEOUT_SEC: below the app server's 5 s shutdown
EXACT_MATCHER = re.compile(r"[A-Za-z0-9_|]+")  # common.rs is_exact_matcher
