"""The import rules of ``tests/architecture.py`` hold, and the check sees a planted break."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import hooksim
import pytest

from .architecture import circles, problems

CHECK = Path(__file__).with_name("architecture.py")


def test_both_packages_keep_the_import_rules() -> None:
    assert problems() == []


def test_circles_are_found_whatever_their_length() -> None:
    imports = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}, "e": {"a"}}
    assert circles(imports) == [["a", "b", "c"], ["d"]]


def _planted_copy(tmp_path: Path, module: str, line: str) -> dict[str, str]:
    """A copy of hooksim with ``line`` added to ``module``; the environment that imports it."""
    copy = tmp_path / "hooksim"
    shutil.copytree(Path(hooksim.__file__).parent, copy)
    target = copy.joinpath(*module.split(".")[1:]).with_suffix(".py")
    if not target.exists():
        target = copy.joinpath(*module.split(".")[1:], "__init__.py")
    target.write_text(target.read_text() + f"\n{line}\n")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}


@pytest.mark.parametrize(
    ("module", "line", "expected"),
    [
        pytest.param(
            "hooksim.steps",
            "from . import hosts",
            "import circle: hooksim.hosts",
            id="a circle",
        ),
        pytest.param(
            "hooksim.replay.runner",
            "from ..judge import judge_scenario",
            "hooksim.replay imports hooksim.judge, a stage above it",
            id="an upward import",
        ),
        pytest.param(
            "hooksim.real.compare",
            "from ..explore import search",
            "hooksim.real imports hooksim.explore, a stage above it",
            id="two stages of one row",
        ),
    ],
)
def test_a_planted_break_is_reported(tmp_path: Path, module: str, line: str, expected: str) -> None:
    env = _planted_copy(tmp_path, module, line)
    done = subprocess.run(
        [sys.executable, str(CHECK)], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert expected in done.stdout, done.stdout


LONG = 60  # lines


def long_functions(root: Path) -> list[str]:
    """``path:line name (N lines)`` for each function over ``LONG`` lines whose docstring does
    not say why it is one function (a line starting ``One function:``)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                doc = ast.get_docstring(node) or ""
                if length > LONG and "One function:" not in doc:
                    found.append(f"{path}:{node.lineno} {node.name} ({length} lines)")
    return found


@pytest.mark.parametrize("package", ["hermes_hooks", "simulator"])
def test_no_function_is_long_without_a_reason(package: str) -> None:
    root = Path(__file__).parents[1] / package
    if not root.is_dir():
        pytest.skip(f"{package}/ is not beside the tests (an installed copy is tested)")
    assert long_functions(root) == []


def test_a_long_function_is_found(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(LONG))
    (tmp_path / "m.py").write_text(
        f"def f():\n{body}\n\n\ndef g():\n    '''One function: why.'''\n{body}\n"
    )
    assert long_functions(tmp_path) == [f"{tmp_path / 'm.py'}:1 f (61 lines)"]
