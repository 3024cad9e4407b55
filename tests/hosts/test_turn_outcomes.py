"""How a turn ends (a reply, an empty reply, an interruption, a failed call) on every host."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hooksim.hosts.hermes.constants import EMPTY_REPLY_EXPLANATION
from hooksim.replay.runner import run_scenario
from hooksim.scenario import ApiError, ScenarioError, Turn, load_scenario

from tests.hosts.sessions import recording_session


def fired(tool: str, *turns: Turn) -> list[tuple[str, Any, str | None]]:
    """Every event the host fires for these turns, in order."""
    events, session = recording_session(tool)
    for turn in turns:
        session.step(turn)
    return [(e, p, m) for e, p, m in events]


def names(tool: str, *turns: Turn) -> list[str]:
    return [e for e, _, _ in fired(tool, *turns)]


def write(tmp_path: Path, turns: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(f"name: t\nturns:\n{turns}")
    return path


def test_a_turn_without_outcome_is_a_file_line_error_naming_the_choices(tmp_path: Path) -> None:
    """A turn that says neither reply, interruption nor failed call names its line and the keys."""
    path = write(tmp_path, "  - {user: a, assistant: b}\n  - {user: c}\n")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path)
    assert str(exc.value) == (
        f'{path}:4: the turn has no outcome: add `assistant: TEXT` (a reply; `assistant: ""` is'
        " an empty reply), `interrupted: true`, or `error: 400` (another HTTP status, or a cause:"
        " authentication, billing, context_length, invalid_request, invalid_tool_call,"
        " max_output_tokens, overloaded, payload_too_large, rate_limit, server_error, timeout,"
        " unknown)"
    )


def test_a_null_assistant_is_no_outcome_either(tmp_path: Path) -> None:
    """`assistant: null` used to mean "no reply"; it now asks which outcome is meant."""
    with pytest.raises(ScenarioError, match=r"s\.yaml:3: the turn has no outcome"):
        load_scenario(write(tmp_path, "  - {user: a, assistant: null}\n"))


def test_a_failed_call_with_a_reply_is_an_error(tmp_path: Path) -> None:
    """A failed call has no reply: `error` with `assistant` names both keys."""
    with pytest.raises(ScenarioError, match=r":3: a turn whose model call fails has no reply"):
        load_scenario(write(tmp_path, "  - {user: a, assistant: b, error: 500}\n"))


def test_an_unknown_error_cause_is_an_error(tmp_path: Path) -> None:
    """`error` is an HTTP status or one of the named causes."""
    with pytest.raises(ScenarioError, match=r":3: "):
        load_scenario(write(tmp_path, "  - {user: a, error: boom}\n"))


def test_outcomes_load(tmp_path: Path) -> None:
    """Each outcome loads into the turn it describes; a status gets its cause."""
    path = write(
        tmp_path,
        '  - {user: a, assistant: ""}\n  - {user: b, interrupted: true}\n'
        "  - {user: c, error: 429}\n  - {user: d, error: context_length}\n",
    )
    turns = [s for s in load_scenario(path).steps if isinstance(s, Turn)]
    assert [t.empty_reply for t in turns] == [True, False, False, False]
    assert turns[1].interrupted
    assert turns[2].error == ApiError(429, "rate_limit")
    assert turns[3].error == ApiError(None, "context_length")


@pytest.mark.parametrize(
    ("value", "cause"),
    [
        (400, "invalid_request"),
        (401, "authentication"),
        (402, "billing"),
        (413, "payload_too_large"),
        (429, "rate_limit"),
        (500, "server_error"),
        (529, "overloaded"),
        (503, "server_error"),
        (404, "invalid_request"),
    ],
)
def test_status_causes(value: int, cause: str) -> None:
    """Each HTTP status is classified as the hosts classify it."""
    assert ApiError.parse(value).cause == cause


def test_hermes_failed_call_fires_only_pre_llm_call() -> None:
    """run_conversation returns early: no post_llm_call and no on_session_end."""
    assert names("hermes", Turn("a", error=ApiError.parse(400))) == [
        "on_session_start",
        "pre_llm_call",
    ]


def test_hermes_empty_reply_is_answered_with_hermes_explanation() -> None:
    """post_llm_call carries the turn-completion explainer's text, and the turn completed."""
    events = fired("hermes", Turn("a", ""))
    post = next(p for e, p, _ in events if e == "post_llm_call")
    end = next(p for e, p, _ in events if e == "on_session_end")
    assert post["extra"]["assistant_response"] == EMPTY_REPLY_EXPLANATION
    assert (end["extra"]["completed"], end["extra"]["interrupted"]) == (True, False)


def test_hermes_empty_reply_history_ends_with_the_sentinel(tmp_path: Path) -> None:
    """The history of an empty reply ends with Hermes' "(empty)" message, as the real loop's does,
    so the hook saves the prompt and not Hermes' explanation."""
    events = fired("hermes", Turn("a", "hi"), Turn("b", ""))
    post = [p for e, p, _ in events if e == "post_llm_call"][-1]
    history = post["extra"]["conversation_history"]
    assert [(m["role"], m["content"]) for m in history[-2:]] == [
        ("user", "b"),
        ("assistant", "(empty)"),
    ]
    path = write(tmp_path, "  - {user: a, assistant: ''}\n")
    result = run_scenario(load_scenario(path))
    saved = [(c["tool"], c["arguments"].get("role")) for c in result.calls]
    assert saved == [("start_session", None), ("save_memory", "user")]


def test_hermes_interrupted_turn_completed_true() -> None:
    """An interrupt during the model call: on_session_end with completed true, no post_llm_call."""
    events = fired("hermes", Turn("a", interrupted=True))
    assert [e for e, _, _ in events] == ["on_session_start", "pre_llm_call", "on_session_end"]
    assert (events[-1][1]["extra"]["completed"], events[-1][1]["extra"]["interrupted"]) == (
        True,
        True,
    )


@pytest.mark.parametrize(
    ("tool", "status", "error"),
    [
        ("claude-code", 429, "rate_limit"),
        ("claude-code", 529, "server_error"),
        ("claude-code", 402, "billing_error"),
        ("codex", 529, "overloaded"),
        ("codex", 401, "authentication_failed"),
    ],
)
def test_stop_failure_error_and_matcher(tool: str, status: int, error: str) -> None:
    """A failed call fires StopFailure with the host's error class, which is also the matcher."""
    events = fired(tool, Turn("a", error=ApiError.parse(status)))
    assert "Stop" not in [e for e, _, _ in events]
    (failure,) = [(p, m) for e, p, m in events if e == "StopFailure"]
    assert failure == (failure[0], error)
    assert failure[0]["error"] == error


@pytest.mark.parametrize("tool", ["claude-code", "codex"])
def test_empty_reply_still_stops(tool: str) -> None:
    """An empty reply is an answer: Stop fires with an empty last message."""
    events = fired(tool, Turn("a", ""))
    (stop,) = [p for e, p, _ in events if e == "Stop"]
    assert stop.get("last_assistant_message", "") == ""


def test_cursor_stop_status_per_outcome() -> None:
    """Cursor's stop says completed, aborted or error; only a completed turn has a response."""
    events = fired(
        "cursor",
        Turn("a", ""),
        Turn("b", interrupted=True),
        Turn("c", error=ApiError.parse(500)),
    )
    assert [(e, p.get("status", p.get("text"))) for e, p, _ in events if e != "sessionStart"] == [
        ("beforeSubmitPrompt", None),
        ("afterAgentResponse", ""),
        ("stop", "completed"),
        ("beforeSubmitPrompt", None),
        ("stop", "aborted"),
        ("beforeSubmitPrompt", None),
        ("stop", "error"),
    ]


def test_gemini_after_agent_only_for_a_reply() -> None:
    """AfterAgent fires for a reply, even an empty one, and not for an interrupt or a failure."""
    events = names(
        "gemini-cli",
        Turn("a", ""),
        Turn("b", interrupted=True),
        Turn("c", error=ApiError.parse(500)),
    )
    assert events.count("AfterAgent") == 1
    assert events.count("BeforeAgent") == 3
