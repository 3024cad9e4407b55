"""OpenClaw's hook config: its keys, read as OpenClaw reads them, with a warning for what it would
not load."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Loadout:
    """What an OpenClaw config names for hooksim to load: plugin folders, ``HOOK.md`` folders,
    and the rest of the config (entries, switches) as OpenClaw reads it."""

    plugins: tuple[Path, ...]
    hook_dirs: tuple[Path, ...]
    config: dict[str, Any]


def section(data: Any, *keys: str) -> dict[str, Any]:
    """The object at ``keys`` inside ``data`` ({} where any of them is not an object)."""
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def strings(value: Any, where: str, warnings: list[str]) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        warnings.append(f"{where} is not a list of paths; ignored")
        return []
    return list(value)


def _hook_folders(folder: Path) -> list[Path]:
    """An ``extraDirs`` entry: itself when it holds a HOOK.md, else each folder in it that
    does (dist/discovery-C4C8d96P.mjs:111-128, ``includeRoot``)."""
    if (folder / "HOOK.md").is_file():
        return [folder]
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if (p / "HOOK.md").is_file())


def loadout(block: Mapping[str, Any], base: Path) -> Loadout:
    """The folders an OpenClaw config block names (relative paths from ``base``), in the
    order OpenClaw loads them; a folder that does not exist is left for the loader to name."""
    warnings: list[str] = []
    load = section(block, "plugins", "load")
    paths = [base / p for p in strings(load.get("paths"), "plugins.load.paths", warnings)]
    extra = section(block, "hooks", "internal", "load")
    dirs = strings(extra.get("extraDirs"), "hooks.internal.load.extraDirs", warnings)
    folders = [hook for d in dirs for hook in (_hook_folders(base / d) or [base / d])]
    return Loadout(tuple(paths), tuple(folders), dict(block))


TOP_KEYS = ("plugins", "hooks")
_PLUGIN_KEYS = ("load", "entries", "allow", "deny", "enabled", "slots")
_INTERNAL_KEYS = ("enabled", "entries", "load")


def config_warnings(block: Any) -> list[str]:
    """What of a hooks block OpenClaw would not read, in words."""
    if not isinstance(block, dict):
        return ["hooks is not an object (the plugins and hooks of an openclaw.json); nothing loads"]
    warnings = [
        f"{k!r} is not read here (OpenClaw's hooks are in plugins and hooks); ignored"
        for k in block
        if k not in TOP_KEYS
    ]
    plugins, hooks = block.get("plugins", {}), block.get("hooks", {})
    if not isinstance(plugins, dict) or not isinstance(hooks, dict):
        return [*warnings, "plugins and hooks must be objects; nothing loads"]
    warnings += [
        f"plugins.{k} is not an OpenClaw plugins key; ignored"
        for k in plugins
        if k not in _PLUGIN_KEYS
    ]
    internal = hooks.get("internal", {})
    warnings += [
        f"hooks.{k} is not read here (only hooks.internal is); ignored"
        for k in hooks
        if k != "internal"
    ]
    if isinstance(internal, dict):
        warnings += [
            f"hooks.internal.{k} is not an OpenClaw key; ignored"
            for k in internal
            if k not in _INTERNAL_KEYS
        ]
    return warnings
