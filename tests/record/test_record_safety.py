"""``record start``/``stop`` never lose the user's config, whatever the order, repetition,
``--force`` or a kill in between.

Every sequence of three operations with at most one kill is tried: starting a recording into
one of two folders, stopping either (with and without ``--force``), one of them killed before
any one of its file writes (each write is atomic, so a kill lands between two of them).
After each sequence, stopping what is still recording (as the messages say to) must give
back the original config byte for byte, and leave no backup behind.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hooksim.record import recording
from hooksim.record.recording import RecordError, start, stop

ORIGINAL = b'{\n  "theme": "dark",\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "my-hook --flag"}]}]}\n}\n'


class Killed(BaseException):
    """The process was killed here (nothing catches it, as nothing survives a SIGKILL)."""


@contextmanager
def killed_before_write(n: int | None, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Kill the operation before its ``n``-th file write (None: let it finish)."""
    count = 0

    def counted(original: Callable[..., Any]) -> Callable[..., Any]:
        def write(*args: Any, **kwargs: Any) -> Any:
            nonlocal count
            if count == n:
                raise Killed
            count += 1
            return original(*args, **kwargs)

        return write

    with monkeypatch.context() as m:
        m.setattr(recording, "replace_file", counted(recording.replace_file))
        m.setattr(Path, "write_text", counted(Path.write_text))
        m.setattr(Path, "write_bytes", counted(Path.write_bytes))
        m.setattr(Path, "unlink", counted(Path.unlink))
        yield


ACTIONS = [(action, folder) for action in ("start", "stop", "stop --force") for folder in "ab"]
WHOLE = [(action, folder, None) for action, folder in ACTIONS]
# start writes the state, the backup, the config; stop the config, the backup (away), the state.
KILLED = [(action, folder, kill) for action, folder in ACTIONS for kill in range(3)]


def run(operation: tuple[str, str, int | None], config: Path, tmp_path: Path, mp: Any) -> None:
    action, folder, kill = operation
    out = tmp_path / folder
    message = ""
    try:
        with killed_before_write(kill, mp):
            if action == "start":
                start("claude-code", config, out)
            else:
                stop(out, force=action == "stop --force")
    except Killed:
        pass
    except RecordError as e:
        message = str(e)
    assert "\n" not in message, message


def sequences(killed: tuple[str, str, int | None] | None) -> Iterator[list[Any]]:
    """Every sequence of three operations in which ``killed`` (if any) is the one kill."""
    if killed is None:
        yield from map(list, itertools.product(WHOLE, repeat=3))
        return
    for before, after in itertools.product(WHOLE, repeat=2):
        yield from ([killed, before, after], [before, killed, after], [before, after, killed])


@pytest.mark.parametrize(
    "killed",
    [None, *KILLED],
    ids=lambda o: f"{o[0]} {o[1]} killed before write {o[2]}" if o else "no kill",
)
def test_no_sequence_loses_the_original_config(
    killed: tuple[str, str, int | None] | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Durability is not what this test is about: each write stays atomic, without the wait.
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    for n, sequence in enumerate(sequences(killed)):
        where = tmp_path / str(n)
        where.mkdir()
        config = where / "settings.json"
        config.write_bytes(ORIGINAL)
        for operation in sequence:
            run(operation, config, where, monkeypatch)
        for folder in "ab":  # what the user does after: stop what still records
            with contextlib.suppress(RecordError):
                stop(where / folder)
        assert config.read_bytes() == ORIGINAL, sequence
        assert not list(where.glob("*.bak")), sequence


def test_a_second_start_on_a_config_being_recorded_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "settings.json"
    config.write_bytes(ORIGINAL)
    start("claude-code", config, tmp_path / "a")
    tapped = config.read_bytes()
    with pytest.raises(RecordError, match=r"already being recorded into .*a; hooksim record stop"):
        start("claude-code", config, tmp_path / "b")
    assert config.read_bytes() == tapped
    stop(tmp_path / "a")
    assert config.read_bytes() == ORIGINAL


def test_force_keeps_the_edits_made_during_the_recording(tmp_path: Path) -> None:
    """``stop --force`` puts the original back and keeps the edited file beside it."""
    config = tmp_path / "settings.json"
    config.write_bytes(ORIGINAL)
    start("claude-code", config, tmp_path / "a")
    edited = config.read_bytes() + b" "
    config.write_bytes(edited)
    with pytest.raises(RecordError, match="changed since hooksim record start"):
        stop(tmp_path / "a")
    line = stop(tmp_path / "a", force=True)
    assert config.read_bytes() == ORIGINAL
    kept = tmp_path / "settings.json.hooksim-record.edited"
    assert kept.read_bytes() == edited
    assert str(kept) in line


def test_a_second_stop_force_keeps_the_first_edit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each ``stop --force`` keeps its edit under a name no earlier one took, and says which."""
    from hooksim.cli import main

    config = tmp_path / "settings.json"
    config.write_bytes(ORIGINAL)
    edited = tmp_path / "settings.json.hooksim-record.edited"
    for n, name in enumerate([edited, Path(f"{edited}.1"), Path(f"{edited}.2")]):
        out = tmp_path / f"r{n}"
        args = ["--config", str(config), "--out", str(out)]
        assert main(["record", "start", "--tool", "claude-code", *args]) == 0
        config.write_bytes(config.read_bytes() + f"edit {n}".encode())
        capsys.readouterr()
        assert main(["record", "stop", "--out", str(out), "--force"]) == 0
        assert capsys.readouterr().out == (
            f"hooksim: {config} restored; 0 hook run(s) recorded in {out};"
            f" the edited file is kept as {name}\n"
        )
    for n, name in enumerate([edited, Path(f"{edited}.1"), Path(f"{edited}.2")]):
        assert name.read_bytes().endswith(f"edit {n}".encode())
    assert config.read_bytes() == ORIGINAL
