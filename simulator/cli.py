"""``hooksim``: run and validate scenario files."""

from __future__ import annotations

import argparse
import fnmatch
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import expect
from .report import Outcome, failure_text, write_json, write_junit
from .runner import SetupError, run_scenario
from .scenario import ScenarioError, find_scenarios, load_scenario


def run_one(path: Path, *, hooks_config: str | None = None, keep_workdir: bool = False) -> Outcome:
    """Load, run and check one scenario file; never raises for a bad scenario."""
    started = time.monotonic()
    try:
        scenario = load_scenario(path)
    except ScenarioError as e:
        return Outcome(path, path.stem, [], error=str(e))
    try:
        result = run_scenario(scenario, hooks_config=hooks_config, keep_workdir=keep_workdir)
    except SetupError as e:
        return Outcome(path, scenario.name, [], error=str(e), seconds=time.monotonic() - started)
    return Outcome(
        path, scenario.name, expect.check(result), result, seconds=time.monotonic() - started
    )


def _selected(paths: list[Path], pattern: str | None) -> list[Path]:
    if not pattern:
        return paths
    return [p for p in paths if pattern in str(p) or fnmatch.fnmatch(str(p), pattern)]


def _run(args: argparse.Namespace) -> int:
    paths = _selected(find_scenarios(args.paths), args.k)
    missing = [p for p in paths if not p.exists()]
    if missing:
        print(f"hooksim: no such file or directory: {missing[0]}", file=sys.stderr)
        return 2
    if not paths:
        print("hooksim: no scenario files found", file=sys.stderr)
        return 5
    outcomes: list[Outcome] = []

    def report(outcome: Outcome) -> None:
        outcomes.append(outcome)
        verdict = "PASS" if outcome.passed else ("ERROR" if outcome.error else "FAIL")
        print(f"{verdict:<5} {outcome.path}  {outcome.name}  ({outcome.seconds:.1f}s)", flush=True)
        if not outcome.passed:
            print(failure_text(outcome), flush=True)

    def one(path: Path) -> Outcome:
        return run_one(path, hooks_config=args.hooks_config, keep_workdir=args.keep_workdir)

    if args.workers > 1:
        with ThreadPoolExecutor(args.workers) as pool:
            for outcome in pool.map(one, paths):
                report(outcome)
    else:
        for path in paths:
            report(one(path))
            if args.exitfirst and not outcomes[-1].passed:
                break
    if args.junit_xml:
        write_junit(outcomes, args.junit_xml)
    if args.json:
        write_json(outcomes, args.json)
    passed = sum(o.passed for o in outcomes)
    failed = len(outcomes) - passed
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def _validate(args: argparse.Namespace) -> int:
    paths = find_scenarios(args.paths)
    if not paths:
        print("hooksim: no scenario files found", file=sys.stderr)
        return 5
    bad = 0
    for path in paths:
        try:
            load_scenario(path)
        except ScenarioError as e:
            bad += 1
            print(e, file=sys.stderr)
    print(f"{len(paths) - bad} valid, {bad} invalid")
    return 1 if bad else 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hooksim",
        description="Replay scripted agent sessions against real hook processes in virtual time.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    run = sub.add_parser("run", help="run scenario files and check their expectations")
    run.add_argument(
        "paths", nargs="*", default=["scenarios"], help="files or directories (default: scenarios)"
    )
    run.add_argument(
        "--hooks-config", metavar="FILE", help="a Hermes config.yaml whose hooks: block to run"
    )
    run.add_argument("--junit-xml", metavar="FILE", help="write a JUnit XML report")
    run.add_argument("--json", metavar="FILE", help="write every hook run and bridge call as JSON")
    run.add_argument(
        "--keep-workdir", action="store_true", help="keep each scenario's work directory"
    )
    run.add_argument(
        "-k", metavar="PATTERN", help="only scenario paths containing or matching PATTERN"
    )
    run.add_argument(
        "-n", "--workers", type=int, default=1, metavar="N", help="run N scenarios at once"
    )
    run.add_argument(
        "-x",
        "--exitfirst",
        action="store_true",
        help="stop at the first failing scenario (with -n 1)",
    )
    run.set_defaults(func=_run)
    validate = sub.add_parser("validate", help="check scenario files without running them")
    validate.add_argument("paths", nargs="*", default=["scenarios"])
    validate.set_defaults(func=_validate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    code: int = args.func(args)
    return code
