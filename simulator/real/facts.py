"""Facts about a real host, read from its runs, release by release, as one Markdown table.

``hooksim conformance`` runs the same scenarios on several releases of a host, each compared
with hooksim's replay of that release (``compare.compare_real``). Nothing here is stated in
advance: every fact is read from what the runs recorded.

- the verdict of each scenario: its expectations on the real host, and how many differences
  from the replay the profile does not tolerate;
- which events fired, and the fields of each event's payload;
- which hook output reached the model or the user (each form a hook used: a JSON field, plain
  stdout, the stderr of an exit other than 0 and 1), and which firings a hook asked to block
  the host did block;
- the shell the hooks ran in and the variables the host added to their environment;
- each difference outside the tolerances, with the real value and hooksim's;
- what a host's driver reads from the installed release itself, outside any scenario
  (``ReleaseRun.checks``: Hermes' own parser on what ``hermes-hooks install`` writes, and
  ``hermes-hooks verify`` after the release's consent).

``table`` lays the facts out with one column per release, oldest first, and a last column
saying from which release on the newest value holds. The table is also the record a later run
is checked against: ``recorded`` reads it back from a page (the newest column of a host's
table, and the scenario files it was made on), ``column`` reads one release's facts the same
way, and ``changes`` names each fact that differs between the two.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..hosts import HookRun, contains
from .compare import Comparison
from .hook_recorder import PROBE
from .install import Installed
from .observable import payload_of
from .result import RealRun

# Variables the shell running a hook sets, not the host.
_SHELL_SET = frozenset({"PWD", "OLDPWD", "SHLVL", "_"})
# JSON output fields whose text a host may hand the model or show the user.
_TEXT_FIELDS = ("reason", "systemMessage", "stopReason", "followup_message", "agent_message")
_SPECIFIC_TEXT_FIELDS = ("additionalContext", "permissionDecisionReason")
_CELL = 90  # characters a cell shows


@dataclass
class ScenarioRun:
    """One scenario on one release: the comparison, or why it could not run."""

    path: str
    comparison: Comparison | None = None
    failures: list[str] = field(default_factory=list)  # expectations the real run failed
    error: str | None = None
    seconds: float = 0.0


@dataclass
class ReleaseRun:
    """One release of a host: where it was installed from, and its scenarios."""

    version: str
    installed: Installed | None = None
    error: str | None = None  # why it did not run at all (npm could not install it)
    runs: list[ScenarioRun] = field(default_factory=list)
    checks: dict[str, str] = field(default_factory=dict)  # a row's name -> the release's value

    @property
    def failing(self) -> int:
        """Scenarios that did not run, failed an expectation or differ outside tolerances."""
        return sum(
            bool(r.error or r.failures or (r.comparison and r.comparison.failing))
            for r in self.runs
        ) + bool(self.error)


# What a release's package asks of its runtime, by the tool that installed it.
_NEEDS = {"npm": "engines.node of its package", "pip": "Requires-Python of its package"}
# Each group of facts, in the table's order; a group's missing value (a fact one release did
# not show at all).
_GROUPS = {
    "release": "-",
    "checks": "-",
    "scenario": "-",
    "fires": "no",
    "payload": "-",
    "output": "-",
    "blocks": "-",
    "hooks": "-",
    "difference": "same",
}


def facts(release: ReleaseRun) -> dict[tuple[str, str], str]:
    """Every fact one release's runs show, keyed by ``(group, label)``."""
    found: dict[tuple[str, str], str] = {}
    found.update(_release_facts(release))
    found.update((("checks", label), value) for label, value in release.checks.items())
    for run in release.runs:
        found[("scenario", run.path)] = _verdict(run)
        if run.comparison is None:
            continue
        for group, label, value in _run_facts(run.comparison.real):
            _merge(found, (group, label), value)
        for diff in run.comparison.failing:
            _merge(found, ("difference", diff.key), f"real {diff.real}, hooksim {diff.hooksim}")
    return found


def _release_facts(release: ReleaseRun) -> dict[tuple[str, str], str]:
    if release.error is not None:
        return {("release", "installed"): f"no: {release.error}"}
    assert release.installed is not None
    versions = {r.comparison.real.version for r in release.runs if r.comparison}
    ran = sum(r.seconds for r in release.runs)
    return {
        ("release", "--version says"): ", ".join(sorted(versions)) or "-",
        ("release", _NEEDS[release.installed.by]): release.installed.needs,
        ("release", f"{release.installed.by} install"): f"{release.installed.seconds:.0f}s"
        if release.installed.seconds
        else "cached",
        ("release", "scenarios run"): f"{len(release.runs)} in {ran:.0f}s",
        ("release", "scenarios passing"): f"{len(release.runs) - release.failing}"
        f" of {len(release.runs)}",
    }


def _verdict(run: ScenarioRun) -> str:
    if run.error is not None:
        return f"error: {run.error}"
    assert run.comparison is not None
    diffs = len(run.comparison.failing)
    if not run.failures and not diffs:
        return "pass"
    said = []
    if run.failures:
        said.append(
            f"fails {run.failures[0]}"
            + (f" (+{len(run.failures) - 1})" if len(run.failures) > 1 else "")
        )
    if diffs:
        said.append(f"{diffs} differences")
    return "; ".join(said)


def _merge(found: dict[tuple[str, str], str], key: tuple[str, str], value: str) -> None:
    """Add a value to a fact: ``yes`` wins over ``no``; other values are listed once each."""
    old = found.get(key)
    if old is None or old == value:
        found[key] = value
    elif {old, value} == {"yes", "no"}:
        found[key] = "yes"
    elif value not in old.split("; "):
        found[key] = f"{old}; {value}"


def _run_facts(real: RealRun) -> Iterator[tuple[str, str, str]]:
    """The facts of one real run: events and payloads from the probes, the shell and the
    variables from the hooks' records, output and blocks from the result. A host whose hooks
    run in its own process (OpenClaw) has no hook records: the events it fired are read from
    the result."""
    hook_records = [r for r in real.records if "kind" not in r]  # OpenClaw's spy writes kinds
    if not any(r["id"] == PROBE for r in hook_records):
        for firing in real.result.firings:
            yield "fires", firing.event, "yes"
    for record in hook_records:
        if record["id"] == PROBE:
            yield "fires", record["event"], "yes"
            yield "payload", f"{record['event']} payload", ", ".join(sorted(payload_of(record)))
            continue
        if record.get("shell"):
            yield "hooks", "shell", " ".join(record["shell"])
        added = sorted(
            k
            for k in record.get("env", {})
            if k not in real.launch_env and k not in _SHELL_SET and not k.startswith("HOOKSIM_")
        )
        yield "hooks", "variables the host adds", ", ".join(added) or "none"
    for firing in real.result.firings:
        for run in firing.runs:
            for form, text in output_forms(run):
                reached = contains(run.context or "", text) or contains(run.shown or "", text)
                label = f"{firing.event}: {form} reaches the model or user"
                yield "output", label, "yes" if reached else "no"
            if asks_to_block(run):
                label = f"{firing.event}: blocked when a hook asks"
                yield "blocks", label, "yes" if firing.blocked else "no"


def asks_to_block(run: HookRun) -> bool:
    """Whether a hook asked its host to block or stop: exit 2, or a JSON decision to."""
    if run.exit_code == 2:
        return True
    output = _json(run.stdout)
    specific = output.get("hookSpecificOutput")
    decision = specific.get("permissionDecision") if isinstance(specific, dict) else None
    return (
        output.get("decision") in ("block", "deny")
        or decision == "deny"
        or output.get("continue") is False
    )


def output_forms(run: HookRun) -> list[tuple[str, str]]:
    """Each form of output a hook used, with its text: a JSON text field, plain stdout, the
    stderr of an exit other than 0 and 1."""
    forms: list[tuple[str, str]] = []
    output = _json(run.stdout)
    if output:
        specific = output.get("hookSpecificOutput")
        for name in _SPECIFIC_TEXT_FIELDS:
            value = specific.get(name) if isinstance(specific, dict) else None
            if isinstance(value, str) and value.strip():
                forms.append((f"hookSpecificOutput.{name}", value.strip()))
        forms += [
            (name, output[name].strip())
            for name in _TEXT_FIELDS
            if isinstance(output.get(name), str) and output[name].strip()
        ]
    elif run.stdout.strip():
        forms.append(("plain stdout", run.stdout.strip()))
    if run.exit_code not in (0, 1, None) and run.stderr.strip():
        forms.append((f"stderr of exit {run.exit_code}", run.stderr.strip()))
    return forms


def _json(text: str) -> dict[str, Any]:
    stripped = text.strip()
    if not stripped.startswith("{"):
        return {}
    try:
        value = json.loads(stripped)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def table(releases: list[ReleaseRun]) -> str:
    """The facts of every release as a Markdown table: a row per fact, a column per release
    (oldest first), and the release from which on the newest value holds."""
    ordered = sorted(releases, key=lambda r: release_key(r.version))
    found = [facts(r) for r in ordered]
    keys = sorted({k for f in found for k in f}, key=lambda k: (list(_GROUPS).index(k[0]), k[1]))
    head = ["fact", *(r.version for r in ordered), "holds from"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for group, label in keys:
        values = [
            f.get((group, label), _missing(group, r)) for f, r in zip(found, ordered, strict=True)
        ]
        since = _holds_from([r.version for r in ordered], values)
        name = f"{_GROUP_WORDS[group]}: {label}" if _GROUP_WORDS[group] else label
        cells = [_cell(name, cut=False), *(_cell(v) for v in values), since]  # a name is whole
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


_GROUP_WORDS = {
    "release": "",
    "checks": "",
    "scenario": "scenario",
    "fires": "fires",
    "payload": "",
    "output": "",
    "blocks": "",
    "hooks": "hooks",
    "difference": "difference",
}


def _missing(group: str, release: ReleaseRun) -> str:
    """A fact a release did not show: ``-`` when it did not run at all."""
    return "-" if release.error is not None else _GROUPS[group]


def _holds_from(versions: list[str], values: list[str]) -> str:
    """The oldest release from which on every value equals the newest one."""
    since = len(values) - 1
    while since > 0 and values[since - 1] == values[-1]:
        since -= 1
    return "every release" if since == 0 else versions[since]


def _cell(text: str, *, cut: bool = True) -> str:
    """A value as one Markdown table cell: one line, pipes escaped, long values cut."""
    one = " ".join(text.split())
    if cut and len(one) > _CELL:
        one = one[: _CELL - 3] + "..."
    return one.replace("|", "\\|")


def release_key(version: str) -> tuple[tuple[int, ...], bool, str]:
    """Orders releases by their numbers; a pre-release (``2026.9.1-beta.1``, ``0.20.0rc1``)
    comes before the final release of its numbers."""
    numbers = re.match(r"\d+(?:\.\d+)*", version)
    head = numbers.group(0) if numbers else ""
    rest = version[len(head) :]
    return tuple(int(p) for p in head.split(".") if p), not rest, rest


# Rows that differ from one run to the next with nothing changed in the host: its version, how
# long its install and its scenarios took.
_VOLATILE = ("--version says", "npm install", "pip install", "scenarios run")
_MISSING_BY_WORD = {"fires": "no", "difference": "same"}


@dataclass(frozen=True)
class Recorded:
    """A host's table as a page holds it: its newest release, that release's facts by row
    name, and the scenario files the table was made on."""

    version: str
    facts: dict[str, str]
    paths: list[str]


def recorded(page: str, start: str, end: str) -> Recorded | None:
    """The table between the markers ``start`` and ``end`` of ``page``, read back (None: the
    page has no such part, or no table in it)."""
    if start not in page or end not in page:
        return None
    part = page.split(start, 1)[1].split(end, 1)[0]
    made_on = re.search(r"\) on (.+?):\n", part)
    parsed = _rows(part)
    if not parsed:
        return None
    head, rows = parsed
    newest = len(head) - 2  # the last release's column; "holds from" follows it
    facts = {name: cells[newest - 1] for name, cells in rows.items() if len(cells) >= newest}
    return Recorded(head[newest], facts, made_on.group(1).split() if made_on else [])


def column(release: ReleaseRun) -> dict[str, str]:
    """One release's facts by row name, as its table shows them."""
    parsed = _rows(table([release]))
    assert parsed is not None
    return {name: cells[0] for name, cells in parsed[1].items()}


def changes(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """Each fact that differs, as ``NAME: BEFORE -> AFTER`` (a side without the row has the
    table's value for a fact not shown: ``no``, ``same`` or ``-``), ``_VOLATILE`` left out."""
    found = []
    for name in sorted(before.keys() | after.keys()):
        if name in _VOLATILE:
            continue
        missing = _MISSING_BY_WORD.get(name.split(":", 1)[0], "-")
        old, new = before.get(name, missing), after.get(name, missing)
        if old != new:
            found.append(f"{name}: {old} -> {new}")
    return found


def _rows(text: str) -> tuple[list[str], dict[str, list[str]]] | None:
    """The first Markdown table of ``text``: its head and its rows by their first cell."""
    head: list[str] | None = None
    rows: dict[str, list[str]] = {}
    for line in text.splitlines():
        if not line.startswith("| "):
            if head is not None and rows:
                break
            continue
        cells = [
            c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\) \| ", line.strip()[2:-2])
        ]
        if head is None:
            head = cells
        else:
            rows[cells[0]] = cells[1:]
    return None if head is None else (head, rows)
