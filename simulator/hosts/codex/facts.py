"""Codex CLI's facts, each with its sources (``hooksim hosts --sources`` prints them): data only,
read by the profile as ``facts``."""

from __future__ import annotations

from typing import Any

from ..sources import CODEX, bundled, code, fact, observed, release, unverified


def _codex_bin(offset: int, note: str) -> Any:
    """Codex 0.171.0's native binary, at a byte offset (``grep -boa`` finds ``note``)."""
    return _native("0.171.0", offset, note)


def _native(version: str, offset: int, note: str) -> Any:
    """A release's native binary (Linux x64), at a byte offset where ``grep -boa`` finds
    the text ``note`` quotes before its colon."""
    return bundled(
        "@openai/codex-linux-x64",
        f"{version}-linux-x64",
        "vendor/x86_64-unknown-linux-musl/bin/codex",
        offset,
        note,
    )


# The commits on openai/codex main the citations read (each file as last stored).
TURN_RS = "000c857ecc17e5ab40a985bdaa40816450ee5ebf"
COMPACT_RS = "0082977cebb9fbd524046914dbc4305e5b8e0b95"
RUNNER_RS = "017466574b7728379ab53e9c279433388c089ff1"
# hook_runtime.rs as hooks first shipped (SessionStart and UserPromptSubmit only).
HOOK_RUNTIME_RS = "4522c8bed2807f53f0debc5a07ede43f1e9ad48f"
MATCHER_RS = "86b5077fc4b77674bb322f7ba580f6bb00e711e4"  # events/common.rs, read line by line
PROMPT_RS = "3b441006b5937b413d4c710c9e474164e8e64f18"  # events/user_prompt_submit.rs
HOOK_RUNTIME_MAIN = "00767bcebd39377e3a36a80b8384756cf82ee70a"  # core/src/hook_runtime.rs
ITEMS_RS = "01baf68dc7a70edaae9f24bbb01accaf18e9bf52"  # protocol/src/items.rs
COMMON_RS = "0b9770ed4bc3ddf3025c5c422db1df83addd7f7c"  # hooks/src/events/common.rs
# session_end.rs as mirrored from openai/codex main by foltz/openai-codex.
SESSION_END_RS = "8e100f0085f1ed35b372e9af1aa478d644c072bf"
FEATURES_RS = "5fb56e2cf1385de438c220cb2a555a7d9e8bf675"  # features/src/lib.rs
ENGINE_RS = "98ec2f8a99258563f7e09406384e378040b3ffd3"  # hooks/src/engine/mod.rs


def _src(commit: str, path: str, line: int | str, note: str = "") -> Any:
    return code(CODEX, commit, f"codex-rs/{path}", line, note)


FACTS = (
    fact(
        "transcript",
        "the rollout JSONL at ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl:"
        " {timestamp, ordinal, type, payload} lines; a session's metadata, Codex's"
        " instructions and the turn's context before SessionStart, a prompt after"
        " UserPromptSubmit, a call before PreToolUse, its output after PostToolUse, a reply"
        " before Stop, a blocked Stop's <hook_prompt> after it, task_complete after the last"
        " Stop, a compaction between PreCompact and PostCompact",
        _codex_bin(113675, "rollout-"),
        _codex_bin(853753, "replacement_history"),
        observed("0.171.0", "codex exec; tests/real/test_transcripts.py"),
    ),
    fact(
        "plugins",
        "plugin hooks exist (a plugin's hooks/hooks.json or plugin.json hooks, with"
        " CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA), for plugins installed from a"
        " marketplace and trusted by fingerprint; hooksim refuses plugins: on Codex",
        _codex_bin(705324, "plugin.json#hooks["),
        _codex_bin(193937, "failed to read plugin hooks config"),
        _codex_bin(4537564, "CLAUDE_PLUGIN_ROOTCLAUDE_PLUGIN_DATA"),
        _codex_bin(328074, "hooks/src/engine/plugin_trust.rs"),
        _codex_bin(80591, "skipping plugin hook in"),
    ),
    fact(
        "SessionStart",
        "queued at launch, /clear and compaction; the next turn runs it before"
        " UserPromptSubmit, and its continue: false ends the turn there",
        _src(
            TURN_RS,
            "core/src/session/turn.rs",
            "run_turn",
            "run_pending_session_start_hooks before run_hooks_and_record_inputs",
        ),
        observed("0.169.0", "SessionStart before UserPromptSubmit"),
    ),
    fact(
        "compaction",
        "PreCompact: exit 2 and decision block do not stop it, continue: false"
        " does; PostCompact: continue: false stops the turn",
        _src(
            COMPACT_RS,
            "hooks/src/events/compact.rs",
            275,
            "parse_pre_completed: continue: false sets should_stop",
        ),
        _src(
            COMPACT_RS,
            "hooks/src/events/compact.rs",
            301,
            "any other exit, 2 included, is a failed hook",
        ),
    ),
    fact(
        "SessionEnd",
        "fires at /clear (reason clear) and at the session's end (other); 1 s"
        " default timeout, 3 s cap; output only logged",
        code(
            "foltz/openai-codex",
            SESSION_END_RS,
            "codex-rs/hooks/src/events/session_end.rs",
            "SESSION_END_DEFAULT_TIMEOUT_SEC",
            "a mirror of openai/codex main",
        ),
        observed("0.169.0", "reason other at the end of each exec"),
    ),
    unverified(
        "SessionEnd since",
        "absent at 0082977c (about 0.129) and in real 0.141.0; real 0.150.0 and 0.168.0"
        " fire it; the version that added it, after 0.141.0, is not settled; hooksim"
        " replays every version before 0.150.0 without it",
        observed("0.141.0", "no SessionEnd after an exec: run in conformance-versions"),
        observed("0.150.0", "SessionEnd after each exec: run in conformance-versions"),
        observed("0.168.0", "SessionEnd after each exec: run in conformance-versions"),
    ),
    fact(
        "launch",
        "interactive (the TUI) by default; hosts.codex.launch: exec replays codex exec:"
        " each turn is a process that queues SessionStart (startup, then resume on codex"
        " exec resume) and fires SessionEnd (other) when its turn ends; an automatic"
        " compaction runs in the next exec before its turn's input, after its"
        " SessionStart(resume) was queued; codex exec has no /compact",
        _src(
            HOOK_RUNTIME_RS,
            "core/src/hook_runtime.rs",
            63,
            "run_pending_session_start_hooks takes the queued source",
        ),
        observed("0.171.0", "codex exec, then codex exec resume --last, per turn"),
    ),
    unverified(
        "exec resume of a stopped session",
        "a real 0.171.0 codex exec whose first turn a hook stopped before any model request"
        " was not resumed: the next codex exec resume --last fired SessionStart(startup) for a"
        " new session; hooksim resumes it (one run seen, the cause not read in the source)",
        observed("0.171.0", "scenarios/codex/15-continue-false-keeps-context.yaml as exec"),
    ),
    fact(
        "permission_mode",
        "default (approval on request, the TUI's); bypassPermissions under approval"
        " policy never, codex exec's default",
        _src(HOOK_RUNTIME_RS, "core/src/hook_runtime.rs", 192, "hook_permission_mode"),
        observed("0.171.0", "codex exec: bypassPermissions on every event that has it"),
    ),
    fact(
        "environment",
        "what the npm-installed Codex leaves in every hook's environment: its launcher's"
        " CODEX_MANAGED_BY_NPM=1 and CODEX_MANAGED_PACKAGE_ROOT (the package's folder), and"
        " two folders before PATH: CODEX_HOME/tmp/arg0-linux/codex-arg0XXXXXX (its aliases,"
        " named at random; tmp/arg0/ before 0.163.0; none when CODEX_HOME is under the"
        " temporary folder, TMPDIR or /tmp: 'Refusing to create helper binaries under"
        " temporary dir') and the platform package's vendor/TRIPLE/codex-path (its rg)",
        release("@openai/codex", "0.171.0", "bin/codex.js", 228, "CODEX_MANAGED_PACKAGE_ROOT"),
        release("@openai/codex", "0.171.0", "bin/codex.js", 234, "CODEX_MANAGED_BY_NPM"),
        code(
            CODEX,
            "0466841e36bc1b550c96bb937990d5429c4c7c51",
            "codex-rs/install-context/src/lib.rs",
            "CodexPackageLayout",
            "path_dir: folder that should be prepended to the PATH",
        ),
        _src(
            "0489ee4fe69bc41734043ef32af4815bd60a96a6",
            "arg0/src/lib.rs",
            "prepend_path_entry_for_codex_aliases",
            "codex_home.starts_with(&temp_root)",
        ),
        _codex_bin(3473550, "codex-arg0"),
        _codex_bin(2823202, "codex-path"),
        _native("0.163.0", 243664291, "tmplinuxcodex-arg0: tmp, the OS, the prefix"),
        _native("0.162.1", 241507443, "tmpcodex-arg0: tmp/arg0 (the newest without the OS)"),
        observed("0.171.0", "scenarios/probes/codex-environment-and-ids.yaml"),
        observed("0.162.1", "tmp/arg0/codex-arg0XXXXXX first on a hook's PATH"),
        observed("0.163.0", "tmp/arg0-linux/codex-arg0XXXXXX first on a hook's PATH"),
    ),
    fact(
        "ids",
        "a tool call's tool_use_id is the model's call id (hooksim: the scenario's, else"
        " call_1, call_2, ... through the session); PostToolUse has tool_response before"
        " tool_use_id; an automatic compaction runs at the start of the next turn, so its"
        " PreCompact and PostCompact carry that turn's turn_id",
        code(
            CODEX,
            "0082977cebb9fbd524046914dbc4305e5b8e0b95",
            "codex-rs/hooks/src/events/post_tool_use.rs",
            "command_input_json",
            "tool_response, then tool_use_id",
        ),
        observed("0.171.0", "scenarios/probes/codex-environment-and-ids.yaml"),
    ),
    fact(
        "mid-turn compaction",
        "when a response asking for tool calls reports a context over the limit, Codex"
        " compacts once they are done, before the turn's next request: PreCompact(auto)"
        " and PostCompact(auto) with the turn's turn_id, then SessionStart(compact) at once"
        " (a tool call's compact: auto)",
        _src(
            TURN_RS,
            "core/src/session/turn.rs",
            "run_turn",
            "token_limit_reached && needs_follow_up: run_auto_compact(..., MidTurn)",
        ),
        observed("0.171.0", "scenarios/probes/codex-mid-turn-compaction.yaml"),
    ),
    fact(
        "refused output",
        "a hook's JSON that a PreToolUse may not give (continue false, stopReason,"
        " suppressOutput, permissionDecision allow without updatedInput or ask, deny without"
        " a reason, a reason without a decision, decision approve) or a PostToolUse may not"
        " (suppressOutput, a reason without decision block, block without a reason) makes"
        " the hook failed: only its systemMessage counts (no block, no context, no stop)",
        code(
            CODEX,
            "0ea83813ef8631debc8ad777641fe532f0deffc2",
            "codex-rs/hooks/src/engine/output_parser.rs",
            "unsupported_pre_tool_use_universal",
        ),
        code(
            CODEX,
            "0082977cebb9fbd524046914dbc4305e5b8e0b95",
            "codex-rs/hooks/src/events/pre_tool_use.rs",
            "parse_completed",
            "invalid_reason: status Failed, nothing else read",
        ),
        _codex_bin(4570872, "PostToolUse hook returned reason without decision"),
        observed("0.171.0", "scenarios/probes/codex-rejected-output.yaml"),
    ),
    fact(
        "transcript_path",
        "the session's rollout file, on every event",
        _src(HOOK_RUNTIME_RS, "core/src/hook_runtime.rs", 74, "current_rollout_path"),
        observed("0.171.0", "a path, never null"),
    ),
    fact(
        "StopFailure",
        "fires when the model request fails",
        _src("72cdcc98d917b716f5dcb83739e90af8da9363f9", "hooks/src/events/stop_failure.rs", 1),
    ),
    unverified(
        "Interrupt",
        "an interrupted turn fires Interrupt; its payload beyond the common fields is not modelled",
        _src("27c3d5f423e7d5d9b261043e85f29bee522d003d", "hooks/src/events/interrupt.rs", 1),
    ),
    fact(
        "spawn",
        "/bin/bash -c COMMAND (0.169.0); $SHELL -lc (/bin/sh -lc without SHELL) at 0082977c",
        _src(
            RUNNER_RS,
            "hooks/src/engine/command_runner.rs",
            69,
            "build_command: the shell core configures; $SHELL -lc without one",
        ),
        observed("0.169.0", "argv /bin/bash -c"),
    ),
    unverified(
        "spawn since",
        "which version moved from $SHELL -lc to /bin/bash -c: real 0.141.0, 0.150.0 and"
        " 0.168.0 run /bin/bash -c (runs in conformance-versions); hooksim replays $SHELL -lc"
        " before 0.141.0, whose codex exec runs no hooks",
        observed("0.141.0", "a hook's shell /bin/bash, not a login shell"),
    ),
    fact(
        "parallel",
        "all matching hooks of an event run at once",
        _src(
            COMPACT_RS,
            "hooks/src/engine/dispatcher.rs",
            189,
            "execute_handlers: FuturesUnordered",
        ),
    ),
    fact(
        "updatedInput",
        "a PreToolUse hook's updatedInput replaces the tool's input (apply_patch's patch as"
        " command) only with permissionDecision allow, else the hook failed; of several, the"
        " last to finish wins (hooksim: the last in config order); hooksim's PostToolUse"
        " gets the input as run",
        _src(
            "0ea83813ef8631debc8ad777641fe532f0deffc2",
            "hooks/src/engine/output_parser.rs",
            "parse_pre_tool_use",
            "updatedInput without permissionDecision:allow is unsupported",
        ),
        _src(COMPACT_RS, "hooks/src/events/pre_tool_use.rs", "latest_updated_input"),
    ),
    fact(
        "async",
        "async: true hooks are started and not awaited; hooksim runs them after the step"
        " and passes nothing of their output on",
        _src(
            COMPACT_RS,
            "hooks/src/engine/dispatcher.rs",
            187,
            "execute_handlers: async handlers spawned, not awaited",
        ),
        observed("0.171.0", "a 2 s async UserPromptSubmit hook did not hold the turn"),
    ),
    unverified(
        "async output",
        "the source queues an async hook's context for the next accepted user turn, as"
        " <async_hook_outputs>; 0.171.0 passed a fast one's context in the same turn,"
        " unwrapped, and codex exec killed an unfinished one when its turn ended: when, or"
        " whether, it reaches the model depends on the machine's speed, so no scenario"
        " pins it",
        _src(COMPACT_RS, "hooks/src/engine/async_output.rs", 40, "AsyncHookOutputBatch"),
        observed("0.171.0", "probe: async hooks of 0 s and 2 s under codex exec"),
    ),
    fact(
        "matcher",
        "'' or '*' match all; only letters, digits, _ and |: a list of exact names"
        " ('Bash' does not match BashOutput); anything else: a regex, unanchored ('^Bash'"
        " matches BashOutput), an invalid one matches nothing; UserPromptSubmit and Stop"
        " ignore their matcher, PreCompact and PostCompact match the trigger",
        _src(MATCHER_RS, "hooks/src/events/common.rs", 123, "matches_matcher"),
        _src(MATCHER_RS, "hooks/src/events/common.rs", 155, "is_exact_matcher"),
        _src(
            COMPACT_RS,
            "hooks/src/engine/dispatcher.rs",
            61,
            "select_handlers_for_matcher_inputs: which events read their matcher",
        ),
        observed(
            "0.171.0",
            "PreCompact and PostCompact hooks with matcher manual skip an auto compaction",
        ),
    ),
    fact(
        "default_timeout_s",
        "600 s, at least 1 s; SessionEnd 1 s, at most 3 s",
        _src(COMPACT_RS, "hooks/src/engine/discovery.rs", "timeout_sec"),
        _src(RUNNER_RS, "hooks/src/engine/command_runner.rs", 95, "killed at timeout_sec"),
    ),
    fact(
        "timeout_kills_group",
        "a hook's /bin/bash -c leads a session and process group of its own; at its timeout"
        " the group is killed with SIGKILL (TERM traps never run, a background child dies too)",
        observed("0.171.0", "pgid = sid = the hook shell's pid; both gone at a 1 s timeout"),
    ),
    fact(
        "stdout",
        "exit 0: JSON is read; other stdout that starts with { or [ is a failed hook (not"
        " context); plain text is context for SessionStart and UserPromptSubmit; a"
        " UserPromptSubmit continue: false (or block) keeps its additionalContext for later"
        " turns",
        _src(PROMPT_RS, "hooks/src/events/user_prompt_submit.rs", 185, "parse_completed"),
        _src(
            PROMPT_RS,
            "hooks/src/events/user_prompt_submit.rs",
            148,
            "context appended before continue: false is read",
        ),
        observed("0.171.0", "'{not json' on UserPromptSubmit reached no model request"),
    ),
    fact(
        "exit codes",
        "exit 2 blocks with a non-empty stderr only; any other non-zero exit"
        " is a failed hook; plain stdout is context for SessionStart and UserPromptSubmit",
        _src(
            PROMPT_RS,
            "hooks/src/events/user_prompt_submit.rs",
            199,
            "exit 2: the reason is stderr, when not empty",
        ),
        _src(COMPACT_RS, "hooks/src/events/stop.rs", "parse_completed"),
    ),
    fact(
        "given to the model",
        "a denied tool call's result is 'Command blocked by PreToolUse hook: REASON. Command:"
        " COMMAND' (Bash, apply_patch) or 'Tool call blocked by PreToolUse hook: REASON."
        " Tool: TOOL', every blocking hook's reason joined by a blank line; a blocked Stop's"
        " reason continues the turn as a user message of one <hook_prompt"
        ' hook_run_id="stop:N:FILE">REASON</hook_prompt> per blocking hook, the reason'
        " trimmed and escaped as XML text (& < >), N the hook's number among all the hooks"
        " (event by event), FILE the hooks file",
        code(
            CODEX,
            HOOK_RUNTIME_MAIN,
            "codex-rs/core/src/hook_runtime.rs",
            "run_pre_tool_use_hooks",
        ),
        _src(COMMON_RS, "hooks/src/events/common.rs", 11, "join_text_chunks"),
        _src(
            COMPACT_RS,
            "hooks/src/events/stop.rs",
            "parse_completed",
            "continuation_prompt: the trimmed reason, one fragment per hook",
        ),
        code(
            CODEX,
            ITEMS_RS,
            "codex-rs/protocol/src/items.rs",
            "build_hook_prompt_message",
            "quick_xml",
        ),
        observed(
            "0.171.0",
            "the fake model's requests; scenarios/across/guard-reason.yaml,"
            " scenarios/across/stop-reason.yaml",
        ),
    ),
    unverified(
        "hook_run_id numbering",
        "where StopFailure and Interrupt hooks sit in the numbering of a hook_run_id (after"
        " Stop, here; SessionEnd's before Stop was seen in real 0.171.0 runs)",
    ),
    unverified(
        "PostToolUse block",
        "what a PostToolUse decision block gives the model (given plain)",
    ),
    unverified(
        "shown to the user",
        "a systemMessage, a stopReason and a blocked prompt's reason are entries of the"
        " hook's run (warning, stop, feedback), shown as they are; how the TUI draws them is"
        " not read, and codex exec --json prints none",
        _src(
            COMPACT_RS,
            "hooks/src/events/stop.rs",
            "parse_completed",
            "HookOutputEntryKind Warning, Stop, Feedback",
        ),
    ),
    fact(
        "stop_cap",
        "none: a blocking Stop hook continues the turn each time",
        _src(TURN_RS, "core/src/session/turn.rs", "run_turn", "stop_hook_active loop"),
    ),
    fact(
        "trust",
        "project and user hooks do not run until trusted",
        observed("0.169.0", "hooks.json silently skipped until trusted"),
        observed(
            "0.171.0",
            "without --dangerously-bypass-hook-trust no hook ran, and codex exec said nothing",
        ),
    ),
    fact(
        "config_files",
        "~/.codex/hooks.json, [hooks] in config.toml, <repo>/.codex/",
        _src(COMPACT_RS, "hooks/src/engine/discovery.rs", "discover"),
        observed("0.171.0", "the same hooks under [hooks] in config.toml ran as from hooks.json"),
    ),
    fact(
        "disabled",
        "hooks = false under [features] (its old name codex_hooks too) turns hooks off:"
        " Codex loads none (the feature is stable and on by default); the last config.toml"
        " that sets it decides, a trusted project's over the user's",
        _src(
            FEATURES_RS,
            "features/src/lib.rs",
            "FEATURES",
            "Feature::CodexHooks, key hooks, Stage::Stable, default_enabled: true",
        ),
        _src(
            ENGINE_RS,
            "hooks/src/engine/mod.rs",
            "ClaudeHooksEngine::new",
            "if !enabled: no handlers",
        ),
        _codex_bin(4278754, "codex_hooks: a legacy feature key"),
        observed(
            "0.171.0",
            "codex features list: hooks true; false with hooks = false or"
            " codex_hooks = false in config.toml; a trusted project's setting wins",
        ),
    ),
)
