"""The settings the hooks run with, read as Hermes hands them over, for ``verify``.

Hermes passes its own environment to every hook (``agent/shell_hooks.py``: ``subprocess.run``
without ``env=``), and at start-up loads ``$HERMES_HOME/.env`` into it *over* the variables of
the shell that started it (hermes-agent 0.19.0, ``hermes_cli/env_loader.py``,
``load_hermes_dotenv``: ``load_dotenv(..., override=True)``; a gateway reloads it on each
run). So the hooks see the calling shell's variables with ``.env``'s on top, and an entry of
ours written ``env VAR=value ... stop`` adds its own for that one hook. ``.env`` is read with
python-dotenv, the library Hermes reads it with (the ``install`` extra); not on the hook's
per-turn path.

Each ``WAGGLE_*`` value is judged by the very functions the hooks use, so ``verify`` can say
when a value does not mean what it seems to: the design's truth table turns compaction on for
any value but ``''``, ``0`` and ``false`` (shared with the mind's other switches), so ``off``
turns it *on*; a timeout or window that is not a positive number is replaced by the default.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .bridge import DEFAULT_TIMEOUT_S, positive_number, timeout_from_env
from .compact_on_stop import DEFAULT_WINDOW_MS, is_compact_enabled, resolve_window_ms

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

DOTENV_FILENAME = ".env"
SHELL = "the calling shell"
# Values that read like "off" but are not off under the truth table.
_OFF_WORDS = frozenset({"off", "no", "n", "f", "disabled", "disable", "none", "never", "null"})


@dataclass
class HookEnvironment:
    """The variables a hook gets, and where each ``WAGGLE_*`` or ``HERMES_*`` one came from."""

    values: dict[str, str]
    sources: dict[str, str] = field(default_factory=dict)

    def source(self, name: str) -> str:
        return self.sources.get(name, SHELL)

    def with_assignments(self, assignments: Mapping[str, str], where: str) -> HookEnvironment:
        """This environment with an entry's ``env VAR=value`` prefix on top."""
        values = {**self.values, **assignments}
        sources = {**self.sources, **dict.fromkeys(assignments, where)}
        return HookEnvironment(values, sources)


def read_dotenv(path: str) -> dict[str, str]:
    """The variables a ``.env`` file sets, as Hermes' ``load_dotenv`` reads them.

    Missing file: nothing. UTF-8, else Latin-1 (Hermes' fallback). A name without a value
    sets nothing. Raises OSError when the file is there but cannot be read.
    """
    from dotenv import dotenv_values

    if not os.path.isfile(path):
        return {}
    try:
        values = dotenv_values(path, encoding="utf-8")
    except UnicodeDecodeError:
        values = dotenv_values(path, encoding="latin-1")
    return {name: value for name, value in values.items() if value is not None}


def hook_environment(home: str, shell: Mapping[str, str]) -> HookEnvironment:
    """The calling shell's environment with ``<home>/.env`` over it, as Hermes merges them."""
    path = os.path.join(home, DOTENV_FILENAME)
    dotenv = read_dotenv(path)
    return HookEnvironment({**shell, **dotenv}, dict.fromkeys(dotenv, path))


@dataclass(frozen=True)
class Judgement:
    """One setting as the hooks will read it: a status (ok/warn) and a line for the user."""

    status: str
    text: str


def _named(env: HookEnvironment, name: str) -> str:
    return f"{name}={env.values[name]!r} from {env.source(name)}"


def judge_compaction(env: HookEnvironment) -> list[Judgement]:
    """The compaction switch and its window, as ``compact_on_stop`` reads them."""
    flag, window = "WAGGLE_HERMES_COMPACT_ON_STOP", "WAGGLE_HERMES_COMPACT_WINDOW_MIN"
    if flag not in env.values:
        return [Judgement("ok", f"compaction: off ({flag} not set; opt in with {flag}=1)")]
    if not is_compact_enabled(env.values):
        return [Judgement("ok", f"compaction: off ({_named(env, flag)})")]
    if env.values[flag].strip().lower() in _OFF_WORDS:
        judgements = [
            Judgement(
                "warn",
                f"compaction: ON, though {_named(env, flag)} reads like off: only '', 0 and "
                "false turn it off (the truth table the mind's other switches share)",
            )
        ]
    else:
        minutes = resolve_window_ms(env.values) / 60_000
        judgements = [
            Judgement(
                "ok", f"compaction: on ({_named(env, flag)}), at most once per {minutes:g} minutes"
            )
        ]
    if window in env.values and positive_number(env.values[window]) is None:
        judgements.append(
            Judgement(
                "warn",
                f"compaction window: {_named(env, window)} is not a number of minutes greater "
                f"than 0; the hooks use the default, {DEFAULT_WINDOW_MS // 60_000} minutes",
            )
        )
    return judgements


def judge_timeout(env: HookEnvironment) -> Judgement:
    """The bridge timeout, as ``Bridge.from_env`` reads it."""
    name = "WAGGLE_BRIDGE_TIMEOUT_S"
    if name not in env.values:
        return Judgement("ok", f"bridge timeout: {DEFAULT_TIMEOUT_S:g} s per call (the default)")
    if positive_number(env.values[name]) is None:
        return Judgement(
            "warn",
            f"bridge timeout: {_named(env, name)} is not a number of seconds greater than 0; "
            f"the hooks use the default, {DEFAULT_TIMEOUT_S:g} s",
        )
    seconds = timeout_from_env(env.values)
    return Judgement("ok", f"bridge timeout: {seconds:g} s per call ({_named(env, name)})")
