"""OpenClaw's facts, each with its sources (``hooksim hosts --sources`` prints them): data only,
read by the profile as ``facts``."""

from __future__ import annotations

from ..sources import Source, fact, observed, release
from .constants import VERSION


def dist(file: str, line: int, note: str = "") -> Source:
    """A line of the package's compiled ``dist/`` (its ``//#region`` comments name the source)."""
    return release("openclaw", VERSION, f"dist/{file}", line, note)


def doc(path: str, line: int, note: str = "") -> Source:
    """A line of the documentation the package ships (also at docs.openclaw.ai)."""
    return release("openclaw", VERSION, f"docs/{path}", line, note)


FACTS = (
    fact(
        "events",
        "42 typed hook names (api.on); internal keys for HOOK.md and api.registerHook"
        " handlers (agent:bootstrap, command:new|reset|stop, session:compact:before|after,"
        " gateway:startup|shutdown, message:*); an unknown typed name is ignored with a"
        " warning; before_agent_start is gone",
        dist("hooks-CKanWLsK.mjs", 408),
        dist("internal-hook-types-Deg4lhm7.mjs", 17),
        dist("loader-runtime-load-CMBCNIWa.mjs", 4286, "unknown typed hook ... ignored"),
    ),
    fact(
        "order",
        "one turn: before_message_write (the prompt; after llm_input under --local),"
        " before_agent_reply, before_model_resolve, agent:bootstrap, agent_turn_prepare,"
        " before_prompt_build, before_agent_run, llm_input, then per model call"
        " model_call_started/ended, per tool before_tool_call, after_tool_call,"
        " tool_result_persist, before_message_write; then before_message_write (the"
        " reply), before_agent_finalize, agent_end, llm_output",
        observed(f"openclaw {VERSION}", "a spy plugin recording every hook, one tool call"),
        dist("builtin-openclaw-q1hiFm14.mjs", 4055, "agent_end, then"),
        dist("builtin-openclaw-q1hiFm14.mjs", 8309, "llm_output"),
    ),
    fact(
        "order",
        "the assistant message that carries tool calls is written (before_message_write)"
        " before the first call's before_tool_call (an exec call's resolve_exec_env"
        " between them); a claimed turn fires nothing after before_agent_reply",
        observed(f"openclaw {VERSION}", "a gateway's turns with an exec call, and a claim"),
    ),
    fact(
        "spawn",
        "none: a handler is a JavaScript function OpenClaw imports and calls in its own Node"
        " process (hooksim calls it in a Node runner of its own)",
        dist("loader-301ZJ-A-.mjs", 87, "HOOK.md handlers: await import(...)"),
        dist("loader-runtime-load-CMBCNIWa.mjs", 2128, "api.on"),
    ),
    fact(
        "parallel",
        "by kind: observe hooks all at once (Promise.allSettled); modify, claim and internal"
        " hooks one after another",
        dist("hooks-CKanWLsK.mjs", 807),
        dist("hooks-CKanWLsK.mjs", 837),
        dist("internal-hooks-BksM5BTY.mjs", 91),
    ),
    fact(
        "matcher",
        "before_tool_call and after_tool_call take a list of canonical tool ids (exec, read,"
        " write...), compared lower-cased; no regex, no wildcard; other hooks ignore it with"
        " a warning",
        dist("hooks-CKanWLsK.mjs", 31),
        dist("loader-runtime-load-CMBCNIWa.mjs", 4310),
    ),
    fact(
        "exit codes",
        "none: a handler returns (read by its hook's kind), throws (logged; it fails closed"
        " for the gates) or runs out of its budget",
        dist("hooks-CKanWLsK.mjs", 744),
    ),
    fact(
        "priority",
        "higher priority first, ties in registration order",
        dist("hooks-CKanWLsK.mjs", 554),
        doc("plugins/hooks/reference.md", 40),
    ),
    fact(
        "modify hooks",
        "one after another, results merged: before_tool_call's block is terminal (lower"
        " priorities never run) and its params are the last handler's, each handler seeing"
        " the original params; before_prompt_build's contexts join in priority order, its"
        " systemPrompt is the first; before_agent_run takes the most restrictive decision"
        " and an invalid one blocks",
        dist("hooks-CKanWLsK.mjs", 837),
        dist("hooks-CKanWLsK.mjs", 1083),
        dist("hooks-CKanWLsK.mjs", 650),
        dist("hooks-CKanWLsK.mjs", 1048),
    ),
    fact(
        "claim hooks",
        "before_agent_reply's handlers run in turn until one returns {handled: true}; its"
        " reply ends the turn without a model call",
        dist("hooks-CKanWLsK.mjs", 905),
    ),
    fact(
        "observe hooks",
        "all handlers at once; what they return is not read",
        dist("hooks-CKanWLsK.mjs", 807),
    ),
    fact(
        "sync hooks",
        "tool_result_persist and before_message_write run synchronously; a returned"
        " Promise is ignored with a warning; each handler sees the previous one's message",
        dist("hooks-CKanWLsK.mjs", 762),
    ),
    fact(
        "not_awaited",
        "after_tool_call, llm_input, llm_output, agent_end, model_call_started/ended,"
        " session_start, session_end and before_reset are started and not awaited",
        dist("builtin-openclaw-q1hiFm14.mjs", 3502, "after_tool_call"),
        dist("builtin-openclaw-q1hiFm14.mjs", 6842, "llm_input"),
        dist("context-engine-lifecycle-BFtpAsr8.mjs", 268, "agent_end"),
        dist("attempt.model-diagnostic-events-B1vBuHmP.mjs", 293, "model_call_*"),
        dist("get-reply-DXzvDRjY.mjs", 6029, "session_start"),
        dist("get-reply-DXzvDRjY.mjs", 6009, "session_end"),
        dist("commands-reset-hooks-hwpOXaFJ.mjs", 102, "before_reset"),
    ),
    fact(
        "not_awaited",
        "`openclaw agent --local` waits, before it exits, for the hook work it tracks (a"
        " handler not awaited ends first), but that work ends for a handler once its budget"
        " runs out: a handler past its budget stops with the process; and it starts every"
        " plugin it loads, without the gateway's activation rule",
        dist("hooks-CKanWLsK.mjs", 392, "trackAsyncWork"),
        observed(
            f"openclaw {VERSION}",
            "scenarios/openclaw/12-local-start-and-budgets.yaml, two --local runs",
        ),
    ),
    fact(
        "default_timeout_s",
        "per handler: 15 s for before_tool_call, before_agent_run, before_prompt_build,"
        " before_agent_finalize; 30 s agent_end and compaction; 5 s gateway_stop; none for"
        " the rest; plugins.entries.<id>.hooks.timeouts.<hook> beats hooks.timeoutMs beats"
        " the plugin's own timeoutMs; a timeout does not cancel the handler",
        dist("hooks-CKanWLsK.mjs", 516),
        dist("loader-runtime-load-CMBCNIWa.mjs", 1875),
        doc("plugins/hooks/reference.md", 73),
    ),
    fact(
        "fail closed",
        "a throw or timeout in before_tool_call, before_agent_run or before_install"
        " blocks; every other hook fails open (logged, the handler's result skipped)",
        dist("hook-runner-global-C81Znoo2.mjs", 95),
        dist("agent-tools.before-tool-call-D6M7yTR3.mjs", 3062),
    ),
    fact(
        "permissions",
        "a non-bundled plugin needs plugins.entries.<id>.hooks.allowConversationAccess for"
        " the conversation hooks, else the hook is dropped with a warning;"
        " allowPromptInjection: false drops the prompt hooks",
        dist("loader-runtime-load-CMBCNIWa.mjs", 4296),
        dist("hook-policy-decisions-DL3kOjGW.mjs", 5),
    ),
    fact(
        "given to the model",
        "before_tool_call's blockReason as the tool's error result; before_prompt_build's"
        " and agent_turn_prepare's contexts in the prompt; before_agent_finalize's revise"
        " reason before another pass",
        dist("agent-tools.before-tool-call-D6M7yTR3.mjs", 3005),
        observed(f"openclaw {VERSION}", "the blockReason reached the model verbatim"),
    ),
    fact(
        "shown to the user",
        "before_agent_run's block message (Your message could not be sent: ...);"
        " before_agent_reply's claimed reply; event.messages of /new and /reset",
        dist("builtin-openclaw-q1hiFm14.mjs", 5622),
        doc("automation/hooks/writing-hooks.md", 114),
    ),
    fact(
        "internal hooks",
        "family handlers, then the exact key's, each awaited in turn; return values are"
        " ignored; errors are logged; no timeout but the caller's 5 s wait on"
        " gateway:shutdown",
        dist("internal-hooks-BksM5BTY.mjs", 91),
        doc("automation/hooks/event-types.md", 108),
    ),
    fact(
        "modes",
        "HOOK.md hooks load only in a gateway; session_start and the gateway's events fire"
        " only there; `openclaw agent --local` loads plugins anew for each turn",
        dist("loader-301ZJ-A-.mjs", 50, "imported only by the gateway's startup and reload"),
        observed(f"openclaw {VERSION}", "no session_start under --local"),
    ),
    fact(
        "compaction",
        "session:compact:before, before_compaction, the summary, session:compact:after,"
        " after_compaction; observe only; no manual compaction under --local",
        dist("embedded-agent-BaH7wGBd.mjs", 449),
        doc("cli/agent.md", 365),
    ),
    fact(
        "compaction",
        "an automatic compaction runs only before a model request (preflight compaction):"
        " under --local at the start of the next run, in its process, before that run's"
        " hooks; the gateway also tries right after the turn that filled the window, an"
        " attempt that ends after before_compaction; each run starts with agent:bootstrap"
        " and calls the model for the summary",
        dist("agent-runner-memory-DnzQbIgI.mjs", 541),
        doc("cli/agent.md", 365),
        observed(f"openclaw {VERSION}", "local and gateway runs with a full context window"),
    ),
    fact(
        "gateway start-up",
        "gateway:startup, gateway_start, then the cron service: cron_changed twice"
        " (action added: the agent's heartbeat and weekly skill review jobs) and"
        " cron_reconciled {reason: startup, enabled}",
        dist("server-cron-Dd6AX5Mc.mjs", 3341, "the cron_changed event's fields"),
        dist("server-start-BG4nMCFD.mjs", 1053, "cron_reconciled's event"),
        observed(f"openclaw {VERSION}", "a real gateway's start-up, in this order"),
    ),
    fact(
        "plugin start",
        "a gateway starts a plugin that is not bundled only when its manifest declares"
        " activation.onCapabilities [hook] or plugins.entries.<id>.hooks sets a hook policy"
        " (allowConversationAccess, allowPromptInjection, timeoutMs, timeouts); it says"
        " nothing of one it leaves out (hooksim warns)",
        dist("gateway-startup-plugin-loader-D5IcJB75.mjs", 48),
        dist("gateway-startup-plugin-loader-D5IcJB75.mjs", 128),
        observed(f"openclaw {VERSION}", "a gateway listing the plugins it started"),
    ),
    fact(
        "bootstrap files",
        "before a run OpenClaw writes the bootstrap files a workspace lacks (AGENTS.md,"
        " SOUL.md, IDENTITY.md, USER.md; BOOTSTRAP.md in a brand-new one) into it: a tool"
        " lists them (hooksim writes a placeholder for the templates' text); a brand-new"
        " workspace also gets `git init`",
        dist("workspace-DDLxBwAa.mjs", 656, "ensureAgentWorkspace"),
        dist("workspace-DDLxBwAa.mjs", 591, "git init in a brand-new workspace"),
        observed(f"openclaw {VERSION}", "`ls` in a real run's new workspace"),
    ),
    fact(
        "exec",
        "resolve_exec_env fires before an exec call's before_tool_call; the result carries"
        ' details (status, exitCode, aggregated output, cwd), its text "(no output)" when'
        " there is none",
        dist("bash-tools-B2oth0P7.mjs", 2934),
        dist("bash-tools-B2oth0P7.mjs", 3878),
        observed(f"openclaw {VERSION}", "resolve_exec_env right before before_tool_call"),
    ),
    fact(
        "session key",
        "the sessionKey handlers see for `openclaw agent --session-id ID`:"
        " agent:main:explicit:ID, ID lower-cased (a real run: S1 -> agent:main:explicit:s1)",
        dist("session-LWX45H--.mjs", 92),
    ),
    fact(
        "reset",
        "/new as the gateway resets a session (sessions.reset): command:new (awaited; what"
        " its handlers push to event.messages reaches no chat there, only a channel's /new"
        " routes it), before_reset with the whole stored transcript, session_end (reason"
        " new), session_start (resumedFrom), subagent_ended; the session keeps its id",
        dist("session-reset-service-z65ES5vD.mjs", 941, "command:new's context"),
        dist("session-reset-service-z65ES5vD.mjs", 1144, "the id kept"),
        dist("commands-reset-hooks-hwpOXaFJ.mjs", 59, "a channel's /new replies the messages"),
        dist("session-reset-service-z65ES5vD.mjs", 388, "session_end, then session_start"),
        observed(
            f"openclaw {VERSION}",
            "sessions.reset: command:reset, before_reset, session_end, session_start",
        ),
    ),
    fact(
        "stop",
        "before_agent_finalize's revise makes the model answer again, at most three times in a run",
        doc("plugins/hooks/prompt-and-session.md", 301),
    ),
    fact(
        "context",
        "each hook's ctx has its own keys: the turn's first hooks and the prompt hooks the"
        " session, workspace, model (modelProviderId, modelId), activeProjectKeys, trigger and"
        " the channel fields (undefined without a channel), the prompt hooks the run's trace,"
        " before_prompt_build a hookInvocation; model calls the session, model and context"
        " window; before_tool_call an abortSignal and its requester; before_message_write only"
        " agentId and sessionKey; the gateway's hooks its config, getCron and abortSignal"
        " (table CONTEXTS in messages.py)",
        dist("embedded-agent-BaH7wGBd.mjs", 9148, "before_agent_reply, before_model_resolve"),
        dist("builtin-openclaw-q1hiFm14.mjs", 6890, "the prompt hooks"),
        dist("hooks-CKanWLsK.mjs", 852, "hookInvocation"),
        dist("lifecycle-hook-helpers-BThtzTCE.mjs", 10, "before_agent_finalize, agent_end"),
        dist("attempt.model-diagnostic-events-B1vBuHmP.mjs", 275, "model calls"),
        dist("builtin-openclaw-q1hiFm14.mjs", 3502, "after_tool_call"),
        dist("hook-agent-context-C33rGaR3.mjs", 52, "the channel fields"),
        observed(
            f"openclaw {VERSION}",
            "a plugin listing Object.keys(ctx) on all 42 hooks, --local runs and a gateway",
        ),
    ),
    fact(
        "event keys",
        "some event keys are there with the value undefined: agent_end's error after a run"
        " that succeeded, after_tool_call's error after a call that did not fail, a manual"
        " compaction's after_compaction tokenCount, a fresh session_start's resumedFrom,"
        " session_end's durationMs, sessionFile, transcriptArchived and next session,"
        " before_agent_run's accountId, channelId and senderId; model calls carry the"
        " session and the context window (a compaction's no window source), model_call_ended"
        " the request and stream sizes",
        dist("builtin-openclaw-q1hiFm14.mjs", 3492, "after_tool_call's error and durationMs"),
        dist("active-sessions-shutdown-tracker-BFQRb1PT.mjs", 32, "session_end"),
        dist("attempt.model-diagnostic-events-B1vBuHmP.mjs", 259, "model calls"),
        observed(f"openclaw {VERSION}", "the same plugin, `key in event`"),
    ),
    fact(
        "config_files",
        "openclaw.json (OPENCLAW_CONFIG_PATH): plugins and hooks.internal",
        doc("automation/hooks/configuration.md", 35),
    ),
)
