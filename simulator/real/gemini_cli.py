"""Gemini CLI as a real host: ``gemini -p`` per turn, ``--resume latest`` after the first.

Its hooks and settings go in ``~/.gemini/settings.json`` under the temporary HOME, and
``GOOGLE_GEMINI_BASE_URL`` points it at the fake Gemini API.
"""

from __future__ import annotations

import json
from typing import Any

from .driver import ExecDriver


class GeminiCliDriver(ExecDriver):
    """Gemini CLI: ``gemini -p`` per turn, ``--resume latest`` after the first.

    Headless mode needs the API-key login chosen in ``settings.json`` (else the base URL
    selects a gateway login it rejects) and a trusted workspace (else it refuses to start and
    project hooks do not run); ``--yolo`` lets the scripted tools run. A named model keeps the
    CLI from asking a classifier model which one to use.
    """

    name = "gemini-cli"
    dialect = "gemini"
    binary = "gemini"
    package = "@google/gemini-cli"
    launch = "headless"  # without a terminal there is no interactive session

    def install(self, wrapped: dict[str, Any]) -> list[str]:
        settings = self.run.home / ".gemini" / "settings.json"
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps({
            "hooks": wrapped,
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "telemetry": {"enabled": False},
            "privacy": {"usageStatisticsEnabled": False},
            "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
        }, indent=2), encoding="utf-8")  # fmt: skip
        return ["the workspace is trusted (GEMINI_CLI_TRUST_WORKSPACE=true): untrusted, headless"
                " Gemini CLI does not start and project hooks do not run"]  # fmt: skip

    def env(self, url: str) -> dict[str, str]:
        return {
            "GOOGLE_GEMINI_BASE_URL": url,
            "GEMINI_API_KEY": "hooksim-offline",
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
        }

    def send(self, text: str) -> None:
        model = self.run.scenario.session.get("model", "gemini-2.5-pro")
        argv = [self.run.binary, "-p", text, "--yolo", "-o", "json", "-m", model]
        if self.started:
            argv += ["--resume", "latest"]
        self.started = True
        self.exec_turn(argv)
