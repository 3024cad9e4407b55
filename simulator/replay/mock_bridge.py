"""The mock mind bridge: ``mock_bridge.py call TOOL`` with one JSON object on stdin.

It implements the bridge contract of ``hermes_hooks`` and is what hooksim puts in
``WAGGLE_MIND_CMD`` for the hooks it runs (``python -I -m hooksim.replay.mock_bridge``). Standard
library only; ``-I`` keeps the virtual-clock start-up of hook processes from being paid again.

Every call is appended to the ledger (``$HOOKSIM_LEDGER``, JSON lines) under an exclusive lock,
so concurrent hooks never interleave or lose a record: tool, arguments, virtual time, turn,
event, pid (with the session id and the chain of parent pids, which tell hooksim which hook
made the call), the call's number for its tool, and the scripted outcome. The plan
(``$HOOKSIM_BRIDGE_PLAN``, JSON ``{"tool": ["ok", "fail", ...]}``) gives the outcome of the n-th
call of a tool; the last entry repeats; the default is ``ok``:

    ok        exit 0, print {"ok": true}       empty    exit 0, print nothing
    fail      exit 1 with a message on stderr  exit N   exit N
    hang      sleep until killed               slow Ns  sleep N seconds (real time), then ok
    garbage   exit 0, print a non-JSON line
    meet      ok, once every session acting at this instant has made a ``meet`` call or ended
              its step (``$HOOKSIM_MEET``, set by hooksim for coinciding steps of several
              sessions; elsewhere ``ok`` at once)

With ``$HOOKSIM_FRAMES`` set (an SQLite file) it also keeps a small model of the mind's frames:
``save_memory`` adds one, ``cleanup_frames`` deletes temporary frames older than
``$HOOKSIM_TEMPORARY_TTL_MS`` (virtual time).
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:  # the bridge runs per call: it imports nothing it does not use
    from .result import BridgeCall

# What each field of a ledger record holds, as ``_record`` writes it. A hook can append to the
# ledger itself (``$HOOKSIM_LEDGER`` is in its environment): ``read_ledger`` takes no record it
# could not have written, so a crafted one never reaches a report as data.
_FIELDS: dict[str, tuple[type, ...]] = {
    "tool": (str,),
    "virtual_ms": (int, float),
    "turn": (int,),
    "event": (str,),
    "pid": (int,),
    "sid": (int,),
    "ancestors": (list,),
    "call": (int,),
    "outcome": (str,),
    "session": (str,),
}


def read_ledger(text: str) -> list[BridgeCall]:
    """The ledger's records; ValueError naming the first line that is not one of ours."""
    records: list[BridgeCall] = []
    for number, line in enumerate(text.splitlines(), 1):
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            raise ValueError(f"line {number} of the bridge ledger is not JSON") from None
        if not _is_record(record):
            raise ValueError(
                f"line {number} of the bridge ledger is not a record of the mock bridge"
                " (a hook wrote to $HOOKSIM_LEDGER?)"
            )
        records.append(record)
    return records


def _is_record(record: object) -> bool:
    """Whether ``record`` is one ``_record`` could have written: each field of its kind."""
    if not isinstance(record, dict):
        return False
    for key, kinds in _FIELDS.items():
        value = record.get(key)
        if not isinstance(value, kinds) or isinstance(value, bool):
            return False
    ancestors = record["ancestors"]
    tag = record.get("tag", "")
    return (
        isinstance(ancestors, list)
        and all(isinstance(p, int) and not isinstance(p, bool) for p in ancestors)
        and isinstance(tag, str)
    )


def _virtual_ms() -> int:
    return int(float(os.environ.get("HOOKSIM_NOW") or time.time()) * 1000)


def _ancestors() -> list[int]:
    """This process's parent, grandparent, ... up to init, read from ``/proc`` (Linux).

    hooksim finds the hook that made a call among these (a hook may call the bridge through
    children of its own). Elsewhere the list is empty and the session id alone is used.
    """
    chain: list[int] = []
    pid = os.getppid()
    while pid > 1 and len(chain) < 64:
        chain.append(pid)
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            break
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        pid = int(stat[stat.rindex(b")") + 2 :].split()[1])
    return chain


def _record(tool: str, arguments: object) -> tuple[int, str]:
    """Append this call to the ledger; return its number for the tool and its outcome."""
    ledger = os.environ["HOOKSIM_LEDGER"]
    plan = json.loads(os.environ.get("HOOKSIM_BRIDGE_PLAN") or "{}").get(tool) or ["ok"]
    with open(ledger, "a+", encoding="utf-8") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        # A session with its own plan (a scenario's ``sessions:``) counts its own calls.
        session = os.environ.get("HOOKSIM_SESSION", "")
        number = 1 + sum(
            1
            for record in map(json.loads, f)
            if record["tool"] == tool and record.get("session", "") == session
        )
        outcome = plan[min(number, len(plan)) - 1]
        record = {
            "tool": tool,
            "arguments": arguments,
            "virtual_ms": _virtual_ms(),
            "turn": int(os.environ.get("HOOKSIM_TURN") or 0),
            "event": os.environ.get("HOOKSIM_EVENT", ""),
            "pid": os.getpid(),
            # hooksim starts every hook as a session leader: the session id is the hook's pid,
            # even for a call made by a child the hook left running.
            "sid": os.getsid(0),
            "ancestors": _ancestors(),
            "call": number,
            "outcome": outcome,
            "session": session,
        }
        # An in-process hook (OpenClaw's handlers share one Node process) names itself here.
        if os.environ.get("HOOKSIM_HOOK_TAG"):
            record["tag"] = os.environ["HOOKSIM_HOOK_TAG"]
        f.write(json.dumps(record, ensure_ascii=False) + "\n")
        f.flush()
    return number, outcome


def _model_frames(tool: str, arguments: dict[str, object]) -> None:
    path = os.environ.get("HOOKSIM_FRAMES")
    if not path:
        return
    db = sqlite3.connect(path, timeout=30)
    try:
        with db:
            db.execute(
                "CREATE TABLE IF NOT EXISTS frames (id INTEGER PRIMARY KEY, role TEXT, "
                "temporary INTEGER, session_id TEXT, created_ms INTEGER, content TEXT)"
            )
            if tool == "save_memory":
                db.execute(
                    "INSERT INTO frames (role, temporary, session_id, created_ms, content) VALUES (?, ?, ?, ?, ?)",
                    (
                        str(arguments.get("role", "")),
                        1 if arguments.get("temporary") else 0,
                        str(arguments.get("session_id", "")),
                        _virtual_ms(),
                        str(arguments.get("content", "")),
                    ),
                )
            elif tool == "cleanup_frames":
                ttl = int(os.environ.get("HOOKSIM_TEMPORARY_TTL_MS") or 0)
                db.execute(
                    "DELETE FROM frames WHERE temporary = 1 AND created_ms <= ?",
                    (_virtual_ms() - ttl,),
                )
    finally:
        db.close()


def temporary_frames(frames: str | os.PathLike[str]) -> int:
    """How many temporary frames the model of the mind in ``frames`` holds (0 if none yet)."""
    if not os.path.exists(frames):
        return 0
    db = sqlite3.connect(frames, timeout=30)
    try:
        row = db.execute("SELECT count(*) FROM frames WHERE temporary = 1").fetchone()
    except sqlite3.OperationalError:  # no call has made the table yet
        return 0
    finally:
        db.close()
    return int(row[0])


def _meet() -> None:
    """Wait until every session acting at this instant is here or done with its step.

    hooksim gives coinciding steps of several sessions a folder, ``$HOOKSIM_MEET``, in which
    each session's mark appears when its step ends, and ``$HOOKSIM_MEET_COUNT``, how many act.
    A call that waits here holds whatever its hook holds (the gate's lock) until the other
    sessions have passed the same point or finished: a hook that does not exclude the others
    is caught every time, not when the machine's timing happens to interleave them. A hook
    that does exclude them lets their steps end, which releases this call.
    """
    folder = os.environ.get("HOOKSIM_MEET")
    if not folder:
        return
    with open(os.path.join(folder, os.environ.get("HOOKSIM_MEET_AS", "call")), "a"):
        pass
    count = int(os.environ.get("HOOKSIM_MEET_COUNT") or 1)
    while len(os.listdir(folder)) < count:
        time.sleep(0.005)  # a condition polled, not a race: it ends when the others get here


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "call":
        print(f"mock bridge: usage: call TOOL (got {argv})", file=sys.stderr)
        return 64
    tool = argv[1]
    try:
        arguments = json.loads(sys.stdin.read())
    except ValueError as e:
        print(f"mock bridge: stdin is not JSON ({e})", file=sys.stderr)
        return 65
    _, outcome = _record(tool, arguments)
    if outcome == "meet":
        _meet()
        outcome = "ok"
    if outcome == "hang":
        time.sleep(24 * 3600)
    if outcome.startswith("slow "):
        amount = outcome[5:]
        time.sleep(float(amount[:-2]) / 1000 if amount.endswith("ms") else float(amount[:-1]))
        outcome = "ok"
    if outcome == "fail":
        print(f"mock bridge: scripted failure of {tool}", file=sys.stderr)
        return 1
    if outcome.startswith("exit "):
        return int(outcome[5:])
    if outcome == "garbage":
        print("<<not json>>")
        return 0
    if isinstance(arguments, dict):
        _model_frames(tool, arguments)
    if outcome == "ok":
        print(json.dumps({"ok": True}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
