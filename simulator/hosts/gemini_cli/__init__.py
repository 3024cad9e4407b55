"""Gemini CLI, as its code on main (``packages/core/src/hooks/``, ``core/client.ts``,
``context/chatCompressionService.ts``) and a real 0.61.0 run show it; v0.21.0 (the first with
hooks) to v0.61.0.

Timeline: ``SessionStart(startup)`` at launch; per prompt ``BeforeAgent`` (its
``additionalContext`` joins the prompt as ``<hook_context>…</hook_context>``), then one model
request per step of the agent loop. Before every request (a session's first included: its
history starts with the environment context) the compression service fires ``PreCompress(auto)``
and awaits it, whether or not it then compresses (its docs say the hook is not awaited; the code
wins); then ``BeforeModel``, ``BeforeToolSelection``, and ``AfterModel`` for each streamed chunk
of the reply. ``BeforeTool``/``AfterTool`` around each tool call, those of one model response
before the next request; an ``AfterTool`` deny replaces the tool's result with the reason. ``AfterAgent`` ends the prompt: a deny makes Gemini send the
reason as a new prompt, which fires ``BeforeAgent`` again and ``AfterAgent`` with
``stop_hook_active: true``; only the per-prompt turn budget bounds it. ``/compress`` fires
``PreCompress(manual)``. ``/clear`` fires ``SessionEnd(clear)`` then ``SessionStart(clear)``;
quitting fires ``SessionEnd(exit)``; both are awaited. Headless (``gemini -p``,
``hosts.gemini-cli.launch: headless``) each prompt is a run of its own: ``SessionStart(startup)``,
or ``(resume)`` with ``--resume``, the prompt, ``SessionEnd(exit)``.

Hooks run as ``bash -c`` with Gemini's whole environment (redacted only when
``GITHUB_SHA`` is set or redaction is turned on) plus ``GEMINI_*`` variables, which are also
substituted into the command string. Identical hooks run once, in parallel unless any matching
group says ``sequential: true``; then one after another, each JSON output that exits 0 changing
the next hook's input (BeforeAgent's prompt, BeforeModel's request, BeforeTool's tool_input). Matchers are regexes (a search) for tool events and exact
strings for ``SessionStart``/``SessionEnd``/``PreCompress``. Output (v0.30.0 on): stdout's text,
else stderr's, is read as JSON whatever the exit code; text that is not JSON is a
``systemMessage`` on exit 0, a warning on exit 1, and a deny with that text on any other code;
a silent non-zero exit is only a failed hook. Before v0.30.0 only exit 2 with stderr denied.
"""
