"""``hermes-hooks install``: one entry of ours per bound event in a Hermes config.yaml.

The editing itself (load, locate the ``hooks:`` block, render, re-check, careful write) is
:mod:`hermes_config`'s; this module says what install changes and what it prints.
"""

from __future__ import annotations

import copy
import shlex
from dataclasses import dataclass

from .hermes_config import Change, Edit, read_config
from .hooks_block import edit_hooks
from .installation import installation_of, parse_our_command
from .paths import config_path
from .tool_output import finish

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from .installation import Installation, OurCommand

    Which = Callable[[OurCommand], Installation]


def _new_entry(command: str) -> Any:
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    entry = CommentedMap()
    entry["command"] = DoubleQuotedScalarString(command)
    return entry


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


def _command_of(entry: object) -> object:
    return entry.get("command") if isinstance(entry, dict) else None


@dataclass(frozen=True)
class _Decision:
    """What install does to one event's list: which entry of ours stays, with which command
    (None: as it is), which other entries of ours go, and why, in words for the user."""

    keep: int
    command: str | None
    drop: tuple[int, ...]
    why: str


def _same(found: object, command: str) -> bool:
    return isinstance(found, str) and found.strip() == command


def _decide(commands: list[object], command: str, which: Which) -> _Decision | None:
    """The decision for an event whose entries have ``commands``; None when none is ours.

    An entry of ours that runs this installation stays byte for byte (Hermes' consent is
    keyed on its exact text); the first one stays if several do. Otherwise the first entry of
    ours gets ``command``, behind its own ``env`` prefix. Other entries of ours go.
    """
    ours = [(i, parsed) for i, c in enumerate(commands) if (parsed := parse_our_command(c))]
    if not ours:
        return None
    current = [
        i for i, parsed in ours if _same(commands[i], command) or which(parsed).kind == "this"
    ]
    keep = current[0] if current else ours[0][0]
    drop = tuple(i for i, _ in ours if i != keep)
    reasons = []
    new = None
    if not current:
        parsed = ours[0][1]
        new = parsed.with_argv(shlex.split(command)) if parsed.prefix else command
        found = which(parsed)
        reasons.append(
            f"it ran the hermes-hooks in {found.where}"
            if found.kind == "another"
            else f"it ran nothing: {found.where}"
        )
    if drop:
        reasons.append(
            "a second entry of ours removed"
            if len(drop) == 1
            else f"{len(drop)} more entries of ours removed"
        )
    return _Decision(keep, new, drop, "; ".join(reasons))


def _install_tree(data: Any, entries: Mapping[str, str], which: Which) -> list[Change]:
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
        decision = _decide([_command_of(e) for e in hooks[event]], command, which)
        if decision is None:
            _unshared(hooks, event).append(_new_entry(command))
            changes.append(Change(event, "added", command))
            continue
        kept = str(hooks[event][decision.keep]["command"])
        if decision.command is None and not decision.drop:
            changes.append(Change(event, "unchanged", kept))
            continue
        seq = _unshared(hooks, event)
        removed = tuple(str(seq[i]["command"]) for i in decision.drop)
        for i in reversed(decision.drop):
            del seq[i]
        keep = decision.keep - sum(1 for i in decision.drop if i < decision.keep)
        if decision.command is None:
            changes.append(Change(event, "updated", kept, removed, decision.why))
            continue
        entry = seq[keep]
        if getattr(entry, "anchor", None) is not None and entry.anchor.value is not None:
            entry = seq[keep] = CommentedMap(entry)  # an aliased entry: edit a copy
        previous = entry["command"]
        # Keep the user's quoting style for the scalar we rewrite.
        style = type(previous) if isinstance(previous, ScalarString) else None
        entry["command"] = style(decision.command) if style else decision.command
        changes.append(Change(event, "updated", decision.command, (kept, *removed), decision.why))
    return changes


def _expect_install(entries: Mapping[str, str], which: Which) -> Any:
    def expect(data: dict[str, Any]) -> dict[str, Any]:
        hooks = data.get("hooks") or {}
        for event, command in entries.items():
            seq = list(hooks.get(event) or [])
            decision = _decide([_command_of(e) for e in seq], command, which)
            if decision is None:
                seq.append({"command": command})
            else:
                if decision.command is not None:
                    seq[decision.keep] = {**seq[decision.keep], "command": decision.command}
                seq = [e for i, e in enumerate(seq) if i not in decision.drop]
            hooks[event] = seq
        data["hooks"] = hooks
        return data

    return expect


def plan_install(
    text: str,
    entries: Mapping[str, str],
    source: str = "config.yaml",
    which: Which = installation_of,
) -> Edit:
    """The config text with one entry of ours per event in ``entries`` (event → command).

    An entry of ours that runs this installation (``which``) is left as it is; another one
    of ours is given the new command in place, keeping its settings and ``env`` prefix;
    duplicates of ours go. Others are kept in their order. Raises ConfigError for a config
    we will not edit.
    """
    return edit_hooks(
        text,
        source,
        edit_tree=lambda data: _install_tree(data, entries, which),
        expect=_expect_install(entries, which),
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
