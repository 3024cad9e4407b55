"""Judge scenario files: load, run on each host, check the expectations, one ``Outcome`` each.

The commands (``hooksim run``, ``compare``) and anything else that needs verdicts rather than
raw results come here; bad input never raises, it becomes the outcome's ``error``.
"""

from __future__ import annotations

import time
from pathlib import Path

from . import expect
from .hosts import HOSTS
from .report import Outcome
from .runner import SetupError, run_scenario
from .scenario import Scenario, ScenarioError, load_scenario


def run_on(
    scenario: Scenario,
    tool: str,
    *,
    label: str | None,
    hooks_config: str | None = None,
    keep_workdir: bool = False,
) -> Outcome:
    """Run and check a loaded scenario on one host; a setup problem is the outcome's error."""
    started = time.monotonic()
    try:
        result = run_scenario(
            scenario, tool=tool, hooks_config=hooks_config, keep_workdir=keep_workdir
        )
    except SetupError as e:
        return Outcome(scenario.path, scenario.name, [], error=str(e),
                       seconds=time.monotonic() - started, tool=label)  # fmt: skip
    failures = expect.check(result)
    return Outcome(scenario.path, scenario.name, failures, result,
                   seconds=time.monotonic() - started, tool=label)  # fmt: skip


def run_one(
    path: Path,
    *,
    scenario: Scenario | None = None,
    tool: str | None = None,
    hooks_config: str | None = None,
    keep_workdir: bool = False,
) -> list[Outcome]:
    """Load (unless given), run and check one scenario file on each of its hosts; never raises for
    bad input."""
    if scenario is None:
        try:
            scenario = load_scenario(path)
        except ScenarioError as e:
            return [Outcome(path, path.stem, [], error=str(e))]
    # A config file belongs to one host: --tool's, or Hermes'.
    tools = scenario.tools(tool or ("hermes" if hooks_config else None))
    labelled = len(tools) > 1 or tools != ["hermes"]
    return [
        run_on(
            scenario,
            name,
            label=name if labelled else None,
            hooks_config=hooks_config,
            keep_workdir=keep_workdir,
        )
        for name in tools
    ]


def hook_warnings(scenario: Scenario, tools: list[str] | None = None) -> list[str]:
    """``file: warning: where: what`` for each hook a host would skip, on each host it runs on."""
    lines = []
    for tool in tools or scenario.tools():
        hooks = scenario.on(tool).hooks
        own = scenario.hosts.get(tool)
        where = f"hosts.{tool}.hooks" if own and own.hooks is not None else "hooks"
        for warning in [] if hooks is None else HOSTS[tool].parse_hooks(hooks)[1]:
            lines.append(f"{scenario.path}: warning: {where}: {warning}")
    return lines
