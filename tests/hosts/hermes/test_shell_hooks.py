"""The Hermes host emulation: hooks run as v0.19.0 runs them, the clock reaches them."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest
from hooksim.hosts import HOSTS
from hooksim.hosts.hermes.config import parse_hooks_block
from hooksim.hosts.hermes.profile import payload_bytes
from hooksim.replay.runner import run_scenario
from hooksim.scenario import ApiError, NewSession, Step, Turn, load_scenario

from tests.hosts.sessions import recording_session
from tests.processes import alive

RECORDER = """\
import datetime, json, os, sys, time
record = {"argv": sys.argv[1:], "stdin": sys.stdin.read(), "time": time.time(),
          "now": datetime.datetime.now(datetime.timezone.utc).isoformat(), "cwd": os.getcwd(),
          "home": os.environ["HOME"]}
with open(os.environ["RECORD_TO"], "a") as f:
    f.write(json.dumps(record) + "\\n")
print(os.environ.get("PRINT", ""), end="")
time.sleep(float(os.environ.get("SLEEP", "0")))
"""


@pytest.fixture
def recorder(tmp_path: Path) -> Path:
    script = tmp_path / "recorder.py"
    script.write_text(RECORDER)
    return script


def scenario(
    tmp_path: Path, body: str, recorder: Path, events: tuple[str, ...] = ("post_llm_call",)
) -> Path:
    cmd = shlex.join([sys.executable, str(recorder), "arg with space"])
    hooks = "\n".join(f"  {e}:\n    - command: {json.dumps(cmd)}" for e in events)
    path = tmp_path / "s.yaml"
    path.write_text(
        f"name: t\nhooks:\n{hooks}\nenv: {{RECORD_TO: {json.dumps(str(tmp_path / 'rec.jsonl'))}}}\n{body}"
    )
    return path


def records(tmp_path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (tmp_path / "rec.jsonl").read_text().splitlines()]


def test_virtual_clock_reaches_an_unmodified_python_hook(tmp_path: Path, recorder: Path) -> None:
    """time.time() and datetime.now() in the hook read the scenario's clock, turn after turn."""
    path = scenario(
        tmp_path,
        'clock: {start: "2030-01-02T03:04:05Z"}\nturns:\n  - {user: a, assistant: b}\n'
        "  - {after: 1h30m, user: c, assistant: d}\n",
        recorder,
    )
    run_scenario(load_scenario(path))
    first, second = records(tmp_path)
    assert str(first["now"]).startswith("2030-01-02T03:04:0")
    assert str(second["now"]).startswith("2030-01-02T04:34:0")
    assert 5399 < float(second["time"]) - float(first["time"]) < 5430  # type: ignore[arg-type]


def test_argv_stdin_cwd_and_home_as_hermes_gives_them(tmp_path: Path, recorder: Path) -> None:
    """shlex-split argv (spaces survive), Hermes' exact payload bytes, a temp HOME."""
    path = scenario(tmp_path, "turns:\n  - {user: é, assistant: ß}\n", recorder)
    result = run_scenario(load_scenario(path))
    (rec,) = records(tmp_path)
    assert rec["argv"] == ["arg with space"]
    stdin = str(rec["stdin"])
    assert not stdin.endswith("\n")
    assert re.match(
        r'\{"hook_event_name": "post_llm_call", "tool_name": null, "tool_input": null,'
        r' "session_id": "20260601_090000_[0-9a-f]{6}", "cwd": ',
        stdin,
    )
    payload = json.loads(stdin)
    assert list(payload["extra"]) == [
        "task_id",
        "turn_id",
        "user_message",
        "assistant_response",
        "conversation_history",
        "model",
        "platform",
        "telemetry_schema_version",
    ]
    assert payload["extra"]["assistant_response"] == "ß"
    assert '"ß"' in stdin  # ensure_ascii=False
    assert str(rec["home"]) != str(Path.home())
    assert result.runs[0].exit_code == 0


def test_a_hook_over_its_timeout_is_killed(tmp_path: Path, recorder: Path) -> None:
    """A hook running past its `timeout:` is killed and recorded as timed out."""
    cmd = shlex.join([sys.executable, str(recorder)])
    path = tmp_path / "s.yaml"
    path.write_text(
        f"name: t\nhooks:\n  post_llm_call:\n    - {{command: {json.dumps(cmd)}, timeout: 1}}\n"
        f"env: {{RECORD_TO: {json.dumps(str(tmp_path / 'rec.jsonl'))}, SLEEP: '30'}}\n"
        "turns:\n  - {user: a, assistant: b}\nexpect:\n  timed_out: 1\n"
    )
    result = run_scenario(load_scenario(path))
    (run,) = result.runs
    assert run.timed_out
    assert run.duration_s < 10


def test_a_timed_out_hooks_grandchild_outlives_it_until_the_run_ends(tmp_path: Path) -> None:
    """As under Hermes, only the hook is killed; hooksim goes on at once, then kills what is left."""
    pid_file = tmp_path / "grandchild.pid"
    hook = f"sh -c 'sleep 60 & echo $! > {pid_file}; wait'"
    path = tmp_path / "s.yaml"
    path.write_text(
        f"name: t\nhooks:\n  post_llm_call:\n    - {{command: {json.dumps(hook)}, timeout: 1}}\n"
        "turns:\n  - {user: a, assistant: b}\n  - {user: c, assistant: d}\n"
    )
    result = run_scenario(load_scenario(path))
    first, second = result.runs
    assert first.timed_out
    assert second.timed_out
    assert first.duration_s < 1.8  # not held up by the grandchild's open pipes
    assert not alive(int(pid_file.read_text()))


def test_missing_hook_command_is_recorded_not_raised(tmp_path: Path) -> None:
    """A command that does not exist is a spawn error in the record, as Hermes logs it."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: t\nhooks:\n  pre_llm_call:\n    - command: /no/such/hook\nturns:\n  - {user: a, error: 500}\n"
    )
    (run,) = run_scenario(load_scenario(path)).runs
    assert (run.spawn_error, run.exit_code) == ("command not found", None)


def test_timeline_of_events() -> None:
    """Session start once; a reply (even empty) ends with post_llm_call and on_session_end, an
    interrupt with on_session_end only, a failed call with nothing after pre_llm_call."""
    fired, session = recording_session("hermes")

    def step(s: Step) -> list[str]:
        fired.clear()
        session.step(s)
        return [event for event, _, _ in fired]

    assert step(Turn("a", "b")) == [
        "on_session_start",
        "pre_llm_call",
        "post_llm_call",
        "on_session_end",
    ]
    assert step(Turn("c", error=ApiError.parse(400))) == ["pre_llm_call"]
    assert step(Turn("c", "")) == ["pre_llm_call", "post_llm_call", "on_session_end"]
    assert step(Turn("c", "d", interrupted=True)) == ["pre_llm_call", "on_session_end"]
    assert step(NewSession("s2")) == ["on_session_finalize", "on_session_reset"]
    assert step(Turn("e", "f"))[0] == "on_session_start"


def test_payload_bytes_match_a_captured_hermes_payload() -> None:
    """Byte for byte the on_session_start payload captured from a Hermes v0.19.0 run."""
    captured = (
        b'{"hook_event_name": "on_session_start", "tool_name": null, "tool_input": null, "session_id": "s1", '
        b'"cwd": "/w", "extra": {"model": "m", "platform": "cli", "telemetry_schema_version": "hermes.observer.v1"}}'
    )
    assert (
        payload_bytes(
            "on_session_start", session_id="s1", cwd="/w", extra={"model": "m", "platform": "cli"}
        )
        == captured
    )


def test_hooks_block_parsed_like_hermes() -> None:
    """Unknown events and entries without a command are skipped with a warning; timeouts clamp."""
    specs, warnings = parse_hooks_block(
        {
            "PreCompact": [{"command": "x"}],
            "pre_llm_call": [{"command": "  a  ", "timeout": 999}, {"command": ""}, {"timeout": 3}],
            "post_llm_call": [{"command": "b", "timeout": "soon", "matcher": "terminal"}],
            "pre_tool_call": [
                {"command": "c", "matcher": "terminal"},
                {"command": "c", "matcher": "terminal"},
                {"command": "c", "matcher": "*"},
            ],
        }
    )
    assert [(s.event, s.command, s.timeout_s, s.matcher) for s in specs] == [
        ("pre_llm_call", "a", 300, None),
        ("post_llm_call", "b", 60, None),
        ("pre_tool_call", "c", 60, "terminal"),  # registered once: (event, matcher, command)
        ("pre_tool_call", "c", 60, "*"),
    ]
    hermes = HOSTS["hermes"]
    assert hermes.matches(specs[2], "terminal")
    assert not hermes.matches(specs[2], "terminal2")
    assert not hermes.matches(specs[3], "terminal")  # '*' is no regex: equality, so no match
    assert warnings == [
        "unknown hook event 'PreCompact' in hooks: config; skipped",
        "hooks.pre_llm_call[0].timeout=999s exceeds max 300s; clamping",
        "hooks.pre_llm_call[1] has no command; skipped",
        "hooks.pre_llm_call[2] has no command; skipped",
        "hooks.post_llm_call[0].matcher is honoured only for tool events; dropped",
        "hooks.post_llm_call[0].timeout must be an int (got 'soon'); using default 60s",
    ]


def test_faketime_driver_without_libfaketime_names_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asking for the faketime clock where libfaketime is missing is one line saying what to install."""
    from hooksim.replay import workspace
    from hooksim.replay.runner import SetupError

    monkeypatch.setattr(workspace, "FAKETIME_LIBS", (str(tmp_path / "missing.so"),))
    path = tmp_path / "s.yaml"
    path.write_text("name: t\nclock: {driver: faketime}\nturns:\n  - {user: a, error: 500}\n")
    with pytest.raises(
        SetupError,
        match=r"s\.yaml: clock driver 'faketime' needs libfaketime \(Debian: apt-get install libfaketime\)",
    ):
        run_scenario(load_scenario(path))


@pytest.mark.skipif(
    __import__("hooksim.replay.runner").replay.runner.faketime_library() is None,
    reason="libfaketime is not installed",
)
def test_faketime_driver_reaches_a_shell_hook(tmp_path: Path) -> None:
    """With libfaketime, even `date` in a shell hook reads the scenario's clock."""
    out = tmp_path / "dates"
    path = tmp_path / "s.yaml"
    command = json.dumps(f"sh -c 'date -u +%FT%T >> {out}'")
    path.write_text(
        f"name: t\nclock: {{driver: faketime, start: '2031-05-06T07:08:09Z'}}\n"
        f"hooks:\n  pre_llm_call:\n    - command: {command}\nturns:\n  - {{user: a, error: 500}}\n  - {{after: 2h, user: b, error: 500}}\n"
    )
    run_scenario(load_scenario(path))
    first, second = out.read_text().split()
    assert first.startswith("2031-05-06T07:08:")
    assert second.startswith("2031-05-06T09:08:")


@pytest.mark.parametrize(
    ("event", "stdout", "context"),
    [
        ("pre_llm_call", '{"context": "the cwd is /p"}', "the cwd is /p"),
        ("pre_llm_call", '  {"context": "x"}\n', "x"),
        ("pre_llm_call", 'noise\n{"context": "c"}', None),
        ("pre_llm_call", '{"context": "   "}', None),
        ("pre_llm_call", '["context"]', None),
        ("pre_llm_call", "", None),
        ("post_llm_call", '{"context": "dropped"}', None),
    ],
)
def test_stdout_is_read_as_hermes_reads_it(event: str, stdout: str, context: str | None) -> None:
    """Only pre_llm_call's whole-stdout JSON object with a non-blank context is injected."""
    from hooksim.hosts.hermes.output import injected_context

    assert injected_context(event, stdout) == context


def test_context_injection_is_recorded(tmp_path: Path, recorder: Path) -> None:
    """A pre_llm_call hook printing {"context": ...} shows as injected context in the run."""
    path = scenario(
        tmp_path, "turns:\n  - {user: a, error: 500}\n", recorder, events=("pre_llm_call",)
    )
    text = path.read_text().replace("env: {", 'env: {PRINT: \'{"context": "remember X"}\', ', 1)
    path.write_text(text)
    (run,) = run_scenario(load_scenario(path)).runs
    assert run.context == "remember X"
