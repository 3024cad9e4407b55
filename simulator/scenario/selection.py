"""``-k``: choose scenarios by name or path, the way pytest's ``-k`` chooses tests.

A pattern is a case-insensitive substring of the file's path or of its scenario's name
(``-k "first compaction"``, ``-k hermes/``), a glob on the path (``-k '*/0?-*.yaml'``), or an
expression of such words with ``and``, ``or``, ``not`` and parentheses (``-k "window and not
retry"``). A word also matches the name of a host the file runs on.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable

_TOKEN = re.compile(r"\(|\)|[^\s()]+")
_OPERATORS = {"and", "or", "not", "(", ")"}


class PatternError(ValueError):
    """A ``-k`` expression that does not parse; ``str()`` says where."""


def matches(pattern: str, path: str, names: Iterable[str]) -> bool:
    """Whether ``-k pattern`` selects a file at ``path`` whose scenario (and hosts) are ``names``."""
    haystack = [path.lower(), *(n.lower() for n in names)]
    needle = pattern.strip().lower()
    if not needle:
        return True
    if any(needle in text for text in haystack) or fnmatch.fnmatch(path, pattern):
        return True
    tokens = _TOKEN.findall(needle)
    if not _OPERATORS & set(tokens):
        return False
    return _Expression(tokens, haystack).evaluate()


class _Expression:
    """``or`` of ``and`` of ``[not] word | ( expression )``, as in pytest."""

    def __init__(self, tokens: list[str], haystack: list[str]) -> None:
        self.tokens = tokens
        self.at = 0
        self.haystack = haystack

    def evaluate(self) -> bool:
        value = self._or()
        if self.at != len(self.tokens):
            raise PatternError(f"-k: unexpected {self.tokens[self.at]!r}")
        return value

    def _peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def _take(self) -> str:
        token = self._peek()
        if token is None:
            raise PatternError("-k: the expression ends too early")
        self.at += 1
        return token

    def _or(self) -> bool:
        value = self._and()
        while self._peek() == "or":
            self._take()
            value = self._and() or value
        return value

    def _and(self) -> bool:
        value = self._not()
        while self._peek() == "and":
            self._take()
            value = self._not() and value
        return value

    def _not(self) -> bool:
        token = self._take()
        if token == "not":
            return not self._not()
        if token == "(":
            value = self._or()
            if self._take() != ")":
                raise PatternError("-k: missing ')'")
            return value
        if token in _OPERATORS:
            raise PatternError(f"-k: unexpected {token!r}")
        return any(token in text for text in self.haystack)
