"""Gemini CLI, as its code on main (``packages/core/src/hooks/``, ``core/client.ts``,
``context/chatCompressionService.ts``) and a real 0.61.0 run show it; v0.21.0 (the first with
hooks) to v0.61.0.

Timeline: ``SessionStart(startup)`` at launch; per prompt ``BeforeAgent`` (its
``additionalContext`` joins the prompt as ``<hook_context>…</hook_context>``), then one model
request per step of the agent loop. Before every request but a session's first, the
compression service fires ``PreCompress(auto)`` and awaits it, whether or not it then compresses
(its docs say the hook is not awaited; the code wins). ``BeforeTool``/``AfterTool`` around each
tool call; an ``AfterTool`` deny replaces the tool's result with the reason. ``AfterAgent`` ends
the prompt: a deny makes Gemini send the reason as a new prompt, which fires ``BeforeAgent``
again and ``AfterAgent`` with ``stop_hook_active: true``; only the per-prompt turn budget bounds
it. ``/compress`` fires ``PreCompress(manual)``. ``/clear`` fires ``SessionEnd(clear)`` then
``SessionStart(clear)``; quitting fires ``SessionEnd(exit)``; both are awaited.

Hooks run as ``bash -c`` with Gemini's whole environment (redacted only when
``GITHUB_SHA`` is set or redaction is turned on) plus ``GEMINI_*`` variables, which are also
substituted into the command string. Identical hooks run once, in parallel unless any matching
group says ``sequential: true``. Matchers are regexes (a search) for tool events and exact
strings for ``SessionStart``/``SessionEnd``/``PreCompress``. Output (v0.30.0 on): stdout's text,
else stderr's, is read as JSON whatever the exit code; text that is not JSON is a
``systemMessage`` on exit 0, a warning on exit 1, and a deny with that text on any other code;
a silent non-zero exit is only a failed hook. Before v0.30.0 only exit 2 with stderr denied.
"""

from __future__ import annotations

import datetime as dt
import json
import shlex
from collections.abc import Mapping
from typing import Any

from ..scenario import Compact, NewSession, ToolCall, Turn
from .base import (
    SAFETY_LOOP_LIMIT,
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
    parse_matcher_groups,
    parse_version,
)
from .sources import GEMINI, GEMINI_MAIN, code, fact, observed, unverified

EVENTS = frozenset(
    {
        "SessionStart", "SessionEnd", "BeforeAgent", "AfterAgent", "BeforeModel",
        "BeforeToolSelection", "AfterModel", "BeforeTool", "AfterTool", "Notification",
        "PreCompress",
    }
)  # fmt: skip
MATCHER_EVENTS = frozenset({"BeforeTool", "AfterTool", "SessionStart", "SessionEnd", "PreCompress"})
TOOL_EVENTS = frozenset({"BeforeTool", "AfterTool"})
CONTEXT_EVENTS = frozenset({"SessionStart", "BeforeAgent", "AfterTool"})
# Their docs: flow control (continue, decision) is ignored.
ADVISORY = frozenset({"SessionStart", "SessionEnd", "PreCompress", "Notification"})
MAX_TURNS = 100  # client.ts: the per-prompt turn budget
EXIT_CODES_SINCE = (0, 30, 0)  # hookRunner.ts: "all other non-zero exit codes are blocking"
# The variables hookRunner.expandCommand substitutes into the command string.
SUBSTITUTED = ("GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_SESSION_ID", "CLAUDE_PROJECT_DIR")


def _src(path: str, line: int, note: str = "") -> Any:
    return code(GEMINI, GEMINI_MAIN, path, line, note)


RUNNER = "packages/core/src/hooks/hookRunner.ts"
PLANNER = "packages/core/src/hooks/hookPlanner.ts"
CLIENT = "packages/core/src/core/client.ts"
REFERENCE = "docs/hooks/reference.md"


class GeminiSession(Session):
    host: GeminiCli

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.requests = 0  # model requests in this chat; the first sees an empty history

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        instant = dt.datetime.fromtimestamp(self.info.now_ms() / 1000, dt.timezone.utc)
        payload: dict[str, Any] = {
            "session_id": self.info.session_id,
            "transcript_path": self.info.transcript_path,
            "cwd": self.info.cwd,
            "hook_event_name": event,
            "timestamp": instant.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        }
        payload.update(fields)
        return payload

    def _start(self, source: str) -> Firing:
        self.launched = True
        return self.fire("SessionStart", self.payload("SessionStart", source=source), match=source)

    def _request(self) -> None:
        """One model request: the compression check before it fires PreCompress(auto)."""
        if self.requests:
            self.fire("PreCompress", self.payload("PreCompress", trigger="auto"), match="auto")
        self.requests += 1

    def _before_agent(self, prompt: str) -> bool:
        """BeforeAgent for a prompt, then its first request; False when the prompt goes no further."""
        before = self.fire("BeforeAgent", self.payload("BeforeAgent", prompt=prompt))
        if self.halted(before):
            return False
        if before.blocked:
            before.effect = "the prompt is blocked"
            return False
        if before.context:
            before.effect = "the context joins the prompt as <hook_context>…</hook_context>"
        self._request()
        return True

    def _tool(self, call: ToolCall) -> bool:
        fields = {"tool_name": call.name, "tool_input": call.args}
        pre = self.fire("BeforeTool", self.payload("BeforeTool", **fields), match=call.name)
        if self.halted(pre):
            return False
        if pre.blocked:
            pre.effect = f"the {call.name} call is blocked; the reason goes to the model"
        else:
            result = {"tool_response": {"llmContent": call.result}}
            post = self.fire("AfterTool", self.payload("AfterTool", **fields, **result),
                             match=call.name)  # fmt: skip
            if self.halted(post):
                return False
            if post.blocked:
                post.effect = f"the {call.name} result is replaced by the reason"
        self._request()  # the tool's result goes back to the model
        return True

    def turn(self, turn: Turn) -> None:
        if not self.launched:
            self._start("startup")  # its continue and decision are ignored
        if not self._before_agent(turn.user):
            return
        if not all(self._tool(call) for call in turn.tools):
            return
        if not turn.replied:  # AfterAgent fires when the agent answers, even with nothing
            return
        retries = 0
        while True:
            after = self.fire(
                "AfterAgent",
                self.payload("AfterAgent", prompt=turn.user, prompt_response=turn.assistant or "",
                             stop_hook_active=retries > 0),
            )  # fmt: skip
            if self.halted(after) or not after.blocked:
                return
            retries += 1
            cap = self.host.stop_cap
            if cap is not None and retries >= cap:
                after.effect = (
                    f"denied {retries} times in a row: Gemini CLI ends the turn (cap {cap})"
                )
                return
            if retries >= min(MAX_TURNS, SAFETY_LOOP_LIMIT):
                after.effect = (
                    f"denied {retries} times in a row; hooksim ended the loop at {retries}"
                )
                return
            after.effect = f"the reason is sent as a new prompt (retry {retries})"
            if not self._before_agent(after.reason):
                return

    def compact(self, step: Compact) -> None:
        self.fire(
            "PreCompress", self.payload("PreCompress", trigger=step.trigger), match=step.trigger
        )

    def new_session(self, step: NewSession) -> None:
        if self.launched:
            self.fire("SessionEnd", self.payload("SessionEnd", reason="clear"), match="clear")
        self.next_session_id(step)
        self.requests = 0
        self._start("clear")

    def exit(self) -> None:
        if self.launched:
            self.fire("SessionEnd", self.payload("SessionEnd", reason="exit"), match="exit")


class GeminiCli(Host):
    name = "gemini-cli"
    title = "Gemini CLI"
    modelled = "v0.61.0 (code on main, real binary)"
    versions = "v0.21.0 to v0.61.0 (default v0.61.0)"
    checked = f"source ({GEMINI}@{GEMINI_MAIN[:12]}) and a real 0.61.0 run"
    events = {
        "session_start": "SessionStart",
        "prompt_submit": "BeforeAgent",
        "pre_tool": "BeforeTool",
        "post_tool": "AfterTool",
        "stop": "AfterAgent",
        "pre_compact": "PreCompress",
        "post_compact": None,
        "session_end": "SessionEnd",
    }
    config_files = ("~/.gemini/settings.json", ".gemini/settings.json")
    spawn = "shell"
    parallel = True  # unless any matching group sets sequential: true (hookPlanner)
    dedupe = True
    default_timeout_s = 60.0  # DEFAULT_HOOK_TIMEOUT = 60000 ms
    config_timeout_unit = "ms"
    term_grace_s = 5.0
    blocking = frozenset(
        {"BeforeAgent", "AfterAgent", "BeforeTool", "AfterTool", "BeforeModel",
         "BeforeToolSelection"}
    )  # fmt: skip
    not_awaited = frozenset[str]()
    stop_cap = None  # the retry only spends the per-prompt turn budget
    exit_2 = "denies when it prints; silent exit 2 only fails (v0.30.0 on)"
    session_class = GeminiSession
    trust = (
        "project hooks (.gemini/settings.json) run only in a trusted folder; a headless run in"
        " an untrusted folder refuses to start (GEMINI_CLI_TRUST_WORKSPACE=true trusts it)"
    )
    exit_codes_since_0_30 = True
    facts = (
        fact(
            "events",
            "SessionStart, BeforeAgent, BeforeTool/AfterTool, AfterAgent, PreCompress,"
            " SessionEnd (and BeforeModel, AfterModel, BeforeToolSelection, Notification)",
            _src("packages/core/src/hooks/types.ts", 43),
            _src(REFERENCE, 77),
        ),
        fact(
            "not_awaited",
            "PreCompress and SessionEnd are awaited (the docs say they are not)",
            _src(
                "packages/core/src/context/chatCompressionService.ts",
                266,
                "await firePreCompressEvent",
            ),
            _src("packages/cli/src/ui/commands/clearCommand.ts", 31, "await fireSessionEndEvent"),
            _src("packages/cli/src/gemini.tsx", 660, "await fireSessionEndEvent on exit"),
            _src(REFERENCE, 298, "docs: fired asynchronously; the code wins"),
            _src(REFERENCE, 267, "docs: SessionEnd will not wait; the code wins"),
            observed("0.61.0", "PreCompress and SessionEnd awaited"),
        ),
        fact(
            "PreCompress",
            "fires (trigger auto) before every model request but a chat's first,"
            " before the token check decides whether to compress",
            _src("packages/core/src/context/chatCompressionService.ts", 264),
            _src(CLIENT, 689, "processTurn calls tryCompressChat before each request"),
            observed("0.61.0", "PreCompress(auto) before every request"),
        ),
        fact(
            "spawn",
            "bash -c COMMAND, shell: false, cwd = the session's cwd",
            _src("packages/core/src/utils/shell-utils.ts", 698),
            _src(RUNNER, 358),
        ),
        fact(
            "environment",
            "Gemini's whole environment (redacted only with GITHUB_SHA set or"
            " redaction on), plus GEMINI_PROJECT_DIR, GEMINI_CWD, GEMINI_SESSION_ID,"
            " GEMINI_PLANS_DIR and CLAUDE_PROJECT_DIR",
            _src(RUNNER, 349),
            _src("packages/core/src/services/environmentSanitization.ts", 17),
            observed("0.61.0", "GEMINI_API_KEY reached the hook"),
        ),
        fact(
            "command substitution",
            "$GEMINI_PROJECT_DIR, $GEMINI_CWD, $GEMINI_SESSION_ID,"
            " $GEMINI_PLANS_DIR and $CLAUDE_PROJECT_DIR in the command string are replaced,"
            " shell-quoted, before the shell runs it",
            _src(RUNNER, 526),
        ),
        unverified(
            "GEMINI_PLANS_DIR",
            "its value (Storage.getPlansDir) is not modelled; hooks do not get it in hooksim",
            _src(RUNNER, 351),
        ),
        fact(
            "parallel",
            "matching hooks run in parallel unless any has sequential: true",
            _src(PLANNER, 54),
        ),
        fact(
            "sequential input",
            "in a sequential run each hook's output changes the next hook's"
            " input (BeforeAgent prompt += additionalContext, BeforeTool tool_input merged);"
            " hooksim does not model this yet",
            _src(RUNNER, 172),
        ),
        fact("dedupe", "identical hooks of one firing run once", _src(PLANNER, 48)),
        fact(
            "matcher",
            "trimmed; '' or '*' match all; tool events: a RegExp test (unanchored),"
            " an invalid regex compares exactly; SessionStart/SessionEnd/PreCompress: the exact"
            " string",
            _src(PLANNER, 84),
            _src(PLANNER, 108),
            _src(PLANNER, 119),
            observed("0.61.0", "exact-string matchers for SessionStart/SessionEnd/PreCompress"),
        ),
        fact(
            "default_timeout_s",
            "60 000 ms; timeout is configured in milliseconds",
            _src(RUNNER, 36),
        ),
        fact("term_grace_s", "a timeout sends SIGTERM, then SIGKILL 5 s later", _src(RUNNER, 381)),
        fact(
            "exit codes",
            "v0.30.0 on: stdout's text, else stderr's, is JSON whatever the exit"
            " code; other text: exit 0 systemMessage, exit 1 warning, any other code a deny with"
            " the text; a silent non-zero exit only fails",
            _src(RUNNER, 455),
            _src(RUNNER, 547),
            _src(RUNNER, 554),
            code(
                GEMINI,
                "884acda2dca825e9f2e763ce65b75b78657cc973",
                RUNNER,
                431,
                "the change, 2026-02-15, first in v0.30.0",
            ),
            observed("0.61.0", "exit 3 with output denies; silent exit 2 does not"),
        ),
        fact(
            "blocking",
            "BeforeAgent, BeforeTool, BeforeModel, BeforeToolSelection and AfterAgent"
            " (a retry) can deny; an AfterTool deny replaces the tool's result with the reason",
            _src(
                "packages/core/src/core/coreToolHookTriggers.ts",
                208,
                "llmContent: Tool result blocked: <reason>",
            ),
            _src(REFERENCE, 114),
        ),
        fact(
            "stop",
            "an AfterAgent deny sends the reason as a new prompt: BeforeAgent fires"
            " again, AfterAgent with stop_hook_active: true",
            _src(CLIENT, 1017),
            _src(CLIENT, 1032),
            observed("0.61.0", "BeforeAgent again with the reason"),
        ),
        fact(
            "stop_cap",
            "none: the retry spends the per-prompt budget (MAX_TURNS = 100), which"
            " does not stop a hook that keeps denying; hooksim ends the loop at 50",
            _src(CLIENT, 79),
            _src(CLIENT, 1030),
        ),
        fact(
            "context",
            "BeforeAgent additionalContext joins the prompt as <hook_context>…</hook_context>",
            _src(CLIENT, 953),
            observed("0.61.0"),
        ),
        fact(
            "SessionStart",
            "continue and decision are ignored; additionalContext joins the"
            " history (interactive) or the prompt (headless) as <hook_context>",
            _src(REFERENCE, 257),
            _src("packages/cli/src/gemini.tsx", 838),
            _src("packages/cli/src/ui/AppContainer.tsx", 503),
        ),
        fact(
            "trust",
            "project hooks do not run in an untrusted folder",
            _src(RUNNER, 64),
            _src("packages/core/src/hooks/hookRegistry.ts", 139),
        ),
        fact(
            "config_files",
            "user ~/.gemini/settings.json and project .gemini/settings.json",
            _src(REFERENCE, 21),
        ),
    )

    def at_version(self, version: str) -> Host:
        """Gemini CLI at ``version`` (v0.21.0 on): before v0.30.0 only exit 2 with stderr denied."""
        v = parse_version(self.title, version)
        if v < (0, 21, 0):
            raise ValueError(
                f"hooksim models Gemini CLI from v0.21.0 (its first hooks) on, not {version}"
            )
        if v > (0, 61, 0):
            raise ValueError(f"hooksim models Gemini CLI up to v0.61.0, not {version}")
        changes: dict[str, Any] = {}
        if v < EXIT_CODES_SINCE:
            changes["exit_codes_since_0_30"] = False
            changes["exit_2"] = "blocks, stderr is the reason (before v0.30.0)"
        return as_version(self, version, changes)

    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        return parse_matcher_groups(
            block,
            events=EVENTS,
            matcher_events=MATCHER_EVENTS,
            timeout_unit_s=0.001 if self.config_timeout_unit == "ms" else 1.0,
        )

    def matches(self, spec: HookSpec, value: str | None) -> bool:
        """hookPlanner: a regex test for tool names, the exact string for triggers and sources."""
        matcher = None if spec.matcher is None else spec.matcher.strip()
        if not matcher or matcher == "*" or value is None:
            return True
        if spec.event in TOOL_EVENTS:
            return super().matches(HookSpec(spec.event, spec.command, matcher=matcher), value)
        return matcher == value

    match_search = True  # RegExp.test: a search

    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        for name in SUBSTITUTED:
            if name in env:
                command = command.replace(f"${name}", shlex.quote(env[name]))
        return ["bash", "-c", command]

    def env(self, event: str, info: SessionInfo) -> dict[str, str]:
        return {
            "GEMINI_PROJECT_DIR": info.cwd,
            "GEMINI_CWD": info.cwd,
            "GEMINI_SESSION_ID": info.session_id,
            "CLAUDE_PROJECT_DIR": info.cwd,
        }

    def read(self, event: str, run: HookRun) -> Verdict:
        if run.timed_out or run.spawn_error:
            return Verdict(f"warning: {'timed out' if run.timed_out else run.spawn_error}")
        code_ = run.exit_code or 0
        output, text = self._output(run, code_)
        if output is None and text is None:
            return Verdict("ok" if code_ == 0 else f"failed (goes on): exit {code_}, no output")
        if output is None:
            assert text is not None
            if code_ == 0:
                return Verdict(f"systemMessage: {first_line(text)}")
            if code_ == 1 or (not self.exit_codes_since_0_30 and code_ != 2):
                return Verdict(f"warning (goes on): exit {code_} {first_line(text)}".strip())
            return self._deny(event, text, f"exit {code_}")
        if output.get("continue") is False and event not in ADVISORY:
            return Verdict(f"continue: false ({output.get('stopReason', '')})", stop=True)
        context = additional_context(output) if event in CONTEXT_EVENTS else None
        if output.get("decision") in ("deny", "block"):
            return self._deny(
                event, str(output.get("reason") or ""), f"decision {output['decision']}", context
            )
        return Verdict("context (JSON)" if context else "ok", context=context)

    def _output(self, run: HookRun, exit_code: int) -> tuple[dict[str, Any] | None, str | None]:
        """hookRunner: the JSON object a hook printed, or else its text (None, None: nothing)."""
        if self.exit_codes_since_0_30:
            text = run.stdout.strip() or run.stderr.strip()
        elif exit_code == 0:
            text = run.stdout.strip()
        else:
            text = run.stderr.strip()  # before v0.30.0 stdout was read only on exit 0
            return None, text or None
        if not text:
            return None, None
        try:
            parsed = json.loads(text)
            if isinstance(parsed, str):
                parsed = json.loads(parsed)
        except ValueError:
            return None, text
        return (parsed, None) if isinstance(parsed, dict) else (None, None)

    def _deny(self, event: str, reason: str, why: str, context: str | None = None) -> Verdict:
        if event not in self.blocking:
            return Verdict(f"{why}: {event} cannot be denied; ignored")
        if event == "AfterTool":
            blocked = f"Tool result blocked: {reason}"
            return Verdict(f"{why}: the model gets {first_line(blocked)!r}", block=reason,
                           context=blocked)  # fmt: skip
        return Verdict(f"block: {first_line(reason)}", block=reason, context=context)
