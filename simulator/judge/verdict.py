"""Judge scenario files: load, run on each host, check the expectations, one ``Outcome`` each.

The commands (``hooksim run``, ``compare``) and anything else that needs verdicts rather than
raw results come here; bad input never raises, it becomes the outcome's ``error``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from ..hosts import HOSTS, Host
from ..printable import one_line
from ..replay.runner import SetupError, no_hooks, own_hooks, run_scenario
from ..scenario import Scenario
from . import builtin_checks, expect
from .items import Item, items_of
from .outcome import Outcome


def run_on(
    scenario: Scenario,
    tool: str,
    *,
    label: str | None,
    hooks_config: str | None = None,
    keep_workdir: bool = False,
    host: Host | None = None,
    record_reads: bool = False,
) -> Outcome:
    """Run and check a loaded scenario on one host (``host``: that profile of it, as changed);
    a setup problem is the outcome's error."""
    started = time.monotonic()
    try:
        result = run_scenario(
            scenario,
            tool=tool,
            host=host,
            hooks_config=hooks_config,
            keep_workdir=keep_workdir,
            record_reads=record_reads,
        )
    except SetupError as e:
        return Outcome(
            scenario.path,
            scenario.name,
            [],
            error=str(e),
            seconds=time.monotonic() - started,
            tool=label,
        )
    except Exception as e:  # one scenario that breaks the run never stops the others
        return Outcome(
            scenario.path,
            scenario.name,
            [],
            error=_stopped(scenario, e),
            seconds=time.monotonic() - started,
            tool=label,
        )
    # A built-in check names a cause (a hook crashed, timed out); expectations often its effect.
    failures = builtin_checks.check(result) + expect.check(result)
    return Outcome(
        scenario.path,
        scenario.name,
        failures,
        result,
        seconds=time.monotonic() - started,
        tool=label,
        warnings=builtin_checks.warnings(result),
    )


def _stopped(scenario: Scenario, error: Exception) -> str:
    """One line for a run that stopped on an error of the file system (the work directory
    deleted by a hook, a seeded file where a host needs a folder) or of hooksim: the scenario's
    name and the file the error names, as a path of the run (``project/...``, ``~/...``)."""
    if isinstance(error, OSError):
        said = error.strerror or str(error)
        if error.filename is not None:
            said += f": {_in_run(str(error.filename))}"
    else:
        said = f"{type(error).__name__}: {error}"
    return f"{scenario.path}: the run stopped: {one_line(said)}"


def _in_run(path: str) -> str:
    """A path of a run's work directory as the scenario knows it (its project, its HOME)."""
    found = re.search(r"/hooksim-[^/]+/(project|home)(/.*)?$", path)
    if found is None:
        return path
    rest = (found.group(2) or "/").lstrip("/")
    return (rest or ".") if found.group(1) == "project" else f"~/{rest}"


def not_applicable(scenario: Scenario, tool: str, config_host: str | None) -> str | None:
    """Why ``scenario`` cannot run on ``tool`` (None: it can).

    It can where it names hooks (or plugins) for that host, on Hermes (the installed entries by
    default), and on the host a ``--hooks-config`` file belongs to (``config_host``).
    """
    on = scenario.on(tool)
    host = HOSTS[tool]
    if tool == config_host or own_hooks(on, host) is not None:
        return None
    if config_host is not None:
        return (
            f"no hooks for {tool}: add hosts.{tool}.hooks to the scenario; --hooks-config is"
            f" read as {HOSTS[config_host].title}'s (pass --tool {tool} to replay its hooks here)"
        )
    return no_hooks(host)


def run_item(
    item: Item,
    *,
    forced_tool: str | None = None,
    hooks_config: str | None = None,
    keep_workdir: bool = False,
    record_reads: bool = False,
) -> Outcome:
    """Run and check one item (a file on one host); never raises for bad input.

    ``hooks_config`` is a config file of ``forced_tool``'s host (``hooksim run --tool``;
    default: the scenario's own tool): it stands in for the hooks a scenario does not name on
    that host and changes nothing else.
    """
    scenario, tool = item.scenario, item.tool
    if scenario is None or tool is None:
        return Outcome(item.path, item.path.stem, [], error=item.error)
    config_host = (forced_tool or scenario.tool) if hooks_config else None
    reason = not_applicable(scenario, tool, config_host)
    if reason is not None:
        return Outcome(item.path, scenario.name, [], tool=item.label, skipped=reason)
    return run_on(
        scenario,
        tool,
        label=item.label,
        hooks_config=hooks_config if tool == config_host else None,
        keep_workdir=keep_workdir,
        record_reads=record_reads,
    )


def run_one(
    path: Path,
    *,
    scenario: Scenario | None = None,
    tool: str | None = None,
    hooks_config: str | None = None,
    keep_workdir: bool = False,
) -> list[Outcome]:
    """Load (unless given), run and check one scenario file on each of its hosts (or ``tool``);
    never raises for bad input. ``hooks_config``: as ``run_item``'s."""
    return [
        run_item(item, forced_tool=tool, hooks_config=hooks_config, keep_workdir=keep_workdir)
        for item in items_of(path, scenario, tool)
    ]


def hook_warnings(scenario: Scenario, tools: list[str] | None = None) -> list[str]:
    """``file: warning: where: what`` for each hook a host would skip, on each host it runs on."""
    lines = []
    for tool in tools or scenario.tools():
        hooks = scenario.on(tool).hooks
        own = scenario.hosts.get(tool)
        where = f"hosts.{tool}.hooks" if own and own.hooks is not None else "hooks"
        expected = scenario.on(tool).expect.get("warnings", [])
        for warning in [] if hooks is None else HOSTS[tool].parse_hooks(hooks)[1]:
            if not any(text in warning for text in expected):
                lines.append(f"{scenario.path}: warning: {where}: {warning}")
    return lines
