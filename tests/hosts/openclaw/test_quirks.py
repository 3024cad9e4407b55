"""Each OpenClaw rule is pinned: a profile with that one rule wrong fails the scenarios named for
it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

import pytest
from hooksim.hosts import Firing, Host
from hooksim.hosts.openclaw.messages import UNDEFINED
from hooksim.hosts.openclaw.profile import OpenClaw
from hooksim.hosts.openclaw.replay import node_binary
from hooksim.hosts.openclaw.session import OpenClawSession
from hooksim.hosts.records import ToolRun
from hooksim.steps import Step, ToolCall, Turn

from ..quirks import SCENARIOS, quirk_test


class _Swapped(OpenClawSession):
    """Fires one hook where the other belongs (and the other in its place)."""

    swap: ClassVar[dict[str, str]] = {}

    def hook(self, event: str, fields: dict[str, Any], **options: Any) -> Firing:
        return super().hook(self.swap.get(event, event), fields, **options)


class _PrepareAfterPrompt(_Swapped):
    swap: ClassVar[dict[str, str]] = {
        "agent_turn_prepare": "before_prompt_build",
        "before_prompt_build": "agent_turn_prepare",
    }


class OpenClawPrepareAfterPrompt(OpenClaw):
    session_class = _PrepareAfterPrompt


class _OutputBeforeEnd(_Swapped):
    swap: ClassVar[dict[str, str]] = {"agent_end": "llm_output", "llm_output": "agent_end"}


class OpenClawOutputBeforeEnd(OpenClaw):
    session_class = _OutputBeforeEnd


class _EndAwaited(OpenClawSession):
    def hook(self, event: str, fields: dict[str, Any], **options: Any) -> Firing:
        if event == "agent_end":
            options["wait"] = True
        return super().hook(event, fields, **options)


class OpenClawAwaitsAgentEnd(OpenClaw):
    session_class = _EndAwaited


class _NoSessionStartOnNew(OpenClawSession):
    def _session_start(self, resumed_from: str | None) -> None:
        if resumed_from is None:
            super()._session_start(resumed_from)
        else:
            self.started = True


class OpenClawNewWithoutSessionStart(OpenClaw):
    session_class = _NoSessionStartOnNew


class _OneLocalProcess(OpenClawSession):
    def _done(self) -> None:
        """The --local process never exits: the plugins stay loaded across turns."""


class OpenClawLocalKeepsPlugins(OpenClaw):
    session_class = _OneLocalProcess


class _ReasonNotGiven(OpenClawSession):
    def told(self, firing: Firing) -> list[str]:
        return []


class OpenClawKeepsReasons(OpenClaw):
    session_class = _ReasonNotGiven


class OpenClawUncapped(OpenClaw):
    stop_cap = None


class OpenClawLocalSessionStart(OpenClaw):
    session_start_local = True


class OpenClawLocalHookDirs(OpenClaw):
    hook_dirs_local = True


class OpenClawNothingFailsClosed(OpenClaw):
    fail_closed = ()


class OpenClawLowerPriorityFirst(OpenClaw):
    priority_order = "lower_first"


class OpenClawLastResultWins(OpenClaw):
    merges: ClassVar[dict[str, str]] = {**OpenClaw.merges, "before_tool_call": "last"}


class OpenClawClaimObserved(OpenClaw):
    kinds: ClassVar[dict[str, str]] = {**OpenClaw.kinds, "before_agent_reply": "observe"}


class OpenClawNoBudgets(OpenClaw):
    budgets_ms: ClassVar[dict[str, int]] = {}


class OpenClawBudgetsCancel(OpenClaw):
    timeouts_cancel = True


class OpenClawNoConversationGate(OpenClaw):
    conversation_hooks = ()


class OpenClawObserveOneByOne(OpenClaw):
    kinds: ClassVar[dict[str, str]] = {**OpenClaw.kinds, "after_tool_call": "modify"}


class OpenClawGatewayStartsEveryPlugin(OpenClaw):
    gateway_starts_every_plugin = True


class OpenClawLocalStartsOnlyActivatedPlugins(OpenClaw):
    local_starts_every_plugin = False


class OpenClawLocalExitWaitsForLateHandlers(OpenClaw):
    local_exit_waits_for_late_handlers = True


class OpenClawSyncAwaited(OpenClaw):
    kinds: ClassVar[dict[str, str]] = {
        **OpenClaw.kinds,
        "before_message_write": "modify",
        "tool_result_persist": "modify",
    }


class _ScriptedResults(OpenClawSession):
    def run_tool(self, call: ToolCall, pre: Firing) -> ToolCall:
        ran = super().run_tool(call, pre)
        self.tool_run = ToolRun()
        return replace(ran, result=call.result)


class OpenClawToolsGiveScriptedResults(OpenClaw):
    session_class = _ScriptedResults


class _RewriteIgnored(OpenClawSession):
    def rewritten(self, args: dict[str, Any], updated: dict[str, Any]) -> dict[str, Any]:
        return dict(args)


class OpenClawRunsTheCallAsAsked(OpenClaw):
    session_class = _RewriteIgnored


class _BlockWithoutReason(OpenClawSession):
    def _refused(self, call: Any, call_id: str, pre: Firing) -> Any:
        result, after = super()._refused(call, call_id, pre)
        result["details"].pop("reason", None)
        return result, after


class OpenClawBlockDetailsWithoutReason(OpenClaw):
    session_class = _BlockWithoutReason


class _UndefinedKeysLeftOut(OpenClawSession):
    """A context built from what JSON can carry: a key OpenClaw writes as undefined is absent."""

    def ctx(self, event: str, **extra: Any) -> dict[str, Any]:
        return {k: v for k, v in super().ctx(event, **extra).items() if v != UNDEFINED}


class OpenClawLeavesOutUndefinedKeys(OpenClaw):
    session_class = _UndefinedKeysLeftOut


class _ResponsesIgnored(OpenClawSession):
    """The model asks for a turn's calls one per response, whatever the scenario says."""

    def _tools(self, run: str, turn: Turn) -> int:
        return super()._tools(run, replace(turn, batches=()))


class OpenClawOneCallPerResponse(OpenClaw):
    session_class = _ResponsesIgnored


class _LaunchKept(OpenClawSession):
    """A step's launch is ignored: OpenClaw runs as the scenario began."""

    def step(self, step: Step) -> None:
        super().step(replace(step, launch=""))


class OpenClawKeepsItsLaunch(OpenClaw):
    session_class = _LaunchKept


# mutant profile -> the scenarios that must fail with it
CAUGHT_BY: dict[type[Host], list[str]] = {
    OpenClawPrepareAfterPrompt: ["openclaw/01-order-gateway.yaml", "across/memory-session.yaml"],
    OpenClawOutputBeforeEnd: ["openclaw/01-order-gateway.yaml", "across/memory-session.yaml"],
    OpenClawAwaitsAgentEnd: ["openclaw/08-concurrent-and-sync.yaml"],
    OpenClawNewWithoutSessionStart: ["openclaw/01-order-gateway.yaml"],
    OpenClawLocalKeepsPlugins: ["openclaw/02-local-runs.yaml"],
    OpenClawLocalSessionStart: [
        "openclaw/02-local-runs.yaml",
        "openclaw/11-spy-guard-rewrite-memory-local.yaml",
    ],
    OpenClawLocalHookDirs: ["openclaw/02-local-runs.yaml"],
    OpenClawNothingFailsClosed: ["openclaw/03-fail-closed.yaml"],
    OpenClawKeepsReasons: ["across/guard-reason.yaml", "openclaw/03-fail-closed.yaml"],
    OpenClawUncapped: ["across/stop-loop.yaml"],
    OpenClawLowerPriorityFirst: [
        "openclaw/04-priorities-and-merges.yaml",
        "openclaw/05-claim.yaml",
        "openclaw/10-spy-guard-rewrite-memory-gateway.yaml",
        "openclaw/11-spy-guard-rewrite-memory-local.yaml",
    ],
    OpenClawLastResultWins: ["openclaw/04-priorities-and-merges.yaml"],
    OpenClawClaimObserved: ["openclaw/05-claim.yaml"],
    OpenClawNoBudgets: ["openclaw/06-budgets.yaml"],
    OpenClawBudgetsCancel: ["openclaw/06-budgets.yaml"],
    OpenClawNoConversationGate: ["openclaw/07-permissions.yaml"],
    OpenClawGatewayStartsEveryPlugin: ["openclaw/07-permissions.yaml"],
    OpenClawObserveOneByOne: ["openclaw/08-concurrent-and-sync.yaml"],
    OpenClawSyncAwaited: ["openclaw/08-concurrent-and-sync.yaml"],
    OpenClawToolsGiveScriptedResults: ["openclaw/09-file-tools.yaml"],
    OpenClawRunsTheCallAsAsked: [
        "openclaw/09-file-tools.yaml",
        "openclaw/10-spy-guard-rewrite-memory-gateway.yaml",
        "openclaw/11-spy-guard-rewrite-memory-local.yaml",
    ],
    OpenClawBlockDetailsWithoutReason: ["openclaw/09-file-tools.yaml"],
    OpenClawLeavesOutUndefinedKeys: ["openclaw/10-spy-guard-rewrite-memory-gateway.yaml"],
    OpenClawLocalStartsOnlyActivatedPlugins: ["openclaw/12-local-start-and-budgets.yaml"],
    OpenClawLocalExitWaitsForLateHandlers: ["openclaw/12-local-start-and-budgets.yaml"],
    OpenClawOneCallPerResponse: ["openclaw/13-responses.yaml"],
    OpenClawKeepsItsLaunch: ["openclaw/14-local-then-gateway.yaml"],
}


test_a_wrong_openclaw_profile_fails_its_scenario = quirk_test(
    CAUGHT_BY,
    pytest.mark.skipif(node_binary() is None, reason="OpenClaw's plugins run in Node.js: no node"),
)


def test_every_openclaw_scenario_is_pinned_by_a_mutant() -> None:
    """No scenario of scenarios/openclaw/ is left without a wrong profile that it catches."""
    pinned = {name for names in CAUGHT_BY.values() for name in names}
    shipped = {f"openclaw/{p.name}" for p in (SCENARIOS / "openclaw").glob("*.yaml")}
    assert shipped <= pinned, shipped - pinned
