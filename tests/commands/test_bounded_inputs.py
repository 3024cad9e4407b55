"""Every file a command reads is bounded as scenario files are: a FIFO is never waited on, a
device never read without end, nesting past what can be parsed is one line, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hooksim.cli import main


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


def test_fire_payload_never_waits_on_a_fifo_nor_reads_a_device(
    fifo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for payload, said in ((fifo, "is a named pipe (FIFO)"), ("/dev/zero", "is a character device")):
        assert (
            main(["fire", "claude-code", "PreToolUse", "--payload", str(payload), "--", "true"])
            == 2
        )
        err = capsys.readouterr().err
        assert said in err
        assert err.count("\n") == 1


def test_fire_input_nested_too_deeply_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert main(["fire", "claude-code", "PreToolUse", "--input", deep, "--", "true"]) == 2
    assert capsys.readouterr().err == "hooksim: fire: --input: nested too deeply to read\n"


@pytest.mark.parametrize(
    ("name", "text"),
    [("deep.json", "[" * 100_000 + "]" * 100_000), ("deep.yaml", "a:\n" + "- " * 5000 + "x\n")],
)
def test_explain_on_a_config_nested_too_deeply_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str
) -> None:
    config = tmp_path / name
    config.write_text(text)
    host, event = (
        ("claude-code", "PreToolUse") if name.endswith("json") else ("hermes", "pre_llm_call")
    )
    assert main(["explain", host, event, "--config", str(config)]) == 2
    assert capsys.readouterr().err == f"hooksim: {config}: nested too deeply to read\n"


def test_explain_names_a_fifo_for_what_it_is(
    fifo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["explain", "claude-code", "PreToolUse", "--config", str(fifo)]) == 2
    assert (
        capsys.readouterr().err == f"hooksim: {fifo} is a named pipe (FIFO), not a regular file\n"
    )


def test_fire_prints_a_hooks_reason_and_command_with_their_controls_escaped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A block reason or a command holding terminal escapes (retitle, clear the screen) prints
    them as escapes: nothing a hook says reaches the terminal raw."""
    reason = 'printf "{\\"decision\\":\\"block\\",\\"reason\\":\\"R \\\\u001b]0;PWNED\\\\u0007\\\\u001b[2J\\"}"'
    main(["fire", "claude-code", "PreToolUse", "--", reason])
    out = capsys.readouterr().out
    assert "decision: block: R \\x1b]0;PWNED\\x07\\x1b[2J" in out
    main(["fire", "claude-code", "PreToolUse", "--", "exit 7 # \x1b]0;TITLE\x07\x1b[2J"])
    out = capsys.readouterr().out
    assert "failed: exit 7 # \\x1b]0;TITLE\\x07\\x1b[2J (the host counts it as failed)" in out
    assert "\x1b" not in out
    assert "\x07" not in out


def test_explain_and_lint_print_a_configs_controls_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command holding a terminal escape (retitle, clear the screen) prints escaped."""
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(
        '{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command",'
        ' "command": "echo \\u001b]0;T\\u0007 hi"}]}],'
        ' "SessionStop": [{"hooks": [{"type": "command", "command": "x\\u001b[2J"}]}]}}\n'
    )
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    main(["explain", "claude-code", "UserPromptSubmit"])
    out = capsys.readouterr().out
    assert "echo \\x1b]0;T\\x07 hi" in out
    assert "x\\x1b[2J" in out
    main(["lint"])
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert "\x07" not in out


@pytest.mark.parametrize(
    ("name", "tool", "text"),
    [
        ("deep.json", "claude-code", "[" * 100_000 + "]" * 100_000),
        ("deep.yaml", "hermes", "hooks:\n" + "- " * 5000 + "x\n"),
    ],
)
def test_a_hooks_config_nested_too_deeply_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, tool: str, text: str
) -> None:
    config = tmp_path / name
    config.write_text(text)
    scenario = tmp_path / "s.yaml"
    scenario.write_text("name: s\nturns:\n  - {user: hi, assistant: ok}\n")
    assert main(["run", str(scenario), "--tool", tool, "--hooks-config", str(config)]) == 2
    assert (
        capsys.readouterr().err == f"hooksim: --hooks-config: {config}: nested too deeply to read\n"
    )
