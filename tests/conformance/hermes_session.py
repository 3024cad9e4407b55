"""Drive the real Hermes CLI through one scripted session, as ``hermes`` does per turn.

    python hermes_session.py PLAN.json

Run in its own process (Hermes reads its config when ``cli`` is imported): HERMES_HOME, HOME
and the working directory are set by the caller. The plan names the turns (``HermesCLI.chat``
for each user message, ``new_session`` for ``/new``), the fake model server's script, and
where to write the request bodies the model server got. A turn may be interrupted: the driver
waits until the server holds the model request, then calls ``agent.interrupt`` as the CLI does
when the user types during a turn. The session ends as the CLI exits (``_run_cleanup``).

The model server is hooksim's own (``hooksim.real.models.server``, Chat Completions): the plan's
replies are one script for the whole session, answering the agent loop's requests in order; a
request without tools (a session title) is not the agent loop and gets a fixed text.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

from hooksim.real.models.openai_chat import invalid_request
from hooksim.real.models.reply import ModelScript, Reply, ToolUse
from hooksim.real.models.server import ModelServer

HOLD_S = 60.0  # how long a held model request waits for the interruption


def scripted(raw: dict[str, Any]) -> Reply:
    if "status" in raw:
        error = invalid_request(raw.get("message", "scripted failure"))
        return Reply(status=raw["status"], error=error)
    if raw.get("hold"):
        return Reply(held_s=HOLD_S)
    calls = tuple(ToolUse(c["name"], c["arguments"], c["id"]) for c in raw.get("tools", []))
    return Reply(raw.get("content", ""), calls)


def main(plan_path: str) -> int:
    plan = json.loads(Path(plan_path).read_text(encoding="utf-8"))
    script = ModelScript()
    script.set_turn(0, [scripted(r) for r in plan["model"]])
    log = Path(plan["requests_log"]).with_suffix(".jsonl")
    with ModelServer("openai-chat", script, log, models=[plan["model_name"]]) as server:
        session(plan, server)
    bodies = [
        r["body"]
        for r in server.requests()
        if r["method"] == "POST" and r["path"].rstrip("/").endswith("/chat/completions")
    ]
    Path(plan["requests_log"]).write_text(json.dumps(bodies), encoding="utf-8")
    return 0


def session(plan: dict[str, Any], server: ModelServer) -> None:
    """The plan's steps on Hermes' CLI, then its exit."""
    os.environ["HERMES_INTERACTIVE"] = "1"  # cli.main sets it before anything else
    import cli as hermes_cli  # Hermes' own CLI module: reads HERMES_HOME's config now
    from agent.shell_hooks import register_from_config
    from hermes_cli.config import load_config

    # What ``hermes`` (hermes_cli.main) does at startup, before the CLI's first turn.
    register_from_config(load_config(), accept_hooks=True)

    shell = hermes_cli.HermesCLI(
        model=plan["model_name"],
        provider="custom",
        api_key="fake-key",
        base_url=f"{server.url}/v1",
        toolsets=plan.get("toolsets", ["file"]),
    )
    for step in plan["steps"]:
        if step.get("new_session"):
            shell.new_session(silent=True)
            continue
        if step.get("interrupt"):
            server.held.clear()

            def interrupt(message: str = step["interrupt"]) -> None:
                server.held.wait(60)
                shell.agent.interrupt(message)
                server.release()

            threading.Thread(target=interrupt, daemon=True).start()
        shell.chat(step["user"])
    hermes_cli._run_cleanup()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
