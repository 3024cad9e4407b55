"""Nothing a scenario names leads a read or a write outside the run: session ids, ``files:``
(through a link a ``from:`` folder brought), ``from:`` itself, a commit's deletions and
``expect.files``. Each refusal is one line naming the scenario's file and line; nothing outside
is touched."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest
from hooksim.judge import builtin_checks, expect
from hooksim.replay.file_tools import Place, Plan, Refused
from hooksim.replay.runner import SetupError, run_scenario
from hooksim.scenario import ScenarioError, load_scenario

from ..console import console


def write(tmp_path: Path, body: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text("name: t\n" + textwrap.dedent(body))
    return path


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the scenario's, with a file a scenario must never touch."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "victim.txt").write_text("original\n")
    return folder


def linked_fixture(tmp_path: Path, outside: Path) -> Path:
    """The scenario's folder, holding ``fix/dir`` whose ``out`` is a link to ``outside``."""
    scenarios = tmp_path / "scenarios"
    (scenarios / "fix" / "dir").mkdir(parents=True)
    (scenarios / "fix" / "dir" / "out").symlink_to(outside)
    return scenarios


@pytest.mark.parametrize("tool", ["claude-code", "cursor", "codex", "gemini-cli", "hermes"])
@pytest.mark.parametrize("form", ["session", "new_session"])
@pytest.mark.parametrize("sid", ["../../../../../../../../../../../../../../../x/victim", "/x/abs"])
def test_a_session_id_that_is_a_path_is_refused(
    tmp_path: Path, tool: str, form: str, sid: str
) -> None:
    """Real ids are names, not paths: one with ``/`` or ``..`` would put the transcript outside."""
    if form == "session":
        body = f"tool: {tool}\nsession: {{id: {sid!r}}}\nturns: [{{user: hi, assistant: ok}}]\n"
        line = 3
    else:
        body = (
            f"tool: {tool}\nturns:\n  - {{user: hi, assistant: ok}}\n"
            f"  - {{new_session: {sid!r}}}\n  - {{user: hi, assistant: ok}}\n"
        )
        line = 5
    path = write(tmp_path, body)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert str(caught.value) == (
        f"{path}:{line}: session id {sid!r} is not a name: it becomes part of file names"
        " (no '/', no '..', no control characters)"
    )


def test_seeding_never_writes_through_a_link_a_from_folder_brought(
    tmp_path: Path, outside: Path
) -> None:
    scenarios = linked_fixture(tmp_path, outside)
    path = write(
        scenarios,
        """\
        tool: claude-code
        hooks: {UserPromptSubmit: [{hooks: [{type: command, command: "true"}]}]}
        files:
          d: {from: fix/dir}
          d/out/victim.txt: "OVERWRITTEN BY SEED\\n"
          d/out/new.txt: "created outside\\n"
        turns: [{user: hi, assistant: ok}]
        """,
    )
    with pytest.raises(SetupError) as caught:
        run_scenario(load_scenario(path))
    assert str(caught.value) == (
        f"{path}:6: files: d/out/victim.txt: d/out is a symbolic link (to {outside});"
        " hooksim does not follow it"
    )
    assert sorted(os.listdir(outside)) == ["victim.txt"]
    assert (outside / "victim.txt").read_text() == "original\n"


def test_a_commit_never_deletes_through_a_link(tmp_path: Path, outside: Path) -> None:
    scenarios = linked_fixture(tmp_path, outside)
    path = write(
        scenarios,
        """\
        tool: claude-code
        hooks: {UserPromptSubmit: [{hooks: [{type: command, command: "true"}]}]}
        files:
          git:
            commits:
              - {message: one, files: {d: {from: fix/dir}}}
              - {message: two, files: {d/out/victim.txt: null}}
        turns: [{user: hi, assistant: ok}]
        """,
    )
    with pytest.raises(SetupError, match=r":8: files: d/out/victim.txt: d/out is a symbolic link"):
        run_scenario(load_scenario(path))
    assert (outside / "victim.txt").read_text() == "original\n"


def test_a_from_folders_links_are_copied_as_links(tmp_path: Path, outside: Path) -> None:
    scenarios = linked_fixture(tmp_path, outside)
    path = write(
        scenarios,
        """\
        tool: claude-code
        hooks:
          SessionStart: [{hooks: [{type: command, command: 'readlink d/out > seen.txt'}]}]
        files:
          d: {from: fix/dir}
        turns: [{user: hi, assistant: ok}]
        expect:
          files:
            seen.txt: {equals: "OUTSIDE\\n"}
        """.replace("OUTSIDE", str(outside)),
    )
    assert expect.check(run_scenario(load_scenario(path))) == []


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("/etc/hostname", "is absolute: from: names a file or folder in the scenario's folder"),
        ("../../../../../../../../etc/os-release", "leaves the scenario's folder (..)"),
        ("/dev/zero", "is absolute: from: names a file or folder in the scenario's folder"),
    ],
)
def test_from_stays_in_the_scenarios_folder(tmp_path: Path, source: str, why: str) -> None:
    path = write(
        tmp_path,
        f"tool: claude-code\nfiles:\n  p: {{from: {source}}}\nturns: [{{user: hi, assistant: ok}}]\n",
    )
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert str(caught.value) == f"{path}:4: files: p: from: {source!r} {why}"


def test_from_a_link_out_of_the_scenarios_folder_is_refused(tmp_path: Path, outside: Path) -> None:
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "host").symlink_to(outside / "victim.txt")
    path = write(
        scenarios,
        "tool: claude-code\nfiles:\n  p: {from: host}\nturns: [{user: hi, assistant: ok}]\n",
    )
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert str(caught.value) == (
        f"{path}:4: files: p: from: 'host' leads out of the scenario's folder"
        f" (to {outside / 'victim.txt'})"
    )


@pytest.mark.parametrize("where", ["fifo", "tree/fifo"])
def test_from_a_fifo_is_refused_at_load(tmp_path: Path, where: str) -> None:
    (tmp_path / "tree").mkdir()
    os.mkfifo(tmp_path / where)
    source = where.split("/", maxsplit=1)[0]
    path = write(
        tmp_path,
        f"tool: claude-code\nfiles:\n  d: {{from: {source}}}\nturns: [{{user: hi, assistant: ok}}]\n",
    )
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert str(caught.value) == (
        f"{path}:4: files: d: from: {where} is a named pipe (FIFO): only files, folders and"
        " links are copied"
    )


@pytest.mark.parametrize(
    ("files", "line", "why"),
    [
        ('a: "x"\n  a/b: "y"', 5, "files: a/b: a is a file of files: too"),
        ('a/b: "y"\n  a: "x"', 5, "files: a: a folder of files: too (a/b)"),
    ],
)
def test_files_that_cannot_both_be_are_refused_at_load(
    tmp_path: Path, files: str, line: int, why: str
) -> None:
    path = write(
        tmp_path, f"tool: claude-code\nfiles:\n  {files}\nturns: [{{user: hi, assistant: ok}}]\n"
    )
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert str(caught.value) == f"{path}:{line}: {why}"
    result = console("hooksim", "validate", path)
    assert (result.returncode, result.stdout.splitlines()[-1]) == (1, "0 valid, 1 invalid")


HOOK_MAKES = """\
tool: claude-code
hooks:
  SessionStart: [{hooks: [{type: command, command: '%s'}]}]
turns: [{user: hi, assistant: ok}]
expect:
  files:
    z: {contains: x}
"""


@pytest.mark.parametrize(
    ("command", "got"),
    [
        ("ln -s /etc/hostname z", "a symbolic link to /etc/hostname (not followed)"),
        ("ln -s /dev/zero z", "a symbolic link to /dev/zero (not followed)"),
        ("mkfifo z", "a named pipe (FIFO), not a regular file (not read)"),
    ],
)
def test_expect_files_reads_only_regular_files(tmp_path: Path, command: str, got: str) -> None:
    """A link is never followed (nothing outside is read or printed); a FIFO is never opened to
    read (no hang)."""
    path = write(tmp_path, HOOK_MAKES % command)
    assert expect.check(run_scenario(load_scenario(path))) == [
        f"file z: expected text containing 'x', got {got}"
    ]


def test_expect_files_never_reads_through_a_linked_folder(tmp_path: Path, outside: Path) -> None:
    path = write(
        tmp_path,
        (HOOK_MAKES % f"ln -s {outside} d").replace("z: {contains", "d/victim.txt: {contains"),
    )
    assert expect.check(run_scenario(load_scenario(path))) == [
        f"file d/victim.txt: expected text containing 'x', got not read: d is a symbolic link"
        f" (to {outside}); hooksim does not follow it"
    ]


def test_a_hooks_config_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    """A FIFO would hang the read, a device would never end it: one line, before any run."""
    os.mkfifo(tmp_path / "cfg.fifo")
    path = write(tmp_path, "tool: claude-code\nturns: [{user: hi, assistant: ok}]\n")
    for config, kind in [
        (tmp_path / "cfg.fifo", "a named pipe (FIFO)"),
        (Path("/dev/zero"), "a character device"),
    ]:
        result = console("hooksim", "run", path, "--hooks-config", config, "--tool", "claude-code")
        assert (result.returncode, result.stdout, result.stderr) == (
            2,
            "",
            f"hooksim: --hooks-config: {config} is {kind}, not a regular file\n",
        )


def test_a_link_swapped_in_after_a_tool_call_was_planned_is_not_written_through(
    tmp_path: Path, outside: Path
) -> None:
    """The check and the write are one operation: a folder replaced by a link between the
    plan and the write (a process a hook left running can do it) stops the write."""
    project, home = tmp_path / "project", tmp_path / "home"
    (project / "d").mkdir(parents=True)
    home.mkdir()
    plan = Plan(Place(project, home, "/work"))
    plan.write(plan.place.path("d/f.txt", "file_path"), "hello\n")
    (project / "d").rename(project / "d.x")
    (project / "d").symlink_to(outside)
    with pytest.raises(Refused, match="outside the project and the run's HOME"):
        plan.commit()
    (project / "d").unlink()
    (project / "d").symlink_to(project / "d.x")  # inside: planned as d/, resolved as d.x/
    assert plan.commit() == "created d/f.txt"
    assert (project / "d.x" / "f.txt").read_text() == "hello\n"
    assert sorted(os.listdir(outside)) == ["victim.txt"]


def test_a_project_hooks_file_that_is_a_link_is_not_read(tmp_path: Path, outside: Path) -> None:
    """The project's own hooks file is read only as a regular file of the project."""
    (outside / "settings.json").write_text(
        '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo out"}]}]}}'
    )
    fixtures = tmp_path / "scenarios"
    (fixtures / "tree" / ".claude").mkdir(parents=True)
    (fixtures / "tree" / ".claude" / "settings.json").symlink_to(outside / "settings.json")
    path = write(
        fixtures,
        """\
        tool: claude-code
        hooks: {UserPromptSubmit: [{hooks: [{type: command, command: "true"}]}]}
        files:
          .claude: {from: tree/.claude}
        turns: [{user: hi, assistant: ok}]
        """,
    )
    result = run_scenario(load_scenario(path))
    assert [spec.event for spec in result.specs] == ["UserPromptSubmit"]
    assert result.warnings == [
        f".claude/settings.json: a symbolic link to {outside / 'settings.json'} (not followed);"
        " hooksim loads no hooks from it"
    ]


def test_seeded_git_config_runs_no_command_at_setup(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        f"""\
        tool: claude-code
        hooks: {{UserPromptSubmit: [{{hooks: [{{type: command, command: "true"}}]}}]}}
        files:
          git:
            commits:
              - {{message: one, files: {{a.txt: "a"}}}}
              - message: two
                files:
                  .git/config: "[user]\\n  name = t\\n  email = t@t\\n[core]\\n  fsmonitor = \\"touch {tmp_path}/fsmonitor-ran; false\\"\\n"
                  .git/hooks/pre-commit: "#!/bin/sh\\ntouch {tmp_path}/hook-ran\\n"
              - {{message: three, files: {{b.txt: "b"}}}}
        turns: [{{user: hi, assistant: ok}}]
        """,
    )
    run_scenario(load_scenario(path))
    assert not (tmp_path / "fsmonitor-ran").exists()
    assert not (tmp_path / "hook-ran").exists()


@pytest.mark.parametrize(
    "config",
    [
        '[filter \\"x\\"]\\n  clean = \\"sh -c \'touch {ran}; cat\'\\"\\n',
        "[commit]\\n  gpgSign = true\\n[gpg]\\n  program = \\\"sh -c 'touch {ran}; false'\\\"\\n",
    ],
    ids=["clean-filter", "gpg-program"],
)
def test_a_seeded_git_config_is_in_place_only_after_the_commits(
    tmp_path: Path, config: str
) -> None:
    """A seeded .git/config naming a command (a clean filter with .gitattributes, a gpg
    program) runs nothing while hooksim commits; the hooks find the file as seeded."""
    ran = tmp_path / "ran"
    path = write(
        tmp_path,
        f"""\
        tool: claude-code
        hooks: {{UserPromptSubmit: [{{hooks: [{{type: command, command: "cat .git/config > seen"}}]}}]}}
        files:
          git:
            commits:
              - message: one
                files:
                  .git/config: "{config.format(ran=ran)}"
                  .gitattributes: "* filter=x\\n"
                  a.txt: "a"
        turns: [{{user: hi, assistant: ok}}]
        expect:
          files: {{seen: {{contains: "[{"filter" if "filter" in config else "gpg"}"}}}}
        """,
    )
    result = run_scenario(load_scenario(path))
    assert not ran.exists()
    assert not [f for f in builtin_checks.check(result) if "seen" in f]
    assert not expect.check(result)
