"""Each Claude Code quirk is pinned: a profile with that one fact wrong fails the scenarios named
for it."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from hooksim.hosts import Firing, HookRun, HookSpec, Host, Verdict
from hooksim.hosts.claude_code.constants import EXACT_MATCHER_BEFORE_2_1_195
from hooksim.hosts.claude_code.profile import ClaudeCode
from hooksim.hosts.claude_code.session import ClaudeSession
from hooksim.hosts.claude_style import NO_VERDICT_SHOWN, TRANSCRIPT_ONLY, ClaudeStyleReading
from hooksim.replay.runner import run_scenario
from hooksim.scenario import Compact, load_scenario

from ..quirks import SCENARIOS, keeps_reasons, quirk_test


class ClaudeUncapped(ClaudeCode):
    stop_cap = None


class ClaudePreCompactObserves(ClaudeCode):
    blocking = ClaudeCode.blocking - {"PreCompact"}


class ClaudeExit2NeedsStderr(ClaudeCode):
    exit_2_needs_stderr = True


class ClaudeSequential(ClaudeCode):
    parallel = False


class ClaudeNoDedupe(ClaudeCode):
    dedupe = False


class ClaudePerHookSessionEndBudget(ClaudeCode):
    def timeout_s(self, spec: HookSpec, env: Mapping[str, str]) -> float:
        if spec.event == "SessionEnd":
            return max(1.5, min(spec.timeout_s or 0.0, 60.0))
        return super().timeout_s(spec, env)


class ClaudeRunsBash(ClaudeCode):
    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        return ["bash", "-c", command]


class ClaudeNoNewline(ClaudeCode):
    def encode(self, payload: dict[str, Any]) -> bytes:
        return super().encode(payload).rstrip(b"\n")


class _ModelAtLaunch(ClaudeSession):
    def _start(self, source: str) -> Firing:
        self.launched = True
        payload = self.payload("SessionStart", source=source, model=self.info.model)
        return self.fire("SessionStart", payload, match=source)


class ClaudeFirstSessionStartHasModel(ClaudeCode):
    session_class = _ModelAtLaunch


class ClaudeAnchoredMatchers(ClaudeCode):
    def matches(self, spec: HookSpec, value: str | None) -> bool:
        if spec.matcher and value and not self.exact_matcher.fullmatch(spec.matcher):
            return re.fullmatch(spec.matcher, value) is not None
        return super().matches(spec, value)


class ClaudeHyphenIsRegex(ClaudeCode):
    exact_matcher = EXACT_MATCHER_BEFORE_2_1_195


class _PostCompactFirst(ClaudeSession):
    def compact(self, step: Compact) -> None:
        pre = self.fire(
            "PreCompact",
            self.payload("PreCompact", trigger=step.trigger, custom_instructions=step.instructions),
            match=step.trigger,
        )
        if pre.blocked:
            return
        self.fire(
            "PostCompact",
            self.payload("PostCompact", trigger=step.trigger, compact_summary="s"),
            match=step.trigger,
        )
        self._start("compact")


class ClaudePostCompactBeforeSessionStart(ClaudeCode):
    session_class = _PostCompactFirst


class ClaudeBraceTextFails(ClaudeCode):
    brace_text_is_context = False


class ClaudeActsOnRefusedOutput(ClaudeCode):
    """Acts on every JSON object it can parse (``ClaudeStyleReading`` alone), refusing none."""

    read = ClaudeStyleReading.read
    json_output = ClaudeStyleReading.json_output


class ClaudeAwaitsAsync(ClaudeCode):
    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        specs, warnings = super().parse_hooks(block)
        return [dataclasses.replace(s, background=False) for s in specs], warnings


class ClaudeNoPostToolBatch(ClaudeCode):
    post_tool_batch = False


class ClaudeStdoutNeverContext(ClaudeCode):
    def read(self, event: str, run: HookRun) -> Verdict:
        verdict = super().read(event, run)
        return Verdict("ok") if verdict.note == "context (plain text)" else verdict


class _NoCompactSessionStart(ClaudeSession):
    def _start(self, source: str) -> Firing:
        if source != "compact":
            return super()._start(source)
        return Firing(0, "SessionStart", 0)


class ClaudeNoCompactSessionStart(ClaudeCode):
    session_class = _NoCompactSessionStart


class ClaudeIgnoresPermissionDecision(ClaudeCode):
    def read(self, event: str, run: HookRun) -> Verdict:
        if event == "PreToolUse" and "permissionDecision" in run.stdout:
            return Verdict("ok")
        return super().read(event, run)


class ClaudeStopContextEndsTheTurn(ClaudeCode):
    stop_context_continues = False


class ClaudeStdoutContextEverywhere(ClaudeCode):
    def read(self, event: str, run: HookRun) -> Verdict:
        verdict = super().read(event, run)
        if verdict.note == TRANSCRIPT_ONLY:
            return Verdict("context", context=run.stdout.strip())
        return verdict


class ClaudeIfOnToolNameOnly(ClaudeCode):
    def selects(self, spec: HookSpec, value: str | None, payload: Mapping[str, Any]) -> bool:
        tool = (spec.condition or "").split("(", 1)[0].strip()
        return self.matches(spec, value) and tool in ("", value)


class ClaudeRewakeSleeps(ClaudeCode):
    session_class = type(
        "ClaudeRewakeSleepsSession",
        (ClaudeSession,),
        {"finished_in_background": lambda self, run: None},
    )


class ClaudeWithoutHistory(ClaudeCode):
    def at_version(self, version: str) -> Host:
        return self


class ClaudeKeepsReasons(ClaudeCode):
    session_class = keeps_reasons(ClaudeSession)


def test_claude_code_says_once_per_hook_that_it_did_not_check_a_call() -> None:
    """Two PreToolUse hooks whose output Claude Code refuses: the user is told of each at the
    first call, and of neither at the next (real 2.1.332)."""
    scenario = load_scenario(SCENARIOS / "probes/claude-code-rejected-output.yaml")
    result = run_scenario(scenario, tool="claude-code")
    shown = {f.turn: f.shown for f in result.firings if f.event == "PreToolUse"}
    assert shown == {1: [NO_VERDICT_SHOWN, NO_VERDICT_SHOWN], 2: []}


# mutant profile -> the scenarios that must fail with it
CAUGHT_BY: dict[type[Host], list[str]] = {
    ClaudeKeepsReasons: ["across/guard-reason.yaml", "across/stop-reason.yaml"],
    ClaudeUncapped: ["claude-code/02-stop-loop-cap.yaml", "across/stop-loop.yaml"],
    ClaudePreCompactObserves: ["claude-code/03-precompact-blocks.yaml"],
    ClaudeExit2NeedsStderr: ["claude-code/04-exit-2-without-stderr.yaml"],
    ClaudeSequential: ["claude-code/06-parallel-and-deduplicated.yaml"],
    ClaudeNoDedupe: ["claude-code/06-parallel-and-deduplicated.yaml"],
    ClaudePerHookSessionEndBudget: ["claude-code/05-session-end-budget.yaml"],
    ClaudeRunsBash: ["claude-code/12-sh-and-stdin.yaml"],
    ClaudeNoNewline: ["claude-code/12-sh-and-stdin.yaml"],
    ClaudeFirstSessionStartHasModel: ["claude-code/12-sh-and-stdin.yaml"],
    ClaudeAnchoredMatchers: ["claude-code/13-matchers.yaml"],
    ClaudeHyphenIsRegex: ["claude-code/13-matchers.yaml"],
    ClaudePostCompactBeforeSessionStart: [
        "claude-code/01-save-in-precompact-reinject.yaml",
        "across/memory-session.yaml",
    ],
    ClaudeBraceTextFails: ["claude-code/07-stdout-as-context.yaml"],
    ClaudeActsOnRefusedOutput: ["probes/claude-code-rejected-output.yaml"],
    ClaudeNoPostToolBatch: ["claude-code/08-tool-calls.yaml"],
    ClaudeAwaitsAsync: ["claude-code/14-async-hooks.yaml"],
    ClaudeStdoutNeverContext: ["claude-code/07-stdout-as-context.yaml"],
    ClaudeStdoutContextEverywhere: ["claude-code/07-stdout-as-context.yaml"],
    ClaudeIgnoresPermissionDecision: ["claude-code/08-tool-calls.yaml"],
    ClaudeIfOnToolNameOnly: ["probes/claude-code-if-conditions.yaml"],
    ClaudeRewakeSleeps: ["claude-code/15-async-rewake.yaml"],
    ClaudeWithoutHistory: [
        "claude-code/10-older-versions.yaml",
        "claude-code/11-before-post-compact.yaml",
    ],
    ClaudeStopContextEndsTheTurn: ["claude-code/09-stop-context-continues.yaml"],
    ClaudeNoCompactSessionStart: [
        "claude-code/01-save-in-precompact-reinject.yaml",
        "across/memory-session.yaml",
    ],
}


test_a_wrong_profile_fails_its_scenario = quirk_test(CAUGHT_BY)
