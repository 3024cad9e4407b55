"""hooksim's host options: --tool, compare, hosts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hooksim.cli import main

from tests.console import summary

ROOT = Path(__file__).parents[2]
ACROSS = ROOT / "scenarios" / "across"
HERMES_ONLY = "name: plain\nturns:\n  - {user: hi, assistant: hello}\nexpect: {exit_codes: 0}\n"
TWO_HOSTS = """\
name: two hosts
turns:
  - {user: hi, assistant: hello}
  - {compact: manual}
hosts:
  hermes:
    expect: {calls: {cleanup_frames: 0}}
  codex:
    hooks:
      PreCompact: [{hooks: [{type: command, command: 'echo "{}" | eval "$WAGGLE_MIND_CMD call cleanup_frames"'}]}]
    expect: {calls: {cleanup_frames: 1}}
"""


def test_run_labels_each_host_of_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file with hosts: runs once per host, each line naming the host."""
    (tmp_path / "s.yaml").write_text(TWO_HOSTS)
    assert main(["run", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"PASS  {tmp_path / 's.yaml'} [hermes]  two hosts" in out
    assert f"PASS  {tmp_path / 's.yaml'} [codex]  two hosts" in out
    assert summary(out) == "2 passed, 0 failed"


def test_tool_option_replays_on_one_host(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--tool runs only that host, with that host's expectations."""
    (tmp_path / "s.yaml").write_text(TWO_HOSTS)
    assert main(["run", str(tmp_path), "--tool", "codex"]) == 0
    out = capsys.readouterr().out
    assert f"PASS  {tmp_path / 's.yaml'} [codex]  two hosts" in out
    assert summary(out) == "1 passed, 0 failed"


def test_a_host_without_hooks_is_skipped_naming_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Hermes-only scenario on Cursor is not applicable (never failed), saying where Cursor's
    hooks would come from."""
    (tmp_path / "s.yaml").write_text(HERMES_ONLY)
    assert main(["run", str(tmp_path), "--tool", "cursor"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        f"SKIP  {tmp_path / 's.yaml'} [cursor]  plain  (not applicable: no hooks for cursor: add"
        " hosts.cursor.hooks to the scenario (or hooks: when it is the scenario's tool), or pass"
        " --hooks-config with a Cursor config file)\n"
    )
    assert summary(out) == "0 passed, 0 failed, 1 skipped"


def test_an_unknown_tool_is_refused_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--tool NAME for a host hooksim has no profile for exits 2 with the names it knows."""
    (tmp_path / "s.yaml").write_text(HERMES_ONLY)
    assert main(["run", str(tmp_path), "--tool", "vim"]) == 2
    assert capsys.readouterr().err == (
        "hooksim: --tool: unknown tool 'vim' (hooksim knows: hermes, claude-code, codex, cursor,"
        " gemini-cli, openclaw)\n"
    )


def test_openclaw_in_a_scenario_needs_its_hooks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """tool: openclaw is a host like the others: without hooks it is skipped, saying why."""
    path = tmp_path / "s.yaml"
    path.write_text("name: x\ntool: openclaw\nturns:\n  - {user: hi, error: 500}\n")
    assert main(["validate", str(path)]) == 0
    capsys.readouterr()
    assert main(["run", str(path)]) == 0
    assert (
        "(not applicable: no hooks for openclaw: add hosts.openclaw.hooks"
        in capsys.readouterr().out
    )


def test_compare_reports_each_host_and_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    """compare shows each host's session and one summary line per host."""
    assert main(["compare", str(ACROSS / "stop-loop.yaml"), "-n", "2"]) == 0
    out = capsys.readouterr().out
    assert "== claude-code: PASS" in out
    assert "=> blocked 8 times in a row: Claude Code ends the turn (cap 8)" in out
    # hooks run, hooks that did not exit 0 (a block is exit 2), bridge calls, blocks (after the
    # number of events fired, which is each profile's own business)
    lines = {line.split()[0]: line.split()[2:] for line in out.splitlines()[-6:]}
    assert lines["claude-code"] == ["8", "8", "0", "8", "PASS"]
    assert lines["codex"] == ["11", "10", "0", "10", "PASS"]
    assert lines["cursor"] == ["6", "0", "0", "6", "PASS"]
    assert lines["hermes"] == ["1", "1", "0", "0", "PASS"]
    assert lines["openclaw"] == ["4", "0", "0", "4", "PASS"]


def test_compare_on_chosen_hosts_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--tools picks the hosts; --json records every host's events and hooks."""
    report = tmp_path / "r.json"
    code = main(
        [
            "compare",
            str(ACROSS / "memory-session.yaml"),
            "--tools",
            "hermes,codex",
            "--json",
            str(report),
        ]
    )
    assert code == 0
    entries = json.loads(report.read_text())
    assert [e["tool"] for e in entries] == ["hermes", "codex"]
    codex_events = [(e["turn"], e["event"]) for e in entries[1]["events"]]
    assert (4, "SessionStart") in codex_events
    assert main(["compare", str(ACROSS / "memory-session.yaml"), "--tools", "vim"]) == 2
    assert capsys.readouterr().err.startswith("hooksim: --tools: unknown tool 'vim'")


def test_hosts_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    """hooksim hosts prints the Markdown table, OpenClaw among the hosts."""
    assert main(["hosts"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "| | Hermes | Claude Code | Codex CLI | Cursor | Gemini CLI | OpenClaw |\n"
    )
    assert "| pre-compact | — | `PreCompact` (can block) | `PreCompact` |" in out
    assert "| `before_compaction` |" in out


def test_validate_fails_hooks_a_host_would_skip_and_warns_about_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hook under the wrong event name never runs: validate fails the file, with the line of
    the event and the host's name; a hook the host runs otherwise than written is a warning."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: x\nturns:\n  - {user: hi, error: 500}\nhosts:\n  claude-code:\n"
        "    hooks: {PreCompress: [{hooks: [{type: command, command: 'true'}]}]}\n"
    )
    assert main(["validate", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.err == (
        f"{path}:6: built-in check known_events: Claude Code has no hook event 'PreCompress', so"
        " its hooks never run; did you mean 'PreCompact'? (or opt out: checks: {known_events:"
        " false})\n"
    )
    assert captured.out == "0 valid, 1 invalid\n"
    path.write_text(
        "name: x\nturns:\n  - {user: hi, error: 500}\nhosts:\n  claude-code:\n"
        "    hooks: {Stop: [{hooks: [{type: command, command: 'true', timeout: '5s'}]}]}\n"
    )
    assert main(["validate", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith(f"{path}: warning: hosts.claude-code.hooks: hooks.Stop")
    assert captured.out == "1 valid, 0 invalid\n"


@pytest.mark.parametrize(
    ("tool", "name", "text", "message"),
    [
        ("claude-code", "settings.json", "{nope", "not valid JSON"),
        ("codex", "config.toml", "[hooks\n", "not valid TOML"),
        ("hermes", "config.yaml", "hooks: [\n", "cannot read the hooks config"),
    ],
)
def test_an_unreadable_hooks_config_is_one_error_line(
    tool: str,
    name: str,
    text: str,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A broken host config file is one line naming itself and what is wrong, once, before any run."""
    for n in range(3):
        (tmp_path / f"s{n}.yaml").write_text(HERMES_ONLY)
    config = tmp_path / name
    config.write_text(text)
    code = main(["run", str(tmp_path), "--tool", tool, "--hooks-config", str(config)])
    assert code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (error,) = captured.err.splitlines()
    assert error.startswith(f"hooksim: --hooks-config: {config}")
    assert message in error


def test_compare_reports_a_bad_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """compare on a broken scenario prints file:line and exits 2."""
    path = tmp_path / "s.yaml"
    path.write_text("name: x\nturns:\n  - {compact: sometimes}\n")
    assert main(["compare", str(path)]) == 2
    assert (
        capsys.readouterr().err
        == f"{path}:3: turns/0/compact: 'sometimes' is not one of auto, manual\n"
    )
