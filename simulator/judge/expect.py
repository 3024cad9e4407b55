"""Expectations: compare a recorded run with the scenario's ``expect:`` block.

Each check returns failure lines in the form ``what: expected X, got Y``; an empty list passes.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from typing import Any

from ..hosts import Firing, HookRun, contains, get_host
from ..hosts.conversation import counted
from ..printable import one_line
from ..replay.leaks import LeakedProcess
from ..replay.result import BridgeCall, FileState
from ..replay.runner import RunResult
from ..scenario import Turn, parse_duration

COMPACT_TOOL = "cleanup_frames"
# A timestamp written by the hook reads its (virtual) clock a little after the turn began.
_STATE_TOLERANCE_MS = 60_000


def _succeeded(call: BridgeCall) -> bool:
    outcome = str(call.get("outcome", "ok"))
    return outcome in ("ok", "empty", "meet") or outcome.startswith("slow ")


def _allowed_codes(want: int | list[int] | dict[str, int | list[int]], event: str) -> list[int]:
    """The exit codes ``exit_codes`` allows for a hook of ``event``."""
    if isinstance(want, dict):
        chosen = want.get(event, want.get("*", 0))
        return [chosen] if isinstance(chosen, int) else list(chosen)
    return [want] if isinstance(want, int) else list(want)


def _exit_codes(result: RunResult, want: int | list[int] | dict[str, int | list[int]]) -> list[str]:
    failures = []
    for r in result.runs:
        allowed = _allowed_codes(want, r.event)
        if r.exit_code in allowed:
            continue
        shown = allowed[0] if len(allowed) == 1 else f"one of {allowed}"
        failures.append(
            f"exit code of {r.event} at turn {r.turn}: expected {shown}, got "
            + (r.spawn_error or ("killed on timeout" if r.timed_out else str(r.exit_code)))
        )
    return failures


def _stdout(result: RunResult, want: str) -> list[str]:
    return [
        f"stdout of {r.event} at turn {r.turn}: expected {want!r}, got {r.stdout[:200]!r}"
        for r in result.runs
        if r.stdout != want
    ]


def _stderr_empty(result: RunResult, want: bool) -> list[str]:
    if not want:
        return []
    return [
        f"stderr of {r.event} at turn {r.turn}: expected nothing, got {r.stderr.strip()[:200]!r}"
        for r in result.runs
        if r.stderr.strip()
    ]


def _timed_out(result: RunResult, want: int) -> list[str]:
    got = sum(r.timed_out for r in result.runs)
    return [] if got == want else [f"hooks killed on timeout: expected {want}, got {got}"]


def _order_each_turn(result: RunResult, order: list[str]) -> list[str]:
    failures = []
    for turn in sorted(result.turn_ms):
        tools = [c["tool"] for c in result.calls if c["turn"] == turn and c["tool"] in order]
        for earlier, later in itertools.pairwise(order):
            if earlier in tools and later in tools:
                last_earlier = max(i for i, t in enumerate(tools) if t == earlier)
                first_later = tools.index(later)
                if first_later < last_earlier:
                    failures.append(
                        f"turn {turn}: expected every {earlier} before {later}, got {tools}"
                    )
    return failures


def compaction_turns(result: RunResult) -> list[int]:
    """Turns in which the hooks called cleanup_frames (whatever its outcome)."""
    return sorted({c["turn"] for c in result.calls if c["tool"] == COMPACT_TOOL})


def _compactions_at_turns(result: RunResult, want: list[int]) -> list[str]:
    got = compaction_turns(result)
    return (
        [] if got == sorted(want) else [f"turns that compacted: expected {sorted(want)}, got {got}"]
    )


def _compactions_per_window(result: RunResult, spec: dict[str, Any]) -> list[str]:
    window_ms = parse_duration(spec["window"]) * 1000
    times = sorted(
        c["virtual_ms"] for c in result.calls if c["tool"] == COMPACT_TOOL and _succeeded(c)
    )
    for i, start in enumerate(times):
        inside = [t for t in times[i:] if t - start < window_ms]
        if len(inside) > spec["max"]:
            return [
                f"successful compactions within {spec['window']} of each other: expected at most "
                f"{spec['max']}, got {len(inside)} (turns "
                f"{[c['turn'] for c in result.calls if c['tool'] == COMPACT_TOOL and c['virtual_ms'] in inside]})"
            ]
    return []


def _calls(result: RunResult, want: dict[str, int]) -> list[str]:
    failures = []
    for tool, count in want.items():
        got = sum(1 for c in result.calls if c["tool"] == tool)
        if got != count:
            failures.append(f"calls of {tool}: expected {count}, got {got}")
    return failures


def _call_sequence(result: RunResult, want: list[str]) -> list[str]:
    got = [c["tool"] for c in result.calls]
    return [] if got == want else [f"bridge calls in order: expected {want}, got {got}"]


def _step_turn(result: RunResult, key: str) -> int | None:
    """The turn a key of a turn-keyed expectation names: a turn number, or the number of the
    step labelled so; None for the label of a step that is not a turn (a /new, a resume)."""
    if key.isdigit():
        return int(key)
    return next((s.turn for s in result.scenario.schedule if s.label == key and s.turn), None)


def _in_step(result: RunResult, key: str) -> Callable[[Firing | HookRun], bool]:
    """Whether a firing (or hook run) belongs to the turn or the labelled step ``key`` names."""
    turn = _step_turn(result, key)
    if turn is None:
        return lambda item: item.step == key
    return lambda item: item.turn == turn


def _where(key: str) -> str:
    """``turn 3``, or ``step clear-1`` for a label."""
    return f"turn {key}" if key.isdigit() else f"step {key}"


def _calls_by_turn(result: RunResult, want: dict[str, list[str]]) -> list[str]:
    failures = []
    for key, tools in want.items():
        turn, inside = _step_turn(result, key), _in_step(result, key)
        got = [
            c["tool"]
            for c in result.calls
            if (
                c["turn"] == turn
                if turn is not None
                else (hook := c.get("hook")) is not None and inside(result.runs[hook])
            )
        ]
        if got != tools:
            failures.append(f"bridge calls at {_where(key)}: expected {tools}, got {got}")
    return failures


def _state_file(result: RunResult, want: str | dict[str, int]) -> list[str]:
    got = result.state_file
    if want == "absent":
        return [] if got is None else [f"state file: expected absent, got {got!r}"]
    if want == "present":
        return [] if got is not None else ["state file: expected present, got absent"]
    assert isinstance(want, dict)
    turn = want["written_at_turn"]
    instant = result.turn_ms.get(turn)
    if got is None or instant is None or not got.strip().isdigit():
        return [f"state file: expected the time of turn {turn} ({instant}), got {got!r}"]
    if not 0 <= int(got) - instant < _STATE_TOLERANCE_MS:
        return [f"state file: expected the time of turn {turn} ({instant}), got {got.strip()}"]
    return []


def _temporary_frames(result: RunResult, want: dict[str, int]) -> list[str]:
    counts = result.temporary_frames
    final = counts[max(counts)] if counts else 0
    failures = []
    if "max" in want and counts and max(counts.values()) > want["max"]:
        worst = max(counts, key=lambda t: counts[t])
        failures.append(
            f"temporary frames: expected at most {want['max']}, got {counts[worst]} after turn {worst}"
        )
    if "final" in want and final != want["final"]:
        failures.append(f"temporary frames at the end: expected {want['final']}, got {final}")
    if "min_final" in want and final < want["min_final"]:
        failures.append(
            f"temporary frames at the end: expected at least {want['min_final']}, got {final}"
        )
    return failures


def _max_duration(result: RunResult, limit: float | str) -> list[str]:
    seconds = parse_duration(limit)
    return [
        f"duration of {r.event} at turn {r.turn}: expected under {seconds:g}s, got {r.duration_s:.2f}s"
        for r in result.runs
        if r.duration_s >= seconds
    ]


def _fired(result: RunResult, want: dict[str, int]) -> list[str]:
    failures = []
    for event, count in want.items():
        got = sum(1 for f in result.firings if f.event == event)
        if got != count:
            failures.append(f"times {event} fired: expected {count}, got {got}")
    return failures


def _fired_by_turn(result: RunResult, want: dict[str, list[str]]) -> list[str]:
    failures = []
    for key, events in want.items():
        inside = _in_step(result, key)
        got = [f.event for f in result.firings if inside(f) and f.event[:1] != "("]
        if got != events:
            failures.append(f"events fired at {_where(key)}: expected {events}, got {got}")
    return failures


def _blocked(result: RunResult, want: dict[str, int]) -> list[str]:
    failures = []
    for event, count in want.items():
        got = sum(1 for f in result.firings if f.event == event and f.continued)
        if got != count:
            failures.append(f"firings of {event} blocked by hooks: expected {count}, got {got}")
    return failures


def _refused(result: RunResult, want: dict[str, int]) -> list[str]:
    """How many runs of each event's hooks printed output the host refused or ignored."""
    failures = []
    for event, count in want.items():
        got = sum(
            1 for r in result.runs if r.fault in ("refused", "ignored") and event in ("*", r.event)
        )
        if got != count:
            on = "any event" if event == "*" else event
            failures.append(
                f"hooks whose output {result.host_title} refused or ignored on {on}: expected"
                f" {count}, got {got}"
            )
    return failures


def _at_turn(
    result: RunResult,
    want: dict[str, str | list[str]],
    texts: Callable[[Firing], list[str]],
    what: str,
) -> list[str]:
    """Each turn's texts (``texts`` of its firings) must contain each wanted one; a text the
    host wraps (Codex's ``<hook_prompt>``, a JSON result) is read unwrapped too."""
    failures = []
    for key, wanted in want.items():
        inside = _in_step(result, key)
        given = [c for f in result.firings if inside(f) for c in texts(f)]
        for text in [wanted] if isinstance(wanted, str) else wanted:
            if not any(contains(c, text) for c in given):
                failures.append(
                    f"{what} at {_where(key)}: expected one containing {text!r}, got {given}"
                )
    return failures


def _never(
    result: RunResult, want: list[str], texts: Callable[[Firing], list[str]], what: str
) -> list[str]:
    given = [(f.turn, c) for f in result.firings for c in texts(f)]
    return [
        f"{what} at turn {turn}: expected none containing {text!r}, got {c!r}"
        for text in want
        for turn, c in given
        if contains(c, text)
    ]


def _given(firing: Firing) -> list[str]:
    """Everything the host gave the model because of the firing's hooks: their context, and
    a block reason, retry prompt or follow-up the session went on with."""
    return firing.context


def _shown(firing: Firing) -> list[str]:
    return firing.shown


def _context_at_turn(result: RunResult, want: dict[str, str | list[str]]) -> list[str]:
    return _at_turn(result, want, _given, "context given to the model")


def _context_never(result: RunResult, want: list[str]) -> list[str]:
    return _never(result, want, _given, "context given to the model")


def _shown_to_user(result: RunResult, want: dict[str, str | list[str]]) -> list[str]:
    return _at_turn(result, want, _shown, "shown to the user")


def _shown_to_user_never(result: RunResult, want: list[str]) -> list[str]:
    return _never(result, want, _shown, "shown to the user")


def _conversation_at_turn(result: RunResult, want: dict[str, dict[str, Any]]) -> list[str]:
    """The last model request of each turn named: how many messages of the dialogue it
    carried (``counted``), and which texts it did and did not (as the model reads them)."""
    failures = []
    for key, checks in want.items():
        turn = _step_turn(result, key)
        where = f"conversation sent at {_where(key)}"
        sent = result.conversations.get(turn) if turn is not None else None
        if sent is None:
            failures.append(f"{where}: expected a model request, got none")
            continue
        dialogue = counted(sent)
        if "messages" in checks and len(dialogue) != checks["messages"]:
            roles = ", ".join(m.role for m in dialogue)
            failures.append(
                f"{where}: expected {checks['messages']} messages, got {len(dialogue)} ({roles})"
            )
        shown = [m.text[:80] for m in sent]
        for text in _texts(checks.get("contains", [])):
            if not any(contains(m.text, text) for m in sent):
                failures.append(f"{where}: expected a message containing {text!r}, got {shown}")
        for text in _texts(checks.get("lacks", [])):
            found = next((m.text for m in sent if contains(m.text, text)), None)
            if found is not None:
                failures.append(f"{where}: expected none containing {text!r}, got {found[:200]!r}")
    return failures


def _texts(want: str | list[str]) -> list[str]:
    return [want] if isinstance(want, str) else list(want)


def _effects(result: RunResult, want: list[str]) -> list[str]:
    effects = [f.effect for f in result.firings if f.effect]
    return [
        f"host effects: expected one containing {text!r}, got {effects}"
        for text in want
        if not any(text in effect for effect in effects)
    ]


def _leaked_processes(result: RunResult, want: int | str) -> list[str]:
    """Processes the hooks left running. What a host's kill at a timeout leaves (the hook's
    children, where the host signals only the hook's own process) is the timeout's: a
    scenario that expects the timeout (``timed_out``) acknowledges it too."""
    if want == "allow":
        return []
    acknowledged = "timed_out" in result.scenario.expect
    got = [leak for leak in result.leaks if not (acknowledged and leak.after_timeout)]
    if len(got) == want:
        return []
    kill = get_host(result.scenario.tool).timeout_kill()
    timed_out = sum(r.timed_out for r in result.runs)

    def said(leak: LeakedProcess) -> str:
        text = f"pid {leak.pid} {leak.command[:80]!r} left by {leak.hook}"
        if leak.after_timeout:
            text += (
                f", left running after {get_host(result.scenario.tool).title} killed its hook at"
                f" the timeout ({kill}); expect: {{timed_out: {timed_out}}} acknowledges it"
            )
        return text

    shown = "; ".join(said(leak) for leak in got[:5])
    return [
        f"processes left running by hooks: expected {want}, got {len(got)}"
        + (f" ({shown})" if shown else "")
    ]


def expected_warning(result: RunResult, warning: str) -> bool:
    """Whether the scenario says the host warns so (``expect: {warnings: [...]}``): such a
    warning is part of what it tests, not something to show."""
    return any(text in warning for text in result.scenario.expect.get("warnings", []))


def _warnings(result: RunResult, want: list[str]) -> list[str]:
    return [
        f"host warnings: expected one containing {text!r}, got {result.warnings}"
        for text in want
        if not any(text in warning for warning in result.warnings)
    ]


def _continuations(result: RunResult) -> dict[tuple[str, int], tuple[str, int, int]]:
    """Per turn (of a session) that reached the host's stop event: the event, how many times
    the turn continued (blocked stops, retries, follow-ups), and where hooksim cut the loop."""
    host = get_host(result.scenario.tool)
    # Hermes' post_llm_call cannot continue a turn; its verify hook (pre_verify) can.
    stop = host.events["stop"] if host.stop_can_continue else "pre_verify"
    turns: dict[tuple[str, int], tuple[str, int, int]] = {}
    for f in result.firings:
        if f.event == stop:
            _, count, cut = turns.get((f.session, f.turn), (stop, 0, 0))
            turns[(f.session, f.turn)] = (stop, count + f.continued, max(cut, f.cut))
    return turns


def _max_continuations(result: RunResult, most: int) -> list[str]:
    return [
        f"continuations of {event} at turn {turn}: expected at most {most}, got {count}"
        + (f" (hooksim cut the loop at {cut}; the session would not end)" if cut else "")
        for (_, turn), (event, count, cut) in _continuations(result).items()
        if count > most
    ]


def _min_continuations(result: RunResult, least: int) -> list[str]:
    return [
        f"continuations of {event} at turn {turn}: expected at least {least}, got {count}"
        for (_, turn), (event, count, _) in _continuations(result).items()
        if count < least
    ]


def _max_session_duration(result: RunResult, limit: float | str) -> list[str]:
    """The real time the session waited on its hooks: per firing the host waited for, its
    hooks' time (the longest of those run in parallel)."""
    parallel = get_host(result.scenario.tool).parallel
    by_event: dict[str, float] = {}
    for f in result.firings:
        times = [r.duration_s for r in f.runs]
        if f.waited and times:
            spent = max(times) if parallel else sum(times)
            by_event[f.event] = by_event.get(f.event, 0.0) + spent
    seconds, waited = parse_duration(limit), sum(by_event.values())
    if waited < seconds:
        return []
    worst = max(by_event, key=lambda e: by_event[e])
    fired = sum(1 for f in result.firings if f.event == worst)
    return [
        f"time the session waited on its hooks: expected under {seconds:g}s, got {waited:.2f}s"
        f" ({worst}: {by_event[worst]:.2f}s in {fired} firing{'s' * (fired != 1)})"
    ]


def _blocked_calls(result: RunResult, want: dict[str, dict[str, str]]) -> list[str]:
    """Each call of a named tool is blocked exactly when its arguments match the patterns."""
    wrong = []
    for tool, patterns in want.items():
        for key, pattern in patterns.items():
            try:
                re.compile(pattern)
            except re.error as e:
                wrong.append(f"blocked_calls: {tool}.{key}: {pattern!r} is not a regex ({e})")
    if wrong:
        return wrong
    before = get_host(result.scenario.tool).events["pre_tool"]
    tools = {s.turn: s.step.tools for s in result.scenario.schedule if isinstance(s.step, Turn)}
    seen: dict[int, int] = {}
    failures = []
    for f in result.firings:
        if f.event != before or f.turn not in tools:
            continue
        n = seen[f.turn] = seen.get(f.turn, 0) + 1
        calls = tools[f.turn]
        if n > len(calls) or calls[n - 1].name not in want:
            continue
        call, patterns = calls[n - 1], want[calls[n - 1].name]
        must = all(re.search(p, str(call.args.get(k, ""))) for k, p in patterns.items())
        if must != f.blocked:
            shown = ", ".join(f"{k}={call.args.get(k)!r}" for k in patterns)
            got = f"blocked ({f.reason.strip()[:80]!r})" if f.blocked else "not blocked"
            failures.append(
                f"{call.name} call at turn {f.turn} ({shown}): expected"
                f" {'blocked' if must else 'not blocked'}, got {got}"
            )
    return failures


def _files(result: RunResult, want: dict[str, dict[str, Any]]) -> list[str]:
    """Each file named, at the end of the run (or after ``at_turn``), as its checks want it."""
    failures = []
    for path, checks in want.items():
        turn = checks.get("at_turn", 0)
        where = f"file {one_line(path)}" + (f" after turn {turn}" if turn else "")
        state = result.files.get((path, turn))
        if state is None:
            failures.append(f"{where}: expected it read, got nothing (the run did not read it)")
            continue
        failures += [f"{where}: {line}" for line in _file_failures(state, checks)]
    return failures


def _file_failures(state: FileState, checks: dict[str, Any]) -> list[str]:
    """``expected X, got Y`` for each check of one file that fails."""
    text = state.data.decode("utf-8", "replace") if state.kind == "file" else None
    if text is None:
        got = {"absent": "no such file", "folder": "a folder"}.get(state.kind, state.said)
    else:
        got = repr(text) if len(text) <= 200 else f"{text[:200]!r}..."
    failures = []
    if checks.get("exists") is True and state.kind == "absent":
        failures.append("expected it to exist, got no such file")
    if checks.get("exists") is False and state.kind != "absent":
        size = f"a file of {len(state.data)} bytes" + (f" ({got})" if state.data else "")
        failures.append(f"expected no such file, got {size if text is not None else got}")
    if "equals" in checks and text != checks["equals"]:
        failures.append(f"expected {checks['equals']!r}, got {got}")
    if "contains" in checks and (text is None or checks["contains"] not in text):
        failures.append(f"expected text containing {checks['contains']!r}, got {got}")
    if "matches" in checks and (text is None or not re.search(checks["matches"], text)):
        failures.append(f"expected text matching {checks['matches']!r}, got {got}")
    if "json" in checks:
        try:
            document = json.loads(text) if text is not None else None
        except ValueError:
            text = None
        if text is None:
            return [*failures, f"expected JSON, got {got}"]
        for key, value in checks["json"].items():
            found, missing = _json_at(document, key)
            if missing:
                failures.append(f"expected {key} = {json.dumps(value)}, got no {missing}")
            elif not _same(found, value):
                failures.append(f"expected {key} = {json.dumps(value)}, got {json.dumps(found)}")
    return failures


def _json_at(document: Any, key: str) -> tuple[Any, str]:
    """The value at a dotted path (a list's items by number), or the part that is missing."""
    node = document
    parts = key.split(".")
    for i, part in enumerate(parts):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None, ".".join(parts[: i + 1])
    return node, ""


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``true`` is not ``1``, ``1`` is ``1.0``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b) and isinstance(a, (dict, list)) == isinstance(b, (dict, list))


CHECKS: dict[str, Callable[[RunResult, Any], list[str]]] = {
    "exit_codes": _exit_codes,
    "stdout": _stdout,
    "stderr_empty": _stderr_empty,
    "timed_out": _timed_out,
    "order_each_turn": _order_each_turn,
    "compactions_at_turns": _compactions_at_turns,
    "compactions_per_window": _compactions_per_window,
    "calls": _calls,
    "calls_by_turn": _calls_by_turn,
    "call_sequence": _call_sequence,
    "state_file": _state_file,
    "temporary_frames": _temporary_frames,
    "max_duration": _max_duration,
    "fired": _fired,
    "fired_by_turn": _fired_by_turn,
    "blocked": _blocked,
    "refused": _refused,
    "context_at_turn": _context_at_turn,
    "context_never": _context_never,
    "conversation_at_turn": _conversation_at_turn,
    "shown_to_user": _shown_to_user,
    "shown_to_user_never": _shown_to_user_never,
    "effects": _effects,
    "leaked_processes": _leaked_processes,
    "max_continuations": _max_continuations,
    "min_continuations": _min_continuations,
    "max_session_duration": _max_session_duration,
    "blocked_calls": _blocked_calls,
    "files": _files,
    "warnings": _warnings,
}


def check(result: RunResult) -> list[str]:
    """All failures of the scenario's invariants and expectations, in the order they are written.

    ``leaked_processes`` is checked even when not written: a hook must leave nothing running
    unless the scenario says so.
    """
    return [failure for _, failure in check_each(result)]


def check_each(result: RunResult) -> list[tuple[str, str]]:
    """``check``'s failures, each with the key (of ``expect:`` or ``invariants:``) it is of."""
    sc = result.scenario
    expect = sc.expect
    checks = [(k, v) for k, v in sc.invariants.items() if k not in expect]
    failures: list[tuple[str, str]] = []
    for key, want in checks + list(expect.items()):
        failures += [(key, failure) for failure in CHECKS[key](result, want)]
    if "leaked_processes" not in expect:
        failures += [("leaked_processes", failure) for failure in _leaked_processes(result, 0)]
    return failures
