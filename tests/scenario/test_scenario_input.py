"""A scenario file is read within bounds: aliases that multiply, nesting too deep, a character
YAML refuses, a file too large or not a regular file, and a clock run out of the years a
transcript can write are each one line naming the file (and the line), never a hang or a
traceback; anchors reused as scenarios reuse hooks keep working."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.scenario import ScenarioError, load_scenario

from tests.console import console

HEAD = "name: b\ntool: claude-code\nturns: [{user: hi, assistant: ok}]\n"
ALIASES = "invalid YAML: its aliases repeat more than 100,000 values (the first alias, *x0, is on this line); reuse an anchor fewer times, or write the values out"
RANGE = "a run's clock stays between 1970 and the end of 9998: move clock.start, or the step's after or clock_back"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return path


def error_of(path: Path) -> str:
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path)
    return str(exc.value)


def bomb(depth: int) -> str:
    """Nine lists of nine aliases to the list before: 9**depth values once expanded."""
    text = HEAD + 'x0: &x0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    for i in range(1, depth + 1):
        text += f"x{i}: &x{i} [" + ",".join([f"*x{i - 1}"] * 9) + "]\n"
    return text


@pytest.mark.parametrize("depth", [7, 9])
def test_an_alias_bomb_is_refused_at_its_first_alias(tmp_path: Path, depth: int) -> None:
    """Aliases are counted before anything expands them: a file whose aliases would repeat
    millions of values is one line at the first alias, whatever its depth."""
    path = write(tmp_path, bomb(depth))
    result = console("hooksim", "validate", path)
    assert (result.returncode, result.stdout) == (1, "0 valid, 1 invalid\n")
    assert result.stderr == f"{path}:5: {ALIASES}\n"


def test_one_large_scalar_aliased_many_times_is_refused_by_its_bytes(tmp_path: Path) -> None:
    """A 1 MB scalar aliased 5,000 times is a few values but 5 GB once expanded: one line at
    the first alias, before anything expands it, and the next file still runs."""
    text = (
        "name: b\ntool: claude-code\nturns: [{user: hi, assistant: ok}]\n"
        f'x0: &a "{"A" * 1_000_000}"\n'
        f"x1: [{','.join(['*a'] * 5000)}]\n"
    )
    path = write(tmp_path, text)
    result = console("hooksim", "validate", path)
    assert (result.returncode, result.stdout) == (1, "0 valid, 1 invalid\n")
    assert result.stderr == (
        f"{path}:5: invalid YAML: its aliases expand it to more than 134,217,728 bytes of text"
        " (the first alias, *a, is on this line); reuse an anchor fewer times, or write the"
        " values out\n"
    )


def test_anchors_reused_in_moderation_load(tmp_path: Path) -> None:
    """One hook command anchored and reused by several events, and a list reused under a few
    keys, load as written."""
    hook = "[{hooks: [{type: command, command: *log}]}]"
    path = write(
        tmp_path,
        "name: reuse\ntool: claude-code\nhooks:\n"
        "  SessionStart: [{hooks: [{type: command, command: &log 'echo hi >> log.txt'}]}]\n"
        f"  UserPromptSubmit: {hook}\n  Stop: {hook}\n"
        "turns:\n  - &turn {user: hi, assistant: ok}\n  - *turn\n  - *turn\n",
    )
    scenario = load_scenario(path)
    assert scenario.hooks["Stop"][0]["hooks"][0]["command"] == "echo hi >> log.txt"
    assert len(scenario.steps) == 3


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (HEAD + "x: " + "[" * 5000 + "]" * 5000 + "\n", 4),
        (HEAD + "".join(f"{' ' * k}k{k}:\n" for k in range(3000)), 103),
    ],
    ids=["flow-list", "block-mapping"],
)
def test_nesting_deeper_than_100_is_one_line(tmp_path: Path, text: str, line: int) -> None:
    """A 5,000-deep flow list or a 3,000-deep block mapping stops at the 101st level."""
    path = write(tmp_path, text)
    assert main(["validate", str(path)]) == 1
    assert error_of(path) == (
        f"{path}:{line}: invalid YAML: nested more than 100 levels deep (a scenario needs a few)"
    )


def test_a_nul_byte_is_one_line(tmp_path: Path) -> None:
    """A character YAML does not accept is named with its line."""
    path = write(tmp_path, "name: b\ntool: claude-code\nx: nul\x00\n")
    assert error_of(path) == (
        f"{path}:3: invalid YAML: unacceptable character #x0000: special characters are not allowed"
    )


def test_a_file_over_64_mib_is_refused_unread(tmp_path: Path) -> None:
    """The size is checked before reading: a sparse file one byte too large is refused."""
    path = tmp_path / "s.yaml"
    with path.open("wb") as f:
        f.truncate(64 * 1024 * 1024 + 1)
    assert error_of(path) == (
        f"{path}: 67,108,865 bytes: a scenario file is at most 64 MiB (67,108,864 bytes); not read"
    )


def test_a_fifo_or_a_device_is_not_read(tmp_path: Path) -> None:
    """A named pipe is never waited on, a device never read: one line each."""
    fifo = tmp_path / "s.yaml"
    os.mkfifo(fifo)
    result = console("hooksim", "validate", fifo, "/dev/zero")
    assert result.stderr == (
        f"{fifo} is a named pipe (FIFO), not a regular file; not read\n"
        "/dev/zero is a character device, not a regular file; not read\n"
    )
    assert (result.returncode, result.stdout) == (1, "0 valid, 2 invalid\n")


@pytest.mark.parametrize(
    ("clock", "turns", "message"),
    [
        (
            '"0001-01-01T00:00:00Z"',
            "  - {user: hi, assistant: ok}\n  - {clock_back: 366d, user: hi, assistant: ok}\n",
            "2: clock.start '0001-01-01T00:00:00Z' is before 1970",
        ),
        (
            '"1970-01-01T00:00:00Z"',
            "  - {user: hi, assistant: ok}\n  - {clock_back: 1s, user: hi, assistant: ok}\n",
            "5: turns/1: the clock is set back to before 1970 here",
        ),
        (
            '"9999-12-31T23:00:00Z"',
            "  - {user: hi, assistant: ok}\n  - {after: 2h, user: hi, assistant: ok}\n",
            "2: clock.start '9999-12-31T23:00:00Z' is after 9998",
        ),
        (
            '"9998-12-31T23:00:00Z"',
            "  - {user: hi, assistant: ok}\n  - {after: 2h, user: hi, assistant: ok}\n",
            "5: turns/1: the clock goes past the end of 9998 here",
        ),
    ],
)
def test_a_clock_out_of_range_is_one_line(
    tmp_path: Path, clock: str, turns: str, message: str
) -> None:
    """The run's earliest and latest instants are checked at load: a clock set back before 1970
    or moved past 9998 is the line of the start or of the step that takes it there."""
    path = write(tmp_path, f"name: c\nclock: {{start: {clock}}}\nturns:\n{turns}")
    assert error_of(path) == f"{path}:{message}: {RANGE}"


def test_a_clock_at_the_edges_of_its_range_loads(tmp_path: Path) -> None:
    """The Unix epoch itself and the last hour of 9998 are in range."""
    for start, turns in [
        ("1970-01-01T00:00:00Z", "  - {user: hi, assistant: ok}\n"),
        (
            "9998-12-31T22:00:00Z",
            "  - {user: hi, assistant: ok}\n  - {after: 1h, user: hi, assistant: ok}\n",
        ),
    ]:
        load_scenario(write(tmp_path, f'name: c\nclock: {{start: "{start}"}}\nturns:\n{turns}'))
