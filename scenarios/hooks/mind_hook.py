"""A stand-in for the mind's memory hooks on hosts that have a pre-compaction event.

One script for Claude Code, Codex CLI, Cursor and Gemini CLI, the way hook authors ship the
same hooks to several hosts: it reads the host's payload, finds the lifecycle point from
``hook_event_name``, and calls the mind's bridge (the same contract ``hermes_hooks`` uses):

    session start   start_session; after a compaction, re-inject the saved snapshot as context
    prompt submit   save_memory (user, temporary)
    turn end        save_memory (assistant); a stop continuation is not saved twice
    pre-compact     write a snapshot file, then cleanup_frames (mode compact)

Like a hook should, it exits 0 whatever happens and prints only what the host should read.
Run it as ``"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/../hooks/mind_hook.py"``.
"""

from __future__ import annotations

import json
import os
import sys

from hermes_hooks.bridge import Bridge, BridgeError

SESSION_START = {"SessionStart", "sessionStart"}
PROMPT = {"UserPromptSubmit", "BeforeAgent", "beforeSubmitPrompt"}
TURN_END = {"Stop", "AfterAgent", "afterAgentResponse"}
PRE_COMPACT = {"PreCompact", "PreCompress", "preCompact"}
SNAPSHOT = ".mind-snapshot"  # in the hook's working directory (the project)


def handle(payload: dict[str, object], bridge: Bridge) -> str:
    """Do the work for one event; return what to print on stdout."""
    event = str(payload.get("hook_event_name", ""))
    session = str(payload.get("session_id") or payload.get("conversation_id") or "")
    source = os.environ.get("MIND_HOST", "unknown")
    if event in SESSION_START:
        bridge.call(
            "start_session",
            {"session_id": session, "cwd": str(payload.get("cwd", "")), "model": str(payload.get("model", "")),
             "platform": "cli", "source": source},
        )  # fmt: skip
        if payload.get("source") == "compact" and os.path.exists(SNAPSHOT):
            with open(SNAPSHOT, encoding="utf-8") as f:
                context = f"Before compaction: {f.read()}"
            return json.dumps(
                {"hookSpecificOutput": {"hookEventName": event, "additionalContext": context}}
            )
    elif event in PROMPT:
        save(bridge, str(payload.get("prompt", "")), "user", True, session=session, source=source)
    elif event in TURN_END and not payload.get("stop_hook_active"):
        text = (
            payload.get("last_assistant_message")
            or payload.get("prompt_response")
            or payload.get("text")
        )
        if isinstance(text, str) and text:
            save(bridge, text, "assistant", False, session=session, source=source)
    elif event in PRE_COMPACT:
        with open(SNAPSHOT, "w", encoding="utf-8") as f:
            f.write(f"{payload.get('trigger', '')} compaction of session {session}")
        bridge.call("cleanup_frames", {"mode": "compact"})
    return ""


def save(
    bridge: Bridge, content: str, role: str, temporary: bool, *, session: str, source: str
) -> None:
    bridge.call(
        "save_memory",
        {"content": content, "role": role, "temporary": temporary, "session_id": session,
         "turn_id": "", "source": source},
    )  # fmt: skip


def main() -> int:
    try:
        payload = json.loads(sys.stdin.buffer.read() or b"{}")
        out = handle(payload if isinstance(payload, dict) else {}, Bridge.from_env())
    except (BridgeError, OSError, ValueError) as e:
        print(f"mind_hook: {e}", file=sys.stderr)
        return 0
    if out:
        print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
