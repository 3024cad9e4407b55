"""Drive the real Hermes CLI through one scripted session, as ``hermes`` does per turn.

    python hermes_session.py PLAN.json

Run in its own process (Hermes reads its config when ``cli`` is imported): HERMES_HOME, HOME
and the working directory are set by the caller. The plan names the turns (``HermesCLI.chat``
for each user message, ``new_session`` for ``/new``), the fake model server's script, and
where to write the model server's request log. A turn may be interrupted: the driver waits
until the server holds the model request, then calls ``agent.interrupt`` as the CLI does when
the user types during a turn. The session ends as the CLI exits (``_run_cleanup``).
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

from hooksim.real.fake_models import Failure, FakeModelServer, Hold, Reply, ToolCallReply


def scripted(raw: dict[str, Any]) -> Reply | Failure | Hold:
    if "status" in raw:
        return Failure(raw["status"], raw.get("message", "scripted failure"))
    if raw.get("hold"):
        return Hold()
    calls = tuple(ToolCallReply(c["id"], c["name"], c["arguments"]) for c in raw.get("tools", []))
    return Reply(raw.get("content", ""), calls)


def main(plan_path: str) -> int:
    plan = json.loads(Path(plan_path).read_text(encoding="utf-8"))
    server = FakeModelServer([scripted(r) for r in plan["model"]], model=plan["model_name"])
    base_url = server.start()
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
        base_url=base_url,
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
    Path(plan["requests_log"]).write_text(json.dumps(server.requests), encoding="utf-8")
    server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
