"""``hermes-hooks verify``: one line per check that Hermes will run our hooks, and run them well."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from .bridge import Bridge, BridgeError
from .entries import hook_argv
from .hermes_config import ConfigError, is_our_command, load_config, read_config
from .hooks import BINDINGS
from .paths import allowlist_path, config_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

OK, WARN, FAIL = "ok", "warn", "FAIL"
_TRUE = {"1", "true", "yes", "on"}
# pip writes this two-line launcher instead of a shebang when the interpreter's path has a space
# or is too long for the kernel: #!/bin/sh, then '''exec' "/path/python" "$0" "$@".
_SH_LAUNCHER = re.compile(r"""^'''exec' "?(?P<python>[^"]+?)"? "\$0" "\$@"$""")
_WHERE_IS_PACKAGE = (
    "import os, hermes_hooks; print(os.path.realpath(os.path.dirname(hermes_hooks.__file__)))"
)


class Report:
    """The checks so far, printed as they come: ``STATUS  what``."""

    def __init__(self) -> None:
        self.counts = {OK: 0, WARN: 0, FAIL: 0}

    def add(self, status: str, text: str) -> None:
        self.counts[status] += 1
        sys.stdout.write(f"{status:<4}  {text}\n")


def run_verify(home: str, env: Mapping[str, str] | None = None) -> int:
    """Check the installation in ``home``; exit 1 when a required check failed."""
    env = os.environ if env is None else env
    report = Report()
    path = config_path(home)
    try:
        text = read_config(path)
        body = text.removeprefix("\ufeff").replace("\r\n", "\n")
        data = load_config(body, path, only=("hooks", "hooks_auto_accept")).data
    except ConfigError as e:
        report.add(FAIL, f"config: {str(e).removesuffix('; left unchanged')}")
        data = None
    hooks = (data or {}).get("hooks") or {}
    approvals = _approvals(home, report)
    auto_accept = _accepts_all(data, env)
    for binding in BINDINGS:
        commands = [
            str(e["command"]).strip()
            for e in hooks.get(binding.event) or []
            if isinstance(e, dict) and is_our_command(e.get("command"))
        ]
        if not commands:
            report.add(
                FAIL, f"{binding.event}: no hermes-hooks entry in {path} (run hermes-hooks install)"
            )
            continue
        command = commands[0]
        report.add(OK, f"{binding.event}: {command}")
        _check_runs_this_package(binding.event, binding.command, command, report)
        if (binding.event, command) in approvals:
            report.add(OK, f"{binding.event}: approved in shell-hooks-allowlist.json")
        elif auto_accept:
            report.add(OK, f"{binding.event}: not approved yet; {auto_accept} approves it")
        else:
            report.add(
                WARN,
                f"{binding.event}: not approved yet; Hermes will ask on first use "
                "(pre-approve: hermes --accept-hooks, once)",
            )
    _check_mind(env, report)
    _check_state_dir(home, report)
    counts = report.counts
    sys.stdout.write(f"verify: {counts[OK]} ok, {counts[WARN]} warnings, {counts[FAIL]} failed\n")
    return 1 if counts[FAIL] else 0


def _approvals(home: str, report: Report) -> set[tuple[str, str]]:
    """The (event, command) pairs Hermes has approved: its consent key (reference §2)."""
    path = allowlist_path(home)
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        return set()
    except (OSError, ValueError) as e:
        report.add(WARN, f"allowlist: {path} cannot be read ({e}); Hermes treats it as empty")
        return set()
    approvals = data.get("approvals") if isinstance(data, dict) else None
    return {
        (str(a.get("event")), str(a.get("command"))) for a in approvals or [] if isinstance(a, dict)
    }


def _accepts_all(data: Any, env: Mapping[str, str]) -> str:
    """What makes Hermes accept any hook without asking, as its ``_resolve_effective_accept``."""
    if env.get("HERMES_ACCEPT_HOOKS", "").strip().lower() in _TRUE:
        return "HERMES_ACCEPT_HOOKS"
    value = (data or {}).get("hooks_auto_accept")
    if value is True or (isinstance(value, str) and value.strip().lower() in _TRUE):
        return "hooks_auto_accept"
    return ""


def _check_runs_this_package(event: str, subcommand: str, command: str, report: Report) -> None:
    argv = shlex.split(os.path.expanduser(command))
    if argv[-1] != subcommand:
        report.add(FAIL, f"{event}: runs `hermes-hooks {argv[-1]}`, not `{subcommand}`")
        return
    executable = shutil.which(argv[0])
    if executable is None:
        report.add(FAIL, f"{event}: {argv[0]} is not an executable file")
        return
    mine = hook_argv(subcommand)
    if os.path.realpath(executable) == os.path.realpath(mine[0]) and argv[1:] == mine[1:]:
        report.add(OK, f"{event}: runs this hermes-hooks ({executable})")
        return
    python = executable if "-m" in argv else _script_interpreter(executable)
    ours = os.path.realpath(os.path.dirname(os.path.abspath(__file__)))
    theirs = _package_dir(python) if python else None
    if theirs == ours:
        report.add(OK, f"{event}: runs this hermes-hooks ({executable})")
    elif theirs:
        report.add(FAIL, f"{event}: runs another hermes-hooks ({theirs}); run hermes-hooks install")
    else:
        report.add(
            FAIL, f"{event}: {executable} does not run hermes_hooks; run hermes-hooks install"
        )


def _script_interpreter(script: str) -> str | None:
    try:
        with open(script, "rb") as f:
            head = f.read(4096).decode("utf-8", "replace").splitlines()
    except OSError:
        return None
    if not head or not head[0].startswith("#!"):
        return None
    shebang = head[0][2:].strip()
    if os.path.basename(shebang.split()[0]) == "sh" and len(head) > 1:
        match = _SH_LAUNCHER.match(head[1].strip())
        return match["python"] if match else None
    return shebang.split()[0] if shebang else None


def _package_dir(python: str) -> str | None:
    try:
        result = subprocess.run(
            [python, "-c", _WHERE_IS_PACKAGE],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout.strip() or None if result.returncode == 0 else None


def _check_mind(env: Mapping[str, str], report: Report) -> None:
    """Resolve the mind command exactly as the hooks will (``Bridge.from_env``)."""
    try:
        command = Bridge.from_env(env).command
    except BridgeError as e:
        report.add(FAIL, f"mind command: {e}")
        return
    found = shutil.which(command[0])
    if found:
        report.add(OK, f"mind command: {shlex.join(command)} ({found})")
    else:
        report.add(
            FAIL, f"mind command: {command[0]} not found (install the mind, or set WAGGLE_MIND_CMD)"
        )


def _check_state_dir(home: str, report: Report) -> None:
    try:
        with tempfile.TemporaryFile(dir=home):
            pass
    except OSError as e:
        report.add(FAIL, f"state directory: {home} is not writable ({e.strerror or e})")
        return
    report.add(OK, f"state directory: {home} is writable")
