"""The shipped scenarios tell a right hook from wrong ones: every mutant fails at least one."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from hooksim.cli import main

ROOT = Path(__file__).parents[2]
SCENARIOS = ROOT / "scenarios" / "hermes"
MUTANT_HOOK = Path(__file__).with_name("mutant_hook.py")

# mutant → the shipped scenarios that must catch it
CAUGHT_BY = {
    "compact_before_save": ["10-save-before-compact.yaml"],
    "ignores_window": ["03-inside-window.yaml"],
    "stamps_after_failure": ["05-failure-retried.yaml"],
    "misreads_flag": ["08-flag-0.yaml", "08-flag-false.yaml"],
    "exits_nonzero": ["01-flag-off.yaml"],
    "on_by_default": ["01-flag-off.yaml", "09-default-off-saves.yaml"],
    "ignores_window_variable": ["07-window-variable.yaml"],
    "skips_compaction_without_save": ["12-no-response-still-compacts.yaml"],
    "ignores_backward_clock": ["14-clock-back.yaml"],
    "no_lock": ["42-gateway-stops-meet.yaml"],
}


def hooks_config(tmp_path: Path, mutant: str) -> Path:
    """A Hermes config.yaml whose three hooks run the mutant."""
    lines = ["hooks:"]
    for event, sub in (
        ("on_session_start", "session-start"),
        ("pre_llm_call", "user-prompt-submit"),
        ("post_llm_call", "stop"),
    ):
        command = shlex.join([sys.executable, str(MUTANT_HOOK), mutant, sub])
        lines += [f"  {event}:", f"    - command: {command!r}"]
    path = tmp_path / "config.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("mutant", sorted(CAUGHT_BY))
def test_mutant_fails_its_scenarios(
    mutant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each wrong hook fails every scenario named for it; hooksim exits 1."""
    paths = [str(SCENARIOS / name) for name in CAUGHT_BY[mutant]]
    assert main(["run", *paths, "--hooks-config", str(hooks_config(tmp_path, mutant))]) == 1
    out = capsys.readouterr().out
    for name in CAUGHT_BY[mutant]:
        assert f"FAIL  {SCENARIOS / name}" in out, out
    assert f"0 passed, {len(paths)} failed" in out


@pytest.mark.one_python  # a search or a corpus run: the same on every interpreter
def test_the_real_hook_passes_the_same_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    """The shipped hook passes every scenario used above to catch the mutants."""
    names = sorted({name for names in CAUGHT_BY.values() for name in names})
    assert main(["run", *(str(SCENARIOS / n) for n in names)]) == 0
    assert f"{len(names)} passed, 0 failed" in capsys.readouterr().out
