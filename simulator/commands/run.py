"""``hooksim run``: run scenario files and check their expectations; reports for CI."""

from __future__ import annotations

import argparse
import fnmatch
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..hosts import HOSTS
from ..judge import run_one
from ..report import Outcome, failure_text, write_json, write_junit
from ..scenario import find_scenarios
from . import AddParser, check_tool, workers_option


def register(add_parser: AddParser) -> None:
    parser = add_parser("run", help="run scenario files and check their expectations")
    parser.add_argument(
        "paths", nargs="*", default=["scenarios"], help="files or directories (default: scenarios)"
    )
    parser.add_argument(
        "--tool",
        metavar="HOST",
        help=f"replay every scenario on this host ({', '.join(HOSTS)}); default: each"
        " scenario's tool and the hosts under its hosts:",
    )
    parser.add_argument(
        "--hooks-config",
        metavar="FILE",
        help="run the hooks of this config file of --tool's host (default hermes: its"
        " config.yaml; settings.json, hooks.json, config.toml for the others), on that host only",
    )
    parser.add_argument("--junit-xml", metavar="FILE", help="write a JUnit XML report")
    parser.add_argument(
        "--json", metavar="FILE", help="write every hook run and bridge call as JSON"
    )
    parser.add_argument(
        "--keep-workdir", action="store_true", help="keep each scenario's work directory"
    )
    parser.add_argument(
        "-k", metavar="PATTERN", help="only scenario paths containing or matching PATTERN"
    )
    workers_option(parser, "scenario files")
    parser.add_argument(
        "-x",
        "--exitfirst",
        action="store_true",
        help="stop at the first failing scenario (with -n 1)",
    )
    parser.set_defaults(func=run)


def _selected(paths: list[Path], pattern: str | None) -> list[Path]:
    if not pattern:
        return paths
    return [p for p in paths if pattern in str(p) or fnmatch.fnmatch(str(p), pattern)]


def run(args: argparse.Namespace) -> int:
    problem = check_tool(args.tool)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    paths = _selected(find_scenarios(args.paths), args.k)
    missing = [p for p in paths if not p.exists()]
    if missing:
        print(f"hooksim: no such file or directory: {missing[0]}", file=sys.stderr)
        return 2
    if not paths:
        print("hooksim: no scenario files found", file=sys.stderr)
        return 5
    outcomes: list[Outcome] = []

    def report(batch: list[Outcome]) -> bool:
        for outcome in batch:
            outcomes.append(outcome)
            print(
                f"{outcome.verdict:<5} {outcome.label}  {outcome.name}  ({outcome.seconds:.1f}s)",
                flush=True,
            )
            if not outcome.passed:
                print(failure_text(outcome), flush=True)
        return all(o.passed for o in batch)

    def one(path: Path) -> list[Outcome]:
        return run_one(
            path, tool=args.tool, hooks_config=args.hooks_config, keep_workdir=args.keep_workdir
        )

    if args.workers > 1:
        with ThreadPoolExecutor(args.workers) as pool:
            for batch in pool.map(one, paths):
                report(batch)
    else:
        for path in paths:
            if not report(one(path)) and args.exitfirst:
                break
    if args.junit_xml:
        write_junit(outcomes, args.junit_xml)
    if args.json:
        write_json(outcomes, args.json)
    passed = sum(o.passed for o in outcomes)
    failed = len(outcomes) - passed
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1
