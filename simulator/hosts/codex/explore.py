"""The words ``hooksim explore`` draws Codex CLI sessions from (``explore.vocabulary``)."""

from __future__ import annotations

from ...explore.vocabulary import Vocabulary, patch, shell
from .profile import Codex

VOCABULARY = Vocabulary((shell(Codex.shell_tool), patch("apply_patch", "command")))
