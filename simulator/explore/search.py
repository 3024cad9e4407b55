"""Generated sessions against real hooks: Hypothesis draws, hooksim runs, an oracle judges.

Each example is a session drawn from a ``Space`` (``hooksim.explore.session_space``), written as a
scenario file, loaded and run by hooksim's runner like any other (real hook processes, virtual
clock, mock bridge), then judged by

- the model of the compaction gate (``hooksim.explore.gate_model``), call for call, when the hooks are
  hermes-hooks' own or another implementation of the same contract (``--hooks-config``);
- the scenario's ``invariants:`` (the expectations that hold for every session);
- the built-in checks every ``hooksim run`` makes (a hook that cannot run, a loop hooksim had to
  cut, and the like), as the space file's ``checks:`` opts in or out. Two of them judge whether
  a session's steps exercised its hooks, not the hooks (``matchers``, ``any_hook_ran``: a
  drawn session with no Bash call leaves a Bash hook idle): they are checked over every session
  drawn, at the end (``hooksim.explore.coverage``).

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
import os
import re
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.database import DirectoryBasedExampleDatabase

from ..judge import expect
from ..replay.runner import RunResult, run_scenario
from ..scenario import Scenario, load_scenario, parse_duration
from . import gate_model
from .coverage import Coverage, session_checks
from .session_space import Space, duration_text, sessions

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
    # Coverage checks the session fails (its steps leave a hook idle): off in its written file.
    checks_off: tuple[str, ...] = ()


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
    replayed: Path | None = None  # the example database it was first found in, if it was

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
    shard: tuple[int, int] = (1, 1)  # (K, N): the K-th of N shards of the seeds
    examples: int = 0
    seconds: float = 0.0
    failures: list[Failure] = field(default_factory=list)
    idle: list[str] = field(default_factory=list)  # hooks no drawn session ran (``Coverage``)


class Progress:
    """Examples run so far, across searches: printed in place on a terminal, and as a line a
    minute elsewhere (a CI log), so that a long search is not silent."""

    def __init__(
        self, budget: int, stream: TextIO | None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.budget = budget
        self.stream = stream
        self.terminal = stream is not None and stream.isatty()
        self.clock = clock
        self.examples = 0
        self.failed = threading.Event()
        self.started = clock()
        self._lock = threading.Lock()
        self._shown = self.started

    def claim(self) -> bool:
        """True for the first search to find a failure (it shrinks it; the others stop)."""
        with self._lock:
            first = not self.failed.is_set()
            self.failed.set()
            return first

    def tick(self) -> None:
        with self._lock:
            self.examples += 1
            now = self.clock()
            if self.stream is None or now - self._shown < (0.5 if self.terminal else 60.0):
                return
            self._shown = now
            state = "shrinking a failure" if self.failed.is_set() else "no failure yet"
            line = f"explore: {self.examples} examples, {now - self.started:.0f}s, {state}"
            self.stream.write(f"\r{line}  " if self.terminal else f"{line}\n")
            self.stream.flush()

    def done(self) -> None:
        if self.stream is not None and self.terminal:
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
        self.coverage = Coverage(base.get("checks", True), tool)

    def judge(self, scenario: Scenario, result: RunResult) -> list[Finding]:
        """Every invariant the run broke, the model's verdict first."""
        self.coverage.add(result)
        built_in, idle = session_checks(result)
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
        for name, lines in built_in.items():
            # Every ``hooksim run`` makes these checks: the written file needs no expectation.
            findings.append(Finding(f"built-in check {name}", lines, {}))
        for key, want in self.invariants.items():
            lines = expect.CHECKS[key](result, want)
            if lines:
                findings.append(Finding(key, lines, {key: want}))
        return [dataclasses.replace(f, checks_off=idle) for f in findings]

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

    def search(
        self, seed: int, budget: int, progress: Progress, database: Path | None = None
    ) -> Failure | None:
        """One Hypothesis search of ``budget`` examples; its shrunk failure, if any.

        A session is run once: drawn again (shrinking draws the same session in many ways),
        its verdict is reused, so a race decided once stays decided. Once ``shrink_runs``
        sessions have run while shrinking, the shrink ends with the smallest failing session so
        far (Hypothesis only tries sessions smaller than the one it holds, so that is the last
        one that failed).

        With a ``database`` (Hypothesis' directory database), the failures saved there for
        this space run first, and the failures found are saved there.
        """
        search = _Search(self, progress, database)
        failed = search.run(seed, budget)
        if failed is None:
            return None
        command = f"{self.arguments} --seed {seed} --examples {budget}".strip()
        return Failure(
            failed.findings[0],
            failed.document,
            seed,
            search.found_at,
            search.count,
            budget,
            search.found_s,
            command=command,
            replayed=database if search.found_at <= search.saved else None,
        )

    def database_key(self) -> bytes:
        """The key of this space's examples in a database: the same on every machine and for
        every seed and budget, so a failure one search saves is replayed by any other."""
        space = repr(dataclasses.replace(self.space, examples=0))
        text = f"{self.tool}\n{space}\n{scenario_text(self.base)}"
        return hashlib.sha256(text.encode()).hexdigest().encode()


class _Search:
    """The state of one search (``Explorer.search``): the sessions run and their verdicts, when
    the first failure was found, and the smallest failing session so far."""

    def __init__(
        self, explorer: Explorer, progress: Progress, database: Path | None = None
    ) -> None:
        self.explorer = explorer
        self.progress = progress
        self.database = None if database is None else DirectoryBasedExampleDatabase(database)
        self.saved = 0  # examples the database held for this space: the first ones run
        self.count = 0
        self.found_at = 0
        self.found_s = 0.0
        self.verdicts: dict[str, list[Finding]] = {}
        self.smallest: SessionFailed | None = None

    def test(self, document: dict[str, Any]) -> None:
        """The Hypothesis test: judge the session (run once), raise SessionFailed if it failed."""
        progress = self.progress
        if progress.failed.is_set() and not self.found_at:
            return  # another search found one: spend the rest of this budget on nothing
        key = scenario_text(document)
        findings = self.verdicts.get(key)
        if findings is None:
            if self.found_at and self.count - self.found_at >= self.explorer.space.shrink_runs:
                raise _SearchEnded
            self.count += 1
            progress.tick()
            findings = self.verdicts[key] = self.explorer.run(document)
        if findings:
            if not self.found_at:
                if not progress.claim():
                    raise _SearchEnded
                self.found_at, self.found_s = self.count, progress.clock() - progress.started
            self.smallest = SessionFailed(document, findings)
            raise self.smallest

    def run(self, seed: int, budget: int) -> SessionFailed | None:
        """Run the search with Hypothesis; the shrunk failing session, if any."""
        space, base = self.explorer.space, self.explorer.base
        key = self.explorer.database_key()
        if self.database is not None:
            self.saved = sum(1 for _ in self.database.fetch(key))
        wrapped: Callable[[], None] = settings(
            max_examples=budget,
            database=self.database,
            deadline=None,
            derandomize=False,
            phases=(Phase.reuse, Phase.generate, Phase.shrink),
            report_multiple_bugs=False,
            suppress_health_check=list(HealthCheck),
            verbosity=Verbosity.quiet,
        )(hypothesis_seed(seed)(given(sessions(space, base))(self.test)))
        wrapped._hypothesis_internal_database_key = key  # type: ignore[attr-defined]
        try:
            wrapped()
        except _SearchEnded:
            failed = self.smallest
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
        return None if failed is None else self.pruned(failed)

    def pruned(self, failed: SessionFailed) -> SessionFailed:
        """``failed`` without each step, then each tool call, it can do without: a deletion is
        kept when the session still breaks the same invariant. Hypothesis' shrinking, cut
        short at ``shrink_runs``, often stops a step or two above the smallest session."""
        invariant = failed.findings[0].invariant
        budget = self.explorer.space.prune_runs
        smaller = True
        while smaller and budget:
            smaller = False
            for candidate in _without_one(failed.document):
                key = scenario_text(candidate)
                findings = self.verdicts.get(key)
                if findings is None:
                    if not budget:
                        break
                    budget -= 1
                    self.count += 1
                    self.progress.tick()
                    findings = self.verdicts[key] = self.explorer.run(candidate)
                same = [f for f in findings if f.invariant == invariant]
                if same:
                    others = [f for f in findings if f.invariant != invariant]
                    failed, smaller = SessionFailed(candidate, same + others), True
                    break
        return failed


def _steps_of(document: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """Each session's steps (one list for a one-session document)."""
    if "sessions" in document:
        return [session["turns"] for session in document["sessions"]]
    return [document["turns"]]


def _with_steps(document: dict[str, Any], steps: list[list[dict[str, Any]]]) -> dict[str, Any]:
    if "sessions" not in document:
        return {**document, "turns": steps[0]}
    sessions = [{**s, "turns": t} for s, t in zip(document["sessions"], steps, strict=True)]
    return {**document, "sessions": sessions}


def _merged(step: dict[str, Any], into: dict[str, Any]) -> dict[str, Any]:
    """``into`` at the instant it had: the gap and clock change of a deleted ``step`` before it
    added to its own."""
    merged = dict(into)
    for key in ("after", "clock_back"):
        seconds = parse_duration(step.get(key, 0)) + parse_duration(into.get(key, 0))
        if seconds:
            merged[key] = duration_text(int(seconds))
    return {**{k: merged[k] for k in ("clock_back", "after") if k in merged}, **merged}


def _without_one(document: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The document with one step fewer (a session keeps at least one; the steps after it keep
    their instants), then with one tool call fewer."""
    steps = _steps_of(document)
    for k, session in enumerate(steps):
        for i in range(len(session) if len(session) > 1 else 0):
            kept = session[:i] + session[i + 1 :]
            if i < len(kept):
                kept[i] = _merged(session[i], kept[i])
            yield _with_steps(document, [kept if j == k else s for j, s in enumerate(steps)])
    for k, session in enumerate(steps):
        for i, step in enumerate(session):
            calls = step.get("tools", [])
            for c in range(len(calls)):
                fewer = calls[:c] + calls[c + 1 :]
                one = {key: v for key, v in step.items() if key != "tools"}
                if fewer:
                    one["tools"] = fewer
                kept = [one if n == i else s for n, s in enumerate(session)]
                yield _with_steps(document, [kept if j == k else s for j, s in enumerate(steps)])


def explore(
    explorer: Explorer,
    *,
    title: str,
    examples: int,
    seed: int,
    workers: int = 1,
    progress_stream: TextIO | None = None,
    shard: tuple[int, int] = (1, 1),
    database: Path | None = None,
) -> Exploration:
    """Run ``workers`` searches side by side, sharing ``examples``; stop them all once one
    fails. Shard K of N (``shard``) searches seeds ``seed + K - 1``, then ``+ N`` for each
    further search: the shards of one seed search disjoint seeds, whatever their ``workers``.
    ``database``: Hypothesis' example database, shared by the searches (``Explorer.search``)."""
    workers = max(1, min(workers, examples))
    k, n = shard
    progress = Progress(examples, progress_stream)
    explorer.coverage = Coverage(explorer.base.get("checks", True), explorer.tool)
    shares = [examples // workers + (i < examples % workers) for i in range(workers)]
    found: list[Failure | None] = [None] * workers
    errors: list[BaseException] = []

    def one(i: int) -> None:
        try:
            found[i] = explorer.search(seed + k - 1 + i * n, shares[i], progress, database)
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
    failures = _distinct(f for f in found if f is not None)
    return Exploration(
        title,
        seed,
        shard=shard,
        examples=progress.examples,
        seconds=progress.clock() - progress.started,
        failures=failures,
        # Only of a search that found nothing else: a failure found early leaves hooks idle.
        idle=[] if failures else explorer.coverage.failures(),
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
    yaml.width = 1 << 20  # one line per step: a line broken inside a value may change it
    yaml.indent(mapping=2, sequence=4, offset=2)
    out = io.StringIO()
    yaml.dump(root, out)
    return out.getvalue()


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


# A hook command's path under the scenario's folder: ``$HOOKSIM_SCENARIO_DIR/../hooks/x.py``.
_SCENARIO_DIR = re.compile(
    r"(?P<var>\$\{HOOKSIM_SCENARIO_DIR\}|\$HOOKSIM_SCENARIO_DIR\b)(?P<path>/[^\s\"'`;&|<>()$]*)?"
)


def _relocated(value: Any, source_dir: Path, out: Path) -> Any:
    """``value`` (a hooks block) with each ``$HOOKSIM_SCENARIO_DIR`` path rewritten to reach the
    same file from a scenario file in ``out``: relative to it, or absolute when no relative
    path leads there (another drive)."""
    if isinstance(value, dict):
        return {k: _relocated(v, source_dir, out) for k, v in value.items()}
    if isinstance(value, list):
        return [_relocated(v, source_dir, out) for v in value]
    if not isinstance(value, str):
        return value

    def one(found: re.Match[str]) -> str:
        target = os.path.normpath(source_dir / (found["path"] or "").lstrip("/"))
        try:
            path = os.path.relpath(target, out)
        except ValueError:
            return target
        return found["var"] if path == "." else f"{found['var']}/{path}"

    return _SCENARIO_DIR.sub(one, value)


def _relocated_document(document: dict[str, Any], source: Path, out: Path) -> dict[str, Any]:
    """The drawn document as a file in ``out``: its hooks (and each host's) still find the
    scripts they named beside ``source``."""
    source_dir, out = source.resolve().parent, out.resolve()
    moved = dict(document)
    if "hooks" in moved:
        moved["hooks"] = _relocated(moved["hooks"], source_dir, out)
    if isinstance(moved.get("hosts"), dict):
        moved["hosts"] = {
            name: {**part, "hooks": _relocated(part["hooks"], source_dir, out)}
            if isinstance(part, dict) and "hooks" in part
            else part
            for name, part in moved["hosts"].items()
        }
    return moved


def _checks_off(checks: Any, names: tuple[str, ...]) -> Any:
    """The document's ``checks`` with ``names`` turned off."""
    if checks is False or not names:
        return checks
    return {**(checks if isinstance(checks, dict) else {}), **dict.fromkeys(names, False)}


def write_failure(
    failure: Failure,
    out: Path,
    *,
    stem: str,
    replay_options: str = "",
    source: Path | None = None,
) -> Path:
    """Write the shrunk session as a scenario file in ``out``; return its path.

    Hook commands that name scripts beside ``source`` (``$HOOKSIM_SCENARIO_DIR/...``) are
    rewritten to name them from ``out``, so the file replays wherever ``out`` is.
    """
    finding = failure.finding
    document = dict(failure.document)
    document["name"] = f"explore: {finding.invariant} broken ({stem})"
    document.pop("description", None)
    notes = []
    if source is not None:
        moved = _relocated_document(document, source, out)
        if moved != document:
            notes.append(
                f"Its $HOOKSIM_SCENARIO_DIR paths lead from {out} to the scripts beside {source}:"
                " change them if you move the file."
            )
        document = moved
    if finding.checks_off:
        # These checks judge whether the steps exercise every hook, not the hooks: the drawn
        # steps need not (explore held all its sessions together to them).
        document["checks"] = _checks_off(document.get("checks", True), finding.checks_off)
        notes.append(
            f"Built-in checks {', '.join(finding.checks_off)} are off: this session's steps"
            " leave some hook idle."
        )
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
            *notes,
            "Keep it: move it into scenarios/ once the hook is fixed.",
        ]
    )
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(scenario_text(document, comment), encoding="utf-8")
    failure.path = path
    return path


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' * (count != 1)}"


def summary(exploration: Exploration, replay_options: str = "") -> str:
    """What a person reads at the end: examples, time, each failure with its file, and each
    hook no drawn session ran."""
    per_min = exploration.examples / exploration.seconds * 60 if exploration.seconds else 0.0
    lines = [
        f"{exploration.title}: {_plural(exploration.examples, 'example')} in"
        f" {exploration.seconds:.1f}s ({per_min:.0f}/min), seed {exploration.seed}"
        + (", shard {}/{}".format(*exploration.shard) if exploration.shard[1] > 1 else "")
    ]
    for f in exploration.failures:
        replayed = f", replayed from {f.replayed}" if f.replayed else ""
        lines.append(f"  FAIL {f.finding.invariant}: {f.finding.lines[0]}")
        lines += [f"       {line}" for line in f.finding.lines[1:4]]
        lines.append(
            f"       found at example {f.found_at} (seed {f.seed}{replayed}) after {f.found_s:.1f}s,"
            f" shrunk to {_plural(f.steps, 'step')} in {_plural(f.runs - f.found_at, 'more run')}"
        )
        if f.path is not None:
            lines.append(
                f"       written to {f.path}; replay: hooksim run {f.path}{replay_options}"
            )
    lines += [f"  FAIL {line}" for line in exploration.idle]
    return "\n".join(lines)
