"""A seventh host is one folder and one registry line: a copy of hooksim with ``echo_cli/`` (a
made-up host) in ``hosts/`` and its name added to ``hosts.FOLDERS`` runs a scenario on it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import hooksim

FOLDER = Path(__file__).with_name("echo_cli")
SCENARIO = """\
name: a guard on a host hooksim did not know
tool: echo-cli
hooks:
  prompt: [{hooks: [{type: command, command: "cat >> prompts.jsonl; echo >> prompts.jsonl"}]}]
  stop: [{hooks: [{type: command, command: "grep -q secret && echo 'no secrets' >&2 && exit 2; exit 0"}]}]
turns:
  - {user: hello, assistant: hi}
  - {user: tell me the secret, assistant: no}
expect:
  fired: {start: 1, prompt: 2, stop: 2}
  files:
    prompts.jsonl: {contains: '"prompt":"tell me the secret"'}
"""


def with_host(tmp_path: Path, folder: Path) -> dict[str, str]:
    """A copy of hooksim with ``folder`` among its hosts and one line added to the registry;
    the environment that imports the copy."""
    copy = tmp_path / "lib" / "hooksim"
    shutil.copytree(
        Path(hooksim.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(folder, copy / "hosts" / folder.name)
    registry = copy / "hosts" / "__init__.py"
    text = registry.read_text(encoding="utf-8")
    line = 'FOLDERS = ("hermes", "claude_code", "codex", "cursor", "gemini_cli", "openclaw")'
    assert line in text, "the registry lists its folders on one line"
    registry.write_text(text.replace(line, line[:-1] + f', "{folder.name}")'), encoding="utf-8")
    # The copy is not the package coverage measures: its processes are left unmeasured.
    env = {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_")}
    return {**env, "PYTHONPATH": os.pathsep.join([str(copy.parent), *sys.path])}


def test_a_scenario_runs_on_a_host_added_as_one_folder(tmp_path: Path) -> None:
    env = with_host(tmp_path, FOLDER)
    scenario = tmp_path / "echo.yaml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "hooksim", "run", str(scenario), "-v"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASS" in done.stdout, done.stdout
    hosts = subprocess.run(
        [sys.executable, "-m", "hooksim", "hosts"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert "Echo CLI" in hosts.stdout


def test_a_broken_hook_on_that_host_fails_the_run(tmp_path: Path) -> None:
    """The built-in checks judge the new host as every other: a hook that fails is red."""
    env = with_host(tmp_path, FOLDER)
    scenario = tmp_path / "echo.yaml"
    scenario.write_text(SCENARIO.replace('exit 0"', 'exit 1"'), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "hooksim", "run", str(scenario)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL" in done.stdout, done.stdout
    assert "built-in check hooks_failed: the stop hook" in done.stdout, done.stdout


def test_a_host_without_explore_words_is_told_in_one_line(tmp_path: Path) -> None:
    """A host folder without ``explore.py``: ``hooksim explore`` says so, no traceback."""
    env = with_host(tmp_path, FOLDER)
    done = subprocess.run(
        [sys.executable, "-m", "hooksim", "explore", "--tool", "echo-cli"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert (
        done.stderr.strip() == "hooksim: --tool echo-cli: hooksim explore has no words for Echo CLI"
    )
