"""``--real`` on the command line: a missing or unknown host is one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.real.session import find_binary

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


def test_a_bare_name_is_looked_up_on_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--real HOST=NAME`` and ``compare --real NAME`` find a bare name on PATH, as a shell
    does (``gemini``, ``claude-2.1.337``); one that is not there says so."""
    monkeypatch.setenv("PATH", str(tmp_path))
    code = main(["compare", str(SCENARIO), "--tool", "claude-code", "--real", "claude-next"])
    out = capsys.readouterr()
    assert code == 2
    assert "--real claude-code: no 'claude-next' on PATH" in out.out + out.err
    found = tmp_path / "claude-next"
    found.write_text("#!/bin/sh\n")
    found.chmod(0o755)
    assert find_binary("claude-code", "claude-next") == str(found)
    monkeypatch.chdir(tmp_path)
    assert find_binary("claude-code", "./claude-next") == "./claude-next"  # a path, as given


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
    """A call of a tool the host's model is not offered (MultiEdit on Claude Code 2.1.337), or
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
        f"{scenario}:6: turn 2 calls MultiEdit, a tool Claude Code 2.1.337 does not offer its"
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


def test_run_real_takes_one_real_host_per_host(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Newcomer trial 5, finding 7: ``--real`` repeats, one per host; a file without hooks for
    a host is SKIP on it, as under ``--tool``; the same host twice is refused."""
    claude_only = tmp_path / "claude.yaml"
    claude_only.write_text(
        "name: claude only\ntool: claude-code\n"
        "hooks: {Stop: [{hooks: [{type: command, command: 'true'}]}]}\n"
        "turns: [{user: hi, assistant: yo}]\n"
    )
    missing = tmp_path / "none"
    code = main(
        [
            "run",
            str(claude_only),
            "--real",
            f"claude-code={missing}",
            "--real",
            f"gemini-cli={missing}",
        ]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert f"--real claude-code: {missing} is not an executable file" in out
    skipped = next(line for line in out.splitlines() if line.startswith("SKIP  "))
    assert "[gemini-cli, real]  claude only  (not applicable: no hooks for gemini-cli" in skipped
    assert "0 passed, 0 failed, 1 skipped, 1 error in " in out.splitlines()[-1]
    assert main(["run", str(claude_only), "--real", "codex", "--real", "codex=/x"]) == 2
    assert "--real codex is given twice" in capsys.readouterr().err


def test_without_confinement_real_refuses_naming_what_would_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Security review: with no way to confine the real host, ``--real`` starts nothing and
    names each scripted call it would run on this machine."""
    monkeypatch.setenv("PATH", str(tmp_path))  # neither bwrap nor unshare
    fake = tmp_path / "claude"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    guard = tmp_path / "guard.yaml"
    guard.write_text(
        "name: guard\ntool: claude-code\n"
        "hooks: {PreToolUse: [{matcher: Bash, hooks: [{type: command, command: 'true'}]}]}\n"
        "turns: [{user: go, tools: [{shell: rm -rf build}, {shell: ls, run: true}],"
        " assistant: done}]\n"
    )
    assert main(["run", str(guard), "--real", f"claude-code={fake}"]) == 1
    out = capsys.readouterr().out
    assert (
        "--real: no confinement on this machine (install bubblewrap, or allow unshare's"
        " namespaces), and Claude Code would run these here: turn 1: Bash 'rm -rf build'; pass"
        " --unconfined to run it anyway"
    ) in out
