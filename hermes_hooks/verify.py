"""``hermes-hooks verify``: one line per check that Hermes will run our hooks, and run them well.

The checks, in order: our three entries (each runs this installation, each approved); the
settings as the hooks will see them (the calling shell's environment with
``$HERMES_HOME/.env`` over it, as Hermes merges them; see :mod:`settings`); the mind's recent
calls as the hooks recorded them (:mod:`call_log`); with ``--call``, one real call to the mind;
and the state directory.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import tempfile
import time

from .bridge import Bridge, BridgeError
from .call_log import MAX_LOG_BYTES, CallLog, call_log_path, parse_line
from .careful_files import read_file_tail, read_regular_file
from .hermes_config import ConfigError, load_config, read_config
from .hooks import BINDINGS
from .installation import (
    installation_of,
    parse_our_command,
    this_package_dir,
    why_not_runnable,
)
from .paths import allowlist_path, config_path
from .settings import HookEnvironment, hook_environment, judge_compaction, judge_timeout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from .installation import OurCommand

OK, WARN, FAIL = "ok", "warn", "FAIL"
_TRUE = {"1", "true", "yes", "on"}
# Failures older than this, with calls succeeding since, are history rather than news.
RECENT_S = 24 * 3600
# What ``verify --call`` asks of the mind: its maintenance pass, the call the compaction gate
# makes. It adds nothing to the mind (``start_session`` would add a session, ``save_memory`` a
# frame); it prunes the temporary frames that have expired, as the mind's maintenance does.
PROBE_TOOL, PROBE_ARGUMENTS = "cleanup_frames", {"mode": "compact"}
PROBE_TIMEOUT_S = 60.0
MAX_READ = 16 * 1024 * 1024  # the allowlist: a few approvals


class Report:
    """The checks so far, printed as they come: ``STATUS  what``."""

    def __init__(self) -> None:
        self.counts = {OK: 0, WARN: 0, FAIL: 0}

    def add(self, status: str, text: str) -> None:
        self.counts[status] += 1
        sys.stdout.write(f"{status:<4}  {text}\n")


def run_verify(home: str, env: Mapping[str, str] | None = None, *, call: bool = False) -> int:
    """Check the installation in ``home``; exit 1 when a required check failed."""
    report = Report()
    path = config_path(home)
    try:
        text = read_config(path)
        body = text.removeprefix("\ufeff").replace("\r\n", "\n")
        data = load_config(body, path, only=("hooks", "hooks_auto_accept")).data
    except ConfigError as e:
        report.add(FAIL, f"config: {str(e).removesuffix('; left unchanged')}")
        data = None
    hook_env = _hook_environment(home, os.environ if env is None else env, report)
    stop_entry = _check_entries(home, path, data, hook_env, report)
    if stop_entry is not None and stop_entry.prefix:
        where = "the post_llm_call entry's env prefix"
        hook_env = hook_env.with_assignments(stop_entry.assignments, where)
    _check_mind_command(hook_env, report)
    for judgement in [judge_timeout(hook_env), *judge_compaction(hook_env)]:
        report.add(OK if judgement.status == "ok" else WARN, judgement.text)
    if call:  # first: a call that succeeds now is the latest the log then holds
        _check_call(home, hook_env, report)
    _check_recent_calls(home, report)
    _check_state_dir(home, report)
    counts = report.counts
    sys.stdout.write(f"verify: {counts[OK]} ok, {counts[WARN]} warnings, {counts[FAIL]} failed\n")
    return 1 if counts[FAIL] else 0


def _hook_environment(home: str, shell: Mapping[str, str], report: Report) -> HookEnvironment:
    try:
        return hook_environment(home, shell)
    except (OSError, ValueError) as e:  # ValueError: a NUL byte, or text python-dotenv refuses
        dotenv = os.path.join(home, ".env")
        why = e.strerror if isinstance(e, OSError) and e.strerror else e
        report.add(WARN, f"settings: {dotenv} cannot be read ({why}); not used here")
        return HookEnvironment(dict(shell))


def _check_entries(
    home: str, path: str, data: Any, hook_env: HookEnvironment, report: Report
) -> OurCommand | None:
    """Each binding's entry: there, running this installation, approved. Returns the
    ``post_llm_call`` entry of ours (the hook that reads every setting), if any."""
    hooks = (data or {}).get("hooks") or {}
    approvals = _approvals(home, report)
    auto_accept = _accepts_all(data, hook_env)
    stop_entry = None
    for binding in BINDINGS:
        ours = [
            (str(e["command"]).strip(), parsed)
            for e in hooks.get(binding.event) or []
            if isinstance(e, dict) and (parsed := parse_our_command(e.get("command")))
        ]
        if not ours:
            report.add(
                FAIL, f"{binding.event}: no hermes-hooks entry in {path} (run hermes-hooks install)"
            )
            continue
        command, parsed = ours[0]
        if binding.event == "post_llm_call":
            stop_entry = parsed
        report.add(OK, f"{binding.event}: {command}")
        _check_runs_this_package(binding.event, binding.command, parsed, report)
        if (binding.event, command) in approvals:
            report.add(OK, f"{binding.event}: approved in shell-hooks-allowlist.json")
        elif auto_accept:
            report.add(OK, f"{binding.event}: not approved yet; {auto_accept} approves it")
        else:
            report.add(
                WARN,
                f"{binding.event}: not approved yet; Hermes will ask on first use "
                "(pre-approve: hermes --accept-hooks, once)",
            )
    return stop_entry


def _approvals(home: str, report: Report) -> set[tuple[str, str]]:
    """The (event, command) pairs Hermes has approved: its consent key (reference §2)."""
    path = allowlist_path(home)
    try:
        data = json.loads(read_regular_file(path, MAX_READ))
    except FileNotFoundError:
        return set()
    except (OSError, ValueError, RecursionError) as e:  # UnsafeFileError is an OSError
        report.add(WARN, f"allowlist: {path} cannot be read ({e}); Hermes treats it as empty")
        return set()
    approvals = data.get("approvals") if isinstance(data, dict) else None
    return {
        (str(a.get("event")), str(a.get("command"))) for a in approvals or [] if isinstance(a, dict)
    }


def _accepts_all(data: Any, env: HookEnvironment) -> str:
    """What makes Hermes accept any hook without asking, as its ``_resolve_effective_accept``."""
    if env.values.get("HERMES_ACCEPT_HOOKS", "").strip().lower() in _TRUE:
        source = env.source("HERMES_ACCEPT_HOOKS")
        return "HERMES_ACCEPT_HOOKS" + ("" if source == "the calling shell" else f" ({source})")
    value = (data or {}).get("hooks_auto_accept")
    if value is True or (isinstance(value, str) and value.strip().lower() in _TRUE):
        return "hooks_auto_accept"
    return ""


def _check_runs_this_package(
    event: str, subcommand: str, command: OurCommand, report: Report
) -> None:
    if command.subcommand != subcommand:
        report.add(FAIL, f"{event}: runs `hermes-hooks {command.subcommand}`, not `{subcommand}`")
        return
    found = installation_of(command)
    if found.kind == "this":
        report.add(OK, f"{event}: runs this hermes-hooks ({found.where})")
    elif found.kind == "another":
        report.add(
            FAIL,
            f"{event}: runs the hermes-hooks in {found.where}, not this one "
            f"({this_package_dir()}); run hermes-hooks install",
        )
    else:
        report.add(FAIL, f"{event}: {found.where}; run hermes-hooks install")


def _check_mind_command(env: HookEnvironment, report: Report) -> None:
    """Resolve the mind command exactly as the hooks will (``Bridge.from_env``)."""
    name = "WAGGLE_MIND_CMD"
    origin = (
        f"{name} from {env.source(name)}"
        if env.values.get(name)
        else f"the default; {name} not set"
    )
    try:
        command = Bridge.from_env(env.values).command
    except BridgeError as e:
        report.add(FAIL, f"mind command: {e} ({origin})")
        return
    found = shutil.which(command[0], path=env.values.get("PATH"))
    word = command[0] if command[0].isprintable() else repr(command[0])  # a NUL, a newline
    if found:
        report.add(OK, f"mind command: {shlex.join(command)} ({found}; {origin})")
    elif why_not_runnable(command[0], env.values.get("PATH")) == "is not executable":
        report.add(FAIL, f"mind command: {word} is not executable ({origin}); chmod +x it")
    else:
        report.add(
            FAIL,
            f"mind command: {word} not found ({origin}); install the mind, or set {name}",
        )


def _check_recent_calls(home: str, report: Report) -> None:
    """What the hooks recorded of the mind's calls (``call_log``): FAIL when the latest failed."""
    path = call_log_path(home)
    try:
        # Never a FIFO's wait nor a link followed; the file is bounded, this is more than it.
        lines = read_file_tail(path, 2 * MAX_LOG_BYTES).decode("utf-8", "replace").splitlines()
    except FileNotFoundError:
        report.add(OK, f"mind calls: no failed call recorded ({path})")
        return
    except OSError as e:
        report.add(WARN, f"mind calls: {path} cannot be read ({e.strerror or e})")
        return
    records = [r for r in map(parse_line, lines) if r is not None]
    if not records:
        report.add(OK, f"mind calls: no failed call recorded ({path})")
        return
    failing = 0  # the failures since the last success
    for record in reversed(records):
        if not record.failed:
            break
        failing += 1
    last = records[-1]
    if failing:
        calls = "call" if failing == 1 else f"{failing} calls"
        since = "" if failing == 1 else f", since {records[-failing].stamp}"
        report.add(
            FAIL,
            f"mind calls: the last {calls} failed{since}; the latest at {last.stamp} "
            f"({last.event} {last.tool}): {last.detail} (see {path})",
        )
        return
    recent = [r for r in records if r.failed and _age_s(r.stamp) < RECENT_S]
    if recent:
        report.add(
            WARN,
            f"mind calls: {len(recent)} failed in the last 24 hours, the latest at "
            f"{recent[-1].stamp} ({recent[-1].event} {recent[-1].tool}): {recent[-1].detail};"
            f" calls succeed again since {last.stamp} (see {path})",
        )
    else:
        report.add(OK, f"mind calls: calls succeed since {last.stamp} (see {path})")


def _age_s(stamp: str) -> float:
    import calendar

    try:
        then = calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))
    except ValueError:
        return float("inf")
    return time.time() - then


def _check_call(home: str, env: HookEnvironment, report: Report) -> None:
    """One real round trip to the mind, in the hooks' environment, timed (at most
    ``PROBE_TIMEOUT_S``), recorded in the call log as the hooks' calls are."""
    try:
        bridge = Bridge.from_env(env.values, log=CallLog(call_log_path(home), "verify"))
    except (BridgeError, ValueError) as e:
        report.add(FAIL, f"mind call: {e}")
        return
    bridge.child_env = env.values
    bridge.timeout_s = min(bridge.timeout_s, PROBE_TIMEOUT_S)
    start = time.monotonic()
    try:
        bridge.call(PROBE_TOOL, PROBE_ARGUMENTS)
    except (BridgeError, ValueError) as e:  # ValueError: a NUL byte in the command
        report.add(FAIL, f"mind call: {e}")
        return
    took = time.monotonic() - start
    report.add(OK, f"mind call: {PROBE_TOOL} answered in {took:.2f} s")


def _check_state_dir(home: str, report: Report) -> None:
    try:
        with tempfile.TemporaryFile(dir=home):
            pass
    except OSError as e:
        report.add(FAIL, f"state directory: {home} is not writable ({e.strerror or e})")
        return
    report.add(OK, f"state directory: {home} is writable")
