"""Scenario files drawn from what a hostile or careless author can write (paths that leave the
project, links to outside, FIFOs, session ids that are paths, alias bombs, deep nesting, hooks
that make links and pipes or signal hooksim), each run by a real ``hooksim run`` under a time
and memory limit. Whatever the file says: nothing outside the run is written, no traceback
reaches the user, no process is left running and no work directory is left behind."""

from __future__ import annotations

import hashlib
import os
import resource
import subprocess
import textwrap
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ..console import BIN

pytestmark = [
    pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc"),
    pytest.mark.one_python,  # a search: the same on every interpreter
]

LIMIT_S = 60
LIMIT_BYTES = 2 * 1024**3

# Most draws are valid, so that most files run: a refused file proves only the loader.
SESSION_IDS = st.sampled_from(
    [
        "s1",
        "s2",
        "ok id",
        "s3",
        "s4",
        "s5",
        "s6",
        "s7",
        "../../../../../../../../OUTSIDE/victim",
        "OUTSIDE/abs",
        "a\x01b",
    ]
)
SEED_PATHS = st.sampled_from(
    ["a.txt", "d", "d", "d/out/victim.txt", "d/out/new.txt", "a", "a/b", "~/.claude", "../x"]
)
SOURCES = st.sampled_from(
    [
        "fix/dir",
        "fix/dir",
        "fix/fifo",
        "fix/hostlink",
        "/etc/hostname",
        "../outside/victim.txt",
        "/dev/zero",
    ]
)
# Hooks are real processes, not confined: these write only in the project themselves (what
# hooksim then does with a link or a pipe there is what is tested).
HOOKS = st.sampled_from(
    [
        "true",
        "ln -sfn OUTSIDE/victim.txt z",
        "ln -sfn OUTSIDE d",
        "rm -f z; mkfifo z",
        "ln -sfn /dev/zero z",
        'cd / && rm -rf "$(dirname "$CLAUDE_PROJECT_DIR")"',
        "printf '\\033]0;title\\007\\033[2J<!--<script>' >&2; exit 2",
        "kill -TERM $PPID; sleep 5",
    ]
)
EXPECTED = st.sampled_from(["z", "d/victim.txt", "a.txt", "d/out/victim.txt"])


@st.composite
def scenarios(draw: st.DrawFn) -> str:
    """The text of one scenario file, with ``OUTSIDE`` standing for the folder to protect."""
    sid = draw(SESSION_IDS)
    files = draw(st.dictionaries(SEED_PATHS, st.one_of(st.just("text"), SOURCES), max_size=2))
    if draw(st.booleans()):
        files = {}  # half the files run their hook, whatever it does
    seeds = "".join(
        f"  {path!r}: " + ("x\n" if value == "text" else f"{{from: {value!r}}}\n")
        for path, value in files.items()
    )
    hook = draw(HOOKS)
    expected = draw(EXPECTED)
    body = textwrap.dedent(
        f"""\
        name: hostile
        tool: claude-code
        session: {{id: {sid!r}}}
        hooks:
          SessionStart: [{{hooks: [{{type: command, command: {hook!r}}}]}}]
        turns:
          - {{user: hi, assistant: ok}}
          - {{new_session: {draw(SESSION_IDS)!r}}}
          - {{user: again, assistant: ok}}
        expect:
          files:
            {expected}: {{contains: x}}
        """
    )
    if files:
        body += "files:\n" + seeds
    depth = draw(st.sampled_from([0] * 14 + [50, 3000]))
    if depth:
        body += "deep: " + "[" * depth + "]" * depth + "\n"
    bomb = draw(st.sampled_from([0] * 7 + [9]))
    if bomb:
        body += 'x0: &x0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
        for i in range(1, bomb + 1):
            body += f"x{i}: &x{i} [" + ",".join([f"*x{i - 1}"] * 9) + "]\n"
    return body


def snapshot(folder: Path) -> str:
    """Every name, kind and byte under ``folder``, as one digest."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        digest.update(str(path.relative_to(folder)).encode())
        if path.is_file() and not path.is_symlink():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def processes_marked(mark: str) -> list[int]:
    """Live processes whose environment carries ``mark``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if mark.encode() in environ and state != "Z":
            found.append(int(entry.name))
    return found


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=scenarios())
def test_a_hostile_scenario_runs_bounded_and_clean(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    root = tmp_path_factory.mktemp("hostile")
    outside, scenarios_dir, tmp = root / "outside", root / "scenarios", root / "tmp"
    for folder in (outside, scenarios_dir / "fix" / "dir", tmp):
        folder.mkdir(parents=True)
    (outside / "victim.txt").write_text("original\n")
    (scenarios_dir / "fix" / "dir" / "out").symlink_to(outside)
    (scenarios_dir / "fix" / "hostlink").symlink_to("/etc/hostname")
    os.mkfifo(scenarios_dir / "fix" / "fifo")
    path = scenarios_dir / "s.yaml"
    path.write_text(text.replace("OUTSIDE", str(outside)))
    before = snapshot(outside)
    mark = f"HOOKSIM_HOSTILE_{uuid.uuid4().hex}"
    env = {**os.environ, "TMPDIR": str(tmp), mark: "1", "HOME": str(root)}
    result = subprocess.run(
        [str(BIN / "hooksim"), "run", str(path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=LIMIT_S,
        preexec_fn=limited,
        check=False,
    )
    event(result.stdout.split(" ", 1)[0] if result.stdout else f"exit {result.returncode}")
    assert result.returncode in (0, 1, 2, 143), (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    assert "\x1b" not in result.stdout + result.stderr
    assert snapshot(outside) == before
    assert processes_marked(mark) == []
    assert list(tmp.iterdir()) == []


# The surface around a run: a cache, a durations file, saved runs, a registry's answers, and
# hooks probed in a throwaway home. Each (command, how to make it hostile) runs as the scenario
# draws do: bounded, no traceback, no raw escape, nothing outside changed, nothing left.
SURFACE = {
    "cache-entry-fifo": (["run", "s.yaml", "--cache", "cache"], "cache"),
    "durations-fifo": (
        ["run", "s.yaml", "--shard", "1/2", "--durations-file", "d.json"],
        "fifo:d.json",
    ),
    "durations-zero": (
        ["run", "s.yaml", "--shard", "1/2", "--durations-file", "d.json"],
        "zero:d.json",
    ),
    "show-fifo": (["show", "r.json"], "fifo:r.json"),
    "show-zero": (["show", "r.json"], "zero:r.json"),
    "show-deep": (["show", "r.json"], "deep:r.json"),
    "fire-payload-fifo": (
        ["fire", "claude-code", "Stop", "--payload", "p.json", "--", "true"],
        "fifo:p.json",
    ),
    "probe-writes-everywhere": (["lint", "--probe", "--yes"], "probe"),
}
PASSING = "name: ok\ntool: claude-code\nhooks: {Stop: [{hooks: [{type: command, command: 'true'}]}]}\nturns: [{user: hi, assistant: ok}]\n"


@pytest.mark.parametrize("case", sorted(SURFACE))
def test_the_surface_around_a_run_is_bounded_and_clean(tmp_path: Path, case: str) -> None:
    argv, hostile = SURFACE[case]
    outside, work, tmp = tmp_path / "outside", tmp_path / "work", tmp_path / "tmp"
    for folder in (outside, work, tmp):
        folder.mkdir()
    (outside / "victim.txt").write_text("original\n")
    (work / "s.yaml").write_text(PASSING)
    kind, _, name = hostile.partition(":")
    env = {**os.environ, "TMPDIR": str(tmp), "HOME": str(work)}
    if kind == "fifo":
        os.mkfifo(work / name)
    elif kind == "zero":
        (work / name).symlink_to("/dev/zero")
    elif kind == "deep":
        (work / name).write_text("[" * 100_000 + "]" * 100_000)
    elif kind == "cache":
        subprocess.run(
            [str(BIN / "hooksim"), *argv],
            cwd=work,
            env=env,
            capture_output=True,
            timeout=LIMIT_S,
            check=True,
        )
        for entry in (work / "cache").rglob("*.json"):
            entry.unlink()
            os.mkfifo(entry)
    elif kind == "probe":
        (work / ".claude").mkdir()
        names = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "CODEX_HOME", "CLAUDE_CONFIG_DIR", "OLDPWD"]
        env.update(dict.fromkeys(names, str(outside)))
        writes = "; ".join(f'echo x >> "${name}/marker" 2>/dev/null' for name in names)
        hook = {"type": "command", "command": f"{writes}; true"}
        (work / ".claude" / "settings.json").write_text(
            '{"hooks": {"Stop": [{"hooks": [' + __import__("json").dumps(hook) + "]}]}}"
        )
    before = snapshot(outside)
    mark = f"HOOKSIM_HOSTILE_{uuid.uuid4().hex}"
    env[mark] = "1"
    result = subprocess.run(
        [str(BIN / "hooksim"), *argv],
        cwd=work,
        capture_output=True,
        text=True,
        env=env,
        timeout=LIMIT_S,
        preexec_fn=limited,
        check=False,
    )
    assert result.returncode in (0, 1, 2), (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    assert "\x1b" not in result.stdout + result.stderr
    assert snapshot(outside) == before
    assert processes_marked(mark) == []
    assert list(tmp.iterdir()) == []
