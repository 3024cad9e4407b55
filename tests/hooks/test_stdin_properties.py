"""Properties of the hook's stdin (Hypothesis): any bytes are handled, any Hermes payload is sent.

Seeds are printed on failure (``print_blob``); failing examples found so far are kept below as
explicit ``@example`` cases.
"""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pytest_subprocess import FakeProcess

from hermes_hooks.hooks import BINDINGS_BY_COMMAND
from hermes_hooks.runner import MAX_PAYLOAD_BYTES, run_hook

# What Hermes' plugin manager adds to every real fire (``hermes hooks test`` and ``doctor``
# bypass it): a payload without it and with the session ``test-session`` is Hermes' own test.
REAL_FIRE = {"telemetry_schema_version": "hermes.observer.v1"}
SETTINGS = settings(
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
COMMANDS = sorted(BINDINGS_BY_COMMAND)
# Text as JSON can carry it: any code point, lone surrogates included (Hermes can send half an
# emoji, escaped as \ud83d).
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=40)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | ANY_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
    max_leaves=12,
)


def replaced(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD, as the hook sends it."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def run(
    command: str, data: bytes, fp: FakeProcess, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str, list[dict[str, object]]]:
    """Run one hook in-process on ``data``, with every bridge call recorded by ``fp``."""
    sent: list[dict[str, object]] = []
    with fp.context() as fake:
        fake.register(
            ["hive-mind", "call", fake.any()],
            stdin_callable=lambda data: sent.append(json.loads(data)),
            occurrences=10,
        )
        code = run_hook(BINDINGS_BY_COMMAND[command], io.BytesIO(data))
    out, err = capsys.readouterr()
    return code, out, err, sent


@SETTINGS
@given(command=st.sampled_from(COMMANDS), data=st.binary(max_size=2048))
@example(command="stop", data=b"\xef\xbb\xbf{}")
@example(command="user-prompt-submit", data=b'{"extra": {"user_message": "\\ud83d"}}')
@example(command="user-prompt-submit", data=b'{"extra": {}, "x": ' + b"9" * 4301 + b"}")
@example(command="stop", data=b'{"extra": {"a": ' + b"[" * 5000 + b"]" * 5000 + b"}}")
@example(command="session-start", data=b"[" * 100_000)
def test_any_bytes_exit_0_quietly(
    command: str, data: bytes, fp: FakeProcess, capsys: pytest.CaptureFixture[str]
) -> None:
    """Any stdin up to the bound: exit 0, nothing on stdout, at most one line on stderr."""
    assert len(data) <= MAX_PAYLOAD_BYTES
    code, out, err, _ = run(command, data, fp, capsys)
    assert (code, out) == (0, "")
    assert err.count("\n") <= 1
    assert "Traceback" not in err


@SETTINGS
@given(
    session_id=ANY_TEXT,
    cwd=ANY_TEXT,
    user_message=ANY_TEXT.filter(bool),
    turn_id=ANY_TEXT,
    tool_input=JSON_VALUES,
    noise=st.dictionaries(
        st.sampled_from(["conversation_history", "task_id", "sender_id"]), JSON_VALUES
    ),
)
def test_any_hermes_prompt_payload_is_sent_with_its_fields(
    session_id: str,
    cwd: str,
    user_message: str,
    turn_id: str,
    tool_input: object,
    noise: dict[str, object],
    fp: FakeProcess,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A pre_llm_call payload of Hermes' shape gives one save_memory with the fields it carries."""
    payload = {
        "hook_event_name": "pre_llm_call",
        "tool_name": None,
        "tool_input": tool_input,
        "session_id": session_id,
        "cwd": cwd,
        # Every real fire carries the observer schema (only ``hermes hooks test`` lacks it).
        "extra": {**noise, "user_message": user_message, "turn_id": turn_id, **REAL_FIRE},
    }
    code, out, err, sent = run("user-prompt-submit", json.dumps(payload).encode(), fp, capsys)
    assert (code, out, err) == (0, "", "")
    assert sent == [
        {
            "content": replaced(user_message),
            "role": "user",
            "temporary": True,
            "session_id": replaced(session_id),
            "turn_id": replaced(turn_id),
            "source": "hermes",
        }
    ]


@SETTINGS
@given(model=ANY_TEXT, platform=ANY_TEXT, session_id=ANY_TEXT, cwd=ANY_TEXT)
def test_any_hermes_session_start_payload_is_sent_with_its_fields(
    model: str,
    platform: str,
    session_id: str,
    cwd: str,
    fp: FakeProcess,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An on_session_start payload gives one start_session with the fields it carries."""
    payload = {
        "hook_event_name": "on_session_start",
        "tool_name": None,
        "tool_input": None,
        "session_id": session_id,
        "cwd": cwd,
        "extra": {"model": model, "platform": platform, **REAL_FIRE},
    }
    code, out, err, sent = run("session-start", json.dumps(payload).encode(), fp, capsys)
    assert (code, out, err) == (0, "", "")
    assert sent == [
        {
            "session_id": replaced(session_id),
            "cwd": replaced(cwd),
            "model": replaced(model),
            "platform": replaced(platform),
            "source": "hermes",
        }
    ]


@SETTINGS
@given(value=JSON_VALUES)
def test_wire_json_reads_what_json_writes(value: object) -> None:
    """The hook's lean JSON reader gives json.loads' value for any JSON text."""
    from hermes_hooks.wire_json import loads

    text = json.dumps(value)
    assert repr(loads(text)) == repr(json.loads(text))


@SETTINGS
@given(text=st.text(st.sampled_from('{}[]",:0123456789.eE-+ \\truefalsn\n\ud83d'), max_size=40))
@example(text="0 0")  # found by this test: "Extra data" is reported after the blanks
def test_wire_json_fails_where_json_fails_at_the_same_place(text: str) -> None:
    """On any text, the lean reader and json.loads agree: the same value, or an error at the same line and column."""
    from hermes_hooks.wire_json import WireJSONError, loads

    try:
        expected: object = json.loads(text)
    except json.JSONDecodeError as e:
        expected = (e.lineno, e.colno)
    try:
        got: object = loads(text)
    except WireJSONError as e:
        got = (e.lineno, e.colno)
    assert repr(got) == repr(expected)


@SETTINGS
@given(
    arguments=st.dictionaries(ANY_TEXT, st.one_of(ANY_TEXT, st.booleans(), st.none()), max_size=6)
)
def test_wire_json_writes_what_json_writes(arguments: dict[str, object]) -> None:
    """The bridge's arguments are written exactly as json.dumps(ensure_ascii=False) would."""
    from hermes_hooks.wire_json import dumps_flat

    assert dumps_flat(arguments) == json.dumps(arguments, ensure_ascii=False)
