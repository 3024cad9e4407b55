"""Claude Code's session loop: what it fires when, with which payload, and what it does with the
hooks' answers."""

from __future__ import annotations

import contextlib
import json
import os
import re
import uuid
from dataclasses import replace
from typing import Any, Protocol

from ...steps import Compact, NewSession, Resume, ToolCall, Turn
from ..claude_style import NO_VERDICT_SHOWN, STOP_FAILURE_ERRORS, response_before_id
from ..conversation import ASSISTANT, RESULT, USER, Message
from ..output import parse_json_output
from ..records import Firing, HookRun
from ..session import Session, SessionHost
from .constants import EFFORT_EVENTS, PROMPT_CACHE_TTL_S
from .rules import FILE_PATH_FIELDS


def tool_response(call: ToolCall) -> dict[str, Any]:
    """PostToolUse's ``tool_response`` and ``duration_ms``: the tool's own result object (Bash:
    stdout, stderr and flags; real 2.1.332), and how long the call took (none, here)."""
    result: Any = call.result
    with contextlib.suppress(ValueError):  # a recorded result is the object itself
        recorded = json.loads(call.result)
        if isinstance(recorded, dict):
            return {"tool_response": recorded, "duration_ms": 0}
    if call.name == "Bash":
        result = {
            "stdout": call.result,
            "stderr": "",
            "interrupted": False,
            "isImage": False,
            "noOutputExpected": False,
        }
    return {"tool_response": result, "duration_ms": 0}


def model_input(call: ToolCall) -> ToolCall:
    """A call as Claude Code takes it from the model, before its hooks see it and its tool runs:
    Write's content and Edit's new_string with each line's trailing whitespace dropped, unless
    the file is Markdown (.md, .mdx), and Edit's input in its schema's order, replace_all
    defaulting to false. Real 2.1.332's tool-input normaliser, in its ``bin/claude.exe``: the
    Write case at byte 341743227, the Edit case at 341742604, the line trim at 339541741, the
    Markdown test at 339541696."""
    args = call.args
    path = args.get("file_path")
    markdown = isinstance(path, str) and re.search(r"\.(md|mdx)$", path, re.IGNORECASE)
    if call.name == "Write" and isinstance(args.get("content"), str) and not markdown:
        args = {**args, "content": _trim_lines(args["content"])}
    elif call.name == "Edit" and isinstance(args.get("new_string"), str) and "old_string" in args:
        new = args["new_string"] if markdown else _trim_lines(args["new_string"])
        schema = {
            "file_path": path,
            "old_string": args["old_string"],
            "new_string": new,
            "replace_all": args.get("replace_all", False),
        }
        args = {**schema, **{k: v for k, v in args.items() if k not in schema}}
    return call if args is call.args else replace(call, args=args)


def _trim_lines(text: str) -> str:
    """Each line without its trailing whitespace, the line breaks kept as they are."""
    parts = re.split(r"(\r\n|\n|\r)", text)
    return "".join(p if i % 2 else re.sub(r"\s+$", "", p) for i, p in enumerate(parts))


class ClaudeCodeHost(SessionHost, Protocol):
    """What Claude Code's loop reads of its profile besides every loop's."""

    @property
    def print_launch(self) -> bool: ...
    @property
    def post_tool_batch(self) -> bool: ...
    @property
    def sends_last_message(self) -> bool: ...
    def effort(self, model: str) -> str | None: ...


class ClaudeSession(Session):
    host: ClaudeCodeHost

    prompt_id: str | None = None  # the current prompt's id, once the session has had one
    next_prompt_id: str | None = None  # the next prompt's, taken by an automatic compaction
    last_reply: str | None = None  # the assistant's last answer (Stop's last_assistant_message)
    ended = False  # the user quit: nothing wakes the model any more
    resumed = False  # the process was started with --resume: its SessionStart says resume
    replied_ms: int | None = None  # the virtual instant of the model's last reply
    ids: list[str]  # the tool call ids of the turn, in order (``tool_ids``)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.told_unchecked: set[str] = set()  # hooks the process said it could not read
        fire = self.fire

        def fire_and_tell_once(
            event: str, payload: dict[str, Any] | bytes, *, match: str | None = None
        ) -> Firing:
            firing = fire(event, payload, match=match)
            self._tell_unchecked_once(firing)
            return firing

        self.fire = fire_and_tell_once

    def _tell_unchecked_once(self, firing: Firing) -> None:
        """A process shows ``NO_VERDICT_SHOWN`` once per hook (its set of the hooks it told
        of; real 2.1.332 showed it at the first call and not at the next)."""
        for run in firing.runs:
            if run.shown != NO_VERDICT_SHOWN:
                continue
            if run.command in self.told_unchecked:
                run.shown = None
                firing.shown.remove(NO_VERDICT_SHOWN)
            self.told_unchecked.add(run.command)

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "session_id": self.info.session_id,
            "transcript_path": self.info.transcript_path,
            "cwd": self.info.cwd,
        }
        if self.prompt_id is not None:  # every payload after the session's first prompt
            payload["prompt_id"] = self.prompt_id
        if event not in ("SessionStart", "SessionEnd", "PreCompact", "PostCompact"):
            payload["permission_mode"] = "default"
        effort = self.host.effort(self.info.model)
        if effort is not None and event in EFFORT_EVENTS:
            payload["effort"] = {"level": effort}
        payload["hook_event_name"] = event
        payload.update(fields)
        return response_before_id(payload)

    def _input(self, call: ToolCall) -> dict[str, Any]:
        """The call's input as hooks see it: file tools' paths made absolute (real 2.1.332)."""
        field = FILE_PATH_FIELDS.get(call.name, "")
        path = call.args.get(field)
        if not field or not isinstance(path, str) or not path or path.startswith("/"):
            return call.args
        return {**call.args, field: os.path.normpath(os.path.join(self.info.cwd, path))}

    def _start(self, source: str) -> Firing:
        # Only SessionStart(compact) names the model (startup and clear do not: real 2.1.332).
        fields: dict[str, Any] = (
            {"source": source, "model": self.info.model}
            if source == "compact"
            else {"source": source}
        )
        if source == "resume" and self.replied_ms is not None:
            # How long ago the resumed transcript's last reply was, and whether that outlasts
            # the prompt cache (5 minutes); its token count and price are the model's.
            seconds = max(0, (self.info.now_ms() - self.replied_ms + 500) // 1000)  # Math.round
            fields.update(
                seconds_since_last_response=seconds,
                prompt_cache_likely_expired=seconds >= PROMPT_CACHE_TTL_S,
            )
        self.launched = True
        self.said.started(source, self.info.session_id)
        return self.fire("SessionStart", self.payload("SessionStart", **fields), match=source)

    def turn(self, turn: Turn) -> None:
        if not self.launched:
            self._start("resume" if self.resumed else "startup")
        self.prompt_id = self.next_prompt_id or str(uuid.uuid4())
        self.next_prompt_id = None
        self.said.submitted(turn.user)
        submitted = self.fire(
            "UserPromptSubmit", self.payload("UserPromptSubmit", prompt=turn.user)
        )
        if submitted.blocked or submitted.stop:
            submitted.effect = "the prompt is blocked and erased; no model call"
            return
        self.said.prompt(turn.user)
        turn = replace(turn, tools=tuple(model_input(call) for call in turn.tools))
        ids = self.ids = self.tool_ids(turn)
        if not self.tool_calls(
            turn,
            ("PreToolUse", "PostToolUse"),
            lambda call, n: {
                "tool_name": call.name,
                "tool_input": self._input(call),
                "tool_use_id": ids[n - 1],
            },
            tool_response,
        ):
            return
        if turn.interrupted or turn.error is not None:
            self.said.failed()  # the request went out; no answer came back
        if turn.interrupted:
            return  # Stop does not fire on a user interrupt
        if turn.error is not None:
            error = STOP_FAILURE_ERRORS[turn.error.cause]
            self.fire(
                "StopFailure",
                self.payload("StopFailure", error=error, last_assistant_message=""),
                match=error,
            )
            return
        self._stop(woken=False, turn=turn)

    def responded(self, response: list[tuple[int, ToolCall]]) -> None:
        """PostToolBatch, once the calls of one model response are done, before the next
        request: each call with its id and the result text the model saw (real 2.1.332: a
        response asking for two calls, then one, fired it twice, with two calls, then one)."""
        if not self.host.post_tool_batch:
            return
        # What the model got for each call: its result, or a denied call's reason (real
        # 2.1.332: "PreToolUse:Bash hook error: REASON"), the latest said under its id.
        wanted = {self.ids[n - 1] for n, _ in response}
        got: dict[str, str] = {}
        for said in reversed(self.said.said):
            if len(got) == len(wanted):
                break
            if said.kind == RESULT and said.call_id in wanted:
                got.setdefault(said.call_id, said.text)
        calls = [
            {
                "tool_name": c.name,
                "tool_input": self._input(c),
                "tool_use_id": self.ids[n - 1],
                "tool_response": got.get(self.ids[n - 1], c.result),
            }
            for n, c in ((n, self.ran.get(n, c)) for n, c in response)
        ]
        self.fire("PostToolBatch", self.payload("PostToolBatch", tool_calls=calls))

    def _stop(self, *, woken: bool, turn: Turn | None = None) -> None:
        """The Stop loop; each Stop's ``last_assistant_message`` is the reply that continuation
        ended with (the turn's own replies; woken, the last one again)."""

        def fire_stop(n: int) -> Firing:
            if turn is not None:
                self.last_reply = turn.reply(n)
            self.replied_ms = self.info.now_ms()
            self.said.replied(self.last_reply or "")
            fields: dict[str, Any] = {"last_assistant_message": self.last_reply}
            fields = fields if self.host.sends_last_message else {}
            return self.fire(
                "Stop",
                self.payload(
                    "Stop",
                    stop_hook_active=woken or n > 0,
                    **fields,
                    background_tasks=[],
                    session_crons=[],
                ),
            )

        self.stop_loop(fire_stop, self.host.stop_cap)

    def finished_in_background(self, run: HookRun) -> None:
        """asyncRewake: a background hook that exits 2 wakes the model once the turn is over. A
        turn of its own follows, whose prompt quotes the hook's stderr as a task notification;
        the model answers (hooksim repeats the last reply) and Stop fires with
        ``stop_hook_active`` true (real 2.1.332)."""
        spec = run.spec
        if spec is None or not spec.rewake or run.exit_code != 2 or self.ended:
            return
        source = f"{run.event}:{spec.matcher}" if spec.matcher else run.event
        reason = run.stderr.strip()
        prompt = (
            "<task-notification>\n<summary>Stop hook feedback</summary>\n</task-notification>\n"
            f'<system-reminder>\nStop hook blocking error from command "{source}": {reason}\n\n'
            "</system-reminder>"
        )
        self.prompt_id = str(uuid.uuid4())
        woken = self.fire("UserPromptSubmit", self.payload("UserPromptSubmit", prompt=prompt))
        woken.effect = "an asyncRewake hook exited 2: the model is woken with its stderr"
        if woken.blocked or woken.stop:
            return
        self.said.prompt(prompt)
        woken.context.append(reason)
        self._stop(woken=True)

    def compact(self, step: Compact) -> None:
        # /compact is a prompt of its own; an automatic compaction happens in the next prompt,
        # before its model request, so its events carry that prompt's id (real 2.1.332).
        self.prompt_id = str(uuid.uuid4())
        self.next_prompt_id = self.prompt_id if step.trigger == "auto" else None
        if step.trigger == "manual":
            self.said.submitted(f"/compact {step.instructions}".strip())
        pre = self.fire(
            "PreCompact",
            # No instructions is null, not "" (real 2.1.332).
            self.payload(
                "PreCompact", trigger=step.trigger, custom_instructions=step.instructions or None
            ),
            match=step.trigger,
        )
        if pre.blocked:
            pre.effect = (
                "compaction skipped; the conversation continues"
                if step.trigger == "auto"
                else "/compact is blocked"
            )
            return
        summary = f"Summary of the conversation before {step.trigger} compaction."
        self._start("compact")  # before PostCompact, as a real 2.1.328 run orders them
        post = self.ev("post_compact")  # since v2.1.76
        after = None
        if post is not None:
            after = self.fire(
                post,
                self.payload(post, trigger=step.trigger, compact_summary=summary),
                match=step.trigger,
            )
        self._compaction_output(step, pre, after)
        # Written down once the compaction's hooks are done: the summary, then the model is
        # sent it and the last answer, which Claude Code keeps (real 2.1.332).
        kept = [Message(USER, summary), *filter(None, [self.said.last(ASSISTANT)])]
        self.said.compacted(step.trigger, summary, kept)

    def _compaction_output(self, step: Compact, pre: Firing, post: Firing | None) -> None:
        """What the model is given of the compaction hooks' plain stdout (real 2.1.332): a
        PreCompact hook's joins the summariser's instructions ("Additional Instructions:", the
        user's instructions first, a blank line between), and /compact's output, which the next
        request carries as ``<local-command-stdout>``, lists each PreCompact and PostCompact
        hook, "EVENT [COMMAND] completed successfully: STDOUT" (no colon without output)."""
        plain = [
            run.stdout.strip()
            for run in pre.runs
            if run.exit_code == 0 and run.stdout.strip() and parse_json_output(run.stdout) is None
        ]
        if plain:
            told = "\n\n".join(filter(None, [step.instructions, *plain]))
            pre.context.append(f"Additional Instructions:\n{told}")
        if step.trigger != "manual":
            return
        firings = [f for f in (pre, post) if f is not None]
        lines = [
            f"{f.event} [{run.command}] completed successfully"
            + (f": {run.stdout.strip()}" if run.stdout.strip() else "")
            for f in firings
            for run in f.runs
            if run.exit_code == 0
        ]
        if any(run.stdout.strip() for f in firings for run in f.runs if run.exit_code == 0):
            hint = [] if self.host.print_launch else ["(ctrl+o to see full summary)"]
            shown = "\n".join([*hint, *lines])
            block = f"<local-command-stdout>Compacted {shown}</local-command-stdout>"
            firings[-1].context.append(block)

    def new_session(self, step: NewSession) -> None:
        if self.launched:
            self.prompt_id = str(uuid.uuid4())  # /clear is a prompt of its own (real 2.1.332)
            self.fire("SessionEnd", self.payload("SessionEnd", reason="clear"), match="clear")
        self.next_session_id(step)
        self.prompt_id = None
        self._start("clear")

    def resume(self, step: Resume) -> None:
        """The user quits (SessionEnd, as at the end of a session) and runs ``claude --resume``:
        the new process fires SessionStart(resume) for the same session id and transcript when
        it starts on its first prompt (as the first launch's SessionStart(startup) does)."""
        self.exit()
        self.ended = False
        self.launched = False
        self.prompt_id = None
        self.resumed = True
        self.told_unchecked = set()  # a new process

    def exit(self) -> None:
        self.ended = True
        if self.launched:
            # claude -p ends with reason other (real 2.1.332); the user quits the terminal UI.
            reason = "other" if self.host.print_launch else "prompt_input_exit"
            self.fire("SessionEnd", self.payload("SessionEnd", reason=reason), match=reason)
