"""Hermes's facts, each with its sources (``hooksim hosts --sources`` prints them): data only,
read by the profile as ``facts``."""

from __future__ import annotations

from ..sources import HERMES, Source, code, fact, observed, release


def _hermes(path: str, line: int, note: str = "") -> Source:
    """A line of the released hermes-agent this profile models."""
    return release("hermes-agent", "0.19.0", path, line, note)


FACTS = (
    fact(
        "transcript",
        "no transcript_path in any payload; the session store, $HERMES_HOME/state.db"
        " (SQLite: sessions and messages), is what a hook can read, by HERMES_HOME and"
        " HERMES_SESSION_ID in its environment; the session's row before the first"
        " pre_llm_call, the prompt and a tool call flushed before pre_tool_call, the rest of"
        " the turn before post_llm_call",
        _hermes("hermes_state.py", 757, "SCHEMA_SQL"),
        _hermes("agent/conversation_loop.py", 5040, "flush before the tools run"),
        _hermes("agent/agent_init.py", 1292, "HERMES_SESSION_ID"),
        observed("0.19.0", "a hook reading state.db at every event"),
    ),
    fact(
        "plugins",
        "a plugin (~/.hermes/plugins/NAME: plugin.yaml and __init__.py) registers Python"
        " callbacks with ctx.register_hook; Hermes calls them in its own process, so"
        " hooksim refuses plugins: on Hermes",
        _hermes("hermes_cli/plugins.py", 19, "plugin.yaml and register(ctx)"),
        _hermes("hermes_cli/plugins.py", 1158, "register_hook"),
    ),
    fact(
        "events",
        "on_session_start before the first pre_llm_call; pre_llm_call each turn;"
        " pre_tool_call/post_tool_call per tool call; post_llm_call for a reply;"
        " on_session_end after every turn that reaches finalize_turn; /new fires"
        " on_session_finalize then on_session_reset; quitting fires on_session_finalize",
        _hermes("agent/conversation_loop.py", 391, "on_session_start"),
        _hermes("agent/turn_context.py", 697, "pre_llm_call"),
        _hermes("agent/turn_finalizer.py", 485, "post_llm_call"),
        _hermes("agent/turn_finalizer.py", 616, "on_session_end"),
        _hermes("cli.py", 7025, "on_session_finalize / on_session_reset at /new"),
        _hermes("cli.py", 1261, "on_session_finalize at shutdown"),
    ),
    fact(
        "valid events",
        "the hooks: keys Hermes accepts; any other key is skipped with a warning",
        _hermes("hermes_cli/plugins.py", 135),
        _hermes("agent/shell_hooks.py", 305),
    ),
    fact(
        "compaction",
        "no compaction event reaches shell hooks: a compaction step fires nothing",
        _hermes("hermes_cli/plugins.py", 135, "no pre/post compaction hook"),
    ),
    fact(
        "failed model call",
        "a failed call returns early from the conversation loop: pre_llm_call only, no"
        " post_llm_call, no on_session_end",
        _hermes("agent/conversation_loop.py", 4076),
        observed("hermes-agent 0.19.0", "tests/conformance"),
    ),
    fact(
        "empty reply",
        "retried, then answered with Hermes' own explanation: post_llm_call carries it as"
        " assistant_response",
        _hermes("agent/conversation_loop.py", 5394),
        _hermes("run_agent.py", 3143),
    ),
    fact(
        "task_id",
        "the CLI runs each turn with task_id = the session id",
        _hermes("cli.py", 12090),
    ),
    fact(
        "environment",
        "hooks inherit Hermes' own environment: HERMES_QUIET, HERMES_INTERACTIVE (the CLI),"
        " HERMES_SESSION_ID once the agent starts, and the CLI's terminal and browser"
        " settings (TERMINAL_CWD = the working directory, TERMINAL_ENV=local, ...)",
        _hermes("cli.py", 697),
        _hermes("cli.py", 718),
        observed("hermes-agent 0.19.0", "hooksim compare --tool hermes --real"),
    ),
    fact(
        "spawn",
        "no shell: shlex.split of the command with ~ expanded; subprocess.run with stdin",
        _hermes("agent/shell_hooks.py", 451),
        _hermes("agent/shell_hooks.py", 462),
    ),
    fact(
        "parallel",
        "an event's callbacks run one after another, in config order",
        _hermes("hermes_cli/plugins.py", 1915),
    ),
    fact(
        "matcher",
        "a regex tested with re.fullmatch on the tool name; pre_tool_call and post_tool_call"
        " only (elsewhere ignored with a warning); an invalid regex means equality",
        _hermes("agent/shell_hooks.py", 193),
        _hermes("agent/shell_hooks.py", 387),
    ),
    fact(
        "default_timeout_s",
        "60 s; below 1 the default, above 300 clamped to 300",
        _hermes("agent/shell_hooks.py", 137),
        _hermes("agent/shell_hooks.py", 412),
    ),
    fact(
        "exit codes",
        "a non-zero exit (2 included) is logged; stdout is still read. Not released yet:"
        " later source makes exit 2 block a pre_tool_call, and adds fail_closed",
        _hermes("agent/shell_hooks.py", 524),
        code(
            HERMES,
            "00067189dfecf833d4d009c2dd977ae85cf800e0",
            "agent/shell_hooks.py",
            5,
            "after 0.19.0: exit 2 blocks pre_tool_call",
        ),
    ),
    fact(
        "stdout",
        "one JSON value: {context} from pre_llm_call joins the turn; {action: block} or"
        " {decision: block} stops a pre_tool_call's tool; anything else is ignored",
        _hermes("agent/shell_hooks.py", 599),
        _hermes("agent/shell_hooks.py", 616),
    ),
    fact(
        "given to the model",
        "a blocked tool's message is its result, json.dumps({'error': MESSAGE},"
        " ensure_ascii=False); a pre_verify continue's message is the next user message, as"
        " it is; the user is shown nothing of a shell hook (its failures are logged)",
        _hermes("agent/tool_executor.py", 469),
        _hermes("agent/conversation_loop.py", 5615),
        _hermes("agent/shell_hooks.py", 517, "stderr logged"),
        observed("hermes-agent 0.19.0", "scenarios/across/guard-reason.yaml"),
    ),
    fact(
        "payload",
        "hook_event_name, tool_name, tool_input, session_id, cwd, extra (the other keyword"
        " arguments), as json.dumps(ensure_ascii=False, default=str)",
        _hermes("agent/shell_hooks.py", 536),
    ),
    fact(
        "config_files",
        "the hooks: block of ~/.hermes/config.yaml; a hook runs once consented"
        " (--accept-hooks, HERMES_ACCEPT_HOOKS=1, hooks_auto_accept: true, or the TTY prompt)",
        _hermes("agent/shell_hooks.py", 238),
        _hermes("agent/shell_hooks.py", 266),
    ),
    fact(
        "disabled",
        "no setting in config.yaml turns hooks off; --safe-mode (HERMES_SAFE_MODE=1) skips"
        " registering every shell hook for that run",
        _hermes("agent/shell_hooks.py", 232, 'env_var_enabled("HERMES_SAFE_MODE")'),
    ),
)
