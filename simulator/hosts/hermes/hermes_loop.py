"""Hermes' interactive CLI, driven one message at a time (``hooksim run --real hermes``).

Run by the Python that runs Hermes (the interpreter of the ``hermes`` executable), never
imported by hooksim: standard library and Hermes only. It does what ``hermes`` does at start
(register the config's shell hooks, consented), then for each JSON line on stdin:

- ``{"user": TEXT}``: ``HermesCLI.chat(TEXT)``, a turn as the interactive CLI runs it;
- ``{"new": true}``: ``/new`` (``HermesCLI.new_session``);

and answers each with ``{"type": "result"}`` on stdout once Hermes is idle again. At the end
of stdin it exits as the CLI does (``_run_cleanup``). Everything Hermes prints goes to stderr.
The fake model server is ``HOOKSIM_MODEL_URL``, Hermes' ``custom`` OpenAI-compatible provider.
"""

from __future__ import annotations

import json
import os
import sys


def main() -> int:
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # Hermes' own output goes to stderr; stdout carries only the answers
    os.environ["HERMES_INTERACTIVE"] = "1"  # cli.main sets it before anything else
    import cli as hermes_cli  # type: ignore[import-not-found]  # reads HERMES_HOME's config
    from agent.shell_hooks import register_from_config  # type: ignore[import-not-found]
    from hermes_cli.config import load_config  # type: ignore[import-not-found]

    register_from_config(load_config(), accept_hooks=True)
    shell = hermes_cli.HermesCLI(
        model=os.environ.get("HOOKSIM_MODEL_NAME", "fake-model"),
        provider="custom",
        api_key="sk-hooksim-offline",
        base_url=os.environ["HOOKSIM_MODEL_URL"],
        toolsets=os.environ.get("HOOKSIM_TOOLSETS", "file,terminal").split(","),
    )
    for line in sys.stdin:
        step = json.loads(line)
        if step.get("new"):
            shell.new_session(silent=True)
        else:
            shell.chat(step["user"])
        protocol.write(json.dumps({"type": "result"}) + "\n")
        protocol.flush()
    hermes_cli._run_cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
