"""``pip install -e .``: the editable wheel this project builds maps both import names onto the
source tree, so an edit to ``simulator/`` or ``hermes_hooks/`` is what ``hooksim`` runs."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_the_editable_wheel_imports_both_packages_from_the_source_tree(tmp_path: Path) -> None:
    """Built by the project's own backend (as pip builds it), unpacked where a venv's
    site-packages would be, and read the way Python reads it at start: both names come from
    this tree, ``hooksim`` from ``simulator/``."""
    built = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from hatchling.build import build_editable;"
            " print(build_editable(sys.argv[1]))",
            str(tmp_path / "dist"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    site = tmp_path / "site"
    with zipfile.ZipFile(tmp_path / "dist" / built.stdout.strip()) as wheel:
        wheel.extractall(site)
    seen = subprocess.run(
        [
            sys.executable,
            "-I",
            "-S",
            "-c",
            "import site, sys; site.addsitedir(sys.argv[1]);"
            " import hooksim, hermes_hooks; print(hooksim.__file__); print(hermes_hooks.__file__)",
            str(site),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert seen.returncode == 0, seen.stderr
    assert seen.stdout.splitlines() == [
        str(ROOT / "simulator" / "__init__.py"),
        str(ROOT / "hermes_hooks" / "__init__.py"),
    ]
