"""``hooksim show RUN.json --html FILE``: draw a saved run (``hooksim run --json``) as a page."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import AddParser, report_path


def register(add_parser: AddParser) -> None:
    parser = add_parser("show", help="draw a run saved with --json as a self-contained HTML page")
    parser.add_argument("run", type=Path, metavar="RUN.json", help="written by hooksim run --json")
    parser.add_argument("--html", required=True, metavar="FILE", help="the page to write")
    parser.set_defaults(func=show)


def show(args: argparse.Namespace) -> int:
    from ..report.picture import write_html

    try:
        entries = json.loads(args.run.read_text(encoding="utf-8"))
    except OSError as e:
        print(f"hooksim show: cannot read {args.run} ({e.strerror})", file=sys.stderr)
        return 2
    except ValueError as e:
        print(f"hooksim show: {args.run} is not JSON ({e})", file=sys.stderr)
        return 2
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and "name" in e and "path" in e for e in entries
    ):
        print(f"hooksim show: {args.run} is not a run saved by hooksim run --json", file=sys.stderr)
        return 2
    problem = report_path(args.html, "--html")
    if problem:
        print(problem, file=sys.stderr)
        return 2
    write_html(entries, args.html, title=f"hooksim run ({args.run.name})")
    print(f"hooksim: wrote {args.html}")
    return 0
