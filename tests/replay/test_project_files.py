"""The project a run's hooks work in: seeded from ``files:`` (text, copies, a git repository)
before the session, and judged by ``expect.files`` after it (or after a turn)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hooksim.judge import expect
from hooksim.replay.runner import SetupError, run_scenario
from hooksim.scenario import ScenarioError, load_scenario

# A Claude Code hook at session start: what it sees of the project goes where expect.files
# can read it.
SESSION_START = """\
tool: claude-code
hooks:
  SessionStart: [{{hooks: [{{type: command, command: '{command}'}}]}}]
turns:
  - {{user: hi, assistant: hello}}
"""


def scenario(tmp_path: Path, body: str, *, command: str = "true") -> Path:
    path = tmp_path / "s.yaml"
    path.write_text("name: t\n" + SESSION_START.format(command=command) + textwrap.dedent(body))
    return path


def failures(path: Path) -> list[str]:
    return expect.check(run_scenario(load_scenario(path)))


def test_files_are_in_place_before_the_first_hook(tmp_path: Path) -> None:
    """Inline text, a copied file, a copied folder and a file in the run's HOME all exist when
    SessionStart runs (its cwd is the project)."""
    (tmp_path / "fixture.txt").write_text("copied\n")
    (tmp_path / "tree" / "sub").mkdir(parents=True)
    (tmp_path / "tree" / "sub" / "b.txt").write_text("in a folder\n")
    path = scenario(
        tmp_path,
        """\
        files:
          PLAN.md: "1. write the tests\\n"
          src/a.txt: {from: fixture.txt}
          data: {from: tree}
          ~/.config/tool.json: '{"on": true}'
        expect:
          files:
            seen.txt: {equals: "1. write the tests\\ncopied\\nin a folder\\n{\\"on\\": true}"}
        """,
        command="cat PLAN.md src/a.txt data/sub/b.txt ~/.config/tool.json > seen.txt",
    )
    assert failures(path) == []


@pytest.mark.parametrize(
    ("where", "why"),
    [
        (
            "/etc/passwd",
            "'/etc/passwd' is absolute: give a path relative to the project (the"
            " hooks' working directory), or ~/PATH for the run's temporary HOME",
        ),
        ("../outside.txt", "'../outside.txt' leaves the project folder (..)"),
        ("a/../../outside.txt", "'a/../../outside.txt' leaves the project folder (..)"),
        ("~/../outside.txt", "'~/../outside.txt' leaves the run's HOME folder (..)"),
    ],
)
def test_a_path_outside_the_project_is_a_file_line_error(
    tmp_path: Path, where: str, why: str
) -> None:
    """files: writes inside the project or the run's HOME only; anything else names its line."""
    path = scenario(tmp_path, f"files:\n  ok.txt: fine\n  {where!r}: no\n")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path)
    assert str(exc.value) == f"{path}:9: files: {why}"


def test_a_missing_source_is_a_file_line_error(tmp_path: Path) -> None:
    """from: names a file or folder beside the scenario; a missing one says where it looked."""
    path = scenario(tmp_path, "files:\n  a.txt: {from: fixtures/a.txt}\n")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path)
    assert str(exc.value) == (
        f"{path}:8: files: a.txt: from: no file or folder {tmp_path / 'fixtures' / 'a.txt'}"
    )


def test_a_file_is_text_or_a_copy(tmp_path: Path) -> None:
    """Any other value says which two forms a file takes."""
    path = scenario(tmp_path, "files:\n  a.txt: 3\n")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path)
    assert str(exc.value) == (
        f"{path}:8: files/a.txt: a file is its text, or {{from: PATH}} (a file or folder beside"
        " the scenario), or either as {text: TEXT} or {from: PATH} with a mode"
    )


def test_git_true_commits_the_seeded_files(tmp_path: Path) -> None:
    """git: true makes the project a repository whose one commit holds the seeded files; a
    hook's own commit works (the repository has an identity)."""
    path = scenario(
        tmp_path,
        """\
        files:
          git: true
          README.md: "hello\\n"
        expect:
          files:
            ~/log.txt: {equals: "hooksim: the seeded files\\n"}
            ~/status.txt: {equals: ""}
            ~/files.txt: {equals: "README.md\\n"}
        """,
        command="git status --porcelain > ~/status.txt; git log --format=%s > ~/log.txt;"
        " git ls-files > ~/files.txt; git commit -q --allow-empty -m mine",
    )
    assert failures(path) == []


def test_git_commits_are_made_in_order_and_the_other_files_left_uncommitted(
    tmp_path: Path,
) -> None:
    """Each commit writes (or, with null, deletes) its files; files: outside git are then written
    on top, a working tree with changes."""
    path = scenario(
        tmp_path,
        """\
        files:
          git:
            commits:
              - {message: first, files: {a.txt: "one\\n", old.txt: "x\\n"}}
              - {message: second, files: {a.txt: "two\\n", old.txt: null}}
          a.txt: "three\\n"
        expect:
          files:
            ~/log.txt: {equals: "second\\nfirst\\n"}
            ~/diff.txt: {contains: "-two\\n+three"}
            old.txt: {exists: false}
        """,
        command="git log --format=%s > ~/log.txt; git diff > ~/diff.txt",
    )
    assert failures(path) == []


def test_git_missing_is_a_setup_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a git executable a scenario that asks for a repository does not run, and says so."""
    path = scenario(tmp_path, "files: {git: true}\n")
    empty = tmp_path / "no-git"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    with pytest.raises(SetupError) as exc:
        run_scenario(load_scenario(path))
    assert str(exc.value) == (
        f"{path}: files.git: no git executable on PATH (Debian: apt-get install git)"
    )


def test_expect_files_says_what_each_file_should_have_been(tmp_path: Path) -> None:
    """One line per failed check: ``file PATH: expected ..., got ...``."""
    path = scenario(
        tmp_path,
        """\
        files:
          a.txt: "alpha\\n"
          state.json: '{"count": 3, "items": [{"name": "x"}]}'
          notes.txt: "plain"
        expect:
          files:
            a.txt: {equals: "beta\\n"}
            gone.txt: {exists: true}
            notes.txt: {contains: "todo", matches: "^p.*x$"}
            state.json: {json: {count: 2, items.0.name: x, items.1.name: y}}
            PLAN.md: {exists: false}
            data: {equals: ""}
        """,
        command="mkdir data; touch PLAN.md",
    )
    assert failures(path) == [
        "file a.txt: expected 'beta\\n', got 'alpha\\n'",
        "file gone.txt: expected it to exist, got no such file",
        "file notes.txt: expected text containing 'todo', got 'plain'",
        "file notes.txt: expected text matching '^p.*x$', got 'plain'",
        "file state.json: expected count = 2, got 3",
        'file state.json: expected items.1.name = "y", got no items.1',
        "file PLAN.md: expected no such file, got a file of 0 bytes",
        "file data: expected '', got a folder",
    ]


def test_expect_files_on_text_that_is_not_json(tmp_path: Path) -> None:
    """json: on a file that does not parse says so."""
    path = scenario(
        tmp_path,
        "files: {state.json: 'not json'}\nexpect:\n  files:\n    state.json: {json: {a: 1}}\n",
    )
    assert failures(path) == ["file state.json: expected JSON, got 'not json'"]


def test_at_turn_judges_a_file_as_it_was_after_that_turn(tmp_path: Path) -> None:
    """A Stop hook writes the file in turn 2: absent after turn 1, there at the end."""
    path = tmp_path / "s.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            name: t
            tool: claude-code
            hooks:
              Stop: [{hooks: [{type: command, command: '[ -e once ] && echo done > out.txt; touch once'}]}]
            turns:
              - {user: a, assistant: b}
              - {user: c, assistant: d}
            expect:
              files:
                out.txt: {exists: false, at_turn: 1}
                once: {exists: true, at_turn: 1}
            """
        )
    )
    assert failures(path) == []
    path.write_text(path.read_text().replace("{exists: false, at_turn: 1}", "{exists: false}"))
    assert failures(path) == [
        "file out.txt: expected no such file, got a file of 5 bytes ('done\\n')"
    ]


@pytest.mark.parametrize(
    ("files", "why"),
    [
        (
            "/abs.txt: {exists: true}",
            "expect.files: '/abs.txt' is absolute: give a path relative"
            " to the project (the hooks' working directory), or ~/PATH for the run's temporary HOME",
        ),
        (
            "a.txt: {exists: true, at_turn: 2}",
            "expect.files.a.txt names turn 2, but the scenario has 1 turns",
        ),
        (
            "a.txt: {matches: '('}",
            "expect.files.a.txt.matches: '(' is not a regular expression"
            " (missing ), unterminated subpattern at position 0)",
        ),
    ],
)
def test_bad_file_expectations_are_file_line_errors(tmp_path: Path, files: str, why: str) -> None:
    """A path outside the project, a turn that does not exist, a regex that does not compile."""
    path = scenario(tmp_path, f"expect:\n  files:\n    {files}\n")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path)
    assert str(exc.value) == f"{path}:9: {why}"


def test_a_file_can_set_its_mode(tmp_path: Path) -> None:
    """``mode:`` (octal, as chmod takes it) on an inline file or a copied one: a hook script
    seeded inline can be executable, and runs."""
    (tmp_path / "check.sh").write_text("#!/bin/sh\necho copied > copied.txt\n")
    path = scenario(
        tmp_path,
        """\
        files:
          hooks/fmt.sh: {text: "#!/bin/sh\\necho formatted > ran.txt\\n", mode: 0755}
          hooks/check.sh: {from: check.sh, mode: "0700"}
          notes.txt: {text: "private", mode: 0600}
        expect:
          files:
            ran.txt: {contains: formatted}
            copied.txt: {contains: copied}
        """,
        command="hooks/fmt.sh && hooks/check.sh",
    )
    result = run_scenario(load_scenario(path))
    assert result.runs[0].exit_code == 0, result.runs[0].stderr
    assert expect.check(result) == []


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        ("{text: x, mode: 0855}", "mode: 855 is not octal digits (chmod's, e.g. 0755)"),
        ("{text: x, mode: 01777}", "mode: 1777 is more than a file's permissions (at most 0777)"),
        (
            "{mode: 0755}",
            "a file is its text, or {from: PATH} (a file or folder beside the"
            " scenario), or either as {text: TEXT} or {from: PATH} with a mode",
        ),
    ],
)
def test_a_bad_mode_is_a_file_line_error(tmp_path: Path, entry: str, why: str) -> None:
    path = scenario(tmp_path, f"files:\n  a.sh: {entry}\n")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path)
    assert str(exc.value).startswith(f"{path}:8: files"), str(exc.value)
    assert str(exc.value).endswith(why), str(exc.value)
