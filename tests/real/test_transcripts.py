"""Transcripts against the real binaries: the shipped Stop loop that reads the transcript
(``scenarios/across/transcript-loop.yaml``), run by hooksim and by the real CLI, keeps a copy of
the transcript at each stop; with the final transcript, each copy has the real one's structure:
the same kinds of record in the same order, each with the same keys. Values are not compared:
what the model wrote, times, ids and paths differ by nature. Only the kinds a writer says it
does not write are left out, each with its reason (``replay.transcript``), and the real file
may hold no kind that is neither. The conversation the model was sent (``conversation_at_turn``)
is judged on the real host from the fake model's request log.

Runs where the conformance environments name the binaries (``REAL_CLAUDE_CODE``,
``REAL_CODEX``, ``REAL_GEMINI_CLI``, ``REAL_HERMES``); skipped elsewhere.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hooksim.commands.real import check
from hooksim.hosts import get_host
from hooksim.judge import expect
from hooksim.real.session import run_real
from hooksim.replay.runner import RunResult, run_scenario
from hooksim.scenario import load_scenario

SCENARIO = Path(__file__).parents[2] / "scenarios" / "across" / "transcript-loop.yaml"
BINARIES = {
    "claude-code": os.environ.get("REAL_CLAUDE_CODE"),
    "codex": os.environ.get("REAL_CODEX"),
    "gemini-cli": os.environ.get("REAL_GEMINI_CLI"),
    "hermes": os.environ.get("REAL_HERMES"),
}
Shape = list[tuple[str, list[str]]]


def binary(tool: str) -> str:
    """The real host's executable, or skip."""
    path = BINARIES[tool]
    if not path:
        env = "conformance" if tool == "hermes" else f"conformance-{tool}"
        pytest.skip(f"no real {tool} (tox -e {env} installs it)")
    if not Path(path).exists():
        pytest.skip(f"{tool} could not be installed from the registry: {path} is missing")
    return path


def shape(tool: str, path: Path, records: list[dict[str, Any]] | None = None) -> Shape:
    """The kinds and keys of a transcript's records that hooksim writes, in order (``records``:
    a copy's, else the file's); a kind the writer neither writes nor explains fails the test."""
    writer = get_host(tool).transcript
    assert writer is not None
    records = writer.read(path) if records is None else records
    unknown = {writer.kind_of(r) for r in records} - writer.reproduced
    unexplained = sorted(k for k in unknown if writer.why_not(k) is None)
    assert not unexplained, f"{path}: {tool} writes records hooksim does not: {unexplained}"
    kept = [(writer.kind_of(r), sorted(writer.keys_of(r))) for r in records]
    return _resumed_heads_left_out([k for k in kept if k[0] in writer.reproduced])


def _resumed_heads_left_out(kept: Shape) -> Shape:
    """Gemini CLI names a chat file by the minute: a headless run that resumes in the minute the
    session began writes its new file's head (metadata, message list) into the session's file,
    in a later minute into a file of its own. A real run's minutes are the wall clock's, a
    replay's the scenario's, so such a head is left out of both."""
    out: Shape = []
    for i, (kind, keys) in enumerate(kept):
        if kind == "metadata" and i > 0:
            continue
        if i > 0 and kept[i - 1][0] == "metadata" and kind.startswith("$set/"):
            continue
        out.append((kind, keys))
    return out


def last_transcript(records: Iterator[Any]) -> Path:
    """The transcript the last hook's payload named."""
    path = None
    for stdin in records:
        try:
            payload = json.loads(stdin)
        except ValueError:
            continue
        if isinstance(payload, dict) and isinstance(payload.get("transcript_path"), str):
            path = Path(payload["transcript_path"])
    assert path is not None, "no payload named a transcript"
    return path


def replayed(tool: str, scenario: Path) -> RunResult:
    result = run_scenario(load_scenario(scenario), tool=tool, keep_workdir=True)
    assert expect.check(result) == []
    return result


@pytest.mark.parametrize("tool", ["claude-code", "codex", "gemini-cli"])
def test_the_replayed_transcript_has_the_structure_the_real_host_writes(tool: str) -> None:
    """At each stop and at the end, the replay's transcript has the real one's records."""
    path = binary(tool)
    replay = replayed(tool, SCENARIO)
    real = run_real(load_scenario(SCENARIO), tool, path, keep_workdir=True)
    try:
        assert check(real) == []
        assert replay.workdir is not None
        assert real.result.workdir is not None
        ours, theirs = replay.workdir / "home" / "transcripts", real.result.workdir / "home"
        copies = sorted(p.name for p in ours.iterdir())
        assert copies == sorted(p.name for p in (theirs / "transcripts").iterdir())
        for name in copies:
            assert shape(tool, ours / name) == shape(tool, theirs / "transcripts" / name), name
        final = (
            last_transcript(r.stdin.decode() for r in replay.runs),
            last_transcript(str(r["stdin"]) for r in real.records),
        )
        assert shape(tool, final[0]) == shape(tool, final[1])
    finally:
        shutil.rmtree(replay.workdir or "", ignore_errors=True)
        shutil.rmtree(real.result.workdir or "", ignore_errors=True)


def test_a_wrong_conversation_fails_on_the_real_host_too() -> None:
    """conversation_at_turn is read from the real host's requests: a count or a text that is
    not what the model was sent fails with the same line a replay gives."""
    path = binary("claude-code")
    scenario = load_scenario(SCENARIO)
    real = run_real(scenario, "claude-code", path)
    wrong = {"conversation_at_turn": {"1": {"messages": 2, "lacks": "Not done yet"}}}
    real.result.scenario = replace(real.result.scenario, expect=wrong)
    failures = expect.check(real.result)
    assert failures[0] == (
        "conversation sent at turn 1: expected 2 messages, got 7"
        " (user, assistant, tool, assistant, user, assistant, user)"
    )
    assert failures[1].startswith(
        "conversation sent at turn 1: expected none containing 'Not done yet', got"
    )
    assert len(failures) == 2


COPIER = Path(__file__).parents[1] / "hosts" / "transcript_copier.py"
HERMES_SCENARIO = f"""\
name: Hermes' session store, as its hooks can read it
tool: hermes
hooks:
  pre_llm_call: &copy [{{command: {json.dumps(f"{sys.executable} {COPIER}")}}}]
  pre_tool_call: *copy
  post_llm_call: *copy
turns:
  - user: list the files
    tools: [{{name: terminal, args: {{command: ls}}}}]
    assistant: listed
  - {{user: and now?, assistant: nothing}}
"""


def test_hermes_session_store_has_the_structure_hermes_writes(tmp_path: Path) -> None:
    """Where its hooks run, Hermes' state.db has the same rows, in the same order, with the same
    columns set, in the replay and in real Hermes."""
    path = binary("hermes")
    scenario = tmp_path / "store.yaml"
    scenario.write_text(textwrap.dedent(HERMES_SCENARIO))
    replay = replayed("hermes", scenario)
    real = run_real(load_scenario(scenario), "hermes", path, keep_workdir=True)
    try:
        assert check(real) == []
        assert replay.workdir is not None
        assert real.result.workdir is not None
        ours = replay.workdir / "home" / "copies"
        theirs = real.result.workdir / "home" / "copies"
        copies = sorted(p.name for p in ours.iterdir())
        assert copies == sorted(p.name for p in theirs.iterdir())
        assert [name[4:] for name in copies] == [
            "pre_llm_call.json",
            "pre_tool_call.json",
            "post_llm_call.json",
            "pre_llm_call.json",
            "post_llm_call.json",
        ]
        for name in copies:
            mine, real_copy = (json.loads((d / name).read_text()) for d in (ours, theirs))
            assert shape("hermes", ours / name, mine["records"]) == shape(
                "hermes", theirs / name, real_copy["records"]
            ), name
    finally:
        shutil.rmtree(replay.workdir or "", ignore_errors=True)
        shutil.rmtree(real.result.workdir or "", ignore_errors=True)
