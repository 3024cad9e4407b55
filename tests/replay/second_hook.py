"""A second, independent implementation of the Hermes hook contract, for judging hooksim.

    python second_hook.py session-start | user-prompt-submit | stop   (one payload on stdin)

Written from README's contract alone (the bridge contract table, the capture-fidelity rules of
the compaction gate), sharing no code with ``hermes_hooks``: if hooksim's shipped scenarios
are about the contract rather than one implementation, this passes all of them through
``hooksim run --hooks-config``. Standard library only; always exits 0; prints nothing on
stdout; a problem is one line on stderr.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

FLAG = "WAGGLE_HERMES_COMPACT_ON_STOP"
WINDOW = "WAGGLE_HERMES_COMPACT_WINDOW_MIN"


class CallFailed(Exception):
    pass


def call(tool: str, arguments: dict[str, Any]) -> None:
    """One bridge call: argv ``[*cmd, "call", tool]``, JSON on stdin, killed with its children
    after ``WAGGLE_BRIDGE_TIMEOUT_S``."""
    command = shlex.split(os.environ.get("WAGGLE_MIND_CMD") or "hive-mind")
    try:
        timeout = float(os.environ.get("WAGGLE_BRIDGE_TIMEOUT_S") or 10)
    except ValueError:
        timeout = 10.0
    try:
        proc = subprocess.Popen(
            [*command, "call", tool],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as e:
        raise CallFailed(f"{tool}: cannot start the bridge ({e})") from None
    try:
        out, err = proc.communicate(json.dumps(arguments).encode(), timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise CallFailed(f"{tool}: no answer in {timeout:g}s") from None
    if proc.returncode != 0:
        raise CallFailed(f"{tool}: exit {proc.returncode} {err.decode(errors='replace').strip()}")
    text = out.decode(errors="replace").strip()
    if text:
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        if not isinstance(parsed, dict):
            raise CallFailed(f"{tool}: the answer is not a JSON object")


def read_payload() -> tuple[dict[str, Any], dict[str, Any]] | None:
    try:
        payload = json.loads(sys.stdin.buffer.read() or b"null")
    except ValueError:
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("extra"), dict):
        return None
    return payload, payload["extra"]


def text(extra: dict[str, Any], key: str) -> str:
    value = extra.get(key)
    return value if isinstance(value, str) else ""


def compaction_due() -> None:
    """At most one successful compaction per window, remembered in the Hermes home."""
    flag = os.environ.get(FLAG)
    if flag is None or flag.lower() in ("", "0", "false"):
        return
    try:
        minutes = float(os.environ.get(WINDOW, ""))
    except ValueError:
        minutes = math.nan
    window = minutes * 60_000 if math.isfinite(minutes) and minutes > 0 else 600_000
    home = Path(os.environ.get("HERMES_HOME") or Path.home() / ".hermes")
    state = home / ".hive-mind-last-compact"
    lock = None
    try:
        home.mkdir(parents=True, exist_ok=True)
        lock = open(str(state) + ".lock", "a")  # noqa: SIM115 - held across the whole gate
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return  # another session is compacting now
    except OSError:
        lock = None  # cannot lock or remember: compact anyway
    now = int(time.time() * 1000)
    try:
        last_text = state.read_text().strip()
    except OSError:
        last_text = ""
    last = int(last_text) if last_text.isdigit() else None
    if last is not None and (last - now > window or now - last >= window):
        last = None
    if last is None:
        try:
            call("cleanup_frames", {"mode": "compact"})
        except CallFailed as e:
            print(f"second hook: compaction failed: {e}", file=sys.stderr)
            return
        try:
            temp = state.with_name(state.name + ".tmp")
            temp.write_text(str(now))
            temp.replace(state)
        except OSError as e:
            print(f"second hook: cannot remember the compaction ({e})", file=sys.stderr)
    if lock is not None:
        lock.close()


def main(command: str) -> None:
    read = read_payload()
    if read is None:
        print(f"second hook {command}: not a Hermes payload", file=sys.stderr)
        return
    payload, extra = read
    session = payload.get("session_id") if isinstance(payload.get("session_id"), str) else ""
    try:
        if command == "session-start":
            call(
                "start_session",
                {
                    "session_id": session,
                    "cwd": payload.get("cwd") or "",
                    "model": text(extra, "model"),
                    "platform": text(extra, "platform"),
                    "source": "hermes",
                },
            )
        elif command == "user-prompt-submit" and text(extra, "user_message"):
            call(
                "save_memory",
                {
                    "content": text(extra, "user_message"),
                    "role": "user",
                    "temporary": True,
                    "session_id": session,
                    "turn_id": text(extra, "turn_id"),
                    "source": "hermes",
                },
            )
        elif command == "stop":
            if text(extra, "assistant_response"):
                call(
                    "save_memory",
                    {
                        "content": text(extra, "assistant_response"),
                        "role": "assistant",
                        "temporary": False,
                        "session_id": session,
                        "turn_id": text(extra, "turn_id"),
                        "source": "hermes",
                    },
                )
            compaction_due()
    except CallFailed as e:
        print(f"second hook {command}: {e}", file=sys.stderr)


if __name__ == "__main__":
    try:
        main(sys.argv[1] if len(sys.argv) > 1 else "")
    except Exception as e:  # the contract: never fail Hermes' turn
        print(f"second hook: {type(e).__name__}: {e}", file=sys.stderr)
    raise SystemExit(0)
