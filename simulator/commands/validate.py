"""``hooksim validate``: check scenario files without running them."""

from __future__ import annotations

import argparse
import sys

from ..hosts import HOSTS
from ..judge.builtin_checks import static_failures
from ..judge.verdict import hook_warnings
from ..scenario import Scenario, ScenarioError, find_scenarios, load_scenario
from ..scenario.load import line_of_key
from . import AddParser


def register(add_parser: AddParser) -> None:
    parser = add_parser("validate")
    parser.add_argument(
        "paths", nargs="*", default=["scenarios"], help="files or directories (default: scenarios)"
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="print the hosts' notes (trust) for every file, not once",
    )
    parser.set_defaults(func=validate)


def trust_notes(scenario: Scenario) -> list[tuple[str, str]]:
    """``(host, note)`` for each host the file runs on that skips hooks until they are trusted."""
    return [
        (tool, f"{tool}: {HOSTS[tool].trust}; untrusted, it skips them")
        for tool in scenario.tools()
        if HOSTS[tool].trust and scenario.on(tool).hooks
    ]


def validate(args: argparse.Namespace) -> int:
    paths = find_scenarios(args.paths)
    if not paths:
        print("hooksim: no scenario files found", file=sys.stderr)
        return 5
    bad = 0
    noted: dict[str, list[str]] = {}  # each host's note once, with how many files it concerns
    for path in paths:
        try:
            scenario = load_scenario(path)
        except ScenarioError as e:
            bad += 1
            print(e, file=sys.stderr)
            continue
        failures = _check_failures(scenario)
        bad += bool(failures)
        for line in failures:
            print(line, file=sys.stderr)
        for warning in hook_warnings(scenario):
            if not any(warning.endswith(f": {w}") for w in _failed_warnings(scenario)):
                print(warning, file=sys.stderr)
        for tool, note in trust_notes(scenario):
            if args.verbose:
                print(f"{scenario.path}: note: {note}", file=sys.stderr)
            else:
                noted.setdefault(note, []).append(tool)
    for note, files in noted.items():
        print(f"note: {note} ({len(files)} file{'s' if len(files) > 1 else ''})", file=sys.stderr)
    print(f"{len(paths) - bad} valid, {bad} invalid")
    return 1 if bad else 0


def _failed_warnings(scenario: Scenario) -> set[str]:
    return {w for tool in scenario.tools() for w, _, _ in static_failures(scenario, tool)}


def _check_failures(scenario: Scenario) -> list[str]:
    """``file:line: built-in check ...`` for what a run would fail on before any hook runs."""
    lines = []
    for tool in scenario.tools():
        own = scenario.hosts.get(tool)
        block: list[str | int] = (
            ["hosts", tool, "hooks"] if own and own.hooks is not None else ["hooks"]
        )
        for _, event, failure in static_failures(scenario, tool):
            line = line_of_key(scenario.path, [*block, event] if event else block)
            lines.append(f"{scenario.path}:{line}: {failure}")
    return list(dict.fromkeys(lines))
