"""``hooksim``: run, compare and validate scenario files; show the hosts' lifecycles.

Each subcommand lives in its own module under ``hooksim.commands`` and registers its parser
here; this module is the one entry point and the one error boundary.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence


def version() -> str:
    """The installed distribution's version (``hermes-hooks``, which ships hooksim)."""
    from importlib import metadata

    try:
        return metadata.version("hermes-hooks")
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        return "unknown"


def parser() -> argparse.ArgumentParser:
    """The ``hooksim`` parser with every subcommand registered."""
    import argparse

    top = argparse.ArgumentParser(
        prog="hooksim",
        description="Replay scripted agent sessions against real hook processes in virtual time.",
    )
    top.add_argument("--version", action="version", version=f"hooksim {version()}")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def add_parser(name: str, **kwargs: object) -> argparse.ArgumentParser:
        # Each subcommand's parser remembers itself, so an unknown option is reported with
        # that subcommand's usage rather than the top-level one.
        parser: argparse.ArgumentParser = sub.add_parser(name, **kwargs)  # type: ignore[arg-type]
        parser.set_defaults(parser=parser)
        return parser

    from .commands import (
        compare,
        conformance,
        explain,
        explore,
        fire,
        hosts,
        lint,
        record,
        run,
        show,
        tap,
        validate,
    )

    modules = (run, compare, conformance, validate, hosts, record, show, tap, explore, fire)
    for module in (*modules, explain, lint):
        module.register(add_parser)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["tap"]:
        # The tap runs in front of every hook of a recorded session: it skips the parser and
        # the rest of hooksim (benchmarks/bench_tap.py measures what is left).
        from .record.tap import main as tap

        return tap(words[1:])
    args, unknown = parser().parse_known_args(argv)
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
