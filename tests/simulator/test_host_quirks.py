"""Each host quirk is pinned: a profile with that one fact wrong fails the scenarios named for it."""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hooksim.hosts import Firing, HookRun, HookSpec, Host, Session, Verdict
from hooksim.hosts.claude_code.constants import EXACT_MATCHER_BEFORE_2_1_195
from hooksim.hosts.claude_code.profile import ClaudeCode
from hooksim.hosts.claude_code.session import ClaudeSession
from hooksim.hosts.claude_style import NO_VERDICT_SHOWN, ClaudeStyleReading
from hooksim.hosts.codex.profile import Codex
from hooksim.hosts.codex.session import CodexSession
from hooksim.hosts.config import parse_matcher_groups
from hooksim.hosts.cursor.profile import Cursor
from hooksim.hosts.cursor.session import CursorSession
from hooksim.hosts.gemini_cli.constants import EVENTS as GEMINI_EVENTS
from hooksim.hosts.gemini_cli.constants import MATCHER_EVENTS as GEMINI_MATCHER_EVENTS
from hooksim.hosts.gemini_cli.profile import GeminiCli
from hooksim.hosts.gemini_cli.session import GeminiSession
from hooksim.hosts.hermes.output import block_message
from hooksim.hosts.hermes.profile import Hermes
from hooksim.hosts.hermes.session import HermesSession
from hooksim.judge import expect
from hooksim.replay.runner import run_scenario
from hooksim.scenario import Compact, Turn, load_scenario

SCENARIOS = Path(__file__).parents[2] / "scenarios"


# --- Claude Code --------------------------------------------------------------------------
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
        pre = self.fire("PreCompact", self.payload("PreCompact", trigger=step.trigger,
                        custom_instructions=step.instructions), match=step.trigger)  # fmt: skip
        if pre.blocked:
            return
        self.fire("PostCompact", self.payload("PostCompact", trigger=step.trigger,
                  compact_summary="s"), match=step.trigger)  # fmt: skip
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


# --- Codex ----------------------------------------------------------------------------------
class CodexExit2WithoutStderrBlocks(Codex):
    exit_2_needs_stderr = False


class CodexPreCompactBlocks(Codex):
    blocking = Codex.blocking | {"PreCompact"}


class CodexCapped(Codex):
    stop_cap = 8


class _SessionStartAtOnce(CodexSession):
    def compact(self, step: Compact) -> None:
        super().compact(step)
        self._run_queued_session_starts()


class CodexSessionStartNotQueued(Codex):
    session_class = _SessionStartAtOnce


class CodexSequential(Codex):
    parallel = False


class _PromptFirst(CodexSession):
    def turn(self, turn: Turn) -> None:
        if not self.launched:
            self.launched = True
            self.queued.append("startup")
        submitted = self.fire(
            "UserPromptSubmit", self.payload("UserPromptSubmit", prompt=turn.user)
        )
        if submitted.blocked or submitted.stop or not self._run_queued_session_starts():
            return
        self.stop_loop(
            lambda n: self.fire("Stop", self.payload("Stop", stop_hook_active=n > 0)), None
        )


class CodexSessionStartAfterPrompt(Codex):
    session_class = _PromptFirst


class CodexIgnoresCompactContinue(Codex):
    continue_ignored = frozenset({"PreCompact", "PostCompact", "SessionEnd"})


class CodexLoginShell(Codex):
    login_shell = True


class CodexNoSessionEnd(Codex):
    events: ClassVar[dict[str, str | None]] = {**Codex.events, "session_end": None}


class CodexSessionEndUncapped(Codex):
    def timeout_s(self, spec: HookSpec, env: Mapping[str, str]) -> float:
        return spec.timeout_s or 1.0


class CodexAnchoredMatchers(Codex):
    match_search = False


class CodexExactAsRegex(Codex):
    def matches(self, spec: HookSpec, value: str | None) -> bool:
        if spec.matcher and value:
            return re.search(spec.matcher, value) is not None
        return super().matches(spec, value)


class CodexWithoutHistory(Codex):
    def at_version(self, version: str) -> Host:
        return self


class _ExecStartsAfresh(CodexSession):
    def _start(self) -> None:
        if not self.running:
            self.queued.append("startup")
            self.launched = self.running = True


class CodexExecWithoutResume(Codex):
    session_class = _ExecStartsAfresh


class _ExecEndsOnce(CodexSession):
    def turn(self, turn: Turn) -> None:
        if not self.launched:
            self.queued.append("startup")
            self.launched = True
        self._turn(turn)

    def exit(self) -> None:
        self._end("other")


class CodexExecOneSession(Codex):
    session_class = _ExecEndsOnce


class _DefaultPermission(CodexSession):
    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        payload = super().payload(event, **fields)
        if "permission_mode" in payload:
            payload["permission_mode"] = "default"
        return payload


class CodexExecAsksForApproval(Codex):
    session_class = _DefaultPermission


class CodexNoTranscriptPath(Codex):
    sends_transcript_path = False


class CodexCompactIgnoresMatcher(Codex):
    matcher_events = Codex.matcher_events - {"PreCompact", "PostCompact"}


class CodexBraceTextIsContext(Codex):
    brace_text_is_context = True

    def read(self, event: str, run: HookRun) -> Verdict:
        return ClaudeStyleReading.read(self, event, run)


class CodexContinueDropsContext(Codex):
    def read(self, event: str, run: HookRun) -> Verdict:
        verdict = super().read(event, run)
        if verdict.stop:
            verdict.context = None
        return verdict


# --- Cursor ---------------------------------------------------------------------------------
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


# --- Gemini CLI -----------------------------------------------------------------------------
class GeminiPreCompressNotAwaited(GeminiCli):
    not_awaited = frozenset({"PreCompress", "SessionEnd"})


class _CompressOnlyWhenCompacting(GeminiSession):
    def _request(self, prompt: str) -> bool:
        self.compressed = True
        return super()._request(prompt)


class GeminiPreCompressOnlyAtCompaction(GeminiCli):
    session_class = _CompressOnlyWhenCompacting


class GeminiOldExitCodes(GeminiCli):
    exit_codes_since_0_30 = False


class GeminiWithoutHistory(GeminiCli):
    def at_version(self, version: str) -> Host:
        return self


class GeminiAfterToolAdvisory(GeminiCli):
    blocking = GeminiCli.blocking - {"AfterTool"}


class GeminiAnchoredMatchers(GeminiCli):
    match_search = False


class GeminiRegexTriggers(GeminiCli):
    def matches(self, spec: HookSpec, value: str | None) -> bool:
        if spec.matcher and value and spec.event not in ("BeforeTool", "AfterTool"):
            return re.search(spec.matcher, value) is not None
        return super().matches(spec, value)


class _RetryWithoutBeforeAgent(GeminiSession):
    prompted = False

    def _before_agent(self, prompt: str, *, retry: bool = False) -> bool:
        if self.prompted:  # the retry: straight to the model
            return self._request(prompt)
        self.prompted = True
        return super()._before_agent(prompt, retry=retry)


class GeminiRetryWithoutBeforeAgent(GeminiCli):
    session_class = _RetryWithoutBeforeAgent


class GeminiAlwaysParallel(GeminiCli):
    def parse_hooks(self, block: Any) -> Any:
        specs, warnings = super().parse_hooks(block)
        return [type(s)(s.event, s.command, s.timeout_s, s.matcher) for s in specs], warnings


class GeminiTimeoutInSeconds(GeminiCli):
    config_timeout_unit = "s"


class GeminiKillsAtOnce(GeminiCli):
    term_grace_s = None


class GeminiCapped(GeminiCli):
    stop_cap = 8


class _FirstRequestWithoutPreCompress(GeminiSession):
    """The old fact: a chat's first request sees an empty history, so no PreCompress."""

    first = True

    def _request(self, prompt: str) -> bool:
        if self.first:
            self.first = False
            self.compressed = True
        return super()._request(prompt)


class GeminiFirstRequestWithoutPreCompress(GeminiCli):
    session_class = _FirstRequestWithoutPreCompress


class _CompressionCheckedTwice(GeminiSession):
    def compact(self, step: Compact) -> None:
        super().compact(step)
        self.compressed = False


class GeminiPreCompressTwiceAtCompaction(GeminiCli):
    session_class = _CompressionCheckedTwice


class _ModelEventsOncePerPrompt(GeminiSession):
    asked = False

    def _before_agent(self, prompt: str) -> bool:
        self.asked = False
        return super()._before_agent(prompt)

    def _request(self, prompt: str) -> bool:
        if self.asked:  # later requests of the prompt: only the compression check
            if not self.compressed:
                self.fire("PreCompress", self.payload("PreCompress", trigger="auto"), match="auto")
            self.compressed = False
            return True
        self.asked = True
        return super()._request(prompt)


class GeminiModelEventsOncePerPrompt(GeminiCli):
    session_class = _ModelEventsOncePerPrompt


class GeminiSequentialInputUnchanged(GeminiCli):
    def next_input(self, event: str, stdin: bytes, run: HookRun) -> bytes:
        return stdin


class GeminiSequential(GeminiCli):
    parallel = False


class GeminiWithoutOwnVariables(GeminiCli):
    def env(self, event: str, info: Any) -> dict[str, str]:
        env = super().env(event, info)
        del env["GEMINI_PLANS_DIR"], env["GEMINI_CLI_NO_RELAUNCH"]
        return env


class GeminiNoSubstitution(GeminiCli):
    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        return ["bash", "-c", command]


class GeminiShlexQuoting(GeminiCli):
    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        for name in ("GEMINI_CWD", "GEMINI_SESSION_ID", "GEMINI_PROJECT_DIR"):
            command = command.replace(f"${name}", shlex.quote(env[name]))
        return ["bash", "-c", command]


class GeminiVariablesWithoutHistory(GeminiCli):
    def at_version(self, version: str) -> Host:
        host = super().at_version(version)
        type(host).hook_variables = GeminiCli.hook_variables
        return host


class GeminiHeadlessAsInteractive(GeminiCli):
    def launched(self, how: str) -> Host:
        return self


class GeminiUntypedHooksRun(GeminiCli):
    def parse_hooks(self, block: Any) -> Any:
        return parse_matcher_groups(block, events=GEMINI_EVENTS,
                                    matcher_events=GEMINI_MATCHER_EVENTS, timeout_unit_s=0.001)  # fmt: skip


# --- Hermes ---------------------------------------------------------------------------------
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
        if verdict.note.startswith("stdout not used"):
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


class CodexPlainShell(Codex):
    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        return [env.get("SHELL") or "/bin/sh", "-c", command]


class CursorDropsSessionStartEnv(Cursor):
    def read(self, event: str, run: HookRun) -> Verdict:
        verdict = super().read(event, run)
        verdict.env = None
        return verdict


class GeminiNoDedupe(GeminiCli):
    dedupe = False


class ClaudeWithoutHistory(ClaudeCode):
    def at_version(self, version: str) -> Host:
        return self


def _keeps_reasons(session: type[Session]) -> type[Session]:
    """The session, with a block the session goes on with never handed to the model."""
    return type(f"{session.__name__}KeepsReasons", (session,), {"deliver": lambda self, f: None})


class ClaudeKeepsReasons(ClaudeCode):
    session_class = _keeps_reasons(ClaudeSession)


class CodexPlainStopReason(Codex):
    session_class = type(
        "CodexPlainStopReasonSession",
        (CodexSession,),
        {"told": lambda self, firing: [run.told for run in firing.runs if run.told]},
    )


class CursorKeepsReasons(Cursor):
    session_class = _keeps_reasons(CursorSession)


class HermesKeepsReasons(Hermes):
    session_class = _keeps_reasons(HermesSession)


class _LastReplyOnly(GeminiSession):
    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        if event == "AfterAgent" and isinstance(fields.get("prompt_response"), str):
            fields["prompt_response"] = fields["prompt_response"].split("\n")[-1]
        return super().payload(event, **fields)


class GeminiLastReplyOnly(GeminiCli):
    session_class = _LastReplyOnly


class GeminiKeepsReasons(GeminiCli):
    session_class = _keeps_reasons(GeminiSession)


# mutant profile -> the scenarios that must fail with it
CAUGHT_BY: dict[type[Host], list[str]] = {
    ClaudeKeepsReasons: ["across/guard-reason.yaml", "across/stop-reason.yaml"],
    CodexPlainStopReason: ["across/stop-reason.yaml"],
    CursorKeepsReasons: ["across/guard-reason.yaml", "across/stop-reason.yaml"],
    GeminiKeepsReasons: ["across/guard-reason.yaml"],
    GeminiLastReplyOnly: ["across/stop-reason.yaml"],
    HermesKeepsReasons: ["across/guard-reason.yaml", "across/stop-reason.yaml"],
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
    CodexPlainShell: ["codex/06-login-shell-and-parallel.yaml"],
    CursorDropsSessionStartEnv: ["cursor/06-session-start-env.yaml"],
    GeminiNoDedupe: ["gemini-cli/03-sequential-groups.yaml"],
    ClaudeNoCompactSessionStart: [
        "claude-code/01-save-in-precompact-reinject.yaml",
        "across/memory-session.yaml",
    ],
    CodexExit2WithoutStderrBlocks: ["codex/03-exit-2-without-stderr.yaml"],
    CodexPreCompactBlocks: ["codex/04-precompact-cannot-block.yaml"],
    CodexCapped: ["codex/05-stop-loop-uncapped.yaml", "across/stop-loop.yaml"],
    CodexSessionStartNotQueued: [
        "codex/01-save-in-precompact-reinject.yaml",
        "across/memory-session.yaml",
    ],
    CodexSequential: ["codex/06-login-shell-and-parallel.yaml"],
    CodexSessionStartAfterPrompt: [
        "codex/01-save-in-precompact-reinject.yaml",
        "codex/09-session-start-first.yaml",
        "across/memory-session.yaml",
    ],
    CodexIgnoresCompactContinue: ["codex/07-compact-continue-false.yaml"],
    CodexLoginShell: ["codex/08-bash-c.yaml"],
    CodexNoSessionEnd: ["codex/01-save-in-precompact-reinject.yaml", "codex/10-session-end.yaml"],
    CodexSessionEndUncapped: ["codex/10-session-end.yaml"],
    CodexAnchoredMatchers: ["codex/11-matchers.yaml"],
    CodexExactAsRegex: ["codex/11-matchers.yaml"],
    CodexWithoutHistory: ["codex/06-login-shell-and-parallel.yaml"],
    CodexExecWithoutResume: ["codex/12-exec-per-turn.yaml"],
    CodexExecOneSession: ["codex/12-exec-per-turn.yaml", "across/memory-session.yaml"],
    CodexExecAsksForApproval: ["codex/12-exec-per-turn.yaml"],
    CodexNoTranscriptPath: ["codex/13-transcript-path.yaml"],
    CodexBraceTextIsContext: ["codex/14-stdout-forms.yaml"],
    CodexCompactIgnoresMatcher: ["codex/16-compact-matchers.yaml"],
    CodexContinueDropsContext: ["codex/15-continue-false-keeps-context.yaml"],
    CursorUnlimited: ["cursor/01-followup-loop-limit.yaml", "across/stop-loop.yaml"],
    CursorAwaitsSessionStart: ["cursor/03-session-start-not-awaited.yaml"],
    CursorPreCompactBlocks: ["cursor/04-precompact-observes-only.yaml"],
    CursorIgnoresFailClosed: ["cursor/05-exit-2-denies-prompt.yaml"],
    GeminiPreCompressNotAwaited: [
        "gemini-cli/01-precompress-awaited.yaml",
        "gemini-cli/10-clear-awaits-session-end.yaml",
    ],
    GeminiPreCompressOnlyAtCompaction: [
        "gemini-cli/01-precompress-awaited.yaml",
        "across/memory-session.yaml",
    ],
    GeminiOldExitCodes: ["gemini-cli/05-exit-codes.yaml"],
    GeminiWithoutHistory: ["gemini-cli/06-exit-codes-before-0.30.yaml"],
    GeminiAfterToolAdvisory: ["gemini-cli/07-after-tool-deny.yaml"],
    GeminiAnchoredMatchers: ["gemini-cli/08-matchers.yaml"],
    GeminiRegexTriggers: ["gemini-cli/08-matchers.yaml"],
    GeminiRetryWithoutBeforeAgent: ["gemini-cli/09-retry-fires-before-agent.yaml"],
    GeminiAlwaysParallel: ["gemini-cli/03-sequential-groups.yaml"],
    GeminiTimeoutInSeconds: ["gemini-cli/04-timeout-in-milliseconds.yaml"],
    GeminiKillsAtOnce: ["gemini-cli/04-timeout-in-milliseconds.yaml"],
    GeminiCapped: ["across/stop-loop.yaml"],
    GeminiFirstRequestWithoutPreCompress: [
        "gemini-cli/01-precompress-awaited.yaml",
        "across/memory-session.yaml",
    ],
    GeminiPreCompressTwiceAtCompaction: ["across/memory-session.yaml"],
    GeminiModelEventsOncePerPrompt: ["gemini-cli/11-model-events-every-request.yaml"],
    GeminiSequentialInputUnchanged: ["gemini-cli/03-sequential-groups.yaml"],
    GeminiSequential: ["gemini-cli/03-sequential-groups.yaml"],
    GeminiWithoutOwnVariables: ["gemini-cli/12-environment-and-substitution.yaml"],
    GeminiNoSubstitution: ["gemini-cli/12-environment-and-substitution.yaml"],
    GeminiShlexQuoting: ["gemini-cli/12-environment-and-substitution.yaml"],
    GeminiVariablesWithoutHistory: ["gemini-cli/15-variables-before-0.39.yaml"],
    GeminiHeadlessAsInteractive: [
        "gemini-cli/13-headless-runs.yaml",
        "across/memory-session.yaml",
    ],
    GeminiUntypedHooksRun: ["gemini-cli/14-hooks-need-a-type.yaml"],
    HermesWithCompactionEvent: [
        "hermes/35-compaction-fires-nothing.yaml",
        "across/memory-session.yaml",
    ],
    HermesExit2Blocks: ["hermes/36-exit-2-is-logged-only.yaml"],
}


# A profile's rules are the same on every Python: tox -e slow runs these once per CI run.
@pytest.mark.slow
@pytest.mark.parametrize(
    ("mutant", "name"),
    [(m, n) for m, names in CAUGHT_BY.items() for n in names],
    ids=lambda v: v.__name__ if isinstance(v, type) else str(v),
)
def test_a_wrong_profile_fails_its_scenario(mutant: type[Host], name: str) -> None:
    """The scenario fails on the mutant profile and passes on the real one."""
    scenario = load_scenario(SCENARIOS / name)
    assert mutant.name in scenario.tools(), f"{name} does not run on {mutant.name}"
    assert expect.check(run_scenario(scenario, tool=mutant.name)) == []
    assert expect.check(run_scenario(scenario, host=mutant())) != []


def test_claude_code_says_once_per_hook_that_it_did_not_check_a_call() -> None:
    """Two PreToolUse hooks whose output Claude Code refuses: the user is told of each at the
    first call, and of neither at the next (real 2.1.332)."""
    scenario = load_scenario(SCENARIOS / "probes/claude-code-rejected-output.yaml")
    result = run_scenario(scenario, tool="claude-code")
    shown = {f.turn: f.shown for f in result.firings if f.event == "PreToolUse"}
    assert shown == {1: [NO_VERDICT_SHOWN, NO_VERDICT_SHOWN], 2: []}


@pytest.mark.parametrize(
    ("env", "aliases"),
    [({}, True), ({"TMPDIR": "/tmp", "CODEX_HOME": "/tmp/hooksim-codex-home"}, False)],
)
def test_codex_puts_its_aliases_first_on_path_unless_its_home_is_temporary(
    tmp_path: Path, env: dict[str, str], aliases: bool
) -> None:
    """arg0/src/lib.rs: Codex refuses to make its alias folder when CODEX_HOME is under the
    temporary folder (TMPDIR, else /tmp), and a hook's PATH then starts with its rg folder."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text(json.dumps({
        "name": "path", "tool": "codex", "env": env,
        "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo $PATH"}]}]},
        "turns": [{"user": "hi", "assistant": "hello"}],
    }))  # fmt: skip
    result = run_scenario(load_scenario(scenario))
    first = result.runs[0].stdout.split(":")[0]
    assert ("/codex-arg0" in first) is aliases, first
