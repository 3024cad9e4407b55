"""``Outcome``: one scenario's verdict on one host, what the judge hands on to be shown."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..replay.runner import RunResult


@dataclass
class Outcome:
    """One scenario's verdict: failures (empty = passed) or an error that kept it from running."""

    path: Path
    name: str
    failures: list[str]
    result: RunResult | None = None
    error: str | None = None
    seconds: float = 0.0
    tool: str | None = None  # set when the file runs on more than Hermes alone
    skipped: str | None = None  # why the file does not apply to the host asked for
    cached: dict[str, Any] | None = None  # a pass saved by an earlier run: its report entry
    warnings: list[str] = field(default_factory=list)  # what it passes with (builtin_checks)
    strict: bool = False  # ``--strict``: its warnings fail it

    @property
    def found(self) -> list[str]:
        """Its failures, and its warnings where they fail it (``strict``)."""
        return [*self.failures, *self.warnings] if self.strict else self.failures

    @property
    def verdict(self) -> str:
        if self.skipped is not None:
            return "SKIP"
        return "PASS" if self.passed else ("ERROR" if self.error else "FAIL")

    @property
    def bad(self) -> bool:
        """Failed or could not run: what makes ``hooksim run`` exit 1."""
        return bool(self.found) or self.error is not None

    @property
    def label(self) -> str:
        """The path, and the host in brackets when it is not the only default one."""
        return f"{self.path} [{self.tool}]" if self.tool else str(self.path)

    @property
    def passed(self) -> bool:
        return not self.bad and self.skipped is None
