"""Gemini CLI makes one model request per model response that asks for tool calls, as real 0.61.0
does: the calls of one response run, then their results go back in one request (BeforeModel,
BeforeToolSelection, AfterModel), and the chat file keeps that response as one message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..recording import recorded

EVENTS = (
    "BeforeModel",
    "BeforeToolSelection",
    "AfterModel",
    "BeforeTool",
    "AfterTool",
    "AfterAgent",
)


def run(tmp_path: Path, turns: str) -> list[dict[str, Any]]:
    """The scenario's turns with a recording hook on the model and tool events."""
    return recorded(tmp_path, "gemini-cli", EVENTS, turns)


def seen(records: list[dict[str, Any]]) -> list[str]:
    """Each firing: its event, and a tool event's command."""
    said = []
    for r in records:
        p = r["payload"]
        command = (p.get("tool_input") or {}).get("command")
        said.append(f"{p['hook_event_name']} {command}" if command else p["hook_event_name"])
    return said


MODEL = ["BeforeModel", "BeforeToolSelection", "AfterModel"]


def test_one_request_per_response(tmp_path: Path) -> None:
    """Two calls in one response, then one: three requests, not four (real 0.61.0 with these
    responses: BeforeModel, BeforeToolSelection and AfterModel three times)."""
    records = run(
        tmp_path,
        """\
      - user: look around
        responses:
          - tools: [{shell: echo one}, {shell: echo two}]
          - tools: [{shell: echo three}]
        assistant: Looked.
    """,
    )
    assert seen(records) == [
        *MODEL,
        "BeforeTool echo one",
        "AfterTool echo one",
        "BeforeTool echo two",
        "AfterTool echo two",
        *MODEL,
        "BeforeTool echo three",
        "AfterTool echo three",
        *MODEL,
        "AfterAgent",
    ]


def test_without_responses_each_call_is_a_response_of_its_own(tmp_path: Path) -> None:
    """``tools:`` is one call per response, as the real driver serves them: a request after
    each call."""
    records = run(
        tmp_path,
        """\
      - user: look around
        tools: [{shell: echo one}, {shell: echo two}]
        assistant: Looked.
    """,
    )
    assert seen(records) == [
        *MODEL,
        "BeforeTool echo one",
        "AfterTool echo one",
        *MODEL,
        "BeforeTool echo two",
        "AfterTool echo two",
        *MODEL,
        "AfterAgent",
    ]


def test_the_chat_file_keeps_a_response_as_one_message(tmp_path: Path) -> None:
    """A response's calls are one gemini message, given its tool calls once they are all done,
    and their results go back as one user message with the next request (real 0.61.0's chat
    file)."""
    records = run(
        tmp_path,
        """\
      - user: look around
        responses:
          - tools: [{shell: echo one}, {shell: echo two}]
          - tools: [{shell: echo three}]
        assistant: Looked.
    """,
    )

    def messages(at: int) -> list[tuple[str, list[str], list[str]]]:
        said = [r for r in records[at]["records"] if r.get("type") in ("user", "gemini")]
        return [
            (
                m["type"],
                [c["id"] for c in m.get("toolCalls", [])],
                [
                    p["functionResponse"]["id"]
                    for p in m["content"]
                    if isinstance(m["content"], list) and "functionResponse" in p
                ],
            )
            for m in said
        ]

    after_two = seen(records).index("AfterTool echo two")
    assert messages(after_two) == [("user", [], []), ("gemini", [], [])]
    second_request = seen(records).index("BeforeModel", after_two)
    calls = ["run_shell_command__call_1", "run_shell_command__call_2"]
    assert messages(second_request) == [
        ("user", [], []),
        ("gemini", [], []),
        ("gemini", calls, []),
        ("user", [], calls),
    ]
