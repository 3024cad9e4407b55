"""Hermes Agent shell hooks for the mind, with opt-in time-gated compaction after Stop."""

from __future__ import annotations

from .bridge import Bridge, BridgeError
from .compact_on_stop import CompactOutcome, is_compact_enabled, maybe_compact_on_stop
from .hooks import BINDINGS, Binding
from .paths import compact_state_path, hermes_home

__all__ = [
    "BINDINGS",
    "Binding",
    "Bridge",
    "BridgeError",
    "CompactOutcome",
    "compact_state_path",
    "hermes_home",
    "is_compact_enabled",
    "maybe_compact_on_stop",
]
__version__ = "0.1.0"
