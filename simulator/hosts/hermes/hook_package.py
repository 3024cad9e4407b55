"""What hooksim knows of the hook package it ships beside, ``hermes_hooks``: the entries
``hermes-hooks install`` writes (what a Hermes scenario without hooks runs) and the state file
its compaction gate keeps in the Hermes home (what ``expect.state_file`` reads).

Imported when a run needs it, so a profile can be read without the hook package.
"""

from __future__ import annotations

from pathlib import Path

SOURCE = "hermes-hooks' installed entries"


def installed_hooks() -> dict[str, list[dict[str, str]]]:
    """The entries ``hermes-hooks install`` writes for this installation."""
    from hermes_hooks.entries import hook_entries

    return {event: [{"command": command}] for event, command in hook_entries().items()}


def gate_state(home: Path) -> str | None:
    """The text of the gate's state file in ``home`` (None: there is none)."""
    from hermes_hooks.paths import compact_state_path

    state = Path(compact_state_path(home))
    return state.read_text(encoding="utf-8", errors="replace") if state.exists() else None
