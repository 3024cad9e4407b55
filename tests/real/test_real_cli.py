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
    assert (
        "hooksim drives claude-code, codex, gemini-cli, hermes, openclaw as real hosts, not cursor"
        in out
    )


def test_a_tool_the_real_host_does_not_drive_is_refused_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A call of a tool the host's model is not offered (MultiEdit on Claude Code 2.1.332), or
    without an argument its schema requires (Gemini CLI's replace without instruction), is
    refused with the file, the turn's line and the reason; the host never starts."""
    host = tmp_path / "host"
    host.write_text(f"#!/bin/sh\ntouch {tmp_path / 'started'}\n")
    host.chmod(0o755)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "name: t\ntool: claude-code\nhooks: {Stop: [{hooks: [{type: command, command: 'true'}]}]}\n"
        "turns:\n  - {user: a, assistant: b}\n  - user: edit\n    tools:\n"
        "      - {name: Write, args: {file_path: a.txt, content: x}}\n"
        "      - {name: MultiEdit, args: {file_path: a.txt, edits: []}}\n"
        "    assistant: done\n"
    )
    assert main(["run", str(scenario), "--real", f"claude-code={host}"]) == 1
    out = capsys.readouterr().out
    assert (
        f"{scenario}:6: turn 2 calls MultiEdit, a tool Claude Code 2.1.332 does not offer its"
        " model (its Edit makes one edit a call): the real host would run no hook for it"
    ) in out
    gemini = tmp_path / "g.yaml"
    gemini.write_text(
        "name: t\ntool: gemini-cli\nhooks: {AfterAgent: [{hooks: [{type: command, command: 'true'}]}]}\n"
        "turns:\n  - user: edit\n    tools:\n"
        "      - {name: replace, args: {file_path: a.txt, old_string: x, new_string: y}}\n"
        "    assistant: done\n"
    )
    assert main(["run", str(gemini), "--real", f"gemini-cli={host}"]) == 1
    out = capsys.readouterr().out
    assert (
        f"{gemini}:5: turn 1 calls replace without instruction, which Gemini CLI 0.61.0's"
        " replace requires (file_path, instruction, old_string, new_string): the real host"
        " answers it with an error and runs no hook"
    ) in out
    assert not (tmp_path / "started").exists()
