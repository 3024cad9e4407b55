"""``hermes-hooks uninstall``: remove our entries from a Hermes config.yaml, and nothing else."""

from __future__ import annotations

from .hermes_config import MARKER, Change, Edit, is_our_command, read_config
from .hooks_block import edit_hooks, marked_events
from .paths import config_path
from .tool_output import finish

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def _is_our_entry(entry: object) -> bool:
    return isinstance(entry, dict) and is_our_command(entry.get("command"))


def _uninstall_tree(data: Any) -> list[Change]:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    hooks = data.get("hooks") if isinstance(data, CommentedMap) else None
    if not isinstance(hooks, CommentedMap):
        return []
    changes = []
    for event in list(hooks):
        seq = hooks[event]
        if not isinstance(seq, CommentedSeq):
            continue
        ours = [i for i, e in enumerate(seq) if _is_our_entry(e)]
        if not ours:
            continue
        removed = tuple(str(seq[i]["command"]) for i in ours)
        if len(ours) == len(seq) and _marked(hooks, event):
            # Install filled a key that was there empty: the key stays, its line comes back
            # (rendered with no value first: ruamel misplaces the next key's zero-indented
            # list after an empty flow list ``[]``).
            hooks[event] = None
        elif len(ours) == len(seq):
            del hooks[event]
        else:
            if seq.anchor.value is not None:  # shared through an alias: edit a copy
                seq = hooks[event] = CommentedSeq(list(seq))
            for i in reversed(ours):
                del seq[i]
        changes.append(Change(event, "removed", removed[0], removed))
    if changes and not hooks:
        # We emptied it: drop the key (a ``hooks:`` install filled gets its line back).
        del data["hooks"]
    return changes


def _marked(hooks: Any, event: str) -> bool:
    """Whether install marked the event's key (it was there with no hooks before)."""
    tokens = hooks.ca.items.get(event) or ()
    return any(t is not None and MARKER in getattr(t, "value", "") for t in tokens)


def _expect_uninstall(marked: dict[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Hermes' view after uninstall: our entries gone; an event key install marked keeps the
    value it had before install."""
    return lambda data: _expected(data, marked)


def _expected(data: dict[str, Any], marked: dict[str, Any]) -> dict[str, Any]:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data
    touched = False
    for event, seq in list(hooks.items()):
        if not isinstance(seq, list):
            continue
        kept = [e for e in seq if not _is_our_entry(e)]
        if len(kept) != len(seq):
            touched = True
            if kept:
                hooks[event] = kept
            elif event in marked:
                hooks[event] = marked[event]
            else:
                del hooks[event]
    if touched and not hooks:
        del data["hooks"]
    return data


def plan_uninstall(text: str, source: str = "config.yaml") -> Edit:
    """The config text without any entry of ours; an event list (or ``hooks:``) we empty goes.

    A ``hooks:`` that install filled from empty, or an event key that was there with no
    hooks, gets its original line back.
    """
    return edit_hooks(
        text, source, edit_tree=_uninstall_tree, expect=_expect_uninstall(marked_events(text))
    )


def run_uninstall(home: str, *, dry_run: bool = False) -> int:
    """``hermes-hooks uninstall``: remove our entries only; return the exit code."""
    path = config_path(home)
    edit = plan_uninstall(read_config(path), path)
    after = [
        "Hermes keeps its approvals in shell-hooks-allowlist.json; "
        "`hermes hooks revoke COMMAND` removes one."
    ]
    return finish(path, edit, dry_run, "uninstall", after)
