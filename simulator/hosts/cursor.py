"""Cursor's agent hooks (``.cursor/hooks.json``), as its hooks documentation describes them (2026).

Timeline: ``sessionStart`` when a conversation is created, fire-and-forget (the agent does not
wait for it; the ``env`` it returns reaches the hooks started after it finished); per message ``beforeSubmitPrompt``, tool hooks, ``afterAgentResponse``, then
``stop`` with ``status`` (``completed``, ``aborted`` on an interrupt, ``error``) and
``loop_count``. A ``followup_message`` from ``stop`` is submitted as the next user message, up
to the hook's ``loop_limit`` (default 5; ``null``: no cap). Compaction fires ``preCompact``,
which observes only; nothing fires after it. Closing the window fires ``sessionEnd``,
fire-and-forget.

Not documented, so chosen here and said in README: the default timeout (hooksim uses 60 s),
whether hooks of one event run in parallel (hooksim runs them in order), and whether a
follow-up fires ``beforeSubmitPrompt`` again (hooksim does not). Exit 2 denies (blocks) where
an event can be blocked; other failures fail open unless the hook sets ``failClosed``.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from ..steps import Compact, NewSession, Turn
from .base import (
    Firing,
    HookRun,
    HookSpec,
    Host,
    Session,
    SessionInfo,
    Verdict,
    event_lists,
    first_line,
    parse_json_output,
    telling_line,
)
from .sources import CURSOR_DOCS, docs, fact, unverified

EVENTS = frozenset(
    {
        "sessionStart", "sessionEnd", "beforeSubmitPrompt", "preToolUse", "postToolUse",
        "postToolUseFailure", "beforeShellExecution", "afterShellExecution", "beforeMCPExecution",
        "afterMCPExecution", "beforeReadFile", "afterFileEdit", "subagentStart", "subagentStop",
        "afterAgentResponse", "afterAgentThought", "stop", "preCompact",
    }
)  # fmt: skip
TOOL_EVENTS = frozenset({"preToolUse", "postToolUse", "postToolUseFailure"})
DEFAULT_LOOP_LIMIT = 5
CURSOR_VERSION = "2.4.0"


class CursorSession(Session):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.generation_id = ""
        self.compactions = 0

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "conversation_id": self.info.session_id,
            "generation_id": self.generation_id,
            "model": self.info.model,
            "hook_event_name": event,
            "cursor_version": CURSOR_VERSION,
            "workspace_roots": [self.info.cwd],
            "user_email": None,
            "transcript_path": self.info.transcript_path,
        }
        payload.update(fields)
        return payload

    def _start(self) -> None:
        self.launched = True
        self.said.started("startup", self.info.session_id)
        self.fire(
            "sessionStart",
            self.payload(
                "sessionStart",
                session_id=self.info.session_id,
                is_background_agent=False,
                composer_mode="agent",
            ),
        )

    def turn(self, turn: Turn) -> None:
        if not self.launched:
            self._start()
        self.generation_id = str(uuid.uuid4())
        self.said.submitted(turn.user)
        submitted = self.fire(
            "beforeSubmitPrompt",
            self.payload("beforeSubmitPrompt", prompt=turn.user, attachments=[]),
        )
        if submitted.blocked or submitted.stop:
            submitted.effect = "the message is not sent"
            return
        self.said.prompt(turn.user)
        self.tool_calls(
            turn,
            ("preToolUse", "postToolUse"),
            lambda call, n: {"tool_name": call.name, "tool_input": call.args,
                             "tool_use_id": f"tool_{n}"},
            lambda call: {"tool_output": call.result},
        )  # fmt: skip
        # The agent loop ends ``aborted`` on an interrupt and ``error`` on a failed model call;
        # an empty reply still completes (hooks reference: stop ``status``).
        status = "aborted" if turn.interrupted else ("error" if turn.error else "completed")

        def fire_stop(loop_count: int) -> Firing:
            now = status if loop_count == 0 else "completed"  # a follow-up is a new message
            if now == "completed":
                self.said.replied(turn.reply(loop_count) or "")
                self.fire(
                    "afterAgentResponse",
                    # each follow-up's own reply
                    self.payload("afterAgentResponse", text=turn.reply(loop_count) or ""),
                )
            return self.fire("stop", self.payload("stop", status=now, loop_count=loop_count))

        self.stop_loop(fire_stop, self.host.stop_cap)

    def cap_of(self, firing: Firing, cap: int | None) -> int | None:
        """The follow-up's hook's ``loop_limit``: that many follow-ups; the next is ignored."""
        return None if firing.loop_limit is None else firing.loop_limit + 1

    def capped(self, n: int, cap: int) -> str:
        return f"follow-up ignored: loop_limit {cap - 1} reached"

    def continued(self, n: int) -> str:
        return f"the follow-up is submitted as the next message (loop_count {n})"

    def compact(self, step: Compact) -> None:
        self.compactions += 1
        self.fire(
            "preCompact",
            self.payload(
                "preCompact",
                trigger=step.trigger,
                context_usage_percent=95 if step.trigger == "auto" else 60,
                context_tokens=190_000 if step.trigger == "auto" else 120_000,
                context_window_size=200_000,
                message_count=40,
                messages_to_compact=36,
                is_first_compaction=self.compactions == 1,
            ),
        )

    def new_session(self, step: NewSession) -> None:
        self.next_session_id(step)
        self._start()

    def exit(self) -> None:
        if self.launched:
            self.fire(
                "sessionEnd",
                self.payload("sessionEnd", session_id=self.info.session_id, reason="window_close"),
            )


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
        {"beforeSubmitPrompt", "preToolUse", "beforeShellExecution", "beforeMCPExecution",
         "beforeReadFile", "subagentStart"}
    )  # fmt: skip
    not_awaited = frozenset({"sessionStart", "sessionEnd"})
    stop_cap = DEFAULT_LOOP_LIMIT  # the default of each stop hook's loop_limit
    stop_cap_unit = "follow-ups (`loop_limit`)"
    exit_2 = "denies (blocks) where the event can be blocked"
    session_class = CursorSession
    transcript_format = "cursor-jsonl"
    plugins_refused = (
        "hooksim models Cursor from its hooks documentation, with no binary to check how it"
        " loads a plugin's hooks; give them under hosts.cursor.hooks"
    )
    versions = "the hooks documentation as of 2026 (no hook changelog to replay older versions)"
    checked = f"docs ({CURSOR_DOCS}); no public code, no offline binary"
    trust = "project hooks (.cursor/hooks.json) run only in a trusted workspace"
    facts = (
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
            return Verdict(f"failed (fails open): {why} {telling_line(run.stderr)}".strip(),
                           fault=fault)  # fmt: skip
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
                f"follow-up: {first_line(followup)}", followup=followup, loop_limit=limit,
                told=followup,
            )  # fmt: skip
        context = output.get("additional_context")
        if isinstance(context, str) and context.strip() and event == "postToolUse":
            return Verdict("context", context=context)
        if event == "preCompact":
            return Verdict("ok (preCompact output is not used)", fault="refused")
        return Verdict()
