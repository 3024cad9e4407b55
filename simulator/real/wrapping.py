"""The scenario's hooks as a real host (or a recorded replay) runs them: the recorder in front.

``wrap_hooks`` rewrites a hooks block in the host's own format so that every command runs
behind ``hook_recorder`` (``recorder_command``: the command installed in its place), and adds a
probe hook (``probe.EVENT``) on every event worth watching, so that a firing with no matching
hook is still seen. It also returns the original commands by id, which the recorder reads from
its spec file.
"""

from __future__ import annotations

import copy
import json
import re
import shlex
import shutil
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..hosts import Host, Plugin
from ..replay.plugins import Installed
from ..scenario import Scenario
from ..scenario.model import SeedFile
from .hook_recorder import CARRIED, PROBE_MARK


def recorder_command(spec: Path, hook_id: str, *, shell: bool = True, watch: bool = False) -> str:
    """The command installed in place of a hook (see ``hook_recorder``); ``shell=False`` for a
    host that splits the command itself and runs it without a shell (Hermes). ``watch``: the
    shell replaces itself with the recorder, which records and replaces itself with the same
    shell running the hook's command (``$0``, the shell the host ran): the host's own process
    is the hook's, and how it ends is read from the host's account of it."""
    command = shlex.join(
        [sys.executable, "-I", "-m", "hooksim.real.hook_recorder", str(spec), hook_id]
    )
    if watch:
        return f'exec {command} "$0"'
    return command + "; exit $?" if shell else command


_RECORDED = re.compile(r"hooksim\.real\.hook_recorder \S+ (\S+)")


def recorded_id(command: str) -> str | None:
    """The hook id inside an installed recorder command (as a host names the hook), or None."""
    found = _RECORDED.search(command)
    return found.group(1).strip("'") if found else None


def probe_command(spec: Path, event: str, *, shell: bool) -> str:
    """A probe on ``event``, as a few lines of ``sh``, far cheaper than a Python process on
    each firing: it reads its stdin into the ``records`` folder beside ``spec``, with its
    environment, working directory, pid, parent and the turn the driver announces in
    ``turn.json``, then marks them done (``N-PID.probe``; ``hook_recorder.read_records`` makes
    the record). ``shell``: the host runs it in its own shell (whose command line is the
    probe's ``parent``); else it is handed to ``sh -c`` as an argv."""
    records, turn = shlex.quote(str(spec.with_name("records"))), spec.with_name("turn.json")
    script = (
        f'd={records}/$(date +%s%N)-$$; cat > "$d.stdin"; env -0 > "$d.env"; pwd > "$d.cwd";'
        f' echo "$PPID" > "$d.ppid"; cat {shlex.quote(str(turn))} > "$d.turn" 2>/dev/null;'
        + (' cat /proc/$$/cmdline > "$d.parent" 2>/dev/null;' if shell else "")
        + f" echo {shlex.quote(event)} {PROBE_MARK}; exit 0"
    )
    return script if shell else f"sh -c {shlex.quote(script)} hooksim-probe"


def wrap_matcher_groups(
    block: Any,
    spec: Path,
    probe_events: list[str],
    *,
    prefix: str = "",
    carry: bool = False,
    watch: bool = False,
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """A ``{Event: [{matcher, hooks: [...]}]}`` block with the recorder in front of every command
    and a probe group on each of ``probe_events``; also the original hooks by id (``prefix``
    first). ``carry``: the original command also rides in the hook's ``env`` as
    ``HOOKSIM_HOOK_COMMAND``, for a host that substitutes its variables in every string of
    the block (a Gemini CLI extension's): the recorder then runs it as the host made it."""
    wrapped: dict[str, Any] = copy.deepcopy(block) if isinstance(block, dict) else {}
    hooks: dict[str, dict[str, Any]] = {}
    for event, groups in wrapped.items():
        for g, group in enumerate(groups if isinstance(groups, list) else []):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if isinstance(handler, dict) and isinstance(handler.get("command"), str):
                    hook_id = f"{prefix}{event}.{g}.{h}"
                    hooks[hook_id] = {"event": event, "command": handler["command"]}
                    if isinstance(handler.get("name"), str):  # how a host may name it
                        hooks[hook_id]["name"] = handler["name"]
                    if carry:
                        env = handler.get("env")
                        handler["env"] = {
                            **(env if isinstance(env, dict) else {}),
                            CARRIED: handler["command"],
                        }
                    handler["command"] = recorder_command(spec, hook_id, watch=watch)
    for event in probe_events:
        probe = probe_command(spec, event, shell=True)
        wrapped.setdefault(event, []).append({"hooks": [{"type": "command", "command": probe}]})
    return wrapped, hooks


def wrap_entries(
    block: Any, spec: Path, probe_events: list[str], *, watch: bool = False
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """Hermes' ``{event: [{command, matcher, timeout}]}`` block, wrapped as
    ``wrap_matcher_groups`` wraps the others (the recorder runs each command as Hermes would);
    ``watch``: each command left as it is (the host's own account records its runs), the
    probes added."""
    wrapped: dict[str, Any] = copy.deepcopy(block) if isinstance(block, dict) else {}
    hooks: dict[str, dict[str, Any]] = {}
    for event, entries in wrapped.items():
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            if isinstance(entry, dict) and isinstance(entry.get("command"), str):
                hook_id = f"{event}.{i}"
                hooks[hook_id] = {"event": event, "command": entry["command"]}
                if not watch:
                    entry["command"] = recorder_command(spec, hook_id, shell=False)
    for event in probe_events:
        entries = wrapped.get(event)
        wrapped[event] = [
            *(entries if isinstance(entries, list) else []),
            {"command": probe_command(spec, event, shell=False)},
        ]
    return wrapped, hooks


def wrap_hooks(
    host: Host, block: Any, spec: Path, *, watch: bool = False
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The scenario's hooks with the recorder in front of each, and a probe on every event."""
    wrap = wrap_entries if host.config_shape == "entries" else wrap_matcher_groups
    return wrap(block, spec, probe_events(host, block), watch=watch)


def wrap_plugins(
    host: Host, installed: list[Installed], spec: Path, *, watch: bool = False
) -> dict[str, dict[str, Any]]:
    """Each installed plugin's hooks files rewritten in place (``wrap_plugin``); the host then
    loads the wrapped copy, substituting its own variables in it. The original hooks by id."""
    hooks: dict[str, dict[str, Any]] = {}
    for k, item in enumerate(installed, 1):
        hooks.update(wrap_plugin(host, item.plugin, item.place, spec, k, watch=watch))
    return hooks


def wrapped_plugin_folders(
    host: Host, folders: tuple[Path, ...], spec: Path, root: Path, *, watch: bool = False
) -> tuple[tuple[Path, ...], dict[str, dict[str, Any]]]:
    """Copies of a scenario's plugin folders under ``root`` (each keeps its folder's name), the
    recorder in front of their hooks as a real run installs them: what a recorded replay
    installs in their place. The copies, and the original hooks by id."""
    copies: list[Path] = []
    hooks: dict[str, dict[str, Any]] = {}
    for k, folder in enumerate(folders, 1):
        copy_ = root / str(k) / folder.name
        shutil.copytree(folder, copy_, symlinks=True)
        hooks.update(wrap_plugin(host, host.read_plugin(folder), copy_, spec, k, watch=watch))
        copies.append(copy_)
    return tuple(copies), hooks


def wrap_plugin(
    host: Host, plugin: Plugin, folder: Path, spec: Path, k: int, *, watch: bool = False
) -> dict[str, dict[str, Any]]:
    """The plugin's hooks files in ``folder`` rewritten with the recorder in front of every
    command (ids ``pluginK.N.EVENT.G.H``; no probes: the settings' see every event). Gemini CLI
    substitutes its variables in every string of an extension's hooks, the original command's
    too (``Host.substitutes_in_plugins``), so that rides in the hook's env (``carry``). The original hooks by id."""
    hooks: dict[str, dict[str, Any]] = {}
    for n, source in enumerate(plugin.hooks):
        wrapped, found = wrap_matcher_groups(
            source.block,
            spec,
            [],
            prefix=f"plugin{k}.{n}.",
            carry=host.substitutes_in_plugins,
            watch=watch,
        )
        hooks.update(found)
        path = folder / source.file
        doc = json.loads(path.read_text(encoding="utf-8"))
        if source.index is not None and isinstance(doc.get("hooks"), list):
            doc["hooks"][source.index] = wrapped
        else:
            doc["hooks"] = wrapped
        path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return hooks


def wrap_seeded_configs(
    host: Host, scenario: Scenario, spec: Path, *, watch: bool = False
) -> tuple[Scenario, dict[str, dict[str, Any]]]:
    """The scenario with the recorder in front of the hooks of each project hooks file its
    ``files:`` seed (``Host.project_configs``, JSON ones: ids ``projectK.EVENT.G.H``), so a
    real run (and its recorded replay) sees the hooks the host loads from the project; the
    original hooks by id. A file that is not a JSON object with a hooks object is left as is."""
    hooks: dict[str, dict[str, Any]] = {}
    files: list[SeedFile] = []
    for k, seeded in enumerate(scenario.files.files):
        text = seeded.text
        if text is None and seeded.source is not None and seeded.source.is_file():
            text = seeded.source.read_text(encoding="utf-8")
        doc = _json_object(text) if seeded.path in host.project_configs else None
        if doc is not None and isinstance(doc.get("hooks"), dict):
            doc["hooks"], found = wrap_matcher_groups(
                doc["hooks"], spec, [], prefix=f"project{k}.", watch=watch
            )
            hooks.update(found)
            files.append(SeedFile(seeded.path, json.dumps(doc, indent=2)))
        else:
            files.append(seeded)
    return replace(scenario, files=replace(scenario.files, files=tuple(files))), hooks


def _json_object(text: str | None) -> dict[str, Any] | None:
    try:
        doc = json.loads(text or "")
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def probe_events(host: Host, block: Any) -> list[str]:
    """Events to watch: the host's lifecycle events, its stop-failure event, and any the
    scenario's hooks name."""
    events = [e for e in host.events.values() if e]
    events += [e for e in getattr(host, "probe_extra", ()) if e not in events]
    if isinstance(block, dict):
        events += [e for e in block if isinstance(e, str) and e not in events]
    return events
