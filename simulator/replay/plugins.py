"""A scenario's plugins (extensions) installed in a run as their host installs them.

Each folder a scenario names (``plugins:``) is copied where its host loads it from (Claude
Code: the folder ``--plugin-dir`` names, here in the work directory; Gemini CLI:
``~/.gemini/extensions/NAME`` in the run's HOME), so its hooks run from there and never write
into the scenario's own folder. The host profile then registers its hooks as the host does
(``Host.plugin_specs``). A real-host run installs them the same way (``hooksim.real``).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from ..hosts import HookSpec, Host, Plugin
from ..scenario import Scenario
from .workspace import SetupError, Workspace


@dataclass(frozen=True)
class Installed:
    """A plugin, and the folder its host loads it from."""

    plugin: Plugin
    place: Path


def install_plugins(scenario: Scenario, host: Host, workspace: Workspace) -> list[Installed]:
    """Copy each of the scenario's plugins where ``host`` loads it from; SetupError when one
    cannot be read any more or two would land in the same place."""
    installed: list[Installed] = []
    for folder in scenario.plugins:
        try:
            plugin = host.read_plugin(folder)
        except ValueError as e:
            raise SetupError(f"{scenario.path}: plugins: {folder.name}: {e}") from None
        place = host.plugin_place(plugin, workspace.home, workspace.root)
        if place.exists():
            raise SetupError(
                f"{scenario.path}: plugins: {folder.name}: {host.title} loads two plugins from"
                f" {place}"
            )
        place.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(folder, place, symlinks=True)
        installed.append(Installed(plugin, place))
    return installed


def plugin_hooks(
    host: Host, installed: list[Installed], workspace: Workspace
) -> tuple[list[HookSpec], list[str]]:
    """Every installed plugin's hooks as the host registers them, and their warnings."""
    specs: list[HookSpec] = []
    warnings: list[str] = []
    for item in installed:
        found, said = host.plugin_specs(
            item.plugin, item.place, home=workspace.home, project=workspace.project
        )
        specs += found
        warnings += said
    return specs, warnings
