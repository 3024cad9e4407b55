"""The Hermes Agent v0.19.0 host: which events fire in a session, their payload bytes, the hooks.

Faithful to ``agent.shell_hooks`` and the CLI's turn loop of v0.19.0 (see the project's reference
on Hermes shell hooks, sections 4 and 6 to 10): ``on_session_start`` before the first turn's
``pre_llm_call``; ``pre_llm_call`` every turn; per tool call ``pre_tool_call`` and
``post_tool_call``; ``post_llm_call`` only with a final response and not interrupted;
``on_session_end`` after every turn (it is a per-turn event despite its name); on ``/new``,
``on_session_finalize`` for the old session and ``on_session_reset`` for the new one. There is
no compaction event for shell hooks, so a compaction step fires nothing here: that gap is why
``hermes_hooks`` compacts from its Stop hook. Quitting fires ``on_session_finalize``.

Hooks run without a shell (``shlex.split`` of the command, ``~`` expanded), one after another.
Exit codes are only logged, exit 2 included; stdout is read as one JSON value:
``{"context": ...}`` is injected into the turn by ``pre_llm_call``, and a block
(``action``/``decision``) stops a ``pre_tool_call``'s tool, whose ``post_tool_call`` still fires
with ``status: blocked``.
"""

from __future__ import annotations

import json
import os
import shlex
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..scenario import Compact, NewSession, Turn
from .base import ConfigError, HookRun, HookSpec, Host, Session, Verdict, parse_json_output

# hermes_cli.plugins.VALID_HOOKS, v0.19.0.
VALID_HOOKS = frozenset(
    {
        "pre_tool_call", "post_tool_call", "transform_terminal_output", "transform_tool_result",
        "transform_llm_output", "pre_llm_call", "post_llm_call", "pre_verify", "pre_api_request",
        "post_api_request", "api_request_error", "on_session_start", "on_session_end",
        "on_session_finalize", "on_session_reset", "subagent_start", "subagent_stop",
        "pre_gateway_dispatch", "pre_approval_request", "post_approval_response",
        "kanban_task_claimed", "kanban_task_completed", "kanban_task_blocked",
    }
)  # fmt: skip
TOOL_EVENTS = frozenset({"pre_tool_call", "post_tool_call"})
DEFAULT_TIMEOUT_S = 60
MAX_TIMEOUT_S = 300
TELEMETRY_SCHEMA_VERSION = "hermes.observer.v1"
# What Hermes answers in the assistant's place after an empty reply and its retries:
# run_agent.AIAgent._format_turn_completion_explanation("empty_response_exhausted").
EMPTY_REPLY_EXPLANATION = (
    "⚠️ No reply: the model returned empty content after retries and any fallback providers."
    " Try `continue`, switch model/provider, or inspect the tool output above."
)


def parse_hooks_block(block: Any) -> tuple[list[HookSpec], list[str]]:
    """Hook specs in config order, and the warnings Hermes would log for skipped entries.

    Never raises, like ``_parse_hooks_block``: a bad entry is skipped with a warning.
    """
    specs: list[HookSpec] = []
    warnings: list[str] = []
    seen: set[tuple[str, str | None, str]] = set()
    if not isinstance(block, dict):
        return specs, (
            [] if block is None else ["hooks: is not a mapping; no shell hooks registered"]
        )
    for event, entries in block.items():
        if event == "output_spill":  # a reserved sub-key, skipped silently by Hermes
            continue
        if event not in VALID_HOOKS:
            warnings.append(f"unknown hook event {event!r} in hooks: config; skipped")
            continue
        if entries is None:
            continue
        if not isinstance(entries, list):
            warnings.append(f"hooks.{event} must be a list of hook definitions")
            continue
        for i, raw in enumerate(entries):
            if not isinstance(raw, dict) or not str(raw.get("command") or "").strip():
                warnings.append(f"hooks.{event}[{i}] has no command; skipped")
                continue
            try:
                timeout = int(raw.get("timeout", DEFAULT_TIMEOUT_S))
            except (TypeError, ValueError):
                timeout = DEFAULT_TIMEOUT_S
            timeout = DEFAULT_TIMEOUT_S if timeout < 1 else min(timeout, MAX_TIMEOUT_S)
            matcher = raw.get("matcher")
            if matcher is not None and not isinstance(matcher, str):
                warnings.append(f"hooks.{event}[{i}].matcher is not a string; dropped")
                matcher = None
            elif matcher is not None and event not in TOOL_EVENTS:
                warnings.append(
                    f"hooks.{event}[{i}].matcher is honoured only for tool events; dropped"
                )
                matcher = None
            spec = HookSpec(
                event, str(raw["command"]).strip(), float(timeout), (matcher or "").strip() or None
            )
            key = (spec.event, spec.matcher, spec.command)  # registration is idempotent
            if key not in seen:
                seen.add(key)
                specs.append(spec)
    return specs, warnings


def injected_context(event: str, stdout: str) -> str | None:
    """What Hermes takes from a hook's stdout, as ``_parse_response`` reads it for non-tool events.

    All of stdout must be one JSON object with a non-blank string ``context``; anything else is
    ignored. Only ``pre_llm_call`` uses it (appended to the model's copy of the user message);
    other events drop it, so this returns None for them.
    """
    if event != "pre_llm_call" or not stdout.strip():
        return None
    try:
        parsed = json.loads(stdout.strip())
    except ValueError:
        return None
    context = parsed.get("context") if isinstance(parsed, dict) else None
    return context if isinstance(context, str) and context.strip() else None


def hermes_payload(
    event: str,
    *,
    session_id: str,
    cwd: str,
    extra: dict[str, Any],
    tool_name: str | None = None,
    args: Any = None,
) -> dict[str, Any]:
    """The payload object of v0.19.0, in ``_serialize_payload``'s key order."""
    extra = {**extra}
    extra.setdefault("telemetry_schema_version", TELEMETRY_SCHEMA_VERSION)
    return {
        "hook_event_name": event,
        "tool_name": tool_name,
        "tool_input": args if isinstance(args, dict) else None,
        "session_id": session_id,
        "cwd": cwd,
        "extra": extra,
    }


def payload_bytes(event: str, **fields: Any) -> bytes:
    """``_serialize_payload`` of v0.19.0: key order, ``ensure_ascii=False``, no trailing newline."""
    return Hermes().encode(hermes_payload(event, **fields))


def block_message(stdout: str) -> str | None:
    """The block a ``pre_tool_call`` hook's stdout asks for, as ``_parse_response`` reads it."""
    parsed = parse_json_output(stdout)
    if parsed is None:
        return None
    default = "Blocked by shell hook."
    for key, first, second in (("action", "message", "reason"), ("decision", "reason", "message")):
        if parsed.get(key) == "block":
            message = parsed.get(first) or parsed.get(second)
            return message if isinstance(message, str) and message.strip() else default
    return None


class HermesSession(Session):
    """The CLI agent's state across turns: session id, history, first-turn flag."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.history: list[dict[str, str]] = []

    def payload(
        self, event: str, tool_name: str | None = None, args: Any = None, **extra: Any
    ) -> dict[str, Any]:
        return hermes_payload(
            event,
            session_id=self.info.session_id,
            cwd=self.info.cwd,
            extra=extra,
            tool_name=tool_name,
            args=args,
        )

    def turn(self, turn: Turn) -> None:
        info = self.info
        if not self.launched:
            self.launched = True
            self.fire(
                "on_session_start",
                self.payload("on_session_start", model=info.model, platform=info.platform),
            )
        task_id = str(uuid.uuid4())
        turn_id = f"{info.session_id}:{task_id}:{uuid.uuid4().hex[:8]}"
        is_first = not self.history
        self.history.append({"role": "user", "content": turn.user})
        self.fire(
            "pre_llm_call",
            self.payload(
                "pre_llm_call",
                task_id=task_id,
                turn_id=turn_id,
                user_message=turn.user,
                conversation_history=list(self.history),
                is_first_turn=is_first,
                model=info.model,
                platform=info.platform,
                sender_id=info.sender_id,
            ),
        )
        for n, call in enumerate(turn.tools, 1):
            common = {
                "task_id": task_id,
                "tool_call_id": f"call_{n}",
                "turn_id": turn_id,
                "api_request_id": "",
            }
            pre = self.fire(
                "pre_tool_call",
                self.payload("pre_tool_call", call.name, call.args, **common, middleware_trace=[]),
                match=call.name,
            )
            blocked = pre.blocked
            if blocked:
                pre.effect = (
                    f"the {call.name} call is blocked; the model gets the message as its result"
                )
            self.fire(
                "post_tool_call",
                self.payload(
                    "post_tool_call",
                    call.name,
                    call.args,
                    result=json.dumps({"error": pre.reason}) if blocked else call.result,
                    **common,
                    duration_ms=0,
                    status="blocked" if blocked else "ok",
                    error_type=None,
                    error_message=None,
                    middleware_trace=[],
                ),
                match=call.name,
            )
        if turn.error is not None:
            # run_conversation returns early on a failed call: finalize_turn, and with it
            # post_llm_call and on_session_end, never runs.
            return
        # An empty reply is retried, then replaced by the turn-completion explainer's text.
        response = EMPTY_REPLY_EXPLANATION if turn.empty_reply else (turn.assistant or "")
        # finalize_turn: completed does not look at ``interrupted``; an interrupt during the
        # model call leaves a final_response (the streamed part or a waiting notice).
        completed = True
        if turn.replied:
            self.history.append({"role": "assistant", "content": response})
            self.fire(
                "post_llm_call",
                self.payload(
                    "post_llm_call",
                    task_id=task_id,
                    turn_id=turn_id,
                    user_message=turn.user,
                    assistant_response=response,
                    conversation_history=list(self.history),
                    model=info.model,
                    platform=info.platform,
                ),
            )
        self.fire(
            "on_session_end",
            self.payload(
                "on_session_end",
                task_id=task_id,
                turn_id=turn_id,
                completed=completed,
                interrupted=turn.interrupted,
                model=info.model,
                platform=info.platform,
            ),
        )

    def compact(self, step: Compact) -> None:
        """Hermes compresses its context with no shell-hook event: nothing fires."""

    def new_session(self, step: NewSession) -> None:
        platform = self.info.platform
        self.fire(
            "on_session_finalize",
            self.payload("on_session_finalize", platform=platform, reason="session_boundary"),
        )
        self.next_session_id(step)
        self.history = []
        self.launched = False
        self.fire(
            "on_session_reset",
            self.payload("on_session_reset", platform=platform, reason="new_session"),
        )

    def exit(self) -> None:
        self.fire(
            "on_session_finalize",
            self.payload("on_session_finalize", platform=self.info.platform, reason="shutdown"),
        )


class Hermes(Host):
    name = "hermes"
    title = "Hermes"
    modelled = "hermes-agent 0.19.0 (agent.shell_hooks, read and run)"
    events = {
        "session_start": "on_session_start",
        "prompt_submit": "pre_llm_call",
        "pre_tool": "pre_tool_call",
        "post_tool": "post_tool_call",
        "stop": "post_llm_call",
        "pre_compact": None,
        "post_compact": None,
        "session_end": "on_session_finalize",
    }
    config_files = ("~/.hermes/config.yaml hooks:",)
    spawn = "exec"
    match_all = ()  # ``re.fullmatch``; "*" is no regex, so it means equality and matches nothing
    parallel = False
    default_timeout_s = float(DEFAULT_TIMEOUT_S)
    blocking = frozenset({"pre_tool_call"})
    stop_can_continue = False
    exit_2 = "logged only (v0.19.0)"
    session_class = HermesSession

    def load_config(self, path: Path) -> Any:
        """The ``hooks:`` block of a Hermes ``config.yaml``."""
        from ruamel.yaml import YAML
        from ruamel.yaml.error import YAMLError

        try:
            data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, YAMLError) as e:
            raise ConfigError(f"{path}: cannot read the hooks config ({e})") from None
        if data is not None and not isinstance(data, dict):
            raise ConfigError(f"{path}: a Hermes config is a mapping")
        hooks = (data or {}).get("hooks")
        return hooks if hooks is None or isinstance(hooks, dict) else {"__invalid__": hooks}

    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        return parse_hooks_block(block)

    def join_reasons(self, reasons: list[str]) -> str:
        """The first block in registration order wins; the model gets its message only."""
        return reasons[0] if reasons else ""

    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        """``shlex.split(os.path.expanduser(command))``, ``~`` being the hook's HOME."""
        if (command == "~" or command.startswith("~/")) and "HOME" in env:
            command = env["HOME"] + command[1:]
        return shlex.split(os.path.expanduser(command))

    def encode(self, payload: dict[str, Any]) -> bytes:
        """``_serialize_payload``: ``ensure_ascii=False``, default separators, no newline."""
        return json.dumps(payload, ensure_ascii=False, default=str).encode("utf-8")

    def read(self, event: str, run: HookRun) -> Verdict:
        if run.timed_out or run.spawn_error:
            return Verdict(f"logged: {'timed out' if run.timed_out else run.spawn_error}")
        note = "ok" if run.exit_code == 0 else f"logged: exit {run.exit_code}"
        if event in self.blocking:
            message = block_message(run.stdout)
            if message is not None:
                return Verdict(f"block: {message}", block=message)
        context = injected_context(event, run.stdout)
        if context is not None:
            return Verdict("context", context=context)
        if run.stdout.strip():
            note += " (stdout ignored)"
        return Verdict(note)
