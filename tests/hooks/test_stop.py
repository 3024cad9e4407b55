"""The hook entry points in-process: the design's integration cases (§6.2, 9-12) and the runner."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from freezegun import freeze_time
from pytest_subprocess import FakeProcess

from hermes_hooks.cli import main
from tests.payloads import prompt_payload, session_start_payload, stop_payload

SAVE = ["hive-mind", "call", "save_memory"]
CLEANUP = ["hive-mind", "call", "cleanup_frames"]
START = ["hive-mind", "call", "start_session"]
NOW = "2026-06-01T09:00:00Z"


def run(argv: list[str], stdin: bytes, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    return main(argv)


@pytest.fixture(autouse=True)
def _home(monkeypatch: pytest.MonkeyPatch, hermes_home: Path) -> None:
    monkeypatch.setenv("HERMES_HOME", str(hermes_home))


@pytest.fixture
def enabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WAGGLE_HERMES_COMPACT_ON_STOP", "1")


def tools(fp: FakeProcess) -> list[str]:
    return [str(list(call)[-1]) for call in fp.calls]


def test_9_default_off_saves_and_never_compacts(
    fp: FakeProcess,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    hermes_home: Path,
) -> None:
    """Flag unset: the response is saved exactly as before and cleanup_frames is never called."""
    received: list[bytes] = []
    fp.register(SAVE, stdin_callable=received.append)
    assert run(["stop"], stop_payload("Forty-two."), monkeypatch) == 0
    assert tools(fp) == ["save_memory"]
    assert json.loads(received[0]) == {
        "content": "Forty-two.",
        "role": "assistant",
        "temporary": False,
        "session_id": "s1",
        "turn_id": "turn-1",
        "source": "hermes",
    }
    assert capsys.readouterr() == ("", "")
    assert not hermes_home.exists()


@freeze_time(NOW)
def test_10_saves_before_compacting(
    enabled: None,
    fp: FakeProcess,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Flag on and due: save_memory runs first, then cleanup_frames."""
    fp.register(SAVE)
    fp.register(CLEANUP)
    assert run(["stop"], stop_payload(), monkeypatch) == 0
    assert tools(fp) == ["save_memory", "cleanup_frames"]
    assert capsys.readouterr().out == ""


@freeze_time(NOW)
def test_11_failed_compaction_still_exits_zero(
    enabled: None,
    fp: FakeProcess,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """cleanup_frames fails: exit 0, the save happened once, one line on stderr, nothing on stdout."""
    fp.register(SAVE)
    fp.register(CLEANUP, returncode=3, stderr="mind busy")
    assert run(["stop"], stop_payload(), monkeypatch) == 0
    assert tools(fp) == ["save_memory", "cleanup_frames"]
    out, err = capsys.readouterr()
    assert out == ""
    assert (
        err
        == "hermes-hooks stop: compaction failed: hive-mind call cleanup_frames exited 3: mind busy\n"
    )


@pytest.mark.parametrize("response", [None, "", 42, ["a"]])
@freeze_time(NOW)
def test_12_no_response_still_compacts(
    response: object, enabled: None, fp: FakeProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No assistant text to save: nothing is saved, and compaction still runs when due."""
    fp.register(CLEANUP)
    assert run(["stop"], stop_payload(response), monkeypatch) == 0
    assert tools(fp) == ["cleanup_frames"]


@freeze_time(NOW)
def test_failed_save_skips_compaction(
    enabled: None,
    fp: FakeProcess,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A save that failed skips compaction: the capture is the priority, maintenance comes after."""
    fp.register(SAVE, returncode=1, stderr="disk full\nmore detail")
    assert run(["stop"], stop_payload(), monkeypatch) == 0
    assert tools(fp) == ["save_memory"]
    assert capsys.readouterr() == (
        "",
        "hermes-hooks stop: hive-mind call save_memory exited 1: disk full\n",
    )


def test_user_prompt_is_saved_as_a_temporary_frame(
    fp: FakeProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pre_llm_call saves the user's message as a temporary user frame."""
    received: list[bytes] = []
    fp.register(SAVE, stdin_callable=received.append)
    payload = prompt_payload("Où est la gare? 🚉", turn_id="t7", session_id="sess-9")
    assert run(["user-prompt-submit"], payload, monkeypatch) == 0
    assert json.loads(received[0]) == {
        "content": "Où est la gare? 🚉",
        "role": "user",
        "temporary": True,
        "session_id": "sess-9",
        "turn_id": "t7",
        "source": "hermes",
    }


@pytest.mark.parametrize("message", ["", None, 7])
def test_empty_prompt_saves_nothing(
    message: object, fp: FakeProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A prompt without text (e.g. an image-only turn) is not saved as an empty frame."""
    assert run(["user-prompt-submit"], prompt_payload(message), monkeypatch) == 0
    assert list(fp.calls) == []


def test_session_start_tells_the_mind(fp: FakeProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    """on_session_start calls start_session with the session, cwd, model and platform."""
    received: list[bytes] = []
    fp.register(START, stdin_callable=received.append)
    payload = session_start_payload(
        session_id="s42", cwd="/home/u/proj", model="m1", platform="telegram"
    )
    assert run(["session-start"], payload, monkeypatch) == 0
    assert json.loads(received[0]) == {
        "session_id": "s42",
        "cwd": "/home/u/proj",
        "model": "m1",
        "platform": "telegram",
        "source": "hermes",
    }


def test_stop_never_compacts_from_other_events(
    enabled: None, fp: FakeProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only Stop runs the gate: prompts and session starts never compact."""
    fp.register(SAVE)
    fp.register(START)
    assert run(["user-prompt-submit"], prompt_payload(), monkeypatch) == 0
    assert run(["session-start"], session_start_payload(), monkeypatch) == 0
    assert tools(fp) == ["save_memory", "start_session"]


BAD_STDIN = [
    (b"", "empty payload on stdin"),
    (b"   \n", "empty payload on stdin"),
    (b"{not json", "payload is not valid JSON (line 1, column 2)"),
    (b"[1, 2]", "payload is not a JSON object (got list)"),
    (b'"text"', "payload is not a JSON object (got str)"),
    (b'{"hook_event_name": "post_llm_call"}', "payload has no 'extra' object"),
    (b'{"hook_event_name": "post_llm_call", "extra": []}', "payload has no 'extra' object"),
    (b"\xff\xfe{}", "payload is not UTF-8 (byte 0)"),
]


@pytest.mark.parametrize(("stdin", "message"), BAD_STDIN)
@pytest.mark.parametrize("command", ["stop", "user-prompt-submit", "session-start"])
def test_bad_stdin_is_one_line_and_exit_zero(
    command: str,
    stdin: bytes,
    message: str,
    enabled: None,
    fp: FakeProcess,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every kind of bad stdin: one line on stderr, nothing on stdout, no bridge call, exit 0."""
    assert run([command], stdin, monkeypatch) == 0
    assert capsys.readouterr() == ("", f"hermes-hooks {command}: {message}\n")
    assert list(fp.calls) == []


def test_oversized_payload_is_refused_in_one_line(
    fp: FakeProcess, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Beyond the 64 MiB bound the payload is refused, not half-parsed."""
    from hermes_hooks import runner

    monkeypatch.setattr(runner, "MAX_PAYLOAD_BYTES", 100)
    assert run(["stop"], stop_payload("x" * 200), monkeypatch) == 0
    assert capsys.readouterr() == (
        "",
        "hermes-hooks stop: payload larger than 100 bytes; ignored\n",
    )


def test_large_payload_within_the_bound_is_saved(
    fp: FakeProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long session's payload (here 8 MiB of history) is still read and saved."""
    fp.register(SAVE)
    history = [{"role": "user", "content": "y" * 1024}] * 8191
    history.append({"role": "assistant", "content": "done"})
    assert run(["stop"], stop_payload("done", conversation_history=history), monkeypatch) == 0
    assert tools(fp) == ["save_memory"]


@pytest.mark.parametrize(
    ("stdout", "reason"),
    [
        ("not json", "printed something other than one JSON object"),
        ("[1]", "printed something other than one JSON object"),
        ('{"a": 1}\n{"b": 2}', "printed something other than one JSON object"),
    ],
)
def test_bridge_with_other_stdout_is_a_failed_call(
    stdout: str,
    reason: str,
    fp: FakeProcess,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Exit 0 with stdout that is not empty or one JSON object counts as a failure."""
    fp.register(SAVE, stdout=stdout)
    assert run(["stop"], stop_payload(), monkeypatch) == 0
    assert capsys.readouterr().err == f"hermes-hooks stop: hive-mind call save_memory {reason}\n"


def test_bridge_not_found(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A mind command that does not exist is one line naming it and the variable to set."""
    monkeypatch.setenv("WAGGLE_MIND_CMD", str(tmp_path / "no-such-mind"))
    assert run(["stop"], stop_payload(), monkeypatch) == 0
    assert capsys.readouterr() == (
        "",
        f"hermes-hooks stop: {tmp_path / 'no-such-mind'} call save_memory: command not found"
        " (set WAGGLE_MIND_CMD)\n",
    )


def test_bridge_not_executable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A mind command without the exec bit is one line, not a traceback."""
    script = tmp_path / "mind"
    script.write_text("#!/bin/sh\nexit 0\n")
    monkeypatch.setenv("WAGGLE_MIND_CMD", str(script))
    assert run(["stop"], stop_payload(), monkeypatch) == 0
    assert (
        capsys.readouterr().err
        == f"hermes-hooks stop: {script} call save_memory: command not executable\n"
    )


def test_unparseable_mind_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mind command with an unclosed quote is reported, not raised."""
    monkeypatch.setenv("WAGGLE_MIND_CMD", "mind 'unclosed")
    assert run(["stop"], stop_payload(), monkeypatch) == 0
    assert capsys.readouterr().err == (
        "hermes-hooks stop: WAGGLE_MIND_CMD cannot be parsed (No closing quotation)\n"
    )


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """A typo'd subcommand is not a hook run: it prints usage and exits 2."""
    assert main(["stopp"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'stopp'" in err


def test_help_lists_the_bindings(capsys: pytest.CaptureFixture[str]) -> None:
    """--help names the three hook commands and the Hermes events they bind."""
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for line in (
        "session-start",
        "on_session_start",
        "user-prompt-submit",
        "pre_llm_call",
        "stop",
        "post_llm_call",
    ):
        assert line in out


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (RuntimeError("boom"), "internal error: RuntimeError: boom"),
        (PermissionError(13, "Permission denied", "/x/y"), "Permission denied: /x/y"),
        (KeyboardInterrupt(), "interrupted"),
    ],
)
def test_unexpected_errors_become_one_line(
    error: BaseException,
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Even a bug in a handler is one line on stderr and exit 0, never a traceback."""
    from hermes_hooks.hooks import BINDINGS_BY_COMMAND, Binding

    def broken(*args: object) -> None:
        raise error

    monkeypatch.setitem(
        BINDINGS_BY_COMMAND, "stop", Binding("stop", "post_llm_call", broken, "broken")
    )
    assert run(["stop"], stop_payload(), monkeypatch) == 0
    assert capsys.readouterr() == ("", f"hermes-hooks stop: {message}\n")


def test_hook_command_with_extra_arguments_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """`hermes-hooks stop extra` is a config mistake: a usage error naming the argument, exit 2."""
    assert main(["stop", "extra"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.endswith("hermes-hooks: error: unrecognized arguments: extra\n")


EXPLANATION = (
    "\u26a0\ufe0f No reply: the model returned empty content after retries and any fallback "
    "providers. Try `continue`, switch model/provider, or inspect the tool output above."
)


def _turn(*messages: dict[str, object]) -> list[dict[str, object]]:
    return [{"role": "user", "content": "What is the answer?"}, *messages]


@freeze_time(NOW)
@pytest.mark.parametrize(
    ("response", "history", "saved"),
    [
        pytest.param(
            EXPLANATION,
            _turn({"role": "assistant", "content": "(empty)", "_empty_terminal_sentinel": True}),
            None,
            id="empty-reply-explained",
        ),
        pytest.param(
            EXPLANATION,
            _turn({"role": "assistant", "content": "(empty)"}),
            None,
            id="empty-sentinel-without-its-flag",
        ),
        pytest.param(
            "The\n\n" + EXPLANATION,
            _turn({"role": "assistant", "content": "The"}),
            "The",
            id="fragment-then-explanation",
        ),
        pytest.param(
            "Edited both files.\n\n\u26a0\ufe0f 1 file edit failed: a.py",
            _turn({"role": "assistant", "content": "Edited both files.  "}),
            "Edited both files.",
            id="failed-edit-footer",
        ),
        pytest.param(
            "I apologize, but I encountered repeated errors: boom",
            _turn(
                {
                    "role": "assistant",
                    "content": "I apologize, but I encountered repeated errors: boom",
                }
            ),
            None,
            id="hermes-error-message",
        ),
        pytest.param(
            EXPLANATION,
            _turn(
                {"role": "assistant", "tool_calls": [{"id": "c1"}]},
                {"role": "tool", "content": "{}"},
            ),
            None,
            id="turn-ended-on-a-tool-result",
        ),
        pytest.param(EXPLANATION, [], None, id="explanation-without-history"),
        pytest.param(
            EXPLANATION,
            _turn(),
            None,
            id="sentinel-popped-history-ends-with-the-user-message",
        ),
        pytest.param(
            EXPLANATION,
            _turn({"role": "assistant", "content": EXPLANATION}),
            None,
            id="explanation-as-an-assistant-message",
        ),
        pytest.param(
            "It is 42.",
            _turn({"role": "assistant", "content": "It is 42."}),
            "It is 42.",
            id="a-plain-reply",
        ),
        pytest.param(
            "Answer: \n\nsecond paragraph",
            _turn({"role": "assistant", "content": "Answer: \n\nsecond paragraph"}),
            "Answer: \n\nsecond paragraph",
            id="a-reply-with-blank-lines",
        ),
        pytest.param(
            "It is 42.",
            _turn({"role": "assistant", "content": [{"type": "text", "text": "It is 42."}]}),
            "It is 42.",
            id="content-parts",
        ),
    ],
)
def test_stop_saves_only_what_the_assistant_said(
    response: str,
    history: list[dict[str, object]],
    saved: str | None,
    enabled: None,
    fp: FakeProcess,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Hermes' own text in the reply (explanation, footer, error) is not saved; the gate still runs."""
    received: list[bytes] = []
    fp.register(SAVE, stdin_callable=received.append)
    fp.register(CLEANUP)
    payload = stop_payload(response, conversation_history=history)
    assert run(["stop"], payload, monkeypatch) == 0
    assert capsys.readouterr() == ("", "")
    if saved is None:
        assert tools(fp) == ["cleanup_frames"]
    else:
        assert tools(fp) == ["save_memory", "cleanup_frames"]
        assert json.loads(received[0])["content"] == saved
