"""The words ``hooksim explore`` draws Hermes sessions from (``explore.vocabulary``)."""

from __future__ import annotations

from ...explore.vocabulary import Vocabulary, edit, read, shell, write
from .profile import Hermes

VOCABULARY = Vocabulary(
    (
        shell(Hermes.shell_tool),
        read("read_file", "path"),
        write("write_file", "path"),
        edit("patch", "path", mode="replace"),
    ),
    compactions=("auto",),
    bare_stop=True,
    gateway=True,
)
