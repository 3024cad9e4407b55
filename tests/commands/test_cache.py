"""``hooksim run --cache DIR``: a pass is not run again while nothing its verdict depends on
changed; anything that changes runs again; a failure, an error or ``--no-cache`` never hits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hooksim.cli import main

SCENARIO = """\
name: counted
tool: claude-code
files:
  data: {{from: seeds}}
turns:
  - user: hi
    assistant: ok
hooks:
  Stop:
    - hooks: [{{type: command, command: '"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/hook.py"'}}]
expect:
  exit_codes: {exit}
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scenario whose hook (a file beside it, importing another) counts its runs; it seeds
    a folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COUNTER", str(tmp_path / "counter"))  # inherited by the hooks
    (tmp_path / "counter").write_text("")
    (tmp_path / "s").mkdir()
    write(tmp_path, exit=0)
    (tmp_path / "s" / "hook.py").write_text(
        "import os, helper\nopen(os.environ['COUNTER'], 'a').write('ran\\n')\n"
    )
    (tmp_path / "s" / "helper.py").write_text("")
    (tmp_path / "s" / "seeds").mkdir()
    (tmp_path / "s" / "seeds" / "a.txt").write_text("one")
    return tmp_path


def write(project: Path, *, exit: int) -> None:
    text = SCENARIO.format(exit=exit)
    (project / "s" / "counted.yaml").write_text(text)


def runs(project: Path) -> int:
    return (project / "counter").read_text().count("ran")


def cached_run(capsys: pytest.CaptureFixture[str], *more: str) -> tuple[int, str]:
    code = main(["run", "s/counted.yaml", "--cache", "cache", *more])
    return code, capsys.readouterr().out


def test_an_unchanged_pass_is_taken_from_the_cache(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = cached_run(capsys, "--json", "first.json")
    assert (code, runs(project)) == (0, 1)
    assert out.startswith("PASS  s/counted.yaml [claude-code]  counted  (")
    code, out = cached_run(capsys, "--json", "second.json")
    assert (code, runs(project)) == (0, 1)
    assert out.startswith("PASS (cached)  s/counted.yaml [claude-code]  counted\n")
    assert "1 passed (1 cached), 0 failed in " in out
    first, second = (json.loads(Path(f).read_text()) for f in ("first.json", "second.json"))
    assert second == [{**first[0], "cached": True}]


@pytest.mark.parametrize(
    "change",
    [
        "s/counted.yaml",  # the scenario
        "s/hook.py",  # a file a hook command names
        "s/helper.py",  # a Python file beside it (what it may import)
        "s/seeds/a.txt",  # a file the scenario seeds from
        "s/seeds/new.txt",  # a file added to a seeded folder
    ],
)
def test_any_change_runs_again(
    project: Path, capsys: pytest.CaptureFixture[str], change: str
) -> None:
    cached_run(capsys)
    with open(change, "a") as f:
        f.write("\n# changed\n")
    code, out = cached_run(capsys)
    assert (code, runs(project)) == (0, 2)
    assert "(cached)" not in out


def test_another_host_or_config_is_another_key(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cached_run(capsys)
    Path("settings.json").write_text('{"hooks": {}}')
    _, out = cached_run(capsys, "--hooks-config", "settings.json")
    assert runs(project) == 2
    assert "(cached)" not in out


def test_a_failure_is_never_cached(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, exit=1)
    assert cached_run(capsys)[0] == 1
    code, out = cached_run(capsys)
    assert (code, runs(project)) == (1, 2)
    assert out.startswith("FAIL  s/counted.yaml [claude-code]  counted  (")


def test_no_cache_runs_and_keeps_the_cache(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cached_run(capsys)
    cached_run(capsys, "--no-cache")
    assert runs(project) == 2
    _, out = cached_run(capsys)
    assert runs(project) == 2
    assert "(cached)" in out


def test_a_cache_that_cannot_be_a_folder_is_one_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("cache").write_text("a file")
    assert main(["run", "s/counted.yaml", "--cache", "cache"]) == 2
    assert capsys.readouterr().err == "hooksim: --cache: cache is not a folder\n"
    assert runs(project) == 0


def test_a_broken_cache_entry_runs_again(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cached_run(capsys)
    for entry in Path("cache").rglob("*.json"):
        entry.write_text("{not json")
    code, out = cached_run(capsys)
    assert (code, runs(project)) == (0, 2)
    assert "(cached)" not in out
