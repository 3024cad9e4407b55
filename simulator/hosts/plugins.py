"""Plugin folders as the hosts that have them load them: a Claude Code plugin
(``.claude-plugin/plugin.json``, ``hooks/hooks.json``) and a Gemini CLI extension
(``gemini-extension.json``, ``hooks/hooks.json``).

Each reader returns the ``Plugin`` a folder holds, its hooks blocks as written (the host
substitutes its variables when it loads them: ``hydrate`` is Gemini CLI's substitution), or
raises ValueError saying why the folder is not one. The profiles cite the code these follow.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from .profile import Host
from .records import HookSpec, Plugin, PluginHooks

CLAUDE_MANIFEST = ".claude-plugin/plugin.json"
HOOKS_FILE = "hooks/hooks.json"
GEMINI_MANIFEST = "gemini-extension.json"
# Gemini CLI's extension names (variables.ts validateName).
GEMINI_NAME = re.compile(r"[a-zA-Z0-9-]+")
_VARIABLE = re.compile(r"\$\{(.*?)\}")


def _json(path: Path, folder: Path) -> Any:
    """A JSON file of the plugin; ValueError names it, relative to the plugin's folder."""
    where = path.relative_to(folder).as_posix()
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"{where} cannot be read ({e})") from None
    except ValueError as e:
        raise ValueError(f"{where} is not valid JSON ({e})") from None


def read_claude_plugin(folder: Path) -> Plugin:
    """A Claude Code plugin: its name (the manifest's, else the folder's), ``hooks/hooks.json``,
    then each of the manifest's ``hooks`` (a file of the same shape, or hooks inline)."""
    manifest_path, hooks_path = folder / CLAUDE_MANIFEST, folder / HOOKS_FILE
    if not manifest_path.is_file() and not hooks_path.is_file():
        raise ValueError(
            f"not a Claude Code plugin: no {CLAUDE_MANIFEST} or {HOOKS_FILE} in {folder}"
        )
    try:
        manifest = _json(manifest_path, folder) if manifest_path.is_file() else {}
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
    doc = _json(path, folder)
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


def read_gemini_extension(folder: Path) -> Plugin:
    """A Gemini CLI extension: ``gemini-extension.json`` with its name and version, and the
    ``hooks`` object of ``hooks/hooks.json`` (none when the file is absent or has none)."""
    manifest_path, hooks_path = folder / GEMINI_MANIFEST, folder / HOOKS_FILE
    if not manifest_path.is_file():
        raise ValueError(f"not a Gemini CLI extension: no {GEMINI_MANIFEST} in {folder}")
    try:
        manifest = _json(manifest_path, folder)
        if (
            not isinstance(manifest, dict)
            or not manifest.get("name")
            or not manifest.get("version")
        ):
            raise ValueError(f"{GEMINI_MANIFEST} has no name or no version")
        name = str(manifest["name"])
        if not GEMINI_NAME.fullmatch(name):
            raise ValueError(
                f"{GEMINI_MANIFEST}: name {name!r}: only letters, digits and dashes are allowed"
            )
        doc = _json(hooks_path, folder) if hooks_path.is_file() else None
    except ValueError as e:
        raise ValueError(f"not a Gemini CLI extension: {e}") from None
    if doc is None:
        return Plugin(name, folder, ())
    if not isinstance(doc, dict) or not isinstance(doc.get("hooks"), dict):
        warning = (
            f'extension {name}: {HOOKS_FILE}: "hooks" is not an object; Gemini CLI loads no'
            " hooks from it"
        )
        return Plugin(name, folder, (), (warning,))
    return Plugin(name, folder, (PluginHooks(HOOKS_FILE, None, doc["hooks"]),))


def hydrate(value: Any, context: dict[str, str]) -> Any:
    """Gemini CLI's ``recursivelyHydrateStrings``: ``${name}`` in every string of a JSON value
    replaced by ``context[name]``; a name it does not know is left as written."""
    if isinstance(value, str):
        return _VARIABLE.sub(lambda m: context.get(m.group(1), m.group(0)), value)
    if isinstance(value, list):
        return [hydrate(item, context) for item in value]
    if isinstance(value, dict):
        return {
            key: hydrate(item, context)
            for key, item in value.items()
            if key not in ("__proto__", "constructor", "prototype")
        }
    return value


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
