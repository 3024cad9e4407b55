"""Which JSON a Claude Code hook may print, as Claude Code 2.1.332 checks it.

A hook's stdout that starts with ``{`` is read as JSON and checked against one output schema
(the bundled ``continue: boolean, ..., hookSpecificOutput: one object per event`` schema):
every key it names has a type, ``hookSpecificOutput`` is one of a list of objects each named by
its ``hookEventName``, and keys it does not name are dropped (a log line says so), not refused.
Output that fails the check, or whose ``hookSpecificOutput`` names another event than the one
the hook ran for, is not acted on at all: the hook counts as failed (a non-blocking error), so
none of its fields count, not its context, its systemMessage, its ``continue: false`` nor its
decision. Two exceptions, both from the binary: a ``decision: "block"`` keeps its block and only
its ``hookSpecificOutput`` for another event is dropped, and exit 2 still blocks with stderr.

What is not an object is not JSON to Claude Code: stdout that does not start with ``{``, one
that starts with ``{`` but does not end with ``}``, or several JSON documents one a line, each
refused by the schema or empty once its unknown keys are dropped, is plain text. What starts and
ends with a brace but does not parse is refused. Observed on the real 2.1.332 binary, case by
case (``scenarios/probes/claude-code-rejected-output.yaml``).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Mapping
from typing import Any

from ..output import parse_json_output

Check = Callable[[Any], bool]


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _boolean(value: Any) -> bool:
    return isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _record(value: Any) -> bool:
    return isinstance(value, dict)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _list(value: Any) -> bool:
    return isinstance(value, list)


def _anything(value: Any) -> bool:
    return True


def _one_of(*allowed: str) -> Check:
    return lambda value: value in allowed


def _permission_answer(value: Any) -> bool:
    """PermissionRequest's ``decision``: ``{behavior: allow, ...}`` or ``{behavior: deny, ...}``."""
    if not isinstance(value, dict):
        return False
    if value.get("behavior") == "allow":
        fields: dict[str, Check] = {"updatedInput": _record, "updatedPermissions": _list}
    elif value.get("behavior") == "deny":
        fields = {"message": _string, "interrupt": _boolean}
    else:
        return False
    return _problem(value, fields) is None


TOP: dict[str, Check] = {
    "continue": _boolean,
    "suppressOutput": _boolean,
    "stopReason": _string,
    "decision": _one_of("approve", "block"),
    "reason": _string,
    "systemMessage": _string,
    "terminalSequence": _string,
}
PERMISSION = _one_of("allow", "deny", "ask", "defer")
CONTEXT_ONLY: dict[str, Check] = {"additionalContext": _string}
# Each event's hookSpecificOutput: the keys the schema types (an event not here has none).
SPECIFIC: dict[str, dict[str, Check]] = {
    "PreToolUse": {
        "permissionDecision": PERMISSION,
        "permissionDecisionReason": _string,
        "updatedInput": _record,
        "additionalContext": _string,
    },
    "UserPromptSubmit": {
        "additionalContext": _string,
        "sessionTitle": _string,
        "suppressOriginalPrompt": _boolean,
    },
    "UserPromptExpansion": {"additionalContext": _string, "suppressOriginalPrompt": _boolean},
    "SessionStart": {
        "additionalContext": _string,
        "initialUserMessage": _string,
        "sessionTitle": _string,
        "watchPaths": _strings,
        "reloadSkills": _boolean,
    },
    "PreModelSwitch": {
        "permissionDecision": _one_of("allow", "deny", "ask"),
        "permissionDecisionReason": _string,
    },
    "PreSkillShellCommand": {
        "permissionDecision": PERMISSION,
        "permissionDecisionReason": _string,
        "updatedInput": _record,
    },
    "PostToolUse": {
        "additionalContext": _string,
        "classifierContext": _string,
        "updatedToolOutput": _anything,
        "updatedMCPToolOutput": _anything,
    },
    "PermissionDenied": {"retry": _boolean},
    "PermissionRequest": {"decision": _permission_answer},
    "Elicitation": {"action": _one_of("accept", "decline", "cancel"), "content": _record},
    "ElicitationResult": {"action": _one_of("accept", "decline", "cancel"), "content": _record},
    "CwdChanged": {"watchPaths": _strings},
    "FileChanged": {"watchPaths": _strings},
    "WorktreeCreate": {"worktreePath": _string},
    "MessageDisplay": {"displayContent": _string},
    **{
        event: CONTEXT_ONLY
        for event in (
            "Setup",
            "PostModelSwitch",
            "SubagentStart",
            "PostToolUseFailure",
            "PostToolBatch",
            "Stop",
            "SubagentStop",
            "Notification",
        )
    },
}
REQUIRED = {"PermissionRequest": "decision", "WorktreeCreate": "worktreePath"}


def _problem(output: Mapping[str, Any], fields: Mapping[str, Check]) -> str | None:
    """The first key of ``output`` whose value ``fields`` refuses (an optional key may be left
    out, never null), or None."""
    for key, check in fields.items():
        if key in output and not check(output[key]):
            return f"{key}: {json.dumps(output[key])} is not accepted"
    return None


def schema_problem(output: Any) -> str | None:
    """Why the output schema refuses ``output``, or None when it takes it."""
    if not isinstance(output, dict):
        return "not a JSON object"
    if output.get("async") is True:
        return None if _number(output.get("asyncTimeout", 0)) else "asyncTimeout: not a number"
    problem = _problem(output, TOP)
    if problem is not None or "hookSpecificOutput" not in output:
        return problem
    specific = output["hookSpecificOutput"]
    if not isinstance(specific, dict):
        return "hookSpecificOutput: not an object"
    if "hookEventName" not in specific:
        return 'hookSpecificOutput is missing required field "hookEventName"'
    event = specific["hookEventName"]
    if not isinstance(event, str) or event not in SPECIFIC:
        return f"hookSpecificOutput.hookEventName: {json.dumps(event)} has no hookSpecificOutput"
    if event in REQUIRED and REQUIRED[event] not in specific:
        return f"hookSpecificOutput.{REQUIRED[event]}: required"
    problem = _problem(specific, SPECIFIC[event])
    return None if problem is None else f"hookSpecificOutput.{problem}"


def _known(output: Mapping[str, Any]) -> bool:
    """Whether anything is left of ``output`` once the keys the schema does not name are
    dropped."""
    return any(key in TOP or key == "hookSpecificOutput" for key in output) or (
        output.get("async") is True
    )


def _several_documents(text: str) -> bool:
    """Several JSON documents, one a line, each refused or empty once its unknown keys are
    dropped: plain text, not a refused object."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        return False
    for line in lines:
        try:
            document = json.loads(line)
        except ValueError:
            return False
        if schema_problem(document) is None and _known(document):
            return False
    return True


def refusal(event: str, stdout: str) -> str | None:
    """Why Claude Code refuses a hook's ``stdout`` for ``event`` (the hook then failed), or None:
    the output is taken, or is plain text."""
    text = stdout.strip()
    if not text.startswith("{"):
        return None
    try:
        output = json.loads(text)
    except ValueError:
        if not text.endswith("}") or _several_documents(text):
            return None
        return "stdout looks like a JSON object but is not valid JSON"
    problem = schema_problem(output)
    if problem is not None:
        return f"hook JSON output validation failed: {problem}"
    if output.get("async") is True:
        return None  # an async hook's first line: read as such
    named = output.get("hookSpecificOutput", {}).get("hookEventName", event)
    if named != event and not _block_drops_specific(event, output):
        return f"hook returned incorrect event name: expected {event!r} but got {named!r}"
    return None


def _block_drops_specific(event: str, output: Mapping[str, Any]) -> bool:
    """A ``decision: "block"`` whose hookSpecificOutput names another event keeps its block and
    drops that hookSpecificOutput (not on PermissionRequest)."""
    specific = output.get("hookSpecificOutput")
    return (
        event != "PermissionRequest"
        and output.get("decision") == "block"
        and isinstance(specific, dict)
        and specific.get("hookEventName") != event
    )


def dropped_keys(event: str, stdout: str) -> str | None:
    """The top-level keys of a taken JSON output that Claude Code drops unread, in words
    (``unknown key permissionDecision, dropped; it belongs in hookSpecificOutput``), or None."""
    output = parse_json_output(stdout)
    if output is None or refusal(event, stdout) is not None or output.get("async") is True:
        return None
    # An extra key of the hook's own is dropped quietly; one meant for the host is a mistake:
    # a key of the event's hookSpecificOutput at the top level, or a misspelt key.
    specific = SPECIFIC.get(event, {})
    unknown = [k for k in output if k not in TOP and k != "hookSpecificOutput"]
    misplaced = [k for k in unknown if k in specific]
    known = [*TOP, "hookSpecificOutput", *specific]
    misspelt = {
        k: close[0]
        for k in unknown
        if k not in specific and (close := difflib.get_close_matches(k, known, n=1, cutoff=0.8))
    }
    if not misplaced and not misspelt:
        return None
    said = [f"unknown key {k}, dropped; it belongs in hookSpecificOutput" for k in misplaced]
    said += [f"unknown key {k}, dropped (did you mean {close}?)" for k, close in misspelt.items()]
    return "; ".join(said)


def accepted(event: str, output: dict[str, Any]) -> dict[str, Any]:
    """``output`` as Claude Code acts on it, once it passed ``refusal``: without a
    hookSpecificOutput a block names another event with."""
    if _block_drops_specific(event, output):
        return {k: v for k, v in output.items() if k != "hookSpecificOutput"}
    return output
