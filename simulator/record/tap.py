"""``hooksim tap --log DIR [--tool HOST] [--event EVENT] -- ORIGINAL``: record one hook run.

The tap is ``tap.sh`` beside this module, in POSIX sh: ``hooksim record start`` writes
``/bin/sh .../tap.sh tap --log DIR --tool HOST --event EVENT -- ORIGINAL`` in front of every
command hook of a config, because a Python start costs more than the whole shell tap
(``benchmarks/bench_tap.py``). ``hooksim tap`` is the same tap by hand: it replaces this process
with it.

It is transparent: the real hook gets the same stdin bytes, argv, environment and working
directory, and the host gets the hook's stdout and stderr as they come and its exit status (a
hook killed by a signal kills the tap with the same signal). Signals the host sends to stop a
hook (TERM, INT, HUP) are passed on to it. Each run is logged in ``DIR`` (its files are
described in ``tap.sh``; ``recording.load_runs`` reads them): the event, stdin, argv, cwd, the
host's environment variables (``HOST_PREFIXES``; a value whose name has one of
``redact.SECRET_NAMES`` in it is written as ``<redacted>``; ``record stop`` then redacts every
finished run by name and by shape, ``redact.scrub``), wall-clock start and end, exit code or signal, stdout and stderr.

``ORIGINAL`` is what the host would have run: for Hermes (no shell) the command's words; for
the other hosts one argument, the command line, run the way that host runs it (its profile's
``argv()``). The constants here state what ``tap.sh`` does; tests hold the two, and the host
profiles, equal.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

TAP_SH = Path(__file__).with_name("tap.sh")
# Variables of the host's own (names); a secret-looking name's value is not written down.
HOST_PREFIXES = ("CLAUDE_", "CODEX_", "CURSOR_", "GEMINI_", "HERMES_")
USAGE = "usage: hooksim tap --log DIR [--tool HOST] [--event EVENT] -- ORIGINAL..."


def _refused(tool: str) -> str:
    """Why a tap cannot stand in front of ``tool``'s hooks (its profile's ``tap_refused``: they
    are not commands); "" when it can, or the name is no host's. Read only for a tap started by
    hand (``record start`` writes ``tap.sh`` itself into configs): the profiles cost a start."""
    from ..hosts import HOSTS

    host = HOSTS.get(tool)
    return host.tap_refused if host is not None else ""


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``tap.sh`` with ``argv`` in place of this process; return only if it cannot start."""
    args = sys.argv[1:] if argv is None else list(argv)
    options = args[: args.index("--")] if "--" in args else args
    if "--tool" in options[:-1]:
        tool = options[options.index("--tool") + 1]
        refused = _refused(tool)
        if refused:
            print(f"hooksim tap: --tool {tool}: {refused}", file=sys.stderr)
            return 2
    # Python starts with these ignored, and an ignored signal stays ignored across exec: put
    # them back as subprocess does for its children, so the hook gets them as the host gave.
    for name in ("SIGPIPE", "SIGXFZ", "SIGXFSZ"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    try:
        os.execv("/bin/sh", ["/bin/sh", str(TAP_SH), "tap", *args])
    except OSError as e:
        print(f"hooksim tap: cannot run /bin/sh {TAP_SH}: {e.strerror}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
