"""What a run looks like to a person (a turn-by-turn timeline) and to CI (JUnit XML, JSON).

Whatever a hook prints, what is shown stays readable and bounded: the timeline shows each
character that does not print as its escape (``\\x1b``: printed as is, a hook's escape sequence
would reach the terminal), JUnit XML holds only characters XML allows, and each text of a
report is cut at ``FIELD_CAP`` characters, saying how many were cut.
"""

from __future__ import annotations

import datetime as dt
import io
import itertools
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import beneath
from ..hosts import DEFAULT_HOST, Firing, HookRun
from ..hosts.output import stderr_lines, telling_line
from ..judge import expect
from ..judge.outcome import Outcome
from ..printable import escaped, no_commands, one_line
from ..replay.leaks import LeakedProcess
from ..replay.result import BridgeCall
from ..replay.runner import RunResult

# The most characters of one text (a hook's stdout, stderr, stdin, reply, ...) a report keeps:
# a hook printing megabytes must not make a report of megabytes, nor a page a browser chokes on.
FIELD_CAP = 64 * 1024


def capped(text: str) -> str:
    """``text``, or its start and a line saying how many characters were cut, ``FIELD_CAP``
    characters at most (so a text capped once is left as it is)."""
    if len(text) <= FIELD_CAP:
        return text
    kept = FIELD_CAP - 64  # room for the note
    return f"{text[:kept]}\n[… {len(text) - kept} more characters cut]"


def capped_all(value: Any) -> Any:
    """``value`` (JSON data) with each of its texts ``capped``."""
    if isinstance(value, str):
        return capped(value)
    if isinstance(value, dict):
        return {capped(str(k)): capped_all(v) for k, v in value.items()}
    if isinstance(value, list):
        return [capped_all(v) for v in value]
    return value


def _clock(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _call_line(call: BridgeCall) -> str:
    return f"-> {call['tool']} #{call['call']} {call['outcome']}"


def _label(firing: Firing) -> str:
    label = firing.event + (f"({firing.match})" if firing.match else "")
    return f"[{firing.session}] {label}" if firing.session else label


def timeline(result: RunResult, *, stdin: bool = False, notes: bool = True) -> str:
    """The session event by event: virtual time, hooks and how they ended, the bridge calls
    each hook made (itself or through its children), what the host made of each hook's
    output, and what the host did because of it. ``stdin``: also each hook's payload;
    ``notes``: also the profile's notes about the host.

    Three or more firings in a row that read the same but for their time and counters (a Stop
    loop) show as the first, then one line counting the others."""
    title = result.host_title
    lines = []
    calls_of: dict[int | None, list[BridgeCall]] = {}
    for call in result.calls:
        calls_of.setdefault(call.get("hook"), []).append(call)
    orphans: dict[tuple[int, str], list[BridgeCall]] = {}
    for call in calls_of.pop(None, []):
        orphans.setdefault((call["turn"], call["event"]), []).append(call)
    shown = [f for f in result.firings if f.runs or f.effect]
    if not shown:
        lines.append("    (no hook ran: nothing the session fired has one)")
    width = max([20, *(len(_label(f)) for f in shown if f.runs)])
    view = _FiringView(result, calls_of, orphans, width, stdin)
    blocks = [(firing, view.lines(firing)) for firing in shown]
    for _, group in itertools.groupby(blocks, key=lambda block: _shape(block[1])):
        same = list(group)
        lines += same[0][1]
        if len(same) == 2:
            lines += same[1][1]
        elif len(same) > 2:
            first = same[0][0]
            turns = sorted({f.turn for f, _ in same})
            where = f"turn {turns[0]}" if len(turns) == 1 else f"turns {turns[0]}-{turns[-1]}"
            lines.append(
                f"{view.pad}... {len(same) - 1} more identical {first.event} firings ({where})"
            )
    for leak in (leak for leak in result.leaks if leak.run is None):
        lines.append(f"  left running by {_line(leak.hook)}: {leak_text(leak)}")
    for warning in result.warnings:
        lines.append(f"  {title} would warn: {_line(warning)}")
    if notes:
        lines += [f"  {title}: {_line(note)}" for note in result.notes]
    return no_commands(escaped("\n".join(lines)))


def _line(text: str) -> str:
    """A value shown inside one line of the timeline: a line break in it is escaped too."""
    return escaped(text, keep="\t")


_PREFIX = re.compile(r"^  turn +\d+  \S+ \S+  ")
_NUMBER = re.compile(r"\d+")


def _shape(block: list[str]) -> tuple[str, ...]:
    """A firing's lines without what changes from one firing of a loop to the next."""
    return tuple(_NUMBER.sub("N", _PREFIX.sub("", line)) for line in block)


class _FiringView:
    """The timeline's lines for one firing: its hook runs, their calls, what the host did."""

    def __init__(
        self,
        result: RunResult,
        calls_of: dict[int | None, list[BridgeCall]],
        orphans: dict[tuple[int, str], list[BridgeCall]],
        width: int,
        stdin: bool,
    ) -> None:
        self.result, self.calls_of, self.orphans = result, calls_of, orphans
        self.width, self.stdin = width, stdin
        self.pad = " " * (18 + width)
        self.index = {id(run): i for i, run in enumerate(result.runs)}

    def lines(self, firing: Firing) -> list[str]:
        label, pad = _label(firing), self.pad
        lines = []
        if not firing.runs:
            lines.append(f"  turn {firing.turn:>3}  {_clock(firing.virtual_ms)}  {label}")
        for run in firing.runs:
            lines += self._run(run, label)
        # What the session went on with (a block reason, a retry prompt, a follow-up), as the
        # host hands it to the model: beside the hooks' own context, which each run shows.
        own = {run.context for run in firing.runs}
        lines += [
            f"{pad}given to the model: {text[:160]!r}" for text in firing.context if text not in own
        ]
        lines += [
            f"{pad}{_call_line(call)} (by a process outside the hooks)"
            for call in self.orphans.pop((firing.turn, firing.event), [])
        ]
        if firing.effect:
            lines.append(f"{pad}=> {_line(firing.effect)}")
        return lines

    def _run(self, run: HookRun, label: str) -> list[str]:
        title, pad = self.result.host_title, self.pad
        ended = run.spawn_error or ("timeout" if run.timed_out else f"exit {run.exit_code}")
        if run.tag and not run.timed_out:  # a handler in its host's process: no exit code
            ended = "returned" if run.exit_code == 0 else ("threw" if run.exit_code else "running")
        lines = [
            f"  turn {run.turn:>3}  {_clock(run.virtual_ms)}  {label:<{self.width}} {_line(ended):<10} {_line(run.command)}"
        ]
        spec = run.spec
        if spec is not None and spec.layer == "project":  # not the scenario's hooks: say whose
            lines.append(f"{pad}from {one_line(spec.source)}{f':{spec.line}' if spec.line else ''}")
        if self.stdin:
            # One line: a host's trailing newline (Claude Code) is not part of what to show.
            shown = run.stdin.decode("utf-8", "replace").rstrip("\n")
            lines.append(f"{pad}stdin: {_line(shown)}")
        lines += [f"{pad}{_call_line(call)}" for call in self.calls_of.get(self.index[id(run)], [])]
        if run.stderr.strip():
            # The line that says most, and how many it leaves out.
            told, more = telling_line(run.stderr), len(stderr_lines(run.stderr)) - 1
            rest = f"  (+{more} more line{'s' if more > 1 else ''} of stderr)" if more else ""
            lines.append(f"{pad}stderr: {_line(told[:160])}{rest}")
        if run.context is not None:
            lines.append(f"{pad}context given to the model: {run.context[:160]!r}")
        elif run.verdict not in ("", "ok"):
            lines.append(f"{pad}{title} reads it as: {_line(run.verdict[:160])}")
        elif run.stdout.strip() and run.shown is None:
            lines.append(f"{pad}stdout (not used by {title}): {run.stdout.strip()[:160]!r}")
        if run.shown is not None:
            lines.append(f"{pad}shown to the user: {run.shown[:160]!r}")
        for leak in (leak for leak in self.result.leaks if leak.run is run):
            lines.append(f"{pad}left running: {leak_text(leak)}")
        return lines


def leak_text(leak: LeakedProcess) -> str:
    """One leaked process in words: pid, command, and whether it left the hook's session."""
    where = "in a session of its own" if leak.own_session else "in the hook's session"
    if leak.after_timeout:
        where += ", left by the host's kill at the timeout"
    return f"pid {leak.pid} {_line(leak.command[:120])} ({where})"


def failure_text(outcome: Outcome, *, stdin: bool = False, notes: bool = True) -> str:
    """Expected and actual side by side, then the timeline (``stdin``: with each hook's;
    ``notes``: with the profile's notes about the host)."""
    if outcome.error:
        lines = outcome.error.rstrip("\n").split("\n")
        return no_commands(escaped("\n".join(f"  {line}" for line in lines)))
    parts = [f"  {_line(line)}" for line in outcome.found]
    if outcome.result is not None:
        parts.append("  timeline:")
        parts.append(timeline(outcome.result, stdin=stdin, notes=notes))
    return no_commands("\n".join(parts))


VERDICTS = ("PASS", "FAIL", "ERROR", "SKIP")


def summary(outcomes: list[Outcome], seconds: float) -> str:
    """``70 passed, 1 failed, 1 error, 2 warnings in 68.2s``: errors (could not load or
    start) apart, and the warnings of all of them (``print_warnings`` lists them)."""
    said = tally([o.verdict for o in outcomes], sum(o.cached is not None for o in outcomes))
    warned = sum(len(o.warnings) for o in outcomes)
    if warned:
        said += f", {warned} warning{'s' if warned != 1 else ''}"
    return f"{said} in {seconds:.1f}s"


def print_warnings(outcomes: list[Outcome]) -> None:
    """The warnings section of a summary: each run's warnings, under its label."""
    warned = [(o, w) for o in outcomes for w in o.warnings]
    if warned:
        print("warnings:")
        for outcome, warning in warned:
            print(no_commands(escaped(f"  {outcome.label}: {_line(warning)}")))


def tally(verdicts: list[str], cached: int = 0) -> str:
    """``70 passed (3 cached), 1 failed, 1 error``: how many of each verdict, errors apart."""
    count = {said: verdicts.count(said) for said in VERDICTS}
    passed = f"{count['PASS']} passed" + (f" ({cached} cached)" if cached else "")
    parts = [passed, f"{count['FAIL']} failed"]
    if count["SKIP"]:
        parts.append(f"{count['SKIP']} skipped")
    if count["ERROR"]:
        parts.append(f"{count['ERROR']} error{'s' if count['ERROR'] != 1 else ''}")
    return ", ".join(parts)


def verdict(entry: dict[str, Any]) -> str:
    """An entry's PASS, FAIL, ERROR or SKIP (read from its other keys in a report written
    before entries said it)."""
    if entry.get("verdict") in VERDICTS:
        return str(entry["verdict"])
    if entry.get("skipped") is not None:
        return "SKIP"
    return "PASS" if entry.get("passed") else ("ERROR" if entry.get("error") else "FAIL")


def shown_host(entry: dict[str, Any]) -> str | None:
    """The host an entry's run is named by (``name[codex]``), None when the file runs on the
    default host alone."""
    label, path = entry.get("label", entry["path"]), entry["path"]
    return str(entry.get("tool")) if label != path else None


def write_junit(entries: list[dict[str, Any]], path: str | Path) -> None:
    """JUnit XML of report entries (``to_json``): one test case per entry, each case's
    session (its timeline with every hook's stdin) as its system-out."""
    verdicts = [verdict(e) for e in entries]
    suite = ET.Element(
        "testsuite",
        name="hooksim",
        tests=str(len(entries)),
        failures=str(verdicts.count("FAIL")),
        skipped=str(verdicts.count("SKIP")),
        errors=str(verdicts.count("ERROR")),
        time=f"{sum(e.get('seconds', 0) for e in entries):.3f}",
    )
    for e, said in zip(entries, verdicts, strict=True):
        host = shown_host(e)
        name = f"{e['name']}[{host}]" if host else str(e["name"])
        seconds = f"{e.get('seconds', 0):.3f}"
        case = ET.SubElement(suite, "testcase", classname=e["path"], name=name, time=seconds)
        if e.get("warnings"):  # JUnit has no warning: each is a property of its case
            properties = ET.SubElement(case, "properties")
            for warning in e["warnings"]:
                ET.SubElement(properties, "property", name="warning", value=str(warning))
        if said == "SKIP":
            ET.SubElement(case, "skipped", message=str(e["skipped"]))
        elif said == "ERROR":
            error = str(e.get("error"))
            ET.SubElement(case, "error", message=(error.splitlines() or [""])[0]).text = error
        elif said == "FAIL":
            failures = e.get("failures") or [""]
            text = e.get("failure_text") or "\n".join(f"  {_line(f)}" for f in failures)
            ET.SubElement(case, "failure", message=failures[0]).text = text
        if e.get("timeline") is not None:
            # Every case carries its session, passing ones too: who ran, who called the bridge.
            ET.SubElement(case, "system-out").text = e["timeline"]
    for element in suite.iter():
        element.text = None if element.text is None else _xml(element.text)
        for key, value in element.attrib.items():
            element.set(key, _xml(value))
    buffer = io.BytesIO()
    ET.ElementTree(suite).write(buffer, encoding="utf-8", xml_declaration=True)
    beneath.write_file(path, buffer.getvalue())


# What XML 1.0 cannot hold (C0 controls but tab and line breaks, lone surrogates, U+FFFE/FFFF):
# a CI tool refuses the whole file for one such character.
_NOT_XML = re.compile(r"[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str) -> str:
    """``text``, capped, with what XML cannot hold as its escape (``\\x1b``)."""
    return _NOT_XML.sub(lambda m: repr(m.group())[1:-1], capped(text))


def to_json(outcomes: list[Outcome]) -> list[dict[str, Any]]:
    """Each outcome's report ``entry``, in order."""
    return [entry(o) for o in outcomes]


def entry(outcome: Outcome) -> dict[str, Any]:
    """One outcome as JSON: its verdict, all that every report shows of it, and what its run
    did, each text ``capped``. JUnit, the HTML picture, SARIF and annotations are drawn from
    entries alone, so a report drawn from ``--json`` files is the report the run wrote. A pass
    taken from the cache is the entry its run saved, marked ``cached``.

    - ``label``: the path, and the host in brackets when the file names more than the default;
    - ``verdict``: PASS, FAIL, ERROR or SKIP;
    - ``failure_text``: a failure's expectations and timeline (as JUnit and the console show
      them); ``timeline``: the session with each hook's stdin (a JUnit case's system-out);
    - ``rules`` and ``lines``: for each failure (or the error), the kind of failure
      (``expect.KEY``, ``checks.NAME``, ``error``) and its line in the scenario file.
    """
    o = outcome
    if o.cached is not None:  # a pass taken from the cache: its run's entry, as saved
        return {**o.cached, "cached": True}
    found = _located(o)
    data: dict[str, Any] = {
        "path": str(o.path),
        "name": o.name,
        "tool": o.tool or DEFAULT_HOST,
        "passed": o.passed,
        "failures": o.found,
        "warnings": o.warnings,
        "error": o.error,
        "skipped": o.skipped,
        "seconds": round(o.seconds, 3),
        "label": o.label,
        "verdict": o.verdict,
        "failure_text": failure_text(o) if o.found else None,
        "timeline": None if o.result is None else timeline(o.result, stdin=True),
        "rules": [rule for rule, _ in found],
        "lines": [line for _, line in found],
    }
    if o.result is not None:
        data.update(_run_json(o.result))
    return capped_all(data)  # type: ignore[no-any-return]


_BUILTIN = re.compile(r"built-in check (\w+): ")


def _located(outcome: Outcome) -> list[tuple[str, int]]:
    """``(rule, line)`` of each failure of ``outcome`` (or of its error): ``expect.KEY`` at the
    line of its key, ``checks.NAME`` at the line of the hook it names in the scenario file,
    ``error`` at the line it starts with; line 1 when none is known."""
    path = re.escape(str(outcome.path))
    if outcome.error is not None:
        said = re.match(rf"{path}:(\d+): ", outcome.error)
        return [("error", int(said[1]) if said else 1)]
    result = outcome.result
    try:
        keys = {} if result is None else {f: key for key, f in reversed(expect.check_each(result))}
    except Exception:  # a line is a help, never a reason to lose a report
        keys = {}
    lines = {} if result is None else result.scenario.expect_lines
    found = []
    for failure in outcome.found:
        builtin = _BUILTIN.match(failure)
        if builtin:
            named = re.search(rf"\({path}:(\d+)[,)]", failure)
            found.append((f"checks.{builtin[1]}", int(named[1]) if named else 1))
        elif failure in keys:
            found.append((f"expect.{keys[failure]}", lines.get(keys[failure], 1)))
        else:
            found.append(("expect", 1))
    return found


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_HOLDS: dict[str, Callable[[Any], bool]] = {
    "a text": lambda v: isinstance(v, str),
    "a text or null": lambda v: v is None or isinstance(v, str),
    "true or false": lambda v: isinstance(v, bool),
    "a number": _is_number,
    f"one of {', '.join(VERDICTS)}": lambda v: v in VERDICTS,
    "a list of texts": lambda v: isinstance(v, list) and all(isinstance(i, str) for i in v),
    "a list of whole numbers": lambda v: isinstance(v, list) and all(map(_is_whole, v)),
    "a list of objects": lambda v: isinstance(v, list) and all(isinstance(i, dict) for i in v),
}
# What each key of an entry that reports read holds; "path" and "name" are never missing.
_ENTRY_KEYS = {
    **dict.fromkeys(("path", "name", "tool", "label"), "a text"),
    **dict.fromkeys(("error", "skipped", "failure_text", "timeline"), "a text or null"),
    **dict.fromkeys(("passed", "cached"), "true or false"),
    "seconds": "a number",
    "verdict": f"one of {', '.join(VERDICTS)}",
    **dict.fromkeys(("failures", "rules"), "a list of texts"),
    "lines": "a list of whole numbers",
    **dict.fromkeys(("hooks", "events", "bridge_calls", "leaked_processes"), "a list of objects"),
}


# The latest instant a report draws: the end of the year 9999, in milliseconds.
_LAST_MS = 253_402_300_799_999


def _is_instant(value: Any) -> bool:
    return _is_number(value) and 0 <= value <= _LAST_MS


_HOLDS.update(
    {
        "a whole number": _is_whole,
        "a whole number or null": lambda v: v is None or _is_whole(v),
        "an instant (milliseconds since 1970, before 10000)": _is_instant,
        "a list of texts, a text or null": lambda v: (
            v is None or isinstance(v, str) or _HOLDS["a list of texts"](v)
        ),
    }
)
# The fields of the objects inside an entry that reports read: (required, what it holds).
_INNER_KEYS: dict[str, dict[str, tuple[bool, str]]] = {
    "hooks": {
        "turn": (True, "a whole number"),
        "event": (True, "a text"),
        "virtual_ms": (False, "an instant (milliseconds since 1970, before 10000)"),
        **dict.fromkeys(("command", "stdout", "stderr", "stdin"), (False, "a text")),
        **dict.fromkeys(("spawn_error", "verdict"), (False, "a text or null")),
        "exit_code": (False, "a whole number or null"),
        "pid": (False, "a whole number or null"),
        "timed_out": (False, "true or false"),
        "duration_s": (False, "a number"),
        **dict.fromkeys(("context", "shown"), (False, "a list of texts, a text or null")),
    },
    "events": {
        "turn": (True, "a whole number"),
        "event": (True, "a text"),
        "virtual_ms": (True, "an instant (milliseconds since 1970, before 10000)"),
        "hooks": (False, "a whole number"),
    },
    "bridge_calls": {
        "tool": (True, "a text"),
        "virtual_ms": (False, "an instant (milliseconds since 1970, before 10000)"),
        **dict.fromkeys(("turn", "call"), (False, "a whole number")),
        "hook": (False, "a whole number or null"),
        **dict.fromkeys(("outcome", "event"), (False, "a text")),
    },
}


def entry_problem(entry: Any) -> str | None:
    """What keeps ``entry`` (read from ``--json``) from being a report entry, else None.

    A saved run is input like any other (a shard's artifact, a cache entry): every field a
    report reads is checked here, the objects inside ``hooks``, ``events`` and ``bridge_calls``
    included, so that no value of the wrong kind reaches a report.
    """
    if not isinstance(entry, dict):
        return "not an object"
    for key in ("path", "name"):
        if key not in entry:
            return f"no {key!r}"
    for key, what in _ENTRY_KEYS.items():
        if key in entry and not _HOLDS[what](entry[key]):
            return f"{key!r} is not {what}"
    for key, fields in _INNER_KEYS.items():
        for number, item in enumerate(entry.get(key) or [], 1):
            for field, (required, what) in fields.items():
                if field not in item:
                    if required:
                        return f"{key} {number}: no {field!r}"
                elif not _HOLDS[what](item[field]):
                    return f"{key} {number}: {field!r} is not {what}"
    return _counts_problem(entry)


def _counts_problem(entry: dict[str, Any]) -> str | None:
    """The firings' hook counts must add up to at most the hook runs there are."""
    hooks, events = entry.get("hooks") or [], entry.get("events") or []
    counted = sum(int(e.get("hooks", 0)) for e in events)
    if counted > len(hooks):
        return f"its events count {counted} hook runs, and it holds {len(hooks)}"
    return None


def _run_json(result: RunResult) -> dict[str, Any]:
    """A run's hook runs, firings, bridge calls, state file, env, leaks and work directory."""
    entry: dict[str, Any] = {
        "hooks": [_hook_json(r) for r in result.runs],
        "events": [_firing_json(f) for f in result.firings],
        "bridge_calls": result.calls,
        "state_file": result.state_file,
        "env": result.scenario.env,  # the scenario's, as the hooks got it
        "leaked_processes": [_leak_json(leak, result.runs) for leak in result.leaks],
    }
    if result.workdir is not None and result.workdir.exists():
        entry["workdir"] = str(result.workdir)
    return entry


def _hook_json(r: HookRun) -> dict[str, Any]:
    """One hook run: how it ended, its output, what the host made of it, its stdin."""
    return {
        "turn": r.turn,
        "event": r.event,
        "command": r.command,
        "virtual_ms": r.virtual_ms,
        "exit_code": r.exit_code,
        "timed_out": r.timed_out,
        "spawn_error": r.spawn_error,
        "duration_s": round(r.duration_s, 4),
        "stdout": r.stdout,
        "stderr": r.stderr,
        "context": r.context,
        "shown": r.shown,
        "verdict": r.verdict,
        "pid": r.pid,
        "stdin": r.stdin.decode("utf-8", "replace"),
    }


def _firing_json(f: Firing) -> dict[str, Any]:
    """One firing of an event: when, how many hooks ran, and what the host did about it."""
    return {
        "turn": f.turn,
        "event": f.event,
        "match": f.match,
        "virtual_ms": f.virtual_ms,
        "hooks": len(f.runs),
        "waited": f.waited,
        "blocked": f.blocked,
        "reason": f.reason,
        "context": f.context,
        "shown": f.shown,
        "followup": f.followup,
        "effect": f.effect,
    }


def _leak_json(leak: LeakedProcess, runs: list[HookRun]) -> dict[str, Any]:
    """One process left running, and the hook run (index, turn, event) that left it."""
    return {
        "pid": leak.pid,
        "command": leak.command,
        "own_session": leak.own_session,
        "hook": None if leak.run is None else runs.index(leak.run),
        "turn": None if leak.run is None else leak.run.turn,
        "event": None if leak.run is None else leak.run.event,
    }


def write_json(outcomes: list[Outcome], path: str | Path) -> None:
    """The outcomes' entries (``to_json``) as a JSON file."""
    write_entries(to_json(outcomes), path)


SHARD_FORMAT = "hooksim-shard-1"


def write_entries(
    entries: list[dict[str, Any]], path: str | Path, coverage: dict[str, Any] | None = None
) -> None:
    """Report entries as a JSON file: one indented list; for a shard (``coverage``), an object
    that also says which shard it is and which runs of the whole it ran, so that ``hooksim
    show`` can tell a merge that misses a run or holds one twice::

        {"format": "hooksim-shard-1", "shard": "2/4", "items": [every run's id],
         "ran": [the ids this shard ran], "entries": [...]}
    """
    if coverage is not None:
        document: Any = {"format": SHARD_FORMAT, **coverage, "entries": entries}
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        beneath.write_file(path, text.encode("utf-8", "backslashreplace"))
        return
    # A lone surrogate (a hook's JSON can hold one, "\\udc80") cannot be encoded: written as
    # its backslash escape, which inside a JSON string is that same character.
    text = json.dumps(entries, indent=2, ensure_ascii=False) + "\n"
    beneath.write_file(path, text.encode("utf-8", "backslashreplace"))


def _ended(run: HookRun) -> str | None:
    """How a hook that did not exit 0 ended (None when it did)."""
    if run.spawn_error:
        return run.spawn_error
    if run.timed_out:
        return "timeout"
    return None if run.exit_code == 0 else f"exit {run.exit_code}"


def _host_section(outcome: Outcome) -> list[str]:
    """One host's session, event by event: every event the host fired (those with no hook
    bound say so), its hooks and how those that did not exit 0 ended, their bridge calls."""
    lines = [f"== {outcome.tool}: {outcome.verdict}"]
    if outcome.result is None:
        return [*lines, f"  {outcome.error or outcome.skipped}"]
    result = outcome.result
    index = {id(run): i for i, run in enumerate(result.runs)}
    width = max([24, *(len(_label(f)) for f in result.firings)])
    last_turn = None
    for firing in result.firings:
        head = (
            f"  turn {firing.turn:>3}  {_clock(firing.virtual_ms)[11:]}"
            if firing.turn != last_turn
            else " " * 21
        )
        last_turn = firing.turn
        if not firing.runs:
            hooks = "no hook" if not firing.event.startswith("(") else ""
        else:
            hooks = f"{len(firing.runs)} hook{'s' if len(firing.runs) != 1 else ''}"
            ended = [e for e in map(_ended, firing.runs) if e is not None]
            if ended:
                hooks += f" ({', '.join(ended)})"
        mine = {index[id(run)] for run in firing.runs}
        calls = [c["tool"] for c in result.calls if c.get("hook") in mine]
        parts = [f"{head}  {_label(firing):<{width}} {hooks:<8}"]
        if calls:
            parts.append("-> " + ", ".join(calls))
        if firing.context:
            parts.append("+ context")
        lines.append(" ".join(parts).rstrip())
        if firing.effect:
            lines.append(f"{'':>23}=> {_line(firing.effect)}")
    return lines


def compare_text(scenario: Any, outcomes: list[Outcome]) -> str:
    """One session on several hosts: each host's timeline, then a summary row per host."""
    lines = [f"{scenario.name}  ({scenario.path})", ""]
    for outcome in outcomes:
        lines += _host_section(outcome)
        if outcome.failures:
            lines += [f"  ! {_line(failure)}" for failure in outcome.failures]
        lines.append("")
    header = (
        f"{'host':<12} {'events':>6} {'hooks run':>9} {'not exit 0':>10} {'bridge calls':>12}"
        f" {'blocks':>6}  result"
    )
    lines += [header, "-" * len(header)]
    for o in outcomes:
        if o.result is None:
            lines.append(
                f"{o.tool or '':<12} {'-':>6} {'-':>9} {'-':>10} {'-':>12} {'-':>6}  {o.verdict}"
            )
            continue
        events = sum(not f.event.startswith("(") for f in o.result.firings)
        failed = sum(_ended(run) is not None for run in o.result.runs)
        blocks = sum(f.continued for f in o.result.firings)
        lines.append(
            f"{o.tool or '':<12} {events:>6} {len(o.result.runs):>9} {failed:>10}"
            f" {len(o.result.calls):>12} {blocks:>6}  {o.verdict}"
        )
    return escaped("\n".join(lines))
