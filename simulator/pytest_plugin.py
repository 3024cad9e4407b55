"""pytest plugin: scenario files become test items, in projects that ask for it.

Installed with the ``sim`` extra, the plugin collects a scenario file named on the command line
(``pytest my.yaml``: a YAML file with a top-level ``turns:`` or ``sessions:``), and whole
folders once a project opts in with the ini option ``hooksim_dirs`` (directories relative to
the rootdir, e.g. ``hooksim_dirs = ["scenarios"]`` under ``[tool.pytest.ini_options]``): then
every ``*.yaml`` / ``*.yml`` file in them. Other projects sharing the environment are untouched
(``-p no:hooksim`` turns it off entirely).

A file gives one item per host it runs on, its id the scenario's name without spaces
(``file.yaml::my-hook-session[codex]``). ``--hooksim-tool HOST`` replays every scenario on one
host: a file with no hooks for that host is skipped, saying why. ``--hooks-config FILE`` stands
in for the hooks scenarios do not name on that host (by default each scenario's own tool), as
``hooksim run``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .judge.items import items_of, node_name
from .judge.verdict import not_applicable, run_on
from .report.formats import failure_text
from .scenario import Scenario, ScenarioError, load_scenario


class ScenarioFailure(Exception):
    """A scenario's expectations did not hold; carries the text to show."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "hooksim_dirs",
        "directories (relative to rootdir) of hooksim scenario files; none by default: a"
        " project opts in by naming them",
        type="args",
        default=[],
    )
    parser.addoption(
        "--hooks-config",
        default=None,
        help="hooksim: a host config file standing in for the hooks scenarios do not name",
    )
    parser.addoption(
        "--hooksim-tool",
        default=None,
        metavar="HOST",
        help="hooksim: replay scenarios on this host",
    )


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix not in (".yaml", ".yml"):
        return None
    if parent.session.isinitpath(file_path) and _looks_like_a_scenario(file_path):
        return ScenarioFile.from_parent(parent, path=file_path)
    dirs = [Path(d) for d in parent.config.getini("hooksim_dirs")]
    if not dirs:
        return None
    try:
        relative = file_path.relative_to(Path(parent.config.rootpath))
    except ValueError:
        return None
    if not any(relative.parts[: len(d.parts)] == d.parts for d in dirs):
        return None
    return ScenarioFile.from_parent(parent, path=file_path)


_SCENARIO_KEY = re.compile(r"^(?:turns|sessions):", re.M)


def _looks_like_a_scenario(path: Path) -> bool:
    """A YAML file named on the command line is ours when it has a top-level ``turns:`` or
    ``sessions:`` (another plugin's YAML, or a deployment file, is left alone)."""
    try:
        return _SCENARIO_KEY.search(path.read_text(encoding="utf-8", errors="replace")) is not None
    except OSError:
        return False


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[ScenarioItem]:
        try:
            scenario = load_scenario(self.path)
        except ScenarioError as e:
            raise self.CollectError(str(e)) from None
        for item in items_of(self.path, scenario, self.config.getoption("hooksim_tool")):
            assert item.tool is not None  # the file loaded
            name = node_name(scenario) + (f"[{item.tool}]" if item.labelled else "")
            yield ScenarioItem.from_parent(self, name=name, scenario=scenario, tool=item.tool)


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Scenario, tool: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.tool = tool

    def runtest(self) -> None:
        hooks_config = self.config.getoption("hooks_config")
        config_host = (
            (self.config.getoption("hooksim_tool") or self.scenario.tool) if hooks_config else None
        )
        reason = not_applicable(self.scenario, self.tool, config_host)
        if reason is not None:
            pytest.skip(f"not applicable: {reason}")
        outcome = run_on(
            self.scenario,
            self.tool,
            label=self.tool,
            hooks_config=hooks_config if self.tool == config_host else None,
        )
        if outcome.bad:
            raise ScenarioFailure(failure_text(outcome))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ScenarioFailure):
            return f"scenario failed: {self.scenario.name}\n{excinfo.value}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario: {self.scenario.name}"
