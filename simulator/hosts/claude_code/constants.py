"""Claude Code's names and numbers that its session loop and its profile share."""

from __future__ import annotations

import re

EVENTS = frozenset(
    {
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "Notification",
        "Stop",
        "StopFailure",
        "SubagentStop",
        "PreCompact",
        "PostCompact",
        "SessionEnd",
        "PostToolBatch",
        "UserPromptExpansion",
        "Setup",
    }
)
MATCHER_EVENTS = frozenset(
    {
        "SessionStart",
        "PreToolUse",
        "PostToolUse",
        "Notification",
        "SubagentStop",
        "PreCompact",
        "PostCompact",
        "SessionEnd",
        "StopFailure",
    }
)
SESSION_END_BUDGET_S = 1.5  # shared by SessionEnd hooks; a per-hook timeout raises it up to 60 s
SESSION_END_MAX_S = 60.0
# A matcher made only of these is a list of exact names (split on "|" and ","); any other
# character makes it a regex, tested unanchored. Before v2.1.195 "-" made it a regex too.
EXACT_MATCHER = re.compile(r"[A-Za-z0-9_\-, |]*")
EXACT_MATCHER_BEFORE_2_1_195 = re.compile(r"[A-Za-z0-9_, |]*")
# Only the tool events take an ``if`` condition (permission rule syntax, ``Bash(git *)``).
IF_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PermissionRequest"})
# The events of the model's loop, whose payloads carry the model's effort (``effort.level``,
# after permission_mode) and whose hooks get it as CLAUDE_EFFORT (real 2.1.332).
EFFORT_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolBatch", "Stop"})
# The model Claude Code 2.1.332 calls when none is named, and each model's default effort.
DEFAULT_MODEL = "claude-opus-5-5"
EFFORTS = {DEFAULT_MODEL: "medium"}


# The variables a plugin's hooks get (and an exec-form hook's arguments have substituted); a
# hook outside a plugin that names one of them in its command is refused, not run.
PLUGIN_VARIABLES = ("CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")
PROMPT_CACHE_TTL_S = 300  # a resumed SessionStart's prompt_cache_likely_expired: the 5 m TTL
