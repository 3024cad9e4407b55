"""``hooksim explain HOST EVENT [NAME]``: which of the user's configured hooks the host runs
for a firing, from which file and line, in which order, and why each other one does not."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..printable import escaped, no_commands
from . import AddParser

if TYPE_CHECKING:
    from ..inspect import Answer


def register(add_parser: AddParser) -> None:
    parser = add_parser("explain")
    parser.add_argument("host", metavar="HOST", help="the agent CLI (hooksim hosts lists them)")
    parser.add_argument("event", metavar="EVENT", help="the event, as the host names it")
    parser.add_argument(
        "name",
        metavar="NAME",
        nargs="?",
        help="what a matcher tests: the tool (Bash), or a source or trigger",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        nargs="+",
        action="extend",
        help="read these files instead of the host's own in home and project",
    )
    parser.add_argument("--json", action="store_true", help="print the answer as JSON")
    parser.set_defaults(func=explain)


def explain(args: argparse.Namespace) -> int:
    from ..hosts import UnknownHost, get_host
    from ..inspect import Unreadable, closest, layers, named, read
    from ..inspect import explain as answer_for

    try:
        host = get_host(args.host)
    except UnknownHost as e:
        return _refuse(str(e))
    if host.in_process:
        return _refuse(
            f"{host.title}'s hooks are handlers its plugins register in its own process;"
            " explain reads hook commands only"
        )
    if not host.knows(args.event):
        close = closest(host, args.event)
        mean = f" (did you mean {close!r}?)" if close else ""
        return _refuse(f"{host.title} has no event {args.event!r}{mean}")
    if args.config:
        files = [named(Path(p), host) for p in args.config]
    else:
        files = [f for f in layers(host, Path.cwd(), os.environ) if f.path.is_file()]
    try:
        configs = [read(host, f) for f in files]
    except Unreadable as e:
        return _refuse(str(e))
    answer = answer_for(host, args.event, args.name, configs)
    if args.json:
        print(json.dumps(_data(answer), indent=2, ensure_ascii=False))
        return 0
    looked = ", ".join(f.shown for f in layers(host, Path.cwd(), os.environ))
    print(_text(answer, looked), end="")
    return 0


def _refuse(line: str) -> int:
    print(f"hooksim: {line}", file=sys.stderr)
    return 2


def _text(answer: Answer, looked: str) -> str:
    """The answer as a person reads it (``looked``: where the host reads hooks from)."""
    host, runs = answer.host, answer.runs
    firing = answer.event + (f" ({answer.value})" if answer.value else "")
    if not runs and not answer.not_run:
        return f"{host.title} runs no hook for {firing}: none is configured in {looked}\n"
    if not runs:
        lines = [f"{host.title} runs no hook for {firing}"]
    else:
        count = f"{len(runs)} hook{'' if len(runs) == 1 else 's'}"
        how = "in parallel" if answer.parallel else "one after another"
        lines = [f"{host.title} runs {count} for {firing}, {how}:"]
        lines += [
            f"  {'' if answer.parallel else f'{n}. '}{_shown(hook.at)}  {_shown(hook.command)}"
            for n, hook in enumerate(runs, 1)
        ]
    if answer.not_run:
        lines += [
            "not run:",
            *(f"  {_shown(h.at)}  {_shown(h.command)}: {_shown(h.why)}" for h in answer.not_run),
        ]
    return no_commands("\n".join([*lines, *answer.notes])) + "\n"


def _shown(text: str) -> str:
    """A value of the user's config on one line, each control escaped: a command holding
    terminal escapes cannot retitle or clear the terminal of whoever asks."""
    return escaped(text, keep="")


def _data(answer: Answer) -> dict[str, object]:
    return {
        "host": answer.host.name,
        "event": answer.event,
        "name": answer.value,
        "parallel": answer.parallel,
        "runs": [h.data() for h in answer.runs],
        "not_run": [h.data() for h in answer.not_run],
        "notes": answer.notes,
    }
