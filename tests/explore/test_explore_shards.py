"""hooksim explore on many machines: each shard draws its own seeds, and a failure one shard
found and saved in the example database (``--database``) is the first session another runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hooksim.cli import main

from tests.explore.test_explore_mutants import EXAMPLE_MUTANTS, ROOT

SHARD_VARIABLES = ("TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX", "CI_NODE_TOTAL", "CI_NODE_INDEX")

# A hook that always writes on stdout, where the space wants nothing: the first session fails,
# and its seed is in the report.
CHATTY = """\
name: a chatty prompt hook
checks: {output_refused: false}
hooks:
  pre_llm_call:
    - command: "sh -c 'cat >/dev/null; echo chatter'"
turns:
  - {user: hi, assistant: hello}
invariants:
  stdout: ""
explore:
  examples: 1
  bridge: false
"""


@pytest.fixture(autouse=True)
def no_ci_shard(monkeypatch: pytest.MonkeyPatch) -> None:
    """The machine running these tests may be a CI shard itself: its variables are not ours."""
    for name in SHARD_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def _found_seed(text: str) -> int:
    found = re.search(r"found at example 1 \(seed (\d+)\)", text)
    assert found, text
    return int(found[1])


@pytest.mark.parametrize(
    ("argv", "env", "seed"),
    [
        (["--shard", "1/3"], {}, 5),
        (["--shard", "2/3"], {}, 6),
        (["--shard", "3/3"], {}, 7),
        ([], {"TEST_TOTAL_SHARDS": "3", "TEST_SHARD_INDEX": "1"}, 6),
        ([], {"CI_NODE_TOTAL": "3", "CI_NODE_INDEX": "2"}, 6),
        (["--shard", "3/3"], {"CI_NODE_TOTAL": "3", "CI_NODE_INDEX": "1"}, 7),
    ],
)
def test_a_shard_searches_its_own_seed(
    argv: list[str],
    env: dict[str, str],
    seed: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Shard K of N (--shard, else the CI engine's variables) of base seed S searches seed S+K-1,
    and its report names the base seed and the shard."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    source = tmp_path / "chatty.yaml"
    source.write_text(CHATTY)
    out = tmp_path / "failures"
    assert main(["explore", str(source), "--seed", "5", "--out", str(out), *argv]) == 1
    text = capsys.readouterr().out
    assert f", seed 5, shard {seed - 4}/3\n" in text
    assert _found_seed(text) == seed
    (written,) = out.glob("*.yaml")
    assert f"# Found again by: hooksim explore {source} --seed {seed} --examples 1\n" in (
        written.read_text()
    )


def test_the_searches_of_shards_use_disjoint_seeds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With -n 2 and three shards, shard K's searches take the seeds S+K-1 and S+K-1+3: no seed
    is searched twice across the shards, whichever search reports first."""
    source = tmp_path / "chatty.yaml"
    source.write_text(CHATTY)
    seen = {}
    for k in (1, 2, 3):
        argv = ["explore", str(source), "--seed", "5", "-n", "2", "--shard", f"{k}/3"]
        assert main([*argv, "--out", str(tmp_path / str(k))]) == 1
        seen[k] = _found_seed(capsys.readouterr().out)
    assert seen[1] in (5, 8)
    assert seen[2] in (6, 9)
    assert seen[3] in (7, 10)


@pytest.mark.parametrize(
    ("shard", "message"),
    [
        ("4/3", "4/3: the shard must be between 1 and 3"),
        ("two", "expected K/N such as 1/4, got 'two'"),
    ],
)
def test_a_shard_flag_that_cannot_be_is_a_usage_error(
    shard: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """--shard K/N outside 1..N, or not K/N, is argparse's one line and exit 2."""
    with pytest.raises(SystemExit) as exited:
        main(["explore", "--shard", shard])
    assert exited.value.code == 2
    assert capsys.readouterr().err.endswith(
        f"hooksim explore: error: argument --shard: {message}\n"
    )


@pytest.mark.parametrize(
    ("argv", "env", "message"),
    [
        (
            [],
            {"CI_NODE_TOTAL": "3", "CI_NODE_INDEX": "x"},
            "hooksim: CI_NODE_TOTAL=3 CI_NODE_INDEX=x: both must be set to whole numbers\n",
        ),
        (["--database", "chatty.yaml"], {}, "hooksim: --database chatty.yaml: not a directory\n"),
    ],
)
def test_bad_shard_variables_or_database_are_one_line(
    argv: list[str],
    env: dict[str, str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """CI shard variables that name no shard, or a database that is a file, are one line on
    stderr and exit 2, before anything runs."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    Path("chatty.yaml").write_text(CHATTY)
    assert main(["explore", "chatty.yaml", "--seed", "5", *argv]) == 2
    assert capsys.readouterr().err == message
    assert not Path("hooksim-failures").exists()


def _planted_guard(tmp_path: Path) -> Path:
    """The shipped Claude Code guard space with the guard that looks for the text ``rm -rf``."""
    text = (ROOT / "scenarios" / "explore" / "claude-guard.yaml").read_text()
    right = '"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/../hooks/guard_rm.py"'
    assert right in text
    space = tmp_path / "explore" / "claude-guard.yaml"
    space.parent.mkdir()
    space.write_text(text.replace(right, f'"$HOOKSIM_PYTHON" "{EXAMPLE_MUTANTS}" misses_spacing'))
    return space


@pytest.mark.one_python  # two searches: the same on every interpreter
def test_a_failure_saved_by_one_shard_replays_first_on_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 1 finds the planted guard bug and saves it in --database; seed 3 (which alone finds
    it at example 7) with the same database fails at its first example, the saved one."""
    space = _planted_guard(tmp_path)
    database = tmp_path / "examples"
    first = ["explore", str(space), "--seed", "1", "--database", str(database)]
    assert main([*first, "--out", str(tmp_path / "a")]) == 1
    text = capsys.readouterr().out
    assert not re.search(r"found at example 1 \(", text), text
    assert "replayed from" not in text
    assert any(database.rglob("*")), "nothing saved"
    again = ["explore", str(space), "--seed", "3", "--database", str(database)]
    assert main([*again, "--out", str(tmp_path / "b")]) == 1
    text = capsys.readouterr().out
    assert re.search(
        rf"found at example 1 \(seed 3, replayed from {re.escape(str(database))}\) after", text
    ), text
    (written,) = (tmp_path / "b").glob("*.yaml")
    assert "expected blocked, got not blocked" in written.read_text()
