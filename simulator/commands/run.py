"""``hooksim run``: run scenario files and check their expectations; reports for CI.

Report paths are checked (and their folders created) before anything runs, and every report is
written whatever the runs did. One line per finished run (``-q``: only the ones that did not
pass); on a terminal a status line says what is running meanwhile. The summary counts errors
(a file that could not be loaded or started) apart from failures, with the total time.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any, TextIO

from ..hosts import DEFAULT_HOST, HOSTS, get_host
from ..judge import shards
from ..judge.cache import Cache, CacheError, NotCached
from ..judge.cache import key as cache_key
from ..judge.expect import expected_warning
from ..judge.items import Item, collect, select
from ..judge.outcome import Outcome
from ..judge.verdict import run_item
from ..printable import one_line
from ..replay.interrupt import stopped_by_signals
from ..replay.runner import CONFIG_NOTE, SetupError, load_hooks_config
from ..replay.sweep import sweep
from ..report.formats import entry, entry_problem, failure_text, print_warnings, summary, timeline
from ..scenario import find_scenarios
from ..scenario.selection import PatternError
from . import (
    AddParser,
    check_tool,
    real,
    report_options,
    reports_problem,
    workers_option,
    write_reports,
)


def register(add_parser: AddParser) -> None:
    parser = add_parser("run")
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
        help="run the hooks of this config file (Hermes' config.yaml; settings.json, hooks.json,"
        " config.toml for the others) on the host it belongs to: --tool's, else each scenario's"
        " tool",
    )
    report_options(parser)
    parser.add_argument(
        "--keep-workdir",
        action="store_true",
        help="keep each scenario's work directory, and print where it is",
    )
    parser.add_argument(
        "--show-timeline",
        action="store_true",
        help="print the timeline of passing runs too, with the stdin each hook received",
    )
    parser.add_argument(
        "-k",
        metavar="PATTERN",
        help="only scenarios whose name or path contains PATTERN (or matches it as a glob);"
        " words may be combined with and, or, not",
    )
    workers_option(parser, "scenario runs")
    _scale_options(parser)
    parser.add_argument(
        "-x", "--exitfirst", action="store_true", help="start no new scenario after a failure"
    )
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print only runs that did not pass, and the summary",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="print the hosts' notes (unverified facts, trust) in every timeline, not once",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="fail a run on its warnings too (output of a hook that nothing reads)",
    )
    real.add_run_option(parser)
    parser.set_defaults(func=run)


def _scale_options(parser: argparse.ArgumentParser) -> None:
    """Shards across machines, the durations that balance them, and the result cache."""
    parser.add_argument(
        "--shard",
        type=_shard,
        metavar="K/N",
        help="run only the K-th of N shards of the runs (from 1); default: the shard that"
        " TEST_TOTAL_SHARDS/TEST_SHARD_INDEX or CI_NODE_TOTAL/CI_NODE_INDEX name, if set",
    )
    parser.add_argument(
        "--cache",
        type=Path,
        metavar="DIR",
        help="take a run that passed before from DIR while nothing it depends on changed, and"
        " save new passes there (not with --real, --keep-workdir or --show-timeline)",
    )
    parser.add_argument("--no-cache", action="store_true", help="run everything, even with --cache")
    parser.add_argument(
        "--cache-env",
        action="append",
        default=[],
        metavar="NAME",
        help="also key saved passes on this variable of the environment (repeatable): the"
        " environment is not in the key otherwise, but for PATH and PYTHONPATH",
    )
    parser.add_argument(
        "--durations-file",
        type=Path,
        metavar="FILE",
        help="balance shards by the seconds this file gives each run (pytest-split's format);"
        " only read, unless --store-durations",
    )
    parser.add_argument(
        "--store-durations",
        action="store_true",
        help="write this run's seconds into --durations-file (a run of the whole corpus, not a"
        " shard: shards that write it one after another would split differently)",
    )


class Status:
    """The transient ``[done/total] running ...`` line, on a terminal only."""

    def __init__(self, total: int, stream: TextIO, enabled: bool) -> None:
        self.total = total
        self.done = 0
        self.stream = stream
        self.enabled = enabled
        self.running: dict[Item, None] = {}
        self._lock = threading.Lock()
        self._shown = False

    def started(self, item: Item) -> None:
        with self._lock:
            self.running[item] = None

    def finished(self, item: Item) -> None:
        with self._lock:
            self.running.pop(item, None)
            self.done += 1

    def clear(self) -> None:
        if self._shown:
            self.stream.write("\r\x1b[K")
            self._shown = False

    def show(self) -> None:
        if not self.enabled:
            return
        with self._lock:
            running = ", ".join(
                f"{item.path} [{item.label}]" if item.label else str(item.path)
                for item in self.running
            )
        if not running:
            return
        self.clear()
        self.stream.write(f"[{self.done}/{self.total}] running {running}"[:200])
        self.stream.flush()
        self._shown = True


def _shard(text: str) -> shards.Shard:
    """argparse's type for ``--shard``."""
    try:
        return shards.parse(text)
    except shards.ShardError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _my_shard(args: argparse.Namespace, items: list[Item]) -> list[Item]:
    """The items of this machine's shard (all when there are no shards); raises ShardError."""
    shard = args.shard or shards.from_environment()
    if shard is None:
        return items
    status = os.environ.get("TEST_SHARD_STATUS_FILE")
    if status:  # Bazel asks a test runner to say it understood the shard variables
        Path(status).touch()
    durations = shards.read_durations(args.durations_file) if args.durations_file else {}
    mine = shards.pick(items, shard, durations)
    args.coverage = {"shard": str(shard), "items": [item.id for item in items]}
    nothing = "" if mine else ": nothing to run"
    print(f"hooksim: shard {shard}: {len(mine)} of {len(items)} runs{nothing}")
    return mine


def _preflight(args: argparse.Namespace) -> str | None:
    """What keeps the run from starting, checked before anything runs; None when all is well."""
    problem = check_tool(args.tool)
    problem = problem or reports_problem(args)
    if not problem and args.store_durations and not args.durations_file:
        problem = "hooksim: --store-durations needs --durations-file FILE (where to write them)"
    if not problem and args.hooks_config:
        # A broken config file is one line now, not one error per scenario after the run. Without
        # --tool it is read as each scenario's own tool's: here, only that it can be read.
        try:
            host = get_host(args.tool or DEFAULT_HOST)
            load_hooks_config(args.hooks_config, host, parse=bool(args.tool))
        except SetupError as e:
            problem = f"hooksim: --hooks-config: {' '.join(str(e).split())}"
        except OSError as e:
            problem = f"hooksim: --hooks-config: {args.hooks_config}: {e.strerror}"
    return problem


def run(args: argparse.Namespace) -> int:
    """``hooksim run``: 0 all passed, 1 some did not, 2 a usage error, 5 no scenario found."""
    started = time.monotonic()
    problem = _preflight(args)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    paths = find_scenarios(args.paths)
    missing = [p for p in paths if not p.exists()]
    if missing:
        print(f"hooksim: no such file or directory: {missing[0]}", file=sys.stderr)
        return 2
    try:
        chosen = select(collect(paths, args.tool), args.k)
        items = _my_shard(args, chosen) if chosen else []
    except (PatternError, shards.ShardError) as e:
        print(f"hooksim: {e}", file=sys.stderr)
        return 2
    if not chosen:
        where = ", ".join(map(str, args.paths))
        extra = f" matching -k {args.k!r}" if args.k else ""
        print(f"hooksim: no scenario files found in {where}{extra}", file=sys.stderr)
        return 5
    sweep()  # what a run killed outright (SIGKILL) left: its processes, its work folders
    progress = _Progress(items)

    def reports_so_far(signal_name: str) -> None:
        write_reports(*progress.so_far(signal_name, args))

    with stopped_by_signals(keep_workdirs=args.keep_workdir, on_stop=reports_so_far):
        if args.real:
            return real.run(args, list(dict.fromkeys(item.path for item in items)))
        try:
            cache = _cache(args)
        except CacheError as e:
            print(f"hooksim: {e}", file=sys.stderr)
            return 2
        outcomes = _run_items(items, args, cache, progress)
    if not args.verbose:
        for note in _notes_shown(outcomes, args):
            print(f"note: {note}")
    if args.hooks_config:
        for line in config_report(outcomes, args.hooks_config):
            print(f"note: {line}")
    print_warnings(outcomes)
    print(summary(outcomes, time.monotonic() - started))
    failed = any(o.bad for o in outcomes) or getattr(args, "durations_failed", False)
    return 1 if failed else 0


def _cache(args: argparse.Namespace) -> Cache | None:
    """The cache to use: ``--cache``'s, unless ``--no-cache`` or a run that must really run
    (its work directory kept, its passing timeline shown). Raises CacheError."""
    if args.cache is None or args.no_cache or args.keep_workdir or args.show_timeline:
        return None
    return Cache(args.cache)


def _run_cached(item: Item, args: argparse.Namespace, cache: Cache, said: list[str]) -> Outcome:
    """The item's saved pass, or its run (saved when it passes); why a pass was not saved
    goes into ``said``."""
    if item.scenario is None:
        return run_item(item)
    try:
        key: str | None = cache_key(
            item,
            forced_tool=args.tool,
            hooks_config=args.hooks_config,
            env_names=tuple(args.cache_env),
            outputs=_outputs(args),
        )
    except NotCached as e:
        key = None
        said.append(f"not cached: {_label(item)}: {e}")
    saved = cache.get(key) if key is not None else None
    if (
        saved is not None
        and _saved_pass(saved, item)
        and not (args.strict and saved.get("warnings"))
    ):
        return Outcome(
            item.path,
            item.scenario.name,
            [],
            tool=item.label,
            cached=saved,
            warnings=list(saved.get("warnings") or []),
        )
    started_ns = time.time_ns()
    outcome = run_item(
        item, forced_tool=args.tool, hooks_config=args.hooks_config, record_reads=True
    )
    if outcome.passed and key is not None and outcome.result is not None:
        try:
            if not outcome.result.reads_recorded:
                raise NotCached(
                    "the scenario's env (or a hook's) sets PYTHONPATH or NODE_OPTIONS, so its"
                    " hooks' reads are not recorded"
                )
            cache.put(key, entry(outcome), outcome.result.reads, started_ns)
        except NotCached as e:
            said.append(f"not cached: {_label(item)}: {e}")
    return outcome


def _outputs(args: argparse.Namespace) -> frozenset[Path]:
    """What this run writes itself (its cache, its reports), resolved: never part of a key."""
    named = (args.cache, args.json, args.junit_xml, args.html, args.sarif, args.durations_file)
    return frozenset(Path(p).resolve() for p in named if p)


def _label(item: Item) -> str:
    return Outcome(item.path, "", [], tool=item.label).label


def _saved_pass(saved: dict[str, Any], item: Item) -> bool:
    """Whether a saved entry is a pass of this very run that every report can show as one."""
    return (
        entry_problem(saved) is None
        and saved.get("verdict") == "PASS"
        and saved.get("passed") is True
        and not saved.get("failures")
        and saved.get("error") is None
        and saved.get("path") == str(item.path)
        and saved.get("label") == _label(item)
    )


class _Progress:
    """The runs of one ``hooksim run`` so far: those finished, and those started and not yet
    finished (what a signal interrupts)."""

    def __init__(self, items: list[Item]) -> None:
        self.items = items
        self.results: dict[Item, Outcome] = {}
        self.running: set[Item] = set()

    def so_far(
        self, signal_name: str, args: argparse.Namespace
    ) -> tuple[list[Outcome], argparse.Namespace, dict[str, Any] | None]:
        """The reports' arguments for a run stopped by a signal: each finished run, and each
        interrupted one as an error saying so."""
        results, running = dict(self.results), set(self.running)
        outcomes = []
        for item in self.items:
            if item in results:
                outcomes.append(results[item])
            elif item in running:
                name = item.scenario.name if item.scenario is not None else item.path.stem
                error = f"{item.path}: interrupted ({signal_name}) before it finished"
                outcomes.append(Outcome(item.path, name, [], error=error, tool=item.label))
        coverage = getattr(args, "coverage", None)
        if coverage is not None:
            coverage["ran"] = [i.id for i in self.items if i in results or i in running]
        return outcomes, args, coverage


def _run_items(
    items: list[Item], args: argparse.Namespace, cache: Cache | None, progress: _Progress
) -> list[Outcome]:
    """Run the items (``--workers`` at once), printing each as it finishes; the reports and the
    durations file are written whatever happens."""
    status = Status(len(items), sys.stdout, sys.stdout.isatty() and not args.quiet)
    results = progress.results
    not_cached: list[str] = []

    def one(item: Item) -> Outcome:
        status.started(item)
        progress.running.add(item)
        try:
            if cache is not None:
                return _run_cached(item, args, cache, not_cached)
            return run_item(
                item,
                forced_tool=args.tool,
                hooks_config=args.hooks_config,
                keep_workdir=args.keep_workdir,
            )
        finally:
            status.finished(item)

    def report(item: Item, outcome: Outcome) -> bool:
        outcome.strict = args.strict
        results[item] = outcome
        progress.running.discard(item)
        status.clear()
        _print_outcome(outcome, args)
        status.show()
        return not outcome.bad

    try:
        if args.workers == 1:
            for item in items:
                status.started(item)
                status.show()
                if not report(item, one(item)) and args.exitfirst:
                    break
        else:
            _run_in_parallel(items, one, report, args.workers, args.exitfirst)
    finally:
        status.clear()
        outcomes = [results[item] for item in items if item in results]
        for line in not_cached:
            print(f"note: {one_line(line)}")
        coverage = getattr(args, "coverage", None)
        if coverage is not None:  # a shard's report says which runs of the whole it ran
            coverage["ran"] = [item.id for item in items if item in results]
        write_reports(outcomes, args, coverage)
        if args.store_durations:
            measured = {item.id: o.seconds for item, o in results.items() if o.result is not None}
            try:
                shards.write_durations(args.durations_file, measured)
            except (OSError, shards.ShardError) as e:
                why = e.strerror if isinstance(e, OSError) else str(e)
                print(f"hooksim: --store-durations: cannot write {args.durations_file} ({why})")
                args.durations_failed = True
    return outcomes


def _run_in_parallel(
    items: list[Item],
    one: Callable[[Item], Outcome],
    report: Callable[[Item, Outcome], bool],
    workers: int,
    exitfirst: bool,
) -> None:
    """Up to ``workers`` items at once, each reported as it finishes; -x starts no new one."""
    pending = iter(items)
    with ThreadPoolExecutor(workers) as pool:
        running: dict[Future[Outcome], Item] = {}
        stop = False
        while True:
            while not stop and len(running) < workers:
                item = next(pending, None)
                if item is None:
                    break
                running[pool.submit(one, item)] = item
            if not running:
                return
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                item = running.pop(future)
                if not report(item, future.result()) and exitfirst:
                    stop = True


def _timeline_shown(outcome: Outcome, args: argparse.Namespace) -> bool:
    result = outcome.result
    if result is None or outcome.skipped is not None or (args.quiet and not outcome.bad):
        return False
    return not outcome.passed or args.show_timeline or result.scenario.timeline == "always"


def config_report(outcomes: list[Outcome], config: str) -> list[str]:
    """What ``--hooks-config`` did over the whole run, once each: the hosts it could not be
    read for (their scenarios ran their plugins alone), and its hooks no scenario exercised."""
    results = [o.result for o in outcomes if o.result is not None]
    lines = list(dict.fromkeys(n for r in results for n in r.notes if n.startswith(CONFIG_NOTE)))
    specs = {
        (s.event, s.command): s
        for r in results
        for s in r.specs
        if s.layer == "config" and s.source == config
    }
    ran = {
        (run.spec.event, run.spec.command)
        for r in results
        for run in r.runs
        if run.spec is not None
    }
    idle = [f"{event} {command!r}" for (event, command) in specs if (event, command) not in ran]
    if idle:
        lines.append(
            f"--hooks-config {config}: hooks no scenario of this run exercised: {'; '.join(idle)}"
        )
    return lines


def _notes_shown(outcomes: list[Outcome], args: argparse.Namespace) -> list[str]:
    """``HOST: note`` once each, for the hosts whose timelines were printed."""
    return list(
        dict.fromkeys(
            f"{o.result.host_title}: {note}"
            for o in outcomes
            if o.result is not None and _timeline_shown(o, args)
            for note in o.result.notes
            if not note.startswith(CONFIG_NOTE)
        )
    )


def _print_outcome(outcome: Outcome, args: argparse.Namespace) -> None:
    if args.quiet and not outcome.bad:
        return
    if outcome.skipped is not None:
        name, why = one_line(outcome.name), one_line(outcome.skipped)
        print(f"SKIP  {outcome.label}  {name}  (not applicable: {why})")
        return
    name = one_line(outcome.name)  # a name is the scenario author's: it prints as one line
    if outcome.cached is not None:
        print(f"PASS (cached)  {outcome.label}  {name}")
        return
    print(f"{outcome.verdict:<5} {outcome.label}  {name}  ({outcome.seconds:.1f}s)")
    result = outcome.result
    if result is not None:
        for warning in result.warnings:
            if not expected_warning(result, warning):
                print(f"  warning: {one_line(warning)}")
    if not outcome.passed:
        print(failure_text(outcome, stdin=args.show_timeline, notes=args.verbose))
    elif result is not None and (args.show_timeline or result.scenario.timeline == "always"):
        print("  timeline:")
        print(timeline(result, stdin=True, notes=args.verbose))
    if result is not None and result.workdir is not None and result.workdir.exists():
        print(f"  workdir: {result.workdir}")
    sys.stdout.flush()
