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
from hooksim.hosts.openclaw.real.driver import find_node, finish_install
from hooksim.hosts.openclaw.real.spy import SPY
from hooksim.real.driver import RealHostError

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
    assert re.search(
        r"--real openclaw: .*/node is Node 2\d\.\d+; OpenClaw needs Node 24\.16 or"
        r" later \(install it beside openclaw",
        out,
    ), out


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


def _stand_in_package(tmp_path: Path, run_does: str) -> tuple[Path, Path]:
    """An installed openclaw whose package scripts were skipped (the registry's tarball with
    ``--ignore-scripts``: its ``.openclaw-lifecycle-pending`` marker), run by a stand-in Node
    whose ``openclaw`` run does ``run_does``; the executable and the marker."""
    package = tmp_path / "node_modules" / "openclaw"
    package.mkdir(parents=True)
    (package / "openclaw.mjs").write_text("// the package's entry\n")
    marker = package / ".openclaw-lifecycle-pending"
    marker.write_text("pending\n")
    bin_ = tmp_path / "node_modules" / ".bin"
    bin_.mkdir()
    node = bin_ / "node"
    node.write_text(
        '#!/bin/sh\n[ "$1" = --version ] && { echo v24.22.3; exit 0; }\n'
        f'echo "$@" >> "{tmp_path}/ran"\n{run_does}\n'
    )
    node.chmod(0o755)
    (bin_ / "openclaw").symlink_to("../openclaw/openclaw.mjs")
    return bin_ / "openclaw", marker


def test_an_install_whose_package_scripts_were_skipped_is_finished_before_the_confined_run(
    tmp_path: Path,
) -> None:
    """OpenClaw runs its skipped package scripts at its first start, writing into its own
    folder (dist/index.js:7-13); confined, that folder is read-only and every command fails
    ("package lifecycle is incomplete ... EROFS"). The run lets OpenClaw finish its install
    first, outside the confinement, with nothing of the scenario, and says so."""
    binary, marker = _stand_in_package(
        tmp_path, f'rm "{tmp_path}/node_modules/openclaw/.openclaw-lifecycle-pending"'
    )
    node = find_node(str(binary))
    note = finish_install(str(binary), node)
    assert not marker.exists()
    assert (tmp_path / "ran").read_text() == f"{binary.resolve()} --version\n"
    assert note is not None
    assert "finished its own install" in note, note
    assert "--ignore-scripts" in note, note
    assert finish_install(str(binary), node) is None  # finished: nothing is run again
    assert (tmp_path / "ran").read_text().count("\n") == 1


def test_an_install_openclaw_cannot_finish_is_one_clear_line(tmp_path: Path) -> None:
    """Where OpenClaw cannot finish its install, the run stops before it starts, with
    OpenClaw's own last line and what to do."""
    binary, marker = _stand_in_package(
        tmp_path,
        "echo 'Error: EACCES: permission denied, open .openclaw-lifecycle-lock' >&2; exit 1",
    )
    with pytest.raises(RealHostError) as raised:
        finish_install(str(binary), find_node(str(binary)))
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith("--real openclaw: its install is unfinished"), message
    assert "EACCES: permission denied" in message, message
    assert "npm install" in message, message
    assert marker.exists()
