"""`hermes-hooks verify`: one line per check, exit 1 when a required check fails."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hermes_hooks.cli import main
from hermes_hooks.entries import hook_argv, hook_command
from tests.conftest import StubBridge

EVENTS = (
    ("on_session_start", "session-start"),
    ("pre_llm_call", "user-prompt-submit"),
    ("post_llm_call", "stop"),
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    code = main(list(argv))
    return code, capsys.readouterr().out.splitlines()


def test_all_good_but_not_approved(installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Installed, runnable, mind found, state writable: exit 0, approval is only a warning."""
    code, lines = run(capsys, "verify", "--hermes-home", str(installed))
    script = hook_argv("stop")[0]
    expected = []
    for event, sub in EVENTS:
        expected += [
            f"ok    {event}: {hook_command(sub)}",
            f"ok    {event}: runs this hermes-hooks ({script})",
            f"warn  {event}: not approved yet; Hermes will ask on first use "
            "(pre-approve: hermes --accept-hooks, once)",
        ]
    mind = f"{sys.executable} {Path(__file__).parent.parent / 'stub_bridge.py'}"
    expected += [
        f"ok    mind command: {mind} ({sys.executable}; WAGGLE_MIND_CMD from the calling shell)",
        "ok    bridge timeout: 10 s per call (the default)",
        "ok    compaction: off (WAGGLE_HERMES_COMPACT_ON_STOP not set; opt in with "
        "WAGGLE_HERMES_COMPACT_ON_STOP=1)",
        f"ok    mind calls: no failed call recorded ({installed / 'logs' / 'hermes-hooks.log'})",
        f"ok    state directory: {installed} is writable",
        "verify: 11 ok, 3 warnings, 0 failed",
    ]
    assert (code, lines) == (0, expected)


def test_approved_pairs_are_ok(installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A pair in shell-hooks-allowlist.json is reported approved; a missing pair still warns."""
    approvals = [
        {"event": event, "command": hook_command(sub), "approved_at": "2026-01-01T00:00:00Z"}
        for event, sub in EVENTS[:2]
    ]
    (installed / "shell-hooks-allowlist.json").write_text(json.dumps({"approvals": approvals}))
    code, lines = run(capsys, "verify", "--hermes-home", str(installed))
    assert code == 0
    assert lines[2:9:3] == [
        "ok    on_session_start: approved in shell-hooks-allowlist.json",
        "ok    pre_llm_call: approved in shell-hooks-allowlist.json",
        "warn  post_llm_call: not approved yet; Hermes will ask on first use "
        "(pre-approve: hermes --accept-hooks, once)",
    ]


def test_auto_accept_counts_as_approval(
    installed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hooks_auto_accept: true` means Hermes will not ask: no warning."""
    config = installed / "config.yaml"
    config.write_text("hooks_auto_accept: true\n" + config.read_text())
    code, lines = run(capsys, "verify", "--hermes-home", str(installed))
    assert code == 0
    assert "ok    stop" not in lines
    assert lines[2] == "ok    on_session_start: not approved yet; hooks_auto_accept approves it"
    assert lines[-1] == "verify: 14 ok, 0 warnings, 0 failed"


def test_nothing_installed_fails(
    hermes_home: Path, stub_bridge: StubBridge, capsys: pytest.CaptureFixture[str]
) -> None:
    """No config: each entry is a failure, exit 1."""
    hermes_home.mkdir()
    code, lines = run(capsys, "verify", "--hermes-home", str(hermes_home))
    config = hermes_home / "config.yaml"
    assert code == 1
    assert lines[:3] == [
        f"FAIL  {event}: no hermes-hooks entry in {config} (run hermes-hooks install)"
        for event, _ in EVENTS
    ]
    assert lines[-1] == "verify: 5 ok, 0 warnings, 3 failed"


def test_a_command_that_is_not_there_fails(
    hermes_home: Path, stub_bridge: StubBridge, capsys: pytest.CaptureFixture[str]
) -> None:
    """An entry of ours whose executable is gone (an old venv) fails its check."""
    hermes_home.mkdir()
    (hermes_home / "config.yaml").write_text(
        "hooks:\n  on_session_start:\n    - command: /gone/bin/hermes-hooks session-start\n"
    )
    code, lines = run(capsys, "verify", "--hermes-home", str(hermes_home))
    assert code == 1
    assert lines[:2] == [
        "ok    on_session_start: /gone/bin/hermes-hooks session-start",
        "FAIL  on_session_start: /gone/bin/hermes-hooks is not there; run hermes-hooks install",
    ]


def test_python_dash_m_with_this_interpreter_is_this_package(
    hermes_home: Path,
    stub_bridge: StubBridge,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`python -m hermes_hooks` is recognised as this package by asking that interpreter."""
    import hermes_hooks

    # The interpreter asked imports the package these tests import, as a user's would.
    monkeypatch.setenv("PYTHONPATH", str(Path(hermes_hooks.__file__).parent.parent))
    hermes_home.mkdir()
    (hermes_home / "config.yaml").write_text(
        f'hooks:\n  post_llm_call:\n    - command: "{sys.executable} -m hermes_hooks stop"\n'
    )
    _, lines = run(capsys, "verify", "--hermes-home", str(hermes_home))
    assert f"ok    post_llm_call: runs this hermes-hooks ({sys.executable})" in lines


def test_a_script_of_another_installation_fails(
    hermes_home: Path, tmp_path: Path, stub_bridge: StubBridge, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hermes-hooks script that runs no hermes_hooks package is reported, exit 1."""
    other = tmp_path / "other bin" / "hermes-hooks"
    other.parent.mkdir()
    other.write_text("#!/bin/sh\n'''exec' \"/nonexistent/python\" \"$0\" \"$@\"\n' '''\n")
    other.chmod(0o755)
    hermes_home.mkdir()
    (hermes_home / "config.yaml").write_text(
        f"hooks:\n  post_llm_call:\n    - command: \"'{other}' stop\"\n"
    )
    code, lines = run(capsys, "verify", "--hermes-home", str(hermes_home))
    assert code == 1
    assert (
        f"FAIL  post_llm_call: {other} runs /nonexistent/python, which is not there; "
        "run hermes-hooks install"
    ) in lines


def test_missing_mind_and_unparseable_config(
    hermes_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mind command that is not on PATH and a broken config are failures, each one line."""
    monkeypatch.setenv("WAGGLE_MIND_CMD", "no-such-mind --flag")
    hermes_home.mkdir()
    (hermes_home / "config.yaml").write_text("hooks: [\n")
    code, lines = run(capsys, "verify", "--hermes-home", str(hermes_home))
    assert code == 1
    assert lines[0].startswith(f"FAIL  config: {hermes_home / 'config.yaml'}:2:1: not valid YAML")
    assert (
        "FAIL  mind command: no-such-mind not found (WAGGLE_MIND_CMD from the calling shell); "
        "install the mind, or set WAGGLE_MIND_CMD"
    ) in lines


def test_missing_home_is_not_writable(
    hermes_home: Path, stub_bridge: StubBridge, capsys: pytest.CaptureFixture[str]
) -> None:
    """A home that does not exist cannot hold the compaction state."""
    _, lines = run(capsys, "verify", "--hermes-home", str(hermes_home))
    assert lines[-2] == (
        f"FAIL  state directory: {hermes_home} is not writable (No such file or directory)"
    )


def test_another_working_installation_is_named(
    hermes_home: Path, tmp_path: Path, stub_bridge: StubBridge, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command of another venv's launcher runs hermes_hooks, just not this installation."""
    other = tmp_path / "other-venv" / "hermes_hooks"
    other.mkdir(parents=True)
    (other / "__main__.py").write_text("")
    hermes_home.mkdir()
    (hermes_home / "config.yaml").write_text(
        f'hooks:\n  post_llm_call:\n    - command: "{sys.executable} {other / "__main__.py"} stop"\n'
    )
    code, lines = run(capsys, "verify", "--hermes-home", str(hermes_home))
    assert code == 1
    here = Path(hook_argv("stop")[1]).resolve().parent
    assert (
        f"FAIL  post_llm_call: runs the hermes-hooks in {other}, not this one ({here}); "
        "run hermes-hooks install"
    ) in lines
