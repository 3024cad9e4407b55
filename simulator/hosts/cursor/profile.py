"""Cursor's profile: its attributes (events, timeouts, spawn rules) and its rules (parsing its hook
config, matching, reading a hook's output)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..config import event_lists
from ..output import first_line, parse_json_output, telling_line
from ..profile import Host
from ..records import HookRun, HookSpec, Verdict
from ..session import SessionInfo
from ..sources import CURSOR_DOCS
from .constants import CURSOR_VERSION, DEFAULT_LOOP_LIMIT, EVENTS, TOOL_EVENTS
from .facts import FACTS
from .session import CursorSession
from .transcript import CursorJsonl


class Cursor(Host):
    name = "cursor"
    title = "Cursor"
    modelled = "its hooks documentation (2026)"
    events = {
        "session_start": "sessionStart",
        "prompt_submit": "beforeSubmitPrompt",
        "pre_tool": "preToolUse",
        "post_tool": "postToolUse",
        "stop": "stop",
        "pre_compact": "preCompact",
        "post_compact": None,
        "session_end": "sessionEnd",
    }
    config_files = (".cursor/hooks.json", "~/.cursor/hooks.json")
    project_configs = (".cursor/hooks.json",)  # beside the user's (trusted workspace)
    spawn = "shell"
    shell_tool = "Shell"  # the Shell tool type of its hooks docs' preToolUse matchers
    shell_tool_argv = ("bash", "-c")  # not documented: the user's shell; hooksim's is bash
    parallel = False  # not documented
    default_timeout_s = 60.0  # "platform default", not documented
    blocking = frozenset(
        {
            "beforeSubmitPrompt",
            "preToolUse",
            "beforeShellExecution",
            "beforeMCPExecution",
            "beforeReadFile",
            "subagentStart",
        }
    )
    not_awaited = frozenset({"sessionStart", "sessionEnd"})
    stop_cap = DEFAULT_LOOP_LIMIT  # the default of each stop hook's loop_limit
    stop_cap_unit = "follow-ups (`loop_limit`)"
    exit_2 = "denies (blocks) where the event can be blocked"
    session_class = CursorSession
    transcript = CursorJsonl
    plugins_refused = (
        "hooksim models Cursor from its hooks documentation, with no binary to check how it"
        " loads a plugin's hooks; give them under hosts.cursor.hooks"
    )
    versions = "the hooks documentation as of 2026 (no hook changelog to replay older versions)"
    checked = f"docs ({CURSOR_DOCS}); no public code, no offline binary"
    trust = "project hooks (.cursor/hooks.json) run only in a trusted workspace"
    user_config = "~/.cursor/hooks.json"
    config_shape = "entries"
    facts = FACTS

    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        specs: list[HookSpec] = []
        warnings: list[str] = []
        for event, entries in event_lists(block, EVENTS, warnings, noun="hook type"):
            for i, entry in enumerate(entries):
                command = entry.get("command") if isinstance(entry, dict) else None
                if not isinstance(command, str) or not command.strip():
                    warnings.append(f"hooks.{event}[{i}] has no command; skipped")
                    continue
                if entry.get("type", "command") != "command":
                    warnings.append(f"hooks.{event}[{i}] is not a command hook; skipped")
                    continue
                timeout = entry.get("timeout")
                matcher = entry.get("matcher") if event in TOOL_EVENTS else None
                loop_limit = entry.get("loop_limit", self.stop_cap)
                if loop_limit is not None and (
                    not isinstance(loop_limit, int)
                    or isinstance(loop_limit, bool)
                    or loop_limit < 0
                ):
                    warnings.append(
                        f"hooks.{event}[{i}].loop_limit {loop_limit!r} is not a count or null;"
                        f" default {self.stop_cap} used"
                    )
                    loop_limit = self.stop_cap
                specs.append(
                    HookSpec(
                        event,
                        command,
                        float(timeout) if isinstance(timeout, (int, float)) else None,
                        matcher if isinstance(matcher, str) else None,
                        loop_limit=loop_limit,
                        fail_closed=entry.get("failClosed") is True,
                        where=(event, i),
                    )
                )
        return specs, warnings

    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        return ["/bin/sh", "-c", command]

    def env(self, event: str, info: SessionInfo) -> dict[str, str]:
        return {
            "CURSOR_PROJECT_DIR": info.cwd,
            "CURSOR_VERSION": CURSOR_VERSION,
            "CURSOR_TRANSCRIPT_PATH": info.transcript_path,
            "CLAUDE_PROJECT_DIR": info.cwd,
        }

    def read(self, event: str, run: HookRun) -> Verdict:
        can_block = event in self.blocking
        closed = run.spec is not None and run.spec.fail_closed and can_block
        if run.timed_out or run.spawn_error:
            why = "timed out" if run.timed_out else str(run.spawn_error)
            if closed:
                return Verdict(f"block (failClosed): {why}", block=why, fault="failed")
            return Verdict(f"failed (fails open): {why}", fault="failed")
        if run.exit_code == 2:
            if not can_block:
                return Verdict(f"exit 2: {event} cannot be denied; ignored", fault="refused")
            reason = run.stderr.strip()
            # What the agent is told of an exit 2 is not documented: taken as its stderr.
            return Verdict(f"deny: {first_line(reason)}", block=reason, told=reason or None)
        output = parse_json_output(run.stdout)
        if run.exit_code != 0 or (run.stdout.strip() and output is None):
            why = f"exit {run.exit_code}" if run.exit_code != 0 else "stdout is not JSON"
            fault = "failed" if run.exit_code != 0 else "refused"
            if closed:
                return Verdict(f"block (failClosed): {why}", block=why, fault=fault)
            return Verdict(
                f"failed (fails open): {why} {telling_line(run.stderr)}".strip(), fault=fault
            )
        if output is None:
            return Verdict()
        env = output.get("env")
        if event == "sessionStart" and isinstance(env, dict):
            variables = {str(k): str(v) for k, v in env.items()}
            return Verdict(f"env for later hooks: {', '.join(variables)}", env=variables)
        user_message = output.get("user_message")
        shown = user_message if isinstance(user_message, str) and user_message else None
        if event == "beforeSubmitPrompt" and output.get("continue") is False:
            reason = str(output.get("user_message") or "")
            return Verdict(f"block: {first_line(reason)}", block=reason, shown=shown)
        if can_block and output.get("permission") == "deny":
            # agent_message is what the agent is told, user_message what the user is shown.
            agent_message = output.get("agent_message")
            told = agent_message if isinstance(agent_message, str) and agent_message else None
            reason = str(agent_message or output.get("user_message") or "")
            return Verdict(f"deny: {first_line(reason)}", block=reason, told=told, shown=shown)
        followup = output.get("followup_message")
        if event in ("stop", "subagentStop") and isinstance(followup, str) and followup.strip():
            limit = run.spec.loop_limit if run.spec is not None else DEFAULT_LOOP_LIMIT
            return Verdict(
                f"follow-up: {first_line(followup)}",
                followup=followup,
                loop_limit=limit,
                told=followup,
            )
        context = output.get("additional_context")
        if isinstance(context, str) and context.strip() and event == "postToolUse":
            return Verdict("context", context=context)
        if event == "preCompact":
            return Verdict("ok (preCompact output is not used)", fault="ignored")
        return Verdict()


PROFILE = Cursor  # what the registry (``hosts.FOLDERS``) loads
