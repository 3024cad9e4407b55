"""hooksim record and tap: a transparent tap, a config restored byte for byte, a round trip."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.hosts import HOSTS
from hooksim.record.tap import SHELLS
from hooksim.replay.runner import run_scenario
from hooksim.scenario import load_scenario

HOOKSIM = [sys.executable, "-m", "hooksim"]
SESSION = """\
name: a session to record
turns:
  - {user: hello there, assistant: hi}
  - {after: 2m, user: list the files, assistant: here they are, tools: [{name: Bash, args: {command: ls}, result: "a b"}]}
  - {after: 1m, compact: auto}
  - {after: 1m, user: and again, assistant: done}
  - {new_session: second}
  - {after: 30s, user: a new start, assistant: welcome back}
"""
HOOK = "cat > /dev/null; echo '{\"ok\": true}' >&2"


def config_for(tool: str, tmp_path: Path) -> Path:
    """A config file of ``tool`` with one hook on every event the host has."""
    host = HOSTS[tool]
    events = [e for e in host.events.values() if e]
    if tool == "hermes":
        path = tmp_path / "config.yaml"
        events += ["on_session_end", "on_session_reset"]
        lines = ["# my Hermes config", "model: hermes-4", "hooks:"]
        for event in events:
            command = json.dumps(f"sh -c {shlex.quote(HOOK)}")
            lines += [f"  {event}:", f"    - command: {command}  # {event}"]
        path.write_text("\n".join(lines) + "\n")
        return path
    name = "hooks.json" if tool in ("codex", "cursor") else "settings.json"
    if tool == "cursor":
        hooks: dict[str, object] = {e: [{"command": HOOK}] for e in [*events, "afterAgentResponse"]}
        data: dict[str, object] = {"version": 1, "hooks": hooks}
    else:
        data = {"hooks": {e: [{"hooks": [{"type": "command", "command": HOOK}]}] for e in events}}
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=4) + "\n")
    return path


def normalized(stdin: bytes) -> str:
    """A payload without what cannot be equal across two runs (work directories, uuids)."""
    text = stdin.decode()
    text = re.sub(r"/[^\"]*?hooksim-[a-z0-9_]+", "<workdir>", text)
    text = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uuid>", text)
    return re.sub(r":[0-9a-f]{8}\"", ':<hex>"', text)  # Hermes' turn_id ends in 8 random hex


@pytest.mark.parametrize("tool", sorted(HOSTS))
def test_a_tapped_session_exports_to_a_scenario_that_replays_it(
    tmp_path: Path, tool: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Record, restore, export, replay: the same events fire with the same payloads."""
    config = config_for(tool, tmp_path)
    original = config.read_bytes()
    config.chmod(0o640)
    out = tmp_path / "recording"
    assert (
        main(["record", "start", "--tool", tool, "--config", str(config), "--out", str(out)]) == 0
    )
    told = capsys.readouterr().out
    assert told.startswith("hooksim: recording ")
    assert ("--accept-hooks" in told) == (tool == "hermes")  # Hermes' consent is per command
    assert config.read_bytes() != original
    assert config.stat().st_mode & 0o777 == 0o640
    session = tmp_path / "session.yaml"
    session.write_text(SESSION)
    recorded = run_scenario(load_scenario(session), tool=tool, hooks_config=config)
    assert all(run.exit_code == 0 for run in recorded.runs), [r.stderr for r in recorded.runs]
    assert main(["record", "stop", "--out", str(out)]) == 0
    assert config.read_bytes() == original, "stop puts the original back byte for byte"
    assert not Path(str(config) + ".hooksim-record.bak").exists()
    exported = tmp_path / "exported.yaml"
    assert main(["record", "export", str(out), "-o", str(exported)]) == 0
    capsys.readouterr()
    replay = run_scenario(load_scenario(exported))
    # As multisets: hooks of events a host does not wait for start in no fixed order.
    assert sorted((r.event, normalized(r.stdin)) for r in replay.runs) == sorted(
        (r.event, normalized(r.stdin)) for r in recorded.runs
    )
    assert main(["run", str(exported)]) == 0, capsys.readouterr().out


def test_stop_refuses_a_config_changed_since_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A config edited during the recording is left alone, in one line that names the backup."""
    config = config_for("claude-code", tmp_path)
    out = tmp_path / "rec"
    assert (
        main(
            ["record", "start", "--tool", "claude-code", "--config", str(config), "--out", str(out)]
        )
        == 0
    )
    config.write_text(config.read_text() + " ")
    assert main(["record", "stop", "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"hooksim record: {config}: changed since hooksim record start")
    assert "\n" not in err
    assert main(["record", "stop", "--out", str(out), "--force"]) == 0


def test_start_refuses_a_config_without_hooks_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing to tap, or a file that does not parse: one line, exit 1, file untouched."""
    for text, problem in (("{}", "no command hooks to record"), ("{oops", "not valid JSON")):
        config = tmp_path / "settings.json"
        config.write_text(text)
        args = ["record", "start", "--tool", "gemini-cli", "--config", str(config)]
        assert main([*args, "--out", str(tmp_path / "r")]) == 1
        assert problem in capsys.readouterr().err
        assert config.read_text() == text


def test_export_redacts_prompts_and_replies_keeping_their_shape(tmp_path: Path) -> None:
    """--redact: every visible character of user and assistant text becomes x."""
    config = config_for("codex", tmp_path)
    out = tmp_path / "rec"
    main(["record", "start", "--tool", "codex", "--config", str(config), "--out", str(out)])
    session = tmp_path / "s.yaml"
    session.write_text("name: s\nturns:\n  - {user: my secret plan, assistant: keep it safe}\n")
    run_scenario(load_scenario(session), tool="codex", hooks_config=config)
    main(["record", "stop", "--out", str(out)])
    exported = tmp_path / "e.yaml"
    assert main(["record", "export", str(out), "-o", str(exported), "--redact"]) == 0
    text = exported.read_text()
    assert "secret" not in text
    assert "user: xx xxxxxx xxxx" in text
    assert "assistant: xxxx xx xxxx" in text


def tap(
    tmp_path: Path, tool: str, *original: str, stdin: bytes = b"{}", **env: str
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*HOOKSIM, "tap", "--log", str(tmp_path / "log"), "--tool", tool, "--", *original],
        input=stdin,
        capture_output=True,
        env={**os.environ, **env},
        check=False,
    )


def records(tmp_path: Path) -> list[dict[str, object]]:
    return [json.loads(p.read_text()) for p in sorted((tmp_path / "log").glob("*.json"))]


def test_the_tap_is_transparent(tmp_path: Path) -> None:
    """The hook gets the same stdin, argv and cwd; the host gets its stdout, stderr and exit code."""
    script = 'import os, sys; d = sys.stdin.read(); print(d + "|" + "|".join(sys.argv[1:]) + "|" + os.getcwd()); print("err", file=sys.stderr); sys.exit(3)'
    payload = '{"hook_event_name": "Stop", "é": 1}'.encode()
    direct = subprocess.run(
        [sys.executable, "-c", script, "a b", "c"], input=payload, capture_output=True, check=False
    )
    tapped = tap(tmp_path, "hermes", sys.executable, "-c", script, "a b", "c", stdin=payload)
    assert (tapped.returncode, tapped.stdout, tapped.stderr) == (3, direct.stdout, direct.stderr)
    (entry,) = records(tmp_path)
    assert entry["event"] is None  # no --event: export reads the payload's hook_event_name
    assert entry["stdin"] == payload.decode()
    assert entry["argv"] == [sys.executable, "-c", script, "a b", "c"]
    assert (entry["exit_code"], entry["stdout"], entry["stderr"]) == (
        3,
        direct.stdout.decode(),
        "err\n",
    )
    assert entry["cwd"] == os.getcwd()


def test_the_tap_runs_a_command_line_as_the_host_does_and_redacts_secrets(tmp_path: Path) -> None:
    """A shell host's command line goes through that host's shell; secret values are not kept."""
    done = tap(
        tmp_path,
        "cursor",
        'echo "$CURSOR_PROJECT_DIR" && exit 2',
        CURSOR_PROJECT_DIR="/p",
        CURSOR_API_KEY="sk-1",
    )
    assert (done.returncode, done.stdout) == (2, b"/p\n")
    (entry,) = records(tmp_path)
    assert entry["argv"][:2] == list(SHELLS["cursor"])  # type: ignore[index]
    assert entry["env"] == {"CURSOR_API_KEY": "<redacted>", "CURSOR_PROJECT_DIR": "/p"}


def test_a_hook_killed_by_a_signal_kills_the_tap_the_same_way(tmp_path: Path) -> None:
    """The host sees the same wait status: killed by SIGTERM, not an exit code."""
    done = tap(tmp_path, "claude-code", "kill -TERM $$")
    assert done.returncode == -signal.SIGTERM
    (entry,) = records(tmp_path)
    assert (entry["exit_code"], entry["signal"]) == (None, signal.SIGTERM)


def test_the_tap_knows_each_shell_host_as_its_profile_does() -> None:
    """SHELLS (the tap stays lean) says what each profile's argv() does."""
    env = {"SHELL": "/bin/zsh"}
    for tool, (shell, flag) in SHELLS.items():
        argv = HOSTS[tool].argv("x", env)
        assert argv[1:] == [flag, "x"]
        assert Path(argv[0]).name == Path(env["SHELL"] if shell == "$SHELL" else shell).name
    assert set(SHELLS) | {"hermes"} == set(HOSTS)


def test_tap_usage_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    """No '--' or no --log: the tap says what is missing."""
    done = subprocess.run([*HOOKSIM, "tap", "--tool", "codex"], capture_output=True, check=False)
    assert done.returncode == 2
    assert done.stderr.decode().startswith("hooksim tap: the original command goes after '--'")
