"""``--real`` on the command line: a missing or unknown host is one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hooksim.cli import main

SCENARIO = Path(__file__).parents[2] / "scenarios" / "across" / "memory-session.yaml"


def test_run_real_names_a_missing_binary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A path that is not there fails the scenario with the reason, not a traceback."""
    code = main(["run", str(SCENARIO), "--real", f"claude-code={tmp_path / 'claude'}"])
    out = capsys.readouterr().out
    assert code == 1
    assert f"--real claude-code: {tmp_path / 'claude'} is not an executable file" in out
    assert "0 passed, 0 failed, 1 error in " in out.splitlines()[-1]


def test_compare_real_needs_a_tool_and_a_driven_host(capsys: pytest.CaptureFixture[str]) -> None:
    """--real without --tool, or for a host hooksim cannot drive, exits 2 saying why."""
    assert main(["compare", str(SCENARIO), "--real"]) == 2
    assert "compare --real needs --tool HOST" in capsys.readouterr().err
    assert main(["compare", str(SCENARIO), "--real", "--tool", "cursor"]) == 2
    assert "hooksim drives" in capsys.readouterr().err


def test_run_real_names_the_hosts_it_drives(capsys: pytest.CaptureFixture[str]) -> None:
    """A host without a driver is refused with the list of those that have one."""
    assert main(["run", str(SCENARIO), "--real", "cursor"]) == 1
    out = capsys.readouterr().out
    assert "hooksim drives claude-code, codex, gemini-cli, hermes as real hosts, not cursor" in out
