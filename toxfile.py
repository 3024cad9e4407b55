"""tox's inline plugin for this project: find the interpreters pyenv installed.

tox looks for ``python3.10`` ... ``python3.13`` on PATH, and pyenv keeps its versions outside
it (a shim answers only for the versions made active), so ``tox`` would skip environments whose
interpreter is installed. Before any environment is set up, the newest installed
``3.10.*`` ... ``3.13.*`` of pyenv's root (``$PYENV_ROOT``, else ``pyenv root``) go on PATH;
without pyenv nothing changes.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from typing import Any

from tox.plugin import impl

MINORS = (10, 11, 12, 13)


def pyenv_root() -> str | None:
    """pyenv's root directory, or None when pyenv is not installed."""
    if os.environ.get("PYENV_ROOT"):
        return os.environ["PYENV_ROOT"]
    pyenv = shutil.which("pyenv") or os.path.expanduser("~/.pyenv/bin/pyenv")
    if not os.access(pyenv, os.X_OK):
        return None
    done = subprocess.run([pyenv, "root"], capture_output=True, text=True, check=False)
    return done.stdout.strip() or None


def pyenv_bins(root: str) -> list[str]:
    """The ``bin`` directory of the newest installed 3.10 ... 3.13 under ``root``."""
    found = []
    for minor in MINORS:
        dirs = sorted(
            glob.glob(os.path.join(root, "versions", f"3.{minor}.*", "bin")),
            key=lambda d: [int(p) for p in d.split(os.sep)[-2].split(".") if p.isdigit()],
        )
        found += [d for d in dirs[-1:] if os.access(os.path.join(d, f"python3.{minor}"), os.X_OK)]
    return found


@impl
def tox_add_core_config(core_conf: Any, state: Any) -> None:
    root = pyenv_root()
    if root is None:
        return
    path = os.environ.get("PATH", "").split(os.pathsep)
    os.environ["PATH"] = os.pathsep.join([*(d for d in pyenv_bins(root) if d not in path), *path])
