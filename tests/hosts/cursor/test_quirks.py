"""Each Cursor quirk is pinned: a profile with that one fact wrong fails the scenarios named for
it."""

from __future__ import annotations

from hooksim.hosts import HookRun, Host, Verdict
from hooksim.hosts.cursor.profile import Cursor
from hooksim.hosts.cursor.session import CursorSession

from ..quirks import keeps_reasons, quirk_test


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


test_a_wrong_profile_fails_its_scenario = quirk_test(CAUGHT_BY)
