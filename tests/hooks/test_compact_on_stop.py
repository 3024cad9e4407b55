"""The compact-on-Stop gate: the design's unit cases (§6.1, 1-8) and the rules the design lacks."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest
from freezegun import freeze_time
from pytest_subprocess import FakeProcess

from hermes_hooks import Bridge, CompactOutcome, compact_state_path, maybe_compact_on_stop
from hermes_hooks.compact_on_stop import (
    DEFAULT_WINDOW_MS,
    is_compact_enabled,
    read_last_compact_ts,
    resolve_window_ms,
)

NOW = "2026-06-01T09:00:00Z"
NOW_MS = 1_780_304_400_000  # NOW in epoch milliseconds
MINUTE_MS = 60_000
CLEANUP = ["hive-mind", "call", "cleanup_frames"]


@pytest.fixture
def enabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WAGGLE_HERMES_COMPACT_ON_STOP", "1")


@pytest.fixture
def bridge() -> Bridge:
    return Bridge(["hive-mind"], timeout_s=10)


def state(hermes_home: Path) -> Path:
    return Path(compact_state_path(hermes_home))


def write_state(hermes_home: Path, content: str) -> None:
    hermes_home.mkdir(parents=True, exist_ok=True)
    state(hermes_home).write_text(content)


def test_now_constant_matches_the_frozen_instant() -> None:
    """The constant used across these tests is the frozen instant in epoch milliseconds."""
    with freeze_time(NOW):
        import time

        assert int(time.time() * 1000) == NOW_MS


# --- design §6.1 ---------------------------------------------------------------------------


def test_1_flag_off_does_not_compact_nor_touch_files(
    fp: FakeProcess, bridge: Bridge, hermes_home: Path
) -> None:
    """Flag off: no cleanup_frames call and no file IO at all (the home is not even created)."""
    outcome = maybe_compact_on_stop(bridge, hermes_home=hermes_home)
    assert outcome is CompactOutcome.DISABLED
    assert fp.call_count(CLEANUP) == 0
    assert not hermes_home.exists()


@freeze_time(NOW)
def test_2_first_compaction_runs_and_records_now(
    enabled: None, fp: FakeProcess, bridge: Bridge, hermes_home: Path
) -> None:
    """No state file: compact once and store the current epoch milliseconds."""
    received: list[bytes] = []
    fp.register(CLEANUP, stdout='{"ok": true}', stdin_callable=received.append)
    assert maybe_compact_on_stop(bridge, hermes_home=hermes_home) is CompactOutcome.COMPACTED
    assert [json.loads(data) for data in received] == [{"mode": "compact"}]
    assert state(hermes_home).read_text() == str(NOW_MS)


@freeze_time(NOW)
def test_3_inside_the_window_skips(
    enabled: None, fp: FakeProcess, bridge: Bridge, hermes_home: Path
) -> None:
    """Last compaction one minute ago with a 10-minute window: skip and keep the timestamp."""
    write_state(hermes_home, str(NOW_MS - MINUTE_MS))
    assert maybe_compact_on_stop(bridge, hermes_home=hermes_home) is CompactOutcome.INSIDE_WINDOW
    assert fp.call_count(CLEANUP) == 0
    assert state(hermes_home).read_text() == str(NOW_MS - MINUTE_MS)


@freeze_time(NOW)
def test_4_after_the_window_compacts_and_updates(
    enabled: None, fp: FakeProcess, bridge: Bridge, hermes_home: Path
) -> None:
    """Last compaction eleven minutes ago: compact and move the timestamp to now."""
    fp.register(CLEANUP)
    write_state(hermes_home, str(NOW_MS - 11 * MINUTE_MS))
    assert maybe_compact_on_stop(bridge, hermes_home=hermes_home) is CompactOutcome.COMPACTED
    assert fp.call_count(CLEANUP) == 1
    assert state(hermes_home).read_text() == str(NOW_MS)


@freeze_time(NOW)
def test_5_failed_compaction_leaves_the_timestamp_for_a_retry(
    enabled: None, fp: FakeProcess, bridge: Bridge, hermes_home: Path
) -> None:
    """cleanup_frames fails: no exception, and the old timestamp stays so the next turn retries."""
    fp.register(CLEANUP, returncode=1, stderr="mind is locked")
    write_state(hermes_home, str(NOW_MS - 11 * MINUTE_MS))
    assert maybe_compact_on_stop(bridge, hermes_home=hermes_home) is CompactOutcome.FAILED
    assert state(hermes_home).read_text() == str(NOW_MS - 11 * MINUTE_MS)
    fp.register(CLEANUP)
    assert maybe_compact_on_stop(bridge, hermes_home=hermes_home) is CompactOutcome.COMPACTED


@freeze_time(NOW)
def test_6_unwritable_state_still_compacts(
    enabled: None, fp: FakeProcess, bridge: Bridge, tmp_path: Path
) -> None:
    """Hermes home is a file, so no state can be written: cleanup_frames still runs, no raise."""
    fp.register(CLEANUP)
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x")
    assert maybe_compact_on_stop(bridge, hermes_home=not_a_dir) is CompactOutcome.COMPACTED
    assert fp.call_count(CLEANUP) == 1
    assert not_a_dir.read_text() == "x"


@freeze_time(NOW)
def test_7_window_variable_is_honoured_and_the_override_wins(
    enabled: None,
    fp: FakeProcess,
    bridge: Bridge,
    hermes_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """WAGGLE_HERMES_COMPACT_WINDOW_MIN=5 makes 6 minutes ago due; an explicit window wins."""
    monkeypatch.setenv("WAGGLE_HERMES_COMPACT_WINDOW_MIN", "5")
    write_state(hermes_home, str(NOW_MS - 6 * MINUTE_MS))
    outcome = maybe_compact_on_stop(bridge, hermes_home=hermes_home, window_ms=7 * MINUTE_MS)
    assert outcome is CompactOutcome.INSIDE_WINDOW
    fp.register(CLEANUP)
    assert maybe_compact_on_stop(bridge, hermes_home=hermes_home) is CompactOutcome.COMPACTED


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, False),
        ("", False),
        ("0", False),
        ("false", False),
        ("FALSE", False),
        ("False", False),
        ("1", True),
        ("true", True),
        ("yes", True),
        ("off", True),  # only '', '0' and 'false' are off: the design's exact rule
        (" 0", True),
    ],
)
def test_8_flag_truth_table(value: str | None, expected: bool) -> None:
    """Truthy exactly when set and not '', '0' or 'false' in any letter case."""
    env = {} if value is None else {"WAGGLE_HERMES_COMPACT_ON_STOP": value}
    assert is_compact_enabled(env) is expected


# --- window and state parsing --------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected_ms"),
    [
        (None, DEFAULT_WINDOW_MS),
        ("5", 5 * MINUTE_MS),
        ("0.5", 30_000),
        ("0", DEFAULT_WINDOW_MS),
        ("-3", DEFAULT_WINDOW_MS),
        ("nan", DEFAULT_WINDOW_MS),
        ("inf", DEFAULT_WINDOW_MS),
        ("ten", DEFAULT_WINDOW_MS),
        ("", DEFAULT_WINDOW_MS),
    ],
)
def test_window_is_used_only_when_finite_and_positive(
    value: str | None, expected_ms: float
) -> None:
    """The window variable counts only as a finite, positive number of minutes."""
    env = {} if value is None else {"WAGGLE_HERMES_COMPACT_WINDOW_MIN": value}
    assert resolve_window_ms(env) == expected_ms
    assert resolve_window_ms(env, override_ms=1234) == 1234


@pytest.mark.parametrize("content", ["", "garbage", "12abc", "1.5e3x", "\x00\x01"])
@freeze_time(NOW)
def test_garbage_state_means_never(
    content: str, enabled: None, fp: FakeProcess, bridge: Bridge, hermes_home: Path
) -> None:
    """An empty or unreadable state file counts as 'never compacted'."""
    fp.register(CLEANUP)
    write_state(hermes_home, content)
    assert read_last_compact_ts(state(hermes_home)) is None
    assert maybe_compact_on_stop(bridge, hermes_home=hermes_home) is CompactOutcome.COMPACTED


@freeze_time(NOW)
def test_timestamp_far_in_the_future_counts_as_garbage(
    enabled: None, fp: FakeProcess, bridge: Bridge, hermes_home: Path
) -> None:
    """A timestamp more than a window ahead (the clock went back) does not lock compaction out."""
    fp.register(CLEANUP)
    write_state(hermes_home, str(NOW_MS + 11 * MINUTE_MS))
    assert maybe_compact_on_stop(bridge, hermes_home=hermes_home) is CompactOutcome.COMPACTED
    assert state(hermes_home).read_text() == str(NOW_MS)


@freeze_time(NOW)
def test_timestamp_slightly_in_the_future_is_inside_the_window(
    enabled: None, fp: FakeProcess, bridge: Bridge, hermes_home: Path
) -> None:
    """A timestamp less than a window ahead (small clock skew) still counts as recent."""
    write_state(hermes_home, str(NOW_MS + 2 * MINUTE_MS))
    assert maybe_compact_on_stop(bridge, hermes_home=hermes_home) is CompactOutcome.INSIDE_WINDOW


# --- files: creation, modes, atomicity ------------------------------------------------------


@freeze_time(NOW)
def test_creates_home_0700_and_state_0600(
    enabled: None, fp: FakeProcess, bridge: Bridge, hermes_home: Path
) -> None:
    """A missing Hermes home is created private, and the state file is readable by us only."""
    fp.register(CLEANUP)
    nested = hermes_home / "profiles" / "work"
    maybe_compact_on_stop(bridge, hermes_home=nested)
    assert stat.S_IMODE(nested.stat().st_mode) == 0o700
    assert stat.S_IMODE(state(nested).stat().st_mode) == 0o600


@freeze_time(NOW)
def test_existing_home_keeps_its_mode(
    enabled: None, fp: FakeProcess, bridge: Bridge, hermes_home: Path
) -> None:
    """A Hermes home the user already has is not chmod-ed."""
    fp.register(CLEANUP)
    hermes_home.mkdir(mode=0o755)
    os.chmod(hermes_home, 0o755)
    maybe_compact_on_stop(bridge, hermes_home=hermes_home)
    assert stat.S_IMODE(hermes_home.stat().st_mode) == 0o755


@freeze_time(NOW)
def test_state_write_is_atomic(
    enabled: None,
    fp: FakeProcess,
    bridge: Bridge,
    hermes_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The state file is replaced, never written in place: a crash mid-write leaves the old value."""
    fp.register(CLEANUP)
    write_state(hermes_home, str(NOW_MS - 11 * MINUTE_MS))
    old_inode = state(hermes_home).stat().st_ino

    def crash(*args: object, **kwargs: object) -> None:
        raise OSError("killed mid-write")

    monkeypatch.setattr(os, "replace", crash)
    assert maybe_compact_on_stop(bridge, hermes_home=hermes_home) is CompactOutcome.COMPACTED
    assert state(hermes_home).read_text() == str(NOW_MS - 11 * MINUTE_MS)
    assert state(hermes_home).stat().st_ino == old_inode
    assert sorted(p.name for p in hermes_home.iterdir()) == [
        ".hive-mind-last-compact",
        ".hive-mind-last-compact.lock",
    ]


@freeze_time(NOW)
def test_state_path_follows_hermes_home_variable(
    monkeypatch: pytest.MonkeyPatch, hermes_home: Path
) -> None:
    """Without an argument, the state file lives in $HERMES_HOME."""
    monkeypatch.setenv("HERMES_HOME", str(hermes_home))
    assert compact_state_path() == str(hermes_home / ".hive-mind-last-compact")


def test_state_path_defaults_to_dot_hermes(isolated_home: Path) -> None:
    """Without $HERMES_HOME, the state file lives in ~/.hermes."""
    assert compact_state_path() == str(isolated_home / ".hermes" / ".hive-mind-last-compact")


# --- concurrency ----------------------------------------------------------------------------


@freeze_time(NOW)
def test_a_held_lock_skips(
    enabled: None, fp: FakeProcess, bridge: Bridge, hermes_home: Path
) -> None:
    """While another process holds the lock, this one skips instead of compacting twice."""
    import fcntl

    hermes_home.mkdir()
    with open(hermes_home / ".hive-mind-last-compact.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        outcome = maybe_compact_on_stop(bridge, hermes_home=hermes_home)
    assert outcome is CompactOutcome.LOCKED
    assert fp.call_count(CLEANUP) == 0


def test_concurrent_stops_compact_once(
    enabled: None, stub_bridge: object, hermes_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight threads stopping at once (a busy gateway) produce exactly one compaction."""
    from tests.conftest import StubBridge

    assert isinstance(stub_bridge, StubBridge)
    real = Bridge.from_env()
    outcomes: list[CompactOutcome] = []
    barrier = threading.Barrier(8)

    def stop() -> None:
        barrier.wait()
        outcomes.append(maybe_compact_on_stop(real, hermes_home=hermes_home))

    threads = [threading.Thread(target=stop) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert stub_bridge.tools() == ["cleanup_frames"]
    assert outcomes.count(CompactOutcome.COMPACTED) == 1
    assert set(outcomes) <= {
        CompactOutcome.COMPACTED,
        CompactOutcome.LOCKED,
        CompactOutcome.INSIDE_WINDOW,
    }


@freeze_time(NOW)
def test_never_raises_on_unexpected_errors(
    enabled: None, bridge: Bridge, hermes_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even a bug deep inside (here: the clock raising) is swallowed and reported as FAILED."""

    def broken_clock() -> int:
        raise RuntimeError("clock exploded")

    assert (
        maybe_compact_on_stop(bridge, hermes_home=hermes_home, now=broken_clock)
        is CompactOutcome.FAILED
    )
