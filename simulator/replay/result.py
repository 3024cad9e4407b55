"""What one run of a scenario on one host recorded: firings, hook runs, bridge calls, clock.

Filled in by the runner and the dispatcher as the session goes; read by the judge, the reports,
explore and the real-host comparison.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, TypedDict

from .. import beneath
from ..hosts import Firing, HookRun, HookSpec
from ..hosts.conversation import Message
from ..scenario import Scenario
from .leaks import LeakedProcess


@dataclass(frozen=True)
class FileState:
    """A project file as ``expect.files`` judges it: a file's bytes, a folder, nothing, or
    something hooksim does not read (``said``: a link, a FIFO, a device, a file too large)."""

    kind: str  # "file", "folder", "absent" or "other"
    data: bytes = b""
    said: str = ""

    @classmethod
    def of(cls, root: Path, inside: PurePosixPath) -> FileState:
        """``root/inside`` as it is now, read without following a link (``beneath.look``)."""
        found = beneath.look(root, inside)
        return cls(found.kind, found.data, found.said)


class _CallExtras(TypedDict, total=False):
    tag: str  # the in-process hook that made it (OpenClaw's handlers share one process)
    hook: int | None  # the index of the hook run that made it, once attributed (None: unknown)


class BridgeCall(_CallExtras):
    """One call a hook made to the mock bridge, as its ledger holds it (``mock_bridge``'s
    record, every field checked by ``read_ledger``)."""

    tool: str
    arguments: Any  # the call's JSON arguments, as the hook sent them
    virtual_ms: int | float
    turn: int
    event: str
    pid: int
    sid: int  # the session of the process that called: the hook's pid
    ancestors: list[int]  # the caller's ancestors' pids, nearest first
    call: int  # its number among the session's calls of the tool, from 1
    outcome: str  # what the scripted bridge answered (``bridge:`` of the scenario)
    session: str


@dataclass
class RunResult:
    scenario: Scenario
    runs: list[HookRun] = field(default_factory=list)
    firings: list[Firing] = field(default_factory=list)
    calls: list[BridgeCall] = field(default_factory=list)
    turn_ms: dict[int, int] = field(default_factory=dict)
    temporary_frames: dict[int, int] = field(default_factory=dict)
    state_file: str | None = None
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # trust gates, unverified facts
    workdir: Path | None = None
    host_title: str = "Hermes"
    leaks: list[LeakedProcess] = field(default_factory=list)  # processes hooks left running
    leak_detection: bool = True  # False where leaked processes cannot be seen (not Linux)
    specs: list[HookSpec] = field(default_factory=list)  # every hook the host registered
    # The files expect.files names, by path and turn (0: at the end of the run).
    files: dict[tuple[str, int], FileState] = field(default_factory=dict)
    # What the model was sent at each turn: its last request's messages.
    conversations: dict[int, Sequence[Message]] = field(default_factory=dict)
    # The files the hook processes read outside the run's folder (``hooksim run --cache`` keys
    # a pass on them), and whether every Python and Node hook could record its reads.
    reads: list[str] = field(default_factory=list)
    reads_recorded: bool = True
