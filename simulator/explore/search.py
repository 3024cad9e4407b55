"""Generated sessions against real hooks: Hypothesis draws, hooksim runs, an oracle judges.

Each example is a session drawn from a ``Space`` (``hooksim.explore.session_space``), written as a
scenario file, loaded and run by hooksim's runner like any other (real hook processes, virtual
clock, mock bridge), then judged by

- the model of the compaction gate (``hooksim.explore.gate_model``), call for call, when the hooks are
  hermes-hooks' own or another implementation of the same contract (``--hooks-config``);
- the scenario's ``invariants:`` (the expectations that hold for every session);
- the built-in checks every ``hooksim run`` makes (a hook that cannot run, and the like).

A failing session is shrunk by Hypothesis and written back as an ordinary scenario file whose
``expect:`` is the failing invariant, with a comment saying how it was found; ``hooksim run``
replays it. Searches run side by side in threads (``workers``), each with its own seed: the
examples' time is spent in hook processes, so threads use both cores. The first search to find
a failure shrinks it; the others stop.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import re
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed

from ..judge import builtin_checks, expect
from ..replay.runner import RunResult, run_scenario
from ..scenario import Scenario, load_scenario
from . import gate_model
from .session_space import Space, sessions

MODEL = "gate model"
# The invariants of every session of hermes-hooks: exit 0, nothing on stdout (Hermes would
# read it), nothing left running. Its stderr is allowed: a failed bridge call is reported there.
HOOK_INVARIANTS: dict[str, Any] = {"exit_codes": 0, "stdout": "", "leaked_processes": 0}


@dataclass(frozen=True)
class Finding:
    """One invariant a session broke: what, how, and the expectation that pins it."""

    invariant: str
    lines: list[str]
    expect: dict[str, Any]


class SessionFailed(AssertionError):
    """Raised inside the Hypothesis test: the session broke at least one invariant."""

    def __init__(self, document: dict[str, Any], findings: list[Finding]) -> None:
        super().__init__("; ".join(f"{f.invariant}: {f.lines[0]}" for f in findings))
        self.document = document
        self.findings = findings


class _SearchEnded(BaseException):
    """Raised through Hypothesis (it lets a BaseException pass) to end a search: its shrinking
    budget is spent, or another search found a failure first and shrinks that one."""


@dataclass
class Failure:
    """A shrunk failing session, how it was found, and where it was written."""

    finding: Finding
    document: dict[str, Any]
    seed: int
    found_at: int  # the example (of this search) that first failed
    runs: int  # examples run by this search, shrinking included
    budget: int
    found_s: float = 0.0  # seconds from the start of the exploration to the first failure
    path: Path | None = None
    command: str = ""  # the explore arguments that find it again (one search, this seed)

    @property
    def steps(self) -> int:
        if "sessions" in self.document:
            return sum(len(s["turns"]) for s in self.document["sessions"])
        return len(self.document["turns"])


@dataclass
class Exploration:
    """The outcome of exploring one space."""

    title: str
    seed: int
    examples: int = 0
    seconds: float = 0.0
    failures: list[Failure] = field(default_factory=list)


class Progress:
    """Examples run so far, across searches; printed in place on a terminal."""

    def __init__(self, budget: int, stream: TextIO | None) -> None:
        self.budget = budget
        self.stream = stream
        self.examples = 0
        self.failed = threading.Event()
        self.started = time.monotonic()
        self._lock = threading.Lock()
        self._shown = 0.0

    def claim(self) -> bool:
        """True for the first search to find a failure (it shrinks it; the others stop)."""
        with self._lock:
            first = not self.failed.is_set()
            self.failed.set()
            return first

    def tick(self) -> None:
        with self._lock:
            self.examples += 1
            now = time.monotonic()
            if self.stream is not None and now - self._shown > 0.5:
                self._shown = now
                state = "shrinking a failure" if self.failed.is_set() else "no failure yet"
                self.stream.write(
                    f"\rexplore: {self.examples} examples, {now - self.started:.0f}s, {state}  "
                )
                self.stream.flush()

    def done(self) -> None:
        if self.stream is not None:
            self.stream.write("\r\033[K")
            self.stream.flush()


class Explorer:
    """Runs drawn sessions of one space and judges them."""

    def __init__(
        self,
        *,
        space: Space,
        base: dict[str, Any],
        source: Path | None,
        tool: str,
        hooks_config: str | None,
        invariants: Mapping[str, Any],
        model: bool,
        arguments: str = "",
    ) -> None:
        self.space = space
        self.base = base
        self.source = source
        self.tool = tool
        self.hooks_config = hooks_config
        self.invariants = dict(invariants)
        self.model = model
        self.arguments = arguments  # the explore arguments that set this space, for the record

    def judge(self, scenario: Scenario, result: RunResult) -> list[Finding]:
        """Every invariant the run broke, the model's verdict first."""
        findings = []
        if self.model:
            want = gate_model.expected(scenario, result.calls)
            if want.races:
                window = gate_model.duration_text(want.config.window_ms)
                findings.append(
                    Finding(
                        MODEL,
                        [str(r) for r in want.races],
                        {"compactions_per_window": {"window": window, "max": 1}},
                    )
                )
            mismatches = gate_model.compare(want, result.calls)
            if mismatches:
                findings.append(
                    Finding(
                        MODEL,
                        [str(m) for m in mismatches],
                        {"calls_by_turn": {str(m.turn): m.expected for m in mismatches}},
                    )
                )
        built_in = builtin_checks.check(result)
        if built_in:
            # Every ``hooksim run`` makes these checks: the written file needs no expectation.
            findings.append(Finding("built-in checks", built_in, {}))
        for key, want in self.invariants.items():
            lines = expect.CHECKS[key](result, want)
            if lines:
                findings.append(Finding(key, lines, {key: want}))
        return findings

    def run(self, document: dict[str, Any]) -> list[Finding]:
        """Write the session as a scenario file, run it as ``hooksim run`` would, judge it."""
        with tempfile.TemporaryDirectory(prefix="hooksim-explore-") as tmp:
            path = Path(tmp) / "session.yaml"
            path.write_text(scenario_text(document), encoding="utf-8")
            scenario = load_scenario(path)
            if self.source is not None:
                # Hooks that name scripts beside their file find them ($HOOKSIM_SCENARIO_DIR).
                scenario = dataclasses.replace(scenario, path=self.source)
            result = run_scenario(
                scenario, tool=self.tool, hooks_config=self.hooks_config, workdir_root=tmp
            )
            return self.judge(scenario, result)

    def search(self, seed: int, budget: int, progress: Progress) -> Failure | None:
        """One Hypothesis search of ``budget`` examples; its shrunk failure, if any.

        A session is run once: drawn again (shrinking draws the same session in many ways),
        its verdict is reused, so a race decided once stays decided. Once ``shrink_runs``
        sessions have run while shrinking, the shrink ends with the smallest failing session so
        far (Hypothesis only tries sessions smaller than the one it holds, so that is the last
        one that failed).
        """
        count = 0
        found_at = 0
        found_s = 0.0
        verdicts: dict[str, list[Finding]] = {}
        smallest: SessionFailed | None = None

        def test(document: dict[str, Any]) -> None:
            nonlocal count, found_at, found_s, smallest
            if progress.failed.is_set() and not found_at:
                return  # another search found one: spend the rest of this budget on nothing
            key = scenario_text(document)
            findings = verdicts.get(key)
            if findings is None:
                if found_at and count - found_at >= self.space.shrink_runs:
                    raise _SearchEnded
                count += 1
                progress.tick()
                findings = verdicts[key] = self.run(document)
            if findings:
                if not found_at:
                    if not progress.claim():
                        raise _SearchEnded
                    found_at, found_s = count, time.monotonic() - progress.started
                smallest = SessionFailed(document, findings)
                raise smallest

        wrapped: Callable[[], None] = settings(
            max_examples=budget,
            database=None,
            deadline=None,
            derandomize=False,
            phases=(Phase.generate, Phase.shrink),
            report_multiple_bugs=False,
            suppress_health_check=list(HealthCheck),
            verbosity=Verbosity.quiet,
        )(hypothesis_seed(seed)(given(sessions(self.space, self.base))(test)))
        try:
            wrapped()
        except _SearchEnded:
            if smallest is None:
                return None
            failed = smallest
        except SessionFailed as e:
            failed = e
        except Exception as e:
            # A race (sessions of a gateway) may fail once and pass on Hypothesis' replay: it
            # reports FlakyFailure, which holds what failed.
            inner = [x for x in getattr(e, "exceptions", ()) if isinstance(x, SessionFailed)]
            if not inner:
                raise
            failed = inner[0]
        else:
            return None
        command = f"{self.arguments} --seed {seed} --examples {budget}".strip()
        return Failure(
            failed.findings[0], failed.document, seed, found_at, count, budget, found_s,
            command=command,
        )  # fmt: skip


def explore(
    explorer: Explorer,
    *,
    title: str,
    examples: int,
    seed: int,
    workers: int = 1,
    progress_stream: TextIO | None = None,
) -> Exploration:
    """Run ``workers`` searches side by side (seeds ``seed``, ``seed + 1``, ...), sharing
    ``examples``; stop them all once one fails."""
    workers = max(1, min(workers, examples))
    progress = Progress(examples, progress_stream)
    shares = [examples // workers + (i < examples % workers) for i in range(workers)]
    found: list[Failure | None] = [None] * workers
    errors: list[BaseException] = []

    def one(i: int) -> None:
        try:
            found[i] = explorer.search(seed + i, shares[i], progress)
        except BaseException as e:  # re-raised in the caller's thread
            errors.append(e)
            progress.failed.set()

    threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    progress.done()
    if errors:
        raise errors[0]
    return Exploration(
        title,
        seed,
        examples=progress.examples,
        seconds=time.monotonic() - progress.started,
        failures=_distinct(f for f in found if f is not None),
    )


def _distinct(failures: Iterable[Failure]) -> list[Failure]:
    """One of each failure: searches that fail at once often shrink to the same session."""
    seen: set[str] = set()
    kept = []
    for f in failures:
        key = scenario_text({**f.document, "expect": f.finding.expect})
        if key not in seen:
            seen.add(key)
            kept.append(f)
    return kept


def scenario_text(document: Mapping[str, Any], comment: str = "") -> str:
    """A scenario document as a YAML file: one flow-style line per step, ``comment`` on top."""
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    def flow(value: Any) -> Any:
        if isinstance(value, (dict, list)):
            node = CommentedMap(value) if isinstance(value, dict) else CommentedSeq(value)
            node.fa.set_flow_style()
            return node
        return value

    def flow_seq(value: list[Any]) -> Any:
        return flow(list(value))

    root = CommentedMap()
    for key, value in document.items():
        if key == "turns":
            root[key] = CommentedSeq(flow(step) for step in value)
        elif key == "sessions":
            root[key] = CommentedSeq(
                CommentedMap(
                    (k, CommentedSeq(flow(step) for step in v) if k == "turns" else v)
                    for k, v in session.items()
                )
                for session in value
            )
        elif key in ("env", "clock", "bridge", "session"):
            root[key] = flow(value)
        elif key == "expect":
            root[key] = CommentedMap(
                (
                    k,
                    CommentedMap((t, flow_seq(v[t])) for t in v)
                    if k == "calls_by_turn"
                    else flow(v),
                )
                for k, v in value.items()
            )
        else:
            root[key] = value
    if comment:
        root.yaml_set_start_comment(comment)
    yaml = YAML(typ="rt", pure=True)
    yaml.width = 100
    yaml.indent(mapping=2, sequence=4, offset=2)
    out = io.StringIO()
    yaml.dump(root, out)
    return out.getvalue()


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def write_failure(failure: Failure, out: Path, *, stem: str, replay_options: str = "") -> Path:
    """Write the shrunk session as a scenario file in ``out``; return its path."""
    finding = failure.finding
    document = dict(failure.document)
    document["name"] = f"explore: {finding.invariant} broken ({stem})"
    document.pop("description", None)
    document["expect"] = finding.expect
    body = scenario_text(document)
    digest = hashlib.sha1(body.encode()).hexdigest()[:8]
    path = out / f"{_slug(stem)}-{_slug(finding.invariant)}-{digest}.yaml"
    comment = "\n".join(
        [
            f"Found by hooksim explore at example {failure.found_at} of {failure.budget} (seed"
            f" {failure.seed}); shrunk in {failure.runs - failure.found_at} more runs to"
            f" {failure.steps} step{'s' * (failure.steps != 1)}.",
            f"Found again by: hooksim explore {failure.command}{replay_options}",
            f"Failing invariant, {finding.invariant}: {finding.lines[0]}",
            f"Replay: hooksim run {path}{replay_options}",
            "Keep it: move it into scenarios/ once the hook is fixed.",
        ]
    )
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(scenario_text(document, comment), encoding="utf-8")
    failure.path = path
    return path


def summary(exploration: Exploration, replay_options: str = "") -> str:
    """What a person reads at the end: examples, time, and each failure with its file."""
    per_min = exploration.examples / exploration.seconds * 60 if exploration.seconds else 0.0
    lines = [
        f"{exploration.title}: {exploration.examples} examples in {exploration.seconds:.1f}s"
        f" ({per_min:.0f}/min), seed {exploration.seed}"
    ]
    for f in exploration.failures:
        lines.append(f"  FAIL {f.finding.invariant}: {f.finding.lines[0]}")
        lines += [f"       {line}" for line in f.finding.lines[1:4]]
        lines.append(
            f"       found at example {f.found_at} (seed {f.seed}) after {f.found_s:.1f}s,"
            f" shrunk to {f.steps}"
            f" step{'s' * (f.steps != 1)} in {f.runs - f.found_at} more runs"
        )
        if f.path is not None:
            lines.append(
                f"       written to {f.path}; replay: hooksim run {f.path}{replay_options}"
            )
    if not exploration.failures:
        lines.append("  no invariant failed")
    return "\n".join(lines)
