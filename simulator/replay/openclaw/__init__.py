"""OpenClaw's hooks in hooksim's Node runner: JavaScript handlers run as OpenClaw runs them.

- ``runner.mjs`` (with ``clock.mjs``, ``capture.mjs``, ``registry.mjs``, ``dispatch.mjs``):
  the Node runner, package data; it loads the plugins and ``HOOK.md`` hooks, registers and
  dispatches their handlers as OpenClaw 2026.9.6 does, on hooksim's virtual clock.
- ``node``: the runner as a process, one command at a time.
- ``loading``: the plugin and ``HOOK.md`` folders an OpenClaw config names, as the runner
  loads them.
- ``dispatch``: ``OpenClawDispatcher``, the replay's dispatcher for OpenClaw.

Part of the ``replay`` stage: imports ``hosts`` and the replay's own modules.
"""

from .dispatch import OpenClawDispatcher
from .node import RUNNER, node_binary

__all__ = ["RUNNER", "OpenClawDispatcher", "node_binary"]
