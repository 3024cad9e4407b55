"""A recording stub of the mind's bridge CLI: ``stub_bridge.py call TOOL`` with JSON on stdin.

Each call appends ``{"tool", "arguments", "pid"}`` to ``$STUB_BRIDGE_LOG``. The outcome of the
n-th call of a tool is the n-th item of ``$STUB_BRIDGE_<TOOL>`` (comma-separated; the last item
repeats; default ``ok``): ``ok`` prints ``{"ok": true}``, ``empty`` prints nothing, ``fail``
exits 1, ``exitN`` exits N, ``garbage`` prints a non-JSON line, ``list`` prints a JSON array,
``hang`` sleeps for an hour (in a child process too, to test that the whole tree is killed),
``flood`` prints without end, ``echo`` copies its stdin to stderr and exits 1, ``daemon``
prints ``{"ok": true}`` and exits, leaving a child that holds its stdout and stderr open for an
hour (its pid in ``$STUB_BRIDGE_LOG.grandchild``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


def main() -> int:
    if len(sys.argv) != 3 or sys.argv[1] != "call":
        print(f"usage: stub_bridge.py call TOOL (got {sys.argv[1:]})", file=sys.stderr)
        return 64
    tool = sys.argv[2]
    arguments = json.loads(sys.stdin.read())
    log = os.environ["STUB_BRIDGE_LOG"]
    previous = 0
    if os.path.exists(log):
        with open(log, encoding="utf-8") as f:
            previous = sum(1 for line in f if json.loads(line)["tool"] == tool)
    with open(log, "a", encoding="utf-8") as f:
        f.write(json.dumps({"tool": tool, "arguments": arguments, "pid": os.getpid()}) + "\n")
    plan = os.environ.get(f"STUB_BRIDGE_{tool.upper()}", "ok").split(",")
    outcome = plan[min(previous, len(plan) - 1)]
    if outcome == "ok":
        print(json.dumps({"ok": True}))
    elif outcome == "garbage":
        print("this is not json")
    elif outcome == "list":
        print("[1, 2]")
    elif outcome == "fail":
        print("stub bridge: scripted failure", file=sys.stderr)
        return 1
    elif outcome.startswith("exit"):
        return int(outcome[4:])
    elif outcome == "flood":
        chunk = b"y\n" * 32768
        while True:
            sys.stdout.buffer.write(chunk)
    elif outcome == "echo":
        print(json.dumps(arguments), file=sys.stderr)
        return 1
    elif outcome == "daemon":
        print(json.dumps({"ok": True}), flush=True)
        child = subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(3600)"], start_new_session=True
        )
        with open(log + ".grandchild", "w", encoding="utf-8") as f:
            f.write(str(child.pid))
    elif outcome == "hang":
        # A grandchild keeps the pipe open: only killing the process group ends the call.
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        with open(log + ".grandchild", "w", encoding="utf-8") as f:
            f.write(str(child.pid))
        time.sleep(3600)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
