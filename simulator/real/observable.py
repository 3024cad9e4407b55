"""What a hook can observe of its run, in a form in which a real run and a replay compare.

Two runs of one session differ by nature in a few values, and only in those: each is mapped to
a placeholder here, and ``RUN_TIME`` says why hooksim cannot reproduce it. Everything else a
hook can see is compared as it is.

- the work directory each run makes for itself: ``<workdir>`` (also as a path-derived name,
  each character but letters and digits turned into ``-``, as Claude Code names a project's
  folder);
- the folder the host is installed in, the machine's and not the session's: ``<install>``;
- ids the host draws at random (session, turn, prompt, tool-call ids, any UUID): ``<NAME N>``,
  ``N`` the rank of the value's first appearance in the run, so which firings share an id stays
  visible while its value does not;
- the wall clock (payload ``timestamp`` and ``duration_ms``, dates in file names): ``<time>``;
- the process that started the hook (``CLAUDE_PID``): ``<host pid>``;
- a host's own run-time names (``Host.run_time_names``: pattern -> placeholder and the reason,
  such as a temporary folder's random suffix);
- the host's release where it names itself in a value (Claude Code's ``AI_AGENT``,
  ``claude-code_2-1-337_harness``): ``<version>``, the real run's from its ``--version``, the
  replay's the profile's.

Around the values, what the stdin bytes look like (separators, a trailing newline, how non-ASCII
is written: ``stdin_format``), the order of a payload's keys (``key_orders``), and what the
host added to, changed in or removed from the environment it was started with
(``environment_changes``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ..hosts.output import json_object

A = TypeVar("A")
B = TypeVar("B")

# Why each kind of value is mapped rather than compared: what hooksim cannot reproduce.
RUN_TIME = {
    "<workdir>": "each run makes its own work directory",
    "<install>": "where the host is installed is the machine's, not the session's",
    "ids": "the host draws its ids at random; their ranks (which firings share one) compare",
    "<time>": "the real host reads the wall clock; a replay runs on the scenario's clock",
    "<host pid>": "a process id is the kernel's; both name the process that started the hook",
    "<model>": "a scenario without session.model: the real host names its own default model",
    "<version>": "a newer release than the profile's names itself in its values (AI_AGENT)",
}
# Fields whose values are ids by name (besides every field ending in ``_id``).
ID_FIELDS = frozenset(
    {
        "session_id",
        "prompt_id",
        "tool_use_id",
        "turn_id",
        "conversation_id",
        "generation_id",
        "tool_call_id",
        "task_id",
        "id",
    }
)
TIME_FIELDS = frozenset({"timestamp", "duration_ms"})
MODEL_FIELDS = frozenset({"model"})
# Set by the shell that runs the hook (compared as the shell), and hooksim's own plumbing.
SHELL_VARIABLES = frozenset({"PWD", "OLDPWD", "SHLVL", "_"})
PLUMBING_PREFIXES = ("HOOKSIM_",)
UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
# Dates as hosts put them in file names and paths: 2026-12-01T14-56-19, 2026/12/01.
# Seconds are optional (Gemini CLI names a chat file to the minute, then an id's first eight
# characters, so two digits followed by a hex digit are the id's).
# And a date in words (Gemini CLI's session context: "Tuesday, December 1, 2026").
DATES = re.compile(
    r"\d{4}-\d{2}-\d{2}T\d{2}[-:]\d{2}(?:[-:]\d{2}(?![0-9a-fA-F]))?(?:\.\d+)?Z?|\d{4}/\d{2}/\d{2}"
    r"|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, [A-Z][a-z]+ \d{1,2}, \d{4}"
)


def is_id_field(name: str) -> bool:
    return name in ID_FIELDS or name.endswith("_id")


def same_occurrences(
    real: Sequence[A], sim: Sequence[B], event: Callable[[Any], str]
) -> Iterator[tuple[A, B]]:
    """The items of one turn on both sides that stand for the same firing: the same event, the
    same time it fired in the turn (the second Stop with the second Stop)."""
    seen: Counter[str] = Counter()
    index: dict[tuple[str, int], B] = {}
    for theirs in sim:
        seen[event(theirs)] += 1
        index[(event(theirs), seen[event(theirs)])] = theirs
    seen.clear()
    for ours in real:
        seen[event(ours)] += 1
        other = index.get((event(ours), seen[event(ours)]))
        if other is not None:
            yield ours, other


def payload_of(record: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON object a recorded hook got on stdin ({} when it was not one)."""
    return json_object(str(record.get("stdin") or ""))


@dataclass
class Observer:
    """One run's values mapped for comparison (see the module's docstring).

    ``roots`` are the run's work directories (a replay has the recorder's folder around its
    own), ``install`` the folder the host is installed in, ``names`` the host's run-time
    names (pattern -> placeholder, and why it is picked at run time).
    """

    records: list[dict[str, Any]]
    roots: tuple[str, ...]
    install: str = ""
    names: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    ids: dict[str, str] = field(default_factory=dict)  # id value -> <FIELD N>
    version: str = ""  # the host's release, named in its values as 2.1.337 or 2-1-337
    # Other folders that read as <install>: on the replay's side, the real host's install,
    # which a hook's command may name as written (Hermes' hook package in the host's venv).
    aliases: tuple[str, ...] = ()
    _pattern: tuple[int, re.Pattern[str]] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        ranks: dict[str, int] = {}
        for record in sorted(self.records, key=lambda r: (r.get("start", 0), r.get("pid", 0))):
            for name, value in _id_values(payload_of(record)):
                if value in self.ids:
                    continue
                ranks[name] = ranks.get(name, 0) + 1
                self.ids[value] = f"<{name} {ranks[name]}>"

    def _label(self, match: re.Match[str]) -> str:
        found = match.group(0)
        if found in self.ids:
            return self.ids[found]
        return next(f"{label}[:8]" for v, label in self.ids.items() if v[:8] == found)

    def _known(self) -> re.Pattern[str]:
        """Any known id as a whole word (``call_1`` is not part of ``call_12``), or the first
        eight characters of a long one (Gemini CLI names a chat file after them)."""
        if self._pattern is None or self._pattern[0] != len(self.ids):
            prefixes = {v[:8] for v in self.ids if len(v) > 8}
            values = sorted({*self.ids, *prefixes}, key=len, reverse=True)
            words = "|".join(map(re.escape, values)) or "(?!)"
            pattern = re.compile(rf"(?<![A-Za-z0-9_])(?:{words})(?![A-Za-z0-9_])")
            self._pattern = (len(self.ids), pattern)
        return self._pattern[1]

    def value(self, value: Any, name: str = "", record: Mapping[str, Any] | None = None) -> Any:
        """A payload (or environment) value with what differs by nature mapped."""
        if name in TIME_FIELDS:
            return "<time>" if value is not None else value
        if name in MODEL_FIELDS:
            return "<model>" if value else value
        if isinstance(value, dict):
            return {k: self.value(v, k, record) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(v, name, record) for v in value]
        if isinstance(value, str):
            return self.text(value, record)
        return value

    def text(self, text: str, record: Mapping[str, Any] | None = None) -> str:
        """A string with paths, ids, dates, the host's pid and run-time names mapped."""
        if record is not None and text == str(record.get("host_pid", "")):
            return "<host pid>"
        for install in (self.install, *self.aliases):
            if install:
                text = re.sub(re.escape(install) + r"(?![A-Za-z0-9_.])", "<install>", text)
        for root in self.roots:
            for form in (root, re.sub(r"[^A-Za-z0-9]", "-", root)):
                text = re.sub(re.escape(form) + r"(?![A-Za-z0-9_.])", "<workdir>", text)
        text = self._known().sub(self._label, text)
        text = self._uuids(text)
        text = DATES.sub("<time>", text)
        for pattern, (placeholder, _why) in self.names.items():
            text = re.sub(pattern, placeholder, text)
        if self.version:
            for form in {self.version, self.version.replace(".", "-")}:
                text = re.sub(rf"(?<![0-9.-]){re.escape(form)}(?![0-9])", "<version>", text)
        return text

    def _uuids(self, text: str) -> str:
        """A UUID no payload names as an id still reads as one, ranked on its own."""

        def rank(match: re.Match[str]) -> str:
            value = match.group(0)
            if value not in self.ids:
                n = sum(1 for label in self.ids.values() if label.startswith("<uuid ")) + 1
                self.ids[value] = f"<uuid {n}>"
            return self.ids[value]

        return UUID.sub(rank, text)


def _id_values(value: Any, name: str = "") -> Iterator[tuple[str, str]]:
    """Each (field, value) of a payload whose field names an id, in the payload's order."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str) and item and is_id_field(key):
                yield key, item
            else:
                yield from _id_values(item, key)
    elif isinstance(value, list):
        for item in value:
            yield from _id_values(item, name)


def environment_changes(
    env: Mapping[str, str], base: Mapping[str, str]
) -> dict[str, tuple[str, str | None]]:
    """What the host added to, changed in or removed from the environment it was started with,
    as ``name -> (how, value)``: ``("set", VALUE)``, ``("prefix", PREFIX)`` or ``("suffix",
    SUFFIX)`` of the variable's old value, or ``("unset", None)``. The shell's own variables
    and hooksim's plumbing are left out (the shell is compared as such)."""
    changes: dict[str, tuple[str, str | None]] = {}
    for name in sorted(set(env) | set(base)):
        if name in SHELL_VARIABLES or name.startswith(PLUMBING_PREFIXES):
            continue
        new, old = env.get(name), base.get(name)
        if new == old:
            continue
        if new is None:
            changes[name] = ("unset", None)
        elif old and new.endswith(old) and new != old:
            changes[name] = ("prefix", new[: -len(old)])
        elif old and new.startswith(old):
            changes[name] = ("suffix", new[len(old) :])
        else:
            changes[name] = ("set", new)
    return changes


def stdin_format(stdin: str) -> dict[str, str]:
    """How the stdin bytes are written, apart from what they say: the separators after ``:``
    and ``,``, whether the JSON spans lines, what follows it, and how non-ASCII text and ``/``
    are written (each only where the text has one)."""
    body = stdin.rstrip()
    outside = _outside_strings(body)
    found = {
        "lines": "several" if "\n" in outside else "one",
        "ends with": repr(stdin[len(body) :]),
    }
    for mark, name in ((":", "after :"), (",", "after ,")):
        after = sorted(set(re.findall(re.escape(mark) + r"([ \t]*)", outside)))
        if after:
            found[name] = " or ".join(repr(a) for a in after)
    if re.search(r"\\u00[89a-fA-F][0-9a-fA-F]|\\u0[1-9a-fA-F][0-9a-fA-F]{2}|\\u[1-9a-fA-F]", body):
        found["non-ASCII"] = "escaped"
    elif any(ord(c) > 127 for c in body):
        found["non-ASCII"] = "as UTF-8"
    if "\\/" in body:
        found["slash"] = "escaped"
    return found


def _outside_strings(text: str) -> str:
    """The JSON text with every string's content taken out (its quotes stay)."""
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)


def key_orders(real: Any, sim: Any, path: str = "") -> Iterator[tuple[str, list[str], list[str]]]:
    """Each object (by path) whose keys present on both sides come in another order."""
    if isinstance(real, dict) and isinstance(sim, dict):
        common_real = [k for k in real if k in sim]
        common_sim = [k for k in sim if k in real]
        if common_real != common_sim:
            yield path or "(top)", common_real, common_sim
        for key in common_real:
            yield from key_orders(real[key], sim[key], f"{path}.{key}" if path else key)
    elif isinstance(real, list) and isinstance(sim, list):
        for n, (r, s) in enumerate(zip(real, sim, strict=False)):
            yield from key_orders(r, s, f"{path}[{n}]")


def install_root(binary: str) -> str:
    """The folder a host's executable was installed into: for an npm package, the folder that
    holds its ``node_modules``; else the folder above the executable's own."""
    path = Path(binary).resolve()
    for parent in path.parents:
        if parent.name == "node_modules":
            return str(parent.parent)
    return str(path.parent.parent)


def shell_of(record: Mapping[str, Any]) -> list[str]:
    """The program (and options) the host ran the hook's command with; [] without a shell. A
    watched hook's is the shell the recorder became, the host's own (``$0 -c``)."""
    if record.get("watched"):
        return [str(p) for p in record.get("shell") or []]
    parent = [str(p) for p in record.get("parent") or []]
    if len(parent) >= 2 and "hooksim.real.hook_recorder" in parent[-1]:
        return parent[:-1]
    return []


def command_of(record: Mapping[str, Any]) -> str:
    """The command line the shell was given (the host may rewrite a hook's command; a watched
    hook's is the one its shell ran)."""
    if record.get("watched") and record.get("shell"):
        return str(record.get("command") or "")
    parent = [str(p) for p in record.get("parent") or []]
    return parent[-1] if shell_of(record) else " ".join(str(a) for a in record.get("argv") or [])


__all__ = [
    "RUN_TIME",
    "Observer",
    "command_of",
    "environment_changes",
    "install_root",
    "is_id_field",
    "key_orders",
    "payload_of",
    "shell_of",
    "stdin_format",
]
