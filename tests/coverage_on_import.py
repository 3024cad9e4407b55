"""Coverage in the tests' subprocesses, started only in those that import a measured package.

Coverage measures ``hermes_hooks`` and ``hooksim`` (``source_pkgs``), in the test process and
in every process the tests start: hooks, mock bridges, ``hooksim`` runs. Most of those Python
processes are hook scripts of the tests that never import either package, and coverage's own
start-up (importing it: about 0.3 s on a loaded machine, against 0.05 s for the whole of
``python -c pass``) would be most of their life.

``python tests/coverage_on_import.py`` installs this module, and a ``.pth`` file importing it,
into the running interpreter's site-packages (tox's ``py311`` does, before the tests). In a
process whose environment has ``COVERAGE_ON_IMPORT`` (the coverage config file, passed down to
every child), the first import of a measured package starts coverage just before that package's
first module runs, so all of it is measured, and the process saves its data when it exits. A
process that never imports one starts nothing and writes no data file.
"""

from __future__ import annotations

import os
import sys
from typing import Any

VARIABLE = "COVERAGE_ON_IMPORT"
MEASURED = ("hermes_hooks", "hooksim")


class StartOnImport:
    """A finder that finds nothing: the first import of a measured package starts coverage."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name.partition(".")[0] in MEASURED:
            sys.meta_path.remove(self)
            start_coverage(os.environ[VARIABLE])


def start_coverage(config_file: str) -> None:
    """Start coverage as its own subprocess start-up does, saving the data at exit; not where
    it runs already (the test process itself, under ``coverage run``)."""
    import coverage

    if coverage.Coverage.current() is not None:
        return
    os.environ["COVERAGE_PROCESS_START"] = config_file
    try:
        coverage.process_startup()
    finally:
        # Children start from VARIABLE again, not from coverage's own start-up variable.
        del os.environ["COVERAGE_PROCESS_START"]


def watch() -> None:
    """Wait for a measured import, in a process that asks for coverage (the ``.pth`` calls this)."""
    if os.environ.get(VARIABLE) and not any(isinstance(f, StartOnImport) for f in sys.meta_path):
        sys.meta_path.insert(0, StartOnImport())


def install() -> None:
    """Copy this module into site-packages, with a ``.pth`` file that calls ``watch()``."""
    import shutil
    import sysconfig
    from pathlib import Path

    site = Path(sysconfig.get_paths()["purelib"])
    shutil.copyfile(__file__, site / "coverage_on_import.py")
    (site / "coverage_on_import.pth").write_text(
        "import coverage_on_import; coverage_on_import.watch()\n"
    )


if __name__ == "__main__":
    install()
