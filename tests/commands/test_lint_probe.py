"""``hooksim lint --probe``: each configured hook fired once per event on every host whose
hooks are commands, at the same point of the session, and a matrix of how each host reads its
real output; the same reading ``hooksim fire`` gives, in a throwaway home, asked first."""

from __future__ import annotations

import json
import os
import pty
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hooksim.cli import main

from tests.console import BIN

BLOCK = """echo '{"decision": "block", "reason": "x"}'"""
# Writes to the home it is given before it answers: the probe's HOME is a throwaway one.
WRITES_HOME = f"""touch "$HOME/probe-was-here"; {BLOCK}"""


def settings(command: str, event: str = "PreToolUse") -> str:
    """A Claude Code settings file with ``command`` as the one hook of ``event``."""
    hook = {"type": "command", "command": command}
    return json.dumps({"hooks": {event: [{"hooks": [hook]}]}}) + "\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder as the working directory, HOME a folder beside it, and a Claude Code
    settings file whose one PreToolUse hook prints a block decision."""
    home = tmp_path / "home"
    folder = tmp_path / "project"
    home.mkdir()
    (folder / ".claude").mkdir(parents=True)
    (folder / ".claude" / "settings.json").write_text(settings(BLOCK))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(folder)
    return folder


MATRIX = """\
no findings in 1 file
probe: 1 hook fired once on 5 hosts, each in a throwaway home (a temporary HOME and project folder, removed after)
hook                     event       hermes  claude-code  codex  cursor   gemini-cli
.claude/settings.json:1  PreToolUse  block   block        block  ignored  block
OpenClaw is left out: its hooks are plugins that run inside its own process.
"""


def test_probe_prints_how_each_host_reads_the_hook(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hook printing a block decision blocks the tool call on four hosts; Cursor, which reads
    other fields, ignores it."""
    code = main(["lint", "--probe", "--yes"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert out == MATRIX


def test_each_cell_is_what_fire_says(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each cell of ``--json``'s matrix holds the reading ``hooksim fire --json`` gives for the
    same hook on that host's event at the same point (Gemini CLI's BeforeTool, Hermes'
    pre_tool_call, ...)."""
    assert main(["lint", "--probe", "--yes", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    probe = json.loads(out)["probe"]
    assert probe["hosts"] == ["hermes", "claude-code", "codex", "cursor", "gemini-cli"]
    [row] = probe["rows"]
    assert {k: row[k] for k in ("file", "line", "host", "event", "command")} == {
        "file": ".claude/settings.json",
        "line": 1,
        "host": "claude-code",
        "event": "PreToolUse",
        "command": BLOCK,
    }
    events = {host: cell["event"] for host, cell in row["cells"].items()}
    assert events == {
        "hermes": "pre_tool_call",
        "claude-code": "PreToolUse",
        "codex": "PreToolUse",
        "cursor": "preToolUse",
        "gemini-cli": "BeforeTool",
    }
    for host, cell in row["cells"].items():
        assert main(["fire", "--json", host, cell["event"], "--", BLOCK]) == cell["exit_code"]
        fired: dict[str, Any] = json.loads(capsys.readouterr().out)
        [hook] = fired["hooks"]
        said = {"decision": fired["decision"], "reason": fired["reason"], "fault": hook["fault"]}
        assert {key: cell[key] for key in said} == said, host


def test_a_host_without_the_event_has_no_cell(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hook on an event some hosts lack (PostCompact) fires only where the point exists (Codex
    reads nothing of its plain text, Claude Code gives it to the model): the others show -, and
    null in JSON."""
    (project / ".claude" / "settings.json").write_text(settings("echo kept", "PostCompact"))
    assert main(["lint", "--probe", "--yes", "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)["probe"]["rows"]
    readings = {host: cell and cell["reading"] for host, cell in row["cells"].items()}
    assert readings == {
        "hermes": None,
        "claude-code": "context",
        "codex": "ignored",
        "cursor": None,
        "gemini-cli": None,
    }


def test_the_hooks_run_in_a_throwaway_home(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hook that writes to $HOME runs (it blocks where a shell runs it; Hermes, which runs
    its hooks without one, counts it failed) and leaves the user's HOME untouched."""
    (project / ".claude" / "settings.json").write_text(settings(WRITES_HOME))
    assert main(["lint", "--probe", "--yes"]) == 0
    row = "PreToolUse  failed  block        block  ignored  block\n"
    assert row in capsys.readouterr().out
    assert list(Path(os.environ["HOME"]).iterdir()) == []


def test_without_a_terminal_probe_needs_yes(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With no terminal to ask on and no --yes, nothing runs: one line, exit 2."""
    (project / ".claude" / "settings.json").write_text(settings(WRITES_HOME))
    assert main(["lint", "--probe"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "hooksim: lint --probe runs each hook as a real command and asks first:"
        " give --yes where there is no terminal to ask on\n"
    )
    assert list(Path(os.environ["HOME"]).iterdir()) == []


@pytest.mark.parametrize(("answer", "probed"), [("y", True), ("n", False)])
def test_on_a_terminal_probe_asks_first(project: Path, answer: str, probed: bool) -> None:
    """On a terminal the probe asks how many hooks it runs on how many hosts; only a yes runs
    them."""
    leader, follower = pty.openpty()
    os.write(leader, f"{answer}\n".encode())  # typed ahead: the terminal keeps it
    with subprocess.Popen(
        [str(BIN / "hooksim"), "lint", "--probe"],
        stdin=follower,
        stdout=subprocess.PIPE,
        stderr=follower,
        text=True,
    ) as process:
        os.close(follower)
        out, _ = process.communicate()
    asked = _read_all(leader)
    assert process.returncode == 0
    assert "run 1 hook on 5 hosts in a throwaway home? [y/N] " in asked
    assert ("PreToolUse  block" in out) is probed
    assert out.startswith("no findings in 1 file\n")
    assert ("probe not run" in asked) is not probed


def _read_all(fd: int) -> str:
    """What a terminal's other end has left to read (until its last writer closed it)."""
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: no process holds the terminal any more
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks).decode()


def test_probe_with_no_hooks_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without a hook in any config, the probe has nothing to fire and says so."""
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "--probe", "--yes"]) == 0
    assert capsys.readouterr().out == "no findings in 0 files\nprobe: no hooks to fire\n"


def test_no_folder_of_the_user_reaches_a_probed_hook(
    project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The XDG folders, the hosts' own homes and the shell's previous folder name the user's
    folders: a probed hook that writes through each of them writes nothing outside the run."""
    real = tmp_path / "real"
    names = [
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
        "XDG_STATE_HOME",
        "XDG_CACHE_HOME",
        "CODEX_HOME",
        "CLAUDE_CONFIG_DIR",
        "GEMINI_CLI_HOME",
        "OLDPWD",
        "PWD",
    ]
    for name in names:
        (real / name).mkdir(parents=True)
        monkeypatch.setenv(name, str(real / name))
    writes = "; ".join(f'touch "${{{name}:-/nonexistent}}/marker"' for name in names)
    (project / ".claude" / "settings.json").write_text(settings(f"{writes} 2>/dev/null; {BLOCK}"))
    assert main(["lint", "--probe", "--yes"]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in real.rglob("*") if p.is_file()) == []
