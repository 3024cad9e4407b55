"""Cursor's facts, each with its sources (``hooksim hosts --sources`` prints them): data only,
read by the profile as ``facts``."""

from __future__ import annotations

from ..sources import CURSOR_DOCS, docs, fact, unverified

FACTS = (
    unverified(
        "transcript",
        "transcript_path (and CURSOR_TRANSCRIPT_PATH) names the agent transcript; its"
        " reference says nothing of the file: hooksim writes what third-party readers parse,"
        " one {role, message: {content: [{type: text, text}]}} line per message under"
        " ~/.cursor/projects/<cwd>/agent-transcripts/<id>/",
        docs(CURSOR_DOCS, "common-schema"),
    ),
    fact(
        "events",
        "sessionStart, beforeSubmitPrompt, preToolUse/postToolUse,"
        " afterAgentResponse, stop, preCompact, sessionEnd, and the shell, MCP, file and"
        " subagent events",
        docs(CURSOR_DOCS, "hook-events"),
    ),
    fact(
        "not_awaited",
        "sessionStart and sessionEnd are fire-and-forget; the env sessionStart"
        " returns reaches hooks started after it finished",
        docs(CURSOR_DOCS, "sessionstart"),
        docs(CURSOR_DOCS, "sessionend"),
    ),
    fact(
        "stop",
        "a stop hook's followup_message is sent as the next user message, up to its"
        " loop_limit (default 5, null: no cap)",
        docs(CURSOR_DOCS, "stop"),
    ),
    unverified("followup", "whether a follow-up fires beforeSubmitPrompt again (taken as no)"),
    fact(
        "given to the model",
        "a stop hook's followup_message, as the next user message; a deny's agent_message",
        docs(CURSOR_DOCS, "stop"),
        docs(CURSOR_DOCS, "pretooluse"),
    ),
    unverified(
        "what a deny tells the agent",
        "how the agent is told of a deny (its agent_message given plain); what it is told"
        " of an exit 2 (taken as its stderr) or of a deny with a user_message only (taken as"
        " nothing)",
    ),
    fact(
        "shown to the user",
        "a deny's or a blocked prompt's user_message",
        docs(CURSOR_DOCS, "pretooluse"),
        docs(CURSOR_DOCS, "beforesubmitprompt"),
    ),
    fact(
        "preCompact",
        "observes only; nothing fires after the compaction",
        docs(CURSOR_DOCS, "precompact"),
    ),
    fact(
        "exit codes",
        "exit 2 denies where the event can be blocked; other failures fail"
        " open unless the hook sets failClosed",
        docs(CURSOR_DOCS, "exit-codes"),
    ),
    fact(
        "environment",
        "CURSOR_PROJECT_DIR, CURSOR_VERSION, CURSOR_TRANSCRIPT_PATH and CLAUDE_PROJECT_DIR",
        docs(CURSOR_DOCS, "environment-variables"),
    ),
    unverified(
        "spawn",
        "the shell that runs a command (taken as /bin/sh -c)",
        docs(CURSOR_DOCS, "configuration"),
    ),
    unverified(
        "parallel", "whether hooks of one event run in parallel (taken as one after another)"
    ),
    unverified(
        "default_timeout_s",
        "the default timeout (taken as 60 s) and the unit of"
        " timeout (taken as seconds; third-party pages disagree)",
        docs(CURSOR_DOCS, "configuration"),
    ),
    unverified("matcher", "how a tool matcher is compared (taken as a full regex match)"),
    fact(
        "trust",
        "project hooks run only in a trusted workspace",
        docs(CURSOR_DOCS, "project-hooks"),
    ),
    fact(
        "config_files",
        ".cursor/hooks.json (project), ~/.cursor/hooks.json (user)",
        docs(CURSOR_DOCS, "configuration"),
    ),
)
