"""hooksim record and tap: a transparent tap, a config restored byte for byte, a round trip.

The tap's properties hold for both ways of starting it: ``hooksim tap`` by hand, and the command
line ``hooksim record start`` writes into a config (``tapped()``), started as the host starts it.
"""

from __future__ import annotations

import json
import os
import re
import select
import shlex
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest
from hooksim.cli import main
from hooksim.hosts import HOSTS
from hooksim.record.recording import Recorded, load_runs, tapped
from hooksim.record.redact import SECRET_NAMES
from hooksim.record.tap import HOST_PREFIXES, TAP_SH
from hooksim.replay.runner import run_scenario
from hooksim.scenario import load_scenario

from .recordings import TAPPED, config_for, record

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
TAPS = ("hooksim tap", "record start's command")
# How tap.sh runs a command line for each shell host (its case table), which the tests below
# hold equal to what tap.sh does and to each profile's argv(). Codex 0.169 runs /bin/bash -c.
SHELLS: dict[str, tuple[str, ...]] = {
    "claude-code": ("/bin/sh", "-c"),
    "codex": ("/bin/bash", "-c"),
    "cursor": ("/bin/sh", "-c"),
    "gemini-cli": ("bash", "-c"),
}
SH = Path(os.path.realpath("/bin/sh")).name
# A shell that lists a finished job as "Done(143)" or "Terminated" tells an exit status over
# 128 from a signal; bash lists nothing once the job is waited for.
TELLS_SIGNALS = SH in ("dash", "busybox")
RESETS_INT = SH == "bash" or (
    subprocess.run(
        ["env", "--default-signal=INT", "true"], capture_output=True, check=False
    ).returncode
    == 0
)


def _commands(config: Path) -> Iterator[str]:
    """Every hook command of a config file, as its host reads it (YAML may fold long lines)."""
    from ruamel.yaml import YAML

    data = YAML(typ="safe", pure=True).load(config.read_text())  # JSON is YAML too

    def walk(node: object) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "command" and isinstance(value, str):
                    yield value
                else:
                    yield from walk(value)
        elif isinstance(node, list):
            for item in node:
                yield from walk(item)

    yield from walk(data.get("hooks"))


def normalized(stdin: bytes) -> str:
    """A payload without what cannot be equal across two runs (work directories, uuids)."""
    text = stdin.decode()
    text = re.sub(r"/[^\"]*?hooksim-[a-z0-9_]+", "<workdir>", text)
    text = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uuid>", text)
    return re.sub(r":[0-9a-f]{8}\"", ':<hex>"', text)  # Hermes' turn_id ends in 8 random hex


@pytest.mark.parametrize("tool", TAPPED)
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
    commands = list(_commands(config))
    assert commands
    assert all(f"/bin/sh {TAP_SH} tap --log " in c for c in commands), "the shell tap, not Python"
    assert config.stat().st_mode & 0o777 == 0o640
    session = tmp_path / "session.yaml"
    session.write_text(SESSION)
    recorded = run_scenario(load_scenario(session), tool=tool, hooks_config=config)
    assert all(run.exit_code == 0 for run in recorded.runs), [r.stderr for r in recorded.runs]
    assert main(["record", "stop", "--out", str(out)]) == 0
    assert f"; {len(recorded.runs)} hook run(s) recorded in " in capsys.readouterr().out
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
    out = tmp_path / "rec"
    session = "name: s\nturns:\n  - {user: my secret plan, assistant: keep it safe}\n"
    record("codex", config_for("codex", tmp_path), session, out)
    exported = tmp_path / "e.yaml"
    assert main(["record", "export", str(out), "-o", str(exported), "--redact"]) == 0
    text = exported.read_text()
    assert "secret" not in text
    assert "user: xx xxxxxx xxxx" in text
    assert "assistant: xxxx xx xxxx" in text


def test_records_of_the_earlier_python_tap_still_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder of JSON records (one per run, as hooksim's Python tap wrote them) exports."""
    log = tmp_path / "old"
    log.mkdir()
    for n, (event, fields) in enumerate(
        [("UserPromptSubmit", {"prompt": "hi"}), ("Stop", {"last_assistant_message": "hello"})]
    ):
        payload = {"session_id": "s1", "cwd": str(tmp_path), "hook_event_name": event, **fields}
        entry = {
            "tool": "claude-code",
            "event": event,
            "argv": ["/bin/sh", "-c", "cat >/dev/null"],
            "command": "cat >/dev/null",
            "cwd": str(tmp_path),
            "env": {"CLAUDE_X": "1"},
            "stdin": json.dumps(payload),
            "started": 1780300800.0 + n,
            "monotonic": 100.0 + n,
            "ended": 1780300800.5 + n,
            "duration_s": 0.5,
            "exit_code": 0,
            "signal": None,
            "stdout": "",
            "stderr": "",
        }
        (log / f"{1780300800000000000 + n}-4242.json").write_text(json.dumps(entry))
    exported = tmp_path / "old.yaml"
    assert main(["record", "export", str(log), "--tool", "claude-code", "-o", str(exported)]) == 0
    assert "- user: hi\n  assistant: hello\n" in exported.read_text()
    assert main(["run", str(exported)]) == 0, capsys.readouterr().out


# --- the tap -------------------------------------------------------------------------------


def tap_argv(kind: str, log: Path, tool: str, original: list[str], event: str | None) -> list[str]:
    """The process that runs the tap: ``hooksim tap``, or ``tapped()``'s line as ``tool`` runs
    it (which always names the event)."""
    if kind == "hooksim tap":
        options = ["--log", str(log), "--tool", tool, *(["--event", event] if event else [])]
        return [*HOOKSIM, "tap", *options, "--", *original]
    command = shlex.join(original) if tool == "hermes" else original[0]
    return HOSTS[tool].argv(tapped(tool, event or "Stop", command, log), os.environ)


def tap(
    kind: str,
    tmp_path: Path,
    tool: str,
    *original: str,
    stdin: bytes = b"{}",
    event: str | None = "Stop",
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        tap_argv(kind, tmp_path / "log", tool, list(original), event),
        input=stdin,
        capture_output=True,
        env=env,
        check=False,
    )


def runs(tmp_path: Path) -> list[Recorded]:
    return load_runs(tmp_path / "log")


def readline(stream: IO[bytes]) -> bytes:
    """The next line of a child's output. The wait is a hang guard, not a timing: a tap that
    held the output back until the end would never give it."""
    ready, _, _ = select.select([stream], [], [], 60)
    assert ready, "no output: the tap holds it back"
    return stream.readline()


@pytest.mark.parametrize("kind", TAPS)
def test_the_tap_is_transparent(tmp_path: Path, kind: str) -> None:
    """The hook gets the same stdin, argv, environment and cwd; the host gets its stdout, stderr
    and exit code; the record has all of it."""
    script = (
        "import json, os, sys; d = sys.stdin.read()"
        "; print(d + '|' + '|'.join(sys.argv[1:]) + '|' + os.getcwd())"
        "; print(json.dumps(dict(os.environ), sort_keys=True)); print('err', file=sys.stderr)"
        "; sys.exit(3)"
    )
    payload = '{"hook_event_name": "Stop", "é": 1}'.encode()
    env = {**os.environ, "PWD": os.getcwd()}  # a shell keeps a PWD that names the cwd
    direct = subprocess.run(
        [sys.executable, "-c", script, "a b", "c"],
        input=payload,
        capture_output=True,
        env=env,
        check=False,
    )
    tapped_run = tap(
        kind,
        tmp_path,
        "hermes",
        sys.executable,
        "-c",
        script,
        "a b",
        "c",
        stdin=payload,
        event=None if kind == "hooksim tap" else "Stop",
        env=env,
    )
    assert (tapped_run.returncode, tapped_run.stderr) == (3, direct.stderr)
    assert tapped_run.stdout == direct.stdout
    (run,) = runs(tmp_path)
    assert run.event == "Stop"  # with no --event, the payload's hook_event_name
    assert run.stdin == payload
    assert run.argv == [sys.executable, "-c", script, "a b", "c"]
    assert run.command == shlex.join(run.argv)
    assert (run.exit_code, run.signal, run.stdout, run.stderr) == (
        3,
        None,
        direct.stdout.decode(),
        "err\n",
    )
    assert (run.tool, run.cwd) == ("hermes", os.getcwd())
    assert run.ended is not None
    assert run.started <= run.ended


@pytest.mark.parametrize("kind", TAPS)
def test_stdin_of_any_bytes_reaches_the_hook_and_the_record(tmp_path: Path, kind: str) -> None:
    """NUL bytes, invalid UTF-8, no final newline: byte for byte, both ways."""
    stdin = bytes(range(256)) * 300 + b"\x00\xff\xfe no newline"
    done = tap(kind, tmp_path, "hermes", "cat", stdin=stdin)
    assert (done.returncode, done.stdout, done.stderr) == (0, stdin, b"")
    (run,) = runs(tmp_path)
    assert run.stdin == stdin
    assert run.stdout == stdin.decode("utf-8", "replace")


@pytest.mark.parametrize("kind", TAPS)
def test_a_hook_that_leaves_its_stdin_unread_still_has_it_recorded(
    tmp_path: Path, kind: str
) -> None:
    """The hook exits without reading: it runs as without the tap, and the record has it all."""
    stdin = b"x" * 300_000
    done = tap(kind, tmp_path, "claude-code", "exit 4", stdin=stdin)
    assert (done.returncode, done.stdout, done.stderr) == (4, b"", b"")
    (run,) = runs(tmp_path)
    assert (run.stdin, run.exit_code) == (stdin, 4)


@pytest.mark.parametrize("kind", TAPS)
def test_output_reaches_the_host_as_it_comes(tmp_path: Path, kind: str) -> None:
    """The hook's first lines arrive while it still waits for more input, not at its end."""
    hook = 'echo first; echo first-err >&2; read line; echo "second $line"'
    argv = tap_argv(kind, tmp_path / "log", "claude-code", [hook], "Stop")
    with subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as process:
        assert process.stdin
        assert process.stdout
        assert process.stderr
        assert readline(process.stdout) == b"first\n"
        assert readline(process.stderr) == b"first-err\n"
        process.stdin.write(b"go\n")
        process.stdin.close()
        assert process.stdout.read() == b"second go\n"
        assert process.wait() == 0
    (run,) = runs(tmp_path)
    assert (run.stdin, run.stdout, run.stderr) == (b"go\n", "first\nsecond go\n", "first-err\n")


@pytest.mark.parametrize("kind", TAPS)
def test_a_hook_killed_by_a_signal_kills_the_tap_the_same_way(tmp_path: Path, kind: str) -> None:
    """The host sees the same wait status: killed by SIGTERM, not an exit code."""
    done = tap(kind, tmp_path, "claude-code", "kill -TERM $$")
    assert done.returncode == -signal.SIGTERM
    (run,) = runs(tmp_path)
    assert (run.exit_code, run.signal) == (None, signal.SIGTERM)


@pytest.mark.skipif(not TELLS_SIGNALS, reason=f"/bin/sh is {SH}, which lists no finished job")
@pytest.mark.parametrize("kind", TAPS)
def test_an_exit_status_over_128_stays_an_exit_status(tmp_path: Path, kind: str) -> None:
    """A hook that exits 143 exits 143 through the tap: it was not killed by SIGTERM."""
    done = tap(kind, tmp_path, "claude-code", "exit 143")
    assert done.returncode == 143
    (run,) = runs(tmp_path)
    assert (run.exit_code, run.signal) == (143, None)


SIGNALS = [signal.SIGTERM, signal.SIGHUP, signal.SIGINT]


@pytest.mark.parametrize("kind", TAPS)
@pytest.mark.parametrize("signum", SIGNALS, ids=[s.name for s in SIGNALS])
def test_term_int_and_hup_sent_to_the_tap_reach_the_hook(
    tmp_path: Path, kind: str, signum: signal.Signals
) -> None:
    """A host stopping the tap stops the hook: the hook handles the signal and exits its way."""
    if signum == signal.SIGINT and not RESETS_INT:
        pytest.skip(f"/bin/sh is {SH} and env has no --default-signal: the hook ignores INT")
    # A shell hook: a shell cannot trap a signal it was started with ignored. It runs its trap
    # once its foreground command (one short sleep) ends.
    name = signum.name.removeprefix("SIG")
    hook = f"trap 'echo got {name}; exit 7' {name}; echo ready; while :; do sleep 0.1; done"
    argv = tap_argv(kind, tmp_path / "log", "claude-code", [hook], "Stop")
    with subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE) as process:
        assert process.stdout
        assert readline(process.stdout) == b"ready\n"
        process.send_signal(signum)
        assert process.stdout.read() == f"got {name}\n".encode()
        assert process.wait() == 7
    (run,) = runs(tmp_path)
    assert run.exit_code == 7


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
@pytest.mark.parametrize("kind", TAPS)
@pytest.mark.parametrize("ignored", ["", "INT", "INT QUIT PIPE"])
def test_the_hook_gets_the_signal_dispositions_the_host_gave(
    tmp_path: Path, kind: str, ignored: str
) -> None:
    """Ignored and blocked signals are the hook's as they would be without the tap."""
    if kind == "hooksim tap" and "PIPE" in ignored:
        pytest.skip("Python ignores SIGPIPE from its start: hooksim tap gives the hook the default")
    if not RESETS_INT:
        pytest.skip(f"/bin/sh is {SH} and env has no --default-signal: the hook ignores INT")
    show = ["grep", "-E", "^Sig(Ign|Blk)", "/proc/self/status"]
    ignoring = ["/bin/sh", "-c", f"trap '' {ignored}; exec \"$@\"", "sh"]
    direct = subprocess.run([*ignoring, *show], capture_output=True, check=True)
    argv = tap_argv(kind, tmp_path / "log", "hermes", show, "Stop")
    through = subprocess.run([*ignoring, *argv], capture_output=True, check=True)
    assert through.stdout == direct.stdout


@pytest.mark.parametrize("kind", TAPS)
@pytest.mark.parametrize("tool", sorted(SHELLS))
def test_the_tap_runs_a_command_line_as_each_host_does(
    tmp_path: Path, kind: str, tool: str
) -> None:
    """Through that host's shell (SHELLS), the command line whole."""
    done = tap(kind, tmp_path, tool, 'echo "ran $1" && exit 2')
    assert (done.returncode, done.stdout) == (2, b"ran \n")
    (run,) = runs(tmp_path)
    assert run.argv == [*SHELLS[tool], 'echo "ran $1" && exit 2']
    assert run.command == 'echo "ran $1" && exit 2'


def test_the_tap_knows_each_shell_host_as_its_profile_does() -> None:
    """SHELLS (what tap.sh does, as the test above pins) says what each profile's argv() does."""
    env = {"SHELL": "/bin/zsh"}
    for tool, (shell, flag) in SHELLS.items():
        argv = HOSTS[tool].argv("x", env)
        assert argv[1:] == [flag, "x"]
        assert Path(argv[0]).name == Path(env["SHELL"] if shell == "$SHELL" else shell).name
    assert set(SHELLS) | {"hermes"} == set(TAPPED)


@pytest.mark.parametrize("kind", TAPS)
def test_the_host_variables_are_recorded_and_secret_values_are_not(
    tmp_path: Path, kind: str
) -> None:
    """Only the hosts' own variables, whatever their values hold; a secret-looking name's value
    is written nowhere in the log."""
    env = {name: value for name, value in os.environ.items() if not name.startswith(HOST_PREFIXES)}
    note = "it's \"quoted\"\nand $multi-line\\ \\'"
    env |= {
        "CURSOR_PROJECT_DIR": "/p",
        "CURSOR_API_KEY": "sk-1",
        "CLAUDE_NOTE": note,
        "CLAUDE_oauth_Token": "tok-2",
        "OTHER_TOKEN": "sk-3",
        "HERMES_EMPTY": "",
    }
    done = tap(kind, tmp_path, "cursor", 'echo "$CURSOR_PROJECT_DIR"', env=env)
    assert (done.returncode, done.stdout) == (0, b"/p\n")
    (run,) = runs(tmp_path)
    assert run.env == {
        "CLAUDE_NOTE": note,
        "CLAUDE_oauth_Token": "<redacted>",
        "CURSOR_API_KEY": "<redacted>",
        "CURSOR_PROJECT_DIR": "/p",
        "HERMES_EMPTY": "",
    }
    for file in (tmp_path / "log").iterdir():
        for secret in (b"sk-1", b"tok-2", b"sk-3"):
            assert secret not in file.read_bytes(), file


@pytest.mark.parametrize("kind", TAPS)
def test_hermes_commands_have_a_leading_tilde_expanded(tmp_path: Path, kind: str) -> None:
    """As Hermes does (os.path.expanduser): the record keeps the command as configured."""
    home = tmp_path / "home"
    home.mkdir()
    hook = home / "hook.sh"
    hook.write_text('#!/bin/sh\necho "ran $1"\n')
    hook.chmod(0o755)
    done = tap(kind, tmp_path, "hermes", "~/hook.sh", "x y", env={**os.environ, "HOME": str(home)})
    assert (done.returncode, done.stdout) == (0, b"ran x y\n")
    (run,) = runs(tmp_path)
    assert run.argv == [str(hook), "x y"]
    assert run.command == "'~/hook.sh' 'x y'"


@pytest.mark.parametrize("kind", TAPS)
def test_a_tap_that_cannot_write_its_log_still_runs_the_hook(tmp_path: Path, kind: str) -> None:
    """The hook runs as without the tap; the tap says so in one line."""
    (tmp_path / "file").write_text("")
    log = tmp_path / "file" / "log"
    argv = tap_argv(kind, log, "claude-code", ["cat; echo err >&2; exit 4"], "Stop")
    done = subprocess.run(argv, input=b"in", capture_output=True, check=False)
    assert (done.returncode, done.stdout) == (4, b"in")
    assert (
        done.stderr
        == f"hooksim tap: cannot write to {log}; the hook runs unrecorded\nerr\n".encode()
    )


def test_runs_are_numbered_in_the_order_they_start(tmp_path: Path) -> None:
    """One after another in order; at the same time each its own."""
    argv = tap_argv("record start's command", tmp_path / "log", "claude-code", ["cat"], "Stop")
    for n in range(3):
        subprocess.run(argv, input=f"{n}".encode(), capture_output=True, check=True)
    together = [
        subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL) for _ in range(8)
    ]
    for n, process in enumerate(together):
        process.communicate(f"at once {n}".encode())
    found = runs(tmp_path)
    assert [run.stdin for run in found[:3]] == [b"0", b"1", b"2"]
    assert sorted(run.stdin for run in found[3:]) == [f"at once {n}".encode() for n in range(8)]
    assert len({run.order for run in found}) == 11


@pytest.mark.parametrize(
    "argv", [[*HOOKSIM, "tap"], ["/bin/sh", str(TAP_SH), "tap"]], ids=["hooksim tap", "tap.sh"]
)
def test_tap_usage_errors_are_one_line_and_exit_2(argv: list[str]) -> None:
    """No '--' or no --log: the tap says what is missing."""
    for args, problem in (
        (["--tool", "codex"], "the original command goes after '--'"),
        (["--tool", "codex", "--", "x"], "--log DIR is required"),
        (["--log", "d", "--tool", "emacs", "--", "x"], "unknown tool 'emacs'"),
        (["--log", "d", "--tool", "codex", "--", "a", "b"], "after '--': the command's words"),
        (["--log", "--", "x"], "unknown option or missing value: --log"),
    ):
        done = subprocess.run([*argv, *args], capture_output=True, check=False)
        assert done.returncode == 2
        first, usage = done.stderr.decode().splitlines()
        assert first.startswith(f"hooksim tap: {problem}")
        assert usage.startswith("usage: hooksim tap --log DIR")


# Where each host keeps the hooks a user set up for all projects, under HOME (its docs).
USER_CONFIGS = {
    "hermes": ".hermes/config.yaml",
    "claude-code": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "cursor": ".cursor/hooks.json",
    "gemini-cli": ".gemini/settings.json",
}


@pytest.mark.parametrize("tool", TAPPED)
def test_record_start_taps_the_users_own_config_when_none_is_named(
    tmp_path: Path, tool: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    config = home / USER_CONFIGS[tool]
    config.parent.mkdir(parents=True)
    config_for(tool, tmp_path).rename(config)
    monkeypatch.setenv("HOME", str(home))
    out = tmp_path / "recording"
    assert main(["record", "start", "--tool", tool, "--out", str(out)]) == 0
    assert all(f"{TAP_SH} tap " in c for c in _commands(config))
    assert main(["record", "stop", "--out", str(out)]) == 0


def test_record_start_finds_hermes_config_where_hermes_home_points(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HERMES_HOME", str(tmp_path / "elsewhere"))
    (tmp_path / "elsewhere").mkdir()
    config = config_for("hermes", tmp_path / "elsewhere")
    out = tmp_path / "recording"
    assert main(["record", "start", "--tool", "hermes", "--out", str(out)]) == 0
    assert all(f"{TAP_SH} tap " in c for c in _commands(config))
    assert main(["record", "stop", "--out", str(out)]) == 0


def test_start_refuses_a_hermes_entry_shared_by_two_events(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An anchored hook entry used under two events is refused in one line naming its line;
    the config is left byte for byte (a tap can carry only one event's name)."""
    config = tmp_path / "config.yaml"
    text = (
        'shared: &s {command: "echo shared"}\n'
        "hooks:\n"
        "  pre_llm_call: [*s]\n"
        '  post_llm_call: [*s, {command: "echo two"}]\n'
    )
    config.write_text(text)
    args = ["--tool", "hermes", "--config", str(config), "--out", str(tmp_path / "r")]
    assert main(["record", "start", *args]) == 1
    assert capsys.readouterr().err == (
        f"hooksim record: {config}:1: this hook entry is shared (an anchor) by the events"
        " pre_llm_call and post_llm_call, and a tap can name only one; write it out under each"
        " event, then run this again; left unchanged\n"
    )
    assert config.read_text() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.yaml"]


def test_start_refuses_a_config_that_is_not_a_regular_file_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A FIFO or a device named by --config is one line, never a hang; a huge file is not
    read whole."""
    fifo, huge = tmp_path / "settings.json", tmp_path / "huge" / "settings.json"
    os.mkfifo(fifo)
    huge.parent.mkdir()
    with huge.open("wb") as f:
        f.truncate(64 << 20)  # sparse: no disk is used
    link = tmp_path / "link.json"
    link.symlink_to(fifo)
    for config, problem in (
        (fifo, f"{fifo} is a FIFO, not a regular file; left alone"),
        (link, f"{fifo} is a FIFO, not a regular file; left alone"),
        (Path("/dev/zero"), "/dev/zero is a device, not a regular file; left alone"),
        (huge, f"{huge}: larger than 16 MiB, not a config file; left unchanged"),
    ):
        args = ["--tool", "claude-code", "--config", str(config), "--out", str(tmp_path / "r")]
        assert main(["record", "start", *args]) == 1
        assert capsys.readouterr().err == f"hooksim record: {problem}\n"
    assert not (tmp_path / "r").exists()


def test_the_taps_secret_names_are_the_redaction_rules() -> None:
    """tap.sh's case pattern of secret names holds the words of redact.SECRET_NAMES."""
    text = TAP_SH.read_text()
    pattern = text[
        text.index("tap_name=${tap_pair%%=*}") : text.index('tap_pair="$tap_name=<redacted>"')
    ]
    words = re.findall(r"\*((?:\[\w\w\])+)\*", pattern)
    assert sorted("".join(w[1] for w in re.findall(r"\[\w\w\]", word)) for word in words) == sorted(
        SECRET_NAMES
    )
