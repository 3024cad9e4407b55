"""Which configured hooks a host runs for one firing, and why each other one does not.

The profile answers every question: the settings that turn hooks off (``Host.disabled``), its
matcher rule (``Host.selects``, ``matches``), whether it runs an identical command once
(``dedupe``), in parallel or in order (``parallel``, a group's ``sequential``), and what its
user has not approved (``Host.unconsented``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from ..hosts import HookSpec, Host
from .configs import Config, shown, suggestion


@dataclass(frozen=True)
class Hook:
    """One configured hook: where it is written, its event and command, and why it does not
    run ("": it runs)."""

    file: str
    line: int
    event: str
    command: str
    why: str = ""

    @property
    def at(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file

    def data(self) -> dict[str, object]:
        shown: dict[str, object] = {"file": self.file, "line": self.line, "event": self.event}
        shown["command"] = self.command
        return {**shown, "why": self.why} if self.why else shown


@dataclass(frozen=True)
class Answer:
    """The hooks that run for a firing, in order, whether at once, and those that do not."""

    host: Host
    event: str
    value: str | None
    runs: list[Hook]
    not_run: list[Hook]
    parallel: bool
    notes: list[str]


def explain(host: Host, event: str, value: str | None, configs: list[Config]) -> Answer:
    """The answer for ``event`` (its matcher value ``value``: a tool, a source, a trigger)
    over the host's config files, in the order it reads them."""
    runs: list[tuple[HookSpec, Hook]] = []
    first_run: dict[str, HookSpec] = {}  # each command's first hook that runs
    not_run: list[tuple[int, int, Hook]] = []
    for rank, config in enumerate(configs):
        for spec in config.specs:
            hook = Hook(spec.source, spec.line, spec.event, spec.command)
            why = _why_not(host, spec, (event, value), (config, configs), first_run)
            if why:
                not_run.append((rank, spec.line, replace(hook, why=why)))
            else:
                runs.append((spec, hook))
                first_run.setdefault(spec.command, spec)
        for name, line, commands in config.unknown:
            why = f"{host.title} has no event {name!r}{suggestion(host, name)}"
            not_run += [(rank, line, Hook(config.file.shown, line, name, c, why)) for c in commands]
    parallel = host.parallel and not any(spec.sequential for spec, _ in runs)
    notes = []
    if host.trust and runs:  # the profile's words say which hooks its trust gate holds
        notes.append(f"note: {host.trust}")
    return Answer(
        host,
        event,
        value,
        [h for _, h in runs],
        [h for _, _, h in sorted(not_run, key=lambda n: n[:2])],
        parallel,
        notes,
    )


def _why_not(
    host: Host,
    spec: HookSpec,
    firing: tuple[str, str | None],
    read: tuple[Config, list[Config]],
    ran: dict[str, HookSpec],
) -> str:
    """Why the host does not run ``spec`` for a firing (its event and matcher value), ``read``
    being its file and all the files read, ``ran`` the first hook that runs of each command
    before it ("": it runs it)."""
    event, value = firing
    config, configs = read
    if spec.event != event:
        return f"on {spec.event}, not {event}"
    off = disabled(host, spec, config, configs)
    if off:
        return f"disabled: {off[0]}"
    if not host.selects(spec, value, {}):
        return matcher_miss(host, spec, value)
    unapproved = host.unconsented(spec, config.file.path.parent)
    if unapproved:
        return unapproved
    same = ran.get(spec.command)
    if host.dedupe and same is not None:
        where = f"{same.source}:{same.line}" if same.line else same.source
        return f"the same command as {where} ({host.title} runs an identical command once)"
    return ""


def disabled(
    host: Host, spec: HookSpec, config: Config, configs: list[Config]
) -> tuple[str, str] | None:
    """The setting that keeps ``spec`` (written in ``config``) from running, as ``SETTING in
    FILE:LINE``, and how to undo it there; None: no setting turns it off."""
    switch = host.disabled(spec, config.file.path, [c.file.path for c in configs])
    if switch is None:
        return None
    line = setting_line(switch.path, switch.keys)
    file = shown(switch.path)
    where = f"{file}:{line}" if line else file
    return f"{switch.setting} in {where}", f"in {file}, {switch.fix}"


def setting_line(path: Path, keys: tuple[str, ...]) -> int:
    """The 1-based line of a setting: the first line holding each of ``keys`` as a whole word,
    each at or after the line of the one before (JSON and TOML alike); 0: not found."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return 0
    at = 0
    for key in keys:
        word = re.compile(rf"(?<![\w-]){re.escape(key)}(?![\w-])")
        found = next((n for n in range(at, len(lines)) if word.search(lines[n])), None)
        if found is None:
            return 0
        at = found
    return at + 1 if keys else 0


def matcher_miss(host: Host, spec: HookSpec, value: str | None) -> str:
    """Why a matcher does not select ``value``, in the host's rule: case, anchoring, ``*``."""
    matcher = str(spec.matcher)
    if value is None:
        return (
            f"its matcher {matcher!r} selects by name: give one"
            f" (hooksim explain {host.name} {spec.event} NAME)"
        )
    said = f"its matcher {matcher!r} does not select {value!r}"
    if matcher == "*" and "*" not in host.match_all:
        return f"{said} ({host.title} reads '*' as a regex that selects nothing: drop the matcher)"
    if host.matches(replace(spec, matcher=matcher.lower()), value.lower()):
        return f"{said} ({host.title}'s tool names are case-sensitive: did you mean {value!r}?)"
    anchored = anchoring(host, matcher, value)
    if anchored:
        return f"{said} ({host.title} anchors a matcher at both ends: write {anchored!r})"
    return said


def anchoring(host: Host, matcher: str, value: str) -> str:
    """The matcher that selects ``value`` where the host tests the whole name (``re.fullmatch``)
    and ``matcher`` finds it only inside; "" when that is not why it misses."""
    if host.match_search:
        return ""
    try:
        found = re.search(matcher, value)
    except re.error:
        return ""
    if found is None:
        return ""
    return (
        ("" if found.start() == 0 else ".*") + matcher + ("" if found.end() == len(value) else ".*")
    )
