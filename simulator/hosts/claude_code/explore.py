"""The words ``hooksim explore`` draws Claude Code sessions from (``explore.vocabulary``)."""

from __future__ import annotations

from ...explore.vocabulary import Vocabulary, edit, read, shell, write
from .profile import ClaudeCode
from .rules import FILE_PATH_FIELDS

_FILE = FILE_PATH_FIELDS["Read"]  # file_path

VOCABULARY = Vocabulary(
    (
        shell(ClaudeCode.shell_tool),
        read("Read", _FILE),
        write("Write", _FILE),
        edit("Edit", _FILE),
    ),
)
