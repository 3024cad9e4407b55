"""The editable install (``pip install -e .``): both import names point into this tree.

The wheel renames the simulator's folder (``simulator/`` installs as ``hooksim``, see
``[tool.hatch.build.targets.wheel.sources]``), and hatchling's own editable install refuses a
rename ("Dev mode installations are unsupported when any path rewrite in the `sources` option
changes a prefix"). ``dev-mode-dirs`` puts this folder on ``sys.path`` (``hermes_hooks``), and
this hook adds what hatchling cannot: a finder, started by a ``.pth`` file, that imports
``hooksim`` from ``simulator/``. Its module is named as setuptools names its own editable
finders (``__editable__…``), which pytest knows not to rewrite. The standard wheel is left alone.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

FINDER = "__editable___hermes_hooks_hooksim_finder"

FINDER_SOURCE = '''"""Imports hooksim from {folder} (the editable install of hermes-hooks)."""

import importlib.util
import sys

FOLDER = {folder!r}


class HooksimFinder:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != "hooksim" or path is not None:
            return None
        return importlib.util.spec_from_file_location(
            name, FOLDER + "/__init__.py", submodule_search_locations=[FOLDER]
        )

    @classmethod
    def invalidate_caches(cls):
        pass


if HooksimFinder not in sys.meta_path:
    sys.meta_path.append(HooksimFinder)
'''


class EditableHooksim(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version != "editable":
            return
        self._files = tempfile.TemporaryDirectory()  # kept until the wheel is written
        files = {
            f"{FINDER}.py": FINDER_SOURCE.format(folder=str(Path(self.root) / "simulator")),
            f"{FINDER}.pth": f"import {FINDER}\n",
        }
        for name, content in files.items():
            written = Path(self._files.name) / name
            written.write_text(content, encoding="utf-8")
            build_data["force_include_editable"][str(written)] = name
