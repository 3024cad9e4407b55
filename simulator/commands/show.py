"""``hooksim show RUN.json ...``: the reports of saved runs (``hooksim run --json``), merged.

Shards of one corpus, each run with ``--json``, give one report of them all: the same JUnit
XML, JSON, HTML, SARIF and annotations one run of the whole corpus writes (its entries sorted
by path, then host). The summary counts them, and the exit code is the run's: 1 when a run
failed or could not run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .. import beneath
from ..report.formats import entry_problem, tally, verdict
from . import AddParser, CommandError, report_options, reports_problem, write_entry_reports

# A saved run holds each hook's output capped (64 KiB a text): a corpus of thousands of runs
# stays far below this.
MAX_SAVED_RUN = 2 * 1024 * 1024 * 1024


class _Refused(Exception):
    """A saved run that cannot be merged; ``str()`` is the line to print (exit 2)."""


def register(add_parser: AddParser) -> None:
    parser = add_parser(
        "show", help="merge runs saved with --json into one report (JUnit, JSON, HTML, SARIF)"
    )
    parser.add_argument(
        "runs", type=Path, nargs="+", metavar="RUN.json", help="written by hooksim run --json"
    )
    report_options(parser)
    parser.set_defaults(func=show)


def show(args: argparse.Namespace) -> int:
    try:
        entries = _merged(args.runs)
    except _Refused as e:
        print(f"hooksim show: {e}", file=sys.stderr)
        return 2
    problem = reports_problem(args)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    try:
        written = write_entry_reports(entries, args)
    except CommandError as e:
        print(f"hooksim: {e}", file=sys.stderr)
        return 1
    for path in written:
        print(f"hooksim: wrote {path}")
    verdicts = [verdict(e) for e in entries]
    print(tally(verdicts, sum(e.get("cached") is True for e in entries)))
    return 1 if "FAIL" in verdicts or "ERROR" in verdicts else 0


def _merged(paths: list[Path]) -> list[dict[str, Any]]:
    """Every entry of the files, sorted by path, then host; raises _Refused for a file that is
    not a saved run, or a run saved in two files."""
    seen: dict[tuple[str, str], Path] = {}
    entries = []
    for path in paths:
        for entry in _read(path):
            run = (entry["path"], str(entry.get("tool")))
            if run in seen:
                raise _Refused(
                    f"{run[0]} [{run[1]}] is in both {seen[run]} and {path};"
                    " give each run's report once"
                )
            seen[run] = path
            entries.append(entry)
    return sorted(entries, key=lambda e: (e["path"], str(e.get("tool"))))


def _read(path: Path) -> list[dict[str, Any]]:
    """The entries of one saved run; raises _Refused saying what is wrong with the file."""
    try:
        entries = beneath.load_json(path, MAX_SAVED_RUN)
    except beneath.Refused as e:
        raise _Refused(str(e)) from None
    except OSError as e:
        raise _Refused(f"cannot read {path} ({e.strerror})") from None
    not_saved = f"{path} is not a run saved by hooksim run --json"
    if not isinstance(entries, list):
        raise _Refused(not_saved)
    for number, entry in enumerate(entries, 1):
        problem = entry_problem(entry)
        if problem:
            raise _Refused(f"{not_saved}: entry {number}: {problem}")
    return entries
