"""hooksim explain against the real Codex CLI: whether hooks are on, as ``codex features list``
reads the same config.toml files, is what explain says of a hook in hooks.json.

Runs where the conformance environment names the binary (``REAL_CODEX``); skipped elsewhere.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hooksim.cli import main

REAL_CODEX = os.environ.get("REAL_CODEX")
HOOKS = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo stop"}]}]}}
# (the user's config.toml, the project's), the project trusted in the user's.
CASES = {
    "default": ("", ""),
    "off": ("[features]\nhooks = false\n", ""),
    "off by the old name": ("[features]\ncodex_hooks = false\n", ""),
    "on again in the project": ("[features]\nhooks = false\n", "[features]\nhooks = true\n"),
    "off in the project": ("", "[features]\nhooks = false\n"),
}


def real_hooks_feature(codex: str, home: Path, project: Path) -> bool:
    """Whether the real Codex turns hooks on there (``codex features list``, offline)."""
    done = subprocess.run(
        [codex, "features", "list"],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**os.environ, "HOME": str(home), "CODEX_HOME": str(home / ".codex")},
    )
    assert done.returncode == 0, done.stderr
    row = next(line.split() for line in done.stdout.splitlines() if line.split()[:1] == ["hooks"])
    return row[-1] == "true"


@pytest.mark.parametrize("case", CASES)
def test_explain_says_what_the_real_codex_reads(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real Codex's hooks feature, on or off, is whether explain runs a hooks.json hook."""
    if not REAL_CODEX or not Path(REAL_CODEX).exists():
        pytest.skip("no real codex (tox -e conformance-codex installs it)")
    home, project = tmp_path / "home", tmp_path / "project"
    (home / ".codex").mkdir(parents=True)
    (project / ".codex").mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    user, mine = CASES[case]
    trusted = f'[projects."{project.resolve()}"]\ntrust_level = "trusted"\n'
    (home / ".codex" / "config.toml").write_text(user + trusted)
    (home / ".codex" / "hooks.json").write_text(json.dumps(HOOKS))
    if mine:
        (project / ".codex" / "config.toml").write_text(mine)
    on = real_hooks_feature(REAL_CODEX, home, project)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.chdir(project)
    assert main(["explain", "codex", "Stop", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (len(answer["runs"]), len(answer["not_run"])) == ((1, 0) if on else (0, 1))
