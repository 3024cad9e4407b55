"""``hooksim``: run, compare and validate scenario files; show the hosts' lifecycles."""

from __future__ import annotations

import argparse
import fnmatch
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import expect
from .hosts import (
    HOSTS,
    OPENCLAW,
    TABLE_END,
    TABLE_START,
    UnknownHost,
    get_host,
    lifecycle_table,
    with_table,
)
from .report import Outcome, compare_text, failure_text, write_json, write_junit
from .runner import SetupError, run_scenario
from .scenario import Scenario, ScenarioError, find_scenarios, load_scenario


def run_on(
    scenario: Scenario,
    tool: str,
    *,
    label: str | None,
    hooks_config: str | None = None,
    keep_workdir: bool = False,
) -> Outcome:
    """Run and check a loaded scenario on one host; a setup problem is the outcome's error."""
    started = time.monotonic()
    try:
        result = run_scenario(
            scenario, tool=tool, hooks_config=hooks_config, keep_workdir=keep_workdir
        )
    except SetupError as e:
        return Outcome(scenario.path, scenario.name, [], error=str(e),
                       seconds=time.monotonic() - started, tool=label)  # fmt: skip
    failures = expect.check(result)
    return Outcome(scenario.path, scenario.name, failures, result,
                   seconds=time.monotonic() - started, tool=label)  # fmt: skip


def run_one(
    path: Path,
    *,
    tool: str | None = None,
    hooks_config: str | None = None,
    keep_workdir: bool = False,
) -> list[Outcome]:
    """Load, run and check one scenario file on each of its hosts; never raises for bad input."""
    try:
        scenario = load_scenario(path)
    except ScenarioError as e:
        return [Outcome(path, path.stem, [], error=str(e))]
    # A config file belongs to one host: --tool's, or Hermes'.
    tools = scenario.tools(tool or ("hermes" if hooks_config else None))
    labelled = len(tools) > 1 or tools != ["hermes"]
    return [
        run_on(
            scenario,
            name,
            label=name if labelled else None,
            hooks_config=hooks_config,
            keep_workdir=keep_workdir,
        )
        for name in tools
    ]


def _selected(paths: list[Path], pattern: str | None) -> list[Path]:
    if not pattern:
        return paths
    return [p for p in paths if pattern in str(p) or fnmatch.fnmatch(str(p), pattern)]


def _check_tool(tool: str | None, option: str = "--tool") -> str | None:
    """None when the tool can run, else the one line to print."""
    if tool is None:
        return None
    try:
        get_host(tool)
    except UnknownHost as e:
        return f"hooksim: {option}: {e}"
    return None


def _run(args: argparse.Namespace) -> int:
    problem = _check_tool(args.tool)
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
            verdict = "PASS" if outcome.passed else ("ERROR" if outcome.error else "FAIL")
            print(
                f"{verdict:<5} {outcome.label}  {outcome.name}  ({outcome.seconds:.1f}s)",
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


def _compare(args: argparse.Namespace) -> int:
    tools = [t.strip() for t in args.tools.split(",")] if args.tools else None
    for tool in tools or []:
        problem = _check_tool(tool, "--tools")
        if problem:
            print(problem, file=sys.stderr)
            return 2
    try:
        scenario = load_scenario(args.path)
    except ScenarioError as e:
        print(e, file=sys.stderr)
        return 2
    tools = tools or scenario.tools()

    def one(tool: str) -> Outcome:
        return run_on(scenario, tool, label=tool)

    with ThreadPoolExecutor(max(1, args.workers)) as pool:
        outcomes = list(pool.map(one, tools))
    print(compare_text(scenario, outcomes))
    if args.json:
        write_json(outcomes, args.json)
    return 0 if all(o.passed for o in outcomes) else 1


def _validate(args: argparse.Namespace) -> int:
    paths = find_scenarios(args.paths)
    if not paths:
        print("hooksim: no scenario files found", file=sys.stderr)
        return 5
    bad = 0
    for path in paths:
        try:
            scenario = load_scenario(path)
        except ScenarioError as e:
            bad += 1
            print(e, file=sys.stderr)
            continue
        for tool in scenario.tools():
            hooks = scenario.on(tool).hooks
            own = scenario.hosts.get(tool)
            where = f"hosts.{tool}.hooks" if own and own.hooks is not None else "hooks"
            for warning in [] if hooks is None else HOSTS[tool].parse_hooks(hooks)[1]:
                print(f"{path}: warning: {where}: {warning}", file=sys.stderr)
    print(f"{len(paths) - bad} valid, {bad} invalid")
    return 1 if bad else 0


def _hosts(args: argparse.Namespace) -> int:
    if args.update is None:
        print(lifecycle_table(), end="")
        print(f"\nOpenClaw is not a hooksim host: {OPENCLAW}.")
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
        "--tool",
        metavar="HOST",
        help=f"replay every scenario on this host ({', '.join(HOSTS)}); default: each"
        " scenario's tool and the hosts under its hosts:",
    )
    run.add_argument(
        "--hooks-config",
        metavar="FILE",
        help="run the hooks of this config file of --tool's host (default hermes: its"
        " config.yaml; settings.json, hooks.json, config.toml for the others), on that host only",
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
        "-n", "--workers", type=int, default=1, metavar="N", help="run N scenario files at once"
    )
    run.add_argument(
        "-x",
        "--exitfirst",
        action="store_true",
        help="stop at the first failing scenario (with -n 1)",
    )
    run.set_defaults(func=_run)
    compare = sub.add_parser(
        "compare", help="run one session on several hosts and report the differences"
    )
    compare.add_argument("path", type=Path, help="one scenario file")
    compare.add_argument(
        "--tools",
        metavar="A,B",
        help="hosts to compare (default: the scenario's tool and the hosts under its hosts:)",
    )
    compare.add_argument("--json", metavar="FILE", help="write every run as JSON")
    compare.add_argument(
        "-n", "--workers", type=int, default=1, metavar="N", help="run N hosts at once"
    )
    compare.set_defaults(func=_compare)
    validate = sub.add_parser("validate", help="check scenario files without running them")
    validate.add_argument("paths", nargs="*", default=["scenarios"])
    validate.set_defaults(func=_validate)
    hosts = sub.add_parser("hosts", help="print the hosts' hook lifecycles side by side (Markdown)")
    hosts.add_argument(
        "--update",
        metavar="FILE",
        help="replace the table between the hosts-table markers in FILE (e.g. README.md)",
    )
    hosts.set_defaults(func=_hosts)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    code: int = args.func(args)
    return code
