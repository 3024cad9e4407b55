"""Wrong versions of the hook, to prove the shipped scenarios tell them from the right one.

    python mutant_hook.py MUTANT SUBCOMMAND    (reads the Hermes payload on stdin, like the hook)

Each mutant patches one rule of ``hermes_hooks`` and then runs the real entry point.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time

from hermes_hooks import bridge, cli, compact_on_stop, hooks


def compact_before_save() -> None:
    real_stop = hooks.stop

    def stop(payload, ctx):  # type: ignore[no-untyped-def]
        compact_on_stop.maybe_compact_on_stop(ctx.bridge, env=ctx.env)
        real_stop(payload, ctx)  # saves; its own gate then finds the window just closed

    hooks.BINDINGS_BY_COMMAND["stop"].handler = stop


def ignores_window() -> None:
    compact_on_stop.resolve_window_ms = lambda env=None, override_ms=None: 0  # type: ignore[assignment]


def stamps_after_failure() -> None:
    original = bridge.Bridge.cleanup_frames

    def cleanup_frames(self):  # type: ignore[no-untyped-def]
        with contextlib.suppress(bridge.BridgeError):
            original(self)

    bridge.Bridge.cleanup_frames = cleanup_frames  # type: ignore[method-assign]


def misreads_flag() -> None:
    compact_on_stop.is_compact_enabled = lambda env=None: bool(  # type: ignore[assignment]
        (os.environ if env is None else env).get("WAGGLE_HERMES_COMPACT_ON_STOP")
    )


def on_by_default() -> None:
    compact_on_stop.is_compact_enabled = lambda env=None: (  # type: ignore[assignment]
        (os.environ if env is None else env).get("WAGGLE_HERMES_COMPACT_ON_STOP", "1").lower()
        not in ("", "0", "false")
    )


def ignores_window_variable() -> None:
    compact_on_stop.resolve_window_ms = lambda env=None, override_ms=None: (  # type: ignore[assignment]
        override_ms or compact_on_stop.DEFAULT_WINDOW_MS
    )


def skips_compaction_without_save() -> None:
    original = hooks.stop

    def stop(payload, ctx):  # type: ignore[no-untyped-def]
        if payload.text("assistant_response"):
            original(payload, ctx)

    hooks.BINDINGS_BY_COMMAND["stop"].handler = stop


def ignores_backward_clock() -> None:
    """A remembered compaction in the future keeps the gate shut until the clock catches up."""
    original = compact_on_stop.read_last_compact_ts

    def read_last_compact_ts(path):  # type: ignore[no-untyped-def]
        last = original(path)
        now = int(time.time() * 1000)
        # Clamped to just ahead of now, the real check no longer sees it as far in the future.
        return last if last is None or last <= now else now + 1

    compact_on_stop.read_last_compact_ts = read_last_compact_ts  # type: ignore[assignment]


def no_lock() -> None:
    """Concurrent Stops do not exclude each other: each reads, compacts and writes on its own."""
    import fcntl

    fcntl.flock = lambda fd, operation: None  # type: ignore[assignment]


MUTANTS = {
    f.__name__: f
    for f in (
        compact_before_save,
        ignores_window,
        stamps_after_failure,
        misreads_flag,
        on_by_default,
        ignores_window_variable,
        skips_compaction_without_save,
        ignores_backward_clock,
        no_lock,
    )
}


def main() -> int:
    name, subcommand = sys.argv[1], sys.argv[2]
    if name == "exits_nonzero":
        cli.main([subcommand])
        return 1
    MUTANTS[name]()
    return cli.main([subcommand])


if __name__ == "__main__":
    raise SystemExit(main())
