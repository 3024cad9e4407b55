"""``hooksim validate``: check scenario files without running them."""

from __future__ import annotations

import argparse
import sys

from ..hosts import HOSTS
from ..judge.verdict import hook_warnings
from ..scenario import Scenario, ScenarioError, find_scenarios, load_scenario
from . import AddParser


def register(add_parser: AddParser) -> None:
    parser = add_parser("validate", help="check scenario files without running them")
    parser.add_argument(
        "paths", nargs="*", default=["scenarios"], help="files or directories (default: scenarios)"
    )
    parser.set_defaults(func=validate)


def trust_notes(scenario: Scenario) -> list[str]:
    """``file: note: host: ...`` for each host that skips hooks until they are trusted."""
    return [
        f"{scenario.path}: note: {tool}: {HOSTS[tool].trust}; untrusted, it skips them"
        for tool in scenario.tools()
        if HOSTS[tool].trust and scenario.on(tool).hooks
    ]


def validate(args: argparse.Namespace) -> int:
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
        for warning in hook_warnings(scenario):
            print(warning, file=sys.stderr)
        for note in trust_notes(scenario):
            print(note, file=sys.stderr)
    print(f"{len(paths) - bad} valid, {bad} invalid")
    return 1 if bad else 0
