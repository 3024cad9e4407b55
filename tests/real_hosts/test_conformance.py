"""Conformance with the real binaries: each shipped cross-host scenario and probe, run on the
real host offline and replayed by hooksim, differs only where the profile tolerates it.

Runs in ``tox -e conformance-claude-code``, ``-codex`` and ``-gemini-cli`` (each installs the
pinned release into its tox environment and names it in ``REAL_CLAUDE_CODE``, ``REAL_CODEX`` or
``REAL_GEMINI_CLI``) and, for Hermes, in ``tox -e conformance`` (``REAL_HERMES``); skipped elsewhere, and skipped
with the reason when the package could not be installed.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.commands.real import check
from hooksim.real.compare import compare_real, differences_text
from hooksim.scenario import load_scenario

SCENARIOS = Path(__file__).parents[2] / "scenarios"
# Read at import: the suite's autouse fixture scrubs the environment of each test.
BINARIES = {
    "claude-code": os.environ.get("REAL_CLAUDE_CODE"),
    "codex": os.environ.get("REAL_CODEX"),
    "hermes": os.environ.get("REAL_HERMES"),
    "gemini-cli": os.environ.get("REAL_GEMINI_CLI"),
}


def probes(tool: str) -> list[str]:
    """The probe scenarios written for ``tool``."""
    return sorted(
        str(p.relative_to(SCENARIOS)) for p in (SCENARIOS / "probes").glob(f"{tool}-*.yaml")
    )


# leaked-processes is left out: a real run does not look for processes its hooks left behind.
FILES = {
    "claude-code": [
        "across/memory-session.yaml",
        "across/guard-reason.yaml",
        "across/stop-reason.yaml",
        *probes("claude-code"),
    ],
    "codex": [
        "across/memory-session.yaml",
        "across/guard-reason.yaml",
        "across/stop-reason.yaml",
        "across/stop-loop.yaml",
        "codex/12-exec-per-turn.yaml",
        "codex/14-stdout-forms.yaml",
        "codex/16-compact-matchers.yaml",
        *probes("codex"),
    ],
    # stop-reason is left out: Hermes' pre_verify needs files the real tools changed.
    "hermes": [
        "across/memory-session.yaml",
        "across/guard-reason.yaml",
        "hermes/32-new-session.yaml",
        *probes("hermes"),
    ],
    # stop-loop is left out: Gemini CLI never caps the loop (its turn budget is 100); hooksim
    # ends it at 50, and a real run of it would take minutes.
    "gemini-cli": [
        "across/memory-session.yaml",
        "across/guard-reason.yaml",
        "across/stop-reason.yaml",
        *probes("gemini-cli"),
    ],
}


@pytest.mark.parametrize(
    ("tool", "name"), [(tool, name) for tool, names in FILES.items() for name in names]
)
def test_real_host_matches_hooksim(tool: str, name: str) -> None:
    """The real run passes the scenario's expectations and shows no untolerated difference."""
    binary = BINARIES[tool]
    if not binary:
        env = "conformance" if tool == "hermes" else f"conformance-{tool}"
        pytest.skip(f"no real {tool} (tox -e {env} installs it)")
    if not Path(binary).exists():
        pytest.skip(f"{tool} could not be installed from the registry: {binary} is missing")
    comparison = compare_real(load_scenario(SCENARIOS / name), tool, binary)
    assert check(comparison.real) == []
    assert comparison.failing == [], differences_text(comparison.diffs)


def test_a_real_run_writes_the_reports_a_replay_writes(tmp_path: Path) -> None:
    """--json, --junit-xml and --keep-workdir hold for --real as for a replay."""
    binary = BINARIES["claude-code"]
    if not binary or not Path(binary).exists():
        pytest.skip("no real claude-code (tox -e conformance-claude-code installs it)")
    report, junit = tmp_path / "run.json", tmp_path / "junit.xml"
    argv = ["run", str(SCENARIOS / "across/memory-session.yaml"), "--real",
            f"claude-code={binary}", "--json", str(report), "--junit-xml", str(junit),
            "--keep-workdir"]  # fmt: skip
    assert main(argv) == 0
    (entry,) = json.loads(report.read_text())
    assert entry["tool"] == "claude-code, real"
    assert entry["passed"]
    assert {h["event"] for h in entry["hooks"]} >= {"SessionStart", "UserPromptSubmit", "Stop"}
    assert 'failures="0"' in junit.read_text()
    workdir = Path(entry["workdir"])
    assert (workdir / "project").is_dir()
    shutil.rmtree(workdir)
