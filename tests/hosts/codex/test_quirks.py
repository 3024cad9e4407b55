"""Each Codex CLI quirk is pinned: a profile with that one fact wrong fails the scenarios named for
it."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hooksim.hosts import HookRun, HookSpec, Host, Verdict
from hooksim.hosts.claude_style import ClaudeStyleReading
from hooksim.hosts.codex.profile import Codex
from hooksim.hosts.codex.session import CodexSession
from hooksim.replay.runner import run_scenario
from hooksim.scenario import Compact, Turn, load_scenario

from ..quirks import quirk_test


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


class CodexPlainShell(Codex):
    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        return [env.get("SHELL") or "/bin/sh", "-c", command]


class CodexPlainStopReason(Codex):
    session_class = type(
        "CodexPlainStopReasonSession",
        (CodexSession,),
        {"told": lambda self, firing: [run.told for run in firing.runs if run.told]},
    )


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
    scenario.write_text(
        json.dumps(
            {
                "name": "path",
                "tool": "codex",
                "env": env,
                "hooks": {
                    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo $PATH"}]}]
                },
                "turns": [{"user": "hi", "assistant": "hello"}],
            }
        )
    )
    result = run_scenario(load_scenario(scenario))
    first = result.runs[0].stdout.split(":")[0]
    assert ("/codex-arg0" in first) is aliases, first


# mutant profile -> the scenarios that must fail with it
CAUGHT_BY: dict[type[Host], list[str]] = {
    CodexPlainStopReason: ["across/stop-reason.yaml"],
    CodexPlainShell: ["codex/06-login-shell-and-parallel.yaml"],
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
}


test_a_wrong_profile_fails_its_scenario = quirk_test(CAUGHT_BY)
