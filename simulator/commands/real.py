"""``--real``: ``hooksim run --real HOST[=PATH]`` and ``hooksim compare FILE --tool HOST --real PATH``.

The real host runs offline against hooksim's fake model server (see ``hooksim.real_host``);
``run`` judges the scenario's ``expect:`` block on what really happened, ``compare`` lists
how the real run and hooksim's replay differ (see ``hooksim.real_compare``).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from .. import expect
from ..hosts import get_host
from ..real_compare import compare_real, differences_text
from ..real_host import DRIVERS, NOT_JUDGED, RealHostError, RealRun, run_real
from ..report import timeline
from ..scenario import ScenarioError, find_scenarios, load_scenario


def add_run_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--real",
        metavar="HOST[=PATH]",
        help=f"run on the real host ({', '.join(DRIVERS)}) offline, against a fake model"
        " server; PATH is its executable (default: found on PATH)",
    )


def add_compare_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tool", metavar="HOST", help="with --real: the host to run for real and replay"
    )
    parser.add_argument(
        "--real",
        metavar="PATH",
        nargs="?",
        const="",
        help="compare the real --tool (its executable at PATH, default on PATH) with hooksim's"
        " replay; exit 0 only when every difference is one the profile tolerates",
    )


def judged(run: RealRun) -> tuple[list[str], list[str]]:
    """The scenario's expectations judged on the real host, and those that are not."""
    keys = list(run.result.scenario.expect)
    return [k for k in keys if k not in NOT_JUDGED], [k for k in keys if k in NOT_JUDGED]


def check(run: RealRun) -> list[str]:
    """Failures of the expectations a real run can judge."""
    scenario = run.result.scenario
    kept = {k: v for k, v in scenario.expect.items() if k not in NOT_JUDGED}
    run.result.scenario = replace(scenario, expect=kept)
    try:
        return expect.check(run.result)
    finally:
        run.result.scenario = scenario


def _header(run: RealRun) -> list[str]:
    yes, no = judged(run)
    lines = [f"  real host: {run.version}, {run.seconds:.1f}s"]
    lines += [f"  note: {note}" for note in run.notes]
    if yes:
        lines.append(f"  judged on the real host: {', '.join(yes)}")
    lines += [f"  not judged: {key} ({NOT_JUDGED[key]})" for key in no]
    return lines


def run(args: argparse.Namespace) -> int:
    tool, _, path = str(args.real).partition("=")
    paths = find_scenarios(args.paths)
    if not paths:
        print("hooksim: no scenario files found", file=sys.stderr)
        return 5
    passed = failed = 0
    for file in paths:
        try:
            scenario = load_scenario(file)
            real = run_real(scenario, tool, path or None,
                            keep_workdir=args.keep_workdir)  # fmt: skip
        except (ScenarioError, RealHostError) as e:
            print(f"ERROR {file} [{tool}, real]  {e}")
            failed += 1
            continue
        failures = check(real)
        verdict = "PASS" if not failures else "FAIL"
        passed, failed = passed + (not failures), failed + bool(failures)
        print(f"{verdict:<5} {file} [{tool}, real]  {scenario.name}  ({real.seconds:.1f}s)")
        print("\n".join(_header(real)))
        for failure in failures:
            print(f"  {failure}")
        if failures:
            print(timeline(real.result))
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def compare(args: argparse.Namespace) -> int:
    if not args.tool:
        print("hooksim: compare --real needs --tool HOST", file=sys.stderr)
        return 2
    try:
        get_host(args.tool)
        scenario = load_scenario(Path(args.path))
        result = compare_real(scenario, args.tool, args.real or None)
    except (ScenarioError, RealHostError, LookupError) as e:
        print(f"hooksim: {e}", file=sys.stderr)
        return 2
    real = result.real
    print(f"{scenario.path} [{args.tool}]: real run against hooksim's replay"
          f" ({real.seconds:.1f}s real, {result.replay_seconds:.1f}s replay)")  # fmt: skip
    print("\n".join(_header(real)))
    failures = check(real)
    print("  expectations on the real host: " + ("PASS" if not failures else "FAIL"))
    for failure in failures:
        print(f"    {failure}")
    print(differences_text(result.diffs))
    return 0 if not result.failing else 1
