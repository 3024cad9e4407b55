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
    command: str,
    *,
    hermes_home: str | None,
    profile: str | None,
    dry_run: bool = False,
    call: bool = False,
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
        _require_libraries(command)
        if command == "verify":
            from .verify import run_verify

            return run_verify(home, call=call)
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


# The import name of each library the install tools need → the name pip installs it by.
_DISTRIBUTIONS = {
    "yaml": "PyYAML",
    "ruamel": "ruamel.yaml",
    "ruamel.yaml": "ruamel.yaml",
    "dotenv": "python-dotenv",
}


def _require_libraries(command: str) -> None:
    """The libraries the tool needs: YAML's for all three, python-dotenv for verify alone (an
    uninstall must work wherever install did)."""
    try:
        import ruamel.yaml  # noqa: F401
        import yaml  # noqa: F401

        if command == "verify":
            import dotenv  # noqa: F401
    except ImportError as e:
        python = shlex.quote(sys.executable)
        missing = _DISTRIBUTIONS.get(e.name or "", e.name or "a library")
        raise ConfigError(
            f"needs {missing}, which is not installed: the install tools read "
            "config.yaml with PyYAML (as Hermes does), edit it with ruamel.yaml (keeping its "
            "comments) and read $HERMES_HOME/.env with python-dotenv (as Hermes does). Install "
            f"them with: {python} -m pip install PyYAML ruamel.yaml python-dotenv "
            "(or install hermes-hooks from its folder with the extra: pip install '.[install]')"
        ) from None
