"""The GitHub Actions example (docs/examples/ci/github-actions.yml) works: its commands, run
here with its matrix of three shards and the artifacts handed on as the workflow hands them,
give one report whose verdicts are those of one unsharded run."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from tests.commands.test_shards import corpus

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / "docs" / "examples" / "ci" / "github-actions.yml"
BIN = Path(sys.executable).parent


def workflow() -> dict[str, Any]:
    data: dict[str, Any] = YAML(typ="safe", pure=True).load(WORKFLOW.read_text())
    return data


def commands(job: dict[str, Any], matrix: dict[str, str]) -> list[str]:
    """The job's shell steps but installing, with ``${{ ... }}`` as GitHub would fill them."""
    lines = [step["run"] for step in job["steps"] if "run" in step]
    lines = [line for line in lines if "pip install" not in line]

    def fill(found: re.Match[str]) -> str:
        return matrix[found.group(1)]

    return [re.sub(r"\$\{\{\s*([\w.-]+)\s*\}\}", fill, line) for line in lines]


def sh(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def verdicts(report: Path) -> list[tuple[str, str, bool, bool]]:
    return sorted(
        (e["path"], e["tool"], e["passed"], bool(e["failures"]))
        for e in json.loads(report.read_text())
    )


def test_the_workflows_commands_shard_and_merge(tmp_path: Path) -> None:
    jobs = workflow()["jobs"]
    shards = jobs["scenarios"]["strategy"]["matrix"]["shard"]
    assert shards == [1, 2, 3]
    repository = tmp_path / "repository"
    corpus(repository / "scenarios", ["guard-a", "guard-b", "memory", "stop"])
    broken = repository / "scenarios" / "stop.yaml"
    broken.write_text(broken.read_text() + "expect: {fired: {Stop: 2}}\n")  # fails where Stop

    whole = sh("hooksim run scenarios/ -q --json whole.json", repository)
    assert whole.returncode == 1
    downloaded = tmp_path / "report-job"
    (downloaded / "shards").mkdir(parents=True)
    for shard in shards:
        machine = tmp_path / f"shard-{shard}"
        shutil.copytree(repository, machine)
        matrix = {"matrix.shard": str(shard), "strategy.job-total": str(len(shards))}
        for command in commands(jobs["scenarios"], matrix):
            done = sh(command, machine)
            assert done.returncode in (0, 1), done.stderr
        name = f"shard-{shard}.json"
        shutil.copy(machine / name, downloaded / "shards" / name)  # upload, then download

    for command in commands(jobs["report"], {}):
        merged = sh(command, downloaded)
        assert merged.returncode == 1, merged.stderr  # a run failed, as in the whole run
    assert "::error file=scenarios/stop.yaml" in merged.stdout
    assert (downloaded / "junit.xml").exists()
    assert (downloaded / "hooksim.sarif").exists()
    shutil.copy(repository / "whole.json", downloaded)
    merged_json = sh("hooksim show shards/*.json --json merged.json", downloaded)
    assert merged_json.returncode == 1
    assert verdicts(downloaded / "merged.json") == verdicts(repository / "whole.json")
