"""Claude Code, as its hooks reference, its changelog and real 2.1.328 and 2.1.332 runs show it
(v1.0.85 on).

Timeline: ``SessionStart(startup)`` at launch (without ``model``); per turn
``UserPromptSubmit``, then ``PreToolUse``/``PostToolUse`` per tool call and ``PostToolBatch``
once the calls of each model response are done, then ``Stop`` (not on an interrupt; an API error fires
``StopFailure`` instead). A blocked ``Stop`` makes the model continue and fires ``Stop`` again
with ``stop_hook_active: true``; after 8 blocks in a row the turn ends anyway (v2.1.143).
Compaction: ``PreCompact`` (can block since v2.1.105: the compaction is skipped), then
``SessionStart(compact)`` and ``PostCompact``. ``/clear`` ends the session (``SessionEnd``) and
starts another (``SessionStart(clear)``); quitting fires ``SessionEnd``, whose hooks share one
budget: 1.5 s raised to the highest ``SessionEnd`` timeout, up to 60 s (v2.1.74).

Hooks run with ``/bin/sh -c`` (``shell: powershell`` picks PowerShell, ``shell: bash`` is
``/bin/sh`` all the same off Windows; ``args`` is exec form, no shell), all
matching hooks of an event at once, an identical command once; ``async: true`` hooks are not
awaited. A matcher of letters, digits, ``_``, ``-``, spaces, ``,`` and ``|`` is a list of exact
names; anything else is an unanchored regex. Exit 0: stdout that is JSON decides, other stdout
(even text starting with ``{``) is context for ``SessionStart`` and ``UserPromptSubmit`` only.
Exit 2: a block with stderr as the reason, even an empty one. Other codes: a non-blocking
error, unless stdout is valid JSON, which then decides. A PreCompact hook's plain stdout joins
the summariser's instructions, and /compact's output (each compaction hook and what it printed)
reaches the next request.

Every hook gets what the CLI sets for its children (``env``: its pid, whether anyone attends,
its entrypoint, AI_AGENT naming its version, ...); run as ``claude -p``
(``hosts.claude-code.launch: print``, as ``--real`` runs it) nobody attends and the session ends
with ``SessionEnd(other)``."""
