"""hooksim explore finds every wrong hook within its default budget, and writes a file that
fails on that hook and passes on the real one: the Hermes gate's mutants, and those of the
shipped explore spaces' hooks (``scenarios/explore/``).

The searches are slow (each runs dozens of real sessions): marked ``slow``, run by ``tox -e
slow``; a plain ``pytest`` runs the shipped spaces' own hooks on a few sessions. The seed is
fixed and every drawn session runs the same way on any machine (virtual clock, a
gateway's coinciding Stops held together by the bridge's ``meet``), so which session is found
does not depend on the machine's speed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.scenario import load_scenario

from tests.judge.mutant_hook import MUTANTS as PATCHES
from tests.judge.test_mutants import hooks_config

# The seed of each mutant's search: 1, unless its default run does not find the mutant (the
# space makes about one session in twenty tell it apart, so some seeds miss within 120).
SEEDS = {"skips_compaction_without_save": "2"}
MUTANTS = sorted([*PATCHES, "exits_nonzero"])
ROOT = Path(__file__).parents[2]
EXAMPLE_MUTANTS = Path(__file__).with_name("example_mutants.py")
# The shipped explore spaces, the hook script each runs, and the wrong versions of that hook
# (tests/explore/example_mutants.py) explore must find with the space's own budget.
EXAMPLES = {
    "claude-guard.yaml": ("guard_rm.py", ("misses_spacing", "blocks_everything")),
    "codex-stop-once.yaml": ("stop_once.py", ("blocks_forever", "never_blocks")),
}


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


def _hook(script: str) -> str:
    return f'"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/../hooks/{script}"'


def _with_hook(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_the_example_hooks_pass_a_small_budget(
    example: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The shipped explore spaces' own hooks keep every invariant of a few drawn sessions."""
    path = ROOT / "scenarios" / "explore" / example
    out = tmp_path / "failures"
    assert main(["explore", str(path), "--examples", "3", "--seed", "1", "--out", str(out)]) == 0
    assert capsys.readouterr().out.endswith("\nno invariant failed\n")
    assert not out.exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("example", "mutant"),
    [(example, mutant) for example, (_, mutants) in EXAMPLES.items() for mutant in mutants],
)
def test_explore_finds_the_example_mutant_and_its_file_replays(
    example: str, mutant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The space's own budget, a fixed seed: a failure is found and written, and its file
    fails on the mutant and passes once the right hook is put back."""
    script, _ = EXAMPLES[example]
    text = (ROOT / "scenarios" / "explore" / example).read_text()
    wrong = f'"$HOOKSIM_PYTHON" "{EXAMPLE_MUTANTS}" {mutant}'
    space = tmp_path / "explore" / example
    space.parent.mkdir()
    space.write_text(_with_hook(text, _hook(script), wrong))
    out = tmp_path / "failures"
    assert main(["explore", str(space), "--seed", "1", "--out", str(out)]) == 1
    report = capsys.readouterr().out
    assert "1 failed" in report, report
    (written,) = out.glob("*.yaml")
    assert main(["run", str(written)]) == 1, written.read_text()
    right = f'"$HOOKSIM_PYTHON" "{ROOT / "scenarios" / "hooks" / script}"'
    written.write_text(_with_hook(written.read_text(), wrong, right))
    assert main(["run", str(written)]) == 0, written.read_text()
