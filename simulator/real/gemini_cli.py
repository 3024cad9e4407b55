"""Gemini CLI as a real host: ``gemini -p`` per turn, ``--resume latest`` after the first.

Its hooks and settings go in ``~/.gemini/settings.json`` under the temporary HOME, its
extensions in ``~/.gemini/extensions`` (copied there, as ``gemini extensions install`` does),
and ``GOOGLE_GEMINI_BASE_URL`` points it at the fake Gemini API.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
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
        notes = ["the workspace is trusted (GEMINI_CLI_TRUST_WORKSPACE=true): untrusted, headless"
                 " Gemini CLI does not start and project hooks do not run"]  # fmt: skip
        values: dict[str, Any] = {
            "hooks": wrapped,
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "telemetry": {"enabled": False},
            "privacy": {"usageStatisticsEnabled": False},
            "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
        }
        if self.hooks_off_by_default():
            values["tools"] = {"enableHooks": True}
            notes.append("hooks are off by default before Gemini CLI 0.24.0: settings.json turns"
                         " them on (tools.enableHooks: true), as its user must")  # fmt: skip
        settings.write_text(json.dumps(values, indent=2), encoding="utf-8")
        return notes

    def hooks_off_by_default(self) -> bool:
        """Before 0.24.0 hooks ran only with ``tools.enableHooks: true`` (default false in
        0.22.4's ``dist/src/config/settingsSchema.js``, line 952; true in 0.24.0's, line 949);
        later releases dropped the setting."""
        try:
            found = tuple(int(p) for p in self.version().split()[0].split(".")[:3])
        except (ValueError, IndexError):
            return False
        return found < (0, 24, 0)

    def version(self) -> str:
        """The release its package's ``package.json`` names, read without starting Node (each
        ``gemini --version`` costs seconds of a run); else what ``--version`` prints."""
        for folder in Path(os.path.realpath(self.run.binary)).parents:
            manifest = folder / "package.json"
            if manifest.is_file():
                with contextlib.suppress(OSError, ValueError):
                    data = json.loads(manifest.read_text(encoding="utf-8"))
                    if data.get("name") == self.package and isinstance(data.get("version"), str):
                        return str(data["version"])
                break
        return super().version()

    def env(self, url: str) -> dict[str, str]:
        return {
            "GOOGLE_GEMINI_BASE_URL": url,
            "GEMINI_API_KEY": "hooksim-offline",
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
        }

    def resume(self) -> None:
        """Each later ``gemini -p`` already resumes (``--resume latest``); after a /new, the next
        one resumes the session before it, the latest on disk."""
        self.started = True

    def send(self, text: str) -> None:
        model = self.run.scenario.session.get("model", "gemini-2.5-pro")
        argv = [self.run.binary, "-p", text, "--yolo", "-o", "json", "-m", model]
        if self.started:
            argv += ["--resume", "latest"]
        self.started = True
        self.exec_turn(argv)
