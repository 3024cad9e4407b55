"""Each host's own words, for the sessions ``hooksim explore`` draws on it.

A hook on Claude Code with ``matcher: Bash`` must see Bash calls, with a ``command`` to read;
the same hook on Gemini CLI is bound to ``run_shell_command``. So each host has its tool names,
as its hooks see them in ``tool_name`` (and as their matchers select them), with arguments of
each tool's shape, and the step kinds it has: which compaction triggers, whether a Stop may
come with nothing to save (Hermes' bare ``post_llm_call``), whether several sessions run at
once (a Hermes gateway).

Each host's words are its folder's ``explore.VOCABULARY``, built with the shapes here. Where
the names come from: each host's shell tool is its profile's ``shell_tool`` (the tool a
scenario's ``{shell: CMD}`` reaches it as); the others:

- Hermes: ``read_file``, and the file-mutating tools of its profile
  (``hosts.hermes.constants.FILE_MUTATING_TOOLS``: ``write_file``, ``patch``), with the arguments of
  hermes-agent's tool schemas (``tools/file_tools.py``: ``path``; ``patch`` in replace mode:
  ``mode``, ``path``, ``old_string``, ``new_string``);
- Claude Code: the file tools of its permission rules
  (``hosts.claude_code.rules.FILE_PATH_FIELDS``: ``Read``, ``Write``, ``Edit``);
- Codex CLI: file edits, which its hooks see as ``apply_patch`` with the patch as ``command``
  (codex-rs ``core/src/tools/hook_names.rs``, ``HookToolName::apply_patch``);
- Gemini CLI: ``read_file``, ``write_file``, ``replace`` and their parameters
  (``packages/core/src/tools/definitions/base-declarations.ts``);
- Cursor: ``Read``, ``Write``, tool types its hooks docs give as ``preToolUse`` matcher
  values; the shape of their ``tool_input`` is not checked against a real Cursor (no public
  code, no offline binary).

Every shell tool takes its command as ``command``.

The shell commands are the same on every host: plain ones first (shrinking goes there), then
the spellings of a recursive forced ``rm`` that a guard must not miss, and near misses it must
let through.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..hosts import HOSTS, part

SHELL_COMMANDS = (
    "ls",
    "git status",
    "echo hello",
    "cat notes.txt",
    "rm notes.txt",
    "rm -r build",
    "rm -f build.log",
    "grep -rf patterns.txt src",
    "rm -rf build",
    "rm  -rf build",
    "rm -fr build",
    "rm -r -f build",
    "rm -Rf /tmp/cache",
    "rm --recursive --force build",
    "sudo rm -rf /",
    "cd build && rm -rf .",
)
FILES = ("notes.txt", "src/app.py", ".env", "/etc/hosts")
PATCH = "*** Begin Patch\n*** Update File: notes.txt\n@@\n-old\n+new\n*** End Patch\n"


@dataclass(frozen=True)
class ToolShape:
    """A tool as a host's hooks see it: its name and the arguments a call may have (the
    plainest first)."""

    name: str
    args: tuple[dict[str, Any], ...] = ({},)


@dataclass(frozen=True)
class Vocabulary:
    """What a session on one host is made of, beyond turns and ``/new``."""

    tools: tuple[ToolShape, ...]
    compactions: tuple[str, ...] = ("auto", "manual")  # the triggers a compaction may have
    bare_stop: bool = False  # a stop event whose payload has no response (Hermes)
    gateway: bool = False  # several sessions at once (a Hermes gateway)

    def tool(self, name: str) -> ToolShape | None:
        return next((t for t in self.tools if t.name == name), None)

    @property
    def names(self) -> list[str]:
        return [t.name for t in self.tools]


def shell(name: str) -> ToolShape:
    """A host's shell tool (its profile's ``shell_tool``), with the shell commands."""
    return ToolShape(name, tuple({"command": c} for c in SHELL_COMMANDS))


def read(name: str, field: str) -> ToolShape:
    return ToolShape(name, tuple({field: path} for path in FILES))


def write(name: str, field: str, content: str = "content") -> ToolShape:
    return ToolShape(name, tuple({field: path, content: "new text\n"} for path in FILES))


def edit(name: str, field: str, **extra: str) -> ToolShape:
    return ToolShape(
        name,
        tuple({**extra, field: path, "old_string": "old", "new_string": "new"} for path in FILES),
    )


def patch(name: str, field: str) -> ToolShape:
    """A tool that takes a patch (Codex's ``apply_patch``, the patch as ``command``)."""
    return ToolShape(name, ({field: PATCH},))


def vocabulary(host: str) -> Vocabulary:
    """The words of ``host`` (a name of ``hosts.HOSTS``): its folder's ``explore.VOCABULARY``."""
    words = part(HOSTS[host], "explore")
    if words is None:
        raise ValueError(f"hooksim explore has no words for {HOSTS[host].title}")
    vocabulary: Vocabulary = words.VOCABULARY
    return vocabulary
