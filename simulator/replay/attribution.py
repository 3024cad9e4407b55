"""Which hook made each bridge call: the hook process, or one of its descendants.

The mock bridge records its own pid, its session id and its chain of parent pids; hooksim
starts every hook as a session leader and remembers its pid. A call belongs to the hook whose
pid is among the caller's ancestors, or, failing that (a child the hook left behind, reparented
once the hook exited), the hook whose pid is the caller's session id. Hooks of the same firing
(turn and event, which the caller inherits in ``HOOKSIM_TURN`` / ``HOOKSIM_EVENT``) are tried
first, so a pid the system reused later in the run cannot steal the call. A handler that runs
inside its host's process (OpenClaw) has no pid of its own: its calls carry its tag instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..hosts import HookRun
from .result import BridgeCall


def caller(call: BridgeCall, runs: Sequence[HookRun]) -> int | None:
    """The index in ``runs`` of the hook that made ``call``; None when no hook's tree made it."""
    tag = call.get("tag")
    if tag:  # an in-process handler: its runner's pid is every handler's, its tag its own
        return next((i for i, run in enumerate(runs) if run.tag == tag), None)
    ancestors = [int(p) for p in call.get("ancestors", [])]
    sid = call.get("sid")
    indexed = list(enumerate(runs))
    same_firing = [
        (i, r) for i, r in indexed if (r.turn, r.event) == (call.get("turn"), call.get("event"))
    ]
    for candidates in (same_firing, indexed[::-1]):
        for pids in (ancestors, [sid]):
            for pid in pids:
                for i, run in candidates:
                    if run.pid is not None and run.pid == pid:
                        return i
    return None


def attribute(calls: list[BridgeCall], runs: Sequence[HookRun]) -> None:
    """Set each call's ``hook`` to the index of the hook run that made it (or None)."""
    for call in calls:
        call["hook"] = caller(call, runs)
