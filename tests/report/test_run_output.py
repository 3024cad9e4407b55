"""`hooksim run` as CI and a person at a terminal see it: reports that survive, a summary that
counts errors apart, -k on names, -q, -x with -n, --keep-workdir, --show-timeline, progress."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.console import BIN, console, summary

PASSING = "name: passes\nturns:\n  - {user: hi, assistant: hello}\nexpect: {exit_codes: 0}\n"
FAILING = "name: wants a compaction\nturns:\n  - {user: hi, error: 500}\nexpect:\n  compactions_at_turns: [1]\n"
BROKEN = "name: [broken\n"


def _files(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    for name, text in files.items():
        (folder / f"{name}.yaml").write_text(text)
    return folder


def test_reports_go_into_new_folders_and_are_written_when_runs_fail(tmp_path: Path) -> None:
    """Report folders are created; both reports hold every run; errors are counted apart."""
    folder = _files(tmp_path, a=PASSING, b=FAILING, c=BROKEN)
    junit, report = tmp_path / "out" / "ci" / "junit.xml", tmp_path / "out" / "run.json"
    result = console("hooksim", "run", folder, "--junit-xml", junit, "--json", report, "-n", "2")
    assert result.returncode == 1
    assert result.stderr == ""
    assert summary(result.stdout) == "1 passed, 1 failed, 1 error"
    suite = ET.parse(junit).getroot()
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "1", "1")
    assert [(e["name"], e["passed"]) for e in json.loads(report.read_text())] == [
        ("passes", True),
        ("wants a compaction", False),
        ("c", False),
    ]


def test_a_report_path_that_is_a_directory_stops_before_anything_runs(tmp_path: Path) -> None:
    """--json DIR is one line and exit 2, and no scenario runs."""
    folder = _files(tmp_path, a=PASSING)
    result = console("hooksim", "run", folder, "--json", tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        f"hooksim: --json: {tmp_path} is a directory; give a file name such as"
        f" {tmp_path / 'report'}\n"
    )


def test_k_selects_by_scenario_name_path_or_expression(tmp_path: Path) -> None:
    """-k matches names (with spaces), paths, and and/or/not expressions, like pytest's -k."""
    folder = _files(tmp_path, a=PASSING, b=FAILING)
    by_name = console("hooksim", "run", folder, "-k", "wants a comp")
    assert by_name.stdout.startswith(f"FAIL  {folder / 'b.yaml'}  wants a compaction")
    by_path = console("hooksim", "run", folder, "-k", "a.yaml")
    assert by_path.stdout.startswith(f"PASS  {folder / 'a.yaml'}  passes")
    expression = console("hooksim", "run", folder, "-k", "yaml and not compaction")
    assert expression.stdout.startswith(f"PASS  {folder / 'a.yaml'}  passes")
    assert summary(expression.stdout) == "1 passed, 0 failed"
    none = console("hooksim", "run", folder, "-k", "zzz")
    assert (none.returncode, none.stdout) == (5, "")
    assert none.stderr == f"hooksim: no scenario files found in {folder} matching -k 'zzz'\n"
    bad = console("hooksim", "run", folder, "-k", "a and (b")
    assert (bad.returncode, bad.stderr) == (2, "hooksim: -k: the expression ends too early\n")


def test_quiet_prints_only_what_did_not_pass(tmp_path: Path) -> None:
    """-q leaves out passing runs; failures keep their detail; the summary stays."""
    folder = _files(tmp_path, a=PASSING, b=FAILING)
    result = console("hooksim", "run", folder, "-q")
    lines = result.stdout.splitlines()
    assert lines[0] == f"FAIL  {folder / 'b.yaml'}  wants a compaction  ({lines[0][-5:-2]}s)"
    assert "passes" not in result.stdout
    assert summary(result.stdout) == "1 passed, 1 failed"


def test_exitfirst_with_workers_starts_no_new_file_after_a_failure(tmp_path: Path) -> None:
    """-x -n 2: the two running files finish, the third never starts."""
    folder = _files(tmp_path, a=FAILING, b=FAILING, c=FAILING)
    result = console("hooksim", "run", folder, "-x", "-n", "2")
    assert summary(result.stdout) == "0 passed, 2 failed"


def test_keep_workdir_prints_each_directory(tmp_path: Path) -> None:
    """--keep-workdir says where each run's directory is, and it holds the ledger."""
    folder = _files(tmp_path, a=PASSING)
    result = console("hooksim", "run", folder, "--keep-workdir")
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("  workdir: ")]
    workdir = Path(line.removeprefix("  workdir: "))
    try:
        assert (workdir / "bridge-ledger.jsonl").read_text().count('"tool"') == 3
    finally:
        shutil.rmtree(workdir)


def test_show_timeline_and_timeline_always_show_a_passing_run(tmp_path: Path) -> None:
    """A passing run's timeline, with each hook's stdin, by flag or by the scenario's own key."""
    folder = _files(tmp_path, a=PASSING, b="timeline: always\n" + PASSING)
    plain = console("hooksim", "run", folder / "a.yaml")
    assert "timeline:" not in plain.stdout
    for result in (
        console("hooksim", "run", folder / "a.yaml", "--show-timeline"),
        console("hooksim", "run", folder / "b.yaml"),
    ):
        lines = result.stdout.splitlines()
        assert lines[1] == "  timeline:"
        assert lines[2].startswith("  turn   1  2026-06-01 09:00:00  on_session_start     exit 0 ")
        assert lines[3].startswith(" " * 38 + 'stdin: {"hook_event_name": "on_session_start", ')
        assert lines[4] == " " * 38 + "-> start_session #1 ok"


def test_a_terminal_gets_a_progress_line(tmp_path: Path) -> None:
    """On a terminal, a status line says how many files are done and which one is running."""
    folder = _files(tmp_path, a=PASSING, b=PASSING)
    primary, secondary = os.openpty()
    with subprocess.Popen(
        [str(BIN / "hooksim"), "run", folder], stdout=secondary, stderr=subprocess.PIPE
    ) as proc:
        os.close(secondary)
        chunks = []
        while True:
            try:
                chunk = os.read(primary, 4096)
            except OSError:  # the terminal closed: the process is done writing
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert proc.wait() == 0
    os.close(primary)
    screen = b"".join(chunks).decode()
    assert f"[0/2] running {folder / 'a.yaml'}" in screen
    assert f"\r\n[1/2] running {folder / 'b.yaml'}\r\x1b[KPASS  {folder / 'b.yaml'}" in screen
    assert re.search(r"\r\n2 passed, 0 failed in \d+\.\ds\r\n$", screen)


LOOP = """\
name: a stop loop
tool: codex
hooks:
  Stop: [{hooks: [{type: command, command: 'echo {\\"decision\\": \\"block\\", \\"reason\\": \\"again\\"}'}]}]
turns:
  - {user: hi, assistant: hello}
expect:
  fired: {Stop: 4}
"""


def test_repeated_firings_are_collapsed_with_the_cause_kept(tmp_path: Path) -> None:
    """50 identical Stop firings are one line each for the first, a count, and the last."""
    result = console("hooksim", "run", "-q", _files(tmp_path, loop=LOOP))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert "times Stop fired: expected 4, got 50" in result.stdout
    collapsed = [line for line in lines if "more identical" in line]
    assert len(collapsed) == 1, result.stdout
    assert re.fullmatch(r"\s+\.\.\. 48 more identical Stop firings \(turn 1\)", collapsed[0])
    cut = next(i for i, line in enumerate(lines) if "hooksim ended the loop at 50" in line)
    assert cut > lines.index(collapsed[0]), result.stdout
    assert len(lines) < 25, result.stdout


CLAUDE_FAILING = """\
name: fails {n}
tool: claude-code
hooks:
  Stop: [{{hooks: [{{type: command, command: 'true'}}]}}]
turns:
  - {{user: hi, assistant: hello}}
expect:
  fired: {{Stop: 2}}
"""


def test_host_notes_are_printed_once_per_run_and_in_each_timeline_with_v(tmp_path: Path) -> None:
    folder = _files(tmp_path, a=CLAUDE_FAILING.format(n="a"), b=CLAUDE_FAILING.format(n="b"))
    quiet = console("hooksim", "run", folder).stdout
    notes = [line for line in quiet.splitlines() if "unverified" in line]
    assert notes, quiet
    assert all(line.startswith("note: Claude Code: unverified: ") for line in notes), quiet
    assert len(notes) == len(set(notes))
    verbose = console("hooksim", "run", "-v", folder).stdout
    assert sum("  Claude Code: unverified: " in line for line in verbose.splitlines()) == 2 * len(
        notes
    )


def test_an_empty_timeline_says_so(tmp_path: Path) -> None:
    """A run in which no hook ran says that under ``timeline:``, not a bare heading."""
    folder = _files(
        tmp_path,
        a="name: nothing fires\ntool: claude-code\n"
        'hooks: {PreCompact: [{hooks: [{type: command, command: "true"}]}]}\n'
        "turns: [{user: hi, assistant: ho}]\n",
    )
    result = console("hooksim", "run", folder)
    lines = result.stdout.splitlines()
    heading = lines.index("  timeline:")
    assert lines[heading + 1] == "    (no hook ran: nothing the session fired has one)", lines
