"""What the quirk tests of every host share: a mutant profile (one fact wrong) must fail the
scenarios named for that fact, and pass them with the right profile."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
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


def quirk_test(caught_by: Mapping[type[Host], list[str]], *marks: Any) -> Callable[..., None]:
    """The test of one host's quirks: each mutant profile against each scenario that must fail
    with it. A profile's rules are the same on every Python: ``tox -e slow`` runs these once."""

    @pytest.mark.slow
    @pytest.mark.parametrize(
        ("mutant", "name"),
        [(m, n) for m, names in caught_by.items() for n in names],
        ids=lambda v: v.__name__ if isinstance(v, type) else str(v),
    )
    def test(mutant: type[Host], name: str) -> None:
        fails_its_scenario(mutant, name)

    for mark in marks:
        test = mark(test)
    return test
