"""What ``install`` and ``uninstall`` print about the edit they made (or would make)."""

from __future__ import annotations

import sys

from .hermes_config import Change, Edit, unified_diff, write_config


def change_lines(changes: list[Change]) -> list[str]:
    """One aligned line per event: ``event: action command (was: ...)``."""
    width = max(len(c.event) for c in changes) + 1
    lines = []
    for c in changes:
        line = f"  {c.event + ':':<{width}} {c.action:<9} {c.command}"
        if c.action == "updated" and c.previous:
            was = [p for p in c.previous if p != c.command]
            line += f" (was: {'; '.join(was)})" if was else ""
        if c.why:
            line += f"\n  {'':<{width}} {'':<9} because {c.why}"
        lines.append(line)
    return lines


def finish(path: str, edit: Edit, dry_run: bool, verb: str, after: list[str]) -> int:
    """Write (or show) an edit and print its summary; return the exit code."""
    out = sys.stdout
    if not edit.changed:
        if verb == "install":
            out.write(f"hermes-hooks: already installed in {path}; nothing changed\n")
            out.write("\n".join(change_lines(edit.changes)) + "\n")
        else:
            out.write(f"hermes-hooks: no hermes-hooks entries in {path}; nothing changed\n")
        return 0
    if dry_run:
        out.write(unified_diff(path, edit, f"after {verb}"))
        out.write("hermes-hooks: dry run; nothing written\n")
        return 0
    backup = write_config(path, edit)
    done = "installed into" if verb == "install" else "removed from"
    out.write(f"hermes-hooks: {done} {path}\n")
    out.write("\n".join(change_lines(edit.changes)) + "\n")
    if backup:
        out.write(f"Previous file kept as {backup}\n")
    out.write("\n".join(after) + "\n")
    return 0
