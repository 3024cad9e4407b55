"""What hooksim explore costs per example, what -n 2 buys, and how fast it finds each mutant.

    python benchmarks/bench_explore.py [--examples N] [--seed S] [--mutants a,b] [--against REV]

1. The same drawn sessions run as plain ``run_scenario`` calls (baseline) and as explore's
   examples (written as a file, loaded, run, judged by the gate model): the ratio of the two
   totals is explore's overhead (aim: at most 1.10).
2. Examples per minute of ``explore`` on the real hook with ``-n 1`` and ``-n 2`` (2 cores),
   and the speed-up.
3. For each mutant hook of ``tests/judge/mutant_hook.py``, with the default budget, the
   seed, and ``-n 2``: seconds and examples until the first failure, total seconds with
   shrinking, and the steps of the written file (aim: every mutant found in under 60 s);
   with ``--files``, the file itself.
4. The same for the wrong hooks of the shipped explore spaces (``scenarios/explore/``, the
   mutants of ``tests/explore/example_mutants.py``), each with its space's own budget.

5. With ``--against REV`` (a commit, tag or branch): each mutant's search run by ``hooksim
   explore`` as a subprocess, one search (``-n 1``), the same seed, in this tree and in a git
   worktree of REV (with REV's own hermes_hooks and mutant hook), one after the other: seconds
   and examples until the first failure in each, and the ratio of the seconds (this tree over
   REV: under 1 is faster). The ratio, not the seconds, is the figure to compare.

Times are real seconds on this machine and move with its load; the example counts do not.
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hooksim.explore.search import HOOK_INVARIANTS, Explorer, explore, scenario_text
from hooksim.explore.session_space import Space, base_document, sessions
from hooksim.replay.runner import run_scenario
from hooksim.scenario import load_scenario
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))
from tests.explore.test_explore_mutants import (  # noqa: E402 - the tests' own mutants
    EXAMPLE_MUTANTS,
    EXAMPLES,
)
from tests.judge.test_mutants import hooks_config  # noqa: E402 - the tests' own writer

MUTANTS = (
    "compact_before_save",
    "exits_nonzero",
    "ignores_backward_clock",
    "ignores_window",
    "ignores_window_variable",
    "misreads_flag",
    "no_lock",
    "on_by_default",
    "skips_compaction_without_save",
    "stamps_after_failure",
)


SPACE = Space()  # the default space, as the mutant tests explore it


def explorer(hooks_config: str | None = None, space: Space | None = None) -> Explorer:
    return Explorer(
        space=space or SPACE,
        base={"name": "bench"},
        source=None,
        tool="hermes",
        hooks_config=hooks_config,
        invariants=HOOK_INVARIANTS,
        model=True,
    )


def drawn(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` sessions of the default space, as explore draws them."""
    documents: list[dict[str, Any]] = []

    @settings(
        max_examples=count,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @hypothesis_seed(seed)
    @given(sessions(SPACE, {"name": "bench"}))
    def collect(document: dict[str, Any]) -> None:
        documents.append(document)

    collect()
    return documents


def overhead(count: int, seed: int) -> None:
    documents = drawn(count, seed)
    with tempfile.TemporaryDirectory() as tmp:
        scenarios = []
        for i, document in enumerate(documents):
            path = Path(tmp) / f"{i}.yaml"
            path.write_text(scenario_text(document))
            scenarios.append(load_scenario(path))
        ex = explorer()
        plain = judged = 0.0
        for document, scenario in zip(documents, scenarios, strict=True):
            # Interleaved, so that a change in the machine's load hits both alike.
            started = time.perf_counter()
            run_scenario(scenario)
            plain += time.perf_counter() - started
            started = time.perf_counter()
            ex.run(document)
            judged += time.perf_counter() - started
    print(
        f"1. {len(documents)} sessions: run_scenario {plain:.1f}s, as explore examples"
        f" {judged:.1f}s: overhead {judged / plain:.2f}x"
    )


def throughput(examples: int, seed: int) -> None:
    rates = {}
    for workers in (1, 2):
        result = explore(explorer(), title="bench", examples=examples, seed=seed, workers=workers)
        rates[workers] = result.examples / result.seconds * 60
        print(
            f"2. -n {workers}: {result.examples} examples in {result.seconds:.1f}s:"
            f" {rates[workers]:.0f} examples/min"
        )
    print(f"   speed-up of -n 2: {rates[2] / rates[1]:.2f}x")


def mutants(names: list[str], seed: int, workers: int, files: bool) -> None:
    print(f"3. mutants (default budget {Space().examples}, seed {seed}, -n {workers}):")
    print(f"   {'mutant':<32}{'found':>9}{'examples':>10}{'total':>9}  steps")
    slowest = 0.0
    written: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            own = Path(tmp, name)
            own.mkdir()
            ex = explorer(str(hooks_config(own, name)))
            result = explore(ex, title=name, examples=Space().examples, seed=seed, workers=workers)
            if not result.failures:
                print(f"   {name:<32}{'NOT FOUND':>9}{result.examples:>10}{result.seconds:>8.1f}s")
                slowest = float("inf")
                continue
            first = min(result.failures, key=lambda f: f.found_s)
            least = min(result.failures, key=lambda f: f.steps)
            smallest = least.steps
            written[name] = scenario_text({**least.document, "expect": least.finding.expect})
            slowest = max(slowest, first.found_s)
            print(
                f"   {name:<32}{first.found_s:>8.1f}s{first.found_at:>10}"
                f"{result.seconds:>8.1f}s  {smallest}"
            )
    print(f"   slowest to find: {slowest:.1f}s (aim: under 60 s)")
    for name, text in written.items() if files else ():
        print(f"\n--- {name}\n{text}", end="")


def space_explorer(path: Path) -> tuple[Explorer, int]:
    """The explorer ``hooksim explore PATH`` builds for a space file of a non-Hermes host."""
    from ruamel.yaml import YAML

    scenario = load_scenario(path)
    space = Space.for_host(scenario.tool, model=False).narrowed(scenario.explore)
    data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    return Explorer(
        space=space,
        base=base_document(data),
        source=path,
        tool=scenario.tool,
        hooks_config=None,
        invariants=scenario.invariants,
        model=False,
    ), space.examples


def example_mutants(seed: int, workers: int) -> None:
    print(
        f"4. mutants of the shipped explore spaces (their own budget, seed {seed}, -n {workers}):"
    )
    print(f"   {'space / mutant':<42}{'found':>9}{'examples':>10}{'total':>9}  steps")
    with tempfile.TemporaryDirectory() as tmp:
        for example, (script, names) in EXAMPLES.items():
            text = (ROOT / "scenarios" / "explore" / example).read_text(encoding="utf-8")
            hook = f'"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/../hooks/{script}"'
            for name in names:
                path = Path(tmp, name, "explore", example)
                path.parent.mkdir(parents=True)
                wrong = f'"$HOOKSIM_PYTHON" "{EXAMPLE_MUTANTS}" {name}'
                path.write_text(text.replace(hook, wrong), encoding="utf-8")
                ex, budget = space_explorer(path)
                result = explore(ex, title=name, examples=budget, seed=seed, workers=workers)
                label = f"{example} / {name}"
                if not result.failures:
                    print(f"   {label:<42}{'NOT FOUND':>9}{result.examples:>10}")
                    continue
                first = min(result.failures, key=lambda f: f.found_s)
                print(
                    f"   {label:<42}{first.found_s:>8.1f}s{first.found_at:>10}"
                    f"{result.seconds:>8.1f}s  {first.steps}"
                )


@contextmanager
def tree_of(rev: str) -> Iterator[tuple[str, Path]]:
    """(python, mutant hook) of a git worktree of ``rev``: a venv whose hooksim and hermes_hooks
    are that tree's, everything else this interpreter's packages."""
    with tempfile.TemporaryDirectory(prefix="bench-explore-") as tmp:
        tree, venv = Path(tmp, "tree"), Path(tmp, "venv")
        git = ["git", "-C", str(ROOT)]
        subprocess.run([*git, "worktree", "add", "--detach", "-q", str(tree), rev], check=True)
        try:
            subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
            python = str(venv / "bin" / "python")
            purelib = subprocess.run(
                [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
            Path(purelib, "zz_bench.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
            Path(purelib, "hooksim").symlink_to(tree / "simulator")
            Path(purelib, "hermes_hooks").symlink_to(tree / "hermes_hooks")
            hooks = [tree / "tests" / d / "mutant_hook.py" for d in ("judge", "simulator")]
            yield python, next(h for h in hooks if h.exists())
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", str(tree)], check=True)


def _config(folder: Path, python: str, hook: Path, mutant: str) -> Path:
    """A Hermes config.yaml whose three hooks run ``mutant`` of ``hook`` with ``python``."""
    folder.mkdir(parents=True)
    lines = ["hooks:"]
    for event, sub in (
        ("on_session_start", "session-start"),
        ("pre_llm_call", "user-prompt-submit"),
        ("post_llm_call", "stop"),
    ):
        command = shlex.join([python, str(hook), mutant, sub])
        lines += [f"  {event}:", f"    - command: {command!r}"]
    path = folder / "config.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _time_to_find(python: str, config: Path, seed: int, out: Path) -> tuple[float, int] | None:
    """Seconds and examples until ``hooksim explore`` (one search) found its first failure."""
    argv = [python, "-m", "hooksim", "explore", "--hooks-config", str(config)]
    argv += ["--seed", str(seed), "--out", str(out)]
    done = subprocess.run(argv, check=False, capture_output=True, text=True, cwd=out.parent)
    found = re.search(r"found at example (\d+) \(seed \d+[^)]*\) after ([0-9.]+)s", done.stdout)
    return (float(found[2]), int(found[1])) if found else None


def against(rev: str, names: list[str], seed: int) -> None:
    print(f"5. time to find each mutant, this tree against {rev} (seed {seed}, -n 1):")
    print(f"   {'mutant':<32}{'here':>9}{'examples':>10}{rev:>10}{'examples':>10}{'ratio':>7}")
    here_total = there_total = 0.0
    with tree_of(rev) as (python, hook), tempfile.TemporaryDirectory() as tmp:
        for name in names:
            rows = []
            for side, (py, mutant_hook) in (
                ("here", (sys.executable, ROOT / "tests" / "judge" / "mutant_hook.py")),
                ("there", (python, hook)),
            ):
                config = _config(Path(tmp, side, name), py, mutant_hook, name)
                rows.append(_time_to_find(py, config, seed, Path(tmp, side, name, "out")))
            here, there = rows
            if here is None or there is None:
                print(f"   {name:<32}{'NOT FOUND' if here is None else f'{here[0]:.1f}s':>9}")
                continue
            here_total, there_total = here_total + here[0], there_total + there[0]
            print(
                f"   {name:<32}{here[0]:>8.1f}s{here[1]:>10}{there[0]:>9.1f}s{there[1]:>10}"
                f"{here[0] / there[0]:>7.2f}"
            )
    if there_total:
        print(
            f"   all found: {here_total:.1f}s against {there_total:.1f}s: {here_total / there_total:.2f}x"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=40, help="examples for parts 1 and 2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mutants", default=",".join(MUTANTS))
    parser.add_argument("--skip", default="", help="parts to skip, e.g. 1,2")
    parser.add_argument("--files", action="store_true", help="print each mutant's smallest file")
    parser.add_argument(
        "--against", metavar="REV", help="part 5: time to find each mutant here and in REV"
    )
    parser.add_argument(
        "--quick", action="store_true", help="the smallest run, to check the benchmark works"
    )
    args = parser.parse_args()
    if args.quick:
        args.examples = 2
        args.mutants = ""
        args.skip = "4"
        args.against = None
    skip = set(args.skip.split(","))
    if "3" not in skip and not args.mutants:
        skip.add("3")
    if "1" not in skip:
        overhead(args.examples, args.seed)
    if "2" not in skip:
        throughput(args.examples, args.seed)
    if "3" not in skip:
        names = [m for m in args.mutants.split(",") if m]
        mutants(names, args.seed, workers=2, files=args.files)
    if "4" not in skip:
        example_mutants(args.seed, workers=2)
    if args.against:
        names = [m for m in args.mutants.split(",") if m]
        against(args.against, names, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
