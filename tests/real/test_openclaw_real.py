"""``--real openclaw``: the Node it needs, and the probe's hook names against the package's.

The comparisons themselves are ``test_conformance.py``'s (``tox -e conformance-openclaw``,
which installs Node 24 and openclaw 2026.9.6 and names them in ``REAL_OPENCLAW``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.hosts.openclaw.real.spy import SPY

SCENARIO = Path(__file__).parents[2] / "scenarios" / "openclaw" / "02-local-runs.yaml"
REAL = os.environ.get("REAL_OPENCLAW")  # read at import: the autouse fixture scrubs it


def _node_major(node: str) -> int:
    out = subprocess.run([node, "--version"], capture_output=True, text=True, check=True).stdout
    return int(out.strip().lstrip("v").split(".")[0])


def test_a_node_older_than_openclaw_needs_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The node beside the openclaw executable is the one that runs it; too old, the run is
    refused with what to install."""
    node = shutil.which("node")
    if node is None or _node_major(node) >= 24:
        pytest.skip("needs a node older than 24 on PATH")
    (tmp_path / "node").symlink_to(node)
    openclaw = tmp_path / "openclaw"
    openclaw.write_text("#!/bin/sh\n")
    openclaw.chmod(0o755)
    assert main(["run", str(SCENARIO), "--real", f"openclaw={openclaw}"]) == 1
    out = capsys.readouterr().out
    assert re.search(r"--real openclaw: .*/node is Node 2\d\.\d+; OpenClaw needs Node 24\.16 or"
                     r" later \(install it beside openclaw", out), out  # fmt: skip


def test_the_probe_registers_every_hook_name_the_package_accepts() -> None:
    """The probe's names are the installed package's pluginHookNameSet, no more, no fewer."""
    if not REAL or not Path(REAL).exists():
        pytest.skip("no real openclaw (tox -e conformance-openclaw installs it)")
    dist = Path(REAL).resolve().parent / "dist"
    source = next(
        p.read_text(encoding="utf-8")
        for p in sorted(dist.glob("hooks-*.mjs"))
        if "pluginHookNameSet" in p.read_text(encoding="utf-8")
    )
    block = re.search(r"pluginHookNameSet = .*?new Set\(\[(.*?)\]\)", source, re.S)
    assert block is not None
    package = set(re.findall(r'"(\w+)"', block.group(1)))
    probe = (SPY / "probe" / "index.js").read_text(encoding="utf-8")
    names = re.search(r"HOOK_NAMES = \[(.*?)\];", probe, re.S)
    assert names is not None
    assert set(re.findall(r'"(\w+)"', names.group(1))) == package
