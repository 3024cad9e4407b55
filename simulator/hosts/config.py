"""Hook configs in the shape most hosts share: events listing matcher groups, each group
listing handlers (Claude Code, Codex, Gemini CLI), read into ``HookSpec``s with a warning for
what the host would not load (a misspelt key, a timeout it refuses)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .records import HookSpec


def event_lists(
    block: Any, known: frozenset[str], warnings: list[str], noun: str = "hook event"
) -> Iterator[tuple[str, list[Any]]]:
    """The ``(event, entries)`` pairs of a hooks object; what a host would skip is a warning."""
    if block is None:
        return
    if not isinstance(block, dict):
        warnings.append("hooks is not an object; no hooks registered")
        return
    for event, entries in block.items():
        if event not in known:
            warnings.append(f"unknown {noun} {event!r}; skipped")
        elif not isinstance(entries, list):
            warnings.append(f"hooks.{event} must be a list; skipped")
        else:
            yield event, entries


@dataclass(frozen=True)
class _TimeoutRule:
    """How a host reads a hook's timeout: its keys, its unit, its floor, and whether a
    non-positive one skips the hook."""

    keys: tuple[str, ...]
    unit_s: float
    min_s: float
    skip_nonpositive: bool


def parse_matcher_groups(
    block: Any,
    *,
    events: frozenset[str],
    matcher_events: frozenset[str],
    timeout_unit_s: float = 1.0,
    min_timeout_s: float = 0.0,
    timeout_keys: tuple[str, ...] = ("timeout",),
    skip_nonpositive_timeout: bool = False,
    handler_env: bool = False,
) -> tuple[list[HookSpec], list[str]]:
    """The ``{Event: [{matcher, hooks: [{type, command, timeout}]}]}`` shape.

    Claude Code's ``settings.json``, Codex's ``hooks.json`` (and ``[hooks]`` in
    ``config.toml``) and Gemini CLI's ``settings.json`` all use it. Entries the host would
    reject or that are not command hooks are skipped with a warning. ``handler_env``: a
    handler's ``env`` object adds to its environment (Gemini CLI).
    """
    rule = _TimeoutRule(timeout_keys, timeout_unit_s, min_timeout_s, skip_nonpositive_timeout)
    specs: list[HookSpec] = []
    warnings: list[str] = []
    for event, groups in event_lists(block, events, warnings):
        for g, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                warnings.append(f"hooks.{event}[{g}] has no hooks list; skipped")
                continue
            matcher = group.get("matcher") if event in matcher_events else None
            warnings += misspelt_keys(group, GROUP_KEYS, f"hooks.{event}[{g}]")
            for h, handler in enumerate(handlers):
                where = f"hooks.{event}[{g}].hooks[{h}]"
                if isinstance(handler, dict):
                    warnings += misspelt_keys(handler, HANDLER_KEYS, where)
                spec = _handler_spec(
                    handler,
                    where,
                    warnings,
                    event=event,
                    group=group,
                    matcher=matcher,
                    rule=rule,
                    keys=(event, g, "hooks", h),
                )
                env = handler.get("env") if handler_env and isinstance(handler, dict) else None
                if spec is not None and isinstance(env, dict):
                    spec = replace(spec, env=tuple((str(k), str(v)) for k, v in env.items()))
                if spec is not None:
                    specs.append(spec)
    return specs, warnings


# The keys of a matcher group and of a hook in it, on any host of that shape: an unknown key
# close to one of them is a typo the host ignores silently (``matchr``: every tool matches).
GROUP_KEYS = ("matcher", "hooks", "sequential")
HANDLER_KEYS = (
    "type",
    "command",
    "timeout",
    "timeoutSec",
    "args",
    "shell",
    "async",
    "asyncRewake",
    "if",
    "statusMessage",
    "once",
    "env",
    "name",
    "description",
)
MISSPELT = re.compile(r"unknown key '(?P<key>[^']+)' \(did you mean '(?P<meant>[^']+)'\?\)")


def misspelt_keys(entry: Mapping[str, Any], known: tuple[str, ...], where: str) -> list[str]:
    """A warning for each key of ``entry`` that is not one the host reads but is close to one:
    the host ignores it, and what the author meant does not happen."""
    found = []
    for key in entry:
        if not isinstance(key, str) or key in known:
            continue
        close = difflib.get_close_matches(key, known, n=1, cutoff=0.8)
        if close:
            found.append(f"{where}: unknown key {key!r} (did you mean {close[0]!r}?); ignored")
    return found


def _handler_spec(
    handler: Any,
    where: str,
    warnings: list[str],
    *,
    event: str,
    group: dict[str, Any],
    matcher: Any,
    rule: _TimeoutRule,
    keys: tuple[str | int, ...],
) -> HookSpec | None:
    """One handler of a matcher group as a HookSpec (``keys``: where it is in the hooks
    block, ``where`` the same for warnings); None, with a warning, when skipped."""
    if not isinstance(handler, dict):
        warnings.append(f"{where} is not an object; skipped")
        return None
    kind = handler.get("type", "command")
    if kind != "command":
        warnings.append(f"{where} is a {kind!r} hook; hooksim runs command hooks only")
        return None
    command = handler.get("command")
    args = _handler_args(handler.get("args"), where, warnings)
    if (not isinstance(command, str) or not command.strip()) and args is None:
        warnings.append(f"{where} has no command; skipped")
        return None
    shell = handler.get("shell")
    runs, timeout_s = _handler_timeout(handler, where, warnings, rule)
    if not runs:
        return None
    return HookSpec(
        event,
        command if isinstance(command, str) else " ".join(args or ()),
        timeout_s,
        matcher if isinstance(matcher, str) else None,
        sequential=bool(group.get("sequential", False)),
        args=tuple(args) if args is not None else None,
        shell=shell if isinstance(shell, str) else None,
        background=handler.get("async") is True or handler.get("asyncRewake") is True,
        rewake=handler.get("asyncRewake") is True,
        where=keys,
    )


def _handler_args(args: Any, where: str, warnings: list[str]) -> list[str] | None:
    """A handler's ``args``: a non-empty list of strings, else None (with a warning if set)."""
    if args is not None and not (
        isinstance(args, list) and args and all(isinstance(a, str) for a in args)
    ):
        warnings.append(f"{where}: args {args!r} is not a list of strings; ignored")
        return None
    return args


def _handler_timeout(
    handler: dict[str, Any], where: str, warnings: list[str], rule: _TimeoutRule
) -> tuple[bool, float | None]:
    """Whether the host runs the hook, and its timeout in seconds (None: the default)."""
    timeout = next((handler[k] for k in rule.keys if k in handler), None)
    if timeout is not None and not isinstance(timeout, (int, float)):
        warnings.append(f"{where}: timeout {timeout!r} is not a number; default used")
        timeout = None
    elif timeout is not None and timeout <= 0 and rule.skip_nonpositive:
        warnings.append(f"{where}: timeout {timeout!r} is not positive; the host skips this hook")
        return False, None
    elif timeout is not None and timeout <= 0 and not rule.min_s:
        warnings.append(f"{where}: timeout {timeout!r} is not positive; default used")
        timeout = None
    return True, None if timeout is None else max(timeout * rule.unit_s, rule.min_s)
