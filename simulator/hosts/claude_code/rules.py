"""Claude Code's permission rules, as a hook's ``if`` condition reads them.

A rule is a tool name, then an optional pattern in parentheses: ``Bash``, ``Bash(git *)``,
``Edit(src/**/*.ts)``. Claude Code (v2.1.85) runs a tool hook only when its ``if`` rule
matches the call. What is modelled here was observed on the real 2.1.332 binary, call by call
(``scenarios/probes/claude-code-if-conditions.yaml``, run by ``tox -e conformance-claude-code``):

- the rule must be exactly ``Tool`` or ``Tool(pattern)``: a trailing space or any other shape
  never matches, and the tool name is compared case-sensitively;
- a **Bash** pattern is matched against each *subcommand* of the command line, and one match
  is enough: the line is split at ``&&``, ``||``, ``;``, ``|``, ``&``, newlines and
  parentheses; ``VAR=value`` prefixes and redirections (``> out.log``) are dropped and spaces
  collapsed. ``*`` is any text; a trailing `` *`` or ``:*`` also matches the bare command
  (``git *`` matches ``git``, not ``gitx``). ``sh -c '...'`` is not looked into;
- a **file** pattern (Read, Write, Edit, MultiEdit, NotebookEdit) follows gitignore rules
  (the ``pathspec`` library's): without a slash it matches at any depth, ``/x`` is anchored
  at the project root, ``//x`` at the filesystem root, ``./x`` and ``a/b`` at the working
  directory (``~/x``, the home folder, is not modelled);
- **WebFetch** takes ``domain:HOST``.

Patterns of other tools are not modelled: such a rule is judged on the tool name, and
``unmodelled()`` says so, for ``hooksim validate`` and the timeline to report.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pathspec

_RULE = re.compile(r"([A-Za-z][A-Za-z0-9_-]*)(?:\((.*)\))?", re.DOTALL)
FILE_PATH_FIELDS = {
    "Read": "file_path",
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
}
_SEPARATORS = {"&&", "||", ";", "|", "&", "(", ")", ";;", "|&", "$("}
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*", re.DOTALL)


@dataclass(frozen=True)
class Rule:
    """One parsed rule: the tool it names and its pattern (None: every call of the tool)."""

    tool: str
    pattern: str | None

    @classmethod
    def parse(cls, text: str) -> Rule | None:
        """The rule ``text`` spells, or None when it is not one (such a hook never runs)."""
        found = _RULE.fullmatch(text)
        if found is None:
            return None
        pattern = found.group(2)
        return cls(found.group(1), None if pattern in (None, "", "*") else pattern)

    def unmodelled(self) -> bool:
        """Whether hooksim judges this rule on its tool name only (its pattern is not modelled)."""
        if self.pattern is None:
            return False
        if self.tool in FILE_PATH_FIELDS:
            return self.pattern.startswith("~")
        return self.tool not in ("Bash", "WebFetch")

    def matches(self, tool_name: str, tool_input: Mapping[str, Any], where: Places) -> bool:
        """Whether a call of ``tool_name`` with ``tool_input`` satisfies this rule."""
        if tool_name != self.tool:
            return False
        if self.pattern is None or self.unmodelled():
            return True
        if self.tool == "Bash":
            command = tool_input.get("command")
            return isinstance(command, str) and any(
                _command_matches(self.pattern, sub) for sub in subcommands(command)
            )
        if self.tool == "WebFetch":
            return _domain_matches(self.pattern, tool_input.get("url"))
        path = tool_input.get(FILE_PATH_FIELDS[self.tool])
        return isinstance(path, str) and _path_matches(self.pattern, path, where)


@dataclass(frozen=True)
class Places:
    """The folders a file pattern is anchored to."""

    cwd: str
    project: str


def subcommands(command: str) -> Iterator[str]:
    """Each simple command of a command line, as a Bash rule is matched against it."""
    for line in command.splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()<>")
        lexer.whitespace_split = True
        lexer.commenters = ""
        try:
            tokens = list(lexer)
        except ValueError:  # an unclosed quote: match the line as written
            tokens = line.split()
        yield from _simple_commands(tokens)


def _simple_commands(tokens: list[str]) -> Iterator[str]:
    words: list[str] = []
    skip_next = False
    for token in tokens:
        if skip_next:
            skip_next = False
            continue
        if token in _SEPARATORS or token == "$":
            if words:
                yield " ".join(words)
            words = []
        elif set(token) <= set("<>&|") and ("<" in token or ">" in token):
            skip_next = True  # a redirection and its target (a file, or 1 of 2>&1)
            if words and words[-1].isdigit():
                words.pop()  # the descriptor of 2> out.log
        elif token.startswith("$") and token.endswith("("):
            if words:
                yield " ".join(words)
            words = []
        elif not words and _ASSIGNMENT.fullmatch(token):
            continue  # FOO=1 git ...: the variable is not part of the command
        else:
            words.append(token)
    if words:
        yield " ".join(words)


def _command_matches(pattern: str, command: str) -> bool:
    if pattern.endswith(":*"):
        pattern = pattern[:-2] + " *"
    optional_tail = pattern.endswith(" *")
    body = pattern[:-2] if optional_tail else pattern
    regex = ".*".join(re.escape(part) for part in body.split("*"))
    if optional_tail:
        regex += "(?: .*)?"
    return re.fullmatch(regex, command, re.DOTALL) is not None


def _domain_matches(pattern: str, url: object) -> bool:
    if not pattern.startswith("domain:") or not isinstance(url, str):
        return False
    return (urlsplit(url).hostname or "") == pattern.removeprefix("domain:").lower()


def _path_matches(pattern: str, path: str, where: Places) -> bool:
    if pattern.startswith("//"):
        base, pattern = "/", pattern[1:]
    elif pattern.startswith("/"):
        base = where.project
    elif pattern.startswith("./"):
        base, pattern = where.cwd, pattern[1:]
    else:
        base = where.cwd
    full = os.path.normpath(os.path.join(where.cwd, path))
    relative = os.path.relpath(full, base)
    if relative == ".." or relative.startswith("../"):
        return False
    return pathspec.GitIgnoreSpec.from_lines([pattern]).match_file(relative)
