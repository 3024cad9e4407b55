"""OpenAI Codex CLI, as ``codex-rs`` on main and a real 0.169.0 run show it (0.129.0 on).

Timeline: ``SessionStart`` is *queued* (at launch, after ``/clear``, after a compaction) and the
next turn runs it first, before ``UserPromptSubmit`` (``run_turn`` drains pending session-start
hooks before it records the turn's input); a ``continue: false`` from it ends the turn there.
Per turn: ``UserPromptSubmit``, tool events, then ``Stop``; a block turns the reason into a
continuation prompt and ``Stop`` fires again with ``stop_hook_active: true``, with no cap. An API
error fires ``StopFailure``. Compaction: ``PreCompact`` (exit 2 and ``decision: block`` do not
stop it, ``continue: false`` does), ``PostCompact`` (``continue: false`` stops the turn), and
``SessionStart(compact)`` queued. ``SessionEnd`` fires at ``/clear`` (reason ``clear``) and when
the session ends (``other``), with a 1 s default timeout capped at 3 s.

Hooks run as ``/bin/bash -c`` (0.129.0 ran ``$SHELL -lc``), all matching hooks of an event at
once; ``async: true`` hooks are not awaited. A matcher of letters, digits, ``_`` and ``|`` is a
list of exact names; anything else is an unanchored regex. Exit 2 blocks only with a non-empty
stderr; without one the hook just failed. Other codes fail open; plain stdout is context for
``SessionStart`` and ``UserPromptSubmit``. Project hooks do not run until they are trusted.

Run as ``codex exec`` (``hosts.codex.launch: exec``), each turn is a process of its own: it
queues ``SessionStart`` (``startup``, then ``resume``), ends with ``SessionEnd(other)``, runs
under approval policy never (``permission_mode: bypassPermissions``) and has no ``/compact``.
"""
