"""What the plugin formats share: the hooks file a plugin folder keeps (``HOOKS_FILE``), its
JSON files read with errors that name them (``plugin_json``), and its hooks blocks registered
as the host parses its settings' (``hook_specs``). Each format is read in its host's folder
(Claude Code's ``plugin``, Gemini CLI's ``extension``); the profiles cite the code they follow.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from .profile import Host
from .records import HookSpec, Plugin

HOOKS_FILE = "hooks/hooks.json"


def plugin_json(path: Path, folder: Path) -> Any:
    """A JSON file of the plugin; ValueError names it, relative to the plugin's folder."""
    where = path.relative_to(folder).as_posix()
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"{where} cannot be read ({e})") from None
    except ValueError as e:
        raise ValueError(f"{where} is not valid JSON ({e})") from None


def hook_specs(
    host: Host, plugin: Plugin, blocks: list[Any], *, origin: str, env: dict[str, str]
) -> tuple[list[HookSpec], list[str]]:
    """The plugin's hooks blocks (as its host substituted them) parsed as the host parses its
    settings' hooks, each hook marked with where the plugin runs from and the variables its
    host gives it; the warnings name the plugin and the file."""
    specs: list[HookSpec] = []
    warnings = list(plugin.warnings)
    for hooks, block in zip(plugin.hooks, blocks, strict=True):
        found, said = host.parse_hooks(block)
        where = hooks.file if hooks.index is None else f"{hooks.file} hooks[{hooks.index}]"
        warnings += [f"{host.plugin_kind} {plugin.name} ({where}): {w}" for w in said]
        specs += [replace(spec, origin=origin, env=(*env.items(), *spec.env)) for spec in found]
    return specs, warnings
