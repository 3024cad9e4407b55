"""The tools each real host offers its model, and the check that refuses a scenario whose calls
the real host would not run as hooksim's replay does.

A real host runs a tool call only when the request it sent the model declared that tool, and
only with the arguments the tool's schema requires; any other call is answered with an error
and fires no hook (Claude Code's ``InputValidationError``, Gemini CLI's "params must have
required property", Codex's "unsupported call"), while the replay fires the hooks all the same.
So ``--real`` refuses such a scenario before anything starts, in one line with the file and the
turn's line (``refusal``).

The tables are the tools each pinned release declares in its requests to the fake model, by the
name its hooks see (``tools`` in the request log of a ``--real`` run): Claude Code 2.1.332
(Anthropic ``tools``), Codex CLI 0.171.0 (Responses ``tools``: its shell tool ``exec_command``
as ``Bash``, its custom tool ``apply_patch``), Gemini CLI 0.61.0 (``functionDeclarations``),
Hermes 0.19.0 with the file and terminal toolsets (Chat Completions ``tools``). Hermes checks
no argument against its schemas (a handler takes what it gets: ``patch`` defaults its mode), so
only its tool names are checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..hosts import Host
from ..scenario import Scenario, Turn

# Claude Code 2.1.332's tools that its requests list but do not load: the model must first
# fetch them with ToolSearch, and hooksim's fake model calls a tool directly.
_DEFERRED = "a deferred tool, which the model must load with ToolSearch first"


@dataclass(frozen=True)
class Offer:
    """What one release offers its model: each tool (by the name its hooks see) with the
    arguments its schema requires, and the reason each tool it does not offer is missing."""

    version: str
    tools: Mapping[str, tuple[str, ...]]
    missing: Mapping[str, str] = field(default_factory=dict)
    checks_arguments: bool = True


OFFERS: dict[str, Offer] = {
    "claude-code": Offer(
        "2.1.332",
        {
            "Agent": ("description", "prompt"), "Bash": ("command",),
            "Edit": ("file_path", "old_string", "new_string"), "ListAgents": (),
            "Read": ("file_path",), "ReportFindings": ("findings",), "ScheduleWakeup": (),
            "Skill": ("skill",), "ToolSearch": ("query",), "Workflow": (),
            "Write": ("file_path", "content"),
        },
        {
            "MultiEdit": "its Edit makes one edit a call",
            **dict.fromkeys(("CronCreate", "CronDelete", "CronList", "EnterWorktree",
                             "ExitWorktree", "Monitor", "NotebookEdit", "SendMessage",
                             "TaskStop", "WebFetch", "WebSearch"), _DEFERRED),
        },
    ),
    "codex": Offer(
        "0.171.0",
        {
            "Bash": ("command",), "apply_patch": ("command",), "write_stdin": ("session_id",),
            "request_user_input": (), "view_image": ("path",), "get_goal": (),
            "create_goal": (), "update_goal": (),
        },
    ),
    "gemini-cli": Offer(
        "0.61.0",
        {
            "update_topic": ("strategic_intent",), "list_directory": ("dir_path",),
            "read_file": ("file_path",), "grep_search": ("pattern",), "glob": ("pattern",),
            "replace": ("file_path", "instruction", "old_string", "new_string"),
            "write_file": ("file_path", "content"), "web_fetch": ("prompt",),
            "run_shell_command": ("command",), "list_background_processes": (),
            "read_background_output": ("pid",), "google_web_search": ("query",),
            "write_todos": ("todos",), "enter_plan_mode": (),
            "invoke_agent": ("agent_name", "prompt"), "activate_skill": ("name",),
        },
    ),
    "hermes": Offer(
        "0.19.0",
        dict.fromkeys(("patch", "process", "read_file", "search_files", "terminal",
                       "write_file"), ()),
        checks_arguments=False,
    ),
}  # fmt: skip


def refusal(scenario: Scenario, host: Host) -> str | None:
    """Why the real ``host`` cannot run this scenario's tool calls as the replay runs them, in
    one line (``FILE:LINE: ...``); None when it can."""
    offer = OFFERS.get(host.name)
    if offer is None:
        return None
    numbered = [(n, s) for n, s in scenario.numbered_steps if isinstance(s, Turn)]
    for number, turn in numbered:
        for call in turn.tools:
            why = _unfit(call.name, call.args, offer, host.title)
            if why:
                return f"{scenario.path}:{turn.line}: turn {number} calls {why}"
    return None


def _unfit(name: str, args: Mapping[str, object], offer: Offer, title: str) -> str | None:
    """What keeps the host from running one call (None: nothing)."""
    release = f"{title} {offer.version}"
    if name not in offer.tools:
        why = offer.missing.get(name)
        if name.startswith("mcp__"):
            why = "a --real run configures no MCP server"
        return (
            f"{name}, a tool {release} does not offer its model"
            f"{f' ({why})' if why else ''}: the real host would run no hook for it"
        )
    required = offer.tools[name]
    absent = [arg for arg in required if arg not in args] if offer.checks_arguments else []
    if absent:
        return (
            f"{name} without {', '.join(absent)}, which {release}'s {name} requires"
            f" ({', '.join(required)}): the real host answers it with an error and runs no hook"
        )
    return None
