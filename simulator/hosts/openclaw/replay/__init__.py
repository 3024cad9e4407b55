"""OpenClaw's hooks in hooksim's Node runner: JavaScript handlers run as OpenClaw runs them.

- ``runner.mjs`` (with ``clock.mjs``, ``capture.mjs``, ``registry.mjs``, ``dispatch.mjs``):
  the Node runner, package data; it loads the plugins and ``HOOK.md`` hooks, registers and
  dispatches their handlers as OpenClaw 2026.9.6 does, on hooksim's virtual clock.
- ``node``: the runner as a process, one command at a time.
- ``loading``: the plugin and ``HOOK.md`` folders an OpenClaw config names, as the runner
  loads them.
- ``dispatch``: ``OpenClawDispatcher``, the replay's dispatcher for OpenClaw (``DISPATCHER``).

The ``replay`` stage reaches this through ``hosts.part`` (an ``in_process`` host's
dispatcher); it imports that stage's modules.
"""

from .dispatch import OpenClawDispatcher
from .node import RUNNER, node_binary

DISPATCHER = OpenClawDispatcher

__all__ = ["DISPATCHER", "RUNNER", "OpenClawDispatcher", "node_binary"]
