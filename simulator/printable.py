"""Text from hooks and scenario files, made safe to print on a terminal or in a report.

A hook can print anything, and a scenario can name a file anything: an escape sequence that
clears the screen or retitles the terminal, a carriage return that overwrites a line, a line
break inside a file name that splits a one-line message in two. Every stage that words such a
value goes through here.

- ``escaped(text)``: every character that does not print (C0 and C1 controls, DEL, line and
  paragraph separators, format characters, lone surrogates) as its Python escape (``\\x1b``,
  ``\\u2028``); line breaks and tabs are kept, so output of many lines still reads as lines.
- ``one_line(text)``: a name or other one-line value as it is when it prints, else quoted as
  Python's ``repr`` (``'new\\nline.txt'``), so a message stays one line and says exactly which
  name it means.
- ``no_commands(text)``: text of many lines printed where a CI runner reads workflow commands
  (GitHub Actions takes a line that starts with ``::``, blanks before it aside, as one): such a
  line starts with ``\\::`` instead, which is no command.
"""

from __future__ import annotations

__all__ = ["escaped", "no_commands", "one_line"]


def escaped(text: str, keep: str = "\n\t") -> str:
    """``text`` with each character that does not print, but those of ``keep``, escaped."""
    if "\n" in keep:  # line by line: most lines print as they are
        return "\n".join(escaped(line, keep.replace("\n", "")) for line in text.split("\n"))
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c in keep else repr(c)[1:-1] for c in text)


def one_line(text: str) -> str:
    """``text`` as it is when every character prints, else ``repr(text)``."""
    return text if text.isprintable() else repr(text)


def no_commands(text: str) -> str:
    """``text`` with each line that a CI runner would read as a workflow command (``::`` after
    any blanks) starting with ``\\::`` instead."""
    if "::" not in text:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        body = line.lstrip()
        if body.startswith("::"):
            lines[i] = line[: len(line) - len(body)] + "\\" + body
    return "\n".join(lines)
