"""Shared fixtures: no test may touch the real home directory or inherit a user's settings."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
STUB_BRIDGE = TESTS / "stub_bridge.py"

_SCRUBBED_PREFIXES = ("WAGGLE_", "HERMES_", "HOOKSIM_")


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """Point HOME at a directory that must still be empty after the test, and scrub our variables.

    Any code path that falls back to the default location (``~/.hermes``) writes here, and the
    teardown fails loudly instead of the test silently writing to a real home.
    """
    for name in list(os.environ):
        if name.startswith(_SCRUBBED_PREFIXES):
            monkeypatch.delenv(name)
    home = tmp_path_factory.mktemp("forbidden-home")
    monkeypatch.setenv("HOME", str(home))
    yield home
    leaked = sorted(str(p.relative_to(home)) for p in home.rglob("*"))
    shutil.rmtree(home, ignore_errors=True)
    assert not leaked, f"test wrote to the default home: {leaked}"


@pytest.fixture
def hermes_home(tmp_path: Path) -> Path:
    """A Hermes home for one test (not created: code under test must create it)."""
    return tmp_path / "hermes-home"


class StubBridge:
    """The recording stub bridge in ``tests/stub_bridge.py``, configured through the environment."""

    def __init__(self, directory: Path) -> None:
        self.log = directory / "bridge-calls.jsonl"
        self.env: dict[str, str] = {
            "WAGGLE_MIND_CMD": f"{sys.executable} {STUB_BRIDGE}",
            "STUB_BRIDGE_LOG": str(self.log),
        }

    def behave(self, tool: str, *outcomes: str) -> None:
        """Script the outcomes of successive calls of ``tool`` (ok, fail, hang, garbage, ...)."""
        self.env[f"STUB_BRIDGE_{tool.upper()}"] = ",".join(outcomes)

    def calls(self) -> list[dict[str, object]]:
        import json

        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def tools(self) -> list[str]:
        return [str(call["tool"]) for call in self.calls()]


@pytest.fixture
def stub_bridge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> StubBridge:
    """A real bridge process that records each call; its variables are set in this process too."""
    stub = StubBridge(tmp_path)
    for name, value in stub.env.items():
        monkeypatch.setenv(name, value)
    return stub
