"""A release of a real host, installed from npm into a cache folder of hooksim's own.

``hooksim conformance`` runs several releases of one agent CLI side by side, so each goes into
a folder of its own, ``CACHE/HOST/VERSION`` (an npm ``--prefix``: the executable is
``node_modules/.bin/NAME`` inside it), never into the user's global packages. A release already
there is used as it is; a new one is installed into a temporary folder beside it and moved into
place only once npm succeeded, so an interrupted install is never taken for a finished one.

npm runs with hooksim's own environment: the machine's registry, proxy and certificate settings
(``NODE_EXTRA_CA_CERTS``, ``npm_config_*``) reach it unchanged.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .driver import Driver

NPM_TIMEOUT_S = 900.0  # a release with a native binary is a few hundred MB


class InstallError(Exception):
    """npm could not install a release; ``str()`` is the one line to print."""


@dataclass(frozen=True)
class Installed:
    """One installed release: its executable, what its package asks of Node, and how long
    npm took (0 when it was already in the cache)."""

    binary: Path
    engines_node: str
    seconds: float


def default_cache() -> Path:
    """``$XDG_CACHE_HOME/hooksim/hosts``, else ``~/.cache/hooksim/hosts``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hooksim" / "hosts"


def release_dir(cache: Path, host: str, version: str) -> Path:
    """Where one release of ``host`` lives in the cache (the npm prefix)."""
    return cache / host / version


def executable(prefix: Path, driver: type[Driver]) -> Path:
    return prefix / "node_modules" / ".bin" / driver.binary


def install_release(driver: type[Driver], version: str, cache: Path) -> Installed:
    """``driver.package`` at ``version`` in the cache: found there, or installed by npm."""
    prefix = release_dir(cache, driver.name, version)
    binary = executable(prefix, driver)
    if binary.exists():
        return Installed(binary, engines_node(prefix, driver), 0.0)
    started = time.monotonic()
    prefix.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{version}.", dir=prefix.parent))
    try:
        _npm_install(f"{driver.package}@{version}", partial)
        if not executable(partial, driver).exists():
            raise InstallError(f"npm installed {driver.package}@{version} without a"
                               f" node_modules/.bin/{driver.binary}")  # fmt: skip
        shutil.rmtree(prefix, ignore_errors=True)  # a broken earlier copy, if any
        os.replace(partial, prefix)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return Installed(binary, engines_node(prefix, driver), time.monotonic() - started)


def _npm_install(spec: str, prefix: Path) -> None:
    """``npm install --prefix PREFIX SPEC``; InstallError with npm's last line on failure."""
    argv = ["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
            "--loglevel=error", spec]  # fmt: skip
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=NPM_TIMEOUT_S, check=False
        )
    except FileNotFoundError:
        raise InstallError(f"cannot install {spec}: npm is not on PATH (install Node.js)") from None
    except subprocess.TimeoutExpired:
        raise InstallError(f"npm did not install {spec} within {NPM_TIMEOUT_S:g}s") from None
    except OSError as e:
        raise InstallError(f"cannot run npm to install {spec} ({e.strerror or e})") from None
    if done.returncode != 0:
        said = [line.strip() for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        last = said[-1] if said else "no output"
        raise InstallError(f"npm could not install {spec} (exit {done.returncode}): {last}")


def engines_node(prefix: Path, driver: type[Driver]) -> str:
    """The Node versions the release's ``package.json`` asks for (``engines.node``), or ``-``."""
    manifest = prefix / "node_modules" / driver.package / "package.json"
    try:
        engines = json.loads(manifest.read_text(encoding="utf-8")).get("engines") or {}
    except (OSError, ValueError, AttributeError):
        return "-"
    return str(engines.get("node") or "-") if isinstance(engines, dict) else "-"


def node_version() -> str:
    """The ``node`` on PATH that runs the releases (``-`` when there is none)."""
    try:
        done = subprocess.run(
            ["node", "--version"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return "-"
    return done.stdout.strip() or "-"
