"""The built-in checks, as explore applies them: to each drawn session, or to all of them.

Every ``hooksim run`` makes the built-in checks (``hooksim.judge.builtin_checks``), and so does
explore for each session it draws, as the space file's ``checks:`` opts in or out. Two of them
judge whether a session's steps exercise its hooks rather than the hooks: ``matchers`` (a hook
whose matcher selected none of its event's firings), ``hooks_fired`` (a hook whose event never
fired) and ``any_hook_ran``. A drawn session with
no Bash call leaves a Bash hook idle, and that is no fault of the hook; so explore does not fail
a session on them (its written file turns them off), and holds the whole exploration to them
instead (``Coverage``): a hook that ran in none of the sessions drawn is reported at the end.
"""

from __future__ import annotations

import difflib
import fnmatch
import threading
from typing import Any

from ..hosts import HookSpec, get_host
from ..judge import builtin_checks
from ..replay.runner import RunResult

# Built-in checks of whether a session's steps exercised its hooks, checked over all sessions.
COVERAGE_CHECKS = ("matchers", "hooks_fired", "any_hook_ran")


def session_checks(result: RunResult) -> tuple[dict[str, list[str]], tuple[str, ...]]:
    """The built-in checks the session fails, by check (as the space opts in or out), and
    the coverage checks it fails, which do not count against its hooks."""
    options = result.scenario.checks
    if options is False:
        return {}, ()
    chosen = options if isinstance(options, dict) else {}
    failed: dict[str, list[str]] = {}
    idle = []
    for name, run_check in builtin_checks.CHECKS.items():
        lines = run_check(result, chosen) if chosen.get(name, True) else []
        if lines and name in COVERAGE_CHECKS:
            idle.append(name)
        elif lines:
            failed[name] = [line.removeprefix(f"built-in check {name}: ") for line in lines]
    return failed, tuple(idle)


class Coverage:
    """What the drawn sessions exercised, over every search of one exploration: the hooks that
    ran, and the values each event's firings carried to match.

    ``hooksim run`` fails a session whose hook never ran because its matcher selected none of
    the firings, or in which no hook ran; explore holds the whole exploration to that instead
    of each session (``failures``). Safe to use from several searches' threads at once.
    """

    def __init__(self, checks: bool | dict[str, Any], tool: str) -> None:
        self.checks = checks
        self.host = get_host(tool)
        self.sessions = 0
        self.specs: dict[HookSpec, None] = {}  # every hook registered, in config order
        self.selected: set[HookSpec] = set()  # hooks some firing selected
        self.any_ran = False  # some hook process ran (or could not be started)
        self.fired: dict[str, int] = {}
        self.values: dict[str, set[str]] = {}
        self._lock = threading.Lock()

    def add(self, result: RunResult) -> None:
        with self._lock:
            self.sessions += 1
            self.specs.update(dict.fromkeys(result.specs))
            self.selected.update(r.spec for r in result.runs if r.spec is not None)
            self.any_ran = self.any_ran or any(
                r.exit_code is not None or r.spawn_error for r in result.runs
            )
            for f in result.firings:
                self.fired[f.event] = self.fired.get(f.event, 0) + 1
                if f.match is not None:
                    self.values.setdefault(f.event, set()).add(f.match)

    def _on(self, name: str) -> bool:
        return self.checks is not False and (
            not isinstance(self.checks, dict) or self.checks.get(name, True)
        )

    def _skipped(self, spec: HookSpec) -> bool:
        globs = self.checks.get("skip_commands", []) if isinstance(self.checks, dict) else []
        return any(fnmatch.fnmatchcase(spec.command, glob) for glob in globs)

    def failures(self) -> list[str]:
        """One line per hook that ran in no session although its event fired, or, when no hook
        ran at all and no matcher says why, one line for that."""
        drawn = f"{self.sessions} session{'s' * (self.sessions != 1)} drawn"
        lines = []
        for spec in self.specs if self._on("matchers") else ():
            fired = self.fired.get(spec.event, 0)
            narrowing = spec.matcher is not None and spec.matcher not in self.host.match_all
            if not narrowing or spec in self.selected or not fired or self._skipped(spec):
                continue
            values = sorted(self.values.get(spec.event, ()))
            close = difflib.get_close_matches(str(spec.matcher), values, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            lines.append(
                f"built-in check matchers: the {spec.event} hook {spec.command!r} ran in none of"
                f" the {drawn}: its matcher {spec.matcher!r} selected none of {fired} firing(s)"
                f" (values: {', '.join(values) or 'none'}){hint} (or opt out: checks:"
                " {matchers: false})"
            )
        for spec in self.specs if self._on("hooks_fired") and self.any_ran else ():
            if (
                spec.event in self.fired
                or self._skipped(spec)
                or spec.origin
                or self.host.in_process
            ):
                continue
            if spec.layer == "config" or spec.event.startswith("("):
                continue
            lines.append(
                f"built-in check hooks_fired: the {spec.event} hook {spec.command!r} ran in none"
                f" of the {drawn}: {spec.event} never fired; widen the space (explore: tools,"
                " compact, outcomes) or opt out: checks: {hooks_fired: false}"
            )
        if not lines and self._on("any_hook_ran") and self.specs and not self.any_ran:
            events = ", ".join(sorted({s.event for s in self.specs}))
            lines.append(
                f"built-in check any_hook_ran: no hook ran in any of the {drawn} (its hooks are"
                f" on {events}); widen the space (explore: tools, compact, outcomes) or opt out:"
                " checks: {any_hook_ran: false}"
            )
        return lines
