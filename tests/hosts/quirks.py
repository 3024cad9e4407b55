"""What the quirk tests of every host share: a mutant profile (one fact wrong) must fail the
scenarios named for that fact, and pass them with the right profile."""

from __future__ import annotations

from pathlib import Path

from hooksim.hosts import Host, Session
from hooksim.judge import expect
from hooksim.replay.runner import run_scenario
from hooksim.scenario import load_scenario

SCENARIOS = Path(__file__).parents[2] / "scenarios"


def fails_its_scenario(mutant: type[Host], name: str) -> None:
    """The scenario fails on the mutant profile and passes on the real one."""
    scenario = load_scenario(SCENARIOS / name)
    assert mutant.name in scenario.tools(), f"{name} does not run on {mutant.name}"
    assert expect.check(run_scenario(scenario, tool=mutant.name)) == []
    assert expect.check(run_scenario(scenario, host=mutant())) != []


def keeps_reasons(session: type[Session]) -> type[Session]:
    """The session, with a block the session goes on with never handed to the model."""
    return type(f"{session.__name__}KeepsReasons", (session,), {"deliver": lambda self, f: None})
