"""The error boundary of the three config tools: ``install``, ``verify`` and ``uninstall``.

``hermes-hooks install|verify|uninstall`` come here (imported only then: the hook subcommands
never load the YAML libraries). Each tool's failure is one line on stderr and exit 1.
"""

from __future__ import annotations

import os
import shlex
import sys

from .hermes_config import ConfigError


def run_tool(
    command: str, *, hermes_home: str | None, profile: str | None, dry_run: bool = False
) -> int:
    """The error boundary of install, verify and uninstall: one line on stderr, exit 1."""
    from .paths import selected_home

    try:
        home = selected_home(hermes_home, profile)
        if profile is not None and not os.path.isdir(home):
            raise ConfigError(
                f"no Hermes profile {profile!r} (no directory {home}); "
                f"create it with `hermes profile create {shlex.quote(profile)}`"
            )
        _require_yaml_libraries()
        if command == "verify":
            from .verify import run_verify

            return run_verify(home)
        if command == "install":
            from .install import run_install

            return run_install(home, dry_run=dry_run, profile=profile)
        from .uninstall import run_uninstall

        return run_uninstall(home, dry_run=dry_run)
    except (ConfigError, ValueError) as e:
        sys.stderr.write(f"hermes-hooks {command}: {e}\n")
        return 1
    except OSError as e:
        where = f"{e.filename}: " if e.filename and str(e.filename) not in str(e) else ""
        sys.stderr.write(f"hermes-hooks {command}: {where}{e.strerror or e}\n")
        return 1


def _require_yaml_libraries() -> None:
    try:
        import ruamel.yaml  # noqa: F401
        import yaml  # noqa: F401
    except ImportError:
        raise ConfigError(
            "needs PyYAML (what Hermes reads config.yaml with) and ruamel.yaml (to edit it "
            "without losing comments): pip install 'hermes-hooks[install]'"
        ) from None
