"""Each Gemini CLI quirk is pinned: a profile with that one fact wrong fails the scenarios named for
it."""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from typing import Any

from hooksim.hosts import HookRun, HookSpec, Host
from hooksim.hosts.config import parse_matcher_groups
from hooksim.hosts.gemini_cli.constants import EVENTS as GEMINI_EVENTS
from hooksim.hosts.gemini_cli.constants import MATCHER_EVENTS as GEMINI_MATCHER_EVENTS
from hooksim.hosts.gemini_cli.profile import GeminiCli
from hooksim.hosts.gemini_cli.session import GeminiSession
from hooksim.scenario import Compact

from ..quirks import keeps_reasons, quirk_test


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
    timeout_signal = "SIGKILL"


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
        return parse_matcher_groups(
            block, events=GEMINI_EVENTS, matcher_events=GEMINI_MATCHER_EVENTS, timeout_unit_s=0.001
        )


class GeminiNoDedupe(GeminiCli):
    dedupe = False


class _LastReplyOnly(GeminiSession):
    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        if event == "AfterAgent" and isinstance(fields.get("prompt_response"), str):
            fields["prompt_response"] = fields["prompt_response"].split("\n")[-1]
        return super().payload(event, **fields)


class GeminiLastReplyOnly(GeminiCli):
    session_class = _LastReplyOnly


class GeminiKeepsReasons(GeminiCli):
    session_class = keeps_reasons(GeminiSession)


# mutant profile -> the scenarios that must fail with it
CAUGHT_BY: dict[type[Host], list[str]] = {
    GeminiKeepsReasons: ["across/guard-reason.yaml"],
    GeminiLastReplyOnly: ["across/stop-reason.yaml"],
    GeminiNoDedupe: ["gemini-cli/03-sequential-groups.yaml"],
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
}


test_a_wrong_profile_fails_its_scenario = quirk_test(CAUGHT_BY)
