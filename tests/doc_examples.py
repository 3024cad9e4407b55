"""The shell examples of README.md and docs/*.md: found, run and compared (cram style).

Two kinds of fence hold commands:

- A ``console`` fence holds commands that run, each on a line starting with ``$ ``, and below
  each one its expected output (stdout and stderr together). In the expected output, a line
  ``...`` matches any number of lines, ``[..]`` inside a line matches any text, and a last line
  ``[exit N]`` says the command exits with N (without it, the command must exit 0).
- A ``sh`` fence holds commands shown without their output. Each line is run and must exit 0,
  unless the docs test's allow-list says why it is not run and where it is exercised instead.

Every block runs in a directory of its own, holding a copy of ``scenarios/`` and
``docs/examples/``, with ``HOME`` pointed at an empty directory and the test's own
environment's scripts (``hooksim``, ``hermes-hooks``) first on ``PATH``. Each command runs in a
``bash`` of its own: files carry over to the next command of the block, ``cd`` and variables
do not.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What a command of the docs may use, copied into each block's directory.
COPIED = ("scenarios", "docs/examples")
FENCE = re.compile(r"^(`{3,})([\w-]*)\s*$")
EXIT = re.compile(r"^\[exit (\d+)\]$")
# A comment after a command: a "#" after blanks, then a blank (not "#" inside a word).
TRAILING_COMMENT = re.compile(r"\s+#\s.*$")
ANY_LINES = "..."
ANY_TEXT = "[..]"
COMMAND_TIMEOUT_S = 120


@dataclass(frozen=True)
class Block:
    """One fenced block of a Markdown page: its language and the lines between the fences."""

    path: str  # relative to ROOT, with forward slashes
    line: int  # of the opening fence, counted from 1
    lang: str
    lines: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass
class Command:
    """A ``$ `` line of a console block, with the output and exit code it expects."""

    line: int
    text: str
    expected: list[str] = field(default_factory=list)
    exit_code: int = 0


def pages(root: Path = ROOT) -> list[Path]:
    """README.md and every Markdown page under docs/."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def _scan(page: Path, root: Path) -> tuple[list[Block], list[str]]:
    """The fenced blocks of a page, and its lines with every fenced line blanked."""
    found: list[Block] = []
    prose: list[str] = []
    fence = ""  # the backticks that opened the current block; "" outside one
    lang, start = "", 0
    body: list[str] = []
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        match = FENCE.match(line)
        if not fence and match:
            fence, lang, start, body = match.group(1), match.group(2), number, []
        elif fence and line.rstrip() == fence:
            found.append(Block(page.relative_to(root).as_posix(), start, lang, tuple(body)))
            fence = ""
        elif fence:
            body.append(line)
        prose.append("" if fence or match else line)
    if fence:
        raise ValueError(f"{page.relative_to(root)}:{start}: a fence that is never closed")
    return found, prose


def blocks(page: Path, root: Path = ROOT) -> list[Block]:
    """Every fenced block of a page (fences at the start of a line, three backticks or more)."""
    return _scan(page, root)[0]


def prose(page: Path, root: Path = ROOT) -> list[str]:
    """The page's lines, those inside fenced blocks (and the fences) left empty."""
    return _scan(page, root)[1]


def console_commands(block: Block) -> list[Command]:
    """The commands of a console block, each with the output below it."""
    commands: list[Command] = []
    for offset, line in enumerate(block.lines, start=1):
        if line.startswith("$ "):
            commands.append(Command(block.line + offset, line[2:]))
        elif not commands:
            raise ValueError(f"{block.id}: output before the first '$ ' command: {line!r}")
        else:
            commands[-1].expected.append(line)
    if not commands:
        raise ValueError(f"{block.id}: a console block without a '$ ' command")
    for command in commands:
        while command.expected and not command.expected[-1].strip():
            command.expected.pop()
        if command.expected and (exit_line := EXIT.match(command.expected[-1].strip())):
            command.exit_code = int(exit_line.group(1))
            command.expected.pop()
    return commands


def sh_lines(block: Block) -> Iterator[tuple[int, str]]:
    """The commands of a sh block with their line numbers, without comments or blank lines."""
    for offset, line in enumerate(block.lines, start=1):
        command = TRAILING_COMMENT.sub("", line).strip()
        if command and not command.startswith("#"):
            yield block.line + offset, command


def _line_matches(expected: str, actual: str) -> bool:
    pattern = ".*".join(re.escape(part) for part in expected.split(ANY_TEXT))
    return re.fullmatch(pattern, actual) is not None


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the actual lines fit the expected ones (``...`` lines, ``[..]`` in a line).

    Trailing spaces do not count on either side.
    """
    want = [line.rstrip() for line in expected]
    got = [line.rstrip() for line in actual]
    seen: dict[tuple[int, int], bool] = {}

    def fits(i: int, j: int) -> bool:
        if (i, j) not in seen:
            if i == len(want):
                seen[i, j] = j == len(got)
            elif want[i] == ANY_LINES:
                seen[i, j] = any(fits(i + 1, k) for k in range(j, len(got) + 1))
            else:
                seen[i, j] = j < len(got) and _line_matches(want[i], got[j]) and fits(i + 1, j + 1)
        return seen[i, j]

    return fits(0, 0)


def workdir(base: Path, root: Path = ROOT) -> tuple[Path, dict[str, str]]:
    """A fresh directory for one block, and the environment its commands run with."""
    work = base / "work"
    for name in COPIED:
        shutil.copytree(root / name, work / name, ignore=shutil.ignore_patterns("__pycache__"))
    home = base / "home"
    home.mkdir()
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("WAGGLE_", "HERMES_", "HOOKSIM_"))
    }
    env.update(
        HOME=str(home),
        PATH=os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", os.defpath)]),
        # Output in the order it is written, as on a terminal.
        PYTHONUNBUFFERED="1",
    )
    return work, env


def run(command: str, cwd: Path, env: dict[str, str]) -> tuple[int, list[str]]:
    """Run one command line with bash; its exit code and its output lines (stderr included)."""
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=COMMAND_TIMEOUT_S,
        check=False,
    )
    return done.returncode, done.stdout.splitlines()


def mismatch(block: Block, command: Command, code: int, actual: list[str]) -> str | None:
    """Why a command's run does not match the page, or None when it does."""
    problems = []
    if code != command.exit_code:
        problems.append(f"exit code: expected {command.exit_code}, got {code}")
    if not output_matches(command.expected, actual):
        diff = difflib.unified_diff(
            command.expected, actual, "expected (the page)", "actual", lineterm=""
        )
        problems.append("output differs:\n" + "\n".join(diff))
    if not problems:
        return None
    shown = "\n".join([*actual, *([f"[exit {code}]"] if code else [])])
    return (
        f"{block.path}:{command.line}: $ {command.text}\n"
        + "\n".join(problems)
        + f"\nwhat it printed (paste it, with [..] for what varies):\n{shown}"
    )
