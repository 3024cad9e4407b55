"""The Hermes Agent v0.19.0 host: which events fire in a session, their payload bytes, the hooks.

Faithful to ``agent.shell_hooks`` and the CLI's turn loop of v0.19.0 (see the project's reference
on Hermes shell hooks, sections 4 and 6 to 10): ``on_session_start`` before the first turn's
``pre_llm_call``; ``pre_llm_call`` every turn; per tool call ``pre_tool_call`` and
``post_tool_call``; ``post_llm_call`` for a reply (an empty one carries Hermes' explanation,
``agent/turn_finalizer.py``); ``pre_verify`` before a turn that edited files finishes;
``on_session_end`` after every turn that reaches ``finalize_turn`` (a reply or an interruption;
it is a per-turn event despite its name), never after a failed model call, which returns early
from ``agent/conversation_loop.py``; on ``/new``,
``on_session_finalize`` for the old session and ``on_session_reset`` for the new one. There is
no compaction event for shell hooks, so a compaction step fires nothing here: that gap is why
``hermes_hooks`` compacts from its Stop hook. Quitting fires ``on_session_finalize``.

Hooks run without a shell (``shlex.split`` of the command, ``~`` expanded), one after another.
Exit codes are only logged, exit 2 included; stdout is read as one JSON value:
``{"context": ...}`` is injected into the turn by ``pre_llm_call``, and a block
(``action``/``decision``) stops a ``pre_tool_call``'s tool, whose ``post_tool_call`` still fires
with ``status: blocked``.
"""
