"""Claude Code as a real host: one ``claude -p`` process for the session, a turn per stdin line.

Its hooks go in ``~/.claude/settings.json`` under the temporary HOME, each plugin is loaded with
``--plugin-dir``; ``ANTHROPIC_BASE_URL`` points it at the fake Anthropic Messages API, with
nothing else of it going online. A resumed session is a new process with ``--resume``.
"""

from __future__ import annotations

import json
from typing import Any

from ...hosts import Firing, HookRun
from ...real.driver import LineDriver, RealHostError
from ...real.tools import Offer
from ...scenario import Turn


class ClaudeCodeDriver(LineDriver):
    """Claude Code: one ``claude -p`` process for the session, a turn per stdin line."""

    name = "claude-code"
    dialect = "anthropic"
    binary = "claude"
    package = "@anthropic-ai/claude-code"
    launch = "print"  # claude -p, stream-json in and out: hosts.claude-code.launch: print

    def install(self, wrapped: dict[str, Any]) -> list[str]:
        settings = self.run.home / ".claude" / "settings.json"
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps({"hooks": wrapped}, indent=2), encoding="utf-8")
        return []

    def env(self, url: str) -> dict[str, str]:
        return {
            "ANTHROPIC_BASE_URL": url,
            "ANTHROPIC_API_KEY": "sk-hooksim-offline",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_MAX_RETRIES": "0",  # a scripted error status is final, not retried
        }

    def start(self, resumed: str | None = None) -> None:
        """``claude -p`` for the session, with each plugin's folder (``resumed``: with
        ``--resume`` of that session id)."""
        tools = sorted(
            {c.name for t in self.run.scenario.steps if isinstance(t, Turn) for c in t.tools}
        ) or ["Bash"]
        argv = [
            self.run.binary,
            "-p",
            "--input-format",
            "stream-json",
            "--output-format",
            "stream-json",
            "--verbose",
            "--include-hook-events",
            "--allowedTools",
            ",".join(tools),
        ]
        model = self.run.scenario.session.get("model")
        if model:
            argv += ["--model", model]
        for plugin in self.run.plugins:
            argv += ["--plugin-dir", str(plugin.place)]
        if resumed is not None:
            argv += ["--resume", resumed]
        # Claude Code refuses to skip permissions as root; --allowedTools lets the scripted
        # tools run without a prompt instead.
        self.spawn(argv)

    def resume(self) -> None:
        """The process ends (its SessionEnd), and ``claude --resume ID`` starts another on the
        session its output named."""
        said = [m["session_id"] for m in self.run.output if isinstance(m.get("session_id"), str)]
        if not said:
            raise RealHostError("claude-code: no session id in its output to resume")
        self.finish()
        self.close()
        self.start(resumed=said[-1])

    def send(self, text: str) -> None:
        self.write_line({"type": "user", "message": {"role": "user", "content": text}})

    @classmethod
    def account(cls, output: list[dict[str, Any]]) -> list[tuple[str, list[str]]] | None:
        """Claude Code's verdict on each hook process, from its stream-json
        (``--include-hook-events``): a firing's ``hook_started`` messages in a row, named
        ``EVENT`` or ``EVENT:MATCH`` (``PreToolUse:Bash``, ``SessionStart:startup``), each
        answered by a ``hook_response`` whose ``outcome`` is success, error (a failure, an exit
        2, output its schema refused) or cancelled (its timeout). A compaction's hooks are not
        in it."""
        answers = {m.get("hook_id"): m for m in output if m.get("subtype") == "hook_response"}
        firings: list[tuple[str, list[str]]] = []
        previous = ""
        for message in output:
            started = message.get("type") == "system" and message.get("subtype") == "hook_started"
            name = str(message.get("hook_name")) if started else ""
            if started and name != previous:
                firings.append((name, []))
            if started:
                answer = answers.get(message.get("hook_id"), {})
                firings[-1][1].append(str(answer.get("outcome", "no answer")))
            previous = name
        return firings

    @classmethod
    def account_of(cls, run: HookRun) -> str:
        """Claude Code's outcome for a hook run as the profile reads it: cancelled at its
        timeout; error for a failure, an exit 2 and output its schema refused (the profile's
        ``failed: ...`` readings); success otherwise (keys it drops and decisions it ignores
        included: it runs them as successes)."""
        if run.timed_out:
            return "cancelled"
        if run.exit_code == 2 or run.fault == "failed" or run.verdict.startswith("failed"):
            return "error"
        return "success"

    @classmethod
    def account_key(cls, firing: Firing) -> str:
        return f"{firing.event}:{firing.match}" if firing.match else firing.event

    def shown_to_user(self, message: dict[str, Any]) -> str | None:
        """stream-json's ``system``/``informational`` messages: the notices Claude Code shows
        its user (``PreToolUse:Bash says: …`` for a systemMessage, a blocked prompt's reason)."""
        if message.get("type") != "system" or message.get("subtype") != "informational":
            return None
        content = message.get("content")
        return content if isinstance(content, str) and content else None


# Tools its requests list but do not load: the model must first fetch them with ToolSearch,
# and hooksim's fake model calls a tool directly.
_DEFERRED = "a deferred tool, which the model must load with ToolSearch first"

# The tools the pinned release declares in its requests to the fake model, by the name its hooks
# see, with the arguments its schema requires (``real.tools``).
OFFER = Offer(
    "2.1.337",
    {
        "Agent": ("description", "prompt"),
        "Bash": ("command",),
        "Edit": ("file_path", "old_string", "new_string"),
        "ListAgents": (),
        "Read": ("file_path",),
        "ReportFindings": ("findings",),
        "ScheduleWakeup": (),
        "Skill": ("skill",),
        "ToolSearch": ("query",),
        "Workflow": (),
        "Write": ("file_path", "content"),
    },
    {
        "MultiEdit": "its Edit makes one edit a call",
        **dict.fromkeys(
            (
                "CronCreate",
                "CronDelete",
                "CronList",
                "EnterWorktree",
                "ExitWorktree",
                "Monitor",
                "NotebookEdit",
                "SendMessage",
                "TaskStop",
                "WebFetch",
                "WebSearch",
            ),
            _DEFERRED,
        ),
    },
)

DRIVER = ClaudeCodeDriver
