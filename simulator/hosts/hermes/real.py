"""Hermes as a real host: its interactive CLI in one process, a message at a time.

The process is ``hermes_loop`` run by the interpreter of the ``hermes`` executable; Hermes'
config (hooks consented) goes in ``$HERMES_HOME/config.yaml`` under the temporary HOME, and its
``custom`` provider calls the fake OpenAI Chat Completions API.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...hosts import Firing, Host
from ...real.driver import After, LineDriver, RealHostError, Session
from ...real.install import Source
from ...real.observable import payload_of
from ...real.tools import Offer
from ...scenario import Turn


class HermesDriver(LineDriver):
    """Hermes: its interactive CLI (``HermesCLI.chat`` per message, ``hermes_loop``) in
    one process run by the interpreter of the ``hermes`` executable, against a fake
    OpenAI-compatible server (its ``custom`` provider). Hooks are consented in the config
    (``hooks_auto_accept``), as a terminal user would at the first prompt."""

    name = "hermes"
    dialect = "openai-chat"
    binary = "hermes"
    package = "hermes-agent"
    release_source = Source("pypi", "hermes-agent")  # each release in a venv of its own

    @classmethod
    def blocked(cls, host: Host, firing: Firing, probe: dict[str, Any], seen: After) -> bool | None:
        """A blocked call still fires post_tool_call, with the status ``blocked``."""
        if firing.event != host.events["pre_tool"]:
            return None
        post = next((p for f, p in seen.later if f.turn == firing.turn
                     and f.event == host.events["post_tool"]), None)  # fmt: skip
        extra = payload_of(post).get("extra") if post is not None else None
        return isinstance(extra, dict) and extra.get("status") == "blocked"

    def __init__(self, run: Session) -> None:
        super().__init__(run)
        self.hermes_home = run.home / ".hermes"

    def install(self, wrapped: dict[str, Any]) -> list[str]:
        self.hermes_home.mkdir(parents=True, exist_ok=True)
        config = {"hooks": wrapped, "hooks_auto_accept": True}
        (self.hermes_home / "config.yaml").write_text(json.dumps(config, indent=2))  # JSON is YAML
        return ["hooks consented in config.yaml (hooks_auto_accept), as at Hermes' first prompt"]

    def env(self, url: str) -> dict[str, str]:
        tools = {c.name for t in self.run.scenario.steps if isinstance(t, Turn) for c in t.tools}
        return {
            "HERMES_HOME": str(self.hermes_home),
            "HOOKSIM_MODEL_URL": f"{url}/v1",
            "HOOKSIM_MODEL_NAME": str(self.run.scenario.session.get("model") or "fake-model"),
            "HOOKSIM_TOOLSETS": "file,terminal" if tools else "file",
        }

    def python(self) -> str:
        """The interpreter the ``hermes`` script runs with (its ``#!`` line)."""
        with open(self.run.binary, "rb") as f:
            first = f.readline().decode("utf-8", "replace")
        if not first.startswith("#!"):
            raise RealHostError(f"--real hermes: {self.run.binary} is not a Python script")
        return first[2:].strip().split()[0]

    def start(self) -> None:
        self.spawn([self.python(), "-I", str(Path(__file__).with_name("hermes_loop.py"))])

    def send(self, text: str) -> None:
        self.write_line({"user": text})

    def new_session(self) -> None:
        self.write_line({"new": True})


# The tools the pinned release declares in its requests to the fake model, by the name its hooks
# see, with the arguments its schema requires (``real.tools``).
OFFER = Offer(
    "0.19.0",
    dict.fromkeys(("patch", "process", "read_file", "search_files", "terminal",
                   "write_file"), ()),
    checks_arguments=False,
)  # fmt: skip

DRIVER = HermesDriver
