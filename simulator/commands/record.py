"""``hooksim record start|stop|export``: record a host's real hook runs, replay them as a scenario."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..hosts import HOSTS, UnknownHost
from . import AddParser, check_tool


def register(add_parser: AddParser) -> None:
    parser = add_parser("record")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    start = sub.add_parser(
        "start", help="run every command hook of a host's config through the tap"
    )
    start.add_argument("--tool", required=True, metavar="HOST", help=", ".join(HOSTS))
    start.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="the host's config file (default: its user file)",
    )
    start.add_argument(
        "--out",
        type=Path,
        default=Path("hooksim-recording"),
        metavar="DIR",
        help="where the tap logs each hook run (default: ./hooksim-recording)",
    )
    start.set_defaults(func=_start)
    stop = sub.add_parser("stop", help="put the original config back, byte for byte")
    stop.add_argument("--out", type=Path, default=Path("hooksim-recording"), metavar="DIR")
    stop.add_argument(
        "--force", action="store_true", help="restore even if the config changed meanwhile"
    )
    stop.set_defaults(func=_stop)
    export = sub.add_parser("export", help="write a recording as a scenario file")
    export.add_argument("dir", type=Path, metavar="DIR")
    export.add_argument("-o", "--output", type=Path, required=True, metavar="FILE.yaml")
    export.add_argument("--tool", metavar="HOST", help="the host (default: the recording's)")
    export.add_argument(
        "--redact",
        action="store_true",
        help="replace the text of prompts, replies, tool inputs and tool results with x,"
        " keeping lengths (secret-shaped values are redacted with or without it)",
    )
    export.set_defaults(func=_export)


def _fail(message: str) -> int:
    print(f"hooksim record: {message}", file=sys.stderr)
    return 1


def _start(args: argparse.Namespace) -> int:
    from ..record.recording import RecordError, start

    problem = check_tool(args.tool)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    if HOSTS[args.tool].tap_refused:
        return _fail(f"--tool {args.tool}: {HOSTS[args.tool].tap_refused}")
    try:
        print(start(args.tool, args.config, args.out))
    except RecordError as e:
        return _fail(str(e))
    return 0


def _stop(args: argparse.Namespace) -> int:
    from ..record.recording import RecordError, stop

    try:
        print(stop(args.out, force=args.force))
    except RecordError as e:
        return _fail(str(e))
    return 0


def _export(args: argparse.Namespace) -> int:
    from ..record.export import export
    from ..record.recording import RecordError

    if args.tool in HOSTS and HOSTS[args.tool].tap_refused:
        return _fail(f"--tool {args.tool}: {HOSTS[args.tool].tap_refused}")
    try:
        text = export(args.dir, tool=args.tool, redact=args.redact)
    except (RecordError, UnknownHost) as e:
        return _fail(str(e))
    args.output.write_text(text, encoding="utf-8")
    print(f"hooksim: wrote {args.output}; run it with: hooksim run {args.output}")
    return 0
