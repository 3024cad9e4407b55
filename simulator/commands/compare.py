"""``hooksim compare``: one session on several hosts, side by side, with a summary row each."""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..judge.outcome import Outcome
from ..judge.verdict import run_on
from ..report.formats import compare_text, write_json
from ..scenario import ScenarioError, load_scenario
from . import AddParser, check_tool, real, workers_option


def register(add_parser: AddParser) -> None:
    parser = add_parser("compare")
    parser.add_argument("path", type=Path, help="one scenario file")
    parser.add_argument(
        "--tools",
        metavar="A,B",
        help="hosts to compare (default: the scenario's tool and the hosts under its hosts:)",
    )
    parser.add_argument("--json", metavar="FILE", help="write every run as JSON")
    workers_option(parser, "hosts")
    real.add_compare_options(parser)
    parser.set_defaults(func=compare)


def compare(args: argparse.Namespace) -> int:
    if args.real is not None:
        return real.compare(args)
    tools = [t.strip() for t in args.tools.split(",")] if args.tools else None
    for tool in tools or []:
        problem = check_tool(tool, "--tools")
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

    with ThreadPoolExecutor(args.workers) as pool:
        outcomes = list(pool.map(one, tools))
    print(compare_text(scenario, outcomes))
    if args.json:
        write_json(outcomes, args.json)
    return 0 if all(o.passed for o in outcomes) else 1
