"""Claude Code's permission rules as a hook's ``if`` reads them: subcommands, paths, domains."""

from __future__ import annotations

import pytest
from hooksim.hosts.claude_code.rules import Places, Rule, subcommands

HERE = Places(cwd="/p/sub", project="/p")


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git --version 2>&1 | head", ["git --version", "head"]),
        ("cat < in.txt > out.log", ["cat"]),
        ("echo x $(git status)", ["echo x", "git status"]),
        ("FOO=1 BAR=2 make  test", ["make test"]),
        ("a && b || c; d &", ["a", "b", "c", "d"]),
        ("echo 'a && b'", ["echo a && b"]),
        ("echo 'unclosed", ["echo 'unclosed"]),
        ("first\n(second)", ["first", "second"]),
    ],
)
def test_a_command_line_splits_into_the_subcommands_rules_see(
    command: str, expected: list[str]
) -> None:
    """Operators split, quotes hold, redirections and variable prefixes go, spaces collapse."""
    assert list(subcommands(command)) == expected


def test_rules_that_do_not_parse_and_rules_for_every_call() -> None:
    """Only Tool or Tool(pattern) parses; an empty or * pattern means every call of the tool."""
    assert Rule.parse("Bash(git *) ") is None
    assert Rule.parse("Bash((") is None
    assert Rule.parse("Bash()") == Rule("Bash", None)
    assert Rule.parse("Bash(*)") == Rule("Bash", None)
    assert Rule.parse("mcp__files__read(x)") == Rule("mcp__files__read", "x")
    every = Rule("Read", None)
    assert every.matches("Read", {}, HERE)
    assert not every.matches("Write", {}, HERE)


def test_file_patterns_are_anchored_as_gitignore_entries() -> None:
    """No slash: any depth below the working directory; /x the project; //x the root; ./x here."""
    assert Rule("Edit", "*.py").matches("Edit", {"file_path": "deep/a.py"}, HERE)
    assert Rule("Edit", "/sub/*.py").matches("Edit", {"file_path": "/p/sub/a.py"}, HERE)
    assert not Rule("Edit", "/*.py").matches("Edit", {"file_path": "/p/sub/a.py"}, HERE)
    assert Rule("Edit", "//etc/**").matches("Edit", {"file_path": "/etc/hosts"}, HERE)
    assert Rule("Edit", "./a.py").matches("Edit", {"file_path": "a.py"}, HERE)
    assert not Rule("Edit", "*.py").matches("Edit", {"file_path": "/elsewhere/a.py"}, HERE)
    assert not Rule("Edit", "*.py").matches("Edit", {"file_path": 3}, HERE)
    notebook = Rule("NotebookEdit", "*.ipynb")
    assert notebook.matches("NotebookEdit", {"notebook_path": "n.ipynb"}, HERE)


def test_domains_and_the_patterns_hooksim_does_not_model() -> None:
    """WebFetch takes domain:HOST; home-anchored paths and other tools' patterns match on the
    tool's name alone, and say so."""
    fetch = Rule("WebFetch", "domain:example.com")
    assert fetch.matches("WebFetch", {"url": "https://EXAMPLE.com/x"}, HERE)
    assert not fetch.matches("WebFetch", {"url": 7}, HERE)
    assert not Rule("WebFetch", "example.com").matches(
        "WebFetch", {"url": "https://example.com"}, HERE
    )
    for rule in (Rule("Read", "~/notes/**"), Rule("Agent", "reviewer")):
        assert rule.unmodelled()
        assert rule.matches(rule.tool, {}, HERE)
    assert not Rule("Bash", "git *").unmodelled()
    assert not Rule("Bash", "git *").matches("Bash", {"command": 3}, HERE)
