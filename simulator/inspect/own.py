"""The hooks a user has configured, made into what ``hooksim fire`` fires without a command.

Every layer the host reads (``configs.layers``) takes part, as the host merges them: the user's
files become the run's hooks (their lists of each event joined, in the host's order), the
project's files are put in the run's project, where the replay reads them as the host reads a
project's. The scripts the hooks start by a path in the user's home or project are copied to
the same place in the run's throwaway home and project, so they run as configured and the real
folders are only read. A hook the host has not been allowed to run (Hermes' consent) is left
out and said.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..hosts import HookSpec, Host
from ..scenario.model import SeedFile
from .configs import layers, read, script
from .explain import Hook


class NoConfig(Exception):
    """The host reads no config file here; ``str()`` is the one line to print."""


@dataclass(frozen=True)
class Own:
    """The run's hooks block, the files put in its home and project, the config files read
    (as shown), and the hooks left out, each with why."""

    block: dict[str, Any]
    files: tuple[SeedFile, ...]
    shown: list[str]
    left_out: list[Hook]


def own_hooks(host: Host, project: Path, env: Mapping[str, str]) -> Own:
    """The hooks of every config file ``host`` reads in HOME and ``project``. NoConfig when
    there is none; Unreadable when one cannot be read."""
    every = layers(host, project, env)
    configs = [read(host, f) for f in every if f.path.is_file()]
    if not configs:
        looked = ", ".join(f.shown for f in every)
        raise NoConfig(f"no {host.title} hooks config in {looked}")
    block: dict[str, Any] = {}
    files: dict[str, SeedFile] = {}
    left_out: list[Hook] = []
    for config in configs:
        path = config.file.path
        if config.file.layer == "project":
            name = Path(os.path.abspath(path)).relative_to(os.path.abspath(project)).as_posix()
            files[name] = SeedFile(name, source=path, at=config.file.shown)
        else:
            refused = [(s, why) for s in config.specs if (why := host.unconsented(s, path.parent))]
            left_out += [Hook(s.source, s.line, s.event, s.command, why) for s, why in refused]
            raw = host.load_config(path)
            block = _joined(block, _without(raw, [s for s, _ in refused]))
        for spec in config.specs:
            files.update(_copied(host, spec, project))
    return Own(block, tuple(files.values()), [c.file.shown for c in configs], left_out)


def _joined(block: dict[str, Any], more: Any) -> dict[str, Any]:
    """``block`` with a later file's hooks: an event's list after the earlier lists of it."""
    joined = dict(block)
    for key, value in more.items() if isinstance(more, dict) else []:
        earlier = joined.get(key)
        joined[key] = (
            [*earlier, *value] if isinstance(earlier, list) and isinstance(value, list) else value
        )
    return joined


def _without(block: Any, specs: list[HookSpec]) -> Any:
    """``block`` without the entries at the specs' places (``where``: keys and indexes)."""
    if not specs:
        return block
    import copy

    kept = copy.deepcopy(block)
    for where in sorted((s.where for s in specs), key=_order, reverse=True):
        *path, last = where
        node = kept
        for key in path:
            node = node[key]
        del node[last]
    return kept


def _order(where: tuple[str | int, ...]) -> list[tuple[int, str]]:
    """A place's sort key: indexes by number, so the later entries of a list go first."""
    return [(k, "") if isinstance(k, int) else (-1, k) for k in where]


def _copied(host: Host, spec: HookSpec, project: Path) -> dict[str, SeedFile]:
    """The script ``spec`` starts, when it is in the user's home or the project: where it goes
    in the run (``~/PATH`` or a path in the project) and the file copied there."""
    path = script(host, spec.command, project)
    if path is None or not (project / path).is_file():
        return {}
    absolute = Path(os.path.abspath(project / path))
    for base, prefix in ((Path(os.path.abspath(project)), ""), (Path.home(), "~/")):
        try:
            name = prefix + absolute.relative_to(base).as_posix()
        except ValueError:
            continue
        return {name: SeedFile(name, source=absolute, at=f"{spec.source}:{spec.line}")}
    return {}


__all__ = ["NoConfig", "Own", "own_hooks"]
