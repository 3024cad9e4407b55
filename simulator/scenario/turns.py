"""A session's ``turns`` list as a scenario file writes it: turns with their
outcome (a reply, continued or not; an interruption; a failed model call), their tool calls
(one after another, or grouped in ``responses``), session boundaries (``new_session``,
``resume``), compactions and raw events, each with its line. ``load`` checks the file; this
module reads the steps it holds."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..steps import (
    OUTCOME_HINT,
    SHELL,
    ApiError,
    Compact,
    NewSession,
    RawEvent,
    Resume,
    Step,
    ToolCall,
    Turn,
)
from .errors import line_of
from .model import parse_duration


def read_steps(raws: list[Any], where: list[str | int], fail: Any, doc: Any) -> list[Step]:
    """The steps of one session's ``turns`` list (at ``where`` in the document ``doc``);
    ``fail(where, message)`` is the ``ScenarioError`` a bad one raises."""
    steps: list[Step] = []
    for i, raw in enumerate(raws):
        line = line_of(doc, [*where, i])
        durations = {}
        for key in ("after", "clock_back"):
            try:
                durations[key] = parse_duration(raw.get(key, 0))
            except ValueError as e:
                raise fail(
                    [*where, i, key], f"{'/'.join(map(str, [*where, i]))}/{key}: {e}"
                ) from None
        after = durations["after"]
        if "new_session" in raw:
            step: Step = NewSession(raw["new_session"], after, line)
        elif "resume" in raw:
            step = Resume(after, line)
        elif "compact" in raw:
            step = Compact(raw["compact"], raw.get("instructions", ""), after, line)
        elif "event" in raw:
            stdin = raw.get("stdin")
            step = RawEvent(
                raw["event"],
                None if stdin is None else stdin.encode(),
                raw.get("extra"),
                after,
                line,
            )
        else:
            step = _turn(raw, [*where, i], line, after, fail)
        steps.append(
            replace(
                step,
                clock_back_s=durations["clock_back"],
                label=raw.get("label", ""),
                launch=raw.get("launch", ""),
            )
        )
    return steps


def _turn(raw: dict[str, Any], where: list[str | int], line: int, after: float, fail: Any) -> Turn:
    """One turn; it must say how it ended (a reply, an interruption or a failed call)."""
    interrupted = bool(raw.get("interrupted", False))
    assistant = raw.get("assistant")
    error = raw.get("error")
    if error is not None and (assistant is not None or interrupted):
        key = "assistant" if assistant is not None else "interrupted"
        raise fail(
            [*where, "error"],
            f"a turn whose model call fails has no reply and is not interrupted: drop {key!r}"
            " or 'error'",
        )
    if error is None and assistant is None and not interrupted:
        raise fail(where, f"the turn has no outcome: {OUTCOME_HINT}")
    continuations: tuple[str, ...] = ()
    if isinstance(assistant, list):  # the reply, then the reply after each continuation
        if interrupted:
            raise fail(
                [*where, "assistant"],
                "an interrupted turn is not continued: give assistant one text (what had"
                " streamed before the stop)",
            )
        assistant, continuations = assistant[0], tuple(assistant[1:])
    if "tools" in raw and "responses" in raw:
        raise fail(
            [*where, "responses"],
            "give a turn's tool calls as tools (grouped as the host's model groups them) or as"
            " responses (grouped by you), not both",
        )
    responses = [r["tools"] for r in raw.get("responses", [])]
    batches = tuple(len(calls) for calls in responses)
    tools = [
        _tool_call(t, [*where, "responses", i, "tools", j], fail)
        for i, calls in enumerate(responses)
        for j, t in enumerate(calls)
    ] or [_tool_call(t, [*where, "tools", j], fail) for j, t in enumerate(raw.get("tools", []))]
    edited = raw.get("edited")
    return Turn(
        raw["user"],
        assistant,
        interrupted,
        tuple(tools),
        after,
        line,
        None if error is None else ApiError.parse(error),
        None if edited is None else tuple(edited),
        continuations=continuations,
        batches=batches,
    )


def _tool_call(t: dict[str, Any], where: list[str | int], fail: Any) -> ToolCall:
    """One tool call of a turn: a named tool with its arguments, or a shell command."""
    try:
        duration = parse_duration(t.get("duration", 0))
    except ValueError as e:
        raise fail([*where, "duration"], f"{'/'.join(map(str, where))}/duration: {e}") from None
    args = t.get("args", {}) if "name" in t else {"command": t["shell"]}
    if t.get("run") and not isinstance(args.get("command"), str):
        raise fail(
            [*where, "run"],
            f"{'/'.join(map(str, where))}/run: run: true runs a shell command: give the call as"
            " {shell: CMD} (or with args.command)",
        )
    return ToolCall(
        t.get("name", SHELL),
        args,
        t.get("result", "ok"),
        t.get("id"),
        duration,
        run=bool(t.get("run", False)),
        compact=t.get("compact"),
    )
