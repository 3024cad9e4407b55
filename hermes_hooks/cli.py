"""``hermes-hooks``: the hook commands Hermes runs, and the tools to install them."""

from __future__ import annotations

import sys

from .hooks import BINDINGS, BINDINGS_BY_COMMAND

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence


def _parser() -> argparse.ArgumentParser:
    import argparse  # not on the per-turn hook path

    parser = argparse.ArgumentParser(
        prog="hermes-hooks",
        description="Hermes Agent shell hooks for the mind. Each hook command reads one Hermes "
        "payload on stdin and always exits 0.",
    )
    from .__version__ import __version__

    parser.add_argument("--version", action="version", version=f"hermes-hooks {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for b in BINDINGS:
        sub.add_parser(b.command, help=f"hook for {b.event}: {b.summary}")
    for name, help_text in (
        ("install", "add our three hooks to a Hermes config.yaml (comments and all kept)"),
        ("verify", "check the hooks are installed, runnable and approved"),
        ("uninstall", "remove our hooks from a Hermes config.yaml, and nothing else"),
    ):
        tool = sub.add_parser(name, help=help_text, description=help_text)
        where = tool.add_mutually_exclusive_group()
        where.add_argument(
            "--hermes-home",
            metavar="DIR",
            help="the Hermes home to act on (default: $HERMES_HOME, else ~/.hermes)",
        )
        where.add_argument(
            "--profile", metavar="NAME", help="the Hermes profile NAME (~/.hermes/profiles/NAME)"
        )
        if name != "verify":
            tool.add_argument(
                "--dry-run", action="store_true", help="print the change as a diff; write nothing"
            )
        else:
            tool.add_argument(
                "--call",
                action="store_true",
                help="also make one real call to the mind and time it: cleanup_frames, its "
                "maintenance pass (it adds nothing; it prunes the temporary frames that expired)",
            )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    # The hook path runs on every agent turn: dispatch before building any parser.
    if len(args) == 1 and args[0] in BINDINGS_BY_COMMAND:
        from .runner import run_hook

        return run_hook(BINDINGS_BY_COMMAND[args[0]])
    try:
        parsed = _parser().parse_args(args)
    except SystemExit as e:
        if e.code not in (0, None):
            return int(e.code) if isinstance(e.code, int) else 2
        raise
    if parsed.command in ("install", "verify", "uninstall"):
        from .config_tools import run_tool

        return run_tool(
            parsed.command,
            hermes_home=parsed.hermes_home,
            profile=parsed.profile,
            dry_run=getattr(parsed, "dry_run", False),
            call=getattr(parsed, "call", False),
        )
    # A hook command reached here only with extra arguments (e.g. ``stop --``): a config mistake.
    print(
        f"hermes-hooks {parsed.command}: takes no arguments; Hermes runs it as is", file=sys.stderr
    )
    return 2
