"""The cache never gives a false green: each way a hook reaches a file is in what a saved pass
depends on, and a saved entry is used only when it is whole, ours, and a pass of this run.

Each case passes, is saved, then has the file its hook reaches changed so that it fails: the
next ``--cache`` run must run it and fail, as ``--no-cache`` does.
"""

from __future__ import annotations

import json
import os
import py_compile
import shutil
from pathlib import Path

import pytest
from hooksim.cli import main

HEAD = "name: reach\ntool: claude-code\n"
TAIL = "turns:\n  - {user: hi, assistant: ok}\nexpect:\n  context_at_turn: {'1': GOOD}\n"


def hook(command: str) -> str:
    return (
        "hooks:\n  UserPromptSubmit:\n    - hooks: [{type: command, command: "
        + json.dumps(command)
        + "}]\n"
    )


# name -> (extra YAML, the files (relative to the test's folder), the file to make fail)
CASES: dict[str, tuple[str, dict[str, str], str]] = {
    "from-a-file": (
        "files: {hook.sh: {from: fix/hook.sh}}\n" + hook("sh hook.sh"),
        {"s/fix/hook.sh": "echo GOOD\n"},
        "s/fix/hook.sh",
    ),
    "quoted-variable": (
        hook('sh "$HOOKSIM_SCENARIO_DIR"/hooks/q.sh'),
        {"s/hooks/q.sh": "echo GOOD\n"},
        "s/hooks/q.sh",
    ),
    "after-cd": (
        hook('cd "$HOOKSIM_SCENARIO_DIR" && sh hooks/cd.sh'),
        {"s/hooks/cd.sh": "echo GOOD\n"},
        "s/hooks/cd.sh",
    ),
    "sourced": (
        hook('sh "$HOOKSIM_SCENARIO_DIR/main.sh"'),
        {
            "s/main.sh": '. "$HOOKSIM_SCENARIO_DIR/lib/words.sh"\necho "$WORD"\n',
            "s/lib/words.sh": "WORD=GOOD\n",
        },
        "s/lib/words.sh",
    ),
    "python-subfolder-module": (
        hook('"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/pkg.py"'),
        {
            "s/pkg.py": "import sys, os\nsys.path.insert(0, os.path.join(os.path.dirname("
            "__file__), 'lib'))\nimport sub\nprint(sub.WORD)\n",
            "s/lib/sub.py": "WORD = 'GOOD'\n",
        },
        "s/lib/sub.py",
    ),
    "python-outside-found-at-run-time": (
        hook('"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/far.py"'),
        {
            "s/far.py": "import sys, os\nsys.path.insert(0, os.environ['ELSEWHERE'])\n"
            "import far_module\nprint(far_module.WORD)\n",
            "elsewhere/far_module.py": "WORD = 'GOOD'\n",
        },
        "elsewhere/far_module.py",
    ),
    "python-data-outside": (
        hook('"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/data.py"'),
        {
            "s/data.py": "import os\nprint(open(os.path.join(os.environ['ELSEWHERE'], 'word.txt'))"
            ".read().strip())\n",
            "elsewhere/word.txt": "GOOD\n",
        },
        "elsewhere/word.txt",
    ),
    "python-module-already-compiled": (
        hook('"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/far.py"'),
        {
            "s/far.py": "import sys, os\nsys.path.insert(0, os.environ['ELSEWHERE'])\n"
            "import compiled\nprint(compiled.WORD)\n",
            "elsewhere/compiled.py": "WORD = 'GOOD'\n",
        },
        "elsewhere/compiled.py",
    ),
    "read-through-a-link": (
        hook('"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/linked.py"'),
        {
            "s/linked.py": "import os\nprint(open(os.path.join(os.environ['ELSEWHERE'], 'link.txt'))"
            ".read().strip())\n",
            "elsewhere/real.txt": "GOOD\n",
        },
        "elsewhere/real.txt",
    ),
    "node-require-outside": (
        hook('node "$HOOKSIM_SCENARIO_DIR/hook.js"'),
        {
            "s/hook.js": "const path = require('path');\n"
            "console.log(require(path.join(process.env.ELSEWHERE, 'word.js')));\n",
            "elsewhere/word.js": "module.exports = 'GOOD';\n",
        },
        "elsewhere/word.js",
    ),
}


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ELSEWHERE", str(tmp_path / "elsewhere"))
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *more: str) -> tuple[int, str]:
    code = main(["run", "s/reach.yaml", "-q", *more])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_changed_file_the_hook_reaches_runs_again(
    case: str, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if case.startswith("node") and shutil.which("node") is None:
        pytest.skip("needs node")
    extra, files, changed = CASES[case]
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    if case == "python-module-already-compiled":  # as pip leaves a package: .pyc beside it
        py_compile.compile(str(folder / "elsewhere" / "compiled.py"))
    if case == "read-through-a-link":
        (folder / "elsewhere" / "link.txt").symlink_to("real.txt")
    (folder / "s" / "reach.yaml").write_text(HEAD + extra + TAIL)
    code, out = run(capsys, "--cache", "c")
    assert (code, out.startswith("1 passed, 0 failed")) == (0, True), out
    code, out = run(capsys, "--cache", "c")
    assert (code, "cached" in out) == (0, True)
    target = folder / changed
    target.write_text(target.read_text().replace("GOOD", "BAD"))
    code, out = run(capsys, "--cache", "c")
    assert code == 1, out
    assert "(cached)" not in out
    assert run(capsys, "--no-cache")[0] == 1


@pytest.fixture
def saved(folder: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A passing scenario run once with the cache: the path of its saved entry."""
    (folder / "s").mkdir()
    (folder / "s" / "reach.yaml").write_text(HEAD + hook("echo GOOD") + TAIL)
    assert run(capsys, "--cache", "c")[0] == 0
    [entry] = Path("c").rglob("*.json")
    return entry


def tamper(entry: Path, how: str) -> None:
    saved = json.loads(entry.read_text())
    inner = saved["entry"]
    if how == "not-json":
        entry.write_text("{not json")
        return
    if how == "fifo":
        entry.unlink()
        os.mkfifo(entry)
        return
    if how == "dev-zero":
        entry.unlink()
        entry.symlink_to("/dev/zero")
        return
    if how == "empty-entry":
        saved["entry"] = {}
    elif how == "path-a-number":
        inner["path"] = 5
    elif how == "seconds-text":
        inner["seconds"] = "abc"
    elif how == "says-fail":
        inner.update(verdict="FAIL", passed=False, failures=["boom"])
    elif how == "another-scenario":
        inner.update(path="../../elsewhere.yaml", name="<script>alert(1)</script>")
    elif how == "checksum":
        inner["name"] = "edited"
    if how in ("says-fail", "another-scenario"):  # a forger who recomputes the checksum too
        from hooksim.judge.cache import checksum

        saved["sha256"] = checksum(saved["key"], inner, saved["reads"])
    entry.write_text(json.dumps(saved))


@pytest.mark.parametrize(
    "how",
    [
        "not-json",
        "fifo",
        "dev-zero",
        "empty-entry",
        "path-a-number",
        "seconds-text",
        "says-fail",
        "another-scenario",
        "checksum",
    ],
)
def test_a_tampered_entry_is_a_miss_and_the_run_runs(
    how: str, saved: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whatever is in the entry, the verdict is the uncached one, every report agrees, and no
    traceback: the run simply runs."""
    if how == "says-fail":  # an entry saying FAIL, for a scenario that now fails
        Path("s/reach.yaml").write_text(HEAD + hook("echo BAD") + TAIL)
    tamper(saved, how)
    code, out = run(capsys, "--cache", "c", "--junit-xml", "r.xml")
    assert "(cached)" not in out
    assert "Traceback" not in out
    junit = Path("r.xml").read_text()
    if how == "says-fail":  # the scenario changed too: its key changed, the run fails as it is
        assert code == 1
    else:
        assert code == 0
        assert "<failure" not in junit
        assert "../../elsewhere.yaml" not in junit


def test_a_link_planted_in_the_cache_folder_is_never_written_through(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A temporary name of a save is created exclusively: links planted at every name it
    could have had before (``.KEY.PID``) change nothing outside."""
    outside = folder / "victim.txt"
    outside.write_text("precious")
    (folder / "s").mkdir()
    (folder / "s" / "reach.yaml").write_text(HEAD + hook("echo GOOD") + TAIL)
    from hooksim.judge.cache import key as cache_key
    from hooksim.judge.items import items_of

    [item] = items_of(Path("s/reach.yaml"), None, None)
    key = cache_key(item, forced_tool=None, hooks_config=None)
    shard = folder / "c" / key[:2]
    shard.mkdir(parents=True)
    for pid in range(os.getpid() - 5, os.getpid() + 5):
        (shard / f".{key}.{pid}").symlink_to(outside)
    assert run(capsys, "--cache", "c")[0] == 0
    assert outside.read_text() == "precious"
    assert run(capsys, "--cache", "c")[1].count("cached") == 1


def test_a_hook_reading_a_device_is_not_cached_and_says_so(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (folder / "s").mkdir()
    (folder / "s" / "dev.py").write_text("open('/dev/urandom', 'rb').read(4)\nprint('GOOD')\n")
    (folder / "s" / "reach.yaml").write_text(
        HEAD + hook('"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/dev.py"') + TAIL
    )
    code, out = run(capsys, "--cache", "c")
    assert code == 0
    assert (
        "note: not cached: s/reach.yaml [claude-code]: a hook read /dev/urandom, a character"
        " device, not a regular file" in out
    )
    assert "(cached)" not in run(capsys, "--cache", "c")[1]


def test_cache_env_names_variables_of_the_key(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (folder / "s").mkdir()
    (folder / "s" / "reach.yaml").write_text(HEAD + hook('echo "$WORD"') + TAIL)
    monkeypatch.setenv("WORD", "GOOD")
    assert run(capsys, "--cache", "c", "--cache-env", "WORD")[0] == 0
    monkeypatch.setenv("WORD", "BAD")
    code, out = run(capsys, "--cache", "c", "--cache-env", "WORD")
    assert (code, "(cached)" in out) == (1, False)


def test_a_file_a_hook_reads_and_rewrites_is_not_cached(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hook passes while a state file outside says 0, then writes 1: the next run would
    read 1 and fail, so the pass is not saved."""
    (folder / "s").mkdir()
    state = folder / "elsewhere" / "state"
    state.parent.mkdir()
    state.write_text("0")
    (folder / "s" / "once.py").write_text(
        "import os\npath = os.path.join(os.environ['ELSEWHERE'], 'state')\n"
        "print('GOOD' if open(path).read() == '0' else 'BAD')\nopen(path, 'w').write('1')\n"
    )
    (folder / "s" / "reach.yaml").write_text(
        HEAD + hook('"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/once.py"') + TAIL
    )
    code, out = run(capsys, "--cache", "c")
    assert code == 0
    assert f"a hook read {state}, which changed during the run" in out
    assert run(capsys, "--cache", "c")[0] == 1


def test_without_cache_no_hook_is_instrumented(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The recorders go in only with --cache: a plain run's hooks see no HOOKSIM_READS and no
    NODE_OPTIONS preload of hooksim's."""
    (folder / "s").mkdir()
    (folder / "s" / "reach.yaml").write_text(
        HEAD + hook('test -z "$HOOKSIM_READS" && test -z "$NODE_OPTIONS" && echo GOOD') + TAIL
    )
    assert run(capsys)[0] == 0
