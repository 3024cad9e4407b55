"""The import rules hold (``tests/architecture.py``, the import-linter contracts of
``pyproject.toml``), and each check sees a planted break."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import hooksim
import pytest
from hooksim.hosts import HOSTS

from .architecture import circles, problems

CHECK = Path(__file__).with_name("architecture.py")


def beside(folder: str) -> Path:
    """``folder`` of the checkout beside the tests; the test skips where an installed copy is
    tested instead (an unpacked sdist without it)."""
    root = Path(__file__).parents[1] / folder
    if not root.is_dir():
        pytest.skip(f"{folder}/ is not beside the tests (an installed copy is tested)")
    return root


def test_both_packages_have_no_import_circle() -> None:
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
    env = {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_")}  # not measured
    return {**env, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}


def test_a_planted_circle_is_reported(tmp_path: Path) -> None:
    env = _planted_copy(tmp_path, "hooksim.steps", "from . import hosts")
    done = subprocess.run(
        [sys.executable, str(CHECK)], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "import circle: hooksim.hosts" in done.stdout, done.stdout


def test_a_planted_type_only_circle_is_reported(tmp_path: Path) -> None:
    """A session that names its profile under ``TYPE_CHECKING`` ties the two as surely."""
    line = "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from .profile import Host"
    env = _planted_copy(tmp_path, "hooksim.hosts.session", line)
    done = subprocess.run(
        [sys.executable, str(CHECK)], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "hooksim.hosts.profile <-> hooksim.hosts.session" in done.stdout, done.stdout


def fmt_skips(root: Path) -> list[str]:
    """``path:line`` of each ``# fmt: skip`` (or ``# fmt: off``): the formatter owns the layout.
    The hosts' facts tables (``facts.py``) may keep a table's columns."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "facts.py":
            continue
        with path.open("rb") as source:
            comments = [t for t in tokenize.tokenize(source.readline) if t.type == tokenize.COMMENT]
        found += [
            f"{path.relative_to(root)}:{t.start[0]}"
            for t in comments
            if re.fullmatch(r"#\s*fmt:\s*(skip|off)\b.*", t.string)
        ]
    return found


@pytest.mark.parametrize("folder", ["hermes_hooks", "simulator", "tests", "benchmarks"])
def test_the_formatter_owns_the_layout(folder: str) -> None:
    root = beside(folder)
    assert fmt_skips(root) == []


def test_a_fmt_skip_is_found(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("x = [1,2]  # fmt: skip\ny = 1\n# fmt: off\n")
    (tmp_path / "facts.py").write_text("TABLE = [1,2]  # fmt: skip\n")
    assert fmt_skips(tmp_path) == ["m.py:1", "m.py:3"]


PYPROJECT = Path(__file__).parents[1] / "pyproject.toml"
LINT_IMPORTS = (
    "import sys; from importlinter.cli import lint_imports;"
    " sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))"
)


def lint_imports(env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the contracts of ``pyproject.toml``, in a process of its own."""
    return subprocess.run(
        [sys.executable, "-c", LINT_IMPORTS, str(PYPROJECT)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_both_packages_keep_the_import_contracts() -> None:
    done = lint_imports()
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        pytest.param(
            "hooksim.replay.runner",
            "from ..judge import judge_scenario",
            "hooksim's stages import downwards only",
            id="an upward import",
        ),
        pytest.param(
            "hooksim.real.compare",
            "from ..explore import search",
            "hooksim's stages import downwards only",
            id="two stages of one row",
        ),
        pytest.param(
            "hooksim.hosts.codex.profile",
            "from ..claude_code import constants",
            "Each host's folder is independent of the others",
            id="a host imports another",
        ),
        pytest.param(
            "hooksim.hosts.codex.real",
            "from ..gemini_cli import real",
            "Each host's folder is independent of the others",
            id="a host's stage part imports another host",
        ),
        pytest.param(
            "hooksim.replay.runner",
            "from ..hosts.openclaw import config",
            "Stages reach a host's folder only through the registry",
            id="a stage imports a host's folder",
        ),
        pytest.param(
            "hooksim.hosts.codex.profile",
            "from . import real",
            "No module of a host's folder imports one of its stage parts",
            id="a profile imports its real part",
        ),
        pytest.param(
            "hooksim.replay.runner",
            "import hermes_hooks.entries",
            "The replay core is free of the hook package",
            id="the replay imports the hook package",
        ),
    ],
)
def test_a_planted_break_of_a_contract_is_reported(
    tmp_path: Path, module: str, line: str, broken: str
) -> None:
    done = lint_imports(_planted_copy(tmp_path, module, line))
    assert done.returncode == 1, done.stdout + done.stderr
    assert re.search(rf"^{re.escape(broken)}\s*BROKEN", done.stdout, re.MULTILINE), done.stdout


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
    root = beside(package)
    assert long_functions(root) == []


def test_a_long_function_is_found(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(LONG))
    (tmp_path / "m.py").write_text(
        f"def f():\n{body}\n\n\ndef g():\n    '''One function: why.'''\n{body}\n"
    )
    assert long_functions(tmp_path) == [f"{tmp_path / 'm.py'}:1 f (61 lines)"]


def host_names_in_stages(root: Path, names: set[str]) -> list[str]:
    """``path:line 'name'`` for each string literal outside ``hosts/`` that is a host's name: a
    stage asks the profile, never "which host am I?"."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root).parts[0] == "hosts":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in names:
                found.append(f"{path.relative_to(root)}:{node.lineno} {node.value!r}")
    return found


def test_no_stage_names_a_host() -> None:
    root = Path(hooksim.__file__).parent
    assert host_names_in_stages(root, set(HOSTS)) == []


def test_a_host_name_in_a_stage_is_found(tmp_path: Path) -> None:
    (tmp_path / "hosts").mkdir()
    (tmp_path / "hosts" / "x.py").write_text("NAME = 'codex'\n")
    (tmp_path / "stage.py").write_text("'''codex, in words'''\nif name == 'codex':\n    pass\n")
    assert host_names_in_stages(tmp_path, {"codex"}) == ["stage.py:2 'codex'"]


def unnamed_modules(package: Path, skip: frozenset[str] = frozenset()) -> list[str]:
    """``stage: module`` for each module or subpackage of each stage of ``package`` (its
    folders with an ``__init__.py``) that the stage's ``__init__`` docstring does not name as
    ````module````: a newcomer's map of a stage names every module in it."""
    found = []
    for stage in sorted(p for p in package.iterdir() if (p / "__init__.py").is_file()):
        doc = ast.get_docstring(ast.parse((stage / "__init__.py").read_text("utf-8"))) or ""
        modules = {p.stem for p in stage.glob("*.py") if not p.stem.startswith("_")}
        modules |= {p.name for p in stage.iterdir() if (p / "__init__.py").is_file()}
        found += [f"{stage.name}: {m}" for m in sorted(modules - skip) if f"``{m}``" not in doc]
    return found


def test_each_stage_names_its_modules() -> None:
    """The host folders are listed in ``hosts.FOLDERS``, the subcommands in
    ``hooksim.cli.COMMANDS`` (whose every name is a module of ``commands``)."""
    from hooksim.cli import COMMANDS
    from hooksim.hosts import FOLDERS

    root = beside("simulator")
    assert unnamed_modules(root, frozenset({*FOLDERS, *COMMANDS})) == []
    assert {p.stem for p in (root / "commands").glob("*.py")} >= set(COMMANDS)


def test_an_unnamed_module_is_found(tmp_path: Path) -> None:
    (tmp_path / "stage").mkdir()
    (tmp_path / "stage" / "__init__.py").write_text('"""- ``named``: what it does."""\n')
    for name in ("named", "unnamed", "_private"):
        (tmp_path / "stage" / f"{name}.py").write_text("")
    assert unnamed_modules(tmp_path) == ["stage: unnamed"]


LONG_MODULE = 700  # lines


def long_modules(root: Path) -> list[str]:
    """``path (N lines)`` for each module over ``LONG_MODULE`` lines: read in one sitting, or
    split where its parts are."""
    found = []
    for path in sorted(root.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > LONG_MODULE:
            found.append(f"{path} ({lines} lines)")
    return found


@pytest.mark.parametrize("package", ["hermes_hooks", "simulator"])
def test_no_module_is_long(package: str) -> None:
    root = beside(package)
    assert long_modules(root) == []


def test_a_long_module_is_found(tmp_path: Path) -> None:
    (tmp_path / "short.py").write_text("x = 1\n" * LONG_MODULE)
    (tmp_path / "long.py").write_text("x = 1\n" * (LONG_MODULE + 1))
    assert long_modules(tmp_path) == [f"{tmp_path / 'long.py'} ({LONG_MODULE + 1} lines)"]


# ``Any`` per 1,000 lines of the packages may only go down: the aim is under 12 (pre-commit's
# 7.7, httpx's 8.6); this is where the typing of the seams between stages stands.
ANY_PER_1000 = 28.1


def any_density(roots: list[Path]) -> float:
    """``Any`` (the name, in code, not in comments or strings) per 1,000 lines of ``roots``."""
    names = lines = 0
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            with path.open("rb") as source:
                tokens = list(tokenize.tokenize(source.readline))
            names += sum(t.type == tokenize.NAME and t.string == "Any" for t in tokens)
            lines += path.read_text(encoding="utf-8").count("\n")
    return 1000 * names / max(lines, 1)


def test_any_only_goes_down() -> None:
    assert any_density([beside("hermes_hooks"), beside("simulator")]) <= ANY_PER_1000


def test_any_is_counted_in_code_only(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "from typing import Any\n# Any in a comment\nx: Any = 'Any'\n" + "y = 1\n" * 997
    )
    assert any_density([tmp_path]) == 2.0
