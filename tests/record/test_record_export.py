"""hooksim record export never writes a scenario that fails its own expectations.

Sessions are recorded the real way (``record start``, hooksim running the session through the
tapped hooks, ``record stop``) with hooks on some of a host's events. Either the export passes
``hooksim run`` as it is, or export refuses in one line: a recording without the host's prompt
event cannot tell one turn from the next.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.hosts import HOSTS

from .recordings import OWN_EVENTS, TAPPED, config_for, every_event, record

# Replies, tool calls, an interruption, a failed model call, both kinds of compaction, /new.
SESSION = """\
name: a session with a bit of everything
turns:
  - {user: hello there, assistant: hi}
  - {after: 2m, user: list the files, assistant: here they are, tools: [{name: Read, args: {file_path: /x}, result: x}, {name: Bash, args: {command: ls}, result: "a b"}]}
  - {after: 10s, user: stop that, interrupted: true}
  - {after: 1m, user: try again, error: 429}
  - {after: 1m, compact: manual, instructions: keep it short}
  - {after: 1m, user: and again, assistant: done}
  - {after: 1m, compact: auto}
  - {new_session: second}
  - {after: 30s, user: a new start, assistant: welcome back}
"""
# Which events are hooked, by lifecycle point ("own": the host's events beyond them).
WITH_PROMPT = {
    "every event": None,
    "the prompt only": ("prompt_submit",),
    "prompt, turn end, session": ("prompt_submit", "stop", "session_start", "session_end", "own"),
    "prompt, tools, compaction": (
        "prompt_submit",
        "pre_tool",
        "post_tool",
        "pre_compact",
        "post_compact",
    ),
}
WITHOUT_PROMPT = {
    "turn end and tools": ("stop", "pre_tool", "post_tool"),
    "session start and end": ("session_start", "session_end"),
}


def hooked(tool: str, points: tuple[str, ...] | None) -> list[str]:
    if points is None:
        return every_event(tool)
    events = HOSTS[tool].events
    own = OWN_EVENTS.get(tool, []) if "own" in points else []
    return [e for p in points if p != "own" and (e := events[p])] + own


# Real tapped sessions on every host and subset: tox -e slow runs them once per CI run.
@pytest.mark.slow
@pytest.mark.parametrize("tool", TAPPED)
@pytest.mark.parametrize("which", WITH_PROMPT)
def test_an_export_passes_its_own_expectations(
    tmp_path: Path, tool: str, which: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whatever else is hooked, with the prompt event the export replays as recorded."""
    config = config_for(tool, tmp_path, hooked(tool, WITH_PROMPT[which]))
    record(tool, config, SESSION, tmp_path / "rec")
    exported = tmp_path / "exported.yaml"
    assert main(["record", "export", str(tmp_path / "rec"), "-o", str(exported)]) == 0
    capsys.readouterr()
    assert main(["run", str(exported)]) == 0, exported.read_text() + capsys.readouterr().out


@pytest.mark.parametrize("tool", TAPPED)
@pytest.mark.parametrize("which", WITHOUT_PROMPT)
def test_an_export_that_cannot_tell_turns_apart_is_refused_in_one_line(
    tmp_path: Path, tool: str, which: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without the host's prompt event: exit 1, the missing event and the fix, no file."""
    config = config_for(tool, tmp_path, hooked(tool, WITHOUT_PROMPT[which]))
    record(tool, config, SESSION, tmp_path / "rec")
    capsys.readouterr()
    exported = tmp_path / "exported.yaml"
    assert main(["record", "export", str(tmp_path / "rec"), "-o", str(exported)]) == 1
    prompt = HOSTS[tool].events["prompt_submit"]
    assert capsys.readouterr().err == (
        f"hooksim record: no prompt event recorded ({prompt}): turns cannot be told apart;"
        " add a hook on it while recording\n"
    )
    assert not exported.exists()


def test_the_reported_session_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PreToolUse and Stop hooks, two turns: once exported as one turn that fired Stop twice."""
    config = config_for("claude-code", tmp_path, ["PreToolUse", "Stop"])
    session = (
        "name: two turns\nturns:\n  - {user: one, assistant: a, tools: [{shell: ls}]}\n"
        "  - {user: two, assistant: b}\n"
    )
    record("claude-code", config, session, tmp_path / "rec")
    capsys.readouterr()
    args = ["record", "export", str(tmp_path / "rec"), "-o", str(tmp_path / "my-session.yaml")]
    assert main(args) == 1
    assert capsys.readouterr().err == (
        "hooksim record: no prompt event recorded (UserPromptSubmit): turns cannot be told"
        " apart; add a hook on it while recording\n"
    )


# Secrets of each shape, and where the session below plants them.
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEsecretPEMbody\n-----END RSA PRIVATE KEY-----"
SECRETS = {
    "CLAUDE_PRIVATE_PASSPHRASE": "pp-SECRET-PASSPHRASE",
    "CLAUDE_DB_PWD": "pwd-SECRET-PWD",
    "CLAUDE_SIGNING_PRIVATE_PEM": "pem-SECRET-PEM",
    "CLAUDE_BEARER": "bearer-SECRET",
    "CLAUDE_SESSION_SIGNATURE": "sig-SECRET",
    "CLAUDE_NOTE": "sk-ant-api03-SECRETENVNOTE",  # a harmless name, a key's shape
}
IN_SESSION = [
    "sk-ant-api03-SECRETPROMPT",
    "ghp_SECRETTOOL0123",
    "github_pat_11SECRETPAT0123",
    "xoxb-1234-SECRETSLACK",
    "AKIAIOSFODNN7SECRET1",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJTRUNSRVQifQ.c2lnbmF0dXJl",
    "dXNlcjpTRUNSRVRCQVNJQw==",
    "MIIEsecretPEMbody",
]


def test_no_secret_is_written_anywhere_by_the_tap_stop_or_export(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Secrets in the host's variables, the prompt, a Bash command and a tool's result appear
    in no file of the recording once stopped, nor in the export, with or without --redact."""
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    session = {
        "name": "secrets",
        "turns": [
            {
                "user": "my key is sk-ant-api03-SECRETPROMPT, the slack one xoxb-1234-SECRETSLACK",
                "assistant": "noted, and AKIAIOSFODNN7SECRET1",
                "tools": [
                    {
                        "name": "Bash",
                        "args": {
                            "command": "curl -H 'Authorization: Bearer ghp_SECRETTOOL0123'"
                            " -H 'Authorization: Basic dXNlcjpTRUNSRVRCQVNJQw==' https://x"
                        },
                        "result": f"{PEM}\ntoken github_pat_11SECRETPAT0123 and"
                        " eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJTRUNSRVQifQ.c2lnbmF0dXJl",
                    }
                ],
            }
        ],
    }
    out = tmp_path / "rec"
    record("claude-code", config_for("claude-code", tmp_path), json.dumps(session), out)
    written = [f for f in out.rglob("*") if f.is_file()]
    for redact in ([], ["--redact"]):
        exported = tmp_path / f"e{len(redact)}.yaml"
        assert main(["record", "export", str(out), "-o", str(exported), *redact]) == 0
        written.append(exported)
    assert any(b"Bearer <redacted>" in f.read_bytes() for f in written)
    assert any(b"CLAUDE_NOTE=<redacted>" in f.read_bytes() for f in out.glob("*.ctx"))
    for file in written:
        data = file.read_bytes()
        for secret in [*SECRETS.values(), *IN_SESSION]:
            assert secret.encode() not in data, (file.name, secret)
