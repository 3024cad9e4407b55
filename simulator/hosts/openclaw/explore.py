"""The words ``hooksim explore`` draws OpenClaw sessions from (``explore.vocabulary``)."""

from __future__ import annotations

from ...explore.vocabulary import Vocabulary, read, shell, write
from .profile import OpenClaw

# dist/tools-COqmKCvp.mjs: read {path}, write {path, content} (openclaw 2026.9.6).
VOCABULARY = Vocabulary((shell(OpenClaw.shell_tool), read("read", "path"), write("write", "path")))
