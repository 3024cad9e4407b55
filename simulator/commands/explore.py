"""``hooksim explore``: draw sessions with Hypothesis, judge them, write shrunk failures back.

Hypothesis and the explorer are imported when the command runs, not when ``hooksim`` builds
its parser: the other subcommands do not pay for them.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..hosts import DEFAULT_HOST, HOSTS, get_host
from ..judge import shards
from ..scenario import ScenarioError, find_scenarios, load_scenario
from . import AddParser, check_tool, positive_int, workers_option

if TYPE_CHECKING:
    from ..explore.search import Explorer
    from ..explore.session_space import Space

DEFAULT_OUT = "hooksim-failures"


def register(add_parser: AddParser) -> None:
    parser = add_parser("explore")
    parser.add_argument(
        "paths",
        nargs="*",
        help="scenario files whose hooks, env, host and explore: block set the space (default:"
        " Hermes sessions for the hooks hermes-hooks install writes)",
    )
    parser.add_argument(
        "--tool", metavar="HOST", help=f"the host to draw sessions for ({', '.join(HOSTS)})"
    )
    parser.add_argument(
        "--hooks-config",
        metavar="FILE",
        help="judge the hooks of this config file instead of the installed ones (another"
        " implementation of the same contract)",
    )
    parser.add_argument(
        "--examples", type=positive_int, metavar="N", help="sessions to draw (default 120)"
    )
    parser.add_argument(
        "--seed", type=int, metavar="S", help="seed of the first search (default: random, printed)"
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        default=DEFAULT_OUT,
        help=f"where failing sessions are written (default {DEFAULT_OUT}/)",
    )
    parser.add_argument(
        "--max-turns", type=positive_int, metavar="N", help="steps per session, at most (default 6)"
    )
    workers_option(parser, "searches (each with its own seed)")
    parser.add_argument(
        "--shard",
        type=_shard,
        metavar="K/N",
        help="search the K-th of N shards of the seeds (from 1): seed S+K-1, and with -n,"
        " S+K-1+N, S+K-1+2N...; default: the shard that TEST_TOTAL_SHARDS/TEST_SHARD_INDEX or"
        " CI_NODE_TOTAL/CI_NODE_INDEX name, if set",
    )
    parser.add_argument(
        "--database",
        type=Path,
        metavar="DIR",
        help="Hypothesis' example database: a failure saved there (by any machine) is the"
        " first session tried, and the failures found are saved there",
    )
    parser.set_defaults(func=run)


def _shard(text: str) -> shards.Shard:
    """argparse's type for ``--shard``."""
    try:
        return shards.parse(text)
    except shards.ShardError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _raw(path: Path) -> dict[str, Any]:
    """The file's document as plain data (it has been validated by ``load_scenario``)."""
    from ruamel.yaml import YAML

    data: dict[str, Any] = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    return data


def _spaces(args: argparse.Namespace) -> list[tuple[str, Explorer, int]]:
    """(title, explorer, examples) for each space to explore; raises ScenarioError."""
    from ..explore.search import HOOK_INVARIANTS, Explorer
    from ..explore.session_space import Space, base_document

    tool = args.tool or DEFAULT_HOST
    ours = get_host(tool).default_hooks() is not None  # hermes-hooks' own hooks
    spaces = []
    if not args.paths:
        try:
            space = _overridden(Space.for_host(tool, model=ours), args)
        except ValueError as e:
            raise ScenarioError(f"hooksim: --tool {tool}: {e}") from None
        explorer = Explorer(
            space=space,
            base={"name": "hermes-hooks"},
            source=None,
            tool=tool,
            hooks_config=args.hooks_config,
            invariants=HOOK_INVARIANTS,
            model=ours,
            arguments=_arguments(args),
        )
        hooks = args.hooks_config or "the hooks hermes-hooks install writes"
        spaces.append((f"explore {hooks} on {tool}", explorer, space.examples))
        return spaces
    for path in find_scenarios(args.paths):
        scenario = load_scenario(path)
        data = _raw(path)
        host = args.tool or scenario.tool
        default_hooks = get_host(host).default_hooks() is not None and (
            scenario.hooks is None or args.hooks_config
        )
        model = scenario.explore.get("model", bool(default_hooks))
        try:
            space = _overridden(Space.for_host(host, model=model).narrowed(scenario.explore), args)
        except ValueError as e:
            raise ScenarioError(f"{path}: {e}") from None
        explorer = Explorer(
            space=space,
            base=base_document(data),
            source=path,
            tool=host,
            hooks_config=args.hooks_config,
            invariants={**(HOOK_INVARIANTS if model else {}), **scenario.invariants},
            model=model,
            arguments=_arguments(args, path),
        )
        spaces.append((f"explore {path} on {host}", explorer, space.examples))
    return spaces


def _arguments(args: argparse.Namespace, path: Path | None = None) -> str:
    """The options that shape a space, as they would be typed again."""
    parts = [str(path)] if path else []
    if args.tool:
        parts.append(f"--tool {args.tool}")
    if args.max_turns:
        parts.append(f"--max-turns {args.max_turns}")
    return " ".join(parts)


def _overridden(space: Space, args: argparse.Namespace) -> Space:
    import dataclasses

    changes: dict[str, Any] = {}
    if args.examples:
        changes["examples"] = args.examples
    if args.max_turns:
        changes["max_turns"] = args.max_turns
    return dataclasses.replace(space, **changes)


def _problem(args: argparse.Namespace) -> str | None:
    """What keeps the search from starting (the line to print), checked first; None: nothing."""
    problem = check_tool(args.tool)
    if problem:
        return problem
    if args.tool and HOSTS[args.tool].in_process and not args.paths and not args.hooks_config:
        return (
            f"hooksim: explore --tool {args.tool}: name a scenario file with its plugins (or"
            " --hooks-config with its config): the default space explores the hooks"
            f" hermes-hooks installs, which {HOSTS[args.tool].title} does not run"
        )
    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        return f"hooksim: no such file or directory: {missing[0]}"
    if args.hooks_config and not Path(args.hooks_config).is_file():
        return f"hooksim: --hooks-config: no such file: {args.hooks_config}"
    if args.database and args.database.exists() and not args.database.is_dir():
        return f"hooksim: --database {args.database}: not a directory"
    return None


def run(args: argparse.Namespace) -> int:
    from ..explore.search import explore, summary, write_failure
    from ..replay.runner import SetupError

    problem = _problem(args)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    try:
        shard = args.shard or shards.from_environment()
    except shards.ShardError as e:
        print(f"hooksim: {e}", file=sys.stderr)
        return 2
    try:
        spaces = _spaces(args)
    except ScenarioError as e:
        print(e, file=sys.stderr)
        return 2
    if not spaces:
        print("hooksim: no scenario files found", file=sys.stderr)
        return 5
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    replay = f" --hooks-config {args.hooks_config}" if args.hooks_config else ""
    stream = sys.stderr  # progress: in place on a terminal, a line a minute elsewhere
    failed = 0
    for title, explorer, examples in spaces:
        try:
            exploration = explore(
                explorer,
                title=title,
                examples=examples,
                seed=seed,
                workers=args.workers,
                progress_stream=stream,
                shard=(shard.number, shard.total) if shard else (1, 1),
                database=args.database,
            )
        except SetupError as e:
            print(f"hooksim: {e}", file=sys.stderr)
            return 2
        stem = explorer.source.stem if explorer.source else "hermes-hooks"
        for failure in exploration.failures:
            write_failure(
                failure, Path(args.out), stem=stem, replay_options=replay, source=explorer.source
            )
        failed += len(exploration.failures) + len(exploration.idle)
        print(summary(exploration, replay), flush=True)
    print(f"{failed} failed" if failed else "no invariant failed")
    return 1 if failed else 0
