"""``hooksim lint [FILES...]``: named findings about hook configs (each host's own files in
home and project when none are named), each at its file and line with a fix; exit 1 on an
error-level finding, 2 on input that cannot be read."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from . import AddParser

if TYPE_CHECKING:
    from ..hosts import Host
    from ..inspect import ConfigFile


def register(add_parser: AddParser) -> None:
    parser = add_parser("lint", help="check hook config files for mistakes a host is silent about")
    parser.add_argument(
        "files", metavar="FILE", nargs="*",
        help="config files (default: each host's own in home and the working directory)",
    )  # fmt: skip
    parser.add_argument("--tool", metavar="HOST", help="the host that reads the files named")
    parser.add_argument("--json", action="store_true", help="print the findings as JSON")
    parser.add_argument(
        "--format", choices=["text", "github"], default="text",
        help="github: GitHub Actions annotations",
    )  # fmt: skip
    parser.add_argument("--sarif", metavar="FILE", help="also write the findings as SARIF 2.1.0")
    parser.set_defaults(func=lint)


def lint(args: argparse.Namespace) -> int:
    from ..hosts import UnknownHost, get_host
    from ..inspect import Unreadable, output, read
    from ..inspect import lint as findings_in

    try:
        tool = get_host(args.tool) if args.tool else None
        files = _named(args.files, tool) if args.files else _discovered()
        findings = []
        for host, group in files:
            configs = [read(host, f) for f in group]
            findings += findings_in(host, configs, Path.cwd())
    except (UnknownHost, Unreadable) as e:
        print(f"hooksim: {e}", file=sys.stderr)
        return 2
    count = sum(len(group) for _, group in files)
    if args.json:
        print(output.as_json(findings))
    elif args.format == "github":
        print("\n".join([*output.github(findings), output.summary(findings, count)]))
    else:
        print(output.text(findings, count), end="")
    if args.sarif:
        output.write_sarif(findings, args.sarif)
    return 1 if any(f.level == "error" for f in findings) else 0


def _named(names: list[str], tool: Host | None) -> list[tuple[Host, list[ConfigFile]]]:
    """Each file named with the host that reads it (``--tool``, else the file's name says)."""
    from ..inspect import Unreadable, host_of, named

    files = []
    for name in names:
        path = Path(name)
        if not path.is_file():
            raise Unreadable(f"{name}: no such file")
        host = tool or host_of(path)
        if host is None:
            raise Unreadable(f"{name}: which host reads it? name it with --tool")
        files.append((host, [named(path, host)]))
    return files


def _discovered() -> list[tuple[Host, list[ConfigFile]]]:
    """Each host (whose hooks are processes) with the files it reads that exist."""
    from ..hosts import HOSTS
    from ..inspect import layers

    found = []
    for host in HOSTS.values():
        present = [f for f in layers(host, Path.cwd(), os.environ) if f.path.is_file()]
        if present and not host.in_process:
            found.append((host, present))
    return found
