"""Hermes' hook config: its keys, read as Hermes reads them, with a warning for what it would
not load."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..records import HookSpec
from .constants import DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S, TOOL_EVENTS, VALID_HOOKS

# The file in HERMES_HOME that lists the hooks its user approved (shell_hooks.py
# ALLOWLIST_FILENAME): ``{"approvals": [{"event": ..., "command": ..., ...}]}``.
ALLOWLIST = "shell-hooks-allowlist.json"


def approvals(path: Path) -> set[tuple[str, str]]:
    """The ``(event, command)`` pairs an allowlist file approves (none when it cannot be read)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return set()
    entries = data.get("approvals") if isinstance(data, dict) else None
    return {
        (str(e.get("event")), str(e.get("command"))) for e in entries or [] if isinstance(e, dict)
    }


def _timeout(raw: dict[str, Any], where: str, warnings: list[str]) -> int:
    """The entry's timeout as ``_parse_single_entry`` keeps it, with the warning it logs."""
    try:
        timeout = int(raw.get("timeout", DEFAULT_TIMEOUT_S))
    except (TypeError, ValueError):
        warnings.append(
            f"{where}.timeout must be an int (got {raw.get('timeout')!r}); using"
            f" default {DEFAULT_TIMEOUT_S}s"
        )
        return DEFAULT_TIMEOUT_S
    if timeout < 1:
        warnings.append(f"{where}.timeout must be >=1; using default {DEFAULT_TIMEOUT_S}s")
        return DEFAULT_TIMEOUT_S
    if timeout > MAX_TIMEOUT_S:
        warnings.append(f"{where}.timeout={timeout}s exceeds max {MAX_TIMEOUT_S}s; clamping")
        return MAX_TIMEOUT_S
    return timeout


def parse_hooks_block(block: Any) -> tuple[list[HookSpec], list[str]]:
    """Hook specs in config order, and the warnings Hermes would log for skipped entries.

    Never raises, like ``_parse_hooks_block``: a bad entry is skipped with a warning.
    """
    specs: list[HookSpec] = []
    warnings: list[str] = []
    seen: set[tuple[str, str | None, str]] = set()
    if not isinstance(block, dict):
        return specs, (
            [] if block is None else ["hooks: is not a mapping; no shell hooks registered"]
        )
    for event, entries in block.items():
        if event == "output_spill":  # a reserved sub-key, skipped silently by Hermes
            continue
        if event not in VALID_HOOKS:
            warnings.append(f"unknown hook event {event!r} in hooks: config; skipped")
            continue
        if entries is None:
            continue
        if not isinstance(entries, list):
            warnings.append(f"hooks.{event} must be a list of hook definitions")
            continue
        for i, raw in enumerate(entries):
            if not isinstance(raw, dict) or not str(raw.get("command") or "").strip():
                warnings.append(f"hooks.{event}[{i}] has no command; skipped")
                continue
            matcher = raw.get("matcher")
            if matcher is not None and not isinstance(matcher, str):
                warnings.append(f"hooks.{event}[{i}].matcher is not a string; dropped")
                matcher = None
            elif matcher is not None and event not in TOOL_EVENTS:
                warnings.append(
                    f"hooks.{event}[{i}].matcher is honoured only for tool events; dropped"
                )
                matcher = None
            timeout = _timeout(raw, f"hooks.{event}[{i}]", warnings)  # after the matcher, as logged
            spec = HookSpec(
                event,
                str(raw["command"]).strip(),
                float(timeout),
                (matcher or "").strip() or None,
                where=(event, i),
            )
            key = (spec.event, spec.matcher, spec.command)  # registration is idempotent
            if key not in seen:
                seen.add(key)
                specs.append(spec)
    return specs, warnings
