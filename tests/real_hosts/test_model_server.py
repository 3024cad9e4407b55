"""The fake model servers stream each API's format, follow the script and log every request."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from hooksim.real.model_server import SUMMARY, ModelScript, ModelServer, Reply, ToolUse


def post(url: str, body: dict[str, Any]) -> tuple[int, bytes]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
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
    script.set_turn(1, [Reply(tool_calls=(ToolUse("Bash", {"command": "ls"}, "toolu_01"),)),
                        Reply("all done")])  # fmt: skip
    body = {"model": "m", "stream": True, "tools": [{"name": "Bash"}],
            "messages": [{"role": "user", "content": "hi"}]}  # fmt: skip
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
    compaction = {**main, "messages": [{"role": "user", "content":
                  "Your task is to create a detailed summary of the conversation so far"}]}  # fmt: skip
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
    script.set_turn(1, [Reply(tool_calls=(ToolUse("shell", {"cmd": "ls"}, "call_1"),)),
                        Reply("done")])  # fmt: skip
    body = {"stream": True, "tools": [{"x": 1}], "input": [], "contents": []}
    with ModelServer(dialect, script, tmp_path / "log.jsonl") as server:
        call = json.dumps(events(post(server.url + path, body)[1]))
        text = json.dumps(events(post(server.url + path, body)[1]))
    assert '"shell"' in call
    assert "cmd" in call
    assert '"done"' in text
