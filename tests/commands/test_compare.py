"""`hooksim compare` shows what differs: hooks that did not exit 0, every event each host fired
(those with no hook bound as such), and neutral column names."""

from __future__ import annotations

from pathlib import Path

from tests.console import console

SESSION = """\
name: one session on two hosts
turns:
  - {user: hi, assistant: hello}
hosts:
  claude-code:
    hooks:
      Stop: [{hooks: [{type: command, command: 'true'}, {type: command, command: /nonexistent/hook}]}]
  codex:
    hooks:
      Stop: [{hooks: [{type: command, command: 'echo "{}" | eval "$WAGGLE_MIND_CMD call save_memory"'}]}]
"""


def test_compare_shows_failed_hooks_unbound_events_and_neutral_columns(tmp_path: Path) -> None:
    """A missing hook is shown with its exit and fails its host; unbound events are listed."""
    path = tmp_path / "s.yaml"
    path.write_text(SESSION)
    result = console("hooksim", "compare", path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    claude = lines.index("== claude-code: FAIL")
    assert lines[claude + 1].split() == [
        "turn",
        "1",
        "09:00:00",
        "SessionStart(startup)",
        "no",
        "hook",
    ]
    stops = [" ".join(line.split()) for line in lines if line.split()[:1] == ["Stop"]]
    assert stops == ["Stop 2 hooks (exit 127)", "Stop 1 hook -> save_memory"]
    header = "host         events hooks run not exit 0 bridge calls blocks  result"
    table = lines[lines.index(header) :]
    assert table[2].startswith("claude-code ")
    assert table[2].split() == ["claude-code", table[2].split()[1], "2", "1", "0", "0", "FAIL"]
    assert table[3].split()[2:] == ["1", "0", "1", "0", "PASS"]
