"""Which hooks a Hermes release reads from its config, by its own parser, and its consent to
them (``hooksim conformance hermes``: the ``hermes-hooks install`` row).

Run by the Python of the release's venv, never imported by hooksim: standard library and
Hermes only. With ``HERMES_HOME`` set, it loads the config as Hermes does
(``hermes_cli.config.load_config``) and parses its ``hooks:`` block with the release's
``agent.shell_hooks``: ``iter_configured_hooks``, what ``hermes hooks list`` uses (0.19.0:
agent/shell_hooks.py line 287, hermes_cli/hooks.py line 55), else the parser under it,
``_parse_hooks_block``. Then it registers them consented, as ``hermes --accept-hooks`` does at
start (``register_from_config(cfg, accept_hooks=True)``, cli.py line 1035), which writes the
release's ``shell-hooks-allowlist.json``.

One JSON object on stdout: ``parser`` (the function that read the block), ``read`` (each hook
as ``[event, command]``, in order) and ``registered`` (the events registered), or
``consent_error``; ``error`` alone when the release cannot read the block at all. Everything
Hermes prints goes to stderr.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from typing import Any


def _error(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"


def read() -> dict[str, Any]:
    try:
        shell_hooks = importlib.import_module("agent.shell_hooks")
        config = importlib.import_module("hermes_cli.config").load_config()
        if hasattr(shell_hooks, "iter_configured_hooks"):
            parser = "iter_configured_hooks"
            specs = shell_hooks.iter_configured_hooks(config)
        else:
            parser = "_parse_hooks_block"
            specs = shell_hooks._parse_hooks_block(config.get("hooks"))
    except Exception as e:  # the release's own failure is the answer
        return {"error": _error(e)}
    said: dict[str, Any] = {"parser": parser, "read": [[s.event, s.command] for s in specs]}
    try:
        registered = shell_hooks.register_from_config(config, accept_hooks=True)
    except Exception as e:
        said["consent_error"] = _error(e)
    else:
        said["registered"] = [s.event for s in registered]
    return said


def main() -> int:
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # Hermes' own output goes to stderr; stdout carries only the answer
    protocol.write(json.dumps(read()) + "\n")
    protocol.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
