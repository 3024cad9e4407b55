"""`hermes-hooks verify`: settings as the hooks see them, the mind's recent calls, one real call.

The hooks get the calling shell's environment with `$HERMES_HOME/.env` over it (Hermes 0.19.0,
`hermes_cli/env_loader.load_hermes_dotenv`, `override=True`), and an `env VAR=value` prefix of
their own entry on top; verify reads the same, says where each value came from, and warns
where a value does not mean what it seems to.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from hermes_hooks.call_log import CallLog, call_log_path, format_line
from hermes_hooks.cli import main
from hermes_hooks.entries import hook_command
from tests.conftest import StubBridge


def verify(capsys: pytest.CaptureFixture[str], home: Path, *extra: str) -> tuple[int, list[str]]:
    code = main(["verify", "--hermes-home", str(home), *extra])
    return code, capsys.readouterr().out.splitlines()


def line_about(lines: list[str], topic: str) -> str:
    [line] = [line for line in lines if line[6:].startswith(topic)]
    return line


def test_the_mind_set_in_dotenv_is_the_one_checked(
    installed: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`.env` wins over the shell, as in Hermes; the line names where the value came from."""
    monkeypatch.setenv("WAGGLE_MIND_CMD", "no-such-mind")
    (installed / ".env").write_text("# the mind\nWAGGLE_MIND_CMD=true --flag\n")
    code, lines = verify(capsys, installed)
    assert code == 0
    found = line_about(lines, "mind command:")
    assert found.startswith("ok    mind command: true --flag (")
    assert found.endswith(f"; WAGGLE_MIND_CMD from {installed / '.env'})")


def test_accept_hooks_in_dotenv_counts_as_approval(
    installed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (installed / ".env").write_text("HERMES_ACCEPT_HOOKS=1\n")
    code, lines = verify(capsys, installed)
    assert code == 0
    assert lines[2] == (
        "ok    on_session_start: not approved yet; HERMES_ACCEPT_HOOKS "
        f"({installed / '.env'}) approves it"
    )


@pytest.mark.parametrize("value", ["off", "no", "Disabled", "never"])
def test_a_value_that_reads_like_off_but_turns_compaction_on_warns(
    value: str,
    installed: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("WAGGLE_HERMES_COMPACT_ON_STOP", value)
    code, lines = verify(capsys, installed)
    assert code == 0
    assert line_about(lines, "compaction:") == (
        f"warn  compaction: ON, though WAGGLE_HERMES_COMPACT_ON_STOP={value!r} from the calling "
        "shell reads like off: only '', 0 and false turn it off (the truth table the mind's "
        "other switches share)"
    )


@pytest.mark.parametrize(("value", "state"), [("1", "on"), ("0", "off"), ("FALSE", "off")])
def test_the_compaction_switch_is_reported_as_the_gate_reads_it(
    value: str,
    state: str,
    installed: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("WAGGLE_HERMES_COMPACT_ON_STOP", value)
    _, lines = verify(capsys, installed)
    line = line_about(lines, "compaction:")
    assert line.startswith(f"ok    compaction: {state} (WAGGLE_HERMES_COMPACT_ON_STOP={value!r}")


@pytest.mark.parametrize("value", ["0", "-5", "abc", "nan", "inf"])
def test_numbers_replaced_by_the_default_are_named(
    value: str,
    installed: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A timeout or window the hooks would silently replace by the default: a warning naming it."""
    monkeypatch.setenv("WAGGLE_BRIDGE_TIMEOUT_S", value)
    monkeypatch.setenv("WAGGLE_HERMES_COMPACT_ON_STOP", "1")
    monkeypatch.setenv("WAGGLE_HERMES_COMPACT_WINDOW_MIN", value)
    code, lines = verify(capsys, installed)
    assert code == 0
    assert line_about(lines, "bridge timeout:") == (
        f"warn  bridge timeout: WAGGLE_BRIDGE_TIMEOUT_S={value!r} from the calling shell is not "
        "a number of seconds greater than 0; the hooks use the default, 10 s"
    )
    assert line_about(lines, "compaction window:") == (
        f"warn  compaction window: WAGGLE_HERMES_COMPACT_WINDOW_MIN={value!r} from the calling "
        "shell is not a number of minutes greater than 0; the hooks use the default, 10 minutes"
    )


def test_good_numbers_are_shown_as_used(
    installed: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WAGGLE_BRIDGE_TIMEOUT_S", "2.5")
    monkeypatch.setenv("WAGGLE_HERMES_COMPACT_ON_STOP", "1")
    monkeypatch.setenv("WAGGLE_HERMES_COMPACT_WINDOW_MIN", "0.5")
    _, lines = verify(capsys, installed)
    assert line_about(lines, "bridge timeout:") == (
        "ok    bridge timeout: 2.5 s per call (WAGGLE_BRIDGE_TIMEOUT_S='2.5' from the calling shell)"
    )
    assert line_about(lines, "compaction:") == (
        "ok    compaction: on (WAGGLE_HERMES_COMPACT_ON_STOP='1' from the calling shell), at most "
        "once per 0.5 minutes"
    )


def test_an_env_prefix_on_the_stop_entry_is_a_setting_of_its_own(
    hermes_home: Path, stub_bridge: StubBridge, capsys: pytest.CaptureFixture[str]
) -> None:
    """`env WAGGLE_HERMES_COMPACT_ON_STOP=1 <our stop>`: recognised as ours, and its value used."""
    hermes_home.mkdir()
    command = f"env WAGGLE_HERMES_COMPACT_ON_STOP=1 {hook_command('stop')}"
    (hermes_home / "config.yaml").write_text(
        f"hooks:\n  post_llm_call:\n    - command: '{command}'\n"
    )
    _, lines = verify(capsys, hermes_home)
    assert f"ok    post_llm_call: {command}" in lines
    assert line_about(lines, "post_llm_call: runs this hermes-hooks").startswith("ok")
    assert line_about(lines, "compaction:") == (
        "ok    compaction: on (WAGGLE_HERMES_COMPACT_ON_STOP='1' from the post_llm_call entry's "
        "env prefix), at most once per 10 minutes"
    )


def test_a_bridge_that_is_not_executable_says_so(
    installed: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    mind = installed / "mind"
    mind.write_text("#!/bin/sh\n")
    mind.chmod(0o644)
    monkeypatch.setenv("WAGGLE_MIND_CMD", str(mind))
    code, lines = verify(capsys, installed)
    assert code == 1
    assert line_about(lines, "mind command:") == (
        f"FAIL  mind command: {mind} is not executable (WAGGLE_MIND_CMD from the calling shell); "
        "chmod +x it"
    )


def test_a_mind_that_fails_every_call_fails_verify(
    installed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hooks' record of failed calls: when the latest calls failed, verify fails."""
    log = CallLog(call_log_path(str(installed)), "pre_llm_call")
    for _ in range(3):
        log.failed("save_memory", "hive-mind call save_memory exited 3: database locked")
    code, lines = verify(capsys, installed)
    assert code == 1
    found = line_about(lines, "mind calls:")
    assert found.startswith("FAIL  mind calls: the last 3 calls failed, since 20")
    assert found.endswith(
        "(pre_llm_call save_memory): hive-mind call save_memory exited 3: database locked "
        f"(see {call_log_path(str(installed))})"
    )


def test_failures_then_recovery_is_a_warning_then_history(
    installed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path(call_log_path(str(installed)))
    path.parent.mkdir()
    now = time.time()
    path.write_text(
        format_line(
            now - 60, "post_llm_call", "save_memory", "failed", "timed out after 10s; killed"
        )
        + format_line(now - 30, "post_llm_call", "save_memory", "ok", "calls succeed again")
    )
    code, lines = verify(capsys, installed)
    assert code == 0
    assert line_about(lines, "mind calls:").startswith(
        "warn  mind calls: 1 failed in the last 24 hours, the latest at "
    )
    old = now - 3 * 24 * 3600
    path.write_text(
        format_line(old, "post_llm_call", "save_memory", "failed", "exited 1")
        + format_line(old + 1, "post_llm_call", "save_memory", "ok", "calls succeed again")
    )
    _, lines = verify(capsys, installed)
    assert line_about(lines, "mind calls:").startswith("ok    mind calls: calls succeed since ")


def test_call_makes_one_real_call_in_the_hooks_environment(
    installed: Path,
    stub_bridge: StubBridge,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`verify --call`: one cleanup_frames (adds nothing to the mind), timed; the bridge gets
    the variables of `.env` over the shell's, as the hooks would."""
    monkeypatch.setenv("STUB_BRIDGE_CLEANUP_FRAMES", "exit3")
    (installed / ".env").write_text("STUB_BRIDGE_CLEANUP_FRAMES=ok\n")
    code, lines = verify(capsys, installed, "--call")
    assert code == 0
    call = line_about(lines, "mind call:")
    assert call.startswith("ok    mind call: cleanup_frames answered in ")
    assert call.endswith(" s")
    assert stub_bridge.tools() == ["cleanup_frames"]
    assert stub_bridge.calls()[0]["arguments"] == {"mode": "compact"}


def test_call_fails_verify_when_the_mind_fails(
    installed: Path,
    stub_bridge: StubBridge,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("STUB_BRIDGE_CLEANUP_FRAMES", "exit3")
    code, lines = verify(capsys, installed, "--call")
    assert code == 1
    assert line_about(lines, "mind call:").endswith("call cleanup_frames exited 3")


def test_call_with_false_as_the_mind_fails(
    installed: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`WAGGLE_MIND_CMD=false` is found on PATH; only a real call shows it answers nothing."""
    monkeypatch.setenv("WAGGLE_MIND_CMD", "false")
    code, lines = verify(capsys, installed)
    assert code == 0
    code, lines = verify(capsys, installed, "--call")
    assert code == 1
    assert line_about(lines, "mind call:") == "FAIL  mind call: false call cleanup_frames exited 1"


def test_a_fifo_or_a_link_where_the_log_is_never_blocks_verify(
    installed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path(call_log_path(str(installed)))
    path.parent.mkdir()
    os.mkfifo(path)
    code, lines = verify(capsys, installed)
    assert code == 0
    assert line_about(lines, "mind calls:").startswith(f"warn  mind calls: {path} cannot be read")
    path.unlink()
    path.symlink_to("/dev/zero")
    _, lines = verify(capsys, installed)
    assert line_about(lines, "mind calls:").startswith("warn  mind calls:")


def test_a_successful_call_is_the_latest_the_log_holds(
    installed: Path,
    stub_bridge: StubBridge,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """After the mind is mended, `verify --call` succeeds and verify passes: the call is
    recorded as the hooks' calls are, before the log is read."""
    log = CallLog(call_log_path(str(installed)), "post_llm_call")
    log.failed("save_memory", "hive-mind call save_memory exited 3")
    assert verify(capsys, installed)[0] == 1
    code, lines = verify(capsys, installed, "--call")
    assert code == 0
    assert line_about(lines, "mind calls:").startswith("warn  mind calls: 1 failed in the last 24")


def test_a_nul_byte_in_the_mind_command_fails_in_lines_of_its_own(
    installed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A `.env` value holding a NUL: the mind command and the call fail, each one line, the
    NUL shown escaped, never a traceback."""
    (installed / ".env").write_bytes(b"WAGGLE_MIND_CMD=true\0x\n")
    code, lines = verify(capsys, installed, "--call")
    assert code == 1
    assert line_about(lines, "mind command:") == (
        f"FAIL  mind command: 'true\\x00x' not found (WAGGLE_MIND_CMD from {installed / '.env'});"
        " install the mind, or set WAGGLE_MIND_CMD"
    )
    assert line_about(lines, "mind call:") == "FAIL  mind call: embedded null byte"
    assert not any("\0" in line for line in lines)
