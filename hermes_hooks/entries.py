"""The ``hooks:`` entries that wire this installation into Hermes.

Hermes v0.19.0 runs ``shlex.split(os.path.expanduser(command))`` without a shell, so each part is
quoted with ``shlex.quote``: paths with spaces survive. A leading ``~`` is never produced (we
write absolute paths), so ``expanduser`` leaves the command alone.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys

from .hooks import BINDINGS


def hook_argv(subcommand: str) -> list[str]:
    """The argv that runs ``hermes-hooks SUBCOMMAND`` from this installation.

    The console script beside this interpreter when it exists (the usual ``pip install``),
    else this interpreter with ``-m hermes_hooks`` (a source checkout, or scripts elsewhere).
    """
    scripts = os.path.dirname(sys.executable)
    script = shutil.which("hermes-hooks", path=scripts)
    if script:
        return [os.path.abspath(script), subcommand]
    return [os.path.abspath(sys.executable), "-m", "hermes_hooks", subcommand]


def hook_command(subcommand: str) -> str:
    """``hook_argv`` as one command string for Hermes' config."""
    return shlex.join(hook_argv(subcommand))


def hook_entries() -> dict[str, str]:
    """Hermes event → command, one per binding, in binding order."""
    return {b.event: hook_command(b.command) for b in BINDINGS}
