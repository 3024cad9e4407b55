"""Gemini CLI's session loop: what it fires when, with which payload, and what it does with the
hooks' answers."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from ...steps import Compact, NewSession, Resume, ToolCall, Turn
from ..conversation import ASSISTANT, USER, Message
from ..records import SAFETY_LOOP_LIMIT, Firing, HookRun
from ..session import Session, SessionHost, SessionInfo
from .constants import COMPRESSED, MAX_TURNS, REWRITE_NOTE


class GeminiCliHost(SessionHost, Protocol):
    """What Gemini CLI's loop reads of its profile besides every loop's."""

    @property
    def coalesces_roles(self) -> bool: ...
    @property
    def headless(self) -> bool: ...
    def hook_output(
        self, run: HookRun, exit_code: int
    ) -> tuple[dict[str, Any] | None, str | None]: ...


class GeminiSession(Session):
    host: GeminiCliHost

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
        request = {
            "model": self.info.model,
            "messages": self._messages(),
            "config": dict(REQUEST_CONFIG),
        }
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
        after = self.fire(
            "AfterModel",
            self.payload("AfterModel", llm_request=request, llm_response=llm_response(text)),
        )
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
                (role, parts)
                for role, parts in self.history[1:]
                if role != "user" or resumed(parts)
            ]
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

    def _response(self, calls: list[ToolCall]) -> bool:
        """A model response's tool calls: each runs (BeforeTool, the tool, AfterTool), then
        their results go back to the model in one request (real 0.61.0: a response asking for
        two calls made one request after both). False when the turn goes no further."""
        ids = []
        for k, call in enumerate(calls):
            self.calls += 1
            ids.append(f"{call.name}__{call.id or f'call_{self.calls}'}")  # the scheduler's id
            self.said.called(call, ids[-1], same_response=k > 0)
        self.said.asked()
        if not all(self._tool(call, call_id) for call, call_id in zip(calls, ids, strict=True)):
            return False
        return self._request(calls[-1].name)  # the tools' results go back to the model

    def _tool(self, call: ToolCall, call_id: str) -> bool:
        fields = {"tool_name": call.name, "tool_input": call.args}
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
            post = self.fire(
                "AfterTool", self.payload("AfterTool", **fields, **result), match=call.name
            )
            if self.halted(post):
                self._tool_stopped(post, ran, call_id)
                return False
            if post.blocked:
                post.effect = f"the {call.name} result is replaced by the reason"
                self.deliver(post)
                content = "\n".join(self.told(post))
            self.said.returned(ran, call_id, content)
        return True

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
        # A request per model response asking for tool calls (one call each unless the scenario
        # groups them) and one for the answer: the calls' responses have no text.
        asked = [
            [call for _, call in response]
            for response in turn.responses(self.host.calls_in_one_response)
        ]
        self.responses = [""] * len(asked) + [turn.reply(0) or ""]
        self.answer = None
        went_on = self._before_agent(turn.user) and all(self._response(c) for c in asked)
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
                self.payload(
                    "AfterAgent",
                    prompt=turn.user,
                    prompt_response=response,
                    stop_hook_active=retries > 0,
                ),
            )
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
    return {
        "text": text,
        "candidates": [{"content": content, "finishReason": "STOP", "index": 0}],
        "usageMetadata": dict(USAGE),
    }


def outputs(host: GeminiCliHost, firing: Firing) -> list[dict[str, Any]]:
    """What each hook of a firing gave Gemini CLI, in order (hookAggregator's ``allOutputs``):
    its JSON object, or ``{}`` for text, which the runner turns into an output of its own."""
    given: list[dict[str, Any]] = []
    for run in firing.runs:
        if run.timed_out or run.spawn_error:
            continue
        output, text = host.hook_output(run, run.exit_code or 0)
        if output is not None or text is not None:
            given.append(output or {})
    return given


def specific(output: dict[str, Any], key: str) -> Any:
    """A key of an output's ``hookSpecificOutput`` (None when it has none)."""
    found = output.get("hookSpecificOutput")
    return found.get(key) if isinstance(found, dict) else None


def substitute(host: GeminiCliHost, firing: Firing) -> str | None:
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


def tool_config(host: GeminiCliHost, firing: Firing) -> str:
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
        summary += (
            " Folders or files indicated with ... contain more items not shown, were"
            " ignored, or the display limit (200 items) was reached."
        )
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
