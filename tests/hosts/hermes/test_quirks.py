"""Each Hermes quirk is pinned: a profile with that one fact wrong fails the scenarios named for
it."""

from __future__ import annotations

from hooksim.hosts import HookRun, Host, Verdict
from hooksim.hosts.hermes.output import block_message
from hooksim.hosts.hermes.profile import Hermes
from hooksim.hosts.hermes.session import HermesSession
from hooksim.scenario import Compact

from ..quirks import keeps_reasons, quirk_test


class _FiresOnCompaction(HermesSession):
    def compact(self, step: Compact) -> None:
        self.fire("on_pre_compress", self.payload("on_pre_compress", trigger=step.trigger))


class HermesWithCompactionEvent(Hermes):
    session_class = _FiresOnCompaction


class HermesExit2Blocks(Hermes):
    def read(self, event: str, run: HookRun) -> Verdict:
        if event == "pre_tool_call" and run.exit_code == 2 and block_message(run.stdout) is None:
            return Verdict("block", block=run.stderr.strip())
        return super().read(event, run)


class HermesKeepsReasons(Hermes):
    session_class = keeps_reasons(HermesSession)


# mutant profile -> the scenarios that must fail with it
CAUGHT_BY: dict[type[Host], list[str]] = {
    HermesKeepsReasons: ["across/guard-reason.yaml", "across/stop-reason.yaml"],
    HermesWithCompactionEvent: [
        "hermes/35-compaction-fires-nothing.yaml",
        "across/memory-session.yaml",
    ],
    HermesExit2Blocks: ["hermes/36-exit-2-is-logged-only.yaml"],
}


test_a_wrong_profile_fails_its_scenario = quirk_test(CAUGHT_BY)
