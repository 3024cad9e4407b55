"""``hooksim show A.json B.json ...``: the reports of shards (``hooksim run --json``) merged into
the reports one run of them all writes: the same JUnit XML, JSON, SARIF and annotations."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hooksim.cli import main

PASSING = "name: passes\nturns:\n  - {user: hi, assistant: hello}\nexpect: {exit_codes: 0}\n"
FAILING = (
    "name: wants a compaction\nturns:\n  - {user: hi, assistant: hello}\n"
    "expect:\n  exit_codes: 0\n  compactions_at_turns: [1]\n"
)
BROKEN = "name: broken\nturns:\n  - {usr: hi}\n"
# One file on two hosts: two runs, each named by its host.
TWO_HOSTS = (
    "name: on two hosts\ntool: hermes\nhosts:\n  claude-code:\n"
    "    hooks: {UserPromptSubmit: [{hooks: [{type: command, command: 'true'}]}]}\n"
    "turns:\n  - {user: hi, assistant: hello}\n"
)


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Four files, five runs (one passes, one fails, one cannot load, one file on two hosts);
    the working directory is their parent."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "corpus"
    folder.mkdir()
    files = {"pass": PASSING, "fail": FAILING, "broken": BROKEN, "two": TWO_HOSTS}
    for name, text in files.items():
        (folder / f"{name}.yaml").write_text(text)
    return folder


def _cases(path: Path) -> tuple[dict[str, str], list[bytes]]:
    """A JUnit file's suite attributes and each test case as bytes, in a fixed order."""
    suite = ET.parse(path).getroot()
    cases = sorted(ET.tostring(case) for case in suite)
    return dict(suite.attrib), cases


def test_junit_from_a_saved_run_is_the_junit_the_run_wrote(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every case, its failure text and its timeline are the same bytes, and so are the
    suite's counts and time."""
    assert main(["run", "corpus", "--junit-xml", "run.xml", "--json", "run.json"]) == 1
    capsys.readouterr()
    assert main(["show", "run.json", "--junit-xml", "again.xml"]) == 1
    assert _cases(Path("again.xml")) == _cases(Path("run.xml"))
    attributes, cases = _cases(Path("run.xml"))
    assert (attributes["tests"], attributes["failures"], attributes["errors"]) == ("5", "1", "1")
    assert any(b"<system-out>" in case for case in cases)
    assert capsys.readouterr().out == "hooksim: wrote again.xml\n3 passed, 1 failed, 1 error\n"


def test_show_merges_shards_into_the_reports_of_one_run(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two shards merged: their entries sorted by path then host, the same runs as one run of
    all, the summary of them all, exit 1 for a failure."""
    assert main(["run", "corpus", "-q", "--json", "all.json"]) == 1
    for k in (1, 2):
        assert main(["run", "corpus", "-q", "--shard", f"{k}/2", "--json", f"{k}.json"]) == 1
    capsys.readouterr()
    assert main(["show", "1.json", "2.json", "--json", "merged.json", "--junit-xml", "m.xml"]) == 1
    assert capsys.readouterr().out == (
        "hooksim: wrote m.xml\nhooksim: wrote merged.json\n3 passed, 1 failed, 1 error\n"
    )
    saved = [json.loads(Path(f"{k}.json").read_text()) for k in (1, 2)]
    assert [s["shard"] for s in saved] == ["1/2", "2/2"]
    assert saved[0]["items"] == saved[1]["items"]
    assert sorted(saved[0]["ran"] + saved[1]["ran"]) == sorted(saved[0]["items"])
    shards = saved[0]["entries"] + saved[1]["entries"]
    merged = json.loads(Path("merged.json").read_text())
    assert merged == sorted(shards, key=lambda e: (e["path"], e["tool"]))
    ran = [(e["path"], e["tool"], e["verdict"]) for e in merged]
    assert ran == [
        ("corpus/broken.yaml", "hermes", "ERROR"),
        ("corpus/fail.yaml", "hermes", "FAIL"),
        ("corpus/pass.yaml", "hermes", "PASS"),
        ("corpus/two.yaml", "claude-code", "PASS"),
        ("corpus/two.yaml", "hermes", "PASS"),
    ]
    unsharded = json.loads(Path("all.json").read_text())
    assert sorted((e["path"], e["tool"], e["verdict"]) for e in unsharded) == ran


def test_show_passes_when_every_merged_run_passed(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit 0 and the summary when nothing failed."""
    assert main(["run", "corpus/pass.yaml", "-q", "--json", "run.json"]) == 0
    capsys.readouterr()
    assert main(["show", "run.json"]) == 0
    assert capsys.readouterr().out == "1 passed, 0 failed\n"


def test_show_refuses_the_same_run_in_two_files(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Overlapping shards: one line naming the run and both files, exit 2, nothing written."""
    assert main(["run", "corpus/pass.yaml", "-q", "--json", "a.json"]) == 0
    assert main(["run", "corpus", "-q", "--json", "b.json"]) == 1
    capsys.readouterr()
    assert main(["show", "a.json", "b.json", "--junit-xml", "m.xml"]) == 2
    assert capsys.readouterr().err == (
        "hooksim show: corpus/pass.yaml [hermes] is in both a.json and b.json;"
        " give each run's report once\n"
    )
    assert not Path("m.xml").exists()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"not": "a run"}', "is not a run saved by hooksim run --json"),
        ('[{"path": "x.yaml"}]', "is not a run saved by hooksim run --json: entry 1: no 'name'"),
        (
            '[{"path": "x.yaml", "name": "x", "failures": "no"}]',
            "is not a run saved by hooksim run --json: entry 1: 'failures' is not a list of texts",
        ),
    ],
)
def test_show_refuses_a_file_that_is_not_a_saved_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    """JSON of something else, or an entry of the wrong shape: one line naming the file, exit 2."""
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    assert main(["show", str(bad), "--junit-xml", str(tmp_path / "m.xml")]) == 2
    assert capsys.readouterr().err == f"hooksim show: {bad} {said}\n"
    assert not (tmp_path / "m.xml").exists()


def test_show_writes_annotations_and_sarif_from_saved_runs(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--format github and --sarif from saved runs give what the run itself gave."""
    assert (
        main(["run", "corpus", "--json", "run.json", "--sarif", "run.sarif", "--format", "github"])
        == 1
    )
    annotations = [line for line in capsys.readouterr().out.splitlines() if line.startswith("::")]
    assert len(annotations) == 2
    assert main(["show", "run.json", "--sarif", "again.sarif", "--format", "github"]) == 1
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("::")] == annotations
    assert Path("again.sarif").read_text() == Path("run.sarif").read_text()


def test_a_pass_taken_from_the_cache_reports_as_its_run_did(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cached pass is its saved entry: its JUnit case, session included, is the one its run
    wrote, and show counts it as cached."""
    args = ["run", "corpus/pass.yaml", "-q", "--cache", "cache"]
    assert main([*args, "--junit-xml", "first.xml"]) == 0
    assert main([*args, "--junit-xml", "again.xml", "--json", "again.json"]) == 0
    assert _cases(Path("again.xml")) == _cases(Path("first.xml"))
    capsys.readouterr()
    assert main(["show", "again.json"]) == 0
    assert capsys.readouterr().out == "1 passed (1 cached), 0 failed\n"


def test_show_reports_a_bare_saved_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An entry with only a path, a name and a failure (as a report older than its other keys
    wrote it) still gives JUnit, SARIF and an annotation at line 1."""
    saved = tmp_path / "old.json"
    saved.write_text('[{"path": "x.yaml", "name": "x", "passed": false, "failures": ["wrong"]}]')
    sarif = tmp_path / "x.sarif"
    assert main(["show", str(saved), "--sarif", str(sarif), "--format", "github"]) == 1
    assert capsys.readouterr().out == (
        f"::error file=x.yaml,line=1,title=FAIL x::wrong\nhooksim: wrote {sarif}\n0 passed, 1 failed\n"
    )
    (result,) = json.loads(sarif.read_text())["runs"][0]["results"]
    assert (result["ruleId"], result["locations"][0]["physicalLocation"]["region"]) == (
        "expect",
        {"startLine": 1},
    )
