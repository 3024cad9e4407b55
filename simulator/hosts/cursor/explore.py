"""The words ``hooksim explore`` draws Cursor sessions from (``explore.vocabulary``)."""

from __future__ import annotations

from ...explore.vocabulary import Vocabulary, read, shell, write
from .profile import Cursor

VOCABULARY = Vocabulary(
    (shell(Cursor.shell_tool), read("Read", "file_path"), write("Write", "file_path"))
)
