"""Checks every scenario gets without asking: a hook that never really ran must not pass.

A scenario with no ``expect:`` (or one that does not look at a given hook) would otherwise pass
while its hooks did nothing. Each check fails the run with one line saying what and how to fix
it:

- ``hooks_run``: a hook command that could not be found or executed (an exec host could not
  start it; a shell host's shell exited 127 or 126);
- ``known_events``: hooks bound to an event the host does not have (they never run);
- ``command_hooks``: a hook of a type other than ``command`` (hooksim, and for several hosts
  the host itself, runs command hooks only);
- ``matchers``: a hook whose matcher selected none of the firings of its event in the run (the
  event carries no value to match, or none of the values it carried), with the closest value.

A scenario opts out with ``checks: false``, or per check (``checks: {hooks_run: false}``), or
per hook: ``checks: {skip_commands: [GLOB, ...]}`` leaves the hooks whose command matches alone.
"""

from __future__ import annotations

import difflib
import fnmatch
import re
from collections.abc import Callable
from typing import Any

from ..hosts import HookSpec, get_host
from ..replay.runner import RunResult

NAMES = ("hooks_run", "known_events", "command_hooks", "matchers")
_UNKNOWN_EVENT = re.compile(r"^unknown .*?'(?P<event>[^']+)'")
_NOT_COMMAND = re.compile(r"hook; hooksim runs command hooks only|is not a command hook")
# What a POSIX shell exits with when it cannot find or cannot execute the command.
_SHELL_CODES = {127: "command not found", 126: "command not executable"}


def _skipped(command: str, options: dict[str, Any]) -> bool:
    return any(fnmatch.fnmatchcase(command, p) for p in options.get("skip_commands", []))


def _opt_out(name: str) -> str:
    return f"(or opt out: checks: {{{name}: false}})"


def _hooks_run(result: RunResult, options: dict[str, Any]) -> list[str]:
    spawn = get_host(result.scenario.tool).spawn
    failures, seen = [], set()
    for run in result.runs:
        problem = run.spawn_error
        if problem is None and spawn == "shell" and run.exit_code in _SHELL_CODES:
            reason = _SHELL_CODES[run.exit_code]
            problem = f"{reason} (the shell exited {run.exit_code})"
        if problem is None or run.command in seen or _skipped(run.command, options):
            continue
        seen.add(run.command)
        failures.append(
            f"built-in check hooks_run: the {run.event} hook {run.command!r} did not run at turn"
            f" {run.turn}: {problem}; fix its path or execute bit {_opt_out('hooks_run')}"
        )
    return failures


def _known_events(result: RunResult, options: dict[str, Any]) -> list[str]:
    host = get_host(result.scenario.tool)
    candidates = sorted({e for e in host.events.values() if e} | {f.event for f in result.firings})
    failures = []
    for warning in result.warnings:
        match = _UNKNOWN_EVENT.match(warning)
        if match is None:
            continue
        event = match["event"]
        close = difflib.get_close_matches(event, candidates, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        failures.append(
            f"built-in check known_events: {host.title} has no hook event {event!r}, so its"
            f" hooks never run; {hint}{_opt_out('known_events')}"
        )
    return failures


def _command_hooks(result: RunResult, options: dict[str, Any]) -> list[str]:
    return [
        f"built-in check command_hooks: {warning}; make it a command hook"
        f" {_opt_out('command_hooks')}"
        for warning in result.warnings
        if _NOT_COMMAND.search(warning)
    ]


def _matchers(result: RunResult, options: dict[str, Any]) -> list[str]:
    host = get_host(result.scenario.tool)
    ran = {id(run.spec) for run in result.runs if run.spec is not None}
    failures = []
    seen: set[tuple[str, str]] = set()
    for spec in result.specs:
        if not _narrowing(spec, host.match_all) or id(spec) in ran:
            continue
        firings = [f for f in result.firings if f.event == spec.event]
        key = (spec.event, spec.matcher or "")
        if not firings or key in seen or _skipped(spec.command, options):
            continue
        seen.add(key)
        values = sorted({f.match for f in firings if f.match is not None})
        if not values:
            why = f"{host.title}'s {spec.event} carries nothing to match; drop the matcher"
        else:
            close = difflib.get_close_matches(str(spec.matcher), values, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            why = f"it matched none of the values it was given ({', '.join(values)}){hint}"
        failures.append(
            f"built-in check matchers: the {spec.event} hook {spec.command!r} never ran: its"
            f" matcher {spec.matcher!r} selected none of {len(firings)} firing(s); {why}"
            f" {_opt_out('matchers')}"
        )
    return failures


def _narrowing(spec: HookSpec, match_all: tuple[str, ...]) -> bool:
    return spec.matcher is not None and spec.matcher not in match_all


CHECKS: dict[str, Callable[[RunResult, dict[str, Any]], list[str]]] = {
    "hooks_run": _hooks_run,
    "known_events": _known_events,
    "command_hooks": _command_hooks,
    "matchers": _matchers,
}


def check(result: RunResult) -> list[str]:
    """The built-in checks' failures for a finished run, minus what the scenario opted out of."""
    options = result.scenario.checks
    if options is False:
        return []
    chosen = options if isinstance(options, dict) else {}
    failures: list[str] = []
    for name, run_check in CHECKS.items():
        if chosen.get(name, True):
            failures += run_check(result, chosen)
    return failures
