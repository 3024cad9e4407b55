"""Every command in README.md and docs/ runs as shown; every link and schema key is in place.

``console`` blocks run and their output is compared; ``sh`` lines run and must exit 0 unless
``NOT_RUN`` says why not and where they are exercised instead (see ``tests/doc_examples.py``
and docs/development.md, "Examples that run").
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from .doc_examples import (
    ROOT,
    Block,
    Command,
    blocks,
    console_commands,
    mismatch,
    output_matches,
    pages,
    prose,
    run,
    sh_lines,
    workdir,
)

# sh lines that are not run here: pattern -> why, and where they run instead. Keep it short:
# a command that can run in a few seconds belongs in a console block.
NOT_RUN: dict[str, str] = {
    r"^python3 -m pip install '\.\[sim\]' && hooksim run scenarios/$": (
        "README's main job, kept verbatim: .ci/run installs the wheel with [sim] into a clean "
        "venv and runs hooksim run scenarios/ from the unpacked sdist"
    ),
    r"^python3 -m pip install 'tox>=4\.22' 'tox-uv>=1\.37' && tox$": (
        "README's test command, kept verbatim: .ci/run installs tox and tox-uv and runs tox"
    ),
    r"^python3 -m pip install (\.|'\.\[(sim|install)\]')$": (
        "installs into the reader's environment: the tox environments install the same wheel "
        "with these extras"
    ),
    r"^hooksim (run|validate) scenarios/( |$)"
    r"|^hooksim run scenarios/(hermes -k window |codex scenarios/across |across/memory-session\.yaml$)": (
        "the whole shipped corpus or large parts of it (ten seconds to minutes): tox runs every "
        "file of scenarios/ on each of its hosts through the pytest plugin, and .ci/run runs "
        "hooksim run scenarios/"
    ),
    r"--hooks-config (~|other/)": (
        "the reader's own config file: tests/replay/test_hooks_config.py runs the corpus "
        "with --hooks-config"
    ),
    r"--real\b|^npm install |^claude=": (
        "needs the real agent CLI, installed with npm: the conformance tox environments "
        "install it and run --real"
    ),
    r"^hooksim explore\b": (
        "minutes of drawn sessions: tests/explore/test_explore.py runs small searches, "
        "tox -e slow the default ones"
    ),
    r"^hooksim record |^claude$|^hooksim run my-session\.yaml$": (
        "a real host runs between start and stop: tests/record/test_record.py records a "
        "session on each host through the tap, exports it and replays the export"
    ),
    r"^python benchmarks/": "benchmarks time many rounds and print ratios; they are run by hand",
    r"^tox -e (lint|py311)\b": (
        "tox builds environments of its own (minutes on a new machine): .ci/run runs tox, whose "
        "default list holds every one of these"
    ),
    r"^hooksim conformance (codex|gemini-cli) .*--versions [0-9.,]+( |$)": (
        "installs releases of a real agent CLI from npm (minutes each): tox -e "
        "conformance-versions runs it; tests/real/test_conformance_versions.py runs it "
        "with a fake npm"
    ),
    r"^python3 -m venv ~/\.venvs/hermes-hooks ": (
        "installs the hook package into the reader's own venv: the tox environments install "
        "the same wheel with [install], and tests/conformance/test_reinstall_keeps_consent.py "
        "installs it into a venv of its own"
    ),
    r"^~/\.venvs/hermes-hooks/bin/hermes-hooks (install|verify)\b": (
        "the tools of that venv: the console block of docs/hook-package.md runs install and "
        "verify as shown, and tests/install/ runs every tool and option"
    ),
    r"^hermes --accept-hooks\b": (
        "needs the real Hermes: tests/conformance/test_reinstall_keeps_consent.py consents "
        "with hermes --accept-hooks after hermes-hooks install"
    ),
    r"^python3 -m venv ~/\.cache/agents/hermes ": (
        "installs Hermes (about a minute): tox -e conformance installs the same version"
    ),
}

PAGES = pages()
BLOCKS = [block for page in PAGES for block in blocks(page)]
CONSOLE = [block for block in BLOCKS if block.lang == "console"]
SH = [block for block in BLOCKS if block.lang == "sh"]
SCHEMA = ROOT / "simulator" / "scenario" / "scenario.schema.json"
TWO_COMMANDS = (
    "python3 -m pip install '.[sim]' && hooksim run scenarios/",
    "python3 -m pip install 'tox>=4.22' 'tox-uv>=1.37' && tox",
)


def _not_run(line: str) -> str | None:
    return next((pattern for pattern in NOT_RUN if re.search(pattern, line)), None)


@pytest.mark.parametrize("block", CONSOLE, ids=[block.id for block in CONSOLE])
def test_console_block(block: Block, tmp_path: Path) -> None:
    """Each command prints what the page shows and exits as it says."""
    cwd, env = workdir(tmp_path)
    for command in console_commands(block):
        code, actual = run(command.text, cwd, env)
        problem = mismatch(block, command, code, actual)
        assert problem is None, problem


@pytest.mark.parametrize("block", SH, ids=[block.id for block in SH])
def test_sh_block(block: Block, tmp_path: Path) -> None:
    """Each line runs and exits 0, or the allow-list says why it does not run here."""
    lines = [(number, line) for number, line in sh_lines(block) if _not_run(line) is None]
    if not lines:
        return
    cwd, env = workdir(tmp_path)
    for number, line in lines:
        code, output = run(line, cwd, env)
        assert code == 0, (
            f"{block.path}:{number}: $ {line}\nexited {code}:\n" + "\n".join(output) + "\n"
            "A sh line must run and exit 0; show its output in a console block, or add it to "
            "NOT_RUN in tests/test_docs.py saying why it cannot run here and where it runs."
        )


def test_every_entry_of_the_allow_list_is_used() -> None:
    used = {_not_run(line) for block in SH for _, line in sh_lines(block)}
    assert set(NOT_RUN) <= used, f"unused NOT_RUN entries: {sorted(set(NOT_RUN) - used)}"


def test_commands_are_in_console_or_sh_fences_only() -> None:
    """Another shell fence would hide its commands from this test."""
    other = [b.id for b in BLOCKS if b.lang in {"bash", "shell", "zsh", "shell-session", ""}]
    assert not other, f"use console (run, output compared) or sh (run) fences, or text: {other}"


def test_readme_keeps_the_two_commands() -> None:
    """README's two commands stay verbatim, each alone in its sh fence."""
    readme = [block for block in BLOCKS if block.path == "README.md" and block.lang == "sh"]
    for command in TWO_COMMANDS:
        assert any(block.lines == (command,) for block in readme), command


def test_a_wrong_expected_output_is_reported(tmp_path: Path) -> None:
    """The checker is not fooled: a planted wrong output or exit code is reported."""
    page = tmp_path / "docs" / "page.md"
    page.parent.mkdir()
    page.write_text(
        "Some text.\n\n```console\n$ echo hello\ngoodbye\n$ echo out; exit 3\nout\n```\n"
    )
    (block,) = blocks(page, root=tmp_path)
    hello, failing = console_commands(block)
    cwd = tmp_path
    env = {"PATH": "/usr/bin:/bin"}
    problem = mismatch(block, hello, *run(hello.text, cwd, env))
    assert problem is not None
    assert problem.startswith("docs/page.md:4: $ echo hello\n")
    assert "-goodbye\n+hello" in problem
    problem = mismatch(block, failing, *run(failing.text, cwd, env))
    assert problem is not None
    assert "exit code: expected 0, got 3" in problem
    failing.exit_code = 3
    assert mismatch(block, failing, *run(failing.text, cwd, env)) is None


def test_wildcards_in_expected_output() -> None:
    assert output_matches(["PASS  a.yaml  ([..]s)"], ["PASS  a.yaml  (0.4s)"])
    assert output_matches(["a", "...", "z"], ["a", "z"])
    assert output_matches(["a", "...", "z"], ["a", "b", "c", "z"])
    assert output_matches(["a  "], ["a"])
    assert not output_matches(["a", "...", "z"], ["a", "b"])
    assert not output_matches(["in [..]s"], ["in 1.2s", "extra"])
    assert not output_matches(["a.b"], ["axb"])


def test_exit_line_and_output_are_parsed() -> None:
    block = Block("x.md", 1, "console", ("$ false", "[exit 1]", "$ echo a", "a", ""))
    assert console_commands(block) == [
        Command(2, "false", [], 1),
        Command(4, "echo a", ["a"], 0),
    ]


def _schema_keys(schema: dict[str, object]) -> set[str]:
    """Every key a scenario file may hold, as a dotted path (a list's items as ``[]``).

    A ``$ref`` is not followed: the definition it names is documented where it is rooted.
    """
    roots = {
        "expect": "expect.",
        "invariants": "invariants.",
        "explore": "explore.",
        "turn": "turns[].",
        "toolCall": "turns[].tools[].",  # responses[].tools[] take the same keys
        "new_session": "turns[].",
        "compact": "turns[].",
        "raw_event": "turns[].",
        "resume": "turns[].",
        "label": "",
        "plugins": "",
        "session_plan": "sessions[].",
        "turns": "",
        "duration": "",
        "outcome": "",
        "outcomes": "",
    }
    keys: set[str] = set()

    def walk(node: object, prefix: str) -> None:
        if not isinstance(node, dict) or "$ref" in node:
            return
        for name, sub in node.get("properties", {}).items():
            keys.add(prefix + name)
            walk(sub, f"{prefix}{name}.")
        for sub in node.get("oneOf", []):
            walk(sub, prefix)
        if isinstance(node.get("items"), dict):
            walk(node["items"], prefix[:-1] + "[].")
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], prefix + "<host>.")
        for sub in node.get("patternProperties", {}).values():  # files' and expect.files' paths
            walk(sub, prefix + "<path>.")

    walk(schema, "")
    definitions = schema["$defs"]
    assert isinstance(definitions, dict)
    unknown = set(definitions) - set(roots)
    assert not unknown, f"say where the schema's $defs {unknown} are documented (roots)"
    for name, definition in definitions.items():
        walk(definition, roots[name])
    return keys


def test_every_schema_key_is_documented() -> None:
    """docs/scenario-format.md names every key of the scenario schema, as a dotted path."""
    reference = (ROOT / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"`([^`\n]+)`", reference))
    keys = _schema_keys(json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert len(keys) > 100
    missing = sorted(keys - documented)
    assert not missing, f"keys of {SCHEMA.name} not in docs/scenario-format.md: {missing}"


def _slug(heading: str) -> str:
    """The anchor a code host gives a heading: lower case, punctuation out, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    anchors: set[str] = set()
    counts: dict[str, int] = {}
    for line in prose(page):
        if heading := re.match(r"#{1,6} (.+)", line):
            slug = _slug(heading.group(1))
            anchors.add(f"{slug}-{counts[slug]}" if slug in counts else slug)
            counts[slug] = counts.get(slug, 0) + 1
    return anchors


def test_links_and_anchors_resolve() -> None:
    """Every relative link of README.md and docs/ names a file that exists, and its anchor."""
    broken = []
    for page in PAGES:
        text = re.sub(r"`[^`\n]*`", "", "\n".join(prose(page)))
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(ROOT)}: ({target})"
            if not linked.exists():
                broken.append(f"{where}: no such file")
            elif anchor and anchor not in _anchors(linked):
                broken.append(f"{where}: no heading with this anchor")
    assert not broken, "\n".join(broken)


def split_tables(text: str) -> list[int]:
    """The line numbers of table rows that a blank line cut off from the table above them
    (Markdown renders them as text): a row, a blank line, then a row that is not a new
    table's header (a header is followed by its ``|---|`` line)."""
    lines = text.splitlines()
    row = re.compile(r"\s*\|.*\|\s*$")
    separator = re.compile(r"\s*\|[\s:|-]+\|\s*$")
    return [
        i + 3
        for i in range(len(lines) - 2)
        if row.match(lines[i])
        and not lines[i + 1].strip()
        and row.match(lines[i + 2])
        and not (i + 3 < len(lines) and separator.match(lines[i + 3]))
    ]


def test_no_table_is_cut_in_two() -> None:
    cut = [
        f"{page.relative_to(ROOT)}:{n}"
        for page in PAGES
        for n in split_tables("\n".join(prose(page)))
    ]
    assert not cut, cut


def test_a_table_cut_in_two_is_found() -> None:
    text = "| a | b |\n|---|---|\n| 1 | 2 |\n\n| 3 | 4 |\n\n| c | d |\n|---|---|\n| 5 | 6 |\n"
    assert split_tables(text) == [5]


def test_each_page_says_what_it_covers() -> None:
    """Each page of docs/ opens with its title and then one paragraph of plain text."""
    for page in PAGES[1:]:
        lines = page.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("# "), f"{page.relative_to(ROOT)}: no title"
        first = next(line for line in lines[1:] if line.strip())
        assert re.match(r"[A-Za-z`*]", first), f"{page.relative_to(ROOT)}: no opening paragraph"


def test_readme_shows_the_first_example_as_it_is() -> None:
    """The hook and the scenario README walks through are the files in docs/examples/first/."""
    shown = {block.lines for block in BLOCKS if block.path == "README.md"}
    for name in ("welcome_back.py", "welcome-back.yaml"):
        text = (ROOT / "docs" / "examples" / "first" / name).read_text(encoding="utf-8")
        assert tuple(text.splitlines()) in shown, f"README shows another {name}"


def test_the_code_map_names_every_stage() -> None:
    """docs/development.md maps every stage of the import contracts' layers (pyproject.toml)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [
        c["layers"] for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"
    ]
    stages = {s.strip().removeprefix("hooksim.") for row in layers for s in row.split("|")}
    layout = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    layout = layout.split("## How the code is laid out", 1)[1]
    for stage in sorted(stages):
        assert f"`{stage}`" in layout or f"`{stage}/`" in layout or f"`{stage}.py`" in layout, stage


def test_the_shipped_schema_names_the_registrys_hosts() -> None:
    """Editors read the schema file; a run fills its host names from the registry. They agree."""
    from hooksim.hosts import HOSTS

    shipped = json.loads(SCHEMA.read_text(encoding="utf-8"))["properties"]
    assert shipped["tool"]["enum"] == list(HOSTS)
    assert shipped["hosts"]["propertyNames"]["enum"] == list(HOSTS)
