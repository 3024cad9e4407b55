"""Codex CLI as a real host: ``codex exec`` for the first turn, ``codex exec resume --last`` after.

Its hooks go in ``$CODEX_HOME/hooks.json``, and a model provider in ``config.toml`` points it at
the fake OpenAI Responses API.
"""

from __future__ import annotations

import json
from typing import Any

from .driver import FULL_CONTEXT_TOKENS, ExecDriver, Session


class CodexDriver(ExecDriver):
    """Codex CLI: ``codex exec`` for the first turn, ``codex exec resume --last`` for the rest.

    Its hooks run only when trusted: ``--dangerously-bypass-hook-trust`` trusts them for each
    run (said in the run's notes). A model provider in ``config.toml`` points it at the fake
    Responses API; a small ``model_auto_compact_token_limit`` lets the fake model's reported
    usage force an automatic compaction.
    """

    name = "codex"
    dialect = "responses"
    binary = "codex"
    package = "@openai/codex"
    launch = "exec"
    compact_session_start_in_step = False  # run_turn drains it with the turn's own

    def __init__(self, run: Session) -> None:
        super().__init__(run)
        self.codex_home = run.home / ".codex"

    def install(self, wrapped: dict[str, Any]) -> list[str]:
        self.codex_home.mkdir(parents=True, exist_ok=True)
        (self.codex_home / "hooks.json").write_text(
            json.dumps({"hooks": wrapped}, indent=2), encoding="utf-8"
        )
        return [
            "Codex runs hooks only once trusted: each exec passes --dangerously-bypass-hook-trust"
        ]

    def env(self, url: str) -> dict[str, str]:
        model = self.run.scenario.session.get("model", "model-1")
        (self.codex_home / "config.toml").parent.mkdir(parents=True, exist_ok=True)
        (self.codex_home / "config.toml").write_text(
            f"model = {json.dumps(model)}\n"
            'model_provider = "hooksim"\n'
            f"model_auto_compact_token_limit = {FULL_CONTEXT_TOKENS // 2}\n"
            "[model_providers.hooksim]\n"
            'name = "hooksim"\n'
            f"base_url = {json.dumps(url + '/v1')}\n"
            'wire_api = "responses"\n'
            'env_key = "HOOKSIM_MODEL_KEY"\n'
            "[features]\n"
            "hooks = true\n",
            encoding="utf-8",
        )
        return {"CODEX_HOME": str(self.codex_home), "HOOKSIM_MODEL_KEY": "sk-hooksim-offline"}

    def send(self, text: str) -> None:
        argv = [self.run.binary, "exec"]
        if self.started:
            argv += ["resume", "--last"]
        argv += ["--json", "--skip-git-repo-check", "--dangerously-bypass-hook-trust",
                 "--dangerously-bypass-approvals-and-sandbox", text]  # fmt: skip
        self.started = True
        self.exec_turn(argv)

    def wire_call(self, name: str, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """Codex's hooks see its shell tool, ``exec_command {cmd}``, as ``Bash {command}``."""
        if name == "Bash" and "command" in args:
            rest = {k: v for k, v in args.items() if k not in ("command", "description")}
            return "exec_command", {"cmd": args["command"], **rest}
        return name, args
