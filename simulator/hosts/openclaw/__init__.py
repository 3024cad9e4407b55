"""OpenClaw 2026.9.6 (the npm package ``openclaw``), as its shipped ``dist/`` and ``docs/`` read.

OpenClaw's hooks are JavaScript in its own Node process, not commands: plugin folders whose
``register(api)`` calls ``api.on(name, handler, {priority, timeoutMs, matcher, ...})`` (the
typed hooks), and ``HOOK.md`` folders whose handler listens to internal events
(``agent:bootstrap``, ``command:new``, ``session:compact:before``, ``gateway:startup``...).
hooksim loads them in a Node runner of its own (``replay``) and this profile
states what OpenClaw does around them: which hooks fire in which order for each step
(``session``, on ``tool_calls`` and ``base``), how each kind of hook runs (modify and gate hooks one after another by
priority with their results merged, claim hooks until one claims, observe hooks at once,
``tool_result_persist`` and ``before_message_write`` synchronously), the default budgets, which
hooks fail closed, who may register which hook, and how OpenClaw reads what a handler returns.

Two ways to run it (``hosts.openclaw.launch``): ``gateway`` (the default: a gateway serves the
session, and ``session_start``, ``HOOK.md`` hooks and the gateway's own events fire) and
``local`` (each turn one ``openclaw agent --local`` process: plugins load anew each turn, no
``HOOK.md`` hooks, no ``session_start``).

A scenario's ``hooks:`` for OpenClaw is the part of an ``openclaw.json`` that names them:
``plugins`` (``load.paths``, ``entries.<id>.hooks``, ``entries.<id>.config``, ``allow``,
``deny``, ``enabled``) and ``hooks.internal`` (``load.extraDirs``, ``entries``, ``enabled``),
relative paths read from the scenario's folder (from the config file's, for ``--hooks-config``).
"""
