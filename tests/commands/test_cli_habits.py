"""hooksim's command-line habits, through the real console scripts: --version, -n, bad flags,
a closed pipe."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from tests.console import BIN, console


@pytest.mark.parametrize("script", ["hooksim", "hermes-hooks"])
def test_version(script: str) -> None:
    """--version prints the installed distribution's version and exits 0."""
    result = console(script, "--version")
    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        f"{script} {metadata.version('hermes-hooks')}\n",
        "",
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("0", "must be at least 1, got 0"),
        ("-3", "must be at least 1, got -3"),
        ("abc", "not a whole number: 'abc'"),
    ],
)
def test_workers_must_be_positive(value: str, message: str) -> None:
    """-n 0, -n -3 and -n abc are refused with run's usage and exit 2, before anything runs."""
    result = console("hooksim", "run", "-n", value, "nowhere")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("usage: hooksim run ")
    assert result.stderr.endswith(f"hooksim run: error: argument -n/--workers: {message}\n")


def test_unknown_flag_shows_the_subcommands_usage() -> None:
    """An unknown option of `run` is reported with run's usage, not the top-level one."""
    result = console("hooksim", "run", "--frobnicate", "x.yaml")
    assert result.returncode == 2
    assert result.stderr.startswith("usage: hooksim run ")
    assert result.stderr.endswith("hooksim run: error: unrecognized arguments: --frobnicate\n")


def test_closed_stdout_ends_quietly() -> None:
    """Output into a pipe nobody reads (`hooksim hosts | head -0`) ends without a traceback."""
    read, write = os.pipe()
    os.close(read)
    try:
        result = subprocess.run(
            [str(BIN / "hooksim"), "hosts"],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(write)
    assert (result.returncode, result.stderr) == (1, "")


def test_a_report_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    """--json to a full device: the run is reported, the other report is written, one line."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "name: s\ntool: claude-code\nhooks:\n  Stop: [{hooks: [{type: command, command: 'true'}]}]\n"
        "turns:\n  - {user: hi, assistant: hello}\n"
    )
    junit = tmp_path / "junit.xml"
    result = console("hooksim", "run", scenario, "--json", "/dev/full", "--junit-xml", junit)
    assert result.returncode == 1
    assert result.stderr == (
        "hooksim: --json: cannot write /dev/full (No space left on device)\n"
    ), result.stderr
    assert "PASS" in result.stdout
    assert junit.read_text().startswith("<?xml")


def test_a_report_is_written_whole_through_a_link_and_to_a_device(tmp_path: Path) -> None:
    """Reports replace their file in one step (a temporary file renamed): a link at the path
    stays a link with its target rewritten, and /dev/stdout is written to, never replaced."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "name: s\ntool: claude-code\nhooks:\n  Stop: [{hooks: [{type: command, command: 'true'}]}]\n"
        "turns:\n  - {user: hi, assistant: hello}\n"
    )
    target = tmp_path / "kept" / "run.json"
    target.parent.mkdir()
    target.write_text("old")
    link = tmp_path / "run.json"
    link.symlink_to(target)
    result = console("hooksim", "run", scenario, "-q", "--json", link, "--sarif", "/dev/stdout")
    assert result.returncode == 0, result.stderr
    assert link.is_symlink()
    assert json.loads(target.read_text())[0]["verdict"] == "PASS"
    assert '"version": "2.1.0"' in result.stdout
    assert sorted(p.name for p in target.parent.iterdir()) == ["run.json"]


def test_a_report_to_dev_stdout_appends_where_stdout_goes(tmp_path: Path) -> None:
    """`--json /dev/stdout >> log`: the report is written through stdout, after what was
    printed, and the log file is never replaced."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "name: s\ntool: claude-code\nhooks:\n  Stop: [{hooks: [{type: command, command: 'true'}]}]\n"
        "turns:\n  - {user: hi, assistant: hello}\n"
    )
    log = tmp_path / "ci.log"
    log.write_text("earlier\n")
    command = f"{BIN / 'hooksim'} run {scenario} --json /dev/stdout >> {log}"
    done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    text = log.read_text()
    assert text.startswith("earlier\nPASS ")
    assert '"verdict": "PASS"' in text
    assert text.index('"verdict": "PASS"') < text.index("1 passed, 0 failed in ")


# ``hooksim ARGS`` in a process of its own, then the names of the modules it imported.
_IMPORTED = """
import sys
from hooksim.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stderr.write("\\n".join(["--- modules", *sorted(sys.modules)]))
"""


def _hooksim_modules(*args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """``hooksim ARGS`` as its console script runs it, and the hooksim modules it imported."""
    result = subprocess.run(
        [sys.executable, "-c", _IMPORTED, *args], capture_output=True, text=True, check=False
    )
    _, marker, names = result.stderr.partition("--- modules\n")
    assert marker, result.stderr
    return result, {n for n in names.splitlines() if n == "hooksim" or n.startswith("hooksim.")}


def test_version_imports_no_subcommand() -> None:
    """``hooksim --version`` and ``hooksim --help`` start no subcommand's modules: a hook's
    pre-commit ``lint`` or a ``fire`` pays only for its own."""
    for args in (["--version"], ["--help"]):
        result, imported = _hooksim_modules(*args)
        assert result.returncode == 0, result.stderr
        assert imported == {"hooksim", "hooksim.cli"}, sorted(imported)


def test_a_subcommand_imports_its_own_modules_only() -> None:
    """``hooksim lint --help`` imports lint's modules, not run's, compare's or the real
    hosts' drivers."""
    result, imported = _hooksim_modules("lint", "--help")
    assert result.returncode == 0, result.stderr
    assert "hooksim.commands.lint" in imported
    assert not imported & {
        "hooksim.commands.run",
        "hooksim.commands.compare",
        "hooksim.real.session",
        "hooksim.replay.runner",
    }, sorted(imported)


def test_help_lists_every_subcommand_with_its_line() -> None:
    """``hooksim --help`` names each subcommand with its one line, in the project's order."""
    result = console("hooksim", "--help")
    listed = re.findall(r"^    (\w+)\s+(\S.*)$", result.stdout, re.M)
    assert [name for name, _ in listed] == [
        "run",
        "compare",
        "conformance",
        "validate",
        "hosts",
        "record",
        "show",
        "tap",
        "explore",
        "fire",
        "explain",
        "lint",
    ]
    assert dict(listed)["lint"] == "check hook config files for mistakes a host is silent about"


def test_an_unknown_subcommand_is_one_clear_line() -> None:
    """A misspelt subcommand is refused with the top-level usage and the choices, exit 2."""
    result = console("hooksim", "rnu", "x.yaml")
    assert result.returncode == 2
    assert result.stderr.startswith("usage: hooksim ")
    assert "argument COMMAND: invalid choice: 'rnu'" in result.stderr, result.stderr
