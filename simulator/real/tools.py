"""The tools each real host offers its model, and the check that refuses a scenario whose calls
the real host would not run as hooksim's replay does.

A real host runs a tool call only when the request it sent the model declared that tool, and
only with the arguments the tool's schema requires; any other call is answered with an error
and fires no hook (Claude Code's ``InputValidationError``, Gemini CLI's "params must have
required property", Codex's "unsupported call"), while the replay fires the hooks all the same.
So ``--real`` refuses such a scenario before anything starts, in one line with the file and the
turn's line (``refusal``).

Each host's table (``OFFER`` in its folder's ``real.py``) is the tools its pinned release declares
in its requests to the fake model, by the name its hooks see (``tools`` in the request log of a ``--real`` run): Claude Code 2.1.332
(Anthropic ``tools``), Codex CLI 0.171.0 (Responses ``tools``: its shell tool ``exec_command``
as ``Bash``, its custom tool ``apply_patch``), Gemini CLI 0.61.0 (``functionDeclarations``),
Hermes 0.19.0 with the file and terminal toolsets (Chat Completions ``tools``). Hermes checks
no argument against its schemas (a handler takes what it gets: ``patch`` defaults its mode), so
only its tool names are checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..hosts import Host, part
from ..scenario import Scenario, Turn


@dataclass(frozen=True)
class Offer:
    """What one release offers its model: each tool (by the name its hooks see) with the
    arguments its schema requires, and the reason each tool it does not offer is missing."""

    version: str
    tools: Mapping[str, tuple[str, ...]]
    missing: Mapping[str, str] = field(default_factory=dict)
    checks_arguments: bool = True


def refusal(scenario: Scenario, host: Host) -> str | None:
    """Why the real ``host`` cannot run this scenario's tool calls as the replay runs them, in
    one line (``FILE:LINE: ...``); None when it can."""
    real = part(host, "real")
    offer: Offer | None = getattr(real, "OFFER", None)
    if offer is None:
        return None
    numbered = [(n, s) for n, s in scenario.numbered_steps if isinstance(s, Turn)]
    for number, turn in numbered:
        for call in turn.tools:
            why = _unfit(call.name, call.args, offer, host.title)
            if why:
                return f"{scenario.path}:{turn.line}: turn {number} calls {why}"
    return None


def _unfit(name: str, args: Mapping[str, object], offer: Offer, title: str) -> str | None:
    """What keeps the host from running one call (None: nothing)."""
    release = f"{title} {offer.version}"
    if name not in offer.tools:
        why = offer.missing.get(name)
        if name.startswith("mcp__"):
            why = "a --real run configures no MCP server"
        return (
            f"{name}, a tool {release} does not offer its model"
            f"{f' ({why})' if why else ''}: the real host would run no hook for it"
        )
    required = offer.tools[name]
    absent = [arg for arg in required if arg not in args] if offer.checks_arguments else []
    if absent:
        return (
            f"{name} without {', '.join(absent)}, which {release}'s {name} requires"
            f" ({', '.join(required)}): the real host answers it with an error and runs no hook"
        )
    return None
