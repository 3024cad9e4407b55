"""The fake model APIs a real host calls, on 127.0.0.1, scripted from a scenario's turns.

- ``server``: ``ModelServer``, which serves one API and logs every request;
- ``reply``: ``Reply``, ``ToolUse`` and ``ModelScript`` (what the model answers, turn by turn);
- ``dialect``: what each API implements; one module per API: ``anthropic`` (Claude Code),
  ``responses`` (Codex CLI), ``gemini`` (Gemini CLI), ``openai_chat`` (Hermes).
"""
