"""OpenAI Codex CLI, as ``codex-rs`` on main and a real 0.169.0 run show it (0.129.0 on).

Timeline: ``SessionStart`` is *queued* (at launch, after ``/clear``, after a compaction) and the
next turn runs it first, before ``UserPromptSubmit`` (``run_turn`` drains pending session-start
hooks before it records the turn's input); a ``continue: false`` from it ends the turn there.
Per turn: ``UserPromptSubmit``, tool events, then ``Stop``; a block turns the reason into a
continuation prompt and ``Stop`` fires again with ``stop_hook_active: true``, with no cap. An API
error fires ``StopFailure``. Compaction: ``PreCompact`` (exit 2 and ``decision: block`` do not
stop it, ``continue: false`` does), ``PostCompact`` (``continue: false`` stops the turn), and
``SessionStart(compact)`` queued. ``SessionEnd`` fires at ``/clear`` (reason ``clear``) and when
the session ends (``other``), with a 1 s default timeout capped at 3 s.

Hooks run as ``/bin/bash -c`` (0.129.0 ran ``$SHELL -lc``), all matching hooks of an event at
once; ``async: true`` hooks are not awaited. A matcher of letters, digits, ``_`` and ``|`` is a
list of exact names; anything else is an unanchored regex. Exit 2 blocks only with a non-empty
stderr; without one the hook just failed. Other codes fail open; plain stdout is context for
``SessionStart`` and ``UserPromptSubmit``. Project hooks do not run until they are trusted.

Run as ``codex exec`` (``hosts.codex.launch: exec``), each turn is a process of its own: it
queues ``SessionStart`` (``startup``, then ``resume``), ends with ``SessionEnd(other)``, runs
under approval policy never (``permission_mode: bypassPermissions``) and has no ``/compact``.
"""

from __future__ import annotations

import dataclasses
import random
import re
import string
import sys
import uuid
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from platform import machine
from typing import Any

from ..steps import Compact, NewSession, Turn
from .base import (
    ConfigError,
    Firing,
    HookRun,
    HookSpec,
    Host,
    Session,
    SessionInfo,
    Verdict,
    additional_context,
    as_version,
    first_line,
    parse_json_output,
    parse_matcher_groups,
    parse_version,
)
from .claude_code import STOP_FAILURE_ERRORS as CLAUDE_STOP_FAILURE_ERRORS
from .claude_code import ClaudeStyleReading, payload_of, response_before_id
from .conversation import COMPACTED, PROMPT, USER, Message
from .sources import CODEX, bundled, code, fact, observed, release, unverified


def _codex_bin(offset: int, note: str) -> Any:
    """Codex 0.171.0's native binary, at a byte offset (``grep -boa`` finds ``note``)."""
    return _native("0.171.0", offset, note)


def _native(version: str, offset: int, note: str) -> Any:
    """A release's native binary (Linux x64), at a byte offset where ``grep -boa`` finds
    the text ``note`` quotes before its colon."""
    return bundled(
        "@openai/codex-linux-x64", f"{version}-linux-x64",
        "vendor/x86_64-unknown-linux-musl/bin/codex", offset, note,
    )  # fmt: skip


# Codex classifies a failed turn as Claude Code does, with ``overloaded`` of its own
# (openai/codex ``codex-rs/hooks`` StopFailure, commit 72cdcc98).
STOP_FAILURE_ERRORS = {**CLAUDE_STOP_FAILURE_ERRORS, "overloaded": "overloaded"}

EVENTS = frozenset(
    {
        "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
        "SessionStart", "UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop", "StopFailure",
        "SessionEnd", "Interrupt",
    }
)  # fmt: skip
# dispatcher.rs select_handlers_for_matcher_inputs: UserPromptSubmit and Stop drop their
# matcher; PreCompact and PostCompact match the trigger (real 0.171.0 too).
MATCHER_EVENTS = frozenset(
    {"PreToolUse", "PermissionRequest", "PostToolUse", "SessionStart", "SessionEnd",
     "SubagentStart", "SubagentStop", "StopFailure", "PreCompact", "PostCompact"}
)  # fmt: skip
TURN_SCOPE = frozenset(
    {"PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "Stop", "PreCompact",
     "PostCompact"}
)  # fmt: skip
# The order Codex numbers its hooks in, event by event (codex_config HookEventsToml
# into_matcher_groups). SessionEnd, added later, comes before Stop: real 0.171.0 runs numbered
# a Stop hook after every other event's (hook_run_id "stop:7" and "stop:8"); where StopFailure
# and Interrupt sit is not settled (after Stop, here).
DISPLAY_ORDER = (
    "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact", "SessionStart",
    "UserPromptSubmit", "SubagentStart", "SubagentStop", "SessionEnd", "Stop",
)  # fmt: skip
SESSION_END_DEFAULT_S = 1.0  # session_end.rs SESSION_END_DEFAULT_TIMEOUT_SEC
SESSION_END_MAX_S = 3.0  # SESSION_END_MAX_TIMEOUT_SEC: below the app server's 5 s shutdown
EXACT_MATCHER = re.compile(r"[A-Za-z0-9_|]+")  # common.rs is_exact_matcher
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


class CodexSession(Session):
    host: Codex

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queued: list[str] = []  # SessionStart sources, first in first out
        self.turn_id = ""
        self.next_turn_id = ""  # the next turn's, taken by an automatic compaction before it
        self.running = False  # exec: a `codex exec` process is running for this session

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        payload: dict[str, Any] = {"session_id": self.info.session_id}
        if event in TURN_SCOPE:
            payload["turn_id"] = self.turn_id
        transcript = self.info.transcript_path if self.host.sends_transcript_path else None
        payload.update(
            transcript_path=transcript, cwd=self.info.cwd, hook_event_name=event,
            model=self.info.model,
        )  # fmt: skip
        if event not in ("PreCompact", "PostCompact", "SessionEnd", "Interrupt"):
            # hook_permission_mode: approval policy never (codex exec's) is bypassPermissions.
            payload["permission_mode"] = "bypassPermissions" if self.host.exec_launch else "default"
        if event == "SessionEnd":
            del payload["model"]
        payload.update(fields)
        return response_before_id(payload)

    def told(self, firing: Firing) -> list[str]:
        """What the model gets when the session goes on with a block. A denied tool call: its
        result, every blocking hook's reason joined by a blank line (hook_runtime.rs
        ``run_pre_tool_use_hooks``; common.rs ``join_text_chunks``). A blocked stop: one
        ``<hook_prompt>`` per blocking hook, the reason escaped as XML text, in the user message
        that continues the turn (stop.rs ``parse_completed``; items.rs
        ``build_hook_prompt_message``)."""
        blocking = [run for run in firing.runs if run.told]
        if not blocking:
            return []
        if firing.event == "PreToolUse":
            reason = "\n\n".join(str(run.told) for run in blocking)
            payload = payload_of(blocking[0])
            tool = payload.get("tool_name")
            tool_input = payload.get("tool_input")
            command = tool_input.get("command") if isinstance(tool_input, dict) else None
            if tool in ("Bash", "apply_patch") and isinstance(command, str):
                return [f"Command blocked by PreToolUse hook: {reason}. Command: {command}"]
            return [f"Tool call blocked by PreToolUse hook: {reason}. Tool: {tool}"]
        if firing.event in ("Stop", "SubagentStop"):
            source = f"{self.info.home}/.codex/hooks.json"  # the user's hooks file
            label = "stop" if firing.event == "Stop" else "subagent_stop"
            return [
                f'<hook_prompt hook_run_id="{label}:{run.spec.order if run.spec else 0}:{source}">'
                f"{xml_text(str(run.told))}</hook_prompt>"
                for run in blocking
            ]
        return [str(run.told) for run in blocking]

    def _run_queued_session_starts(self) -> bool:
        """Run the queued SessionStarts, first in first out; False when one says stop."""
        while self.queued:
            source = self.queued.pop(0)
            if source == "clear":  # the new session's rollout starts with its first turn
                self.said.started(source, self.info.session_id)
            started = self.fire(
                "SessionStart", self.payload("SessionStart", source=source), match=source
            )
            if self.halted(started):
                return False
        return True

    def _start(self) -> None:
        """The host process starts for this session and queues its SessionStart: ``startup``
        the first time, ``resume`` for each later ``codex exec resume``."""
        if self.running or (self.launched and not self.host.exec_launch):
            return
        source = "resume" if self.launched else "startup"
        self.queued.append(source)
        self.said.started(source, self.info.session_id)  # the rollout's lines come first
        self.launched = self.running = True

    def turn(self, turn: Turn) -> None:
        self._start()
        try:
            self._turn(turn)
        finally:
            if self.host.exec_launch:  # the exec process ends with its turn
                self.running = False
                self._end("other")

    def _turn(self, turn: Turn) -> None:
        self.turn_id, self.next_turn_id = self.next_turn_id or str(uuid.uuid4()), ""
        if not self._run_queued_session_starts():  # run_turn: before the turn's input
            return
        self.said.submitted(turn.user)
        submitted = self.fire(
            "UserPromptSubmit", self.payload("UserPromptSubmit", prompt=turn.user)
        )
        if self.halted(submitted):
            return
        if submitted.blocked:
            submitted.effect = "the prompt is blocked; no model request"
            return
        self.said.prompt(turn.user)
        ids = self.tool_ids(turn)
        if not self.tool_calls(
            turn,
            ("PreToolUse", "PostToolUse"),
            lambda call, n: {"tool_name": call.name, "tool_input": call.args,
                             "tool_use_id": ids[n - 1]},
            lambda call: {"tool_response": call.result},
        ):  # fmt: skip
            return
        if turn.interrupted or turn.error is not None:
            self.said.failed()  # the request went out; no answer came back
        if turn.interrupted:
            if self.host.has_interrupt:
                self.fire("Interrupt", self.payload("Interrupt"))
            return
        if turn.error is not None:
            if not self.host.has_stop_failure:
                return
            error = STOP_FAILURE_ERRORS[turn.error.cause]
            self.fire(
                "StopFailure",
                self.payload("StopFailure", error=error, error_details=None,
                             last_assistant_message=None),
                match=error,
            )  # fmt: skip
            return

        def fire_stop(n: int) -> Firing:
            # Each Stop carries the reply its continuation ended with.
            self.said.replied(turn.reply(n) or "")
            return self.fire(
                "Stop",
                self.payload("Stop", stop_hook_active=n > 0, last_assistant_message=turn.reply(n)),
            )

        self.stop_loop(fire_stop, self.host.stop_cap)

    def compact(self, step: Compact) -> None:
        if self.host.exec_launch:
            if step.trigger != "auto":
                return  # codex exec has no /compact: only the TUI's command compacts by hand
            # The next exec compacts first thing, before its turn's input (the context the
            # last turn reported is over the limit): its SessionStart(resume) is queued first.
            self._start()
        if step.trigger == "auto":
            # Codex compacts automatically at the start of the next turn, before its input is
            # sampled: the compaction's events carry that turn's id (real 0.171.0).
            self.turn_id = self.next_turn_id = str(uuid.uuid4())
        self.turn_id = self.turn_id or str(uuid.uuid4())
        self._compact_now(step.trigger)

    def compact_mid_turn(self) -> bool:
        """A response asking for a tool call reported a full context: once the call is done,
        run_turn compacts before its next sampling request (phase MidTurn), in the same turn
        (its turn_id), fires SessionStart(compact) at once (not at the next turn, as after a
        compaction between turns: real 0.171.0), and goes on; a hook's continue: false ends
        the turn there."""
        return self._compact_now("auto") and self._run_queued_session_starts()

    def _compact_now(self, trigger: str) -> bool:
        """PreCompact, the compaction, PostCompact, and SessionStart(compact) queued; False when
        a hook's continue: false stopped it."""
        pre = self.fire("PreCompact", self.payload("PreCompact", trigger=trigger), match=trigger)
        if pre.stop and "PreCompact" not in self.host.continue_ignored:
            pre.effect = "continue: false; Codex CLI does not compact, the turn ends"
            return False
        self.said.compacted(trigger, COMPACT_SUMMARY, compacted(self.said.messages))
        post = self.fire("PostCompact", self.payload("PostCompact", trigger=trigger), match=trigger)
        self.queued.append("compact")
        if post.stop and "PostCompact" not in self.host.continue_ignored:
            post.effect = "continue: false; Codex CLI stops the turn after compacting"
            return False
        return True

    def _end(self, reason: str) -> None:
        if self.launched and self.ev("session_end") is not None:
            self.fire("SessionEnd", self.payload("SessionEnd", reason=reason), match=reason)

    def new_session(self, step: NewSession) -> None:
        if self.host.exec_launch:  # a new `codex exec` (without resume) starts the next session
            self.next_session_id(step)
            self.launched = self.running = False
            self.queued.clear()
            return
        self._end("clear")
        self.next_session_id(step)
        self.launched = True
        self.queued.append("clear")

    def exit(self) -> None:
        if not self.host.exec_launch:  # each exec already ended its own process
            self._end("other")


# What the model is sent after a compaction, before the summary (real 0.171.0: the rollout's
# ``compacted`` message).
COMPACT_SUMMARY = (
    "Another language model started to solve this problem and produced a summary of its"
    " thinking process. Summary of the conversation so far."
)


def compacted(messages: list[Message]) -> list[Message]:
    """What Codex keeps of the conversation when it compacts: the user's prompts (not a hook's
    prompt), then the summary as a user message (real 0.171.0's requests and its rollout's
    ``replacement_history``)."""
    kept = [m for m in messages if m.kind in (PROMPT, COMPACTED)]
    return [*kept, Message(USER, COMPACT_SUMMARY, COMPACTED)]


# The npm package's native build, by machine: its target triple and platform package
# (bin/codex.js PLATFORM_PACKAGE_BY_TARGET).
NATIVE = {
    "x86_64": ("x86_64-unknown-linux-musl", "linux-x64"),
    "aarch64": ("aarch64-unknown-linux-musl", "linux-arm64"),
}


def _random_suffix() -> str:
    """Six random letters and digits, as ``tempfile`` names the alias folder."""
    return "".join(random.choices(string.ascii_letters + string.digits, k=6))


def rejected(event: str, output: dict[str, Any]) -> str | None:
    """Why Codex refuses a hook's JSON output for ``event`` (the hook then failed, and nothing
    of its output but its systemMessage counts), or None: output_parser.rs's
    ``unsupported_*`` checks of PreToolUse and PostToolUse."""
    if event == "PreToolUse":
        for key, said in (("continue", "continue:false"), ("stopReason", "stopReason"),
                          ("suppressOutput", "suppressOutput")):  # fmt: skip
            value = output.get(key)
            if (key == "continue" and value is False) or (key != "continue" and value):
                return f"PreToolUse hook returned unsupported {said}"
        return _pre_tool_use_decision(output)
    if event == "PostToolUse" and output.get("continue") is not False:
        if output.get("suppressOutput"):
            return "PostToolUse hook returned unsupported suppressOutput"
        if output.get("decision") != "block" and output.get("reason") is not None:
            return "PostToolUse hook returned reason without decision"
        if output.get("decision") == "block" and not str(output.get("reason") or "").strip():
            return "PostToolUse hook returned decision:block without a non-empty reason"
    return None


def _pre_tool_use_decision(output: dict[str, Any]) -> str | None:
    """PreToolUse's decision fields: hookSpecificOutput's when it has one, else the old
    ``decision``/``reason`` pair (output_parser.rs ``parse_pre_tool_use``)."""
    specific = output.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    decision, reason = specific.get("permissionDecision"), specific.get("permissionDecisionReason")
    decided = ("permissionDecision", "permissionDecisionReason", "updatedInput")
    if any(k in specific for k in decided):
        if specific.get("updatedInput") is not None and decision != "allow":
            return "PreToolUse hook returned updatedInput without permissionDecision:allow"
        if decision == "allow" and specific.get("updatedInput") is None:
            return "PreToolUse hook returned unsupported permissionDecision:allow"
        if decision == "ask":
            return "PreToolUse hook returned unsupported permissionDecision:ask"
        if decision == "deny" and not str(reason or "").strip():
            return "PreToolUse hook returned permissionDecision:deny without a reason"
        if decision is None and reason is not None:
            return "PreToolUse hook returned permissionDecisionReason without permissionDecision"
        return None
    legacy, why = output.get("decision"), output.get("reason")
    if legacy == "approve":
        return "PreToolUse hook returned unsupported decision:approve"
    if legacy == "block" and not str(why or "").strip():
        return "PreToolUse hook returned decision:block without a non-empty reason"
    if legacy is None and why is not None:
        return "PreToolUse hook returned reason without decision"
    return None


def xml_text(text: str) -> str:
    """``text`` escaped as XML text, as quick_xml's serializer escapes it: ``&``, ``<``, ``>``
    (quotes stay; a real 0.171.0 run showed ``'`` and ``"`` as they are)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _src(commit: str, path: str, line: int | str, note: str = "") -> Any:
    return code(CODEX, commit, f"codex-rs/{path}", line, note)


class Codex(ClaudeStyleReading, Host):
    name = "codex"
    title = "Codex CLI"
    modelled = "v0.171.0 (codex-rs on main, real binary)"
    versions = (
        "v0.129.0 to v0.171.0 (default v0.171.0), real runs from v0.141.0 on (before v0.150.0"
        " without SessionEnd, before v0.163.0 its aliases under tmp/arg0/, before v0.169.0"
        " without StopFailure and Interrupt); before"
        " v0.141.0 hooks run with $SHELL -lc as at commit 0082977c, from the"
        " source only: codex exec runs no hooks before 0.141.0 (0.140.0 ran none) and 0.129.0"
        " and 0.130.0 have no --dangerously-bypass-hook-trust, so no unattended run can check"
        " them (runs in conformance-versions); interactive, or codex exec per turn"
        " (hosts.codex.launch: exec)"
    )
    checked = f"source ({CODEX} main) and real 0.169.0 and 0.171.0 runs (codex exec)"
    events = {
        "session_start": "SessionStart",
        "prompt_submit": "UserPromptSubmit",
        "pre_tool": "PreToolUse",
        "post_tool": "PostToolUse",
        "stop": "Stop",
        "pre_compact": "PreCompact",
        "post_compact": "PostCompact",
        "session_end": "SessionEnd",
    }
    config_files = ("~/.codex/hooks.json", "~/.codex/config.toml [hooks]", "<repo>/.codex/...")
    # discovery.rs discover_handlers: layers lowest precedence first (user, then the project's
    # .codex folder), each layer's hooks.json then its config.toml [hooks].
    project_configs = (".codex/hooks.json", ".codex/config.toml")
    spawn = "shell"
    # Hooks see every shell tool as Bash (codex-rs core/src/tools/hook_names.rs).
    shell_tool = "Bash"
    # The user's shell as a login shell (codex-rs core/src/shell.rs derive_exec_args, -lc).
    shell_tool_argv = ("bash", "-lc")
    parallel = True
    default_timeout_s = 600.0  # timeout_sec.unwrap_or(600).max(1)
    event_timeouts_s = {"SessionEnd": SESSION_END_DEFAULT_S}
    blocking = frozenset({"UserPromptSubmit", "PreToolUse", "Stop", "SubagentStop"})
    stop_cap = None
    exit_2 = "blocks only with non-empty stderr; else failed"
    session_class = CodexSession
    transcript_format = "codex-rollout"
    plugins_refused = (
        "Codex CLI 0.171.0 runs a plugin's hooks only for a plugin installed from a marketplace"
        " and trusted, which hooksim does not model; give them under hosts.codex.hooks"
    )
    plain_text_context = frozenset({"SessionStart", "UserPromptSubmit", "SubagentStart"})
    json_on_error = False  # any other exit code is a failed hook
    exit_2_needs_stderr = True
    block_needs_reason = True
    stop_context_continues = False
    continue_ignored = frozenset({"SessionEnd"})
    brace_text_is_context = False  # stdout like "{oops" (or "[...") is a failed hook
    updated_input_needs_allow = True  # output_parser.rs: else the hook failed
    login_shell = False  # 0.129.0: $SHELL -lc
    # The folder under CODEX_HOME/tmp that holds the alias folders: arg0-<os> from 0.163.0,
    # arg0 before.
    alias_root = "arg0-linux"
    has_stop_failure = True
    has_interrupt = True
    match_search = True
    matcher_events = MATCHER_EVENTS
    exec_launch = False  # True: each turn is one `codex exec` process (launched("exec"))
    sends_transcript_path = True  # the rollout file, since the first hooks (hook_runtime.rs)
    compacts_mid_turn = True  # run_turn: token_limit_reached && needs_follow_up
    # Names a real run picks at random, mapped before compare --real compares (with why).
    run_time_names = {
        r"codex-arg0[A-Za-z0-9]{6}": (
            "codex-arg0<random>",
            "the alias folder's name ends in six random characters (tempfile)",
        ),
    }
    # What a real run shows that is no behaviour of Codex's own, each with the reason.
    real_tolerances = {
        "payload/PostToolUse/tool_response": "a file tool really runs on the host: apply_patch's"
        " result is Codex's own text (exit code, wall time, the files it changed), not the"
        " scenario's scripted result",
    }
    trust = (
        "hooks run only once reviewed and trusted (a run can pass --dangerously-bypass-hook-trust)"
    )
    facts = (
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
            observed("0.171.0", "codex exec; tests/real_hosts/test_transcripts.py"),
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
            "an interrupted turn fires Interrupt; its payload beyond the"
            " common fields is not modelled",
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
            observed(
                "0.171.0", "the same hooks under [hooks] in config.toml ran as from hooks.json"
            ),
        ),
    )

    def at_version(self, version: str) -> Host:
        """Codex as at ``version``: before 0.141.0, as at 0082977c (about 0.129), from the
        source only: hooks run with ``$SHELL -lc``; before 0.150.0 no SessionEnd; before 0.169.0
        no StopFailure or Interrupt; before 0.163.0 the alias folder first on a hook's PATH is
        under ``tmp/arg0/``, not ``tmp/arg0-linux/``. Runs in conformance-versions: 0.141.0,
        0.150.0 and 0.168.0 run hooks with ``/bin/bash -c`` (not a login shell), 0.141.0 fires
        no SessionEnd, 0.150.0 and 0.168.0 do."""
        v = parse_version(self.title, version)
        if v < (0, 129, 0) or v > (0, 171, 0):
            raise ValueError(f"hooksim models Codex CLI from v0.129.0 to v0.171.0, not {version}")
        changes: dict[str, Any] = {}
        if v < (0, 169, 0):
            changes = {"has_stop_failure": False, "has_interrupt": False}
        if v < (0, 163, 0):
            changes["alias_root"] = "arg0"
        if v < (0, 150, 0):
            changes["events"] = {**self.events, "session_end": None}
        if v < (0, 141, 0):
            changes["login_shell"] = True
        return as_version(self, version, changes)

    def launched(self, how: str) -> Host:
        """``exec``: each turn is one ``codex exec`` run (``codex exec resume --last`` after the
        first), with approval policy never; ``interactive``: the TUI."""
        if how == "interactive" or self.exec_launch:
            return self
        if how != "exec":
            raise ValueError(f"{how!r}: Codex CLI runs interactive or exec")
        modelled = f"{self.modelled}, codex exec per turn"
        name = f"{type(self).__name__}_exec"
        return type(name, (type(self),), {"exec_launch": True, "modelled": modelled})()  # type: ignore[no-any-return]

    def load_config(self, path: Path) -> Any:
        if path.suffix == ".toml":
            if sys.version_info >= (3, 11):
                import tomllib
            else:  # pragma: no cover - Python 3.10
                import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]
            try:
                data = tomllib.loads(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError) as e:
                raise ConfigError(f"{path}: cannot read ({e})") from None
            except tomllib.TOMLDecodeError as e:
                raise ConfigError(f"{path}: not valid TOML ({e})") from None
            return data.get("hooks")
        return super().load_config(path)

    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        """The hooks, each numbered as Codex numbers them (``display_order``, in a run's id):
        event by event in ``DISPLAY_ORDER``, then in the order the file lists them."""
        specs, warnings = parse_matcher_groups(
            block, events=EVENTS, matcher_events=self.matcher_events, min_timeout_s=1.0,
            timeout_keys=("timeout", "timeoutSec"),
        )  # fmt: skip
        rank = {event: n for n, event in enumerate(DISPLAY_ORDER)}
        numbered = sorted(range(len(specs)), key=lambda i: rank.get(specs[i].event, len(rank)))
        order = {i: n for n, i in enumerate(numbered)}
        return [dataclasses.replace(s, order=order[i]) for i, s in enumerate(specs)], warnings

    def blocked(self, event: str, run: HookRun, reason: str, said: str) -> Verdict:
        """Codex's words: a denied tool call's result and a blocked stop's continuation prompt
        are built from every blocking hook of the firing (``CodexSession.told``), each reason
        trimmed; a blocked prompt's reason is one of the hook's entries the user is shown."""
        text = reason.strip()
        told = text if event in ("PreToolUse", "Stop", "SubagentStop") else None
        shown = text or None if event == "UserPromptSubmit" else None
        return Verdict(f"block: {first_line(reason)}", block=reason, told=told, shown=shown)

    def join_reasons(self, reasons: list[str]) -> str:
        """Every blocking hook's reason, trimmed, a blank line between (common.rs
        ``join_text_chunks``)."""
        return "\n\n".join(r.strip() for r in reasons if r.strip())

    def feedback_told(self, event: str, run: HookRun, reason: str) -> str:
        return reason

    def message_shown(self, event: str, run: HookRun, output: dict[str, Any]) -> str | None:
        """A ``systemMessage`` is a warning entry of the hook's run, shown as it is."""
        message = output.get("systemMessage")
        return message if isinstance(message, str) and message else None

    def stop_shown(self, event: str, run: HookRun, output: dict[str, Any]) -> str | None:
        """``continue: false``'s ``stopReason`` is a stop entry of the hook's run, shown as it is."""
        stop_reason = output.get("stopReason")
        return stop_reason if isinstance(stop_reason, str) and stop_reason else None

    def exit_2_shown(self, event: str, run: HookRun) -> str | None:
        return None  # a failed hook, not a message

    def read(self, event: str, run: HookRun) -> Verdict:
        """As Claude Code reads it, except: stdout that starts with ``[`` is JSON that is not an
        object, a failed hook; ``continue: false`` from UserPromptSubmit keeps its context for
        later turns (user_prompt_submit.rs ``parse_completed``)."""
        finished = run.exit_code == 0 and not (run.timed_out or run.spawn_error)
        if finished and run.stdout.strip().startswith("["):
            return Verdict("failed: stdout is not a JSON object", fault="refused")
        output = parse_json_output(run.stdout) if finished else None
        refused = rejected(event, output) if output is not None else None
        if refused is not None and output is not None:
            # The hook failed: nothing of its output counts but its systemMessage, a warning.
            return Verdict(f"failed: {refused}", shown=self.message_shown(event, run, output),
                           fault="refused")  # fmt: skip
        verdict = super().read(event, run)
        if verdict.stop and event == "UserPromptSubmit" and run.exit_code == 0:
            output = parse_json_output(run.stdout)
            verdict.context = additional_context(output) if output else None
        return verdict

    def matches(self, spec: HookSpec, value: str | None) -> bool:
        """common.rs ``matches_matcher``: exact names split on ``|``, else an unanchored regex."""
        matcher = spec.matcher
        if matcher is None or matcher in self.match_all:
            return True
        if value is None:
            return False
        if EXACT_MATCHER.fullmatch(matcher):
            return value in matcher.split("|")
        try:
            find = re.search if self.match_search else re.fullmatch
            return find(matcher, value) is not None
        except re.error:
            return False  # an invalid regex matches nothing

    def timeout_s(self, spec: HookSpec, env: Mapping[str, str]) -> float:
        if spec.event == "SessionEnd":
            return min(spec.timeout_s or SESSION_END_DEFAULT_S, SESSION_END_MAX_S)
        return super().timeout_s(spec, env)

    def env(self, event: str, info: SessionInfo) -> dict[str, str]:
        """What Codex installed with npm leaves in every hook's environment: its launcher
        (``bin/codex.js``) names the package (CODEX_MANAGED_BY_NPM and
        CODEX_MANAGED_PACKAGE_ROOT), and the native binary puts two folders before PATH: the one it makes for its own
        aliases (``apply_patch``, ``codex-linux-sandbox``) under CODEX_HOME, named at random,
        and its package's ``codex-path`` (the bundled ``rg``)."""
        install = info.install or "/usr/local/lib"
        package = f"{install}/node_modules/@openai/codex"
        triple, platform = NATIVE.get(machine(), NATIVE["x86_64"])
        vendor = f"{install}/node_modules/@openai/codex-{platform}/vendor/{triple}"
        codex_home = info.env.get("CODEX_HOME") or f"{info.home}/.codex"
        aliases = f"{codex_home}/tmp/{self.alias_root}/codex-arg0{_random_suffix()}"
        # No aliases under the temporary folder (Rust's temp_dir(): TMPDIR, else /tmp).
        temp = PurePosixPath(info.env.get("TMPDIR") or "/tmp")
        if PurePosixPath(codex_home).is_relative_to(temp):
            aliases = ""
        path = info.env.get("PATH", "")
        return {
            "CODEX_MANAGED_BY_NPM": "1",
            "CODEX_MANAGED_PACKAGE_ROOT": package,
            "PATH": ":".join(filter(None, [aliases, f"{vendor}/codex-path", path])),
        }

    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        """``/bin/bash -c`` on 0.169.0; ``$SHELL -lc`` (a login shell) before."""
        if self.login_shell:
            return [env.get("SHELL") or "/bin/sh", "-lc", command]
        return ["/bin/bash", "-c", command]
