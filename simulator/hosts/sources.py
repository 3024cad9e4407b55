"""Where each profile fact comes from: the host's code, its docs or changelog, or a real run.

A profile lists its facts (``Host.facts``), each with the sources that settle it: a line of the
host's code at a commit on its main branch (or, for a host shipped on a package index, of the
released package the profile models), a section of its docs, a changelog entry, or what
the released binary did when run. Where the docs and the code disagree, the code wins and the
fact carries both. A fact nothing public settles is ``unverified``: ``hooksim hosts`` and the
timeline say so, and no scenario pins it as truth.
"""

from __future__ import annotations

from dataclasses import dataclass

# The commits on each host's main branch the citations read.
CODEX = "openai/codex"
GEMINI = "google-gemini/gemini-cli"
GEMINI_MAIN = "5411f113cafae26161b4969b0237b8e1e024e2c2"  # 2026-08-21, 0.56.0 nightly
CLAUDE = "anthropics/claude-code"
CLAUDE_MAIN = "5cfc0a1905ce0c0a9bd81d8a90fe6b62ff614357"  # 2026-08-22, CHANGELOG at 2.1.240
CLAUDE_DOCS = "https://code.claude.com/docs/en/hooks"
CURSOR_DOCS = "https://cursor.com/docs/agent/hooks"
HERMES = "NousResearch/hermes-agent"


@dataclass(frozen=True)
class Source:
    """One place that states a fact, as ``hooksim hosts --sources`` prints it."""

    kind: str  # "code", "release", "docs", "changelog" or "observed"
    where: str
    note: str = ""

    def __str__(self) -> str:
        text = f"{self.kind}: {self.where}"
        return f"{text} ({self.note})" if self.note else text


def code(repo: str, commit: str, path: str, line: int | str, note: str = "") -> Source:
    """A line of the host's source (``line`` may name a function where no line is stable)."""
    anchor = f"L{line}" if isinstance(line, int) else line
    return Source("code", f"{repo}@{commit[:12]} {path}#{anchor}", note)


def release(package: str, version: str, path: str, line: int, note: str = "") -> Source:
    """A line of a released package's file (a host shipped on a package index, read as shipped)."""
    return Source("release", f"{package}=={version} {path}#L{line}", note)


def bundled(package: str, version: str, path: str, offset: int, note: str = "") -> Source:
    """Code a released package ships inside a compiled binary (Claude Code's JavaScript in
    ``bin/claude.exe``): the byte offset where ``grep -boa`` finds the text quoted in ``note``."""
    return Source("release", f"{package}=={version} {path}@{offset}", note)


def docs(url: str, section: str, note: str = "") -> Source:
    return Source("docs", f"{url}#{section}", note)


def changelog(repo: str, commit: str, version: str, line: int, note: str = "") -> Source:
    return Source("changelog", f"{repo}@{commit[:12]} CHANGELOG.md#L{line} ({version})", note)


def observed(version: str, note: str = "") -> Source:
    """What the released binary did when hooksim's probes ran it."""
    return Source("observed", f"real {version} binary", note)


@dataclass(frozen=True)
class Fact:
    """One thing a profile states, under a topic (the attribute or rule it sets)."""

    topic: str
    text: str
    sources: tuple[Source, ...] = ()
    unverified: bool = False

    def lines(self) -> list[str]:
        flag = " [unverified]" if self.unverified else ""
        return [f"- {self.topic}: {self.text}{flag}"] + [f"    {s}" for s in self.sources]


def fact(topic: str, text: str, *sources: Source) -> Fact:
    return Fact(topic, text, sources)


def unverified(topic: str, text: str, *sources: Source) -> Fact:
    return Fact(topic, text, sources, unverified=True)


__all__ = [
    "CLAUDE",
    "CLAUDE_DOCS",
    "CLAUDE_MAIN",
    "CODEX",
    "CURSOR_DOCS",
    "GEMINI",
    "GEMINI_MAIN",
    "HERMES",
    "Fact",
    "Source",
    "bundled",
    "changelog",
    "code",
    "docs",
    "fact",
    "observed",
    "release",
    "unverified",
]
