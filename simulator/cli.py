"""``hooksim``: run, compare and validate scenario files; show the hosts' lifecycles.

Each subcommand lives in its own module under ``hooksim.commands`` and registers its parser
here, imported only when it runs (``COMMANDS``); this module is the one entry point and the one
error boundary.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence


def version() -> str:
    """The distribution's version (``hermes-hooks``, which ships hooksim)."""
    from hermes_hooks.__version__ import __version__

    return __version__


# Each subcommand, in the order ``hooksim --help`` lists them: its module under
# ``hooksim.commands`` (the same name) and its line there. A module is imported only for its
# own subcommand, so ``--version``, ``--help`` and each subcommand pay only for themselves.
COMMANDS = {
    "run": "run scenario files and check their expectations",
    "compare": "run one session on several hosts and report the differences",
    "conformance": "install releases of a real host and compare each with its profile, fact by"
    " fact",
    "validate": "check scenario files without running them",
    "hosts": "print the hosts' hook lifecycles side by side (Markdown)",
    "record": "tap a host's hooks to record a real session, then export it as a scenario",
    "show": "merge runs saved with --json into one report (JUnit, JSON, HTML, SARIF)",
    "tap": "run one hook transparently and log the run (record start installs it)",
    "explore": "draw sessions (Hypothesis), judge them by the gate model and invariants, and"
    " write each shrunk failure as a scenario file",
    "fire": "fire one hook once, as HOST does, and say what HOST makes of its output",
    "explain": "say which of your configured hooks run for an event, and why the others do not",
    "lint": "check hook config files for mistakes a host is silent about",
}


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``hooksim`` parser: every subcommand listed; ``command``'s options registered (its
    module imported), or every subcommand's when None."""
    import argparse
    import importlib

    top = argparse.ArgumentParser(
        prog="hooksim",
        description="Replay scripted agent sessions against real hook processes in virtual time.",
    )
    top.add_argument("--version", action="version", version=f"hooksim {version()}")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def add_parser(name: str, **kwargs: object) -> argparse.ArgumentParser:
        # Each subcommand's parser remembers itself, so an unknown option is reported with
        # that subcommand's usage rather than the top-level one.
        kwargs.setdefault("help", COMMANDS[name])
        parser: argparse.ArgumentParser = sub.add_parser(name, **kwargs)  # type: ignore[arg-type]
        parser.set_defaults(parser=parser)
        return parser

    for name in COMMANDS:
        if command is None or name == command:
            importlib.import_module(f".commands.{name}", __package__).register(add_parser)
        else:
            add_parser(name)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words == ["--version"]:  # answered before argparse is imported (benchmarks/bench_start.py)
        print(f"hooksim {version()}")
        return 0
    if words[:1] == ["tap"]:
        # The tap runs in front of every hook of a recorded session: it skips the parser and
        # the rest of hooksim (benchmarks/bench_tap.py measures what is left).
        from .record.tap import main as tap

        return tap(words[1:])
    command = words[0] if words[:1] and words[0] in COMMANDS else ""
    args, unknown = parser(command).parse_known_args(words)
    if unknown:
        args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    from .commands import CommandError

    try:
        code: int = args.func(args)
        sys.stdout.flush()
    except CommandError as e:
        print(f"hooksim: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (``hooksim hosts | head``): stop quietly, as ``cat`` does.
        # stdout is pointed at /dev/null so the interpreter's final flush cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1  # as Python's own documentation suggests for EPIPE
    except OSError as e:  # a file the command had to write or read: one line, no traceback
        where = f"{e.filename}: " if e.filename and str(e.filename) not in str(e.strerror) else ""
        print(f"hooksim: {where}{e.strerror or e}", file=sys.stderr)
        return 1
    return code
