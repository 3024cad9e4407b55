"""hooksim's subcommands, one module each, named as the subcommand; ``hooksim.cli`` lists them
(``COMMANDS``, with each one's help line) and imports one only when it runs.

A subcommand module has ``register(add_parser)``: it adds its parser with ``add_parser(name)``
and sets ``func`` (``args -> exit code``) as its default. Beside them, ``real``: the options and
runs of ``--real``, which ``run`` and ``compare`` share.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..judge.outcome import Outcome

# What every subcommand imports: argparse's helpers only. Hosts and reports are imported where
# they are used, so that a subcommand pays only for its own modules (``hooksim.cli``).

AddParser = Callable[..., argparse.ArgumentParser]
"""``add_parser`` of the ``hooksim`` parser's subcommands (``name``, then keyword arguments)."""


def check_tool(tool: str | None, option: str = "--tool") -> str | None:
    """None when the tool can run, else the one line to print."""
    if tool is None:
        return None
    from ..hosts import UnknownHost, get_host

    try:
        get_host(tool)
    except UnknownHost as e:
        return f"hooksim: {option}: {e}"
    return None


def report_path(path: str, option: str) -> str | None:
    """Make a report's folder exist before anything runs; None when it can be written, else the
    one line to print (a run must not be lost to a report that cannot be written at its end)."""
    target = Path(path)
    if target.is_dir():
        return f"hooksim: {option}: {path} is a directory; give a file name such as {target / 'report'}"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return f"hooksim: {option}: cannot create the folder {target.parent} ({e.strerror})"
    if not os.access(target.parent, os.W_OK) or (
        target.exists() and not os.access(target, os.W_OK)
    ):
        return f"hooksim: {option}: {path} cannot be written"
    return None


def report_options(parser: argparse.ArgumentParser) -> None:
    """The reports a run can give (``--junit-xml``, ``--json``, ``--html``, ``--sarif``,
    ``--format github``)."""
    parser.add_argument("--junit-xml", metavar="FILE", help="write a JUnit XML report")
    parser.add_argument(
        "--html", metavar="FILE", help="draw every run as a timeline in one self-contained page"
    )
    parser.add_argument(
        "--json", metavar="FILE", help="write every hook run and bridge call as JSON"
    )
    parser.add_argument(
        "--sarif",
        metavar="FILE",
        help="write a SARIF 2.1.0 log: a result per failure, at its scenario's line",
    )
    parser.add_argument(
        "--format",
        choices=["github"],
        help="github: print a GitHub Actions error annotation per failure, at its scenario's line",
    )
    root_option(parser)


def root_option(parser: argparse.ArgumentParser) -> None:
    """``--root DIR``: what the paths of annotations and SARIF are relative to."""
    parser.add_argument(
        "--root",
        type=Path,
        metavar="DIR",
        help="the repository's folder: GitHub annotations and SARIF name files relative to it"
        " (default: the working directory); a file outside it is named in the message instead",
    )


def reports_problem(args: argparse.Namespace) -> str | None:
    """The first report of ``report_options`` that cannot be written (its line), else None."""
    reports = [
        ("--junit-xml", args.junit_xml),
        ("--json", args.json),
        ("--html", args.html),
        ("--sarif", args.sarif),
    ]
    return next((p for option, path in reports if path and (p := report_path(path, option))), None)


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1 (``-n 0`` would run nothing)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def workers_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``-n N``: how many to run at once, validated."""
    parser.add_argument(
        "-n", "--workers", type=positive_int, default=1, metavar="N", help=f"run N {what} at once"
    )


__all__ = [
    "AddParser",
    "CommandError",
    "check_tool",
    "positive_int",
    "report_options",
    "report_path",
    "reports_problem",
    "root_option",
    "workers_option",
    "write_entry_reports",
    "write_reports",
]


class CommandError(Exception):
    """What stops a command after it ran; ``str()`` is the one line to print (exit 1)."""


def write_reports(
    outcomes: list[Outcome], args: argparse.Namespace, coverage: dict[str, Any] | None = None
) -> None:
    """The reports ``run`` was asked for (``report_options``), from the outcomes' entries;
    ``coverage``: a shard's place in the whole (see ``write_entries``)."""
    if args.junit_xml or args.json or args.html or args.sarif or args.format:
        from ..report.formats import to_json

        write_entry_reports(to_json(outcomes), args, coverage)


def write_entry_reports(
    entries: list[dict[str, Any]],
    args: argparse.Namespace,
    coverage: dict[str, Any] | None = None,
) -> list[str]:
    """The reports of ``report_options`` asked for, from report entries: the files, then
    ``--format github``'s annotations on stdout. Returns the files written.

    Each file is written even when another cannot be; then CommandError names those that failed.
    """
    from ..report.ci import github_annotations, write_sarif
    from ..report.formats import write_entries, write_junit
    from ..report.picture import write_html

    writers: list[tuple[str, str | None, Callable[[str], None]]] = [
        ("--junit-xml", args.junit_xml, lambda path: write_junit(entries, path)),
        ("--json", args.json, lambda path: write_entries(entries, path, coverage)),
        ("--html", args.html, lambda path: write_html(entries, path)),
        ("--sarif", args.sarif, lambda path: write_sarif(entries, path, args.root)),
    ]
    written, failed = [], []
    for option, path, write in writers:
        if path:
            try:
                write(path)
                written.append(path)
            except OSError as e:
                failed.append(f"{option}: cannot write {path} ({e.strerror or e})")
    if args.format == "github":
        for line in github_annotations(entries, args.root):
            print(line)
    if failed:
        raise CommandError("; ".join(failed))
    return written
