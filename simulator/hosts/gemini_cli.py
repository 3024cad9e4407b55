"""Gemini CLI, as its code on main (``packages/core/src/hooks/``, ``core/client.ts``,
``context/chatCompressionService.ts``) and a real 0.61.0 run show it; v0.21.0 (the first with
hooks) to v0.61.0.

Timeline: ``SessionStart(startup)`` at launch; per prompt ``BeforeAgent`` (its
``additionalContext`` joins the prompt as ``<hook_context>…</hook_context>``), then one model
request per step of the agent loop. Before every request (a session's first included: its
history starts with the environment context) the compression service fires ``PreCompress(auto)``
and awaits it, whether or not it then compresses (its docs say the hook is not awaited; the code
wins); then ``BeforeModel``, ``BeforeToolSelection``, and ``AfterModel`` for each streamed chunk
of the reply. ``BeforeTool``/``AfterTool`` around each tool call; an ``AfterTool`` deny replaces
the tool's result with the reason. ``AfterAgent`` ends the prompt: a deny makes Gemini send the
reason as a new prompt, which fires ``BeforeAgent`` again and ``AfterAgent`` with
``stop_hook_active: true``; only the per-prompt turn budget bounds it. ``/compress`` fires
``PreCompress(manual)``. ``/clear`` fires ``SessionEnd(clear)`` then ``SessionStart(clear)``;
quitting fires ``SessionEnd(exit)``; both are awaited. Headless (``gemini -p``,
``hosts.gemini-cli.launch: headless``) each prompt is a run of its own: ``SessionStart(startup)``,
or ``(resume)`` with ``--resume``, the prompt, ``SessionEnd(exit)``.

Hooks run as ``bash -c`` with Gemini's whole environment (redacted only when
``GITHUB_SHA`` is set or redaction is turned on) plus ``GEMINI_*`` variables, which are also
substituted into the command string. Identical hooks run once, in parallel unless any matching
group says ``sequential: true``; then one after another, each JSON output that exits 0 changing
the next hook's input (BeforeAgent's prompt, BeforeModel's request, BeforeTool's tool_input). Matchers are regexes (a search) for tool events and exact
strings for ``SessionStart``/``SessionEnd``/``PreCompress``. Output (v0.30.0 on): stdout's text,
else stderr's, is read as JSON whatever the exit code; text that is not JSON is a
``systemMessage`` on exit 0, a warning on exit 1, and a deny with that text on any other code;
a silent non-zero exit is only a failed hook. Before v0.30.0 only exit 2 with stderr denied.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..steps import Compact, NewSession, Resume, ToolCall, Turn
from .base import (
    SAFETY_LOOP_LIMIT,
    Firing,
    HookRun,
    HookSpec,
    Host,
    Plugin,
    Session,
    SessionInfo,
    Verdict,
    additional_context,
    as_version,
    first_line,
    parse_matcher_groups,
    parse_version,
)
from .conversation import ASSISTANT, USER, Message
from .plugins import hook_specs, hydrate, read_gemini_extension
from .sources import GEMINI, GEMINI_MAIN, code, fact, observed, release

EVENTS = frozenset(
    {
        "SessionStart", "SessionEnd", "BeforeAgent", "AfterAgent", "BeforeModel",
        "BeforeToolSelection", "AfterModel", "BeforeTool", "AfterTool", "Notification",
        "PreCompress",
    }
)  # fmt: skip
MATCHER_EVENTS = frozenset({"BeforeTool", "AfterTool", "SessionStart", "SessionEnd", "PreCompress"})
TOOL_EVENTS = frozenset({"BeforeTool", "AfterTool"})
MODEL_EVENTS = frozenset({"BeforeModel", "AfterModel"})  # their blocks end the model request
CONTEXT_EVENTS = frozenset({"SessionStart", "BeforeAgent", "AfterTool"})
# Their docs: flow control (continue, decision) is ignored; BeforeToolSelection's too, by its
# code (hookSystem.fireBeforeToolSelectionEvent reads only the tool config).
ADVISORY = frozenset(
    {"SessionStart", "SessionEnd", "PreCompress", "Notification", "BeforeToolSelection"}
)
MAX_TURNS = 100  # client.ts: the per-prompt turn budget
# What the model reads after a tool's result when a BeforeTool hook rewrote its input (the
# 0.61.0 scheduler, bundle/chunk-JDPZ4CE3.js 347173).
REWRITE_NOTE = "\n\n[System] Tool input parameters were modified by a hook before execution."
# What a compression leaves the model: the summary as a user message and the model's reply to
# it (chatCompressionService.ts); the recent turns it also keeps are not modelled.
COMPRESSED = ("Summary of the conversation so far.", "Got it. Thanks for the additional context!")
# The commits on main that changed the hook environment (first released in v0.39.0 and v0.23.0).
VARIABLES_SINCE = "a4318f22ece9c8fbcbafb87e4ec0a84f71b11d2e"
QUOTED_SINCE = "41a1a3eed15f0dd6566c0eaf9ef6a6b5d6b7408c"
# The commit that joins a role's consecutive chat entries in each request (first in v0.53.0).
COALESCED_SINCE = "3ff5ba20fc1ad7d867218bbdb34756eb54d6eccb"
EXIT_CODES_SINCE = (0, 30, 0)  # hookRunner.ts: "all other non-zero exit codes are blocking"
# The variables hookRunner.expandCommand substitutes into the command string.
SUBSTITUTED = ("GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_PLANS_DIR", "GEMINI_SESSION_ID",
               "CLAUDE_PROJECT_DIR")  # fmt: skip
# shell-quote's quote(): what escapeShellArg gives bash (backslashes, not quotes, where it can).
_QUOTE_SPECIAL = re.compile(r"([A-Za-z]:)?([#!\"$&'()*,:;<=>?@\[\\\]^`{|}])")


def _src(path: str, line: int, note: str = "") -> Any:
    return code(GEMINI, GEMINI_MAIN, path, line, note)


def _pkg(chunk: str, line: int, note: str = "") -> Any:
    """A line of the released 0.61.0 bundle (the chunks ``bundle/gemini.js`` loads)."""
    return release("@google/gemini-cli", "0.61.0", f"bundle/{chunk}", line, note)


CLI_CHUNK = "chunk-HPLZM7PQ.js"  # packages/cli, as gemini-3HFX2LNT.js imports it
CORE_CHUNK = "chunk-JDPZ4CE3.js"  # packages/core


RUNNER = "packages/core/src/hooks/hookRunner.ts"
PLANNER = "packages/core/src/hooks/hookPlanner.ts"
CLIENT = "packages/core/src/core/client.ts"
REFERENCE = "docs/hooks/reference.md"
CHAT = "packages/core/src/core/geminiChat.ts"
GEMINI_TSX = "packages/cli/src/gemini.tsx"
_RAN = "the tool really runs on the host: its output is not the scenario's scripted result"


class GeminiSession(Session):
    host: GeminiCli

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # An auto compaction step is the compression check before the next request: that
        # request does not fire PreCompress a second time.
        self.compressed = False
        self.runs = 0  # headless: the ``gemini -p`` runs of this session so far
        self.calls = 0  # the session's tool calls so far (their ids)
        self.before_new: str | None = None  # the session a /new left (``--resume latest``)
        # The conversation as a BeforeModel hook sees it (messages with text), what the next
        # requests' responses say, and whether the chat starts afresh (with its session context).
        self.history: list[tuple[str, list[str]]] = []  # (role, text parts), as sent
        self.responses: list[str] = []
        self.answer: str | None = None  # a hook's answer in place of the model's (``_request``)
        self.new_chat = True
        self.started_context = ""  # the session context as the CLI started (``_start``)
        self.chats: dict[str, list[tuple[str, list[str]]]] = {}  # sessions left by /new

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
        # The chat's session context is taken as the CLI starts, before its SessionStart
        # hooks run (what they write is not in its folder listing: real 0.61.0).
        self.started_context = session_context(self.info, self.info.now_ms())
        self.launched = True
        self.said.started(source, self.info.session_id)
        return self.fire("SessionStart", self.payload("SessionStart", source=source), match=source)

    def _request(self, prompt: str) -> bool:
        """One model request: the compression check fires PreCompress(auto), then BeforeModel
        and BeforeToolSelection, and AfterModel for the reply (one streamed chunk in hooksim).
        False when the scripted replies go no further: a hook stopped the agent, or blocked
        the request or its reply, or put a reply of its own in its place (then ``answer`` is
        what the turn answered; geminiChat.ts catches AgentExecutionBlockedError)."""
        if self.compressed:
            self.compressed = False
        else:
            self.fire("PreCompress", self.payload("PreCompress", trigger="auto"), match="auto")
        self.said.sending()  # the chat file records what the request adds (geminiChat.ts)
        request = {"model": self.info.model, "messages": self._messages(),
                   "config": dict(REQUEST_CONFIG)}  # fmt: skip
        before = self.fire("BeforeModel", self.payload("BeforeModel", llm_request=request))
        if self._stopped(before):
            return False
        if before.blocked:
            # No request: the hook's llm_response, if any, is the turn's answer; the chat
            # keeps no reply (real 0.61.0).
            self.answer = substitute(self.host, before) or ""
            before.effect = (
                f"the request is not sent; the turn's answer is {self.answer!r}"
                if self.answer
                else "the request is not sent; the turn has no answer"
            )
            self.said.failed()
            return False
        selection = self.fire(
            "BeforeToolSelection", self.payload("BeforeToolSelection", llm_request=request)
        )
        selection.effect = tool_config(self.host, selection)
        text = self.responses.pop(0) if self.responses else ""
        after = self.fire("AfterModel", self.payload("AfterModel", llm_request=request,
                                                      llm_response=llm_response(text)))  # fmt: skip
        if self._stopped(after):
            return False
        if after.blocked:
            # The reply reaches the turn as it came, but the chat keeps none of it (real 0.61.0).
            self.answer = text
            after.effect = "the reply is the turn's answer, but the chat keeps none of it"
            self.said.failed()
            return False
        self.history.append(("model", [text] if text else []))
        replaced = substitute(self.host, after)
        if replaced is not None:  # the turn gets the hook's reply; the chat keeps the model's
            self.answer = replaced
            if text:
                self.said.replied(text)
            after.effect = f"the turn's answer is the hook's llm_response {replaced!r}"
            return False
        return True

    def _stopped(self, firing: Firing) -> bool:
        """``continue: false`` from BeforeModel or AfterModel (AgentExecutionStoppedError):
        ``gemini -p`` stops reading the turn at once (nonInteractiveCli.ts returns), so no
        AfterAgent fires and the chat rolls back the prompt (geminiChat.ts streamWithRetries'
        ``finally``: not a success); the interactive UI reads the turn to its end, AfterAgent
        fires with no answer and the chat keeps the prompt."""
        if not self.halted(firing):
            return False
        if self.host.headless:
            if self.history and self.history[-1][0] == "user":  # the prompt's own request
                self.history.pop()
                prompt = self.said.last(USER)
                self.said.messages = [m for m in self.said.messages if m is not prompt]
                firing.effect += "; the chat forgets the prompt"
        else:
            self.answer = ""
            firing.effect += "; AfterAgent fires with no answer"
        return True

    def _asked(self, prompt: str, context: list[str]) -> None:
        """The prompt joins the conversation, with a ``<hook_context>`` part for each context
        BeforeAgent gave; a new chat starts with its session context. A resumed chat (the next
        ``gemini -p --resume``) has what its chat file gives back, after a session context
        taken afresh: no prompt whose text is empty or starts with ``/``, ``?``,
        ``<session_context>`` or ``<hook_context>`` (a SessionStart context's prompt is gone)."""
        hooks = [f"<hook_context>{escaped(c)}</hook_context>" for c in context]
        if self.new_chat and not self.history:
            self.history = [("user", [self.started_context])]
        elif self.new_chat:
            self.history = [("user", [self.started_context])] + [
                (role, parts) for role, parts in self.history[1:] if role != "user" or resumed(parts)
            ]  # fmt: skip
        self.new_chat = False
        self.history.append(("user", [prompt, *hooks]))

    def _messages(self) -> list[dict[str, str]]:
        """The conversation as BeforeModel's llm_request has it (hookTranslator.ts
        ``toHookLLMRequest``): each message's text parts joined, one without text left out;
        the session context and the prompt after it are one message (v0.53.0 on, where the
        chat joins a role's consecutive entries before each request; before, two)."""
        messages: list[dict[str, str]] = []
        apart = True  # a tool call (a model entry without text) keeps the prompts around it apart
        for role, parts in self.history:
            text = "".join(parts)
            if not text:
                apart = True
                continue
            joins = self.host.coalesces_roles and not apart
            if messages and messages[-1]["role"] == role and joins:
                messages[-1]["content"] += text
            else:
                messages.append({"role": role, "content": text})
            apart = False
        return messages

    def _before_agent(self, prompt: str, *, retry: Firing | None = None) -> bool:
        """BeforeAgent for a prompt (a retry's: the reason of the AfterAgent deny ``retry``,
        which reaches the model only if BeforeAgent lets it through), then its first request;
        False when the prompt goes no further."""
        before = self.fire("BeforeAgent", self.payload("BeforeAgent", prompt=prompt))
        stopped = self.halted(before)
        if before.blocked and not stopped:
            before.effect = "the prompt is blocked"
            return False
        if retry:
            self.deliver(retry)
            self.said.fed_back("AfterAgent", prompt)
        else:
            self.said.prompt(prompt)
        self._asked(prompt, [] if stopped else before.context)
        if stopped:
            # client.ts sendMessageStream: a stopped prompt joins the chat (addHistory), without
            # its context and unanswered; a blocked one does not (real 0.61.0).
            before.effect += "; the prompt joins the chat unanswered"
            return False
        if before.context:
            before.effect = "the context joins the prompt as <hook_context>…</hook_context>"
        return self._request(prompt)

    def _tool(self, call: ToolCall) -> bool:
        fields = {"tool_name": call.name, "tool_input": call.args}
        self.calls += 1
        call_id = f"{call.name}__{call.id or f'call_{self.calls}'}"  # the scheduler's call id
        self.said.called(call, call_id)
        pre = self.fire("BeforeTool", self.payload("BeforeTool", **fields), match=call.name)
        if self.halted(pre):
            self._tool_stopped(pre, call, call_id)
            return False
        if pre.blocked:
            pre.effect = f"the {call.name} call is blocked; the reason goes to the model"
            self.deliver(pre)
            self.said.returned(call, call_id, "\n".join(self.told(pre)), denied=True)
        else:
            ran = self.run_tool(call, pre)
            # AfterTool gets the input object BeforeTool's rewrite changed in place; the model
            # gets a note of the rewrite, added after AfterTool (the scheduler's
            # ``inputModifiedByHook`` note, without the keys main's coreToolHookTriggers.ts
            # names: real 0.61.0).
            fields["tool_input"] = ran.args
            content = ran.result
            # coreToolHookTriggers: the tool's llmContent and returnDisplay (its error, if any)
            result = {"tool_response": {"llmContent": content, "returnDisplay": ran.result}}
            if pre.updated_input:
                content += REWRITE_NOTE
            post = self.fire("AfterTool", self.payload("AfterTool", **fields, **result),
                             match=call.name)  # fmt: skip
            if self.halted(post):
                self._tool_stopped(post, ran, call_id)
                return False
            if post.blocked:
                post.effect = f"the {call.name} result is replaced by the reason"
                self.deliver(post)
                content = "\n".join(self.told(post))
            self.said.returned(ran, call_id, content)
        return self._request(call.name)  # the tool's result goes back to the model

    def _tool_stopped(self, firing: Firing, call: ToolCall, call_id: str) -> None:
        """``continue: false`` from BeforeTool or AfterTool: the call's response is the stop
        (coreToolHookTriggers.ts, STOP_EXECUTION), which the chat keeps, so the model reads it
        with the next prompt (real 0.61.0)."""
        stopped = next(
            (t for t in firing.shown if t.startswith("Agent execution stopped by hook: ")), ""
        )
        firing.context.append(stopped)
        self.said.returned(call, call_id, stopped, denied=True)

    def turn(self, turn: Turn) -> None:
        if self.host.headless:
            # Each prompt is a ``gemini -p`` run of its own: it starts (or resumes) the session
            # and ends it when the prompt is done.
            self.new_chat = True  # each run's chat starts with its own session context
            started = self._start("resume" if self.runs else "startup")
            self.runs += 1
            self._prompt(with_start_context(turn, started))
            self.fire("SessionEnd", self.payload("SessionEnd", reason="exit"), match="exit")
            self.launched = False
            return
        if not self.launched:
            self._start("startup")  # its continue and decision are ignored
        self._prompt(turn)

    def _prompt(self, turn: Turn) -> None:
        self.said.submitted(turn.user)
        # A request per tool call and one for the answer: the calls' responses have no text.
        self.responses = [""] * len(turn.tools) + [turn.reply(0) or ""]
        self.answer = None
        went_on = self._before_agent(turn.user) and all(self._tool(c) for c in turn.tools)
        if not went_on and self.answer is None:
            return
        if went_on and not turn.replied:  # AfterAgent fires when the agent answers
            self.said.failed()
            return
        retries = 0
        replies: list[str] = []
        while True:
            # Every reply of the prompt so far, retries included, one per line (client.ts
            # cumulativeResponse); "[no response text]" when there is none. A hook's answer
            # (``answer``) stands in for the model's.
            if self.answer is None:
                self.said.replied(turn.reply(retries) or "")
            replies.append(turn.reply(retries) or "" if self.answer is None else self.answer)
            response = "\n".join(r for r in replies if r) or "[no response text]"
            after = self.fire(
                "AfterAgent",
                self.payload("AfterAgent", prompt=turn.user, prompt_response=response,
                             stop_hook_active=retries > 0),
            )  # fmt: skip
            if self.halted(after) or not after.blocked:
                self._clear(after, "the turn ends")
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
                after.cut = retries
                return
            after.effect = f"the reason is sent as a new prompt (retry {retries})"
            self._clear(after, "before the reason is sent")
            self.responses = [turn.reply(retries) or ""]
            self.answer = None
            if not self._before_agent(after.reason, retry=after) and self.answer is None:
                return

    def _clear(self, after: Firing, when: str) -> None:
        """AfterAgent's ``clearContext`` when it stops the agent or denies (retries): the chat
        starts over (client.ts ``resetChat``) and the interactive UI says so; a headless run
        prints nothing of it."""
        if not after.clear or not (after.stop or after.blocked):
            return
        after.cleared = True
        self.said.cleared()
        # A new chat: the retry prompt is its first message, after a fresh session context.
        self.history, self.new_chat = [], True
        self.started_context = session_context(self.info, self.info.now_ms())
        said = f"the conversation is cleared (clearContext) {when}"
        after.effect = f"{after.effect}; {said}" if after.effect else said
        if not self.host.headless:
            after.shown.append("Conversation context has been cleared.")

    def told(self, firing: Firing) -> list[str]:
        """What the model gets from a deny the session goes on with: the reason of every
        denying hook, joined (hookAggregator), as the retry prompt (client.ts
        ``continueRequest``) or as the denied tool's function response ``{error: …}``
        (tool-executor.ts ``createErrorResponse``): ``Tool execution blocked: REASON`` before
        the tool ran (scheduler/hook-utils.ts), the reason alone after it."""
        if not any(run.told for run in firing.runs):
            return []
        if firing.event == "BeforeTool":
            return [f"Tool execution blocked: {firing.reason}"]
        return [firing.reason]

    def rewritten(self, args: dict[str, Any], updated: dict[str, Any]) -> dict[str, Any]:
        """BeforeTool's ``tool_input`` is merged into the call's input (``Object.assign``)."""
        return {**args, **updated}

    def compact(self, step: Compact) -> None:
        if self.host.headless and step.trigger == "manual":
            self._compress_command(step)
            return
        self._compress(step)

    def _compress_command(self, step: Compact) -> None:
        """``gemini -p '/compact'``: a run of its own that runs the command (PreCompress(manual),
        the compression) and then sends its text to the model as a prompt all the same (a
        command that returns nothing falls through): one more model turn, AfterAgent and a turn
        in the chat file included (real 0.61.0). The model answers as it last did (a step that
        scripts no reply: hooksim's fake model repeats its last text)."""
        self.new_chat = True
        started = self._start("resume" if self.runs else "startup")
        self.runs += 1
        last = self.said.last(ASSISTANT)
        self._compress(step)
        command = f"/compact {step.instructions}".strip()
        self._prompt(with_start_context(Turn(command, last.text if last else ""), started))
        self.fire("SessionEnd", self.payload("SessionEnd", reason="exit"), match="exit")
        self.launched = False

    def _compress(self, step: Compact) -> None:
        self.fire(
            "PreCompress", self.payload("PreCompress", trigger=step.trigger), match=step.trigger
        )
        # An automatic compression happens in the check before the next request.
        self.compressed = step.trigger == "auto"
        self.said.compacted(
            step.trigger,
            COMPRESSED[0],
            [Message(USER, COMPRESSED[0]), Message(ASSISTANT, COMPRESSED[1])],
        )

    def new_session(self, step: NewSession) -> None:
        self.chats[self.info.session_id] = self.history  # --resume of it brings it back
        self.history, self.new_chat = [], True  # the next session's chat starts afresh
        self.before_new = self.info.session_id
        if self.host.headless:  # the next run starts a session of its own
            self.next_session_id(step)
            self.runs = 0
            return
        if self.launched:
            self.fire("SessionEnd", self.payload("SessionEnd", reason="clear"), match="clear")
        self.next_session_id(step)
        self._start("clear")

    def resume(self, step: Resume) -> None:
        """``gemini --resume``: the running CLI quits (SessionEnd exit) and a new one fires
        SessionStart(resume) for the same session. Headless, every run after the first already
        resumes; after a /new, ``--resume latest`` is the session before it."""
        if self.host.headless:
            if not self.runs and self.before_new is not None:
                self.info.session_id = self.before_new
                self.history = self.chats.get(self.before_new, self.history)
            self.runs = max(self.runs, 1)
            return
        self.exit()
        self._start("resume")

    def exit(self) -> None:
        if self.launched:
            self.fire("SessionEnd", self.payload("SessionEnd", reason="exit"), match="exit")


# What the model is asked with and answers, as BeforeModel and AfterModel hooks see it
# (hookTranslator.ts: each message's text parts joined; one without text left out).
REQUEST_CONFIG = {"temperature": 1, "topP": 0.95, "topK": 64}  # the default models' settings
# The token counts hooksim's fake model reports for every answer (real runs against it).
USAGE = {"promptTokenCount": 100, "candidatesTokenCount": 1, "totalTokenCount": 101}
# What a resumed chat leaves out of the prompts its chat file holds: one whose text starts so
# (chatRecordingService.ts isIgnoredUserContent: a command, hooks' or the session's context).
NOT_RESUMED = ("/", "?", "<session_context>", "<hook_context>")
# Folders whose content the session context does not list (getFolderStructure).
IGNORED_FOLDERS = frozenset({"node_modules", ".git", "dist", "__pycache__"})


def llm_response(text: str) -> dict[str, Any]:
    """AfterModel's llm_response for an answer (a tool call's has no text, so no part)."""
    content = {"role": "model", "parts": [text] if text else []}
    return {"text": text, "candidates": [{"content": content, "finishReason": "STOP",
                                          "index": 0}], "usageMetadata": dict(USAGE)}  # fmt: skip


def outputs(host: GeminiCli, firing: Firing) -> list[dict[str, Any]]:
    """What each hook of a firing gave Gemini CLI, in order (hookAggregator's ``allOutputs``):
    its JSON object, or ``{}`` for text, which the runner turns into an output of its own."""
    given: list[dict[str, Any]] = []
    for run in firing.runs:
        if run.timed_out or run.spawn_error:
            continue
        output, text = host._output(run, run.exit_code or 0)
        if output is not None or text is not None:
            given.append(output or {})
    return given


def specific(output: dict[str, Any], key: str) -> Any:
    """A key of an output's ``hookSpecificOutput`` (None when it has none)."""
    found = output.get("hookSpecificOutput")
    return found.get(key) if isinstance(found, dict) else None


def substitute(host: GeminiCli, firing: Firing) -> str | None:
    """The text of the reply a BeforeModel or AfterModel hook gives in the model's place: its
    ``hookSpecificOutput.llm_response``, the last hook's that has one (hookAggregator
    ``mergeWithFieldReplacement``), its first candidate's parts joined (the turn's response
    text). AfterModel's counts only with parts (``getModifiedResponse``); None: no reply."""
    text = None
    for output in outputs(host, firing):
        response = specific(output, "llm_response")
        candidates = response.get("candidates") if isinstance(response, dict) else None
        first = candidates[0] if isinstance(candidates, list) and candidates else {}
        content = first.get("content") if isinstance(first, dict) else None
        parts = content.get("parts") if isinstance(content, dict) else None
        if not isinstance(parts, list) or (firing.event == "AfterModel" and not parts):
            continue
        text = "".join(p for p in parts if isinstance(p, str))
    return text


def tool_config(host: GeminiCli, firing: Firing) -> str:
    """What BeforeToolSelection's hooks make of the request's tool config, in words
    (hookAggregator ``mergeToolSelectionOutputs``: a NONE wins, else an ANY, else AUTO; the
    allowed names of every hook, sorted). Any output sets it; ``decision`` and ``continue``
    are not read (hookSystem ``fireBeforeToolSelectionEvent``). hooksim's scripted model
    calls its tools all the same, as the fake model of a real run does."""
    given = outputs(host, firing)
    if not given:
        return ""
    configs = [c for c in (specific(o, "toolConfig") for o in given) if isinstance(c, dict)]
    modes = {c.get("mode") for c in configs}
    mode = "NONE" if "NONE" in modes else "ANY" if "ANY" in modes else "AUTO"
    names = sorted({n for c in configs for n in c.get("allowedFunctionNames") or []})
    return (
        f"the request is sent with toolConfig mode {mode}, allowedFunctionNames"
        f" {names if mode != 'NONE' else []}"
    )


def escaped(text: str) -> str:
    """A hook's context as Gemini CLI wraps it: ``<`` and ``>`` escaped (getAdditionalContext)."""
    return text.replace("<", "&lt;").replace(">", "&gt;")


def session_context(info: SessionInfo, now_ms: int) -> str:
    """The session context a new chat's first message starts with (environmentContext.ts
    ``getEnvironmentContext``): the date, the system, the project's temporary folder, the
    workspace and its folder structure; the session memory (GEMINI.md) is not modelled."""
    day = dt.datetime.fromtimestamp(now_ms / 1000, dt.timezone.utc)
    today = f"{day:%A}, {day:%B} {day.day}, {day.year}"
    cwd = info.cwd.rstrip("/")
    temp = f"{info.home}/.gemini/tmp/{Path(cwd).name}"
    return (
        "<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n"
        f"Today's date is {today} (formatted according to the user's locale).\n"
        f"My operating system is: linux\nThe project's temporary directory is: {temp}\n"
        f"- **Workspace Directories:**\n  - {cwd}\n- **Directory Structure:**\n\n"
        f"{folder_structure(Path(cwd))}\n\n\n</session_context>"
    )


def folder_structure(root: Path) -> str:
    """The project's folders and files as getFolderStructure lists them: breadth first, each
    folder's files (by name) before its subfolders, ignored folders marked ``...``."""
    lines: list[str] = []

    def walk(folder: Path, indent: str) -> None:
        try:
            entries = sorted(folder.iterdir(), key=lambda e: (e.name.casefold(), e.name.swapcase()))
        except OSError:
            return
        files = [e for e in entries if e.is_file()]
        folders = [e for e in entries if e.is_dir()]
        for n, entry in enumerate(files):
            last = n == len(files) - 1 and not folders
            lines.append(f"{indent}{'└───' if last else '├───'}{entry.name}")
        for n, entry in enumerate(folders):
            last = n == len(folders) - 1
            ignored = entry.name in IGNORED_FOLDERS
            mark = "..." if ignored else ""
            lines.append(f"{indent}{'└───' if last else '├───'}{entry.name}/{mark}")
            if not ignored:
                walk(entry, indent + ("    " if last else "│   "))

    walk(root, "")
    summary = "Showing up to 200 items (files + folders)."
    if any(line.endswith("/...") for line in lines):
        summary += (" Folders or files indicated with ... contain more items not shown, were"
                    " ignored, or the display limit (200 items) was reached.")  # fmt: skip
    return f"{summary}\n\n{root}/\n" + "\n".join(lines)


def resumed(parts: list[str]) -> bool:
    """Whether a resumed chat keeps a prompt its chat file holds (``NOT_RESUMED``)."""
    text = "".join(parts).strip()
    return bool(text) and not text.startswith(NOT_RESUMED)


def with_start_context(turn: Turn, started: Firing) -> Turn:
    """A headless run's prompt once its SessionStart hooks gave context: the context, its ``<``
    and ``>`` escaped, in ``<hook_context>`` and a blank line before the prompt, as BeforeAgent,
    AfterAgent and the model get it (gemini.tsx: ``wrappedContext``; real 0.61.0)."""
    if not started.context:
        return turn
    context = escaped("\n".join(started.context))
    return replace(turn, user=f"<hook_context>{context}</hook_context>\n\n{turn.user}")


class GeminiCli(Host):
    name = "gemini-cli"
    title = "Gemini CLI"
    modelled = "v0.61.0 (code on main, real binary)"
    versions = (
        "v0.21.0 to v0.61.0 (default v0.61.0), real runs from v0.39.0 on (before v0.53.0 a"
        " request's session context and prompt are two messages); before, from the source only (hooks before v0.24.0 only with tools.enableHooks: true; the first 0.21"
        " release on npm is 0.21.3): runs of 0.21.3 and 0.26.0 differ from their replays"
        " (the events of a turn, transcript_path, the prompt after SessionStart context, /bin/sh"
        " -c in 0.21.3; conformance-versions, docs/host-versions.md)"
    )
    checked = (
        f"source ({GEMINI}@{GEMINI_MAIN[:12]}), real 0.61.0 compared by `hooksim compare --real`"
        " (gemini -p per turn; tox -e conformance-gemini-cli)"
    )
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
    shell_tool = "run_shell_command"  # packages/core/src/tools/definitions/base-declarations.ts
    shell_tool_argv = ("bash", "-c")  # utils/shell-utils.ts getShellConfiguration (Unix)
    parallel = True  # unless any matching group sets sequential: true (hookPlanner)
    dedupe = True
    default_timeout_s = 60.0  # DEFAULT_HOOK_TIMEOUT = 60000 ms
    config_timeout_unit = "ms"
    # settings.ts mergeSettings: user, then the workspace's (a trusted folder's) settings, each
    # event's groups concatenated (settingsSchema.ts: hooks.* mergeStrategy CONCAT).
    project_configs = (".gemini/settings.json",)
    term_grace_s = 5.0
    # Not BeforeToolSelection: hookSystem.fireBeforeToolSelectionEvent reads only its toolConfig.
    blocking = frozenset(
        {"BeforeAgent", "AfterAgent", "BeforeTool", "AfterTool", "BeforeModel", "AfterModel"}
    )
    not_awaited = frozenset[str]()
    stop_cap = None  # the retry only spends the per-prompt turn budget
    exit_2 = "denies when it prints; silent exit 2 only fails (v0.30.0 on)"
    session_class = GeminiSession
    transcript_format = "gemini-chat-jsonl"
    resumes = True  # gemini --resume: SessionStart(resume)
    plugin_kind = "extension"  # a folder under ~/.gemini/extensions
    trust = (
        "in an untrusted folder Gemini CLI registers no settings hooks, the user's included,"
        " and a headless run refuses to start; in a trusted one new project hooks"
        " (.gemini/settings.json) run after a warning (GEMINI_CLI_TRUST_WORKSPACE=true trusts"
        " the folder)"
    )
    exit_codes_since_0_30 = True
    rewrites_tool_input = True  # v0.24.0 on: BeforeTool's tool_input changes the call
    # The variables hookRunner sets (and substitutes into the command string), in its order;
    # before v0.39.0 only the project directory's two names.
    hook_variables = (
        "GEMINI_PROJECT_DIR", "GEMINI_PLANS_DIR", "GEMINI_CWD", "GEMINI_SESSION_ID",
        "CLAUDE_PROJECT_DIR",
    )  # fmt: skip
    quoted_substitution = True  # v0.23.0 on; before, the values went into the string raw
    # v0.53.0 on: a request joins consecutive entries of one role (the session context and
    # the prompt) into one message; before, each entry was a message of its own.
    coalesces_roles = True
    headless = False  # ``hosts.gemini-cli.launch: headless``: each prompt a ``gemini -p`` run
    # hooksim compare --real also watches the model events, which fire on every request.
    probe_extra = ("BeforeModel", "BeforeToolSelection", "AfterModel")
    # Headless /compress compresses without waiting while its text goes on to the model.
    races = (("PreCompress(manual)", "BeforeAgent"),)
    real_tolerances = {
        "payload/AfterModel/llm_response.usageMetadata.*": "the token counts are the model's"
        " to report: hooksim's fake model reports a full window where a run forces a"
        " compaction, the replay's answers 100",
        "payload/AfterTool/tool_response.llmContent": _RAN,
        "payload/AfterTool/tool_response.returnDisplay": _RAN,
    }
    facts = (
        fact(
            "transcript",
            "the chat file ~/.gemini/tmp/<project>/chats/session-<minute>-<id prefix>.jsonl (JSON"
            " lines; an older .json file is converted when resumed): metadata, then each message"
            " and $set"
            " updates; a prompt, a tool's response and a retry's prompt written when their"
            " request goes out (after PreCompress), a reply before AfterAgent; a headless resume"
            " names a new file in SessionStart, then writes on in the session's",
            _pkg(CORE_CHUNK, 286195, "ChatRecordingService"),
            _pkg(CORE_CHUNK, 286270, "the session file's name"),
            _pkg(CORE_CHUNK, 286243, "a resume's $set sessionId"),
            observed("0.61.0", "gemini -p; tests/real_hosts/test_transcripts.py"),
        ),
        fact(
            "events",
            "SessionStart, BeforeAgent, BeforeModel, BeforeToolSelection, AfterModel,"
            " BeforeTool/AfterTool, AfterAgent, PreCompress, SessionEnd (and Notification)",
            _src("packages/core/src/hooks/types.ts", 43),
            _src(REFERENCE, 77, "tool, agent, model and lifecycle hooks: 77, 143, 185, 243"),
        ),
        fact(
            "headless",
            "gemini -p is a session of its own: SessionStart(startup), or (resume) with"
            " --resume, then the prompt, then SessionEnd(exit); hosts.gemini-cli.launch: headless",
            _src(GEMINI_TSX, 823, "resumedSessionData ? Resume : Startup"),
            _src(GEMINI_TSX, 660, "await fireSessionEndEvent(Exit)"),
            observed("0.61.0", "SessionStart(resume) and SessionEnd(exit) on every -p run"),
        ),
        fact(
            "headless prompt",
            "gemini -p puts its SessionStart hooks' context (joined by newlines, < and >"
            " escaped) in <hook_context> and a blank line before the prompt: BeforeAgent's and"
            " AfterAgent's prompt and the model's message carry it",
            _pkg("gemini-3HFX2LNT.js", 17592, "wrappedContext: input = wrapped + prompt"),
            _pkg(CORE_CHUNK, 335331, "getAdditionalContext: < and > escaped"),
            _pkg(CORE_CHUNK, 363639, "additionalContexts.join('\\n')"),
            observed("0.61.0", "scenarios/probes/gemini-cli-sequential-and-environment.yaml"),
        ),
        fact(
            "model events",
            "BeforeModel, BeforeToolSelection and AfterModel carry the conversation sent:"
            " llm_request {model, messages (each message's text parts joined; a tool call's or"
            " result's, without text, left out), config {temperature 1, topP 0.95, topK 64}};"
            " a new chat's first message is the session context (date, system, the project's"
            " temporary folder, the workspace and its folder structure) followed by the prompt"
            " and a <hook_context> part per BeforeAgent context (before v0.53.0 the prompt is a"
            " message of its own, the next); a resumed chat keeps that first"
            " message's session context and its chat file's parts (none that starts with"
            " <hook_context>); AfterModel's llm_response {text, candidates [{content {role"
            " model, parts}, finishReason STOP, index 0}], usageMetadata} (the counts hooksim's"
            " fake model reports)",
            _pkg(CORE_CHUNK, 335021, "toHookLLMRequest"),
            _pkg(CORE_CHUNK, 334956, "getEnvironmentContext"),
            _pkg(CORE_CHUNK, 322100, "getFolderStructure"),
            _pkg(CORE_CHUNK, 346762, "BeforeAgent's context: a <hook_context> part"),
            _pkg(CORE_CHUNK, 285868, "the chat file keeps no <hook_context> part"),
            _pkg(CORE_CHUNK, 332210, "coalesceConsecutiveRoles: the context and prompt joined"),
            code(GEMINI, COALESCED_SINCE, CHAT, 691, "joined from v0.53.0; before, two messages"),
            release(
                "@google/gemini-cli",
                "0.51.0",
                "bundle/chunk-DHQ53XVO.js",
                321772,
                "makeApiCallAndProcessStream sends each entry as it is",
            ),
            observed("0.61.0", "scenarios/probes/gemini-cli-tools-and-exit-codes.yaml"),
            observed("0.39.0", "the session context and the prompt two user messages"),
        ),
        fact(
            "headless /compress",
            "gemini -p '/compress' (or /compact) runs the command, PreCompress(manual), and then"
            " sends its text to the model as a prompt all the same (a command that returns"
            " nothing falls through): one more model turn, AfterAgent and a chat-file turn"
            " included",
            _src("packages/cli/src/nonInteractiveCliCommands.ts", 112, "returns nothing"),
            _src("packages/cli/src/nonInteractiveCli.ts", 272, "falls through to the prompt"),
            _src("packages/cli/src/ui/commands/compressCommand.ts", 12, "altNames compact"),
            observed("0.61.0", "scenarios/probes/gemini-cli-headless-compress.yaml"),
        ),
        fact(
            "races",
            "the command compresses in a promise it does not wait for (void (async () => ...)),"
            " so PreCompress(manual) and the prompt's BeforeAgent come in either order (the"
            " replay fires PreCompress first; compare --real takes either)",
            _pkg(CLI_CHUNK, 78146, "compressCommand: void (async () => tryCompressChat)"),
            observed("0.61.0", "BeforeAgent first in 2 of 6 runs on a loaded machine"),
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
            _src(GEMINI_TSX, 660, "await fireSessionEndEvent on exit"),
            _src(REFERENCE, 296, "docs: fired asynchronously; the code wins"),
            _src(REFERENCE, 269, "docs: SessionEnd will not wait; the code wins"),
            observed("0.61.0", "PreCompress and SessionEnd awaited"),
        ),
        fact(
            "PreCompress",
            "fires (trigger auto) before every model request, a session's first included"
            " (the history starts with the environment context, so it is never empty), before"
            " the token check decides whether to compress; an automatic compression is that"
            " check, so it fires once",
            _src("packages/core/src/context/chatCompressionService.ts", 252, "only if empty"),
            _src("packages/core/src/context/chatCompressionService.ts", 266),
            _src("packages/core/src/utils/environmentContext.ts", 101, "history's first entry"),
            _src(CLIENT, 689, "processTurn calls tryCompressChat before each request"),
            observed("0.61.0", "PreCompress(auto) before the first request too"),
        ),
        fact(
            "model events",
            "BeforeModel, then BeforeToolSelection, before every request; AfterModel for"
            " each streamed chunk of the reply (hooksim's replies are one chunk); a BeforeModel"
            " deny sends no request",
            _src(CHAT, 932),
            _src(CHAT, 944, "blocked: the hook's synthetic response instead"),
            _src(CHAT, 987),
            _src(CHAT, 1400, "per chunk"),
        ),
        fact(
            "model request hooks",
            "a BeforeModel deny sends no request: its hookSpecificOutput.llm_response (the last"
            " hook's) is the turn's answer, else it has none, and AfterAgent fires; an"
            " AfterModel llm_response with parts replaces the reply the turn gets, while the chat"
            " keeps the model's; an AfterModel deny leaves the turn the reply as it came, the"
            " chat none of it; either shows 'Agent execution blocked: <reason>'. continue: false"
            " from either stops the agent: gemini -p returns at once (no AfterAgent; the chat"
            " rolls back the prompt), the interactive UI reads the turn to its end (AfterAgent,"
            " no answer). BeforeToolSelection's decision and continue are not read: only its"
            " toolConfig (NONE wins, else ANY, else AUTO; every hook's names, sorted), which the"
            " request carries",
            _pkg(CORE_CHUNK, 332259, "BeforeModel: stopped, blocked with syntheticResponse"),
            _pkg(CORE_CHUNK, 332587, "AfterModel: stopped, blocked with the chunk"),
            _pkg(CORE_CHUNK, 332098, "the synthetic response yielded as the reply's chunk"),
            _pkg(CORE_CHUNK, 332150, "not a success: the history rolls back"),
            _pkg(CORE_CHUNK, 364340, "fireBeforeToolSelectionEvent: the tool config only"),
            _pkg(CORE_CHUNK, 363674, "mergeToolSelectionOutputs"),
            _pkg("gemini-3HFX2LNT.js", 12255, "gemini -p returns on AgentExecutionStopped"),
            _pkg("interactiveCli-TRXNUIPM.js", 28141, "the UI goes on reading"),
            observed("0.61.0", "scenarios/gemini-cli/19-before-model-blocks.yaml, 20, 21"),
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
            " redaction on), its relaunched process's GEMINI_CLI_NO_RELAUNCH=true, then"
            " GEMINI_PROJECT_DIR, GEMINI_PLANS_DIR, GEMINI_CWD, GEMINI_SESSION_ID and"
            " CLAUDE_PROJECT_DIR, then the hook's own env",
            _src(RUNNER, 348),
            _src(RUNNER, 355, "hookConfig.env last"),
            _src("packages/core/src/services/environmentSanitization.ts", 18),
            _src("packages/cli/src/utils/processUtils.ts", 85, "GEMINI_CLI_NO_RELAUNCH"),
            code(
                GEMINI,
                VARIABLES_SINCE,
                RUNNER,
                351,
                "GEMINI_PLANS_DIR, GEMINI_CWD and"
                " GEMINI_SESSION_ID from v0.39.0; before, the project directory only",
            ),
            observed("0.61.0", "GEMINI_API_KEY and GEMINI_CLI_NO_RELAUNCH reached the hook"),
        ),
        fact(
            "GEMINI_PLANS_DIR",
            "~/.gemini/tmp/<project's short id>/<session id>/plans (the short id is the"
            " project folder's name as a slug)",
            _src(RUNNER, 351),
            _src("packages/core/src/config/storage.ts", 321),
            _src("packages/core/src/config/projectRegistry.ts", 163),
            observed("0.61.0", "~/.gemini/tmp/project/<session id>/plans"),
        ),
        fact(
            "command substitution",
            "$GEMINI_PROJECT_DIR, $GEMINI_CWD, $GEMINI_PLANS_DIR, $GEMINI_SESSION_ID and"
            " $CLAUDE_PROJECT_DIR in the command string are replaced, shell-quoted as"
            " shell-quote quotes (backslashes where it can, nothing for an empty value), before"
            " the shell runs it",
            _src(RUNNER, 526),
            _src("packages/core/src/utils/shell-utils.ts", 714),
            code(GEMINI, QUOTED_SINCE, RUNNER, 362, "quoted from v0.23.0; before, raw"),
        ),
        fact(
            "parallel",
            "matching hooks run in parallel unless any has sequential: true",
            _src(PLANNER, 54),
            _src(RUNNER, 119),
        ),
        fact(
            "sequential input",
            "in a sequential run a hook that exits 0 with JSON output changes the next"
            " hook's input: BeforeAgent prompt += blank line + additionalContext, BeforeModel"
            " llm_request merged, BeforeTool tool_input merged; other events pass it unchanged",
            _src(RUNNER, 157),
            _src(RUNNER, 172),
        ),
        fact(
            "tool_input",
            "a BeforeTool hook's hookSpecificOutput.tool_input is merged into the tool's input"
            " before it runs (v0.24.0); AfterTool gets the merged input and the tool's own"
            " result, the model that result and, after AfterTool, a note of the rewrite",
            _src("packages/core/src/core/coreToolHookTriggers.ts", 128, "Object.assign"),
            _pkg(CORE_CHUNK, 347173, "the scheduler's note, after executeToolWithHooks"),
            observed("0.61.0", "scenarios/gemini-cli/24-tool-rewrites-and-stops.yaml"),
            code(
                GEMINI,
                "90eb1e0281bf544efd5a65d964bab2c7c2173e16",
                "packages/core/src/hooks/types.ts",
                "getModifiedToolInput",
                "added 2025-12-30, first in v0.24.0",
            ),
        ),
        fact(
            "dedupe",
            "identical hooks of one firing run once (key: name and command)",
            _src(PLANNER, 48),
            _src("packages/core/src/hooks/types.ts", 121),
        ),
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
            "BeforeAgent, BeforeTool, BeforeModel, AfterModel and AfterAgent (a retry) can"
            " deny; an AfterTool deny replaces the tool's result with the reason; continue:"
            " false from BeforeTool or AfterTool makes the call's response the stop, which the"
            " chat keeps, and a stopped prompt joins the chat (a blocked one does not)",
            _src(
                "packages/core/src/core/coreToolHookTriggers.ts",
                211,
                "llmContent: Tool result blocked: <reason>",
            ),
            _src(CHAT, 1411),
            _src(REFERENCE, 114),
            _pkg(CORE_CHUNK, 342112, "BeforeTool stop: STOP_EXECUTION"),
            _pkg(CORE_CHUNK, 346750, "a stopped prompt: addHistory"),
            observed("0.61.0", "scenarios/gemini-cli/24-tool-rewrites-and-stops.yaml"),
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
            "given to the model",
            "a deny's reason (stopReason, else reason, else 'No reason provided'; several"
            " hooks' joined by a newline) is, for BeforeTool, the denied tool's function"
            " response {error: 'Tool execution blocked: REASON'}, for AfterTool {error: REASON},"
            " for AfterAgent the retry prompt, as it is",
            _src("packages/core/src/scheduler/hook-utils.ts", 68),
            _src("packages/core/src/scheduler/tool-executor.ts", 468, "createErrorResponse"),
            _src("packages/core/src/hooks/types.ts", 232, "getEffectiveReason"),
            _src("packages/core/src/hooks/hookAggregator.ts", 201),
            _src(CLIENT, 1017, "continueRequest"),
            observed(
                "0.61.0",
                "scenarios/across/guard-reason.yaml, stop-reason.yaml: the fake model's requests",
            ),
        ),
        fact(
            "prompt_response",
            "AfterAgent's prompt_response holds every reply of the prompt, retries included, one"
            " per line; '[no response text]' when there is none",
            _src(CLIENT, 869, "cumulativeResponse"),
            _src(CLIENT, 241),
        ),
        fact(
            "shown to the user",
            "a systemMessage (and a hook's plain stdout on exit 0, 'Warning: TEXT' on exit 1); a"
            " denied tool's 'Tool execution blocked: REASON' or 'Tool result blocked: REASON';"
            " 'Agent execution blocked: MESSAGE or REASON' for a BeforeAgent or AfterAgent deny,"
            " 'Agent execution stopped: …' for their continue: false",
            _src(RUNNER, 545),
            _src(RUNNER, 551),
            _src("packages/core/src/hooks/hookEventHandler.ts", 465, "emitHookSystemMessage"),
            _src("packages/core/src/core/coreToolHookTriggers.ts", 114, "returnDisplay"),
            _src("packages/core/src/core/coreToolHookTriggers.ts", 212, "returnDisplay"),
            _src("packages/cli/src/ui/hooks/useGeminiStream.ts", 1499),
            _src("packages/cli/src/ui/hooks/useGeminiStream.ts", 1460),
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
            _src(GEMINI_TSX, 838),
            _src("packages/cli/src/ui/AppContainer.tsx", 504),
        ),
        fact(
            "trust",
            "in an untrusted folder no settings hooks are registered (the user's included:"
            " all settings hooks count as the project's); new project hooks in a trusted"
            " folder are trusted with a warning; a headless run refuses an untrusted folder",
            _src("packages/core/src/hooks/hookRegistry.ts", 180),
            _src("packages/core/src/hooks/hookRegistry.ts", 151),
            _src(RUNNER, 64),
        ),
        fact(
            "type",
            "a hook without type (command, plugin or runtime) is discarded",
            _src("packages/core/src/hooks/hookRegistry.ts", 301),
        ),
        fact(
            "config_files",
            "user ~/.gemini/settings.json and project .gemini/settings.json",
            _src(REFERENCE, 21),
        ),
        fact(
            "extensions",
            "each folder of ~/.gemini/extensions with a gemini-extension.json (name: letters,"
            " digits, dashes; and a version) is an extension; gemini extensions install copies"
            " one there; its hooks are hooks/hooks.json's hooks object, every string hydrated:"
            " ${extensionPath}, ${workspacePath}, ${/}, ${pathSeparator} (an unknown ${name}"
            " stays); they register after the settings' hooks, trusted folder or not, and get"
            " no variable of their own (only an extension setting's, with"
            " experimental.extensionConfig: not modelled)",
            _pkg(CLI_CHUNK, 65699, "loadExtensions: each folder of the extensions dir"),
            _pkg(CLI_CHUNK, 66038, "a config without name or version is refused"),
            _pkg(CLI_CHUNK, 66053, "validateName"),
            _pkg(CLI_CHUNK, 66064, "loadExtensionHooks: hooks/hooks.json"),
            _pkg(CLI_CHUNK, 66074, "recursivelyHydrateStrings(rawHooks.hooks)"),
            _pkg(CLI_CHUNK, 61182, "hydrateString: an unknown name stays"),
            _pkg(CLI_CHUNK, 65901, "hydrationContext"),
            _pkg(CLI_CHUNK, 65542, "install copies the folder"),
            _pkg(CORE_CHUNK, 363068, "extension hooks, outside the trust check"),
            _pkg(CORE_CHUNK, 363162, "ConfigSource.Extensions: priority 4, after settings"),
            _pkg(CORE_CHUNK, 363363, "...hookConfig.env"),
            observed("0.61.0", "scenarios/gemini-cli/17-extension.yaml"),
        ),
        fact(
            "clearContext",
            "AfterAgent's hookSpecificOutput.clearContext: true (no other event reads it), when"
            " its hooks stop the agent or deny: the chat is reset before the retry prompt is"
            " sent, and the interactive UI shows 'Conversation context has been cleared.';"
            " gemini -p prints nothing of it",
            _pkg(CORE_CHUNK, 335356, "DefaultHookOutput.shouldClearContext: false"),
            _pkg(CORE_CHUNK, 335461, "AfterAgentHookOutput.shouldClearContext"),
            _pkg(CORE_CHUNK, 346777, "stop: contextCleared, resetChat"),
            _pkg(CORE_CHUNK, 346793, "deny: contextCleared, resetChat, then continueRequest"),
            _pkg(CORE_CHUNK, 346368, "resetChat: a new chat"),
            _pkg("interactiveCli-TRXNUIPM.js", 28098, "the UI's line"),
            observed("0.61.0", "scenarios/gemini-cli/18-clear-context.yaml"),
        ),
        fact(
            "resume",
            "gemini --resume starts on a saved session: SessionStart(resume); the CLI before it"
            " quit with SessionEnd(exit)",
            _src(GEMINI_TSX, 823, "resumedSessionData ? Resume : Startup"),
            _src(GEMINI_TSX, 660, "await fireSessionEndEvent(Exit)"),
        ),
    )

    def at_version(self, version: str) -> Host:
        """Gemini CLI at ``version`` (v0.21.0 on): before v0.53.0 the model events' requests
        had the session context and the prompt as two messages, before v0.39.0 hooks got only
        the project directory's variables, before v0.30.0 only exit 2 with stderr denied,
        before v0.24.0 a BeforeTool hook could not change the tool's input, before v0.23.0 the
        substituted values went into the command string unquoted."""
        v = parse_version(self.title, version)
        if v < (0, 21, 0):
            raise ValueError(
                f"hooksim models Gemini CLI from v0.21.0 (its first hooks) on, not {version}"
            )
        if v > (0, 61, 0):
            raise ValueError(f"hooksim models Gemini CLI up to v0.61.0, not {version}")
        changes: dict[str, Any] = {}
        if v < (0, 53, 0):
            changes["coalesces_roles"] = False
        if v < (0, 39, 0):
            changes["hook_variables"] = ("GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR")
        if v < (0, 24, 0):
            changes["rewrites_tool_input"] = False
        if v < (0, 23, 0):
            changes["quoted_substitution"] = False
        if v < EXIT_CODES_SINCE:
            changes["exit_codes_since_0_30"] = False
            changes["exit_2"] = "blocks, stderr is the reason (before v0.30.0)"
        return as_version(self, version, changes)

    def read_plugin(self, folder: Path) -> Plugin:
        return read_gemini_extension(folder)

    def plugin_place(self, plugin: Plugin, home: Path, workdir: Path) -> Path:
        """``gemini extensions install`` copies the folder to ``~/.gemini/extensions/NAME``."""
        return home / ".gemini" / "extensions" / plugin.name

    def plugin_specs(
        self, plugin: Plugin, place: Path, *, home: Path, project: Path
    ) -> tuple[list[HookSpec], list[str]]:
        """Its hooks with every string hydrated: ``${extensionPath}`` (where it is installed),
        ``${workspacePath}`` (the project), ``${/}`` and ``${pathSeparator}``; no variable of
        its own reaches its hooks."""
        context = {"extensionPath": str(place), "workspacePath": project.as_posix(),
                   "/": "/", "pathSeparator": "/"}  # fmt: skip
        blocks = [hydrate(h.block, context) for h in plugin.hooks]
        return hook_specs(self, plugin, blocks, origin=str(place), env={})

    def launched(self, how: str) -> Host:
        """``headless``: every prompt a ``gemini -p`` run (``--resume latest`` after the first)."""
        if how == "interactive":
            return self
        if how != "headless":
            raise ValueError(f"{how!r}: hooksim runs Gemini CLI interactive or headless")
        headless: type[Host] = type(
            f"{type(self).__name__}Headless", (type(self),), {"headless": True}
        )
        return headless()

    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        typed, warnings = _typed_only(block)
        specs, more = parse_matcher_groups(
            typed,
            events=EVENTS,
            matcher_events=MATCHER_EVENTS,
            timeout_unit_s=0.001 if self.config_timeout_unit == "ms" else 1.0,
            handler_env=True,  # hookRunner: ...hookConfig.env, after its own variables
        )
        return specs, warnings + more

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
        quote = shell_quote if self.quoted_substitution else str
        for name in SUBSTITUTED:
            if name in env and name in self.hook_variables:
                command = command.replace(f"${name}", quote(env[name]))
        return ["bash", "-c", command]

    def env(self, event: str, info: SessionInfo) -> dict[str, str]:
        slug = re.sub(r"[^a-z0-9]+", "-", Path(info.cwd).name.lower()).strip("-") or "project"
        plans = Path(info.home or "~") / ".gemini" / "tmp" / slug / info.session_id / "plans"
        variables = {
            "GEMINI_PROJECT_DIR": info.cwd,
            "GEMINI_PLANS_DIR": str(plans),
            "GEMINI_CWD": info.cwd,
            "GEMINI_SESSION_ID": info.session_id,
            "CLAUDE_PROJECT_DIR": info.cwd,
        }
        env = {"GEMINI_CLI_NO_RELAUNCH": "true"}  # set for its relaunched process, inherited
        env.update((k, v) for k, v in variables.items() if k in self.hook_variables)
        return env

    def next_input(self, event: str, stdin: bytes, run: HookRun) -> bytes:
        """hookRunner.applyHookOutputToInput: in a sequential run, what the next hook reads."""
        if run.exit_code != 0 or run.timed_out or run.spawn_error:
            return stdin
        output, _ = self._output(run, 0)
        specific = output.get("hookSpecificOutput") if output else None
        if not isinstance(specific, dict):
            return stdin
        try:
            payload = json.loads(stdin)
        except ValueError:
            return stdin
        if not isinstance(payload, dict):
            return stdin
        context = specific.get("additionalContext")
        if event == "BeforeAgent" and isinstance(context, str) and "prompt" in payload:
            payload["prompt"] = f"{payload['prompt']}\n\n{context}"
        elif event == "BeforeModel" and isinstance(specific.get("llm_request"), dict):
            payload["llm_request"] = {**payload.get("llm_request", {}), **specific["llm_request"]}
        elif event == "BeforeTool" and isinstance(specific.get("tool_input"), dict):
            payload["tool_input"] = {**payload.get("tool_input", {}), **specific["tool_input"]}
        else:
            return stdin
        return self.encode(payload)

    def read(self, event: str, run: HookRun) -> Verdict:
        if run.timed_out or run.spawn_error:
            return Verdict(f"warning: {'timed out' if run.timed_out else run.spawn_error}")
        code_ = run.exit_code or 0
        output, text = self._output(run, code_)
        if output is None and text is None:
            if code_ == 0:
                return Verdict("ok")
            return Verdict(f"failed (goes on): exit {code_}, no output", fault="failed")
        if output is None:
            assert text is not None
            # hookRunner convertPlainTextToHookOutput: text is a systemMessage on exit 0, a
            # "Warning: " one on exit 1, a deny's reason on any other code.
            if code_ == 0:
                return Verdict(f"systemMessage: {first_line(text)}", shown=text)
            if code_ == 1 or (not self.exit_codes_since_0_30 and code_ != 2):
                warned = f"Warning: {text}" if code_ == 1 and self.exit_codes_since_0_30 else None
                return Verdict(
                    f"warning (goes on): exit {code_} {first_line(text)}".strip(),
                    shown=warned,
                    fault="failed",
                )
            return self._deny(event, text, f"exit {code_}")
        message = output.get("systemMessage")
        message = message if isinstance(message, str) and message else None
        # types.ts getEffectiveReason: stopReason, else reason, else a stock phrase.
        reason = str(output.get("stopReason") or output.get("reason") or "No reason provided")
        if output.get("continue") is False and event not in ADVISORY:
            return Verdict(
                f"continue: false ({output.get('stopReason', '')})", stop=True,
                shown=_joined(message, _stopped_shown(event, message, reason)),
                clear=clears(event, output),
            )  # fmt: skip
        context = additional_context(output) if event in CONTEXT_EVENTS else None
        if output.get("decision") in ("deny", "block"):
            verdict = self._deny(event, reason, f"decision {output['decision']}", context, message)
            verdict.clear = clears(event, output)
            verdict.note += ", with clearContext" if verdict.clear else ""
            return verdict
        specific = output.get("hookSpecificOutput")
        rewrite = specific.get("tool_input") if isinstance(specific, dict) else None
        if event == "BeforeTool" and isinstance(rewrite, dict) and self.rewrites_tool_input:
            return Verdict(
                "tool_input: merged into the tool's input", updated_input=rewrite, shown=message
            )
        return Verdict("context (JSON)" if context else "ok", context=context, shown=message)

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

    def _deny(
        self, event: str, reason: str, why: str, context: str | None = None,
        message: str | None = None,
    ) -> Verdict:  # fmt: skip
        """A deny: the model is told the reason where the session goes on with it (a denied
        tool's function response, an AfterAgent retry's prompt); the user is shown the
        ``systemMessage`` and the host's own line about it."""
        if event not in self.blocking:
            return Verdict(f"{why}: {event} cannot be denied; ignored", shown=message,
                           fault="refused")  # fmt: skip
        told = reason if event in ("AfterTool", "AfterAgent") else None
        line = None
        if event == "BeforeTool":  # the error the model and the user get (hook-utils.ts)
            told = line = f"Tool execution blocked: {reason}"
        elif event == "AfterTool":
            line = f"Tool result blocked: {reason}"
        elif event in ("BeforeAgent", "AfterAgent"):  # client.ts AgentExecutionBlocked
            line = f"Agent execution blocked: {(message or '').strip() or reason}"
        elif event in MODEL_EVENTS:  # turn.ts: the event carries the reason alone
            line = f"Agent execution blocked: {reason}"
        note = (
            f"{why}: the model gets the reason in place of the result"
            if event == "AfterTool"
            else f"block: {first_line(reason)}"
        )
        return Verdict(note, block=reason, context=context, told=told,
                       shown=_joined(message, line))  # fmt: skip


def clears(event: str, output: dict[str, Any]) -> bool:
    """``hookSpecificOutput.clearContext: true``, which only AfterAgent's output reads
    (AfterAgentHookOutput.shouldClearContext; every other event's says false)."""
    specific = output.get("hookSpecificOutput")
    return (
        event == "AfterAgent"
        and isinstance(specific, dict)
        and specific.get("clearContext") is True
    )


def _stopped_shown(event: str, message: str | None, reason: str) -> str | None:
    """``continue: false``, as the user sees it: the agent's stop (client.ts
    AgentExecutionStopped) or a tool's (coreToolHookTriggers.ts returnDisplay)."""
    if event in ("BeforeAgent", "AfterAgent"):
        return f"Agent execution stopped: {(message or '').strip() or reason}"
    if event in TOOL_EVENTS:
        return f"Agent execution stopped by hook: {reason}"
    if event in MODEL_EVENTS:  # turn.ts: the event carries the reason alone
        return f"Agent execution stopped: {reason}"
    return None


def _joined(*texts: str | None) -> str | None:
    """The texts shown one after another, one per line (None: nothing shown)."""
    return "\n".join(t for t in texts if t) or None


def _typed_only(block: Any) -> tuple[Any, list[str]]:
    """The hooks block without the hooks Gemini CLI discards for lacking a ``type``."""
    if not isinstance(block, dict):
        return block, []
    warnings: list[str] = []
    kept: dict[str, Any] = {}
    for event, groups in block.items():
        if not isinstance(groups, list):
            kept[event] = groups
            continue
        kept[event] = []
        for g, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(handlers, list):
                typed = [h for h in handlers if not isinstance(h, dict) or "type" in h]
                warnings += [
                    f"hooks.{event}[{g}].hooks[{h}] has no type; Gemini CLI discards it"
                    for h, handler in enumerate(handlers)
                    if isinstance(handler, dict) and "type" not in handler
                ]
                kept[event].append({**group, "hooks": typed})
            else:
                kept[event].append(group)
    return kept, warnings


def shell_quote(arg: str) -> str:
    """escapeShellArg for bash: nothing for an empty value, else shell-quote's ``quote``."""
    if not arg:
        return ""
    if re.search(r'["\s\\]', arg) and "'" not in arg:
        return "'" + arg + "'"
    if re.search(r"[\"'\s]", arg):
        return '"' + re.sub(r'(["\\$`!])', r"\\\1", arg) + '"'
    return _QUOTE_SPECIAL.sub(lambda m: (m.group(1) or "") + "\\" + m.group(2), arg)
