"""What the Node runner loads: the plugin and ``HOOK.md`` folders an OpenClaw config names.

Read as OpenClaw 2026.9.6 reads them: a plugin is a folder with ``openclaw.plugin.json``
(its ``id``) whose entry modules are ``package.json``'s ``openclaw.extensions`` (else its
``index`` file); ``plugins.enabled``, ``plugins.allow``, ``plugins.deny`` and
``plugins.entries.<id>.enabled`` choose which load, ``entries.<id>.hooks`` is the hook policy
and ``entries.<id>.config`` the plugin's config. A ``HOOK.md`` folder's frontmatter names the
hook (``name``) and its events (``metadata.openclaw.events``, ``export``); its handler is the
first of ``handler.ts``, ``handler.js``, ``index.ts``, ``index.js``
(dist/discovery-C4C8d96P.mjs:30-60); ``hooks.internal.enabled: false`` or
``hooks.internal.entries.<name>.enabled: false`` leave it out. A folder hooksim cannot read is
a setup error naming it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ....replay.workspace import SetupError
from ..config import Loadout, section

HOOK_HANDLERS = ("handler.ts", "handler.js", "index.ts", "index.js")
PLUGIN_ENTRIES = ("index.js", "index.mjs", "index.cjs", "index.ts")


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise SetupError(f"{path}: cannot be read as JSON ({e})") from None


def _unstarted(plugin_id: str, manifest: dict[str, Any], entry: dict[str, Any]) -> str | None:
    """Why a gateway does not start a plugin, or None when it does. A plugin that is not
    bundled starts for its hooks only when its manifest says so (``activation.onCapabilities``
    holds ``hook``) or its entry sets a hook policy (gateway-startup-plugin-loader-D5IcJB75.mjs:
    48-50, 128-131); OpenClaw says nothing of one it leaves out."""
    hooks = section(entry, "hooks")
    capabilities = section(manifest, "activation").get("onCapabilities")
    if (isinstance(capabilities, list) and "hook" in capabilities) or (
        hooks.get("allowConversationAccess") is True
        or hooks.get("allowPromptInjection") is True
        or "timeoutMs" in hooks
        or bool(section(hooks, "timeouts"))
    ):
        return None
    return (
        f"not started by the gateway (silently): openclaw.plugin.json declares no"
        f" activation.onCapabilities [hook] and plugins.entries.{plugin_id}.hooks sets no hook"
        " policy; its handlers never run"
    )


def plugin(folder: Path, config: dict[str, Any], gateway: bool = False) -> list[dict[str, Any]]:
    """One plugin folder's entry modules, as the runner loads them (none when the config
    leaves the plugin out); in a ``gateway``, with why it is not started (``notStarted``)."""
    if folder.is_file():
        folder, entries = folder.parent, [folder]
    else:
        entries = []
    manifest_path = folder / "openclaw.plugin.json"
    if not manifest_path.is_file():
        raise SetupError(f"{folder}: no openclaw.plugin.json (an OpenClaw plugin's manifest)")
    manifest = _json(manifest_path)
    found = manifest.get("id") if isinstance(manifest, dict) else None
    if not isinstance(found, str) or not found:
        raise SetupError(f"{manifest_path}: no id")
    plugins = section(config, "plugins")
    entry = section(plugins, "entries", found)
    allow, deny = plugins.get("allow"), plugins.get("deny")
    if (
        plugins.get("enabled") is False
        or entry.get("enabled") is False
        or (isinstance(allow, list) and found not in allow)
        or (isinstance(deny, list) and found in deny)
    ):
        return []
    package = _json(folder / "package.json") if (folder / "package.json").is_file() else {}
    extensions = section(package, "openclaw").get("extensions")
    if not entries and isinstance(extensions, list) and extensions:
        entries = [folder / str(e) for e in extensions]
    if not entries:
        first = next((folder / n for n in PLUGIN_ENTRIES if (folder / n).is_file()), None)
        if first is None:
            raise SetupError(f"{folder}: no openclaw.extensions in package.json and no index file")
        entries = [first]
    for path in entries:
        if not path.is_file():
            raise SetupError(f"{folder}: entry {path.name} is missing")
    return [
        {
            "id": found,
            "name": manifest.get("name") or found,
            "dir": str(folder),
            "entry": str(path.resolve()),
            "origin": "config",
            "policy": entry.get("hooks") or {},
            "pluginConfig": entry.get("config"),
            "notStarted": _unstarted(found, manifest, entry) if gateway else None,
        }
        for path in entries
    ]


def frontmatter(folder: Path) -> dict[str, Any]:
    """What a ``HOOK.md`` says of its hook: ``name``, ``events``, ``export``."""
    path = folder / "HOOK.md"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise SetupError(f"{path}: cannot read ({e})") from None
    match = re.match(r"\ufeff?---[^\S\n]*\n(.*?)\n---[^\S\n]*(?:\n|$)", text, re.S)
    if match is None:
        raise SetupError(f"{path}: no frontmatter block (---)")
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        front = YAML(typ="safe").load(match.group(1))
    except YAMLError as e:
        raise SetupError(f"{path}: the frontmatter is not YAML ({e})") from None
    front = front if isinstance(front, dict) else {}
    metadata = front.get("metadata")
    if isinstance(metadata, str):  # a JSON5 string in OpenClaw's own examples
        try:
            metadata = YAML(typ="safe").load(metadata)
        except YAMLError:
            metadata = None
    block = section(metadata, "openclaw")
    events = block.get("events")
    events = [e.strip() for e in events.split(",")] if isinstance(events, str) else events
    return {
        "name": str(front.get("name") or folder.name),
        "events": [str(e) for e in events] if isinstance(events, list) else [],
        "export": str(block.get("export") or "default"),
        "hookKey": block.get("hookKey"),
    }


def hook_dir(folder: Path, config: dict[str, Any]) -> list[dict[str, Any]]:
    """One ``HOOK.md`` folder as the runner loads it (none when the config leaves it out)."""
    if not (folder / "HOOK.md").is_file():
        raise SetupError(f"{folder}: no HOOK.md (a hook folder of hooks.internal.load.extraDirs)")
    front = frontmatter(folder)
    internal = section(config, "hooks", "internal")
    key = front.get("hookKey") or front["name"]
    if (
        internal.get("enabled") is False
        or section(internal, "entries", key).get("enabled") is False
    ):
        return []
    handler = next((folder / n for n in HOOK_HANDLERS if (folder / n).is_file()), None)
    if handler is None:
        raise SetupError(f"{folder}: HOOK.md but no handler ({', '.join(HOOK_HANDLERS)})")
    return [
        {
            "name": front["name"],
            "dir": str(folder),
            "handler": str(handler.resolve()),
            "export": front["export"],
            "events": front["events"],
        }
    ]


def runner_load(
    found: Loadout, *, hook_dirs: bool, gateway: bool = False
) -> tuple[list[Any], list[Any]]:
    """The plugins and (``hook_dirs``: in a gateway) HOOK.md hooks for the runner's init; in a
    ``gateway``, the plugins it does not start are marked so."""
    plugins = [p for folder in found.plugins for p in plugin(folder, found.config, gateway)]
    hooks = (
        [h for folder in found.hook_dirs for h in hook_dir(folder, found.config)]
        if hook_dirs
        else []
    )
    return plugins, hooks
