"""Answers about a user's real hook configs before any scenario is written: which hooks a
host runs for a firing and why the others do not (``explain``), and named findings with a fix
each (``lint``).

``configs`` finds and reads the files each host reads (its profile says where and how),
``explain`` and ``lint`` ask the profile its rules, ``output`` writes the findings for people
and for CI services. ``own`` makes the hooks a user configured into what ``hooksim fire``
fires without a command; ``probe`` fires each of them once on every host (``lint --probe``)
and says in a word how each host reads its output.
"""

from __future__ import annotations

from .configs import (
    Config,
    ConfigFile,
    Unreadable,
    closest,
    host_of,
    layers,
    named,
    read,
    script,
)
from .explain import Answer, Hook, explain
from .lint import RULES, Finding, lint
from .own import NoConfig, Own, own_hooks

__all__ = [
    "RULES",
    "Answer",
    "Config",
    "ConfigFile",
    "Finding",
    "Hook",
    "NoConfig",
    "Own",
    "Unreadable",
    "closest",
    "explain",
    "host_of",
    "layers",
    "lint",
    "named",
    "own_hooks",
    "read",
    "script",
]
