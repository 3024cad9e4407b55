"""Hermes as a real host: its interactive CLI in one process, a message at a time.

The process is ``hermes_loop`` run by the interpreter of the ``hermes`` executable; Hermes'
config (hooks consented) goes in ``$HERMES_HOME/config.yaml`` under the temporary HOME, and its
``custom`` provider calls the fake OpenAI Chat Completions API.

Outside any scenario, ``hooksim conformance hermes`` asks each release itself about the hook
package (``HermesDriver.release_checks``): which hooks its own parser reads from what
``hermes-hooks install`` writes, and what ``hermes-hooks verify`` says once the release has
consented to them.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from ...hosts import Firing, Host
from ...real.driver import After, LineDriver, RealHostError, Session
from ...real.install import Source
from ...real.observable import payload_of
from ...real.tools import Offer
from ...replay.workspace import MOCK_BRIDGE, NOT_INHERITED
from ...scenario import Turn
from .hook_package import installed_hooks

# The rows ``release_checks`` adds to a release's column of the conformance table.
INSTALL_ROW = "hermes-hooks install: hooks the release's parser reads"
VERIFY_ROW = "hermes-hooks verify, after the release's consent"
CHECK_TIMEOUT_S = 120.0


class HermesDriver(LineDriver):
    """Hermes: its interactive CLI (``HermesCLI.chat`` per message, ``hermes_loop``) in
    one process run by the interpreter of the ``hermes`` executable, against a fake
    OpenAI-compatible server (its ``custom`` provider). Hooks are consented in the config
    (``hooks_auto_accept``), as a terminal user would at the first prompt."""

    name = "hermes"
    dialect = "openai-chat"
    binary = "hermes"
    package = "hermes-agent"
    release_source = Source("pypi", "hermes-agent")  # each release in a venv of its own
    # Its own account: what its _spawn returns for each hook run (hermes_loop.watch_hooks).
    watches = True

    @classmethod
    def blocked(cls, host: Host, firing: Firing, probe: dict[str, Any], seen: After) -> bool | None:
        """A blocked call still fires post_tool_call, with the status ``blocked``."""
        if firing.event != host.events["pre_tool"]:
            return None
        post = next(
            (
                p
                for f, p in seen.later
                if f.turn == firing.turn and f.event == host.events["post_tool"]
            ),
            None,
        )
        extra = payload_of(post).get("extra") if post is not None else None
        return isinstance(extra, dict) and extra.get("status") == "blocked"

    def __init__(self, run: Session) -> None:
        super().__init__(run)
        self.hermes_home = run.home / ".hermes"

    def install(self, wrapped: dict[str, Any]) -> list[str]:
        self.hermes_home.mkdir(parents=True, exist_ok=True)
        config = {"hooks": wrapped, "hooks_auto_accept": True}
        (self.hermes_home / "config.yaml").write_text(json.dumps(config, indent=2))  # JSON is YAML
        return ["hooks consented in config.yaml (hooks_auto_accept), as at Hermes' first prompt"]

    def env(self, url: str) -> dict[str, str]:
        tools = {c.name for t in self.run.scenario.steps if isinstance(t, Turn) for c in t.tools}
        return {
            "HERMES_HOME": str(self.hermes_home),
            "HOOKSIM_MODEL_URL": f"{url}/v1",
            "HOOKSIM_MODEL_NAME": str(self.run.scenario.session.get("model") or "fake-model"),
            "HOOKSIM_TOOLSETS": "file,terminal" if tools else "file",
            "HOOKSIM_RECORDER_SPEC": str(self.run.spec),
        }

    def python(self) -> str:
        """The interpreter the ``hermes`` script runs with (its ``#!`` line)."""
        return script_python(self.run.binary)

    @classmethod
    def release_checks(cls, binary: Path) -> dict[str, str]:
        """The hook package on the release at ``binary``, by rows of the conformance table:
        in a throwaway HOME and HERMES_HOME, ``hermes-hooks install`` writes its ``hooks:``
        block, the release's own parser reads it and the release consents to it (run by the
        Python of its venv: ``read_hooks.py``), then ``hermes-hooks verify`` judges that home."""
        try:
            python = script_python(binary)
        except RealHostError as e:
            return {INSTALL_ROW: f"error: {e}"}
        with tempfile.TemporaryDirectory(prefix="hooksim-hermes-hooks-") as tmp:
            return _hook_package_rows(python, Path(tmp))

    def start(self) -> None:
        self.spawn([self.python(), "-I", str(Path(__file__).with_name("hermes_loop.py"))])

    def send(self, text: str) -> None:
        self.write_line({"user": text})

    def new_session(self) -> None:
        self.write_line({"new": True})


def script_python(binary: Path | str) -> str:
    """The interpreter a Python script runs with (its ``#!`` line), or RealHostError."""
    with open(binary, "rb") as f:
        first = f.readline().decode("utf-8", "replace")
    if not first.startswith("#!"):
        raise RealHostError(f"--real hermes: {binary} is not a Python script")
    return first[2:].strip().split()[0]


def _hook_package_rows(python: str, tmp: Path) -> dict[str, str]:
    """``release_checks`` in the folder ``tmp``: its HOME, with the Hermes home inside."""
    home, hermes_home = tmp / "home", tmp / "home" / ".hermes"
    hermes_home.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(NOT_INHERITED)}
    env.update(HOME=str(home), HERMES_HOME=str(hermes_home))
    import hermes_hooks  # the hook package beside hooksim, run as its hooks are

    tool = [sys.executable, str(Path(hermes_hooks.__file__).with_name("__main__.py"))]
    done = _run([*tool, "install", "--hermes-home", str(hermes_home)], env)
    if done.returncode != 0:
        return {INSTALL_ROW: f"error: hermes-hooks install exit {done.returncode}: {_last(done)}"}
    done = _run([python, "-I", str(Path(__file__).with_name("read_hooks.py"))], env)
    said = _answer(done.stdout)
    if said is None or "error" in said:
        why = said["error"] if said else f"exit {done.returncode}: {_last(done)}"
        return {INSTALL_ROW: f"error: {why}"}
    rows = {INSTALL_ROW: _read_row(said)}
    verify = {**env, "WAGGLE_MIND_CMD": shlex.join([sys.executable, *MOCK_BRIDGE])}
    done = _run([*tool, "verify", "--hermes-home", str(hermes_home)], verify)
    rows[VERIFY_ROW] = _verdict(done.stdout, said.get("consent_error"))
    return {k: v.replace(str(hermes_home), "$HERMES_HOME") for k, v in rows.items()}


def _run(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A process of the check, in the throwaway HOME (no package of the working directory
    comes first on its path)."""
    try:
        return subprocess.run(
            argv,
            capture_output=True,
            text=True,
            env=env,
            cwd=env["HOME"],
            timeout=CHECK_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(argv, -1, "", f"no answer in {CHECK_TIMEOUT_S:g}s")
    except OSError as e:
        return subprocess.CompletedProcess(argv, -1, "", f"cannot run {argv[0]}: {e}")


def _last(done: subprocess.CompletedProcess[str]) -> str:
    """The last line a process said (stderr first), for a row that says why."""
    said = [line.strip() for line in (done.stderr or done.stdout).splitlines() if line.strip()]
    return said[-1] if said else "no output"


def _answer(stdout: str) -> dict[str, Any] | None:
    """``read_hooks.py``'s JSON object (its last line), or None."""
    lines = stdout.strip().splitlines()
    try:
        value = json.loads(lines[-1]) if lines else None
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _read_row(said: dict[str, Any]) -> str:
    """The events the release read, in order; the parser when it is not
    ``iter_configured_hooks``; whether the commands read are those install wrote."""
    read = [(str(e), str(c)) for e, c in said.get("read", [])]
    value = ", ".join(e for e, _ in read) or "none"
    if said.get("parser") != "iter_configured_hooks":
        value += f" (agent.shell_hooks.{said.get('parser')})"
    written = {e: entries[0]["command"] for e, entries in installed_hooks().items()}
    if any(written.get(e) != c for e, c in read):
        value += "; commands differ from those written"
    return value


def _verdict(stdout: str, consent_error: str | None) -> str:
    """verify's last line, then its first failure (else its first warning)."""
    lines = stdout.splitlines()
    verdict = next((line for line in reversed(lines) if line.startswith("verify:")), None)
    said = [verdict or "verify: no verdict"]
    status = {"FAIL": [], "warn": []}  # type: dict[str, list[str]]
    for line in lines:
        head, _, text = line.partition("  ")
        if head in status:
            status[head].append(f"{head.lower()} {text.strip()}")
    said += (status["FAIL"] or status["warn"])[:1]
    if consent_error:
        said.insert(0, f"the release could not consent: {consent_error}")
    return "; ".join(said)


# The tools the pinned release declares in its requests to the fake model, by the name its hooks
# see, with the arguments its schema requires (``real.tools``).
OFFER = Offer(
    "0.19.0",
    dict.fromkeys(("patch", "process", "read_file", "search_files", "terminal", "write_file"), ()),
    checks_arguments=False,
)

DRIVER = HermesDriver
