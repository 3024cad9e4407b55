"""What a real OpenClaw run is given: its config, and the scenario's hooks behind the recorder.

OpenClaw loads a scenario's hooks in its own process: plugin folders (``plugins.load.paths``)
whose ``register(api)`` calls ``api.on``, and ``HOOK.md`` hook folders
(``hooks.internal.load.extraDirs``). hooksim hands it, for each, a wrapper folder of the same
name: a copy of the plugin's own files, its manifest unchanged, and an entry module that
imports the original and passes ``register`` a recording ``api`` (``openclaw_spy/record.mjs``);
a ``HOOK.md`` folder gets a handler that wraps the original's. Beside them goes the probe plugin
(``openclaw_spy/probe``), which records every firing. The config (``config``) points OpenClaw at
the fake model server and keeps it on loopback, with the documented embedding preset
(``EMBEDDING_ENV``).
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SPY = Path(__file__).with_name("openclaw_spy")
PROBE_ID = "hooksim-probe"
PROVIDER = "hooksim"  # the fake model server's provider id in the config
MODEL = "model-1"
GATEWAY_TOKEN = "hooksim-offline"  # the loopback gateway's shared token (no secret)
# The context window the fake model is declared with: a reply that reports more input tokens
# than this makes OpenClaw compact before its next model request.
CONTEXT_WINDOW = 128_000
# docs/gateway/embedding.md:33-40, "a useful baseline for a host that owns discovery, restart
# and channel lifecycle": no LAN advertising, no login-shell snapshot, no hand-off to a
# detached child, no channels (hooksim drives the CLI, not a chat app).
EMBEDDING_ENV = {
    "OPENCLAW_DISABLE_BONJOUR": "1",
    "OPENCLAW_EXEC_SHELL_SNAPSHOT": "0",
    "OPENCLAW_NO_RESPAWN": "1",
    "OPENCLAW_SKIP_CHANNELS": "1",
}
# The handler a HOOK.md folder names, first found wins (docs/automation/hooks/writing-hooks.md
# :51-54 of the package).
_HOOK_HANDLERS = ("handler.ts", "handler.js", "index.ts", "index.js")
# The HOOK.md hooks the package ships (dist/bundled/*/HOOK.md).
BUNDLED_HOOKS = (
    "boot-md",
    "bootstrap-extra-files",
    "command-logger",
    "compaction-notifier",
    "session-memory",
)
_PLUGIN_ENTRIES = ("index.ts", "index.js", "index.mjs", "index.cjs")


class SetupError(Exception):
    """A plugin or hook folder OpenClaw could not load; ``str()`` names it and why."""


@dataclass(frozen=True)
class Wrapped:
    """The folders a run hands OpenClaw in place of the scenario's: plugin ids and hook names,
    each with its wrapper folder."""

    plugins: dict[str, Path]
    hooks: dict[str, Path]
    probe: Path = SPY / "probe"  # the probe plugin's folder


def read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise SetupError(f"{path}: {e}") from None
    if not isinstance(data, dict):
        raise SetupError(f"{path}: not a JSON object")
    return data


def plugin_id(folder: Path) -> str:
    """The plugin's id, from its manifest (``openclaw.plugin.json``)."""
    manifest = folder / "openclaw.plugin.json"
    if not manifest.is_file():
        raise SetupError(f"{folder}: no openclaw.plugin.json (an OpenClaw plugin's manifest)")
    found = read_json(manifest).get("id")
    if not isinstance(found, str) or not found:
        raise SetupError(f"{manifest}: no id")
    return found


def plugin_entries(folder: Path) -> tuple[dict[str, Any], list[str]]:
    """The plugin's ``package.json`` ({} without one) and its entry modules: its
    ``openclaw.extensions``, else the first ``index`` file."""
    package_file = folder / "package.json"
    package = read_json(package_file) if package_file.is_file() else {}
    section = package.get("openclaw")
    extensions = section.get("extensions") if isinstance(section, dict) else None
    if isinstance(extensions, list) and extensions:
        return package, [str(e) for e in extensions]
    entry = next((name for name in _PLUGIN_ENTRIES if (folder / name).is_file()), None)
    if entry is None:
        raise SetupError(f"{folder}: no openclaw.extensions in package.json and no index file")
    return package, [f"./{entry}"]


def _copy(source: Path, dest: Path, skip: tuple[str, ...]) -> None:
    """``dest`` holding a copy of ``source`` but ``skip`` (and its ``node_modules``): the folder
    as the author wrote it. Copied, not linked: OpenClaw refuses a plugin manifest reached
    through a symlink ("unsafe plugin manifest path"). The entry modules import the original
    files, so their own imports resolve where the author put them."""
    shutil.copytree(
        source, dest, symlinks=False, ignore=shutil.ignore_patterns(*skip, "node_modules", ".git")
    )


def _js(value: str) -> str:
    return json.dumps(value)


def wrap_plugin(folder: Path, into: Path) -> tuple[str, Path]:
    """A wrapper of one plugin folder under ``into``: its id and the wrapper folder."""
    folder = folder.resolve()
    found = plugin_id(folder)
    package, entries = plugin_entries(folder)
    dest = into / folder.name
    _copy(folder, dest, skip=("package.json",))
    record = (SPY / "record.mjs").as_uri()
    names = []
    for n, entry in enumerate(entries):
        original = (folder / entry).resolve()
        if not original.is_file():
            raise SetupError(f"{folder}: entry {entry} is missing")
        name = f"hooksim-entry-{n}.mjs"
        (dest / name).write_text(
            f"import {{ wrapPlugin }} from {_js(record)};\n"
            f"import * as original from {_js(original.as_uri())};\n"
            f"export default wrapPlugin(original, {_js(found)});\n",
            encoding="utf-8",
        )
        names.append(f"./{name}")
    section = package.get("openclaw")
    openclaw: dict[str, Any] = section if isinstance(section, dict) else {}
    package = {**package, "openclaw": {**openclaw, "extensions": names}}
    package.setdefault("name", found)
    (dest / "package.json").write_text(json.dumps(package, indent=2), encoding="utf-8")
    return found, dest


def hook_frontmatter(folder: Path) -> dict[str, Any]:
    """What a ``HOOK.md`` says of its hook: its ``name``, ``events`` and ``export``."""
    text = (
        (folder / "HOOK.md").read_text(encoding="utf-8") if (folder / "HOOK.md").is_file() else ""
    )
    match = re.match(r"---\s*\n(.*?)\n---", text, re.S)
    if match is None:
        raise SetupError(f"{folder}: no HOOK.md with a frontmatter block")
    from ruamel.yaml import YAML  # the simulator's own dependency, read as YAML 1.2

    try:
        front = YAML(typ="safe").load(match.group(1))
    except Exception as e:  # ruamel raises several error types; any is a bad frontmatter
        raise SetupError(f"{folder / 'HOOK.md'}: frontmatter is not YAML ({e})") from None
    front = front if isinstance(front, dict) else {}
    metadata = front.get("metadata")
    metadata = json.loads(metadata) if isinstance(metadata, str) else metadata
    openclaw = metadata.get("openclaw") if isinstance(metadata, dict) else None
    openclaw = openclaw if isinstance(openclaw, dict) else {}
    events = openclaw.get("events")
    return {
        "name": str(front.get("name") or folder.name),
        "events": [str(e) for e in events] if isinstance(events, list) else [],
        "export": str(openclaw.get("export") or "default"),
    }


def wrap_hook_dir(folder: Path, into: Path) -> tuple[str, Path]:
    """A wrapper of one ``HOOK.md`` folder under ``into``: its hook name and the wrapper."""
    folder = folder.resolve()
    front = hook_frontmatter(folder)
    handler = next((folder / n for n in _HOOK_HANDLERS if (folder / n).is_file()), None)
    if handler is None:
        raise SetupError(f"{folder}: no handler ({', '.join(_HOOK_HANDLERS)})")
    dest = into / folder.name
    _copy(folder, dest, skip=(*_HOOK_HANDLERS, "package.json"))
    export = front["export"]
    wrapper = (
        f"import {{ wrapInternal }} from {_js((SPY / 'record.mjs').as_uri())};\n"
        f"import * as original from {_js(handler.as_uri())};\n"
        f"const handler = wrapInternal(original[{_js(export)}], {_js(front['name'])},"
        f" {json.dumps(front['events'])});\n"
        "export default handler;\n"
    )
    if export != "default":
        wrapper += f"export {{ handler as {export} }};\n"
    (dest / "handler.js").write_text(wrapper, encoding="utf-8")
    (dest / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    return front["name"], dest


def wrap_all(plugins: list[Path], hook_dirs: list[Path], into: Path) -> Wrapped:
    """Wrappers for every plugin and ``HOOK.md`` folder of the scenario, under ``into``, and a
    copy of the probe plugin beside them. OpenClaw refuses a plugin manifest with more than one
    hard link as unsafe ("unsafe plugin manifest path", and the plugin does not load), and an
    installer that links files from its cache (uv) installs hooksim's own probe that way."""
    into.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SPY / "record.mjs", into / "record.mjs")  # the probe imports ../record.mjs
    probe = into / "probe"
    shutil.copytree(
        SPY / "probe",
        probe,
        copy_function=shutil.copyfile,
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    wrapped = Wrapped({}, {}, probe)
    for folder in plugins:
        found, dest = wrap_plugin(folder, into / "plugins")
        wrapped.plugins[found] = dest
    for folder in hook_dirs:
        name, dest = wrap_hook_dir(folder, into / "hooks")
        wrapped.hooks[name] = dest
    return wrapped


def config(
    url: str,
    workspace: Path,
    wrapped: Wrapped,
    given: Mapping[str, Any],
    *,
    port: int,
    provider_id: str = PROVIDER,
    model_id: str = MODEL,
) -> dict[str, Any]:
    """The OpenClaw config of one run: ``given`` (the scenario's ``plugins`` and ``hooks``,
    as an ``openclaw.json`` has them) with the wrapped folders and the probe in place of the
    scenario's folders, the fake model (as the scenario's session names its provider and
    model), the workspace and the loopback gateway."""
    model = {"id": model_id, "name": model_id, "contextWindow": CONTEXT_WINDOW, "maxTokens": 4096}
    provider = {
        "baseUrl": f"{url}/v1",
        "apiKey": "sk-hooksim-offline",
        "api": "openai-completions",
        "models": [model],
    }
    return {
        **{k: v for k, v in given.items() if k not in ("plugins", "hooks")},
        "models": {"providers": {provider_id: provider}},
        "agents": {
            "defaults": {
                "model": {"primary": f"{provider_id}/{model_id}"},
                "workspace": str(workspace),
            }
        },
        "gateway": {
            "mode": "local",
            "bind": "loopback",
            "port": port,
            "auth": {"mode": "token", "token": GATEWAY_TOKEN},
        },
        "plugins": _plugins(wrapped, given.get("plugins") or {}),
        "hooks": _hooks(wrapped, given.get("hooks") or {}),
    }


def _plugins(wrapped: Wrapped, given: Mapping[str, Any]) -> dict[str, Any]:
    """``plugins``: the wrappers and the probe loaded, the scenario's allowlist (else its
    plugins) and entries kept, and no memory plugin (``slots.memory: none``): a bundled
    plugin's hooks are not the scenario's, and each one loading adds seconds to every start."""
    plugins = dict(given)
    entries = {k: dict(v) for k, v in (plugins.get("entries") or {}).items()}
    for found in wrapped.plugins:
        entries.setdefault(found, {}).setdefault("enabled", True)
    entries[PROBE_ID] = {"enabled": True, "hooks": {"allowConversationAccess": True}}
    load = dict(plugins.get("load") or {})
    load["paths"] = [str(wrapped.probe), *(str(p) for p in wrapped.plugins.values())]
    allow = plugins.get("allow")
    allow = allow if isinstance(allow, list) else list(wrapped.plugins)
    slots = {**(plugins.get("slots") or {}), "memory": "none"}
    plugins.update(allow=[PROBE_ID, *allow], load=load, entries=entries, slots=slots)
    return plugins


def _hooks(wrapped: Wrapped, given: Mapping[str, Any]) -> dict[str, Any]:
    """``hooks.internal``: the wrapped ``HOOK.md`` folders loaded, each enabled by name unless
    the scenario disables it, and OpenClaw's bundled ``HOOK.md`` hooks off unless the scenario
    names them: they are not the scenario's (an explicit ``enabled: false`` disables a
    bundled hook, docs/automation/hooks/configuration.md:35-40)."""
    hooks = dict(given)
    internal = dict(hooks.get("internal") or {})
    entries = {k: dict(v) for k, v in (internal.get("entries") or {}).items()}
    for name in wrapped.hooks:
        entries.setdefault(name, {}).setdefault("enabled", True)
    for name in BUNDLED_HOOKS:
        entries.setdefault(name, {"enabled": False})
    internal.setdefault("enabled", True)
    # Each folder itself, in the scenario's order: OpenClaw loads an extraDirs entry holding a
    # HOOK.md as that hook (includeRoot) and registers hooks in the order it found them
    # (dist/workspace-BUjts75X.mjs:71-75, dist/loader-301ZJ-A-.mjs:73-115); a parent folder
    # would be read in the file system's order.
    extra = [str(p) for p in wrapped.hooks.values()]
    internal.update(entries=entries, load={"extraDirs": extra})
    hooks["internal"] = internal
    return hooks
