"""What a run is made of: one item per scenario file and host, each with an id.

A scenario file that runs on three hosts is three items; a file that cannot be loaded is one
item that reports its error. ``-k`` chooses items (a word also matches the item's host), and
shards split them. An item's ``id`` is the pytest plugin's node id for it
(``scenarios/x.yaml::my-session[codex]``), so a durations file written by either serves both.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..hosts import DEFAULT_HOST
from ..scenario import Scenario, ScenarioError, load_scenario
from ..scenario.selection import matches


@dataclass(frozen=True, eq=False)  # each item is itself: a dict key of its run
class Item:
    """One scenario file on one host (``tool``), or a file that did not load (``error``)."""

    path: Path
    scenario: Scenario | None
    tool: str | None = None
    labelled: bool = False  # the file runs on more than Hermes alone: the host is shown
    error: str | None = None

    @property
    def id(self) -> str:
        """``path::name[host]``, the path relative to the working directory when under it."""
        path = _relative(self.path)
        if self.scenario is None:
            return path
        name = node_name(self.scenario)
        return f"{path}::{name}[{self.tool}]" if self.labelled else f"{path}::{name}"

    @property
    def label(self) -> str | None:
        """The host in brackets after the path, when there is more than the default one."""
        return self.tool if self.labelled else None


def node_name(scenario: Scenario) -> str:
    """The scenario's name as a node id part: runs of spaces and other separators become '-'."""
    return re.sub(r"[^\w.-]+", "-", scenario.name).strip("-") or scenario.path.stem


def _relative(path: Path) -> str:
    try:
        return Path(os.path.relpath(path)).as_posix() if path.is_absolute() else path.as_posix()
    except ValueError:  # another drive
        return path.as_posix()


def items_of(path: Path, scenario: Scenario | None = None, tool: str | None = None) -> list[Item]:
    """The items of one file: one per host it runs on (``tool``: that host only)."""
    if scenario is None:
        try:
            scenario = load_scenario(path)
        except ScenarioError as e:
            return [Item(path, None, error=str(e))]
    tools = [tool] if tool else scenario.tools()
    labelled = len(tools) > 1 or tools != [DEFAULT_HOST]
    return [Item(path, scenario, name, labelled) for name in tools]


def collect(paths: Iterable[Path], tool: str | None = None) -> list[Item]:
    """Every item of the files, in the files' order, each file's hosts in its order."""
    return [item for path in paths for item in items_of(path, tool=tool)]


def select(items: list[Item], pattern: str | None) -> list[Item]:
    """The items ``-k pattern`` chooses: by path, scenario name, and the item's own host
    (``-k "guard and codex"`` runs a guard file on Codex only). Raises ``PatternError``."""
    if not pattern:
        return items
    return [
        item
        for item in items
        if matches(
            pattern,
            str(item.path),
            [] if item.scenario is None else [item.scenario.name, item.tool or DEFAULT_HOST],
        )
    ]
