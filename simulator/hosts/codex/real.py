"""Codex CLI as a real host: ``codex exec`` for the first turn, ``codex exec resume --last`` after.

Its hooks go in ``$CODEX_HOME/hooks.json``, and a model provider in ``config.toml`` points it at
the fake OpenAI Responses API.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...real.driver import FULL_CONTEXT_TOKENS, ExecDriver, RealHostError, Session
from ...real.tools import Offer

TRUST_FLAG = "--dangerously-bypass-hook-trust"


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
        self.trust_flag = True  # whether this release has TRUST_FLAG (read by install)

    def install(self, wrapped: dict[str, Any]) -> list[str]:
        self.codex_home.mkdir(parents=True, exist_ok=True)
        (self.codex_home / "hooks.json").write_text(
            json.dumps({"hooks": wrapped}, indent=2), encoding="utf-8"
        )
        # The flag came in 0.131.0 (0.129.0 and 0.130.0 have the trust but not the flag).
        _, usage = self.command([self.run.binary, "exec", "--help"], timeout=60)
        self.trust_flag = TRUST_FLAG in usage
        return [f"Codex runs hooks only once trusted: each exec passes {TRUST_FLAG}"]

    def env(self, url: str) -> dict[str, str]:
        model = self.run.scenario.session.get("model", "model-1")
        (self.codex_home / "config.toml").parent.mkdir(parents=True, exist_ok=True)
        (self.codex_home / "config.toml").write_text(
            f"model = {json.dumps(model)}\n"
            'model_provider = "hooksim"\n'
            f"model_auto_compact_token_limit = {FULL_CONTEXT_TOKENS // 2}\n"
            f"model_catalog_json = {json.dumps(str(self.catalog(model)))}\n"
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

    def catalog(self, model: str) -> Path:
        """A model catalog naming the fake model (``model_catalog_json``), so that Codex offers
        it ``apply_patch`` as it offers its own models.

        A model Codex does not know gets its fallback metadata, with no apply_patch tool
        (openai/codex ``codex-rs/core/src/models_manager/model_info.rs`` at 2f83b5db,
        ``model_info!``: ``apply_patch_tool_type: None``), while every model of the catalog
        0.171.0 carries declares ``"apply_patch_tool_type": "freeform"``: the custom tool with
        a grammar, whose calls come as ``custom_tool_call`` (``tools/handlers/apply_patch.rs``
        at c54ece42, ``create_apply_patch_freeform_tool``). The rest is the fallback's, but for
        the base instructions, which a catalog entry must give (a short line here).
        """
        entry = {
            "slug": model,
            "display_name": model,
            "supported_reasoning_levels": [],
            "shell_type": "default",
            "visibility": "none",
            "supported_in_api": True,
            "priority": 99,
            "support_verbosity": False,
            # Required by releases before 0.150.0 (0.131.0 refuses a catalog without them).
            "supports_reasoning_summaries": False,
            "supports_parallel_tool_calls": False,
            "truncation_policy": {"mode": "bytes", "limit": 10_000},
            "experimental_supported_tools": [],
            "apply_patch_tool_type": "freeform",
            "base_instructions": "You are a coding agent running in the Codex CLI.",
        }
        path = self.codex_home / "models.json"
        path.write_text(json.dumps({"models": [entry]}, indent=2), encoding="utf-8")
        return path

    def send(self, text: str) -> None:
        if not self.trust_flag:
            raise RealHostError(
                f"codex: {self.run.binary} has no {TRUST_FLAG} (it came in 0.131.0): its hooks"
                " run only once a user trusted each in its TUI, which an unattended run cannot"
            )
        argv = [self.run.binary, "exec"]
        if self.started:
            argv += ["resume", "--last"]
        argv += [
            "--json",
            "--skip-git-repo-check",
            TRUST_FLAG,
            "--dangerously-bypass-approvals-and-sandbox",
            text,
        ]
        self.started = True
        self.exec_turn(argv)

    def wire_call(self, name: str, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """Codex's hooks see its shell tool, ``exec_command {cmd}``, as ``Bash {command}``, and
        the patch of its custom tool ``apply_patch`` (the call's text, sent as its ``input``)
        as ``command`` (``core/src/tools/hook_names.rs``)."""
        if name == "Bash" and "command" in args:
            rest = {k: v for k, v in args.items() if k not in ("command", "description")}
            return "exec_command", {"cmd": args["command"], **rest}
        if name == "apply_patch":
            return name, {"input": args.get("command", "")}
        return name, args


# The tools the pinned release declares in its requests to the fake model, by the name its hooks
# see, with the arguments its schema requires (``real.tools``).
OFFER = Offer(
    "0.171.0",
    {
        "Bash": ("command",),
        "apply_patch": ("command",),
        "write_stdin": ("session_id",),
        "request_user_input": (),
        "view_image": ("path",),
        "get_goal": (),
        "create_goal": (),
        "update_goal": (),
    },
)

DRIVER = CodexDriver
