"""Differences between two recorded runs: ids and paths mapped, tolerances applied with reasons."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hooksim.hosts import get_host
from hooksim.real.compare import Side, differences, differences_text
from hooksim.replay.runner import RunResult
from hooksim.scenario import Scenario


def probe(turn: int, event: str, payload: dict[str, Any], env: dict[str, str]) -> dict[str, Any]:
    return {"id": "probe", "event": event, "turn": turn, "stdin": json.dumps(payload) + "\n",
            "env": env, "start": 0.0, "pid": 1}  # fmt: skip


def side(root: str, records: list[dict[str, Any]]) -> Side:
    result = RunResult(Scenario(Path("s.yaml"), "s", ()))
    return Side(records, result, Path(root), {"PATH": "/bin"})


def test_ids_and_paths_are_mapped_and_real_differences_listed() -> None:
    """Different ids and work directories are equal; an extra field, another order and an
    added variable are differences, and a tolerated one carries the profile's reason."""
    real = side("/r", [
        probe(1, "SessionStart", {"session_id": "0b5e3c1a-1111-2222-3333-444455556666",
                                  "cwd": "/r/project", "source": "startup"}, {"CLAUDECODE": "1"}),
        probe(1, "UserPromptSubmit", {"session_id": "x", "prompt_id": "p1"}, {"CLAUDE_PID": "9"}),
        probe(1, "Stop", {"session_id": "x"}, {}),
    ])  # fmt: skip
    sim = side("/s", [
        probe(1, "SessionStart", {"session_id": "session-1", "cwd": "/s/project",
                                  "source": "startup"}, {"CLAUDECODE": "1"}),
        probe(1, "Stop", {"session_id": "y"}, {}),
        probe(1, "UserPromptSubmit", {"session_id": "y"}, {}),
    ])  # fmt: skip
    diffs = differences(real, sim, get_host("claude-code"))
    lines = differences_text(diffs).splitlines()
    assert lines == [
        "events/turn 1: real SessionStart UserPromptSubmit Stop;"
        " hooksim SessionStart Stop UserPromptSubmit",
        'payload/UserPromptSubmit/prompt_id: real "<id>"; hooksim absent',
        'env/CLAUDE_PID: real "9"; hooksim absent  [tolerated: the CLI\'s process id]',
        "2 differences outside the tolerances, 1 tolerated",
    ]


def test_secret_looking_values_are_not_printed() -> None:
    """A variable whose name says token, key, secret, ... differs, and says so, unprinted."""
    token = "cd2507b2c0ffee"
    real = side(
        "/r", [probe(1, "Stop", {"session_id": "x"}, {"CLAUDE_CODE_MESSAGING_TOKEN": token})]
    )
    sim = side("/s", [probe(1, "Stop", {"session_id": "y"}, {})])
    text = differences_text(differences(real, sim, get_host("claude-code")))
    assert "env/CLAUDE_CODE_MESSAGING_TOKEN: real <redacted>; hooksim absent" in text
    assert token not in text


def test_a_payload_field_that_is_null_is_no_matcher_value(tmp_path: Path) -> None:
    """Hermes' post_llm_call carries tool_name: null: the firing is post_llm_call, not
    post_llm_call(None)."""
    from hooksim.real.result import build_result

    ledger = tmp_path / "ledger.jsonl"
    ledger.write_text("")
    record = probe(1, "post_llm_call", {"tool_name": None, "session_id": "s"}, {})
    result = build_result(
        Scenario(Path("s.yaml"), "s", ()), get_host("hermes"), [record], [], ledger
    )
    assert [(f.event, f.match) for f in result.firings] == [("post_llm_call", None)]
