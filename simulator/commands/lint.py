"""``hooksim lint [FILES...]``: named findings about hook configs (each host's own files in
home and project when none are named), each at its file and line with a fix; exit 1 on an
error-level finding, 2 on input that cannot be read.

``--probe`` then fires each hook of the configs once per event on every host whose hooks are
commands, through ``hooksim fire``'s answer, and prints how each host reads its output
(``hooksim.inspect.probe``). The hooks are real commands: it asks first on a terminal, needs
``--yes`` without one, and each firing runs in a throwaway home."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import AddParser, root_option

if TYPE_CHECKING:
    from ..hosts import Host
    from ..inspect import Config, ConfigFile
    from ..inspect.probe import Row

NEEDS_YES = (
    "hooksim: lint --probe runs each hook as a real command and asks first:"
    " give --yes where there is no terminal to ask on"
)


def register(add_parser: AddParser) -> None:
    parser = add_parser("lint")
    parser.add_argument(
        "files",
        metavar="FILE",
        nargs="*",
        help="config files (default: each host's own in home and the working directory)",
    )
    parser.add_argument("--tool", metavar="HOST", help="the host that reads the files named")
    parser.add_argument("--json", action="store_true", help="print the findings as JSON")
    parser.add_argument(
        "--format",
        choices=["text", "github"],
        default="text",
        help="github: GitHub Actions annotations",
    )
    parser.add_argument("--sarif", metavar="FILE", help="also write the findings as SARIF 2.1.0")
    root_option(parser)
    parser.add_argument(
        "--probe",
        action="store_true",
        help="then fire each hook once on every host, in a throwaway home, and print how each"
        " host reads its output",
    )
    parser.add_argument("--yes", action="store_true", help="--probe without asking first")
    parser.set_defaults(func=lint)


def lint(args: argparse.Namespace) -> int:
    from ..ci_formats import write_sarif
    from ..hosts import UnknownHost, get_host
    from ..inspect import Unreadable, output, read
    from ..inspect import lint as findings_in

    if args.probe and not args.yes and not sys.stdin.isatty():
        print(NEEDS_YES, file=sys.stderr)
        return 2
    try:
        tool = get_host(args.tool) if args.tool else None
        files = _named(args.files, tool) if args.files else _discovered()
        findings, read_configs = [], []
        for host, group in files:
            configs = [read(host, f) for f in group]
            findings += findings_in(host, configs, Path.cwd())
            read_configs.append((host, configs))
    except (UnknownHost, Unreadable) as e:
        print(f"hooksim: {e}", file=sys.stderr)
        return 2
    count = sum(len(group) for _, group in files)
    if args.format == "github" and not args.json:
        print("\n".join([*output.github(findings, args.root), output.summary(findings, count)]))
    elif not args.json:
        print(output.text(findings, count), end="")
    matrix = _probe(read_configs, args.yes) if args.probe else None
    if args.json:
        print(_json([f.data() for f in findings], matrix))
    elif matrix is not None:
        print(_probe_text(matrix))
    if args.sarif:
        write_sarif(output.sarif(findings, args.root), args.sarif)
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


def _probe(configs: list[tuple[Host, list[Config]]], yes: bool) -> list[Row] | None:
    """Each hook fired on every host and read, once the user says yes (``yes``: without
    asking); None when the user says no."""
    from ..inspect import probe

    found = probe.rows(configs)
    if found and not yes and not _agreed(len(found), len(probe.columns())):
        print("hooksim: lint: probe not run", file=sys.stderr)
        return None
    return probe.probe(found, _fire)


def _agreed(hooks: int, hosts: int) -> bool:
    """Whether the user answers yes on the terminal to running the hooks."""
    sys.stdout.flush()
    plural = "" if hooks == 1 else "s"
    sys.stderr.write(f"run {hooks} hook{plural} on {hosts} hosts in a throwaway home? [y/N] ")
    sys.stderr.flush()
    return sys.stdin.readline().strip().lower() in ("y", "yes")


def _fire(host: str, event: str, command: str) -> dict[str, Any]:
    """``hooksim fire``'s answer for the hook on ``host``'s ``event``; {"error": line} when it
    cannot run there."""
    from ..replay.runner import SetupError
    from .fire import Refusal, answer

    try:
        return answer(host, event, command)
    except (Refusal, SetupError) as e:
        return {"error": " ".join(str(e).split())}


def _probe_text(matrix: list[Row]) -> str:
    from ..inspect import probe

    return probe.text(matrix) if matrix else "probe: no hooks to fire"


def _json(findings: list[dict[str, Any]], matrix: list[Row] | None) -> str:
    """The findings, and the probe's matrix when it ran, as one JSON object."""
    from ..inspect import probe

    data: dict[str, Any] = {"findings": findings}
    if matrix is not None:
        data["probe"] = probe.data(matrix)
    return json.dumps(data, indent=2, ensure_ascii=False)
