"""A Gemini CLI extension folder as Gemini CLI loads it: ``gemini-extension.json`` and
``hooks/hooks.json``, its variables substituted in every string (``hydrate``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..plugins import HOOKS_FILE, plugin_json
from ..records import Plugin, PluginHooks

GEMINI_MANIFEST = "gemini-extension.json"
# Gemini CLI's extension names (variables.ts validateName).
GEMINI_NAME = re.compile(r"[a-zA-Z0-9-]+")
_VARIABLE = re.compile(r"\$\{(.*?)\}")


def read_gemini_extension(folder: Path) -> Plugin:
    """A Gemini CLI extension: ``gemini-extension.json`` with its name and version, and the
    ``hooks`` object of ``hooks/hooks.json`` (none when the file is absent or has none)."""
    manifest_path, hooks_path = folder / GEMINI_MANIFEST, folder / HOOKS_FILE
    if not manifest_path.is_file():
        raise ValueError(f"not a Gemini CLI extension: no {GEMINI_MANIFEST} in {folder}")
    try:
        manifest = plugin_json(manifest_path, folder)
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
        doc = plugin_json(hooks_path, folder) if hooks_path.is_file() else None
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
