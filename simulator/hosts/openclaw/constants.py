"""The names and numbers this host's session loop and profile share."""

from __future__ import annotations

VERSION = "2026.9.6"


# dist/hooks-CKanWLsK.mjs:408-451, pluginHookNameSet: every name api.on accepts.
HOOK_NAMES = (
    "before_model_resolve",
    "agent_turn_prepare",
    "before_prompt_build",
    "before_agent_reply",
    "model_call_started",
    "model_call_ended",
    "llm_input",
    "llm_output",
    "before_agent_finalize",
    "agent_end",
    "before_compaction",
    "after_compaction",
    "before_reset",
    "inbound_claim",
    "channel_pairing_requested",
    "message_received",
    "message_sending",
    "reply_payload_sending",
    "message_sent",
    "before_tool_call",
    "after_tool_call",
    "tool_result_persist",
    "before_message_write",
    "session_start",
    "session_end",
    "subagent_delivery_target",
    "subagent_spawned",
    "subagent_progress",
    "subagent_ended",
    "gateway_start",
    "gateway_stop",
    "heartbeat_prompt_contribution",
    "cron_reconciled",
    "cron_changed",
    "skill_proposal_evaluate",
    "skill_proposal_changed",
    "skill_changed",
    "before_dispatch",
    "reply_dispatch",
    "before_install",
    "before_agent_run",
    "resolve_exec_env",
)
# Same file :453-457 and :459-469.
PROMPT_INJECTION_HOOKS = (
    "agent_turn_prepare",
    "before_prompt_build",
    "heartbeat_prompt_contribution",
)
CONVERSATION_HOOKS = (
    "before_model_resolve",
    "agent_turn_prepare",
    "before_prompt_build",
    "before_agent_reply",
    "llm_input",
    "llm_output",
    "before_agent_finalize",
    "agent_end",
    "before_agent_run",
)
# dist/internal-hook-types-Deg4lhm7.mjs:2-33.
INTERNAL_FAMILIES = ("command", "session", "agent", "gateway", "message")
INTERNAL_KEYS = (
    "agent:bootstrap",
    "command:new",
    "command:reset",
    "command:stop",
    "gateway:pre-restart",
    "gateway:shutdown",
    "gateway:startup",
    "message:preprocessed",
    "message:received",
    "message:sent",
    "message:transcribed",
    "session:auto-reset",
    "session:compact:after",
    "session:compact:before",
    "session:patch",
)
# How each hook runs (the runner's bind* calls, dist/hooks-CKanWLsK.mjs:1218-1305); the rest
# observe (runVoidHook).
MODIFYING = (
    "before_model_resolve",
    "agent_turn_prepare",
    "before_prompt_build",
    "before_agent_finalize",
    "before_agent_run",
    "before_tool_call",
    "before_install",
    "message_sending",
    "reply_payload_sending",
    "subagent_delivery_target",
    "heartbeat_prompt_contribution",
    "resolve_exec_env",
)
CLAIMING = ("before_agent_reply", "inbound_claim", "before_dispatch", "reply_dispatch")
SYNCHRONOUS = ("tool_result_persist", "before_message_write")
# The merge of each modify hook's results (the runner's mergeResults), by name.
MERGES = {
    "before_model_resolve": "model_resolve",
    "agent_turn_prepare": "turn_prepare",
    "heartbeat_prompt_contribution": "turn_prepare",
    "before_prompt_build": "prompt_build",
    "before_agent_finalize": "finalize",
    "before_agent_run": "agent_run",
    "before_tool_call": "tool_call",
}
# The keys each merge reads of a handler's result (the runner's mergeResults, as
# replay/dispatch.mjs MERGES copies it); a merge not here reads the result whole.
READ_KEYS = {
    "model_resolve": ("modelOverride", "providerOverride"),
    "turn_prepare": ("prependContext", "appendContext"),
    "prompt_build": (
        "systemPrompt",
        "prependContext",
        "appendContext",
        "toolsAllow",
        "prependSystemContext",
        "appendSystemContext",
    ),
    "finalize": ("action", "reason", "retry"),
    "tool_call": ("params", "block", "blockReason", "requireApproval"),
    "agent_run": ("outcome", "reason", "message", "category", "metadata"),
}
# dist/hooks-CKanWLsK.mjs:516-535: the default budget of each hook, per handler.
BUDGETS_MS = {
    "agent_end": 30_000,
    "channel_pairing_requested": 2_000,
    "before_compaction": 30_000,
    "after_compaction": 30_000,
    "skill_changed": 30_000,
    "skill_proposal_changed": 30_000,
    "gateway_stop": 5_000,
    "before_agent_run": 15_000,
    "before_install": 15_000,
    "before_tool_call": 15_000,
    "before_agent_finalize": 15_000,
    "before_prompt_build": 15_000,
    "message_sending": 15_000,
    "reply_payload_sending": 15_000,
    "resolve_exec_env": 15_000,
    "skill_proposal_evaluate": 120_000,
}
# dist/hook-runner-global-C81Znoo2.mjs:95-99.
FAIL_CLOSED = ("before_agent_run", "before_install", "before_tool_call")
# docs/automation/hooks/event-types.md:108-110: the caller's bounded wait on these.
INTERNAL_WAITS_MS = {"gateway:shutdown": 5_000, "gateway:pre-restart": 10_000}
# dist/agent-tools.before-tool-call-D6M7yTR3.mjs:2756 and :3005-3011 (TOOL_HOOK_FAILED).
TOOL_BLOCKED = "Tool call blocked by plugin hook"
# dist/hooks-CKanWLsK.mjs:296-305, resolveBlockMessage.
BLOCK_PREFIX = "Your message could not be sent"
