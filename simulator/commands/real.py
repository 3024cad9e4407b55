"""``--real``: ``hooksim run --real HOST[=PATH]`` and ``hooksim compare FILE --tool HOST --real PATH``.

The real host runs offline against hooksim's fake model server (see ``hooksim.real.session``);
``run`` judges the scenario's ``expect:`` block on what really happened, ``compare`` lists
how the real run and hooksim's replay differ (see ``hooksim.real.compare``).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

from ..hosts import HOSTS, get_host
from ..judge import builtin_checks, expect
from ..judge.outcome import Outcome
from ..judge.verdict import not_applicable, run_on
from ..real.compare import Difference, compare_real, compared_host, differences_text
from ..real.driver import RealHostError
from ..real.result import RealRun
from ..real.session import DRIVERS, not_judged, run_real
from ..report.formats import print_warnings, summary, timeline
from ..scenario import ScenarioError, load_scenario
from . import write_reports


def add_run_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--real",
        metavar="HOST[=PATH]",
        action="append",
        help=f"run on the real host ({', '.join(DRIVERS)}) offline, against a fake model"
        " server; PATH is its executable (default: found on PATH); once per host",
    )
    _add_unconfined(parser)


def _add_unconfined(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--unconfined",
        action="store_true",
        help="with --real: run the real host without confinement (bubblewrap or unshare); the"
        " tools it runs act on this machine",
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
    _add_unconfined(parser)


def judged(run: RealRun) -> tuple[list[str], list[str]]:
    """The scenario's expectations judged on the real host, and those that are not."""
    keys = list(run.result.scenario.expect)
    skip = not_judged(run.result.scenario.tool)
    return [k for k in keys if k not in skip], [k for k in keys if k in skip]


def check(run: RealRun) -> list[str]:
    """Failures of the built-in checks, judged from what the real host did, then of the
    expectations a real run can judge."""
    scenario = run.result.scenario
    skip = not_judged(scenario.tool)
    kept = {k: v for k, v in scenario.expect.items() if k not in skip}
    run.result.scenario = replace(scenario, expect=kept)
    try:
        return builtin_checks.check(run.result) + expect.check(run.result)
    finally:
        run.result.scenario = scenario


def _header(run: RealRun) -> list[str]:
    yes, no = judged(run)
    lines = [f"  real host: {run.version}, {run.seconds:.1f}s"]
    lines += [f"  note: {note}" for note in run.notes]
    if yes:
        lines.append(f"  judged on the real host: {', '.join(yes)}")
    skip = not_judged(run.result.scenario.tool)
    lines += [f"  not judged: {key} ({skip[key]})" for key in no]
    return lines


def run(args: argparse.Namespace, paths: list[Path]) -> int:
    """Each file on each real host (one ``--real`` each), judged and reported as ``hooksim
    run`` reports its replays; a file without hooks for a host is SKIP on it."""
    hosts: dict[str, str | None] = {}
    for given in args.real:
        tool, _, binary = str(given).partition("=")
        if tool in hosts:
            print(f"hooksim: --real {tool} is given twice", file=sys.stderr)
            return 2
        hosts[tool] = binary or None
    started = time.monotonic()
    outcomes: list[Outcome] = []
    try:
        for file, (tool, path) in ((f, h) for f in paths for h in hosts.items()):
            outcome = _run_one(file, tool, path, args)
            outcomes.append(outcome)
            if outcome.bad and args.exitfirst:
                break
    finally:
        write_reports(outcomes, args)
    print_warnings(outcomes)
    print(summary(outcomes, time.monotonic() - started))
    return 1 if any(o.bad for o in outcomes) else 0


def _run_one(file: Path, tool: str, binary: str | None, args: argparse.Namespace) -> Outcome:
    label = f"{tool}, real"
    try:
        scenario = load_scenario(file)
        skipped = not_applicable(scenario, tool, None) if tool in HOSTS else None
        if skipped is not None:
            print(f"SKIP  {file} [{label}]  {scenario.name}  (not applicable: {skipped})")
            return Outcome(file, scenario.name, [], tool=label, skipped=skipped)
        real = run_real(
            scenario, tool, binary, keep_workdir=args.keep_workdir, unconfined=args.unconfined
        )
    except (ScenarioError, RealHostError) as e:
        print(f"ERROR {file} [{label}]  {e}")
        return Outcome(file, file.stem, [], error=str(e), tool=label)
    outcome = Outcome(
        file,
        scenario.name,
        check(real),
        real.result,
        seconds=real.seconds,
        tool=label,
        warnings=builtin_checks.warnings(real.result),
        strict=args.strict,
    )
    if args.quiet and not outcome.bad:
        return outcome
    print(f"{outcome.verdict:<5} {outcome.label}  {scenario.name}  ({real.seconds:.1f}s)")
    print("\n".join(_header(real)))
    for failure in outcome.found:
        print(f"  {failure}")
    if outcome.found or args.show_timeline:
        print("  timeline:")
        print(timeline(real.result, stdin=args.show_timeline))
    if real.result.workdir is not None and real.result.workdir.exists():  # kept, not removed
        print(f"  workdir: {real.result.workdir}")
    return outcome


def compare(args: argparse.Namespace) -> int:
    if not args.tool:
        print("hooksim: compare --real needs --tool HOST", file=sys.stderr)
        return 2
    try:
        get_host(args.tool)
        scenario = load_scenario(Path(args.path))
        result = compare_real(scenario, args.tool, args.real or None, unconfined=args.unconfined)
    except (ScenarioError, RealHostError, LookupError) as e:
        print(f"hooksim: {e}", file=sys.stderr)
        return 2
    real = result.real
    print(
        f"{scenario.path} [{args.tool}]: real run against hooksim's replay"
        f" ({real.seconds:.1f}s real, {result.replay_seconds:.1f}s replay)"
    )
    print("\n".join(_header(real)))
    failures = check(real)
    real_verdict = "PASS" if not failures else "FAIL"
    print(f"  expectations on the real host: {real_verdict}")
    for failure in failures:
        print(f"    {failure}")
    # The verdict ``hooksim run`` gives, on the profile the comparison ran: its hooks as
    # written, where the comparison's recorded replay runs them behind the recorder.
    replay = run_on(scenario, args.tool, label=None, host=compared_host(scenario, args.tool))
    print(f"  expectations on hooksim's replay: {replay.verdict}")
    for failure in replay.failures if replay.error is None else [replay.error]:
        print(f"    {failure}")
    diffs = list(result.diffs)
    if replay.verdict != real_verdict:
        diffs.insert(0, Difference("verdict", real_verdict, replay.verdict))
    print(differences_text(diffs))
    return 0 if not any(d.tolerated is None for d in diffs) else 1
