"""tox's py311 measures a subprocess from its first import of a measured package, and starts no
coverage in one that imports neither (tests/coverage_on_import.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

coverage = pytest.importorskip("coverage")

TESTS = Path(__file__).parent
PYPROJECT = TESTS.parent / "pyproject.toml"


def run_watched(code: str, data: Path) -> None:
    """Run ``code`` in a Python process watched by coverage_on_import, its data file in ``data``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_")}
    env |= {"COVERAGE_ON_IMPORT": str(PYPROJECT), "COVERAGE_FILE": str(data / ".coverage")}
    env["PYTHONPATH"] = str(TESTS)
    watched = f"import coverage_on_import; coverage_on_import.watch(); {code}"
    subprocess.run([sys.executable, "-c", watched], env=env, check=True, cwd=data)


def measured_files(data: Path) -> list[str]:
    """The files measured by every data file written in ``data``."""
    found = []
    for path in data.glob(".coverage.*"):
        written = coverage.CoverageData(str(path))
        written.read()
        found += written.measured_files()
    return found


def test_a_process_importing_the_hook_package_is_measured(tmp_path: Path) -> None:
    """The first import of hermes_hooks starts coverage before its first module runs."""
    run_watched("import hermes_hooks.bridge", tmp_path)
    measured = {Path(f).name for f in measured_files(tmp_path)}
    assert {"__init__.py", "bridge.py"} <= measured


def test_a_process_importing_neither_package_starts_no_coverage(tmp_path: Path) -> None:
    """A hook script that imports neither package writes no data file, and imports no coverage."""
    run_watched("import json, sys; assert 'coverage' not in sys.modules", tmp_path)
    assert list(tmp_path.glob(".coverage*")) == []
