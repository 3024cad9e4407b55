"""Saved runs and the bridge ledger are input like any other: bounded, checked, escaped.

A shard's ``--json`` is a CI artifact anyone who can run a job can write; a hook can append to
``$HOOKSIM_LEDGER``. No such file may hang ``show``, crash it with a traceback, or put a live
element into the HTML page.
"""

from __future__ import annotations

import json
import os
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hooksim.cli import main

SCRIPTED = "<img src=x onerror=alert(1)>"


class _Elements(HTMLParser):
    """Every start tag of a page, as a browser's tokenizer sees it."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)


def elements(page: str) -> list[str]:
    parser = _Elements()
    parser.feed(page)
    return parser.tags


def entry(**fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "path": "x.yaml",
        "name": "x",
        "tool": "hermes",
        "passed": False,
        "verdict": "FAIL",
        "failures": ["E at turn 1 went wrong"],
        "hooks": [{"turn": 1, "event": "E", "command": "c", "virtual_ms": 1780304400000}],
        "events": [{"turn": 1, "event": "E", "virtual_ms": 1780304400000, "hooks": 1}],
        "bridge_calls": [],
    }
    base.update(fields)
    return base


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"hooks": [{"turn": SCRIPTED, "event": "E"}]}, "hooks 1: 'turn' is not a whole number"),
        ({"hooks": [{"event": "E"}]}, "hooks 1: no 'turn'"),
        ({"hooks": [{"turn": 1, "event": "E", "stdin": 5}]}, "hooks 1: 'stdin' is not a text"),
        (
            {"events": [{"turn": 1, "event": "E", "virtual_ms": "soon"}]},
            "events 1: 'virtual_ms' is not an instant",
        ),
        (
            {"events": [{"turn": 1, "event": "E", "virtual_ms": 1e30}]},
            "events 1: 'virtual_ms' is not an instant",
        ),
        (
            {"events": [{"turn": 1, "event": "E", "virtual_ms": 0, "hooks": 9}]},
            "its events count 9 hook runs, and it holds 1",
        ),
        (
            {"bridge_calls": [{"tool": "cleanup_frames", "hook": 0, "call": SCRIPTED}]},
            "bridge_calls 1: 'call' is not a whole number",
        ),
        (
            {"bridge_calls": [{"tool": "cleanup_frames", "turn": SCRIPTED}]},
            "bridge_calls 1: 'turn' is not a whole number",
        ),
    ],
)
def test_a_malformed_inner_field_is_one_line(
    fields: dict[str, object], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps([entry(**fields)]))
    html = tmp_path / "page.html"
    assert main(["show", str(saved), "--html", str(html)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"hooksim show: {saved} is not a run saved by hooksim run --json: ")
    assert said in err
    assert len(err.splitlines()) == 1
    assert not html.exists()


@pytest.mark.parametrize("kind", ["fifo", "zero", "deep", "nan"])
def test_a_file_that_is_not_a_saved_run_never_hangs_nor_crashes(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "run.json"
    if kind == "fifo":
        os.mkfifo(saved)
    elif kind == "zero":
        saved.symlink_to("/dev/zero")
    elif kind == "deep":
        saved.write_text("[" * 100_000 + "]" * 100_000)
    else:
        saved.write_text(json.dumps([entry(seconds=0.5)]).replace("0.5", "NaN"))
    assert main(["show", str(saved)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hooksim show: ")
    assert len(err.splitlines()) == 1
    expected = {
        "fifo": "is a named pipe (FIFO), not a regular file",
        "zero": "is a character device, not a regular file",
        "deep": "is nested too deeply to read",
        "nan": "is not JSON (NaN is not a number JSON allows",
    }[kind]
    assert expected in err


def test_a_crafted_ledger_record_never_reaches_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hook appending a record of its own to $HOOKSIM_LEDGER: the run is an ERROR naming the
    ledger, and the page holds no element the record carried."""
    monkeypatch.chdir(tmp_path)
    record = {
        "tool": "x",
        "arguments": {},
        "call": f"</title></rect></svg>{SCRIPTED}",
        "outcome": "ok",
        "turn": 1,
        "event": "UserPromptSubmit",
        "pid": 1,
        "sid": 1,
        "ancestors": [],
        "virtual_ms": 1780304400000,
        "session": "",
    }
    line = json.dumps(record).replace("'", "'\\''")
    (tmp_path / "x.yaml").write_text(
        "name: ledger\ntool: claude-code\nhooks:\n  UserPromptSubmit:\n"
        "    - hooks: [{type: command, command: "
        + json.dumps(f"printf '%s\\n' '{line}' >> \"$HOOKSIM_LEDGER\"")
        + "}]\nturns: [{user: hi, assistant: ok}]\n"
    )
    assert main(["run", "x.yaml", "--html", "page.html"]) == 1
    out = capsys.readouterr().out
    assert "line 1 of the bridge ledger is not a record of the mock bridge" in out
    assert "img" not in elements((tmp_path / "page.html").read_text())


def test_html_in_saved_values_is_text_on_the_page(tmp_path: Path) -> None:
    """Every value a saved run carries into the page is escaped, the failure links too."""
    saved = tmp_path / "run.json"
    saved.write_text(
        json.dumps(
            [
                entry(
                    name=SCRIPTED,
                    failures=[f"E {SCRIPTED}"],
                    hooks=[{"turn": 1, "event": f"E{SCRIPTED}", "command": SCRIPTED}],
                    events=[{"turn": 1, "event": "E", "virtual_ms": 1780304400000, "hooks": 1}],
                    bridge_calls=[{"tool": SCRIPTED, "hook": 0, "call": 1, "outcome": SCRIPTED}],
                )
            ]
        )
    )
    page = tmp_path / "page.html"
    assert main(["show", str(saved), "--html", str(page)]) == 1
    assert "img" not in elements(page.read_text())
