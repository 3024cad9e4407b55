"""The scenario format: files in, a validated ``Scenario`` out, or one ``file:line`` error.

- ``model``: the ``Scenario`` a file becomes (its steps on one virtual clock, hosts, bridge
  plan, expectations) and durations.
- ``load``: reading a file, every check that gives ``file:line: what``, and finding scenario
  files in folders; ``document``: its YAML read within bounds (size, depth, aliases);
  ``turns``: a session's steps as the file writes them (turns, tool calls, boundaries).
- ``errors``: the JSON Schema beside it (``scenario.schema.json``) and its errors told in one
  line each, in the scenario's words, at the line they point to.
- ``events``: event names a file writes down, checked against the hosts it runs on.
- ``selection``: ``-k``, choosing scenarios by name or path.

May import ``steps`` and ``hosts`` (to check a file against the hosts it names); nothing above.
The step kinds are re-exported here, so ``from hooksim.scenario import Turn`` works.
"""

from __future__ import annotations

from ..steps import ApiError, Compact, NewSession, RawEvent, Resume, Step, ToolCall, Turn
from .errors import schema
from .load import DEFAULT_START, find_scenarios, load_scenario
from .model import (
    DURATION_FORMS,
    MAX_DURATION_S,
    HostPart,
    Scenario,
    ScenarioError,
    ScheduledStep,
    SessionPlan,
    parse_duration,
)

__all__ = [
    "DEFAULT_START",
    "DURATION_FORMS",
    "MAX_DURATION_S",
    "ApiError",
    "Compact",
    "HostPart",
    "NewSession",
    "RawEvent",
    "Resume",
    "Scenario",
    "ScenarioError",
    "ScheduledStep",
    "SessionPlan",
    "Step",
    "ToolCall",
    "Turn",
    "find_scenarios",
    "load_scenario",
    "parse_duration",
    "schema",
]
