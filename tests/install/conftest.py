"""Fixtures of the install tools' tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from hermes_hooks.cli import main
from tests.conftest import StubBridge


@pytest.fixture
def installed(
    hermes_home: Path, stub_bridge: StubBridge, capsys: pytest.CaptureFixture[str]
) -> Path:
    """A home with our hooks installed, and a mind command that exists."""
    assert main(["install", "--hermes-home", str(hermes_home)]) == 0
    capsys.readouterr()
    return hermes_home
