"""The real Hermes agent loop against hooksim's Hermes host, event by event.

One scripted session (a reply, a tool call with a pre_verify continuation, an empty reply, an
interruption, a failed call, non-ASCII text, /new, exit) runs twice: on hermes-agent 0.19.0's own
CLI (``HermesCLI.chat`` per turn, ``tests/conformance/hermes_session.py``) against a fake
OpenAI-compatible model server, and as a hooksim scenario. A recorder hook on every event
writes argv, stdin and the ``HERMES_*`` environment; the two recordings must be equal after
mapping what cannot be (see TOLERATED), and the model must have received the context hooksim
says it did.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import StubBridge

try:
    HAVE_HERMES = importlib.util.find_spec("agent.shell_hooks") is not None
except ImportError:
    HAVE_HERMES = False

pytestmark = pytest.mark.skipif(
    not HAVE_HERMES, reason="needs hermes-agent==0.19.0 (tox -e conformance)"
)

DRIVER = Path(__file__).with_name("hermes_session.py")
EVENTS = (
    "on_session_start",
    "pre_llm_call",
    "post_llm_call",
    "on_session_end",
    "pre_tool_call",
    "post_tool_call",
    "pre_verify",
    "on_session_finalize",
    "on_session_reset",
)
RECORDER = """\
import json, os, sys
data = sys.stdin.read()
env = {k: v for k, v in os.environ.items() if k.startswith("HERMES_") and k != "HERMES_HOME"}
with open(os.environ["RECORD_TO"], "a", encoding="utf-8") as f:
    f.write(json.dumps({"argv": sys.argv[1:], "stdin": data, "env": env}) + "\\n")
payload = json.loads(data)
if sys.argv[1] == "pre_llm_call":
    print(json.dumps({"context": "CTX " + payload["extra"]["user_message"]}))
if sys.argv[1] == "pre_verify" and payload["extra"]["attempt"] == 0:
    print(json.dumps({"action": "continue", "message": "run the tests first"}))
"""

# What cannot be equal, and why; everything else must be.
TOLERATED = {
    "ids": "session ids and turn ids carry random hex digits (uuid4) on Hermes; hooksim's are"
    " fixed by the scenario; they are mapped one to one, in order of appearance",
    "timestamps": "a CLI session id starts with the wall-clock time; hooksim uses the scenario's",
    "duration_ms": "a real tool's run time; the scenario gives hooksim's (0 here)",
}


def result_of_write(path: str) -> str:
    """write_file's result in 0.19.0 for a one-byte .txt file (the scenario gives the same)."""
    return json.dumps(
        {
            "bytes_written": 1,
            "dirs_created": True,
            "lint": {"status": "skipped", "message": "No linter for .txt files"},
            "resolved_path": path,
            "files_modified": [path],
        }
    )


def config(recorder: Path, extra: str = "") -> str:
    hooks = "".join(
        f"  {e}:\n    - command: {json.dumps(f'{sys.executable} {recorder} {e}')}\n" for e in EVENTS
    )
    return (
        "model:\n  default: fake-model\n"
        # Hermes' own evidence-based verify nudge, and title generation (an extra model call
        # per first exchange), are not what this session is about: off on both sides.
        "agent:\n  verify_on_stop: false\n"
        "auxiliary:\n  title_generation:\n    enabled: false\n"
        f"{extra}hooks:\n{hooks}"
    )


def run_real(
    tmp_path: Path,
    recorder: Path,
    target: str,
    *,
    config_text: str | None = None,
    extra_env: dict[str, str] | None = None,
    verify_continues: bool = True,
) -> tuple[list[dict[str, Any]], Any]:
    """The session on the real loop; the recorder's records (if it ran) and the model's log.

    ``verify_continues``: a pre_verify hook asks for one more round after the file was
    written, so the model answers that turn twice.
    """
    home = tmp_path / "real-home"
    (home / ".hermes").mkdir(parents=True)
    (home / ".hermes" / "config.yaml").write_text(config_text or config(recorder))
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    out = tmp_path / "real.jsonl"
    requests = tmp_path / "requests.json"
    plan = {
        "model_name": "fake-model",
        "requests_log": str(requests),
        "steps": [
            {"user": "hello"},
            {"user": "say nothing"},
            {"user": "write the file"},
            {"user": "long task", "interrupt": "never mind"},
            {"user": "this fails"},
            {"user": "héllo wörld ✓"},
            {"new_session": True},
            {"user": "after new"},
        ],
        "model": [
            {"content": "hi there"},
            *[{"content": ""}] * 4,
            {
                "tools": [
                    {
                        "id": "call_w1",
                        "name": "write_file",
                        "arguments": {"path": target, "content": "x"},
                    }
                ]
            },
            {"content": "done"},
            *([{"content": "done"}] if verify_continues else []),
            {"hold": True},
            {"status": 400, "message": "bad request"},
            {"content": "ünïcode ✓"},
            {"content": "fresh"},
        ],
    }
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(json.dumps(plan))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HERMES_", "WAGGLE_"))}
    env.update(HOME=str(home), HERMES_HOME=str(home / ".hermes"), RECORD_TO=str(out))
    env.update(extra_env or {})
    proc = subprocess.run(
        [sys.executable, str(DRIVER), str(plan_path)],
        cwd=project,
        env=env,
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    lines = out.read_text(encoding="utf-8").splitlines() if out.exists() else []
    records = [json.loads(line) for line in lines]
    return records, json.loads(requests.read_text(encoding="utf-8"))


def run_hooksim(tmp_path: Path, recorder: Path, target: str) -> tuple[list[dict[str, Any]], Any]:
    from hooksim.replay.runner import run_scenario
    from hooksim.scenario import load_scenario

    out = tmp_path / "sim.jsonl"
    hooks = config(recorder).split("hooks:\n", 1)[1]
    project = tmp_path / "project"
    scenario = tmp_path / "session.yaml"
    tool = json.dumps(
        {
            "id": "call_w1",
            "name": "write_file",
            "args": {"path": target, "content": "x"},
            "result": result_of_write(target),
        },
        ensure_ascii=False,
    )
    scenario.write_text(
        f"name: differential\nenv: {{RECORD_TO: {json.dumps(str(out))}}}\n"
        f"session: {{cwd: {json.dumps(str(project))}, model: fake-model}}\n"
        f"hooks:\n{hooks}"
        "turns:\n"
        "  - {user: hello, assistant: hi there}\n"
        '  - {user: say nothing, assistant: ""}\n'
        f"  - {{user: write the file, tools: [{tool}], assistant: done}}\n"
        "  - {user: long task, interrupted: true}\n"
        "  - {user: this fails, error: 400}\n"
        "  - {user: héllo wörld ✓, assistant: ünïcode ✓}\n"
        "  - {new_session: null}\n"
        "  - {user: after new, assistant: fresh}\n",
        encoding="utf-8",
    )
    result = run_scenario(load_scenario(scenario))
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return records, result


class IdMap:
    """Maps each real id to the hooksim id seen at the same place, and checks it stays one to one."""

    def __init__(self) -> None:
        self.real_to_sim: dict[str, str] = {}

    def pair(self, real: str, sim: str, what: str) -> None:
        known = self.real_to_sim.setdefault(real, sim)
        assert known == sim, f"{what}: {real} was {known}, now {sim}"

    def apply(self, text: str) -> str:
        for real in sorted(self.real_to_sim, key=len, reverse=True):
            text = text.replace(real, self.real_to_sim[real])
        return text


SID = re.compile(r"\d{8}_\d{6}_[0-9a-f]{6}")


def normalized(record: dict[str, Any]) -> dict[str, Any]:
    payload = json.loads(record["stdin"])
    extra = payload["extra"]
    if "duration_ms" in extra:
        extra["duration_ms"] = 0  # TOLERATED["duration_ms"]
    return {"argv": record["argv"], "payload": payload, "env": record["env"]}


def test_real_loop_and_hooksim_record_the_same_session(tmp_path: Path) -> None:
    """Same events in the same order, same argv, payload bytes and HERMES_* environment (after
    mapping ids), and the model received the context hooksim says it did."""
    recorder = tmp_path / "recorder.py"
    recorder.write_text(RECORDER)
    target = str(tmp_path / "project" / "a.txt")
    real, requests = run_real(tmp_path, recorder, target)
    (tmp_path / "project" / "a.txt").unlink()
    sim, result = run_hooksim(tmp_path, recorder, target)

    assert [r["argv"][0] for r in sim] == [r["argv"][0] for r in real]
    ids = IdMap()
    for r, s in zip(real, sim, strict=True):
        rp, sp = json.loads(r["stdin"]), json.loads(s["stdin"])
        ids.pair(rp["session_id"], sp["session_id"], "session id")
        for key in ("turn_id",):
            if key in rp["extra"]:
                ids.pair(rp["extra"][key], sp["extra"][key], key)
    for n, (r, s) in enumerate(zip(real, sim, strict=True)):
        mapped = json.loads(ids.apply(json.dumps(normalized(r), ensure_ascii=False)))
        assert mapped == normalized(s), f"record {n} ({r['argv'][0]}) differs"
        # Byte for byte too: key order, separators, non-ASCII as is.
        raw = ids.apply(r["stdin"])
        if '"duration_ms"' not in raw:
            assert raw == s["stdin"], f"record {n} ({r['argv'][0]}): stdin bytes differ"

    # The context each model request carried, against hooksim's account of it.
    turns_user = [m for q in requests for m in q["messages"][-1:] if m["role"] == "user"]
    delivered = [c for f in result.firings if f.event == "pre_llm_call" for c in f.context]
    sent = {m["content"] for m in turns_user}
    for context in delivered:
        assert any(context in text for text in sent), f"{context!r} never reached the model"
    lost = ["CTX this fails", "CTX héllo wörld ✓"]
    assert not any(c in text for c in lost for text in sent)
    assert not set(lost) & set(delivered)


def test_our_hook_under_the_real_loop_saves_only_what_the_assistant_said(
    tmp_path: Path, stub_bridge: StubBridge
) -> None:
    """hermes-hooks itself, as install wires it, under Hermes' own loop: the session start is
    told, every prompt is a temporary frame, only the model's replies are saved as the
    assistant's (not Hermes' explanation of an empty reply, nothing for an interrupted or failed
    turn), and with the flag on each Stop save comes before its compaction."""
    from hermes_hooks.entries import hook_entries

    hooks = "".join(
        f"  {event}:\n    - command: {json.dumps(command)}\n"
        for event, command in hook_entries().items()
    )
    config_text = config(tmp_path / "unused").split("hooks:\n", 1)[0] + "hooks:\n" + hooks
    target = str(tmp_path / "project" / "a.txt")
    run_real(
        tmp_path,
        tmp_path / "unused",
        target,
        config_text=config_text,
        extra_env={**stub_bridge.env, "WAGGLE_HERMES_COMPACT_ON_STOP": "1"},
        verify_continues=False,  # no pre_verify hook of ours
    )

    calls = stub_bridge.calls()
    saves = [c["arguments"] for c in calls if c["tool"] == "save_memory"]
    said = [(s["role"], s["content"], s["temporary"]) for s in saves]  # type: ignore[index]
    assert [s for s in said if s[0] == "assistant"] == [
        ("assistant", "hi there", False),
        ("assistant", "done", False),
        ("assistant", "ünïcode ✓", False),
        ("assistant", "fresh", False),
    ]
    prompts = [
        "hello",
        "say nothing",
        "write the file",
        "long task",
        "this fails",
        "héllo wörld ✓",
        "after new",
    ]
    assert [s[1] for s in said if s[0] == "user"] == prompts
    assert all(s[2] for s in said if s[0] == "user")
    starts = [c["arguments"] for c in calls if c["tool"] == "start_session"]
    assert len(starts) == 2  # the first session and the one /new starts
    # Save before compact: the first Stop compacts (the window has never passed), after its save.
    tools = [c["tool"] for c in calls]
    first_compact = tools.index("cleanup_frames")
    assert tools[first_compact - 1] == "save_memory"
    assert saves.index(calls[first_compact - 1]["arguments"]) == 1  # "hi there", the first reply
