"""Which hook commands are ours, and which installation of hermes-hooks each one runs.

``install``, ``verify`` and ``uninstall`` share these answers, so that what install leaves alone
is what verify calls "this hermes-hooks", and what uninstall removes is what install wrote.

A command is split as Hermes v0.19.0 splits it (``shlex.split(os.path.expanduser(command))``,
no shell). It is ours when it ends in ``hermes-hooks SUB`` (a console script, by any path),
``-m hermes_hooks SUB`` or ``.../hermes_hooks/__main__.py SUB`` (the launcher install writes),
with SUB one of our subcommands, optionally behind an ``env VAR=value ...`` prefix (Hermes has
no per-hook environment, so that prefix is how a user gives one hook its own settings).

It runs *this* installation when it starts this package's code: the same ``__main__.py`` under
any name of the same interpreter (a venv's ``python3`` and ``python3.11`` are one interpreter;
pip names whichever it ran as in the console script), or a console script or ``-m`` whose
interpreter imports this package. Not on the hook's per-turn path.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache

from .entries import hook_argv
from .hooks import BINDINGS_BY_COMMAND

# pip writes this two-line launcher instead of a shebang when the interpreter's path has a space
# or is too long for the kernel: #!/bin/sh, then '''exec' "/path/python" "$0" "$@".
_SH_LAUNCHER = re.compile(r"""^'''exec' "?(?P<python>[^"]+?)"? "\$0" "\$@"$""")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_WHERE_IS_PACKAGE = (
    "import os, hermes_hooks; print(os.path.realpath(os.path.dirname(hermes_hooks.__file__)))"
)
_LAUNCHER = os.path.join("hermes_hooks", "__main__.py")


@dataclass(frozen=True)
class OurCommand:
    """A hook command of ours, split: its ``env`` prefix, the command after it, its subcommand."""

    prefix: tuple[str, ...]
    argv: tuple[str, ...]

    @property
    def subcommand(self) -> str:
        return self.argv[-1]

    @property
    def assignments(self) -> dict[str, str]:
        """The variables an ``env`` prefix sets for this hook."""
        if not self.prefix or os.path.basename(self.prefix[0]) != "env":
            return {}
        return dict(word.split("=", 1) for word in self.prefix[1:] if _ASSIGNMENT.match(word))

    def with_argv(self, argv: list[str]) -> str:
        """This command with ``argv`` in place of its own, its ``env`` prefix kept."""
        return shlex.join([*self.prefix, *argv])


def parse_our_command(command: object) -> OurCommand | None:
    """The command split as Hermes splits it, when it runs hermes-hooks; else None."""
    if not isinstance(command, str):
        return None
    try:
        words = shlex.split(os.path.expanduser(command.strip()))
    except ValueError:
        return None
    if len(words) < 2 or words[-1] not in BINDINGS_BY_COMMAND:
        return None
    start = _start_of_ours(words)
    return None if start is None else OurCommand(tuple(words[:start]), tuple(words[start:]))


def _start_of_ours(words: list[str]) -> int | None:
    """Where the part that runs hermes-hooks starts: its console script, the interpreter of
    its launcher, or the interpreter before ``[options] -m hermes_hooks``. What comes before
    (``env VAR=value``, ``nice -n 5``) is the user's own prefix."""
    n = len(words)
    if os.path.basename(words[-2]) == "hermes-hooks":
        return n - 2
    if words[-2].endswith(_LAUNCHER):
        return n - 3 if n >= 3 else n - 2
    if n >= 4 and words[-3:-1] == ["-m", "hermes_hooks"]:
        at = n - 4
        while at > 0 and words[at].startswith("-"):  # the interpreter's own options (-I)
            at -= 1
        return None if words[at].startswith("-") else at
    return None


def is_our_command(command: object) -> bool:
    """Whether a hook command runs some installation of ours (see ``parse_our_command``)."""
    return parse_our_command(command) is not None


@dataclass(frozen=True)
class Installation:
    """What a command of ours runs: this installation, another one, or nothing that works.

    ``where`` is the executable it starts (``this``), the other package's folder (``another``),
    or why it runs nothing (``broken``: a sentence to show after the command's name).
    """

    kind: str  # "this", "another" or "broken"
    where: str


def this_package_dir() -> str:
    return os.path.realpath(os.path.dirname(os.path.abspath(__file__)))


def installation_of(command: OurCommand) -> Installation:
    """Which installation ``command`` runs, asking its interpreter only when the path says
    nothing (a console script, ``-m``)."""
    return _installation_of(command.argv)


@cache
def _installation_of(argv: tuple[str, ...]) -> Installation:
    executable = shutil.which(argv[0])
    if executable is None:
        return Installation("broken", f"{argv[0]} {why_not_runnable(argv[0])}")
    mine = hook_argv(argv[-1])
    if os.path.realpath(executable) == os.path.realpath(mine[0]) and list(argv[1:]) == mine[1:]:
        return Installation("this", executable)
    if argv[-2].endswith(_LAUNCHER):
        return _launcher_installation(argv, executable)
    python = executable if "-m" in argv else _script_interpreter(executable)
    if python is None:
        return Installation("broken", f"{executable} is not a Python script")
    if shutil.which(python) is None:
        return Installation("broken", f"{executable} runs {python}, which is not there")
    theirs = _package_dir(python)
    if theirs is None:
        return Installation("broken", f"{python} cannot import hermes_hooks")
    if theirs == this_package_dir():
        return Installation("this", executable)
    return Installation("another", theirs)


def _launcher_installation(argv: tuple[str, ...], executable: str) -> Installation:
    """``PYTHON .../hermes_hooks/__main__.py SUB``: the package is the launcher's folder."""
    launcher = argv[-2]
    if not os.path.isfile(launcher):
        return Installation("broken", f"{launcher} is not there")
    theirs = os.path.realpath(os.path.dirname(launcher))
    if theirs == this_package_dir():
        return Installation("this", executable)
    return Installation("another", theirs)


def why_not_runnable(word: str, path: str | None = None) -> str:
    """Why a command word ``shutil.which`` does not find (on ``path``, default ``$PATH``) cannot
    start: ``is not executable`` when a file of that name is there, else ``is not there``."""
    if os.sep in word:
        there = os.path.exists(word)
    else:
        folders = (os.environ.get("PATH", os.defpath) if path is None else path).split(os.pathsep)
        there = any(os.path.exists(os.path.join(f, word)) for f in folders if f)
    return "is not executable" if there else "is not there"


def _script_interpreter(script: str) -> str | None:
    try:
        with open(script, "rb") as f:
            head = f.read(4096).decode("utf-8", "replace").splitlines()
    except OSError:
        return None
    if not head or not head[0].startswith("#!"):
        return None
    words = head[0][2:].split()
    if not words:
        return None
    if os.path.basename(words[0]) == "sh" and len(head) > 1:
        match = _SH_LAUNCHER.match(head[1].strip())
        return match["python"] if match else None
    if os.path.basename(words[0]) == "env":  # #!/usr/bin/env [-S] python3: found on PATH
        named = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        return shutil.which(named[0]) if named else None
    return words[0]


def _package_dir(python: str) -> str | None:
    try:
        result = subprocess.run(
            [python, "-c", _WHERE_IS_PACKAGE],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
            cwd=os.sep,  # ``-c`` imports from the folder it runs in: not the caller's
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout.strip() or None if result.returncode == 0 else None
