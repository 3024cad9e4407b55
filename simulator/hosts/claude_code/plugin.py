"""A Claude Code plugin folder as Claude Code loads it: ``.claude-plugin/plugin.json`` and the
hooks files it names (``hooks/hooks.json`` by default)."""

from __future__ import annotations

from pathlib import Path

from ..plugins import HOOKS_FILE, plugin_json
from ..records import Plugin, PluginHooks

CLAUDE_MANIFEST = ".claude-plugin/plugin.json"


def read_claude_plugin(folder: Path) -> Plugin:
    """A Claude Code plugin: its name (the manifest's, else the folder's), ``hooks/hooks.json``,
    then each of the manifest's ``hooks`` (a file of the same shape, or hooks inline)."""
    manifest_path, hooks_path = folder / CLAUDE_MANIFEST, folder / HOOKS_FILE
    if not manifest_path.is_file() and not hooks_path.is_file():
        raise ValueError(
            f"not a Claude Code plugin: no {CLAUDE_MANIFEST} or {HOOKS_FILE} in {folder}"
        )
    try:
        manifest = plugin_json(manifest_path, folder) if manifest_path.is_file() else {}
        if not isinstance(manifest, dict) or not isinstance(manifest.get("name", ""), str):
            raise ValueError(f"{CLAUDE_MANIFEST} is not an object with a name")
        name = manifest.get("name") or folder.name
        hooks: list[PluginHooks] = []
        warnings: list[str] = []
        if hooks_path.is_file():
            hooks += _claude_hooks_file(folder, hooks_path, name, warnings)
        listed = manifest.get("hooks")
        items = listed if isinstance(listed, list) else ([] if listed is None else [listed])
        for i, item in enumerate(items):
            if isinstance(item, dict):
                hooks.append(PluginHooks(CLAUDE_MANIFEST, i, item))
            elif isinstance(item, str) and (folder / item).resolve() != hooks_path.resolve():
                hooks += _claude_hooks_file(folder, _inside(folder, item), name, warnings)
    except ValueError as e:
        raise ValueError(f"not a Claude Code plugin: {e}") from None
    return Plugin(name, folder, tuple(hooks), tuple(warnings))


def _claude_hooks_file(
    folder: Path, path: Path, name: str, warnings: list[str]
) -> list[PluginHooks]:
    """A hooks file of a Claude Code plugin: ``{"hooks": {...}, "modules": [...]}``."""
    where = path.relative_to(folder).as_posix()
    doc = plugin_json(path, folder)
    if not isinstance(doc, dict) or ("hooks" not in doc and not doc.get("modules")):
        raise ValueError(f"{where} must have hooks (the hook matchers) or modules")
    if doc.get("modules"):
        warnings.append(
            f"plugin {name}: {where} names hooks modules (code Claude Code runs inside itself);"
            " hooksim runs command hooks only"
        )
    return [PluginHooks(where, None, doc["hooks"])] if "hooks" in doc else []


def _inside(folder: Path, name: str) -> Path:
    """A file the manifest names, which must be inside the plugin's folder."""
    path = (folder / name).resolve()
    if not path.is_relative_to(folder.resolve()):
        raise ValueError(f"{CLAUDE_MANIFEST} names {name!r}, outside the plugin's folder")
    if not path.is_file():
        raise ValueError(f"{CLAUDE_MANIFEST} names {name!r}, which is not a file")
    return path
