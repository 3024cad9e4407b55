"""The ``hooks:`` entries that wire this installation into Hermes.

Hermes v0.19.0 runs ``shlex.split(os.path.expanduser(command))`` without a shell, so each part is
quoted with ``shlex.quote``: paths with spaces survive. A leading ``~`` is never produced (we
write absolute paths), so ``expanduser`` leaves the command alone.
"""

from __future__ import annotations

import os
import shlex
import sys

from .hooks import BINDINGS


def hook_argv(subcommand: str) -> list[str]:
    """The argv that runs ``hermes-hooks SUBCOMMAND`` from this installation, lean.

    This interpreter running the package's ``__main__.py`` as a file: a hook start then costs
    less than a minimal hook's (see ``__main__`` and ``benchmarks/bench_hook.py``). No
    interpreter flags: the hook sees the environment any Python program would (``PYTHONPATH``,
    ``sitecustomize``; hooksim's virtual clock comes that way).
    """
    main = os.path.join(os.path.dirname(os.path.abspath(__file__)), "__main__.py")
    return [os.path.abspath(sys.executable), main, subcommand]


def hook_command(subcommand: str) -> str:
    """``hook_argv`` as one command string for Hermes' config."""
    return shlex.join(hook_argv(subcommand))


def hook_entries() -> dict[str, str]:
    """Hermes event → command, one per binding, in binding order."""
    return {b.event: hook_command(b.command) for b in BINDINGS}
