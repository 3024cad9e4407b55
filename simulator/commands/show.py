"""``hooksim show RUN.json ...``: the reports of saved runs (``hooksim run --json``), merged.

Shards of one corpus, each run with ``--json``, give one report of them all: the same JUnit
XML, JSON, HTML, SARIF and annotations one run of the whole corpus writes (its entries sorted
by path, then host). The summary counts them, and the exit code is the run's: 1 when a run
failed or could not run.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from .. import beneath
from ..report.formats import SHARD_FORMAT, entry_problem, tally, verdict
from . import AddParser, CommandError, report_options, reports_problem, write_entry_reports

# A saved run holds each hook's output capped (64 KiB a text): a corpus of thousands of runs
# stays far below this.
MAX_SAVED_RUN = 2 * 1024 * 1024 * 1024


class _Refused(Exception):
    """A saved run that cannot be merged; ``str()`` is the line to print (exit 2)."""


def register(add_parser: AddParser) -> None:
    parser = add_parser("show")
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
    not a saved run, a run saved in two files, or shards that do not cover their whole."""
    seen: dict[tuple[str, str], Path] = {}
    entries = []
    shards: list[tuple[Path, dict[str, Any]]] = []
    for path in paths:
        saved, coverage = _read(path)
        if coverage is not None:
            shards.append((path, coverage))
        for entry in saved:
            run = (os.path.normpath(entry["path"]), str(entry.get("tool")))
            if run in seen:
                raise _Refused(
                    f"{entry['path']} [{run[1]}] is in both {seen[run]} and {path};"
                    " give each run's report once"
                )
            seen[run] = path
            entries.append(entry)
    if shards:
        _check_coverage(shards)
    return sorted(entries, key=lambda e: (e["path"], str(e.get("tool"))))


def _check_coverage(shards: list[tuple[Path, dict[str, Any]]]) -> None:
    """Shards of one corpus must run each of its runs exactly once, together."""
    first_path, first = shards[0]
    for path, coverage in shards[1:]:
        if coverage["items"] != first["items"]:
            raise _Refused(
                f"{first_path} and {path} are shards of different runs (their lists of runs"
                " differ); merge the shards of one run"
            )
    ran: dict[str, Path] = {}
    for path, coverage in shards:
        for run in coverage["ran"]:
            if run in ran:
                raise _Refused(f"{run} ran in both {ran[run]} and {path}; give each run once")
            ran[run] = path
    missing = [run for run in first["items"] if run not in ran]
    if missing:
        given = ", ".join(sorted({c["shard"] for _, c in shards}))
        shown = ", ".join(missing[:5]) + (
            f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        )
        raise _Refused(
            f"{len(missing)} of {len(first['items'])} runs ran in none of the shards given"
            f" ({given}): {shown}"
        )


def _read(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The entries of one saved run, and a shard's coverage (None: not a shard's report);
    raises _Refused saying what is wrong with the file."""
    try:
        saved = beneath.load_json(path, MAX_SAVED_RUN)
    except beneath.Refused as e:
        raise _Refused(str(e)) from None
    except OSError as e:
        raise _Refused(f"cannot read {path} ({e.strerror})") from None
    not_saved = f"{path} is not a run saved by hooksim run --json"
    coverage = None
    if isinstance(saved, dict) and saved.get("format") == SHARD_FORMAT:
        coverage = {key: saved.get(key) for key in ("shard", "items", "ran")}
        if not isinstance(coverage["shard"], str) or not all(
            _texts(coverage[key]) for key in ("items", "ran")
        ):
            raise _Refused(f"{not_saved}: its shard, items and ran are not what a shard writes")
        saved = saved.get("entries")
    if not isinstance(saved, list):
        raise _Refused(not_saved)
    for number, entry in enumerate(saved, 1):
        problem = entry_problem(entry)
        if problem:
            raise _Refused(f"{not_saved}: entry {number}: {problem}")
    return saved, coverage


def _texts(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(i, str) for i in value)
