"""What ``install`` and ``uninstall`` print, and the error boundary of the three config tools."""

from __future__ import annotations

import os
import shlex
import sys

from .hermes_config import Change, ConfigError, Edit, unified_diff, write_config


def change_lines(changes: list[Change]) -> list[str]:
    """One aligned line per event: ``event: action command (was: ...)``."""
    width = max(len(c.event) for c in changes) + 1
    lines = []
    for c in changes:
        line = f"  {c.event + ':':<{width}} {c.action:<9} {c.command}"
        if c.action == "updated" and c.previous:
            line += f" (was: {'; '.join(c.previous)})"
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


def run_tool(
    command: str, *, hermes_home: str | None, profile: str | None, dry_run: bool = False
) -> int:
    """The error boundary of install, verify and uninstall: one line on stderr, exit 1."""
    from .paths import selected_home

    try:
        home = selected_home(hermes_home, profile)
        if profile is not None and not os.path.isdir(home):
            raise ConfigError(
                f"no Hermes profile {profile!r} (no directory {home}); "
                f"create it with `hermes profile create {shlex.quote(profile)}`"
            )
        _require_yaml_libraries()
        if command == "verify":
            from .verify import run_verify

            return run_verify(home)
        if command == "install":
            from .install import run_install

            return run_install(home, dry_run=dry_run, profile=profile)
        from .uninstall import run_uninstall

        return run_uninstall(home, dry_run=dry_run)
    except (ConfigError, ValueError) as e:
        sys.stderr.write(f"hermes-hooks {command}: {e}\n")
        return 1
    except OSError as e:
        where = f"{e.filename}: " if e.filename and str(e.filename) not in str(e) else ""
        sys.stderr.write(f"hermes-hooks {command}: {where}{e.strerror or e}\n")
        return 1


def _require_yaml_libraries() -> None:
    try:
        import ruamel.yaml  # noqa: F401
        import yaml  # noqa: F401
    except ImportError:
        raise ConfigError(
            "needs PyYAML (what Hermes reads config.yaml with) and ruamel.yaml (to edit it "
            "without losing comments): pip install 'hermes-hooks[install]'"
        ) from None
