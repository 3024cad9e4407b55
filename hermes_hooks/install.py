"""``hermes-hooks install``: one entry of ours per bound event in a Hermes config.yaml.

The editing itself (load, locate the ``hooks:`` block, render, re-check, careful write) is
:mod:`hermes_config`'s; this module says what install changes and what it prints.
"""

from __future__ import annotations

import copy
import shlex

from .hermes_config import (
    Change,
    Edit,
    edit_hooks,
    is_our_command,
    read_config,
)
from .paths import config_path
from .tool_output import finish

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def _new_entry(command: str) -> Any:
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    entry = CommentedMap()
    entry["command"] = DoubleQuotedScalarString(command)
    return entry


def _is_our_entry(entry: object) -> bool:
    return isinstance(entry, dict) and is_our_command(entry.get("command"))


def _unshared(hooks: Any, event: str) -> Any:
    """The event's list, copied first when an anchor or alias shares it: our edit must not leak.

    The copy goes where Hermes reads the event's hooks; the anchored original is left as is.
    """
    from ruamel.yaml.comments import CommentedSeq

    seq = hooks[event]
    anchored = seq.anchor.value is not None
    if not anchored:
        return seq
    fresh = CommentedSeq(copy.deepcopy(list(seq)))
    for item in fresh:
        anchor = getattr(item, "anchor", None)
        if anchor is not None:
            anchor.value = None
    hooks[event] = fresh
    return fresh


def _install_tree(data: Any, entries: Mapping[str, str]) -> list[Change]:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import ScalarString

    hooks = data.get("hooks")
    if hooks is None:
        hooks = data["hooks"] = CommentedMap()
    changes = []
    for event, command in entries.items():
        if hooks.get(event) is None:
            hooks[event] = CommentedSeq([_new_entry(command)])
            changes.append(Change(event, "added", command))
            continue
        ours = [i for i, e in enumerate(hooks[event]) if _is_our_entry(e)]
        if not ours:
            _unshared(hooks, event).append(_new_entry(command))
            changes.append(Change(event, "added", command))
            continue
        old = [str(hooks[event][i]["command"]) for i in ours]
        if old == [command]:
            changes.append(Change(event, "unchanged", command))
            continue
        seq = _unshared(hooks, event)
        for i in reversed(ours[1:]):
            del seq[i]
        entry = seq[ours[0]]
        if getattr(entry, "anchor", None) is not None and entry.anchor.value is not None:
            entry = seq[ours[0]] = CommentedMap(entry)  # an aliased entry: edit a copy
        previous = entry["command"]
        # Keep the user's quoting style for the scalar we rewrite.
        style = type(previous) if isinstance(previous, ScalarString) else None
        entry["command"] = style(command) if style else command
        changes.append(Change(event, "updated", command, tuple(c for c in old if c != command)))
    return changes


def _expect_install(entries: Mapping[str, str]) -> Any:
    def expect(data: dict[str, Any]) -> dict[str, Any]:
        hooks = data.get("hooks") or {}
        for event, command in entries.items():
            seq = list(hooks.get(event) or [])
            ours = [i for i, e in enumerate(seq) if _is_our_entry(e)]
            if not ours:
                seq.append({"command": command})
            else:
                entry = {**seq[ours[0]], "command": command}
                seq = [e for i, e in enumerate(seq) if i not in ours[1:]]
                seq[ours[0]] = entry
            hooks[event] = seq
        data["hooks"] = hooks
        return data

    return expect


def plan_install(text: str, entries: Mapping[str, str], source: str = "config.yaml") -> Edit:
    """The config text with one entry of ours per event in ``entries`` (event → command).

    Our older entries (another path, or duplicates) are replaced in place; others are kept in
    their order. Raises ConfigError for a config we will not edit.
    """
    return edit_hooks(
        text,
        source,
        edit_tree=lambda data: _install_tree(data, entries),
        expect=_expect_install(entries),
        events=tuple(entries),
        fill_empty=dict(entries),
    )


def consent_lines(profile: str | None) -> list[str]:
    """What install tells about Hermes' consent and the opt-in compaction."""
    hermes = f"hermes -p {shlex.quote(profile)}" if profile else "hermes"
    return [
        "Consent: Hermes asks once for each hook, the first time it starts with it (a run "
        "without a terminal skips a hook not yet approved). Pre-approve: run "
        f"`{hermes} --accept-hooks` once, or set `hooks_auto_accept: true` in config.yaml.",
        "Capture: 3 Hermes events bound (on_session_start, pre_llm_call, post_llm_call). Hermes "
        "has no pre-compact event: the mind's compaction is approximated from Stop, opt-in: "
        "WAGGLE_HERMES_COMPACT_ON_STOP=1, at most once per WAGGLE_HERMES_COMPACT_WINDOW_MIN "
        "minutes (default 10).",
    ]


def run_install(
    home: str,
    *,
    dry_run: bool = False,
    profile: str | None = None,
    entries: Mapping[str, str] | None = None,
) -> int:
    """``hermes-hooks install``: print what changed (or the diff), return the exit code."""
    from .entries import hook_entries

    path = config_path(home)
    edit = plan_install(read_config(path), hook_entries() if entries is None else entries, path)
    return finish(path, edit, dry_run, "install", consent_lines(profile))
