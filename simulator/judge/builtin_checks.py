"""Checks every scenario gets without asking: a hook that never really ran must not pass.

A scenario with no ``expect:`` (or one that does not look at a given hook) would otherwise pass
while its hooks did nothing. Each check fails the run with one line saying what and how to fix
it:

- ``hooks_run``: a hook command that could not be found or executed (an exec host could not
  start it; a shell host's shell exited 127 or 126), or whose interpreter could not open its
  script (``python missing.py`` exits 2, which a host may read as a block);
- ``hooks_failed``: a hook that ran and failed as the host counts it (a crash, a Python
  traceback, a non-zero exit the host does not read as a decision), unless ``expect`` names
  the exits (``exit_codes``);
- ``timeouts``: a hook the host killed on its timeout (the timeout said in the host's unit),
  unless ``expect`` counts them (``timed_out``);
- ``output_refused``: a hook whose output the host refused (JSON that does not parse where
  JSON is read, a schema it refuses, keys the event does not read, a decision the event
  cannot make), unless ``expect`` counts them (``refused``);
- ``output_ignored``: a hook whose output nothing reads (neither the model nor the user): a
  warning (``warnings``), a failure with ``checks: {output_ignored: true}`` or ``--strict``,
  unless ``expect`` counts them (``refused``);
- ``hooks_fired``: a configured hook that never ran in the whole session because its event
  never fired or nothing selected it (a matcher is ``matchers``' to judge), unless ``expect``
  counts that event's firings (``fired``);
- ``known_events``: hooks bound to an event the host does not have (they never run);
- ``hooks_config``: a hook the host skips for the shape of its entry (not a list, no command);
- ``loops``: a hook that kept blocking where the host would have gone on for ever (hooksim
  cut the loop), unless ``expect`` counts that event's firings or blocks;
- ``any_hook_ran``: a session in which no hook ran at all;
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
from pathlib import Path
from typing import Any

from ..hosts import HookRun, HookSpec, get_host
from ..hosts.config import MISSPELT
from ..hosts.output import telling_line
from ..hosts.records import PYTHON_CANNOT_OPEN
from ..replay.runner import RunResult
from ..scenario import Scenario
from ..scenario.load import line_of_key
from .expect import expected_warning

NAMES = (
    "hooks_run",
    "hooks_failed",
    "timeouts",
    "output_refused",
    "hooks_fired",
    "known_events",
    "hooks_config",
    "command_hooks",
    "matchers",
    "loops",
    "any_hook_ran",
)
# "unknown hook event 'X'", also in a project file's warnings ("FILE: unknown ...").
_UNKNOWN_EVENT = re.compile(r"^(?:\S+\.(?:json|toml|yaml): )?unknown (?!key ).*?'(?P<event>[^']+)'")
_NOT_COMMAND = re.compile(r"hook; hooksim runs command hooks only|is not a command hook")
_VARIABLE = re.compile(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?")
# What a POSIX shell exits with when it cannot find or cannot execute the command.
_SHELL_CODES = {127: "command not found", 126: "command not executable"}
# An interpreter that could not open the script it was given: its exit codes, and its first
# line on stderr (``who`` is the interpreter as it names itself).
_CANNOT_OPEN = (
    ({2}, PYTHON_CANNOT_OPEN),
    (
        {2, 127},
        re.compile(
            r"(?:\S*/)?(?P<who>(?:ba|da|k|z)?sh): (?:\d+: )?(?:cannot open .*|\S.*: No such file or directory)$"
        ),
    ),
    ({1}, re.compile(r"(?:node:internal/.*|Error: Cannot find module '.*)$", re.S)),
    ({2}, re.compile(r"Can't open (?P<who>perl) script ")),
    ({1}, re.compile(r"(?:\S*/)?(?P<who>ruby): No such file or directory -- ")),
)
# A parse warning for a hook the host drops for the shape of its entry (unknown events and
# other hook types have checks of their own).
_SKIPPED_SHAPE = re.compile(
    r"(?:must be a list|has no hooks list|has no command|is not an object); skipped$"
)


def _unexpected(result: RunResult) -> list[str]:
    """The host's warnings about the hooks config that the scenario does not say it tests."""
    return [w for w in result.warnings if not expected_warning(result, w)]


def _skipped(command: str, options: dict[str, Any]) -> bool:
    return any(fnmatch.fnmatchcase(command, p) for p in options.get("skip_commands", []))


def _opt_out(name: str) -> str:
    return f"(or opt out: checks: {{{name}: false}})"


def _unopened_script(run: HookRun) -> str | None:
    """``python3 could not open its script`` when the hook's interpreter said so, else None."""
    if run.exit_code is None:
        return None
    first = run.stderr.lstrip().partition("\n")[0]
    for codes, pattern in _CANNOT_OPEN:
        if run.exit_code in codes:
            found = pattern.match(first) or pattern.match(run.stderr.lstrip())
            if found and (found.groupdict().get("who") or "Cannot find module" in run.stderr):
                return f"{found.groupdict().get('who') or 'node'} could not open its script"
    return None


def _hooks_run(result: RunResult, options: dict[str, Any]) -> list[str]:
    host = get_host(result.scenario.tool)
    spawn = host.spawn
    failures, seen = [], set()
    for run in result.runs:
        problem, fix = run.spawn_error, "fix its path or execute bit"
        if problem is not None and spawn != "shell" and (var := _VARIABLE.search(run.command)):
            fix = (
                f"{host.title} runs hooks without a shell, so {var[0]} is not expanded: use"
                f" sh -c '...' or an absolute path"
            )
        if problem is None and (script := _unopened_script(run)) is not None:
            problem, fix = script, "fix its path"
        elif problem is None and spawn == "shell" and run.exit_code in _SHELL_CODES:
            reason = _SHELL_CODES[run.exit_code]
            problem = f"{reason} (the shell exited {run.exit_code})"
        if problem is None or run.command in seen or _skipped(run.command, options):
            continue
        seen.add(run.command)
        failures.append(
            f"built-in check hooks_run: the {run.event} hook {run.command!r}"
            f"{located(result, run.spec)} did not run at turn {run.turn}: {problem}; {fix}"
            f" {_opt_out('hooks_run')}"
        )
    return failures


def located(result: RunResult, spec: HookSpec | None) -> str:
    """`` (FILE:LINE)`` of a hook's config entry, as far as it is known (``""``: not at all)."""
    if spec is None:
        return ""
    if spec.origin:
        return f" (plugin {spec.origin})"
    scenario = result.scenario
    if spec.layer == "project" and spec.line:
        seeded = "" if Path(spec.source).is_absolute() else f", from the files: of {scenario.path}"
        return f" ({spec.source}:{spec.line}{seeded})"
    path = Path(spec.source) if spec.source else scenario.path
    if not spec.where or not path.is_file():
        return f" ({path})"
    # A scenario's hooks are under hosts.TOOL.hooks or hooks: (the run's scenario no longer
    # says which); a config file's under hooks. The line of the entry's command.
    blocks = [["hooks"]] if spec.source else [["hosts", scenario.tool, "hooks"], ["hooks"]]
    for block in blocks:
        try:
            line = line_of_key(path, [*block, *spec.where, "command"], exact=True)
        except Exception:  # a line is a help, never a reason to fail a check
            break
        if line > 1:
            return f" ({path}:{line})"
    return f" ({path})"


def _failed(run: HookRun) -> str:
    """How a failed hook ended: its exit and the line of stderr that says most."""
    said, ended = telling_line(run.stderr), f"exit {run.exit_code}"
    return f"{ended}: {said}" if said else ended


def _ran(run: HookRun) -> bool:
    """The host started the hook: it ended, was killed at its timeout, or could not start."""
    return run.exit_code is not None or run.timed_out or bool(run.spawn_error)


def _unstarted(result: RunResult, run: HookRun) -> bool:
    """A shell host's shell could not find or execute the command (``hooks_run``'s to say)."""
    return get_host(result.scenario.tool).spawn == "shell" and run.exit_code in _SHELL_CODES


def _hooks_failed(result: RunResult, options: dict[str, Any]) -> list[str]:
    if "exit_codes" in result.scenario.expect:
        return []
    title = get_host(result.scenario.tool).title
    failures, seen = [], set()
    for run in result.runs:
        if run.fault != "failed" or run.spawn_error or run.timed_out or _unstarted(result, run):
            continue  # hooks_run and timeouts say those
        if _unopened_script(run) is not None or _skipped(run.command, options):
            continue
        key = (run.event, run.command)
        if key in seen:
            continue
        seen.add(key)
        codes = sorted(
            {
                0,
                *(
                    r.exit_code
                    for r in result.runs
                    if r.event == run.event and r.exit_code is not None
                ),
            }
        )
        closed = run.verdict.startswith("block")  # Cursor's failClosed
        went = "blocks: it fails closed" if closed else "goes on as if it had not run"
        failures.append(
            f"built-in check hooks_failed: the {run.event} hook {run.command!r}"
            f"{located(result, run.spec)} failed at turn {run.turn}: {_failed(run)}; {title}"
            f" {went}. Fix the hook, or say which exits are expected (expect:"
            f" {{exit_codes: {{{run.event}: {codes}}}}}) {_opt_out('hooks_failed')}"
        )
    return failures


def _timeout_said(result: RunResult, run: HookRun) -> str:
    """The timeout the hook was killed at, in the unit its config gives it."""
    host = get_host(result.scenario.tool)
    spec = run.spec
    if spec is None or spec.timeout_s is None:
        return f"{host.default_timeout_s:g} s, the default"
    if host.config_timeout_unit == "ms":
        written = spec.timeout_s * 1000
        said = f"{written:g} ms"
        if written < 1000:
            said += f": {host.title} timeouts are milliseconds; did you mean {written * 1000:g}?"
        return said
    return f"{spec.timeout_s:g} s"


def _timeouts(result: RunResult, options: dict[str, Any]) -> list[str]:
    if "timed_out" in result.scenario.expect:
        return []
    killed = [r for r in result.runs if r.timed_out and not _skipped(r.command, options)]
    count = len(killed)
    failures, seen = [], set()
    for run in killed:
        if (run.event, run.command) in seen:
            continue
        seen.add((run.event, run.command))
        failures.append(
            f"built-in check timeouts: the {run.event} hook {run.command!r}"
            f"{located(result, run.spec)} was killed by its timeout ({_timeout_said(result, run)})"
            f" at turn {run.turn}; make it faster or give it more time, or say so (expect:"
            f" {{timed_out: {count}}}) {_opt_out('timeouts')}"
        )
    return failures


def _uncounted(result: RunResult, options: dict[str, Any], fault: str) -> list[tuple[HookRun, int]]:
    """The first run of each hook whose output the host counts as ``fault`` (refused or
    ignored), unless ``expect.refused`` counts its event or ``checks`` skips it, with how many
    runs of its event went so."""
    counted = result.scenario.expect.get("refused", {})
    found, seen = [], set()
    for run in result.runs:
        if run.fault != fault or "*" in counted or run.event in counted:
            continue
        if _skipped(run.command, options) or (run.event, run.command) in seen:
            continue
        seen.add((run.event, run.command))
        found.append((run, sum(r.fault == fault and r.event == run.event for r in result.runs)))
    return found


def _output_refused(result: RunResult, options: dict[str, Any]) -> list[str]:
    title = get_host(result.scenario.tool).title
    failures = []
    for run, count in _uncounted(result, options, "refused"):
        how, why = _refusal(run.verdict)
        failures.append(
            f"built-in check output_refused: the {run.event} hook {run.command!r}"
            f"{located(result, run.spec)} at turn {run.turn}: {title} {how} its output ({why});"
            f" fix its output, or say so (expect: {{refused: {{{run.event}: {count}}}}})"
            f" {_opt_out('output_refused')}"
        )
    return failures


def _output_ignored(result: RunResult, options: dict[str, Any]) -> list[str]:
    """Hooks whose output nothing reads: the host gives it neither to the model nor to its
    user (a plain line where only JSON is read)."""
    title = get_host(result.scenario.tool).title
    return [
        f"built-in check output_ignored: the {run.event} hook {run.command!r}"
        f"{located(result, run.spec)} at turn {run.turn}: {title} reads nothing of its output"
        f" ({run.verdict.removeprefix('not awaited: ')}); print what the event reads, or"
        f" say so (expect: {{refused: {{{run.event}: {count}}}}})"
        for run, count in _uncounted(result, options, "ignored")
    ]


def _refusal(verdict: str) -> tuple[str, str]:
    """``("refused" or "ignored", why)`` from a refused run's verdict."""
    text = verdict.removeprefix("not awaited: ")
    for prefix in ("failed: ", "failed (fails open): "):
        if text.startswith(prefix):
            return "refused", text[len(prefix) :]
    return "ignored", text


def _hooks_fired(result: RunResult, options: dict[str, Any]) -> list[str]:
    if not any(map(_ran, result.runs)):
        return []  # any_hook_ran says it once
    host = get_host(result.scenario.tool)
    if host.in_process:
        return []  # a plugin's handlers (OpenClaw) serve whatever events a session reaches
    counted = result.scenario.expect.get("fired", {})
    # A command listed twice for one event runs once (Claude Code, Gemini CLI): either ran.
    ran = {(run.spec.event, run.spec.command) for run in result.runs if run.spec is not None}
    fired = {f.event for f in result.firings}
    failures = []
    for spec in result.specs:
        if (spec.event, spec.command) in ran or spec.event in counted or not _named(spec):
            continue
        if _skipped(spec.command, options) or spec.background:
            continue
        if spec.event in fired:
            if _narrowing(spec, host.match_all):
                continue  # matchers says why its matcher selected nothing
            why = f"none of the {spec.event} firings selected it"
            if spec.condition is not None:
                why += f" (its if condition {spec.condition!r} held for none)"
        else:
            why = f"{spec.event} never fired in this session"
        failures.append(
            f"built-in check hooks_fired: the {spec.event} hook {spec.command!r}"
            f"{located(result, spec)} never ran: {why}; add a step that fires it, or say so"
            f" (expect: {{fired: {{{spec.event}: {sum(f.event == spec.event for f in result.firings)}}}}})"
            f" {_opt_out('hooks_fired')}"
        )
    return failures


def _named(spec: HookSpec) -> bool:
    """Whether the scenario names the hook itself: not a plugin's (a plugin may serve events a
    session never reaches), nor a config file's that stands in for the scenario's hooks
    (``--hooks-config``, Hermes' installed entries), which ``hooksim run`` lists at the end."""
    return not (spec.origin or spec.layer == "config" or spec.event.startswith("("))


def _hooks_config(result: RunResult, options: dict[str, Any]) -> list[str]:
    title = get_host(result.scenario.tool).title
    failures = []
    for warning in _unexpected(result):
        if _SKIPPED_SHAPE.search(warning):
            failures.append(
                f"built-in check hooks_config: {warning}: the host never runs that hook; fix its"
                f" shape {_opt_out('hooks_config')}"
            )
        elif (typo := MISSPELT.search(warning)) is not None:
            what = _MEANT.get(typo["meant"], "what it sets does not happen")
            failures.append(
                f"built-in check hooks_config: {warning.removesuffix('; ignored')}: {title}"
                f" ignores it, so {what}; fix the key {_opt_out('hooks_config')}"
            )
    return failures


# What a misspelt key of a hook's entry leaves undone.
_MEANT = {
    "matcher": "its hooks run for every firing of the event",
    "command": "the hook has no command and never runs",
    "timeout": "the host's default timeout applies",
}


def _loops(result: RunResult, options: dict[str, Any]) -> list[str]:
    """A stop hook that never lets the turn end: hooksim had to cut the loop, or the host's own
    cap ended it (each round a model turn spent)."""
    expect = result.scenario.expect
    counted = set(expect.get("fired", {})) | set(expect.get("blocked", {}))
    host = get_host(result.scenario.tool)
    failures = []
    for f in result.firings:
        if f.event in counted or not (f.cut or f.capped):
            continue
        if f.cut:
            went = f"{f.cut} times in a row at turn {f.turn}, and {host.title} would go on:"
            went += " hooksim cut the loop."
        else:
            went = (
                f"{f.capped} times in a row at turn {f.turn}, and {host.title} ended the turn only"
                f" at its cap ({host.stop_cap} {host.stop_cap_unit}): a {f.event} hook that never"
                " lets the turn end"
            )
            flag = host.stop_flag
            went += f" should read {flag} (true once it has blocked)." if flag else " loops."
        failures.append(
            f"built-in check loops: {f.event} blocked {went} Say how many times it should block"
            f" (expect: {{blocked: {{{f.event}: N}}}}) {_opt_out('loops')}"
        )
    return failures


def _any_hook_ran(result: RunResult, options: dict[str, Any]) -> list[str]:
    if any(map(_ran, result.runs)) or not result.specs:
        return []
    events = sorted({spec.event for spec in result.specs})
    fired = sorted({f.event for f in result.firings} & set(events))
    if fired:  # an event fired, and nothing selected a hook of it (matchers says why)
        why = f"{', '.join(fired)} fired, but no hook's matcher or condition selected it"
        fix = "fix the matchers or the steps"
    else:
        why, fix = (
            f"its hooks are on {', '.join(events)}, which never fired",
            "add the steps that fire them",
        )
    return [
        f"built-in check any_hook_ran: no hook ran in this session ({why}); {fix}"
        f" {_opt_out('any_hook_ran')}"
    ]


def _known_events(result: RunResult, options: dict[str, Any]) -> list[str]:
    host = get_host(result.scenario.tool)
    candidates = sorted({e for e in host.events.values() if e} | {f.event for f in result.firings})
    failures = []
    for warning in _unexpected(result):
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
        for warning in _unexpected(result)
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
            shell = host.shell_tool
            wrong = [v for v in values if v.lower() == shell.lower() and v != shell]
            if wrong and spec.matcher == host.shell_tool:  # the scenario misspells the tool
                hint = (
                    f"; the scenario calls a tool {wrong[0]!r}, and {host.title}'s shell tool"
                    f" is {host.shell_tool!r}: fix the tool's name in the turn"
                )
            why = f"it matched none of the values it was given ({', '.join(values)}){hint}"
        failures.append(
            f"built-in check matchers: the {spec.event} hook {spec.command!r}{located(result, spec)}"
            f" never ran: its matcher {spec.matcher!r} selected none of {len(firings)} firing(s);"
            f" {why}"
            f" {_opt_out('matchers')}"
        )
    return failures


def _narrowing(spec: HookSpec, match_all: tuple[str, ...]) -> bool:
    return spec.matcher is not None and spec.matcher not in match_all


CHECKS: dict[str, Callable[[RunResult, dict[str, Any]], list[str]]] = {
    "hooks_run": _hooks_run,
    "timeouts": _timeouts,
    "hooks_failed": _hooks_failed,
    "output_refused": _output_refused,
    "hooks_fired": _hooks_fired,
    "known_events": _known_events,
    "hooks_config": _hooks_config,
    "command_hooks": _command_hooks,
    "matchers": _matchers,
    "loops": _loops,
    "any_hook_ran": _any_hook_ran,
}


def check(result: RunResult) -> list[str]:
    """The built-in checks' failures for a finished run, minus what the scenario opted out of;
    ``output_ignored`` among them only where the scenario asks (``checks: {output_ignored:
    true}``)."""
    options = result.scenario.checks
    if options is False:
        return []
    chosen = options if isinstance(options, dict) else {}
    failures: list[str] = []
    for name, run_check in CHECKS.items():
        if chosen.get(name, True):
            failures += run_check(result, chosen)
    if chosen.get("output_ignored") is True:
        failures += _output_ignored(result, chosen)
    return failures


def warnings(result: RunResult) -> list[str]:
    """What a run does not fail on unless asked (``--strict``, or the scenario's ``checks``):
    ``output_ignored``, by default."""
    options = result.scenario.checks
    chosen = options if isinstance(options, dict) else {}
    if options is False or "output_ignored" in chosen:
        return []
    return _output_ignored(result, chosen)


# The checks that need no run: they read how the host parses the hooks config.
STATIC = ("known_events", "hooks_config", "command_hooks")
_EVENT_OF_WARNING = re.compile(r"^unknown .*?'(?P<quoted>[^']+)'|^hooks\.(?P<dotted>[^.\[: ]+)")


def static_failures(scenario: Scenario, tool: str) -> list[tuple[str, str | None, str]]:
    """``(warning, event, failure)`` for each parse warning of ``tool``'s hooks that a run would
    fail on before any hook runs (``hooksim validate``); the event it names, when it names one."""
    on = scenario.on(tool)
    options = on.checks
    if options is False or on.hooks is None:
        return []
    chosen = options if isinstance(options, dict) else {}
    _, warnings = get_host(tool).parse_hooks(on.hooks)
    found = []
    for warning in warnings:
        alone = RunResult(on, warnings=[warning])
        for name in STATIC:
            if chosen.get(name, True):
                for failure in CHECKS[name](alone, chosen):
                    event = _EVENT_OF_WARNING.match(warning)
                    named = event and (event["quoted"] or event["dotted"])
                    found.append((warning, named or None, failure))
    return found
