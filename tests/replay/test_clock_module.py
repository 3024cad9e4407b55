"""The clock module hooksim puts first on a Python hook's path (``sitecustomize``): the next
``sitecustomize`` on the path still runs, and a hook does not compile the module each time."""

from __future__ import annotations

import importlib.util
import json
import shlex
import subprocess
import sys
from pathlib import Path

from hooksim.replay.runner import run_scenario
from hooksim.replay.workspace import CHILD_DIR, FAKETIME_LIBS, with_env
from hooksim.scenario import load_scenario

HOOK = """\
import datetime, json, os, sys
print(json.dumps({"now": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                  "theirs": os.environ.get("THEIR_SITECUSTOMIZE_RAN")}))
"""


def scenario(tmp_path: Path, command: str, more: str = "") -> Path:
    """A Claude Code session of one turn at 2030-01-02T03:04:05Z whose Stop hook is
    ``command``; ``more``: other top-level keys."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: s\ntool: claude-code\n"
        'clock: {start: "2030-01-02T03:04:05Z"}\n'
        f"hooks: {{Stop: [{{hooks: [{{type: command, command: {json.dumps(command)}}}]}}]}}\n"
        "turns: [{user: a, assistant: b}]\n" + more
    )
    return path


def said_at_stop(path: Path) -> dict[str, str]:
    """What the Stop hook of a replay of ``path`` printed, as JSON."""
    result = run_scenario(load_scenario(path))
    (run,) = [r for r in result.runs if r.event == "Stop"]
    assert run.exit_code == 0, run.stderr
    said: dict[str, str] = json.loads(run.stdout)
    return said


def test_the_next_sitecustomize_on_the_path_still_runs(tmp_path: Path) -> None:
    """A hook run with a folder of its own on PYTHONPATH holding a ``sitecustomize`` (a
    virtualenv's, a coverage set-up): that one runs too, after the clock is moved."""
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "sitecustomize.py").write_text(
        "import os\nos.environ['THEIR_SITECUSTOMIZE_RAN'] = 'yes'\n"
    )
    (tmp_path / "hook.py").write_text(HOOK)
    hook = shlex.quote(str(tmp_path / "hook.py"))
    command = f'PYTHONPATH="$PYTHONPATH:{theirs}" {shlex.quote(sys.executable)} {hook}'
    said = said_at_stop(scenario(tmp_path, command))
    assert said["theirs"] == "yes", said
    assert said["now"].startswith("2030-01-02T03:04:0"), said


def test_a_replay_leaves_the_clock_module_compiled(tmp_path: Path) -> None:
    """Hooks run with PYTHONDONTWRITEBYTECODE=1, so none of them would write the module's
    compiled form: ``hooksim run`` writes it once (where the installed package can be
    written), and each Python hook loads it instead of compiling the module again."""
    source = CHILD_DIR / "sitecustomize.py"
    compiled = Path(importlib.util.cache_from_source(str(source)))
    compiled.unlink(missing_ok=True)
    (tmp_path / "hook.py").write_text(HOOK)
    path = scenario(tmp_path, shlex.join([sys.executable, str(tmp_path / "hook.py")]))
    done = subprocess.run(
        [sys.executable, "-m", "hooksim", "run", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert compiled.exists()
    assert compiled.stat().st_mtime >= source.stat().st_mtime


def test_a_scenario_that_sets_pythonpath_keeps_the_clock(tmp_path: Path) -> None:
    """A scenario's ``env: {PYTHONPATH: ...}`` (its hook's own modules) is added after the
    clock's folder, not in its place: the hook imports its module and reads virtual time."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "mine.py").write_text("WHO = 'mine'\n")
    (tmp_path / "hook.py").write_text(
        "import datetime, json, mine\n"
        "print(json.dumps({'now': datetime.datetime.now(datetime.timezone.utc).isoformat(),"
        " 'who': mine.WHO}))\n"
    )
    command = shlex.join([sys.executable, str(tmp_path / "hook.py")])
    said = said_at_stop(
        scenario(tmp_path, command, f"env: {{PYTHONPATH: {json.dumps(str(lib))}}}\n")
    )
    assert said["who"] == "mine", said
    assert said["now"].startswith("2030-01-02T03:04:0"), said


def test_the_clock_stays_first_whatever_a_scenario_sets() -> None:
    """``with_env``: a scenario's (or a hook's) list of paths goes after hooksim's clock, for
    either driver; any other variable, and a list hooksim put nothing in, is set as given."""
    lib = FAKETIME_LIBS[0]
    env = {"PYTHONPATH": f"{CHILD_DIR}:/inherited", "LD_PRELOAD": lib, "A": "1"}
    with_env(env, {"PYTHONPATH": f"/mine:{CHILD_DIR}", "LD_PRELOAD": "/mine.so", "A": "2"})
    assert env == {"PYTHONPATH": f"{CHILD_DIR}:/mine", "LD_PRELOAD": f"{lib} /mine.so", "A": "2"}
    plain = {"PYTHONPATH": "/inherited"}
    with_env(plain, {"PYTHONPATH": "/mine"})
    assert plain == {"PYTHONPATH": "/mine"}
