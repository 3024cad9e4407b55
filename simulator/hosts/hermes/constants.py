"""The names and numbers this host's session loop and profile share."""

from __future__ import annotations

# hermes_cli.plugins.VALID_HOOKS, v0.19.0.
VALID_HOOKS = frozenset(
    {
        "pre_tool_call",
        "post_tool_call",
        "transform_terminal_output",
        "transform_tool_result",
        "transform_llm_output",
        "pre_llm_call",
        "post_llm_call",
        "pre_verify",
        "pre_api_request",
        "post_api_request",
        "api_request_error",
        "on_session_start",
        "on_session_end",
        "on_session_finalize",
        "on_session_reset",
        "subagent_start",
        "subagent_stop",
        "pre_gateway_dispatch",
        "pre_approval_request",
        "post_approval_response",
        "kanban_task_claimed",
        "kanban_task_completed",
        "kanban_task_blocked",
    }
)
TOOL_EVENTS = frozenset({"pre_tool_call", "post_tool_call"})
DEFAULT_TIMEOUT_S = 60
MAX_TIMEOUT_S = 300
TELEMETRY_SCHEMA_VERSION = "hermes.observer.v1"
FILE_MUTATING_TOOLS = frozenset({"write_file", "patch"})  # run_agent._FILE_MUTATING_TOOLS
DEFAULT_MAX_VERIFY_NUDGES = 3  # agent.verify_hooks.DEFAULT_MAX_VERIFY_NUDGES
EMPTY_RETRIES = 3  # conversation_loop: an empty reply is retried 3 times
# close_interrupted_tool_sequence's text after an interrupted tool turn: the conversation
# loop's "waiting for model response" notice, whose elapsed time hooksim takes as 0.
INTERRUPTED_WAITING = "Operation interrupted: waiting for model response (0.0s elapsed)."
# What Hermes answers in the assistant's place after an empty reply and its retries:
# run_agent.AIAgent._format_turn_completion_explanation("empty_response_exhausted").
EMPTY_REPLY_EXPLANATION = (
    "⚠️ No reply: the model returned empty content after retries and any fallback providers."
    " Try `continue`, switch model/provider, or inspect the tool output above."
)


# What the CLI exports from its default terminal and browser settings (cli.py, load_cli_config),
# so every hook inherits it; TERMINAL_CWD is the working directory.
_IMAGE = "nikolaik/python-nodejs:python3.11-nodejs20"
CLI_TOOL_ENV = {
    "TERMINAL_ENV": "local",
    "TERMINAL_HOME_MODE": "auto",
    "TERMINAL_LIFETIME_SECONDS": "300",
    "TERMINAL_DOCKER_IMAGE": _IMAGE,
    "TERMINAL_DOCKER_FORWARD_ENV": "[]",
    "TERMINAL_SINGULARITY_IMAGE": f"docker://{_IMAGE}",
    "TERMINAL_MODAL_IMAGE": _IMAGE,
    "TERMINAL_DAYTONA_IMAGE": _IMAGE,
    "TERMINAL_DOCKER_VOLUMES": "[]",
    "TERMINAL_DOCKER_MOUNT_CWD_TO_WORKSPACE": "False",
    "BROWSER_INACTIVITY_TIMEOUT": "120",
}
