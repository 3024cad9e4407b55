"""pytest plugin: scenario files become test items.

Collected: ``*.yaml`` / ``*.yml`` files inside a directory named by the ini option
``hooksim_dirs`` (default ``scenarios``), relative to the rootdir. Nothing else is touched, so
having this plugin installed does not change other projects' test runs. A file gives one item
per host it runs on (``name[claude-code]``). ``--hooksim-tool HOST`` replays every scenario on
one host; ``--hooks-config FILE`` runs the hooks of another config file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import expect
from .report import Outcome as _Outcome
from .report import failure_text
from .runner import SetupError, run_scenario
from .scenario import ScenarioError, load_scenario


class ScenarioFailure(Exception):
    """A scenario's expectations did not hold; carries the text to show."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("hooksim_dirs", "directories (relative to rootdir) holding hooksim scenarios", type="args",
                  default=["scenarios"])  # fmt: skip
    parser.addoption(
        "--hooks-config", default=None, help="hooksim: the host config file whose hooks to run"
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
    root = Path(parent.config.rootpath)
    try:
        relative = file_path.relative_to(root)
    except ValueError:
        return None
    dirs = [Path(d) for d in parent.config.getini("hooksim_dirs")]
    if not any(relative.parts[: len(d.parts)] == d.parts for d in dirs):
        return None
    return ScenarioFile.from_parent(parent, path=file_path)


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[ScenarioItem]:
        try:
            scenario = load_scenario(self.path)
        except ScenarioError as e:
            raise self.CollectError(str(e)) from None
        only = self.config.getoption("hooksim_tool")
        tools = scenario.tools(
            only or ("hermes" if self.config.getoption("hooks_config") else None)
        )
        labelled = len(tools) > 1 or tools != ["hermes"]
        for tool in tools:
            name = f"{scenario.name}[{tool}]" if labelled else scenario.name
            yield ScenarioItem.from_parent(self, name=name, scenario=scenario, tool=tool)


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Any, tool: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.tool = tool

    def runtest(self) -> None:
        try:
            result = run_scenario(
                self.scenario, tool=self.tool, hooks_config=self.config.getoption("hooks_config")
            )
        except SetupError as e:
            raise ScenarioFailure(str(e)) from None
        failures = expect.check(result)
        if failures:
            outcome = _Outcome(self.path, self.scenario.name, failures, result, tool=self.tool)
            raise ScenarioFailure(failure_text(outcome))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ScenarioFailure):
            return f"scenario failed: {self.name}\n{excinfo.value}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario: {self.name}"
