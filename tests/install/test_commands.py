"""`hermes-hooks install` and `uninstall` on real files: summary, safety rules, exit codes."""

from __future__ import annotations

import os
import shlex
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from hermes_hooks.cli import main
from hermes_hooks.entries import hook_command
from tests.processes import dead_pid

CONFIGS = Path(__file__).parent / "configs"
START = hook_command("session-start")
PROMPT = hook_command("user-prompt-submit")
STOP = hook_command("stop")
CONSENT = (
    "Consent: Hermes asks once for each hook, the first time it starts with it (a run without "
    "a terminal skips a hook not yet approved). Pre-approve: run `hermes --accept-hooks` once, "
    "or set `hooks_auto_accept: true` in config.yaml.\n"
)
CAPTURE = (
    "Capture: 3 Hermes events bound (on_session_start, pre_llm_call, post_llm_call). Hermes has "
    "no pre-compact event: the mind's compaction is approximated from Stop, opt-in: "
    "WAGGLE_HERMES_COMPACT_ON_STOP=1, at most once per WAGGLE_HERMES_COMPACT_WINDOW_MIN minutes "
    "(default 10).\n"
)
INSTALLED = (
    "hooks:\n"
    "  on_session_start:\n"
    f'    - command: "{START}"\n'
    "  pre_llm_call:\n"
    f'    - command: "{PROMPT}"\n'
    "  post_llm_call:\n"
    f'    - command: "{STOP}"\n'
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def added(action: str = "added") -> str:
    return (
        f"  on_session_start: {action:<9} {START}\n"
        f"  pre_llm_call:     {action:<9} {PROMPT}\n"
        f"  post_llm_call:    {action:<9} {STOP}\n"
    )


def test_install_creates_the_home_and_the_config(
    hermes_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing home is created 0700 with a 0600 config.yaml holding our three entries."""
    code, out, err = run(capsys, "install", "--hermes-home", str(hermes_home))
    config = hermes_home / "config.yaml"
    assert (code, err) == (0, "")
    assert out == f"hermes-hooks: installed into {config}\n" + added() + CONSENT + CAPTURE
    assert config.read_text() == INSTALLED
    assert stat.S_IMODE(hermes_home.stat().st_mode) == 0o700
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert sorted(p.name for p in hermes_home.iterdir()) == ["config.yaml"]


def test_install_keeps_comments_mode_and_a_backup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A commented config keeps every comment and its mode; the previous file is the backup."""
    config = tmp_path / "config.yaml"
    original = (CONFIGS / "commented.yaml").read_bytes()
    config.write_bytes(original)
    config.chmod(0o640)
    code, out, _ = run(capsys, "install", "--hermes-home", str(tmp_path))
    assert code == 0
    backup = tmp_path / "config.yaml.hermes-hooks.bak"
    assert out == (
        f"hermes-hooks: installed into {config}\n"
        + added()
        + f"Previous file kept as {backup}\n"
        + CONSENT
        + CAPTURE
    )
    assert backup.read_bytes() == original
    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    text = config.read_text()
    for line in original.decode().splitlines():
        if "#" in line:
            assert line in text
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "config.yaml",
        "config.yaml.hermes-hooks.bak",
    ]


def test_install_twice_changes_no_byte(
    hermes_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The second install writes nothing, keeps the file's inode and says so."""
    run(capsys, "install", "--hermes-home", str(hermes_home))
    config = hermes_home / "config.yaml"
    before = config.stat()
    code, out, _ = run(capsys, "install", "--hermes-home", str(hermes_home))
    assert code == 0
    assert out == f"hermes-hooks: already installed in {config}; nothing changed\n" + added(
        "unchanged"
    )
    after = config.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert config.read_text() == INSTALLED


def test_install_writes_through_a_symlinked_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A config.yaml that links into a dotfiles repository stays a link; its target is edited."""
    target = tmp_path / "dotfiles" / "hermes.yaml"
    target.parent.mkdir()
    target.write_text("model:\n  default: gpt-5\n")
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.yaml").symlink_to(target)
    assert run(capsys, "install", "--hermes-home", str(home))[0] == 0
    assert (home / "config.yaml").is_symlink()
    assert target.read_text() == "model:\n  default: gpt-5\n\n" + INSTALLED


def test_dry_run_prints_a_diff_and_writes_nothing(
    hermes_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--dry-run shows the unified diff of the change and creates no file or directory."""
    code, out, err = run(capsys, "install", "--hermes-home", str(hermes_home), "--dry-run")
    config = hermes_home / "config.yaml"
    assert (code, err) == (0, "")
    assert out == (
        f"--- {config}\n"
        f"+++ {config} (after install)\n"
        "@@ -0,0 +1,7 @@\n"
        + "".join(f"+{line}\n" for line in INSTALLED.splitlines())
        + "hermes-hooks: dry run; nothing written\n"
    )
    assert not hermes_home.exists()


@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_invalid_config_is_one_line_and_left_untouched(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Unparseable YAML: exit 1, one stderr line with file:line:column, no write, no backup."""
    config = tmp_path / "config.yaml"
    original = (CONFIGS / "invalid" / "not_yaml.yaml").read_bytes()
    config.write_bytes(original)
    code, out, err = run(capsys, command, "--hermes-home", str(tmp_path))
    assert (code, out) == (1, "")
    assert err == (
        f"hermes-hooks {command}: {config}:6:4: not valid YAML (did not find expected key); "
        "left unchanged\n"
    )
    assert config.read_bytes() == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.yaml"]


def test_hooks_as_a_list_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A `hooks:` that is a list is reported with its line and left as it is."""
    config = tmp_path / "config.yaml"
    original = (CONFIGS / "invalid" / "hooks_list.yaml").read_bytes()
    config.write_bytes(original)
    code, _, err = run(capsys, "install", "--hermes-home", str(tmp_path))
    assert code == 1
    assert err == (
        f"hermes-hooks install: {config}:3: 'hooks' is a list; Hermes expects a mapping of "
        "event names to lists of hooks; left unchanged\n"
    )
    assert config.read_bytes() == original


def test_uninstall_removes_only_ours(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Uninstall takes our entries out of a config with other hooks; theirs stay in order."""
    config = tmp_path / "config.yaml"
    original = (CONFIGS / "other_hooks.yaml").read_bytes()
    config.write_bytes(original)
    run(capsys, "install", "--hermes-home", str(tmp_path))
    code, out, err = run(capsys, "uninstall", "--hermes-home", str(tmp_path))
    assert (code, err) == (0, "")
    assert out == (
        f"hermes-hooks: removed from {config}\n"
        + added("removed")
        + f"Previous file kept as {config}.hermes-hooks.bak\n"
        "Hermes keeps its approvals in shell-hooks-allowlist.json; "
        "`hermes hooks revoke COMMAND` removes one.\n"
    )
    assert config.read_bytes() == original


def test_uninstall_with_nothing_of_ours(
    hermes_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing to remove (here: no config at all) is exit 0 and creates nothing."""
    code, out, _ = run(capsys, "uninstall", "--hermes-home", str(hermes_home))
    assert code == 0
    assert out == (
        f"hermes-hooks: no hermes-hooks entries in {hermes_home / 'config.yaml'}; nothing changed\n"
    )
    assert not hermes_home.exists()


def test_hermes_home_variable_is_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without flags the tools act on $HERMES_HOME, as Hermes does."""
    monkeypatch.setenv("HERMES_HOME", str(tmp_path / "h"))
    assert run(capsys, "install")[0] == 0
    assert (tmp_path / "h" / "config.yaml").read_text() == INSTALLED


def test_profile_is_the_profile_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--profile NAME edits <root>/profiles/NAME and names the profile in the consent hint."""
    monkeypatch.setenv("HERMES_HOME", str(tmp_path / "root"))
    profile = tmp_path / "root" / "profiles" / "coder"
    profile.mkdir(parents=True)
    code, out, _ = run(capsys, "install", "--profile", "Coder")
    assert code == 0
    assert "run `hermes -p Coder --accept-hooks` once" in out
    assert (profile / "config.yaml").read_text() == INSTALLED


def test_unknown_profile_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mistyped profile is not created: one line saying how to create it."""
    monkeypatch.setenv("HERMES_HOME", str(tmp_path))
    code, out, err = run(capsys, "install", "--profile", "codr")
    assert (code, out) == (1, "")
    assert err == (
        f"hermes-hooks install: no Hermes profile 'codr' (no directory "
        f"{tmp_path / 'profiles' / 'codr'}); create it with `hermes profile create codr`\n"
    )
    assert sorted(tmp_path.iterdir()) == []


def test_invalid_profile_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A profile name Hermes would refuse is refused the same way."""
    monkeypatch.setenv("HERMES_HOME", str(tmp_path))
    code, _, err = run(capsys, "verify", "--profile", "../etc")
    assert code == 1
    assert err == (
        "hermes-hooks verify: invalid profile name '../etc': Hermes profile names match "
        "[a-z0-9][a-z0-9_-]{0,63}\n"
    )


def test_home_and_profile_together_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--hermes-home and --profile exclude each other (exit 2, argparse's message)."""
    code, _, err = run(capsys, "install", "--hermes-home", str(tmp_path), "--profile", "x")
    assert code == 2
    assert err.splitlines()[-1] == (
        "hermes-hooks install: error: argument --profile: not allowed with argument --hermes-home"
    )


@pytest.mark.parametrize(
    ("module", "library", "tool"),
    [
        ("ruamel.yaml", "ruamel.yaml", "install"),
        ("yaml", "PyYAML", "install"),
        ("dotenv", "python-dotenv", "verify"),
    ],
)
def test_without_the_yaml_libraries_the_message_names_the_extra(
    module: str,
    library: str,
    tool: str,
    hermes_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Without a library of the install extra the tools name it and the command that
    installs it into this interpreter, in one line: no package-index name of ours."""
    monkeypatch.setitem(sys.modules, module, None)
    code, _, err = run(capsys, tool, "--hermes-home", str(hermes_home))
    assert code == 1
    assert err == (
        f"hermes-hooks {tool}: needs {library}, which is not installed: the install tools "
        "read config.yaml with PyYAML (as Hermes does), edit it with ruamel.yaml (keeping its "
        "comments) and read $HERMES_HOME/.env with python-dotenv (as Hermes does). Install "
        f"them with: {shlex.quote(sys.executable)} -m pip install PyYAML ruamel.yaml "
        "python-dotenv (or install hermes-hooks from its folder with the extra: pip install "
        "'.[install]')\n"
    )


def test_install_and_uninstall_need_no_dotenv(
    hermes_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """python-dotenv is verify's alone: without it, install and uninstall work."""
    monkeypatch.setitem(sys.modules, "dotenv", None)
    assert run(capsys, "install", "--hermes-home", str(hermes_home))[0] == 0
    assert run(capsys, "uninstall", "--hermes-home", str(hermes_home))[0] == 0


def test_an_unwritable_home_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A home that cannot be a directory is one line, exit 1."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = run(capsys, "install", "--hermes-home", str(blocker / "home"))
    assert code == 1
    assert err == (
        f"hermes-hooks install: {blocker / 'home' / 'config.yaml'}: cannot read "
        "(Not a directory); left unchanged\n"
    )


def test_install_as_a_real_process(tmp_path: Path) -> None:
    """The console entry point installs, in its own process, with a path containing a space."""
    home = tmp_path / "my hermes"
    result = subprocess.run(
        [sys.executable, "-m", "hermes_hooks", "install", "--hermes-home", str(home)],
        capture_output=True,
        text=True,
        env={**os.environ},
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.startswith(f"hermes-hooks: installed into {home / 'config.yaml'}\n")
    assert (home / "config.yaml").read_text() == INSTALLED


def test_a_symlink_planted_at_the_backup_path_is_replaced_not_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The old config (API keys and all) never lands on a planted symlink's target."""
    config = tmp_path / "config.yaml"
    config.write_text("model:\n  api_key: sk-secret\n")
    config.chmod(0o600)
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    victim.chmod(0o644)
    backup = tmp_path / "config.yaml.hermes-hooks.bak"
    backup.symlink_to(victim)
    code, _, err = run(capsys, "install", "--hermes-home", str(tmp_path))
    assert (code, err) == (0, "")
    assert victim.read_text() == "precious\n"
    assert stat.S_IMODE(victim.stat().st_mode) == 0o644
    assert not backup.is_symlink()
    assert backup.read_text() == "model:\n  api_key: sk-secret\n"
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600


def test_files_are_private_under_umask_000(tmp_path: Path) -> None:
    """Under umask 000, a new home is 0700 at every level we create and the config 0600."""
    home = tmp_path / "a" / "b" / "hermes"
    code = (
        "import os, sys; os.umask(0)\n"
        "from hermes_hooks.cli import main\n"
        f"sys.exit(main(['install', '--hermes-home', {str(home)!r}]))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    for directory in (tmp_path / "a", tmp_path / "a" / "b", home):
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert stat.S_IMODE((home / "config.yaml").stat().st_mode) == 0o600


def test_the_backup_has_the_configs_mode_from_its_creation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A backup of a 0600 config is written 0600 from the start (never 0644, even briefly)."""
    config = tmp_path / "config.yaml"
    config.write_text("model:\n  api_key: sk-secret\n")
    config.chmod(0o600)
    seen: list[int] = []
    real_fchmod = os.fchmod

    def spy(fd: int, mode: int) -> None:
        seen.append(stat.S_IMODE(os.fstat(fd).st_mode))
        real_fchmod(fd, mode)

    import hermes_hooks.careful_files as careful

    old_umask = os.umask(0)
    try:
        careful.os.fchmod = spy  # type: ignore[assignment]
        code, _, _ = run(capsys, "install", "--hermes-home", str(tmp_path))
    finally:
        careful.os.fchmod = real_fchmod  # type: ignore[assignment]
        os.umask(old_umask)
    assert code == 0
    assert seen
    assert all(mode == 0o600 for mode in seen)
    assert stat.S_IMODE((tmp_path / "config.yaml.hermes-hooks.bak").stat().st_mode) == 0o600


def test_a_read_only_config_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A config without its owner's write bit is left as it is, with one line saying how to proceed."""
    config = tmp_path / "config.yaml"
    config.write_text("model:\n  default: m\n")
    config.chmod(0o444)
    code, out, err = run(capsys, "install", "--hermes-home", str(tmp_path))
    assert (code, out) == (1, "")
    assert err == (
        f"hermes-hooks install: {config} is read-only (mode 0444); left unchanged. Make it "
        f"writable (chmod u+w {config}) and run this again\n"
    )
    assert config.read_text() == "model:\n  default: m\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.yaml"]


def test_a_fifo_at_the_config_path_is_one_line_not_a_hang(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A FIFO where config.yaml should be is refused at once (the open does not block)."""
    config = tmp_path / "config.yaml"
    os.mkfifo(config)
    code, out, err = run(capsys, "install", "--hermes-home", str(tmp_path))
    assert (code, out) == (1, "")
    assert err == f"hermes-hooks install: {config} is a FIFO, not a regular file; left alone\n"


def test_a_killed_installs_temp_file_is_cleaned_up_later(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A temp file of a dead writer, older than a minute, goes at the next write; a live one stays."""
    config = tmp_path / "config.yaml"
    config.write_text("model:\n  default: m\n")
    dead = dead_pid()
    stale = tmp_path / f".config.yaml.{dead}.0badc0de.tmp"
    stale.write_text("half")
    os.utime(stale, (1, 1))
    live = tmp_path / f".config.yaml.{os.getppid()}.0badc0de.tmp"
    live.write_text("someone else's")
    os.utime(live, (1, 1))
    code, _, _ = run(capsys, "install", "--hermes-home", str(tmp_path))
    assert code == 0
    assert not stale.exists()
    assert live.exists()


def test_a_dangling_config_symlink_is_refused_and_nothing_is_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A config.yaml linking to a missing file is named with its target; nothing is created."""
    home, target = tmp_path / "home", tmp_path / "gone" / "config.yaml"
    home.mkdir()
    (home / "config.yaml").symlink_to(target)
    code, out, err = run(capsys, "install", "--hermes-home", str(home))
    assert (code, out) == (1, "")
    assert err == (
        f"hermes-hooks install: {home / 'config.yaml'} points at {target}, which does not"
        " exist; left unchanged. Create the file or remove the link, then run this again\n"
    )
    assert not (tmp_path / "gone").exists()
    assert sorted(p.name for p in home.iterdir()) == ["config.yaml"]


@pytest.mark.parametrize(
    "original",
    [
        "hooks:\n  pre_tool_call: []   # TODO add the guard\n  post_llm_call: []\n",
        "model: m\nhooks:\n  post_llm_call: []\n",
        "model: m\nhooks: {}\n",
        "model: m\nhooks:\n",
        "hooks:\n  post_llm_call:\n  on_session_start: []\n",
    ],
)
def test_uninstall_keeps_the_event_keys_the_user_had(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], original: str
) -> None:
    """An event key (or ``hooks:``) that was there before install, even empty, stays after
    uninstall: only what install added goes."""
    config = tmp_path / "config.yaml"
    config.write_text(original)
    assert run(capsys, "install", "--hermes-home", str(tmp_path))[0] == 0
    assert run(capsys, "uninstall", "--hermes-home", str(tmp_path))[0] == 0
    assert config.read_text() == original
