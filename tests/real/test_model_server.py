"""The fake model servers stream each API's format, follow the script and log every request."""

from __future__ import annotations

import http.client
import json
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from hooksim.real.models.openai_chat import invalid_request
from hooksim.real.models.reply import ModelScript, Reply, ToolUse
from hooksim.real.models.server import SUMMARY, ModelServer


def post(url: str, body: dict[str, Any]) -> tuple[int, bytes]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
        with e:
            return e.code, e.read()


def events(stream: bytes) -> list[dict[str, Any]]:
    return [
        json.loads(line[len(b"data: ") :])
        for line in stream.splitlines()
        if line.startswith(b"data: ")
    ]


def test_anthropic_streams_tool_calls_then_the_final_text(tmp_path: Path) -> None:
    """A main-loop request gets the turn's replies in order; the spent script repeats the text."""
    script = ModelScript()
    script.set_turn(
        1, [Reply(tool_calls=(ToolUse("Bash", {"command": "ls"}, "toolu_01"),)), Reply("all done")]
    )
    body = {
        "model": "m",
        "stream": True,
        "tools": [{"name": "Bash"}],
        "messages": [{"role": "user", "content": "hi"}],
    }
    with ModelServer("anthropic", script, tmp_path / "log.jsonl") as server:
        first = events(post(server.url + "/v1/messages", body)[1])
        second = events(post(server.url + "/v1/messages", body)[1])
        third = events(post(server.url + "/v1/messages", body)[1])
    starts = [e["content_block"] for e in first if e["type"] == "content_block_start"]
    assert starts == [{"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": {}}]
    deltas = [e["delta"] for e in first if e["type"] == "content_block_delta"]
    assert json.loads(deltas[0]["partial_json"]) == {"command": "ls"}
    assert first[-2]["delta"]["stop_reason"] == "tool_use"
    for stream in (second, third):
        texts = [e["delta"]["text"] for e in stream if e["type"] == "content_block_delta"]
        assert texts == ["all done"]
        assert stream[-1] == {"type": "message_stop"}
    log = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert [(r["turn"], r["kind"]) for r in log] == [(1, "main")] * 3


def test_error_status_summary_and_side_requests(tmp_path: Path) -> None:
    """A scripted error is the API's error body; a compaction prompt gets a summary; a request
    without tools is not the agent loop and leaves the script alone."""
    script = ModelScript()
    script.set_turn(2, [Reply(status=500), Reply("after the error")])
    main = {
        "stream": True,
        "tools": [{"name": "Bash"}],
        "messages": [{"role": "user", "content": "x"}],
    }
    compaction = {
        **main,
        "messages": [
            {
                "role": "user",
                "content": "Your task is to create a detailed summary of the conversation so far",
            }
        ],
    }
    with ModelServer("anthropic", script, tmp_path / "log.jsonl") as server:
        status, error = post(server.url + "/v1/messages", main)
        summary = events(post(server.url + "/v1/messages", compaction)[1])
        side = events(post(server.url + "/v1/messages", {"stream": True, "messages": []})[1])
        after = events(post(server.url + "/v1/messages", main)[1])
    assert status == 500
    assert json.loads(error)["error"]["type"] == "api_error"
    assert [e["delta"]["text"] for e in summary if e["type"] == "content_block_delta"] == [SUMMARY]
    assert [e["delta"]["text"] for e in side if e["type"] == "content_block_delta"] == ["ok"]
    assert [e["delta"]["text"] for e in after if e["type"] == "content_block_delta"] == [
        "after the error"
    ]


@pytest.mark.parametrize(
    ("dialect", "path"),
    [("responses", "/v1/responses"), ("gemini", "/v1beta/models/g:streamGenerateContent?alt=sse")],
)
def test_other_dialects_stream_text_and_function_calls(
    tmp_path: Path, dialect: str, path: str
) -> None:
    """The Responses and Gemini fakes carry the same script in their own event shapes."""
    script = ModelScript()
    script.set_turn(
        1, [Reply(tool_calls=(ToolUse("shell", {"cmd": "ls"}, "call_1"),)), Reply("done")]
    )
    body = {"stream": True, "tools": [{"x": 1}], "input": [], "contents": []}
    with ModelServer(dialect, script, tmp_path / "log.jsonl") as server:
        call = json.dumps(events(post(server.url + path, body)[1]))
        text = json.dumps(events(post(server.url + path, body)[1]))
    assert '"shell"' in call
    assert "cmd" in call
    assert '"done"' in text


def test_responses_calls_a_custom_tool_with_its_text(tmp_path: Path) -> None:
    """A tool the request declares as custom (Codex's apply_patch) is called as a
    custom_tool_call whose input is the text; a function tool with JSON arguments."""
    script = ModelScript()
    patch = "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n"
    script.set_turn(
        1,
        [
            Reply(
                tool_calls=(
                    ToolUse("apply_patch", {"input": patch}, "call_1"),
                    ToolUse("exec_command", {"cmd": "ls"}, "call_2"),
                )
            )
        ],
    )
    tools = [
        {"type": "custom", "name": "apply_patch", "format": {"type": "grammar"}},
        {"type": "function", "name": "exec_command", "parameters": {}},
    ]
    body = {"stream": True, "tools": tools, "input": []}
    with ModelServer("responses", script, tmp_path / "log.jsonl") as server:
        done = events(post(server.url + "/v1/responses", body)[1])[-1]
    custom, function = done["response"]["output"]
    assert (custom["type"], custom["name"], custom["call_id"]) == (
        "custom_tool_call",
        "apply_patch",
        "call_1",
    )
    assert custom["input"] == patch
    assert "arguments" not in custom
    assert (function["type"], json.loads(function["arguments"])) == ("function_call", {"cmd": "ls"})


def test_chat_completions_hold_a_request_fail_with_an_error_object_and_list_models(
    tmp_path: Path,
) -> None:
    """Chat Completions: tool calls stream as chunks; a held request gets no answer until
    released; a scripted error carries the given error object; the listed models are served."""
    script = ModelScript()
    failure = invalid_request("bad request")
    script.set_turn(
        0,
        [
            Reply(tool_calls=(ToolUse("write_file", {"path": "a"}, "call_1"),)),
            Reply(held_s=30.0),
            Reply(status=400, error=failure),
        ],
    )
    body = {"stream": True, "tools": [{"type": "function"}], "messages": []}
    with ModelServer("openai-chat", script, tmp_path / "log.jsonl", models=["m"]) as server:
        url = server.url + "/v1/chat/completions"
        stream = post(url, body)[1]
        held: list[BaseException] = []
        waiting = threading.Thread(target=lambda: held.extend(_error_of(url, body)))
        waiting.start()
        assert server.held.wait(30)
        server.release()
        waiting.join(30)
        status, error = post(url, body)
        listed = get(server.url + "/v1/models")
        missing = get(server.url + "/v1/models/m")
    assert stream.endswith(b"data: [DONE]\n\n")
    chunks = events(stream.removesuffix(b"data: [DONE]\n\n"))
    calls = chunks[0]["choices"][0]["delta"]["tool_calls"]
    assert [(c["index"], c["id"], c["function"]["name"]) for c in calls] == [
        (0, "call_1", "write_file")
    ]
    assert chunks[1]["choices"][0]["finish_reason"] == "tool_calls"
    assert len(held) == 1  # the held request ended without an answer
    assert (status, json.loads(error)) == (400, {"error": failure})
    assert listed == (200, b'{"object": "list", "data": [{"id": "m", "object": "model"}]}')
    assert missing[0] == 404


def _error_of(url: str, body: dict[str, Any]) -> list[BaseException]:
    """What a request that gets no answer raises (none: it was answered)."""
    try:
        post(url, body)
    except (OSError, http.client.HTTPException) as e:
        return [e]
    return []


def test_anthropic_names_each_answer_as_the_real_api_does(tmp_path: Path) -> None:
    """Every answer carries a request-id header of its own, which Claude Code writes on its
    transcript's assistant records (requestId); the other APIs send none."""
    body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    ids = []
    with ModelServer("anthropic", ModelScript(), tmp_path / "log.jsonl") as server:
        for _ in range(2):
            request = urllib.request.Request(
                server.url + "/v1/messages",
                json.dumps(body).encode(),
                {"Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=30) as response:
                ids.append(response.headers["request-id"])
                response.read()
    assert all(i.startswith("req_") and len(i) == 28 for i in ids), ids
    assert ids[0] != ids[1]
