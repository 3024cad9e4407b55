"""The project a run's hooks work in: seeded before the session, changed by the tools the host
runs, and read back for ``expect.files``.

- ``seed``: the scenario's ``files:`` written into the project (``~/`` ones into the run's
  HOME), ``from:`` files and folders copied from beside the scenario, and with ``git`` a
  repository of them (the ``git`` executable, with the run's HOME, no system config, the
  scenario's start as every commit's date, and an identity of its own so a hook can commit).
- ``run_tool``: a tool call the host lets through, run on the project: a file tool of the
  host (``file_tools``), or a shell call with ``run: true``, run in the project by the host's
  shell (``Host.shell_tool_argv``), its output (stdout and stderr as they came) the tool's
  result, as the host's tool gives it (``Host.shell_tool_result``).
- ``file_states``: the files ``expect.files`` names, as they are now.

Shared by the replay and the real-host runs (``hooksim.real``): a real host works in the same
project folder, so its files are seeded and judged the same way.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import uuid
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from .. import beneath
from ..hosts import ConfigError, HookSpec, Host
from ..hosts.records import ToolRun
from ..scenario import Scenario
from ..scenario.load import line_of_key
from ..scenario.model import SeedFile, project_path
from ..steps import ToolCall
from . import leaks
from .file_tools import Place, apply
from .hook_process import OUTPUT_CAP, Output
from .result import FileState
from .workspace import SetupError, Workspace

# A shell call's time limit: Claude Code's Bash tool's default (2 minutes).
SHELL_TIMEOUT_S = 120.0
SEEDED = "hooksim: the seeded files"  # the commit message of ``git: true``


def seed(scenario: Scenario, workspace: Workspace) -> None:
    """Put the scenario's ``files:`` in place (and make the repository it asks for)."""
    files = scenario.files
    if not files.git:
        for file in files.files:
            _put(file, workspace)
        return
    git = _Git(scenario, workspace)
    # Files the scenario seeds inside ``.git/`` (its config, its hooks) go in once the
    # repository is made: what they say (a clean filter, a gpg program) never runs while
    # hooksim commits, and a hook finds them there.
    held: list[SeedFile] = []

    def put(file: SeedFile) -> None:
        if _in_git_folder(file):
            held.append(file)
        else:
            _put(file, workspace)

    for commit in files.commits:
        for file in commit.files:
            put(file)
        git.commit(commit.message)
    for file in files.files:
        put(file)
    if not files.commits:
        git.commit(SEEDED)
    for file in held:
        _put(file, workspace)


def _in_git_folder(file: SeedFile) -> bool:
    home, inside = project_path(file.path)
    return not home and Path(inside).parts[:1] == (".git",)


def _put(file: SeedFile, workspace: Workspace) -> None:
    """One file: its text, a copy of its source, or (text and source None) deleted; never
    through a link (one a ``from:`` folder brought, or one made by an earlier entry)."""
    home, inside = project_path(file.path)
    root = workspace.home if home else workspace.project
    try:
        if file.source is None and file.text is None:
            beneath.remove(root, inside)
        elif file.source is None:
            assert file.text is not None
            beneath.write(root, inside, file.text.encode("utf-8", "surrogateescape"))
        else:
            beneath.copy(root, inside, file.source)
        if file.mode is not None:
            beneath.chmod(root, inside, file.mode)
    except beneath.Refused as e:
        raise SetupError(f"{file.at}: files: {file.path}: {e}") from None
    except OSError as e:
        raise SetupError(f"{file.at}: files: {file.path}: {e.strerror or e}") from None


class _Git:
    """The project as a git repository, made with the ``git`` executable."""

    def __init__(self, scenario: Scenario, workspace: Workspace) -> None:
        self.scenario = scenario
        self.workspace = workspace
        found = shutil.which("git")
        if found is None:
            raise SetupError(
                f"{scenario.path}: files.git: no git executable on PATH"
                " (Debian: apt-get install git)"
            )
        instant = scenario.start.isoformat()
        # What the seeded files say cannot run a command while they are committed: a
        # ``.git/config`` of theirs with core.fsmonitor, or hooks of the repository.
        self.argv = [
            found,
            "-c",
            "core.fsmonitor=false",
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "commit.gpgSign=false",
        ]
        self.env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(workspace.home),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,  # a seeded ~/.gitconfig is the hooks', not ours
            "GIT_AUTHOR_DATE": instant,
            "GIT_COMMITTER_DATE": instant,
            "LC_ALL": "C",
        }
        self("init", "-q")
        self("symbolic-ref", "HEAD", "refs/heads/main")
        self("config", "user.name", "hooksim")
        self("config", "user.email", "hooksim@example.invalid")

    def commit(self, message: str) -> None:
        self("add", "-A")
        self("commit", "-q", "--allow-empty", "-m", message)

    def __call__(self, *args: str) -> None:
        code, output = _run([*self.argv, *args], self.workspace.project, self.env, None)
        if code != 0:
            raise SetupError(
                f"{self.scenario.path}: files.git: git {' '.join(args)} failed"
                f" ({'exit ' + str(code) if code >= 0 else 'not run'}): {output.strip()}"
            )


def project_hooks(
    host: Host,
    scenario: Scenario,
    workspace: Workspace,
    after: int = 0,
    names: tuple[str, ...] | None = None,
) -> tuple[list[HookSpec], list[str]]:
    """The hooks of the project's own config files (``Host.project_configs``, or those of them
    in ``names``) as the scenario seeded them, file by file in the host's order, numbered on
    from ``after`` (the user's hooks, the scenario's, come first); each knows the file and line
    it came from. Warnings name the file."""
    specs: list[HookSpec] = []
    warnings: list[str] = []
    for name in host.project_configs:
        if names is not None and name not in names:
            continue
        path = workspace.project / name
        there = beneath.look(workspace.project, name)
        if there.kind == "other":
            warnings.append(f"{name}: {there.said}; hooksim loads no hooks from it")
        if there.kind != "file":
            continue
        try:
            block = host.load_config(path)
        except ConfigError as e:
            warnings.append(f"{name}: {e}; {host.title} loads no hooks from it")
            continue
        found, said = host.parse_hooks(block)
        warnings += [f"{name}: {warning}" for warning in said]
        seeded = _seeded_from(scenario, name)
        for spec in found:
            line = _line_in(path, spec)
            specs.append(
                replace(spec, source=seeded, line=line, layer="project", order=after + len(specs))
            )
    return specs, warnings


def seeds_hooks(host: Host, scenario: Scenario) -> bool:
    """Whether the scenario's ``files:`` seed one of the host's project hooks files."""
    commits = [f for commit in scenario.files.commits for f in commit.files]
    seeded = {f.path for f in [*scenario.files.files, *commits] if f.text or f.source}
    return any(name in seeded for name in host.project_configs)


def _seeded_from(scenario: Scenario, name: str) -> str:
    """Where a seeded project file comes from, for messages: the file it is copied from, or
    its own name (its text is the scenario's ``files:`` entry)."""
    commits = [f for commit in scenario.files.commits for f in commit.files]
    seed_file = next((f for f in [*scenario.files.files, *commits] if f.path == name), None)
    if seed_file is not None and seed_file.source is not None and seed_file.source.is_file():
        return str(seed_file.source)
    return name


def _line_in(path: Path, spec: HookSpec) -> int:
    """The line of the hook's command in a JSON config file (0: not known)."""
    if path.suffix != ".json" or not spec.where:
        return 0
    try:
        line = line_of_key(path, ["hooks", *spec.where, "command"])
    except Exception:  # a line is a help, never a reason to fail the run
        return 0
    one_line = len(path.read_text(encoding="utf-8", errors="replace").splitlines()) == 1
    return line if line > 1 or one_line else 0  # 1 is also "not found"


def run_tool(
    host: Host, call: ToolCall, place: Place, env: Callable[[], dict[str, str]]
) -> ToolRun:
    """What ``call`` does to the project: a file tool's change, or a ``run: true`` shell call's
    run (``env()``: its environment)."""
    if not call.run:
        return apply(host.name, call, place)
    if call.name != host.shell_tool:
        return ToolRun(
            f"run: true runs {host.title}'s shell tool ({host.shell_tool}), not {call.name};"
            " nothing ran"
        )
    command = str(call.args.get("command", ""))
    code, output = _run([*host.shell_tool_argv, command], place.project, env(), SHELL_TIMEOUT_S)
    if code == -1:
        return ToolRun(f"{call.name} could not run `{command}`: {output}", result="")
    ended = f"killed after {SHELL_TIMEOUT_S:g} s" if code == -2 else f"exit {code}"
    return ToolRun(
        f"{call.name} ran `{command}` in the project: {ended}",
        result=host.shell_tool_result(output, code),
    )


def _run(
    argv: list[str], cwd: os.PathLike[str], env: dict[str, str], timeout: float | None
) -> tuple[int, str]:
    """Run one process to its end: its exit code (-1: it could not start, -2: killed on
    timeout) and its output, stdout and stderr as they came, up to ``OUTPUT_CAP``. The output
    goes to a file, not a pipe, so a process it leaves behind cannot hold the run; what it
    leaves is killed with it, in its process group or (a daemon) wherever it carries the
    call's mark."""
    mark = f"shell.{uuid.uuid4().hex[:12]}"
    env = {**env, leaks.MARKER: mark}
    with tempfile.TemporaryFile() as out:
        try:
            proc = subprocess.Popen(
                argv,
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except OSError as e:
            return -1, e.strerror or str(e)
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            code = -2
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        leaks.kill_marked(mark)
        out.seek(0)
        output = Output()
        output.add(out.read(OUTPUT_CAP))
        output.more = max(0, os.fstat(out.fileno()).st_size - OUTPUT_CAP)
        return code, output.text()


def file_states(
    scenario: Scenario, workspace: Workspace, turn: int = 0
) -> dict[tuple[str, int], FileState]:
    """The files ``expect.files`` judges after ``turn`` (0: at the end of the run), as they are
    now, by path and turn."""
    states = {}
    for name, want in scenario.expect.get("files", {}).items():
        if want.get("at_turn", 0) == turn:
            home, inside = project_path(name)
            states[(name, turn)] = FileState.of(
                workspace.home if home else workspace.project, inside
            )
    return states


__all__ = ["SEEDED", "Place", "file_states", "project_hooks", "run_tool", "seed"]
