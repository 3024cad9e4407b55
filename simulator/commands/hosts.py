"""``hooksim hosts``: the hosts' hook lifecycles side by side, or README's copy rewritten."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..hosts import HOSTS
from ..hosts.tables import TABLE_END, TABLE_START, lifecycle_table, sources_text, with_table
from . import AddParser


def register(add_parser: AddParser) -> None:
    parser = add_parser("hosts")
    parser.add_argument(
        "--update",
        metavar="FILE",
        help="replace the table between the hosts-table markers in FILE (e.g. README.md)",
    )
    parser.add_argument(
        "--sources",
        action="store_true",
        help="print every fact each profile states, with its source (code, docs, changelog,"
        " real run) and whether it is unverified",
    )
    parser.add_argument(
        "--tool", choices=sorted(HOSTS), help="with --sources: only this host's facts"
    )
    parser.set_defaults(func=hosts)


def hosts(args: argparse.Namespace) -> int:
    if args.sources:
        print(sources_text([HOSTS[args.tool]] if args.tool else None), end="")
        return 0
    if args.update is None:
        print(lifecycle_table(), end="")
        return 0
    path = Path(args.update)
    try:
        text = path.read_text(encoding="utf-8")
        updated = with_table(text)
    except OSError as e:
        print(f"hooksim: cannot read {path} ({e.strerror})", file=sys.stderr)
        return 2
    except ValueError:
        print(
            f"hooksim: {path} has no '{TABLE_START.strip()}' ... '{TABLE_END}' markers",
            file=sys.stderr,
        )
        return 2
    if updated != text:
        path.write_text(updated, encoding="utf-8")
        print(f"hooksim: updated the hosts table in {path}")
    return 0
