"""Cursor's agent hooks (``.cursor/hooks.json``), as its hooks documentation describes them (2026).

Timeline: ``sessionStart`` when a conversation is created, fire-and-forget (the agent does not
wait for it; the ``env`` it returns reaches the hooks started after it finished); per message ``beforeSubmitPrompt``, tool hooks, ``afterAgentResponse``, then
``stop`` with ``status`` (``completed``, ``aborted`` on an interrupt, ``error``) and
``loop_count``. A ``followup_message`` from ``stop`` is submitted as the next user message, up
to the hook's ``loop_limit`` (default 5; ``null``: no cap). Compaction fires ``preCompact``,
which observes only; nothing fires after it. Closing the window fires ``sessionEnd``,
fire-and-forget.

Not documented, so chosen here and said in README: the default timeout (hooksim uses 60 s),
whether hooks of one event run in parallel (hooksim runs them in order), and whether a
follow-up fires ``beforeSubmitPrompt`` again (hooksim does not). Exit 2 denies (blocks) where
an event can be blocked; other failures fail open unless the hook sets ``failClosed``.
"""
