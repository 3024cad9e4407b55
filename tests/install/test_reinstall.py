"""Install is idempotent by meaning: an entry that runs this installation keeps its bytes.

Hermes keys consent on the exact command text, so rewriting an entry that already runs this
installation (another name of the same interpreter, its console script, an ``env`` prefix of
the user's) would switch capture off in every run without a terminal. Only an entry of ours
that runs another installation, or nothing, is updated, and the output says why.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from hermes_hooks.cli import main
from hermes_hooks.entries import hook_argv, hook_command
from hermes_hooks.installation import Installation, parse_our_command

MAIN = hook_argv("stop")[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def config_with(home: Path, **entries: str) -> Path:
    home.mkdir(exist_ok=True)
    config = home / "config.yaml"
    body = "".join(
        f"  {event}:\n    - command: {json.dumps(command)}\n" for event, command in entries.items()
    )
    config.write_text("hooks:\n" + body)
    return config


def other_name_of_this_interpreter(tmp_path: Path) -> str:
    """A venv's ``python3.11`` beside its ``python3``: a second name, one interpreter."""
    alias = tmp_path / "venv bin" / "python3.11"
    alias.parent.mkdir()
    alias.symlink_to(os.path.realpath(sys.executable))
    return str(alias)


def test_another_name_of_this_interpreter_is_left_byte_for_byte(
    hermes_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """After `pip install --force-reinstall` the console script names `python3.11`, the
    entries name `python3`: both run this installation; install changes nothing."""
    python = other_name_of_this_interpreter(tmp_path)
    commands = {
        event: f"'{python}' {MAIN} {sub}"
        for event, sub in (
            ("on_session_start", "session-start"),
            ("pre_llm_call", "user-prompt-submit"),
            ("post_llm_call", "stop"),
        )
    }
    config = config_with(hermes_home, **commands)
    before = config.read_bytes()
    code, out = run(capsys, "install", "--hermes-home", str(hermes_home))
    assert code == 0
    assert config.read_bytes() == before
    assert out.splitlines()[0] == f"hermes-hooks: already installed in {config}; nothing changed"
    assert "unchanged" in out.splitlines()[3]


def test_an_env_prefix_is_ours_and_kept(
    hermes_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`env WAGGLE_HERMES_COMPACT_ON_STOP=1 <our command>`: unchanged when it runs this
    installation; given the new command behind the same prefix when it runs another."""
    mine = f"env WAGGLE_HERMES_COMPACT_ON_STOP=1 {hook_command('stop')}"
    config = config_with(hermes_home, post_llm_call=mine)
    code, out = run(capsys, "install", "--hermes-home", str(hermes_home))
    assert code == 0
    assert "  post_llm_call:    unchanged " + mine in out
    config.write_text(config.read_text().replace(MAIN, "/old/venv/hermes_hooks/__main__.py"))
    code, out = run(capsys, "install", "--hermes-home", str(hermes_home))
    assert code == 0
    assert f"  post_llm_call:    updated   {mine} (was: " in out
    assert "because it ran nothing: /old/venv/hermes_hooks/__main__.py is not there" in out
    assert f"command: {json.dumps(mine)}" in config.read_text()
    code, out = run(capsys, "uninstall", "--hermes-home", str(hermes_home))
    assert code == 0
    assert "post_llm_call" not in config.read_text()


def test_another_working_installation_is_replaced_and_named(
    hermes_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An entry of another venv's launcher is updated, and the output names that venv."""
    other = tmp_path / "other-venv" / "hermes_hooks"
    other.mkdir(parents=True)
    (other / "__main__.py").write_text("")
    old = f"{sys.executable} {other / '__main__.py'} stop"
    config_with(hermes_home, post_llm_call=old)
    code, out = run(capsys, "install", "--hermes-home", str(hermes_home))
    assert code == 0
    lines = out.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("  post_llm_call:"))
    assert lines[i] == f"  post_llm_call:    updated   {hook_command('stop')} (was: {old})"
    assert lines[i + 1].strip() == f"because it ran the hermes-hooks in {other}"


def test_duplicates_are_merged_and_said(
    hermes_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two entries of ours on one event: the one that runs this installation stays, the
    other goes, and the output says a second entry was removed."""
    config = hermes_home / "config.yaml"
    hermes_home.mkdir()
    stop = hook_command("stop")
    config.write_text(
        "hooks:\n  post_llm_call:\n"
        "    - command: /old/bin/hermes-hooks stop\n"
        f"    - command: '{stop}'\n"
    )
    code, out = run(capsys, "install", "--hermes-home", str(hermes_home))
    assert code == 0
    lines = out.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("  post_llm_call:"))
    assert lines[i] == f"  post_llm_call:    updated   {stop} (was: /old/bin/hermes-hooks stop)"
    assert lines[i + 1].strip() == "because a second entry of ours removed"
    assert config.read_text().count("hermes-hooks stop") == 0
    assert f"command: '{stop}'" in config.read_text()


@pytest.mark.parametrize(
    ("command", "prefix", "argv"),
    [
        ("hermes-hooks stop", (), ("hermes-hooks", "stop")),
        (
            "env WAGGLE_MIND_CMD=mind X_Y=1 /v/bin/hermes-hooks stop",
            ("env", "WAGGLE_MIND_CMD=mind", "X_Y=1"),
            ("/v/bin/hermes-hooks", "stop"),
        ),
        (
            "/usr/bin/env A=1 /v/bin/python /v/lib/hermes_hooks/__main__.py session-start",
            ("/usr/bin/env", "A=1"),
            ("/v/bin/python", "/v/lib/hermes_hooks/__main__.py", "session-start"),
        ),
        (
            "nice -n 5 /v/bin/python3 -I -m hermes_hooks user-prompt-submit",
            ("nice", "-n", "5"),
            ("/v/bin/python3", "-I", "-m", "hermes_hooks", "user-prompt-submit"),
        ),
        ("env A=1 ./mine.sh stop", None, None),
        ("env -i hermes-hooks stop", ("env", "-i"), ("hermes-hooks", "stop")),
        (
            "env -u HOME A=1 hermes-hooks stop",
            ("env", "-u", "HOME", "A=1"),
            ("hermes-hooks", "stop"),
        ),
    ],
)
def test_which_env_prefixed_commands_are_ours(
    command: str, prefix: tuple[str, ...] | None, argv: tuple[str, ...] | None
) -> None:
    parsed = parse_our_command(command)
    if prefix is None:
        assert parsed is None
        return
    assert parsed is not None
    assert (parsed.prefix, parsed.argv) == (prefix, argv)


def test_the_corpus_choice_of_installation_is_injectable() -> None:
    """plan_install asks a function which installation an entry runs (tests give their own)."""
    from hermes_hooks.install import plan_install

    text = "hooks:\n  post_llm_call:\n    - command: /x/bin/hermes-hooks stop\n"
    entries = {"post_llm_call": "/new/bin/hermes-hooks stop"}
    same = plan_install(text, entries, which=lambda _: Installation("this", "/x/bin/hermes-hooks"))
    assert not same.changed
    moved = plan_install(text, entries, which=lambda _: Installation("another", "/x/lib"))
    assert moved.new == "hooks:\n  post_llm_call:\n    - command: /new/bin/hermes-hooks stop\n"


def test_a_wrapper_before_this_installation_is_ours_and_kept(
    hermes_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`nice -n 5 PYTHON -m hermes_hooks SUB` with this interpreter runs this installation:
    install leaves it byte for byte, wrapper and all."""
    import hermes_hooks

    # The interpreter asked imports the package these tests import, as a user's would.
    monkeypatch.setenv("PYTHONPATH", str(Path(hermes_hooks.__file__).parent.parent))
    command = f"nice -n 5 {sys.executable} -m hermes_hooks stop"
    config = config_with(hermes_home, post_llm_call=command)
    code, out = run(capsys, "install", "--hermes-home", str(hermes_home))
    assert code == 0
    assert f"  post_llm_call:    unchanged {command}" in out
    assert f"command: {json.dumps(command)}" in config.read_text()
