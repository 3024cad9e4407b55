"""Several sessions at once (``sessions:``), as a gateway serving several chats runs them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hooksim.replay.runner import run_scenario
from hooksim.report.formats import timeline
from hooksim.scenario import ScenarioError, Turn, load_scenario

# Waits (up to 30 s, in real time) for the other session's hook to be running too: it exits 0
# only when both run at the same time, and 3 when they run one after the other.
RENDEZVOUS = """\
import json, os, pathlib, sys, time
payload = json.load(sys.stdin)
here = pathlib.Path(os.environ["MEET_DIR"])
mine, other = (("a", "b") if payload["session_id"] == "chat-a" else ("b", "a"))
(here / mine).touch()
deadline = time.monotonic() + 30
while not (here / other).exists():
    if time.monotonic() > deadline:
        sys.exit(3)
    time.sleep(0.01)
"""


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(body)
    return path


def test_steps_interleave_on_one_clock_and_number_turns_across_sessions(tmp_path: Path) -> None:
    """Each session's `after` counts from its own previous step; turns are numbered by start."""
    path = write(
        tmp_path,
        "name: t\nsessions:\n"
        "  - id: a\n    turns:\n      - {user: a1, assistant: x}\n"
        "      - {after: 10m, user: a2, assistant: x}\n"
        "  - id: b\n    turns:\n      - {after: 5m, user: b1, assistant: x}\n"
        "      - {after: 5m, user: b2, assistant: x}\n",
    )
    schedule = load_scenario(path).schedule
    assert [
        (s.offset_s, s.turn, s.session, s.step.user) for s in schedule if isinstance(s.step, Turn)
    ] == [(0, 1, 0, "a1"), (300, 2, 1, "b1"), (600, 3, 0, "a2"), (600, 4, 1, "b2")]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "name: t\nturns:\n  - {user: a, assistant: b}\nsessions:\n"
            "  - {id: a, turns: [{user: a, assistant: b}]}\n",
            ":1: give either 'turns' (one session) or 'sessions' (several at once), not both",
        ),
        ("name: t\n", ":1: a scenario needs 'turns' (one session) or 'sessions'"),
        (
            "name: t\nsessions:\n  - {id: a, turns: [{user: a, assistant: b}]}\n"
            "  - {id: a, turns: [{user: a, assistant: b}]}\n",
            ":4: session id 'a' is used twice",
        ),
        (
            "name: t\nsessions:\n  - id: a\n    turns:\n      - {user: a}\n",
            ":5: the turn has no outcome",
        ),
    ],
)
def test_bad_sessions_name_file_and_line(tmp_path: Path, body: str, message: str) -> None:
    """Mistakes in `sessions:` are one `file:line` error."""
    with pytest.raises(ScenarioError) as exc:
        load_scenario(write(tmp_path, body))
    assert message in str(exc.value)


def test_coinciding_turns_run_their_hooks_at_the_same_time(tmp_path: Path) -> None:
    """Two sessions' turns at one instant: their pre_llm_call hooks are running together."""
    hook = tmp_path / "meet.py"
    hook.write_text(RENDEZVOUS)
    meet = tmp_path / "meet"
    meet.mkdir()
    command = json.dumps(f"{sys.executable} {hook}")
    path = write(
        tmp_path,
        f"name: t\nenv: {{MEET_DIR: {json.dumps(str(meet))}}}\n"
        f"hooks:\n  pre_llm_call:\n    - {{command: {command}, timeout: 60}}\n"
        "sessions:\n"
        "  - id: chat-a\n    turns:\n      - {after: 1m, user: hi, assistant: hello}\n"
        "  - id: chat-b\n    turns:\n      - {after: 1m, user: hey, assistant: hello}\n"
        "expect:\n  exit_codes: 0\n",
    )
    result = run_scenario(load_scenario(path))
    assert [(r.event, r.exit_code) for r in result.runs] == [("pre_llm_call", 0)] * 2
    assert {f.session for f in result.firings} == {"chat-a", "chat-b"}


def test_timeline_names_each_firings_session(tmp_path: Path) -> None:
    """The timeline prefixes every firing with its session's id."""
    path = write(
        tmp_path,
        "name: t\nsessions:\n"
        "  - id: chat-a\n    turns:\n      - {user: hi, assistant: hello}\n"
        "  - id: chat-b\n    turns:\n      - {after: 1m, user: hey, assistant: yo}\n",
    )
    text = timeline(run_scenario(load_scenario(path)))
    assert "turn   1  2026-06-01 09:00:00  [chat-a] on_session_start" in text
    assert "turn   2  2026-06-01 09:01:00  [chat-b] post_llm_call" in text


def test_each_session_has_its_own_ids_and_platform(tmp_path: Path) -> None:
    """Payloads carry each session's id, platform and sender; the bridge plan can be per session."""
    path = write(
        tmp_path,
        "name: t\nsessions:\n"
        "  - id: chat-a\n    platform: telegram\n    sender: u1\n"
        "    bridge: {save_memory: fail}\n"
        "    turns:\n      - {user: hi, assistant: hello}\n"
        "  - id: chat-b\n    platform: discord\n"
        "    turns:\n      - {after: 1m, user: hey, assistant: yo}\n",
    )
    result = run_scenario(load_scenario(path))
    pre = {
        f.session: json.loads(f.runs[0].stdin)
        for f in result.firings
        if f.event == "pre_llm_call" and f.runs
    }
    assert (pre["chat-a"]["session_id"], pre["chat-a"]["extra"]["platform"]) == (
        "chat-a",
        "telegram",
    )
    assert pre["chat-a"]["extra"]["sender_id"] == "u1"
    assert pre["chat-b"]["extra"]["platform"] == "discord"
    outcomes = {(c["session"], c["tool"], c["outcome"]) for c in result.calls}
    assert ("chat-a", "save_memory", "fail") in outcomes
    assert ("chat-b", "save_memory", "ok") in outcomes
