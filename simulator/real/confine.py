"""A confined real run: the host's CLI, and every hook and tool it runs, sees the machine
read-only but for the run's work directory, in a PID namespace of its own.

A scenario scripts the tool calls a guard must refuse (``rm -rf``, ``sudo apt-get install``);
when the guard under test is broken, the real host runs them. ``Confinement.argv`` puts each
host process it starts inside:

- bubblewrap (``bwrap``) where it is installed and works here;
- else ``unshare`` (util-linux): a mount and PID namespace (a user namespace too when not
  root), set up by a few lines of ``sh``.

Either way: every folder read-only but the run's work directory, ``/tmp`` an overlay whose
writes land in the run (a host that writes there whatever TMPDIR says, as OpenClaw does, sees
the machine's ``/tmp`` and changes none of it), a ``/proc`` of the namespace, and every
process of the run gone with the host's process. The network is the machine's: the host
reaches hooksim's fake model on 127.0.0.1.

``confinement(workdir)`` is None where neither works: ``--real`` then refuses to start
(``refusal``), naming the scripted calls the host would run on the machine, unless asked to
run unconfined.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass, replace
from pathlib import Path

from ..scenario import Scenario, Turn

# Run by ``sh`` as the namespace's first process: ``$1`` the work directory, the host's argv
# after it. /tmp becomes an overlay whose writes land in the run (``.tmp-upper``); the work
# directory a mount of its own on top (through a handle, fd 3: the overlay covers its path);
# then every other mount read-only (/tmp too, where the kernel refuses the overlay), and the
# working directory entered again, through the new mounts.
_UNSHARE_SETUP = r"""
set -e
w=$1; shift
here=$(pwd -P)
mount --make-rprivate /
mkdir -p "$w/.tmp-upper" "$w/.tmp-work"
exec 3<"$w"
overlay=/tmp
mount -t overlay hooksim-tmp -o "lowerdir=/tmp,upperdir=$w/.tmp-upper,workdir=$w/.tmp-work" /tmp \
    2>/dev/null || overlay=
mount --no-canonicalize --bind /proc/self/fd/3 "$w"
exec 3<&-
for m in $(awk '{print $5}' /proc/self/mountinfo | sort -u); do
    case $m in "$w"|"$overlay"|/proc|/proc/*|/dev|/dev/pts) continue ;; esac
    mount -o remount,bind,ro "$m" 2>/dev/null || true
done
[ -n "$overlay" ] || mount -o remount,bind,ro /tmp 2>/dev/null || true
cd "$here"
"$@"
"""


@dataclass(frozen=True)
class Confinement:
    """How a run's host processes are confined: ``argv(host_argv)`` is what to start."""

    tool: str  # the path of bwrap or unshare
    workdir: Path
    overlay: bool = True  # /tmp an overlay (bubblewrap 0.9 on); else read-only like the rest

    def argv(self, argv: list[str]) -> list[str]:
        w = str(self.workdir)
        if Path(self.tool).name == "bwrap":
            tmp: list[str] = []
            if self.overlay:
                for folder in (".tmp-upper", ".tmp-work"):
                    (self.workdir / folder).mkdir(exist_ok=True)
                tmp = [
                    "--overlay-src",
                    "/tmp",
                    "--overlay",
                    f"{w}/.tmp-upper",
                    f"{w}/.tmp-work",
                    "/tmp",
                ]
            return [
                self.tool,
                "--ro-bind",
                "/",
                "/",
                "--dev-bind",
                "/dev",
                "/dev",
                "--proc",
                "/proc",
                *tmp,
                "--bind",
                w,
                w,
                "--tmpfs",
                "/dev/shm",
                "--unshare-pid",
                "--die-with-parent",
                "--",
                *argv,
            ]
        user = [] if os.geteuid() == 0 else ["--user", "--map-root-user"]
        return [
            self.tool,
            *user,
            "--mount",
            "--pid",
            "--fork",
            "--kill-child",
            "--mount-proc",
            "sh",
            "-c",
            _UNSHARE_SETUP,
            "hooksim-confined",
            w,
            *argv,
        ]


def confinement(workdir: Path) -> Confinement | None:
    """The confinement this machine offers for a run in ``workdir`` (None: none works)."""
    found = available()
    return None if found is None else Confinement(found[0], workdir, overlay=found[1])


def available() -> tuple[str, bool] | None:
    """The confining tool (and whether it gives /tmp as an overlay) that works here, else None:
    bubblewrap with an overlay, else unshare, else bubblewrap with /tmp read-only; tried once
    for each PATH."""
    return _available(os.environ.get("PATH", ""))


@functools.cache
def _available(path: str) -> tuple[str, bool] | None:
    for name, overlay in (("bwrap", True), ("unshare", True), ("bwrap", False)):
        found = shutil.which(name, path=path)
        if found is not None and _works(Confinement(found, Path(), overlay=overlay)):
            return found, overlay
    return None


def _works(how: Confinement) -> bool:
    """Whether ``how`` confines a process here (a container may forbid namespaces, an older
    bubblewrap lacks overlays; ``sh`` is found where the machine keeps it, whatever PATH says)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="hooksim-confine-") as tmp:
        argv = replace(how, workdir=Path(tmp)).argv(["/bin/sh", "-c", ":"])
        try:
            done = subprocess.run(argv, capture_output=True, timeout=30, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return False
        return done.returncode == 0


def refusal(scenario: Scenario, host_title: str) -> str:
    """Why ``--real`` does not start without confinement, naming each scripted call without
    ``run: true`` that the real host would run on this machine all the same."""
    calls = [
        f"turn {n}: {call.name} {call.args.get('command', call.args)!r}"
        for n, step in scenario.numbered_steps
        if isinstance(step, Turn)
        for call in step.tools
        if not call.run
    ]
    said = "; ".join(calls) if calls else "its hooks, and any tool the model calls"
    return (
        f"--real: no confinement on this machine (install bubblewrap, or allow unshare's"
        f" namespaces), and {host_title} would run these here: {said}; pass --unconfined to"
        f" run it anyway"
    )
