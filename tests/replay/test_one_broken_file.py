"""One broken scenario never stops the others: a run that cannot go on is that file's ERROR,
in one line naming the scenario (and a path as the scenario knows it), and the next file
runs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ..console import console, summary

GOOD = "name: good\ntool: claude-code\nhooks: {UserPromptSubmit: [{hooks: [{type: command, command: 'true'}]}]}\nturns: [{user: hi, assistant: ok}]\n"


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (
            "files: {~/.claude: x}\n",
            "the run stopped: Not a directory: ~/.claude/projects",
        ),
        (
            "hosts: {claude-code: {hooks: {SessionStart: [{hooks: [{type: command, command:"
            ' \'cd / && rm -rf "$(dirname "$CLAUDE_PROJECT_DIR")"\'}]}]}}}\n',
            "the run stopped: No such file or directory",
        ),
    ],
)
def test_a_run_that_breaks_is_its_files_error_and_the_next_file_runs(
    tmp_path: Path, body: str, error: str
) -> None:
    broken = tmp_path / "a_broken.yaml"
    broken.write_text(GOOD.replace("name: good", "name: broken") + body)
    (tmp_path / "b_good.yaml").write_text(GOOD)
    result = console("hooksim", "run", tmp_path)
    lines = result.stdout.splitlines()
    assert result.returncode == 1, result
    at = next(k for k, line in enumerate(lines) if line.startswith("ERROR"))
    assert lines[at + 1].startswith(f"  {broken}: {error}"), lines
    assert any(line.startswith("PASS") and "good" in line for line in lines), lines
    assert summary(result.stdout).startswith("1 passed, 0 failed, 1 error")
    assert "Traceback" not in result.stderr


def test_a_fifo_in_a_plugin_folder_is_refused_at_load(tmp_path: Path) -> None:
    plugin = tmp_path / "plug"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "plug"}')
    os.mkfifo(plugin / "fifo")
    path = tmp_path / "s.yaml"
    path.write_text(GOOD + "plugins: [plug]\n")
    result = console("hooksim", "validate", path)
    assert result.returncode == 1
    assert (
        f"{path}:5: plugins: plug: fifo is a named pipe (FIFO): a plugin holds only files,"
        " folders and links" in result.stdout + result.stderr
    )
