"""Echo CLI's profile: hooks in matcher groups, run with ``sh -c``, one after another."""

from __future__ import annotations

from typing import Any

from ..config import parse_matcher_groups
from ..profile import Host
from ..records import HookRun, HookSpec, Verdict
from .session import EchoSession

EVENTS = frozenset({"start", "prompt", "stop", "compact"})


class EchoCli(Host):
    name = "echo-cli"
    title = "Echo CLI"
    modelled = "nothing: a host made up for a test"
    events = {
        "session_start": "start",
        "prompt_submit": "prompt",
        "pre_tool": None,
        "post_tool": None,
        "stop": "stop",
        "pre_compact": "compact",
        "post_compact": None,
        "session_end": None,
    }
    config_files = ("~/.echo/hooks.json",)
    spawn = "shell"
    shell_tool = "shell"
    parallel = False
    default_timeout_s = 5.0
    blocking = frozenset({"prompt"})
    exit_2 = "blocks"
    session_class = EchoSession

    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        return parse_matcher_groups(block, events=EVENTS, matcher_events=frozenset({"compact"}))

    def argv(self, command: str, env: Any) -> list[str]:
        return ["/bin/sh", "-c", command]

    def read(self, event: str, run: HookRun) -> Verdict:
        if run.exit_code == 2 and event in self.blocking:
            return Verdict(f"block: {run.stderr.strip()}", block=run.stderr.strip())
        if run.exit_code != 0:  # the host counts it as failed (``records.FAULTS``)
            return Verdict(f"error: exit {run.exit_code}", fault="failed")
        return Verdict()


PROFILE = EchoCli
