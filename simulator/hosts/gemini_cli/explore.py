"""The words ``hooksim explore`` draws Gemini CLI sessions from (``explore.vocabulary``)."""

from __future__ import annotations

from ...explore.vocabulary import Vocabulary, edit, read, shell, write
from .profile import GeminiCli

VOCABULARY = Vocabulary(
    (
        shell(GeminiCli.shell_tool),
        read("read_file", "file_path"),
        write("write_file", "file_path"),
        edit("replace", "file_path"),
    ),
)
