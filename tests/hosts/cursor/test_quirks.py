"""Each Cursor quirk is pinned: a profile with that one fact wrong fails the scenarios named for
it."""

from __future__ import annotations

import pytest
from hooksim.hosts import HookRun, Host, Verdict
from hooksim.hosts.cursor.profile import Cursor
from hooksim.hosts.cursor.session import CursorSession

from ..quirks import fails_its_scenario, keeps_reasons


class CursorUnlimited(Cursor):
    stop_cap = None


class CursorAwaitsSessionStart(Cursor):
    not_awaited = frozenset({"sessionEnd"})


class CursorPreCompactBlocks(Cursor):
    blocking = Cursor.blocking | {"preCompact"}


class CursorIgnoresFailClosed(Cursor):
    def read(self, event: str, run: HookRun) -> Verdict:
        if run.spec is not None:
            run.spec = type(run.spec)(run.spec.event, run.spec.command, run.spec.timeout_s)
        return super().read(event, run)


class CursorDropsSessionStartEnv(Cursor):
    def read(self, event: str, run: HookRun) -> Verdict:
        verdict = super().read(event, run)
        verdict.env = None
        return verdict


class CursorKeepsReasons(Cursor):
    session_class = keeps_reasons(CursorSession)


# mutant profile -> the scenarios that must fail with it
CAUGHT_BY: dict[type[Host], list[str]] = {
    CursorKeepsReasons: ["across/guard-reason.yaml", "across/stop-reason.yaml"],
    CursorDropsSessionStartEnv: ["cursor/06-session-start-env.yaml"],
    CursorUnlimited: ["cursor/01-followup-loop-limit.yaml", "across/stop-loop.yaml"],
    CursorAwaitsSessionStart: ["cursor/03-session-start-not-awaited.yaml"],
    CursorPreCompactBlocks: ["cursor/04-precompact-observes-only.yaml"],
    CursorIgnoresFailClosed: ["cursor/05-exit-2-denies-prompt.yaml"],
}


# A profile's rules are the same on every Python: tox -e slow runs these once per CI run.
@pytest.mark.slow
@pytest.mark.parametrize(
    ("mutant", "name"),
    [(m, n) for m, names in CAUGHT_BY.items() for n in names],
    ids=lambda v: v.__name__ if isinstance(v, type) else str(v),
)
def test_a_wrong_profile_fails_its_scenario(mutant: type[Host], name: str) -> None:
    fails_its_scenario(mutant, name)
