"""``hooksim run`` on part of a corpus: ``-k`` by host, ``--shard K/N``, the CI engines' shard
variables, and the durations file that balances shards."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hooksim.cli import main

HOSTS = ("claude-code", "codex", "gemini-cli")
STOP_EVENT = {"claude-code": "Stop", "codex": "Stop", "gemini-cli": "AfterAgent"}


def corpus(folder: Path, names: list[str]) -> Path:
    """One scenario file per name, each running a hook that does nothing on three hosts."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        hosts = "\n".join(
            f"  {host}:\n    hooks:\n      {STOP_EVENT[host]}:\n"
            f"        - hooks: [{{type: command, command: 'true'}}]"
            for host in HOSTS
        )
        (folder / f"{name}.yaml").write_text(
            f"name: {name}\ntool: claude-code\nturns:\n  - user: hi\n    assistant: ok\n"
            f"hosts:\n{hosts}\n"
        )
    return folder


def ran(report: Path) -> list[str]:
    """``file [host]`` of each run of a ``--json`` report (a shard's too), sorted."""
    saved = json.loads(report.read_text())
    entries = saved["entries"] if isinstance(saved, dict) else saved
    return sorted(f"{Path(e['path']).stem} [{e['tool']}]" for e in entries)


@pytest.fixture
def three(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name, _ in ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    return corpus(tmp_path / "corpus", ["guard-a", "guard-b", "memory"])


ENVIRONMENT = [
    ("TEST_TOTAL_SHARDS", ""),
    ("TEST_SHARD_INDEX", ""),
    ("CI_NODE_TOTAL", ""),
    ("CI_NODE_INDEX", ""),
    ("TEST_SHARD_STATUS_FILE", ""),
]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("guard and codex", ["guard-a [codex]", "guard-b [codex]"]),
        ("memory and not codex", ["memory [claude-code]", "memory [gemini-cli]"]),
        ("gemini", ["guard-a [gemini-cli]", "guard-b [gemini-cli]", "memory [gemini-cli]"]),
    ],
)
def test_k_picks_the_host_of_each_run(three: Path, pattern: str, expected: list[str]) -> None:
    """-k matches each run's own host, as pytest's -k matches a parametrized id."""
    assert main(["run", "corpus", "-q", "-k", pattern, "--json", "r.json"]) == 0
    assert ran(Path("r.json")) == expected


def test_shards_split_the_runs_and_cover_them_once(
    three: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three shards hold every run exactly once, and the same shard is the same runs again."""
    assert main(["run", "corpus", "-q", "--json", "all.json"]) == 0
    shards = []
    for k in (1, 2, 3):
        assert main(["run", "corpus", "-q", "--shard", f"{k}/3", "--json", f"{k}.json"]) == 0
        shards.append(ran(Path(f"{k}.json")))
    assert sorted(run for shard in shards for run in shard) == ran(Path("all.json"))
    assert len({run for shard in shards for run in shard}) == 9
    assert main(["run", "corpus", "-q", "--shard", "2/3", "--json", "again.json"]) == 0
    assert ran(Path("again.json")) == shards[1]
    assert "hooksim: shard 2/3: " in capsys.readouterr().out  # and how many runs it holds


def test_the_ci_variables_name_the_shard(three: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bazel's variables count from 0, GitLab's from 1; both give the shard --shard gives, and
    Bazel's status file is touched to say sharding is understood."""
    main(["run", "corpus", "-q", "--shard", "2/3", "--json", "flag.json"])
    monkeypatch.setenv("TEST_TOTAL_SHARDS", "3")
    monkeypatch.setenv("TEST_SHARD_INDEX", "1")
    monkeypatch.setenv("TEST_SHARD_STATUS_FILE", str(three.parent / "status"))
    main(["run", "corpus", "-q", "--json", "bazel.json"])
    assert (three.parent / "status").exists()
    for name in ("TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX"):
        monkeypatch.delenv(name)
    monkeypatch.setenv("CI_NODE_TOTAL", "3")
    monkeypatch.setenv("CI_NODE_INDEX", "2")
    main(["run", "corpus", "-q", "--json", "gitlab.json"])
    assert ran(Path("flag.json")) == ran(Path("bazel.json")) == ran(Path("gitlab.json"))


def test_a_shard_with_nothing_to_run_passes_and_says_so(
    three: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "corpus/memory.yaml", "-k", "codex", "--shard", "2/2"]) == 0
    out = capsys.readouterr().out
    assert "hooksim: shard 2/2: 0 of 1 runs: nothing to run\n" in out


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("0/3", "0/3: the shard must be between 1 and 3"),
        ("4/3", "4/3: the shard must be between 1 and 3"),
        ("two", "expected K/N such as 1/4, got 'two'"),
    ],
)
def test_a_shard_flag_that_cannot_be_is_a_usage_error(
    three: Path, capsys: pytest.CaptureFixture[str], value: str, message: str
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["run", "corpus", "--shard", value])
    assert exit.value.code == 2
    assert capsys.readouterr().err.endswith(f"hooksim run: error: argument --shard: {message}\n")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"TEST_TOTAL_SHARDS": "2", "TEST_SHARD_INDEX": "2"},
            "TEST_TOTAL_SHARDS=2 TEST_SHARD_INDEX=2: the shard must be between 1 and 2",
        ),
        (
            {"CI_NODE_TOTAL": "2"},
            "CI_NODE_TOTAL=2 CI_NODE_INDEX=None: both must be set to whole numbers",
        ),
    ],
)
def test_shard_variables_that_cannot_be_are_one_line(
    three: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    env: dict[str, str],
    message: str,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["run", "corpus"]) == 2
    assert capsys.readouterr().err == f"hooksim: {message}\n"


def test_durations_balance_the_shards(three: Path) -> None:
    """A durations file written by a run names every run; a run the file says is long gets a
    shard to itself."""
    assert main(["run", "corpus", "-q", "--durations-file", "d.json", "--store-durations"]) == 0
    durations = json.loads(Path("d.json").read_text())
    assert sorted(durations) == sorted(
        f"corpus/{name}.yaml::{name}[{host}]"
        for name in ("guard-a", "guard-b", "memory")
        for host in HOSTS
    )
    assert all(isinstance(s, float) and s > 0 for s in durations.values())
    long = "corpus/memory.yaml::memory[codex]"
    Path("d.json").write_text(json.dumps({**dict.fromkeys(durations, 1.0), long: 100.0}))
    shards = []
    for k in (1, 2):
        main(
            [
                "run",
                "corpus",
                "-q",
                "--shard",
                f"{k}/2",
                "--durations-file",
                "d.json",
                "--json",
                f"{k}.json",
            ]
        )
        shards.append(ran(Path(f"{k}.json")))
    alone = next(s for s in shards if "memory [codex]" in s)
    assert alone == ["memory [codex]"]
    # Shards only read the file: the split a later shard computes is the earlier one's.
    assert json.loads(Path("d.json").read_text())[long] == 100.0


def test_a_broken_durations_file_is_one_line(
    three: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("d.json").write_text("[1, 2")
    assert main(["run", "corpus", "--shard", "1/2", "--durations-file", "d.json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hooksim: --durations-file: d.json is not JSON (")
    assert err.count("\n") == 1


def test_pytest_split_shards_scenario_items_by_the_same_durations(
    three: Path, tmp_path: Path
) -> None:
    """Under pytest-split the plugin's items are split like any test, and the durations file
    pytest-split stores (``.test_durations``) is one ``hooksim run --durations-file`` reads:
    the node ids are the run ids."""
    pytest_split = pytest.importorskip("pytest_split")
    del pytest_split
    (tmp_path / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\nhooksim_dirs = ["corpus"]\n'
    )
    pytest_run = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rA"]
    stored = subprocess.run(
        [*pytest_run, "--store-durations", "corpus"], capture_output=True, text=True, check=False
    )
    assert stored.returncode == 0, stored.stdout + stored.stderr
    assert (
        main(["run", "corpus", "-q", "--durations-file", "hooksim.json", "--store-durations"]) == 0
    )
    assert sorted(json.loads(Path(".test_durations").read_text())) == sorted(
        json.loads(Path("hooksim.json").read_text())
    )
    groups = []
    for k in (1, 2, 3):
        split = subprocess.run(
            [*pytest_run, "--splits", "3", "--group", str(k), "corpus"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert split.returncode == 0, split.stdout + split.stderr
        groups.append(sorted(re.findall(r"^PASSED (\S+)$", split.stdout, re.M)))
    assert all(groups)
    assert sorted(test for group in groups for test in group) == sorted(
        json.loads(Path(".test_durations").read_text())
    )


def test_sequential_shards_sharing_one_durations_file_run_every_run_once(
    three: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Shards run one after another with one durations file, as on one CI machine: each only
    reads it, so every shard computes the same split and the shards cover the whole once."""
    assert main(["run", "corpus", "-q", "--durations-file", "d.json", "--store-durations"]) == 0
    before = Path("d.json").read_bytes()
    for k in (1, 2, 3):
        main(
            [
                "run",
                "corpus",
                "-q",
                "--shard",
                f"{k}/3",
                "--durations-file",
                "d.json",
                "--json",
                f"{k}.json",
            ]
        )
    assert Path("d.json").read_bytes() == before
    runs = [run for k in (1, 2, 3) for run in ran(Path(f"{k}.json"))]
    assert sorted(runs) == sorted(set(runs))
    assert len(runs) == 9
    capsys.readouterr()
    assert main(["show", "1.json", "2.json", "3.json"]) == 0


def test_show_names_a_run_no_shard_ran(three: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A shard's report says which runs of the whole it ran: show refuses a merge that misses
    one (a shard's file lost, a shard stopped early), naming it, exit 2."""
    for k in (1, 3):
        main(["run", "corpus", "-q", "--shard", f"{k}/3", "--json", f"{k}.json"])
    capsys.readouterr()
    assert main(["show", "1.json", "3.json", "--junit-xml", "m.xml"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hooksim show: 3 of 9 runs ran in none of the shards given (1/3, 3/3): ")
    assert err.count("corpus/") == 3
    assert not Path("m.xml").exists()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1/99999999999999999999", "expected K/N such as 1/4, got '1/99999999999999999999'"),
        ("1/1000000000", "1/1000000000: at most 1,000,000 shards"),
        ("1/\u00b2", "expected K/N such as 1/4, got '1/\u00b2'"),
    ],
)
def test_a_huge_shard_count_is_a_usage_error(
    three: Path, capsys: pytest.CaptureFixture[str], value: str, message: str
) -> None:
    with pytest.raises(SystemExit):
        main(["run", "corpus", "--shard", value])
    assert capsys.readouterr().err.endswith(f"argument --shard: {message}\n")


def test_more_shards_than_runs_is_quick_and_covers_them(
    three: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "corpus", "-q", "--shard", "999999/1000000"]) == 0
    assert "shard 999999/1000000: 0 of 9 runs: nothing to run" in capsys.readouterr().out


@pytest.mark.parametrize("text", ['{"a": NaN}', '{"a": -1}', '{"a": 1e999}'])
def test_a_duration_that_is_not_a_number_of_seconds_is_one_line(
    three: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    Path("d.json").write_text(text)
    assert main(["run", "corpus", "--shard", "1/2", "--durations-file", "d.json"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_store_durations_without_a_file_is_a_usage_error(
    three: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "corpus", "--store-durations"]) == 2
    assert capsys.readouterr().err == (
        "hooksim: --store-durations needs --durations-file FILE (where to write them)\n"
    )
