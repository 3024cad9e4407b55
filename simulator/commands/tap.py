"""``hooksim tap --log DIR [--tool HOST] [--event EVENT] -- ORIGINAL``: run one hook, record it.

``hooksim.cli`` hands ``tap`` to ``hooksim.record.tap`` before building any parser, which runs
the shell tap (``record/tap.sh``, what ``record start`` writes into configs) in place of this
process; this registration only lists it in ``hooksim --help``.
"""

from __future__ import annotations

import argparse

from . import AddParser


def register(add_parser: AddParser) -> None:
    parser = add_parser("tap")
    parser.add_argument(
        "rest", nargs=argparse.REMAINDER, help="--log DIR [--tool HOST] -- ORIGINAL"
    )
    parser.set_defaults(func=_tap)


def _tap(args: argparse.Namespace) -> int:
    from ..record.tap import main

    return main(args.rest)
