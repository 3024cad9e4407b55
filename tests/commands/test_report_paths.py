"""Where a failure points: the line of the hook or key that failed, whatever blocks the file
has, and a file GitHub and code scanning can attach (relative to the repository), or none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hooksim.cli import main

HOSTS_BLOCK_AND_HOOKS = """\
name: points
tool: claude-code
hosts:
  claude-code: {launch: print}
hooks:
  UserPromptSubmit:
    - hooks:
        - {type: command, command: 'true'}
        - {type: command, command: 'exit 3'}
turns:
  - {user: hi, assistant: ok}
"""


def test_a_failing_hook_is_pointed_at_with_a_hosts_block_beside_its_hooks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hosts.claude-code:` without hooks of its own: the hook is the one under `hooks:`, at
    its line, in the text, the annotation and SARIF (never the hosts block's line)."""
    monkeypatch.chdir(tmp_path)
    Path("t.yaml").write_text(HOSTS_BLOCK_AND_HOOKS)
    assert main(["run", "t.yaml", "--format", "github", "--sarif", "r.sarif"]) == 1
    out = capsys.readouterr().out
    assert "'exit 3' (t.yaml:9) failed" in out
    assert "::error file=t.yaml,line=9," in out
    [result] = json.loads(Path("r.sarif").read_text())["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 9}


def settings_with_a_mistake(home: Path) -> None:
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text(
        '{"hooks": {"SessionStop": [{"hooks": [{"type": "command", "command": "true"}]}]}}'
    )


def test_a_file_outside_the_repository_is_named_not_attached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """lint of ~/.claude/settings.json from a repository: the annotation is the run's (no
    `file=~/...` GitHub cannot attach) and names the file; SARIF has no `file://` URI."""
    home, repo = tmp_path / "home", tmp_path / "repo"
    settings_with_a_mistake(home)
    repo.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(repo)
    assert main(["lint", "--format", "github", "--sarif", "l.sarif"]) == 1
    [line] = [x for x in capsys.readouterr().out.splitlines() if x.startswith("::")]
    assert line.startswith("::error title=unknown-event::")
    assert f"(at {home}/.claude/settings.json:1, outside the repository)" in line
    log = Path("l.sarif").read_text()
    assert "file:" not in log
    [result] = json.loads(log)["runs"][0]["results"]
    assert "locations" not in result


def test_root_names_what_paths_are_relative_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    settings_with_a_mistake(home)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "--format", "github", "--root", str(home)]) == 1
    out = capsys.readouterr().out
    assert "::error file=.claude/settings.json,line=1,title=unknown-event::" in out
