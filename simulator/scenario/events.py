"""Event names a scenario writes down, checked against the hosts it runs on.

An expectation about an event the host never fires (``fired: {PreCompress: 1}`` on Claude
Code), an ``exit_codes`` entry for such an event, or a raw event step no host of the file knows,
can only fail at run time or do nothing (a count of 0 is allowed: it says the host lacks it); they are ``file:line`` errors instead, with the closest
name the host has. What a host knows is what its profile accepts in a hooks config.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

Where = list[str | int]


@cache
def knows(tool: str, event: str) -> bool:
    """Whether ``tool``'s profile accepts hooks on ``event`` (so it is an event it can fire)."""
    from ..hosts import HOSTS

    return HOSTS[tool].knows(event)


def suggestion(tool: str, event: str) -> str:
    """`` (did you mean 'X'?)`` with the closest event ``tool`` has, or ``""``."""
    from ..hosts import HOSTS

    host = HOSTS[tool]
    names = {e for e in host.events.values() if e}
    close = difflib.get_close_matches(event, sorted(names), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _named_events(expect: dict[str, Any]) -> Iterator[tuple[list[str], str]]:
    """``(path inside expect, event)`` for every event an expectation names."""
    for key in ("fired", "blocked", "refused"):
        for event, count in expect.get(key, {}).items():
            if (
                count and event != "*"
            ):  # "fired 0 times" is a fair thing to say of an event a host lacks
                yield [key, event], event
    for turn, events in expect.get("fired_by_turn", {}).items():
        for event in events:
            yield ["fired_by_turn", turn], event
    codes = expect.get("exit_codes")
    if isinstance(codes, dict):
        for event in codes:
            if event != "*":
                yield ["exit_codes", event], event


def check_events(
    tools: list[str],
    expects: list[tuple[Where, list[str], dict[str, Any]]],
    raw_events: list[tuple[Where, str]],
    fail: Callable[[Where, str], Exception],
) -> None:
    """Raise ``fail(where, message)`` for the first event name that cannot occur.

    ``expects``: ``(where, hosts it applies to, expect block)``; ``raw_events``: ``(where,
    event)`` of raw event steps, which must be known to at least one of ``tools``.
    """
    from ..hosts import HOSTS

    for where, hosts, block in expects:
        for inner, event in _named_events(block):
            for tool in hosts:
                if not knows(tool, event):
                    title = HOSTS[tool].title
                    raise fail(
                        [*where, *inner],
                        f"{'.'.join(map(str, [*where, inner[0]]))} names {event!r}, an event"
                        f" {title} does not have{suggestion(tool, event)}",
                    )
    for where, event in raw_events:
        if not any(knows(tool, event) for tool in tools):
            names = " or ".join(HOSTS[t].title for t in tools)
            raise fail(
                where,
                f"event {event!r} is not an event of {names}{suggestion(tools[0], event)};"
                " it would fire no hook",
            )
