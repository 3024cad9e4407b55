"""``hooksim fire HOST EVENT -- COMMAND``: one hook fired once as HOST fires it, and HOST's
reading of its output, the same reading a scenario run gives."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hooksim.cli import main

from ..console import console

ROOT = Path(__file__).parents[2]
PROBES = sorted((ROOT / "scenarios" / "probes").glob("*.yaml"))


def fire(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str, str]:
    """``hooksim fire WORDS``: its exit code, stdout and stderr."""
    code = main(["fire", *words])
    out, err = capsys.readouterr()
    return code, out, err


def fire_json(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, dict[str, Any]]:
    """``hooksim fire --json WORDS``: its exit code and its one JSON object."""
    code, out, err = fire(capsys, "--json", *words)
    assert err == ""
    return code, json.loads(out)


BLOCK = '{"decision": "block", "reason": "finish the tests"}'


@pytest.mark.parametrize(
    ("words", "reading"),
    [
        (
            ["hermes", "pre_tool_call", "--", "echo", '{"action": "block", "message": "no"}'],
            {"decision": "block", "reason": "no"},
        ),
        (
            ["claude-code", "UserPromptSubmit", "--", "echo", "plain context"],
            {"decision": "go on", "context": ["plain context"]},
        ),
        (
            ["codex", "Stop", "--", "echo", BLOCK],
            {"decision": "block", "reason": "finish the tests"},
        ),
        (
            ["cursor", "stop", "--", "echo", '{"followup_message": "and the docs"}'],
            {"decision": "follow-up", "followup": "and the docs"},
        ),
        (["gemini-cli", "AfterAgent", "--", "true"], {"decision": "go on", "context": []}),
    ],
    ids=["hermes", "claude-code", "codex", "cursor", "gemini-cli"],
)
def test_each_host_reads_its_hook(
    capsys: pytest.CaptureFixture[str], words: list[str], reading: dict[str, Any]
) -> None:
    """Each host fires the command on its event and reads its output as a scenario run does."""
    code, answer = fire_json(capsys, *words)
    assert code == 0
    assert {key: answer[key] for key in reading} == reading
    assert [hook["exit_code"] for hook in answer["hooks"]] == [0]


def test_openclaw_fires_the_plugins_of_its_config(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """OpenClaw's hooks run in its own process: ``--config`` names its plugins, and their
    handlers of the event run; a command after -- is refused in one line."""
    plugin = ROOT / "scenarios" / "openclaw" / "plugins" / "scripted"
    config = tmp_path / "openclaw.json"
    config.write_text(
        json.dumps(
            {
                "plugins": {
                    "load": {"paths": [str(plugin)]},
                    "entries": {
                        "scripted": {
                            "hooks": {"allowConversationAccess": True},
                            "config": {"handlers": [{"hook": "before_prompt_build"}]},
                        }
                    },
                }
            }
        )
    )
    code, answer = fire_json(capsys, "openclaw", "before_prompt_build", "--config", str(config))
    assert code == 0
    assert answer["event"] == "before_prompt_build"
    assert [hook["exit_code"] for hook in answer["hooks"]] == [0]
    assert answer["decision"] == "go on"
    code, out, err = fire(capsys, "openclaw", "before_prompt_build", "--", "true")
    assert (code, out) == (2, "")
    assert err == (
        "hooksim: fire: OpenClaw runs its hooks inside its own process, not as commands: give"
        " --config with a config file that loads them\n"
    )


def test_a_block_decision_is_printed_with_its_reason(capsys: pytest.CaptureFixture[str]) -> None:
    """A Stop hook printing a block: the timeline line, the reading and the decision, then what
    the model is given (Claude Code's wrapping of the reason); exit 0."""
    code, out, err = fire(capsys, "claude-code", "Stop", "--", "echo", BLOCK)
    assert (code, err) == (0, "")
    pad = " " * 38
    lines = out.splitlines()
    assert lines[:2] == [
        f"  turn   1  2026-06-01 09:00:00  Stop                 exit 0     echo '{BLOCK}'",
        f"{pad}Claude Code reads it as: block: finish the tests",
    ]
    assert lines[3:5] == [
        f"{pad}=> the model continues (continuation 1)",
        "decision: block: finish the tests",
    ]
    assert lines[5].startswith('context: "<system-reminder>\\n')
    assert lines[5].endswith('\\nStop hook feedback:\\nfinish the tests\\n</system-reminder>"')


def test_a_hook_exiting_2_blocks_with_its_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """On Claude Code, exit 2 from a PreToolUse hook denies the call with stderr as the reason:
    the hook ran and was read, so fire exits 0."""
    code, answer = fire_json(
        capsys, "claude-code", "PreToolUse", "--tool", "Bash", "--", "echo not here >&2; exit 2"
    )
    assert code == 0
    assert answer["decision"] == "block"
    assert answer["reason"] == "not here"
    assert answer["match"] == "Bash"
    assert answer["hooks"][0]["exit_code"] == 2


def test_a_gemini_cli_hook_printing_json_gives_context(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Gemini CLI reads a BeforeAgent hook's JSON: its additionalContext reaches the model."""
    said = {"hookSpecificOutput": {"hookEventName": "BeforeAgent", "additionalContext": "ctx-1"}}
    code, answer = fire_json(capsys, "gemini-cli", "BeforeAgent", "--", "echo", json.dumps(said))
    assert code == 0
    assert answer["hooks"][0]["context"] is not None
    assert "ctx-1" in answer["hooks"][0]["context"]
    assert answer["hooks"][0]["fault"] is None


def test_a_failed_hook_exits_1_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """A hook that crashes (a command not found) is a failure: fire exits 1 and names it."""
    code, out, err = fire(capsys, "claude-code", "Stop", "--", "no-such-command-here")
    assert (code, err) == (1, "")
    assert out.splitlines()[-1] == ("failed: no-such-command-here (the host counts it as failed)")


def test_refused_output_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    """Output Codex's strict schema refuses on PreToolUse: the hook ran, its answer counts for
    nothing, and fire exits 1."""
    code, answer = fire_json(
        capsys, "codex", "PreToolUse", "--", "echo", '{"suppressOutput": true}'
    )
    assert code == 1
    assert answer["hooks"][0]["fault"] == "refused"
    assert answer["decision"] == "go on"


def test_tool_and_input_fill_the_payload(capsys: pytest.CaptureFixture[str]) -> None:
    """``--tool`` and ``--input`` are the tool call the payload carries."""
    code, answer = fire_json(
        capsys,
        "claude-code",
        "PreToolUse",
        "--tool",
        "Bash",
        "--input",
        '{"command": "ls -a"}',
        "--",
        "true",
    )
    assert code == 0
    stdin = json.loads(answer["hooks"][0]["stdin"])
    assert (stdin["tool_name"], stdin["tool_input"]) == ("Bash", {"command": "ls -a"})


def test_payload_is_the_hooks_stdin(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``--payload FILE``: the file's bytes are the hook's stdin, as they are."""
    payload = tmp_path / "payload.json"
    payload.write_bytes(b'{"hook_event_name": "Stop", "odd": 1}')
    code, answer = fire_json(capsys, "claude-code", "Stop", "--payload", str(payload), "--", "true")
    assert code == 0
    assert answer["hooks"][0]["stdin"] == '{"hook_event_name": "Stop", "odd": 1}'


def test_config_fires_each_hook_the_event_selects_in_order(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--config``: every hook of the file on the event, in the host's order; the hooks of other
    events and of other tools do not run."""
    settings = tmp_path / "settings.json"
    settings.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [
                                {"type": "command", "command": "true"},
                                {"type": "command", "command": "true # two"},
                            ],
                        },
                        {"matcher": "Read", "hooks": [{"type": "command", "command": "echo read"}]},
                    ],
                    "Stop": [{"hooks": [{"type": "command", "command": "echo stop"}]}],
                }
            }
        )
    )
    code, answer = fire_json(
        capsys, "claude-code", "PreToolUse", "--tool", "Bash", "--config", str(settings)
    )
    assert code == 0
    assert [hook["command"] for hook in answer["hooks"]] == ["true", "true # two"]
    code, out, err = fire(capsys, "claude-code", "PreCompact", "--config", str(settings))
    assert (code, out) == (1, "")
    assert err == f"hooksim: fire: no hook of {settings} runs on PreCompact\n"


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (
            ["claud-code", "Stop", "--", "true"],
            "unknown host 'claud-code'; did you mean 'claude-code'?",
        ),
        (
            ["claude-code", "Stp", "--", "true"],
            "Claude Code has no event 'Stp' (did you mean 'Stop'?)",
        ),
        (
            ["codex", "Stop", "--input", "[1]", "--", "true"],
            '--input: give the tool\'s input as a JSON object, such as \'{"path": "a"}\'',
        ),
    ],
    ids=["host", "event", "input"],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], words: list[str], said: str
) -> None:
    """An unknown host or event gets the closest name; bad arguments one line; exit 2."""
    assert fire(capsys, *words) == (2, "", f"hooksim: fire: {said}\n")


# --- without a command: the hooks of the user's own configs ---------------------------------


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder as the working directory, HOME a folder beside it."""
    home, folder = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    folder.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("HERMES_HOME", raising=False)
    monkeypatch.chdir(folder)
    return folder


def script(path: Path, text: str) -> Path:
    """An executable shell script at ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\n{text}\n")
    path.chmod(0o755)
    return path


def settings(path: Path, event: str, *commands: str) -> None:
    """A Claude Code settings file with one matcher group of ``commands`` on ``event``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    hooks = [{"type": "command", "command": command} for command in commands]
    path.write_text(json.dumps({"hooks": {event: [{"hooks": hooks}]}}, indent=2))


def test_without_a_command_fire_runs_the_hooks_of_every_layer(
    capsys: pytest.CaptureFixture[str], project: Path
) -> None:
    """No command and no --config: the hooks of the user's and the project's settings fire, as
    Claude Code merges them; the scripts they name run from copies in the run's throwaway home
    and project, so the real ones are read, never written."""
    script(Path.home() / ".claude" / "hooks" / "user.sh", "touch user-ran; echo from-user")
    script(project / ".claude" / "hooks" / "project.sh", "touch project-ran; echo from-project")
    settings(
        Path.home() / ".claude" / "settings.json", "UserPromptSubmit", "~/.claude/hooks/user.sh"
    )
    settings(
        project / ".claude" / "settings.json",
        "UserPromptSubmit",
        '"$CLAUDE_PROJECT_DIR"/.claude/hooks/project.sh',
    )
    settings(project / ".claude" / "settings.local.json", "Stop", "echo not-this-event")
    code, answer = fire_json(capsys, "claude-code", "UserPromptSubmit")
    assert code == 0
    assert answer["configs"] == [
        "~/.claude/settings.json",
        ".claude/settings.json",
        ".claude/settings.local.json",
    ]
    assert sorted(answer["context"]) == ["from-project", "from-user"]
    assert [hook["exit_code"] for hook in answer["hooks"]] == [0, 0]
    assert sorted(p.name for p in project.iterdir()) == [".claude"]
    assert sorted(p.name for p in Path.home().iterdir()) == [".claude"]
    code, out, _ = fire(capsys, "claude-code", "UserPromptSubmit")
    assert code == 0
    assert out.startswith(
        "hooks from: ~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json\n"
    )


def test_without_a_command_fire_leaves_out_what_hermes_has_not_consented_to(
    capsys: pytest.CaptureFixture[str], project: Path
) -> None:
    """Hermes' config in HERMES_HOME: a hook its allowlist approves fires; one it does not is
    not fired (Hermes skips it without a terminal), and the answer says so."""
    home = Path.home() / ".hermes"
    home.mkdir()
    (home / "config.yaml").write_text(
        "hooks:\n  pre_llm_call:\n    - command: 'true'\n    - command: echo new\n"
    )
    approvals = [{"event": "pre_llm_call", "command": "true"}]
    (home / "shell-hooks-allowlist.json").write_text(json.dumps({"approvals": approvals}))
    code, answer = fire_json(capsys, "hermes", "pre_llm_call")
    assert code == 0
    assert [hook["command"] for hook in answer["hooks"]] == ["true"]
    assert answer["not_fired"] == [
        {
            "file": "~/.hermes/config.yaml",
            "line": 4,
            "event": "pre_llm_call",
            "command": "echo new",
            "why": answer["not_fired"][0]["why"],
        }
    ]
    assert "has not consented" in answer["not_fired"][0]["why"]
    code, out, _ = fire(capsys, "hermes", "pre_llm_call")
    assert "\nnot fired: ~/.hermes/config.yaml:4  echo new: Hermes has not consented" in out


def test_without_a_command_or_config_file_fire_says_where_it_looked(
    capsys: pytest.CaptureFixture[str], project: Path
) -> None:
    """No config in home or project: one line naming the files looked for, exit 2; a config
    whose hooks do not run on the event: exit 1, pointing to explain."""
    assert fire(capsys, "codex", "Stop") == (
        2,
        "",
        "hooksim: fire: no Codex CLI hooks config in ~/.codex/hooks.json, ~/.codex/config.toml,"
        " .codex/hooks.json, .codex/config.toml: give the hook after -- (hooksim fire HOST"
        " EVENT -- COMMAND), or --config FILE\n",
    )
    settings(project / ".claude" / "settings.json", "Stop", "true")
    assert fire(capsys, "claude-code", "PreCompact") == (
        1,
        "",
        "hooksim: fire: no hook of .claude/settings.json runs on PreCompact"
        " (hooksim explain claude-code PreCompact says why)\n",
    )


def test_the_console_script_fires_a_hook(tmp_path: Path) -> None:
    """The installed ``hooksim`` runs ``fire`` in a real process."""
    done = console("hooksim", "fire", "cursor", "stop", "--", "true", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.endswith("\ndecision: go on\n")


# --- fire answers as a scenario run does: every shipped probe ------------------------------

# The probe hooks fire cannot answer for, by probe and the start of the command, and why: what
# they print depends on more than the host, the event, the payload and their own output.
NOT_MAPPED = {
    ("claude-code-environment", 'kill -0 "$CLAUDE_PID"'): (
        "the probe runs Claude Code as claude -p (launch: print), whose variables say so;"
        " fire fires as the interactive host"
    ),
    ("claude-code-plugin-root-in-settings", "export CLAUDE_PLUGIN_ROOT="): (
        "the hook reads a file the probe seeds in the project (files:); fire's project is empty"
    ),
    ("gemini-cli-sequential-and-environment", "until [ -e .quick-ran ]"): (
        "the hook waits for another hook of the same firing, run beside it: fired with the"
        " probe's config, the test below"
    ),
}
# A hook's reading, as the run's report entry and fire's answer both give it.
READING = ("exit_code", "timed_out", "spawn_error", "context", "shown", "verdict")
WORKDIR = re.compile(r"/[^\s'\"]*hooksim-[A-Za-z0-9_]+")


def _first_firings(entry: dict[str, Any]) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """The first firing of each event in a run's report entry, with its awaited hook runs."""
    seen, found = set(), []
    for firing in entry["events"]:
        if firing["event"] in seen or not firing["hooks"] or not firing["waited"]:
            continue
        seen.add(firing["event"])
        runs = [
            hook
            for hook in entry["hooks"]
            if (hook["turn"], hook["event"], hook["virtual_ms"])
            == (firing["turn"], firing["event"], firing["virtual_ms"])
            and not hook["verdict"].startswith("not awaited")
        ][: firing["hooks"]]
        found.append((firing, runs))
    return found


def _reading(hook: dict[str, Any]) -> dict[str, Any]:
    return {
        key: WORKDIR.sub("WORKDIR", hook[key]) if isinstance(hook[key], str) else hook[key]
        for key in READING
    }


@pytest.mark.parametrize("probe", PROBES, ids=[p.stem for p in PROBES])
def test_fire_reads_each_probe_hook_as_the_probe_run_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, probe: Path
) -> None:
    """For each hook of the first firing of each event of a probe, ``fire`` with that hook's
    command, event and payload bytes gives the same reading as the probe's run."""
    report = tmp_path / "run.json"
    main(["run", str(probe), "--json", str(report), "--no-cache"])
    capsys.readouterr()
    # Each hook left out must still be in the probe, so that the list says what it is.
    unmet = {key for key in NOT_MAPPED if key[0] == probe.stem}
    for entry in json.loads(report.read_text()):
        for firing, runs in _first_firings(entry):
            for hook in runs:
                left_out = [
                    (stem, start)
                    for stem, start in NOT_MAPPED
                    if probe.stem == stem and hook["command"].startswith(start)
                ]
                if left_out:
                    unmet.difference_update(left_out)
                    continue
                payload = tmp_path / "payload"
                payload.write_text(hook["stdin"])
                _, answer = fire_json(
                    capsys,
                    entry["tool"],
                    firing["event"],
                    "--payload",
                    str(payload),
                    "--",
                    hook["command"],
                )
                assert _reading(answer["hooks"][0]) == _reading(hook), (firing, hook["command"])
    assert not unmet, f"NOT_MAPPED names hooks the probe no longer fires: {unmet}"


def test_fire_with_the_config_runs_a_firings_hooks_beside_each_other_as_the_run_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The hook NOT_MAPPED leaves out for waiting on its sibling: fired with ``--config`` (the
    probe's own hooks), Gemini CLI's two AfterAgent hooks run at once, and each reads as in
    the probe's run."""
    probe = ROOT / "scenarios" / "probes" / "gemini-cli-sequential-and-environment.yaml"
    report = tmp_path / "run.json"
    main(["run", str(probe), "--json", str(report), "--no-cache"])
    capsys.readouterr()
    (entry,) = json.loads(report.read_text())
    _, runs = next(f for f in _first_firings(entry) if f[0]["event"] == "AfterAgent")
    settings = tmp_path / "settings.json"
    hooks = yaml.safe_load(probe.read_text())["hooks"]
    settings.write_text(json.dumps({"hooks": {"AfterAgent": hooks["AfterAgent"]}}))
    payload = tmp_path / "payload"
    payload.write_text(runs[0]["stdin"])
    code, answer = fire_json(
        capsys, "gemini-cli", "AfterAgent", "--payload", str(payload), "--config", str(settings)
    )
    assert code == 0
    assert [_reading(hook) for hook in answer["hooks"]] == [_reading(hook) for hook in runs]
    assert len(runs) == 2
