"""What a host's file tools do to the project when the replay runs them.

``apply(host, call, place)`` changes the files a tool call names, as that host's tool would,
and says what it did in words; a call of any other tool changes nothing (``""``). A call that
cannot apply (a missing argument, an ``old_string`` that is not there, a patch hunk that does
not match) changes nothing at all, and the words say why. Nothing is ever written outside the
project and the run's HOME (``Place``).

The tools and their arguments, as each host's hooks see them (each profile's ``file_tools``
names its tools and their kind, ``KINDS`` here; its ``explore.py`` draws the same names):

- Claude Code: ``Write`` (``file_path``, ``content``), ``Edit`` (``file_path``, ``old_string``,
  ``new_string``, ``replace_all``; an empty ``old_string`` creates a new file) and
  ``MultiEdit`` (``file_path``, ``edits``: edits of that shape, applied in order, all or none):
  the file tools of its permission rules (``FILE_PATH_FIELDS``);
- Gemini CLI: ``write_file`` (``file_path``, ``content``) and ``replace`` (``file_path``,
  ``old_string``, ``new_string``, ``allow_multiple``), as
  ``packages/core/src/tools/definitions/base-declarations.ts`` names them;
- Codex CLI: ``apply_patch``, whose hooks see the patch as ``command`` (codex-rs
  ``core/src/tools/hook_names.rs``), in its ``*** Begin Patch`` format: ``*** Add File``,
  ``*** Update File`` (``@@`` hunks, an optional ``*** Move to``), ``*** Delete File``; every
  hunk is checked before anything is written, and a hunk's lines are found exactly, then
  ignoring trailing, then surrounding whitespace (codex-rs ``apply-patch`` ``parser.rs``,
  ``seek_sequence.rs``);
- Hermes: ``write_file`` (``path``, ``content``) and ``patch`` (hermes-agent 0.19.0
  ``tools/file_tools.py``): ``mode: replace`` (``path``, ``old_string``, ``new_string``,
  ``replace_all``) or ``mode: patch`` (``patch``, in Codex's format, though an added file gets
  no final line break and an updated one keeps its end: ``tools/patch_parser.py``);
- OpenClaw: ``read`` (``path``: changes nothing, its text is the result), ``write`` (``path``,
  ``content``), ``edit`` (``path``, ``edits``: ``{oldText, newText}``, each found once in the
  file as it was, none overlapping, all or none: openclaw 2026.9.6
  ``dist/tools-COqmKCvp.mjs:1951-1996``) and ``apply_patch`` (``input``, in Codex's format).

``apply`` also gives back each file the call read or changed, its text before and after
(``ToolRun.files``), for a host whose tool result says what changed.

Not modelled: the looser matches Gemini CLI's ``replace`` and Hermes' ``patch`` try when an
``old_string`` is not there exactly, Claude Code's rule that a file is read before it is
edited, and Cursor's tools (no public code shows their input).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from .. import beneath
from ..hosts import HOSTS
from ..hosts.records import ToolRun
from ..printable import one_line
from ..steps import ToolCall


class Refused(Exception):
    """Why a tool call changes nothing; ``str()`` says it."""


class Missing(Refused):
    """The file a call reads is not there: ``path``, as the host names it (absolute)."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message)
        self.path = path


@dataclass(frozen=True)
class Place:
    """Where a run's tools act: the project, the run's HOME, and the directory the host says it
    works in (a path under it is the project's)."""

    project: Path
    home: Path
    cwd: str

    def path(self, value: Any, key: str) -> Path:
        """The file a tool argument names, inside the project or the run's HOME."""
        if not isinstance(value, str) or not value:
            raise Refused(f"no {key}")
        cwd = self.cwd.rstrip("/")
        if value == "~" or value.startswith("~/"):
            candidate = self.home / value[2:]
        elif value == cwd or value.startswith(cwd + "/"):
            candidate = self.project / value[len(cwd) + 1 :]
        else:
            candidate = self.project / value  # an absolute value stays absolute
        candidate = Path(os.path.normpath(candidate))
        real = Path(os.path.realpath(candidate))
        roots = [Path(os.path.realpath(root)) for root in (self.project, self.home)]
        if not any(real != root and real.is_relative_to(root) for root in roots):
            raise Refused(f"{value} is outside the project and the run's HOME")
        return candidate

    def inside(self, path: Path) -> tuple[Path, PurePosixPath]:
        """Where ``path`` is now, as the folder it is in (the project or the run's HOME) and the
        path under it, every link resolved; a path that has come to lead out is refused."""
        real = Path(os.path.realpath(path))
        for root in (self.project, self.home):
            resolved = Path(os.path.realpath(root))
            if real != resolved and real.is_relative_to(resolved):
                return resolved, PurePosixPath(real.relative_to(resolved))
        raise Refused(f"{self.shown(path)} is outside the project and the run's HOME")

    def shown(self, path: Path) -> str:
        if path.is_relative_to(self.home):
            return one_line(f"~/{path.relative_to(self.home)}")
        return one_line(str(path.relative_to(self.project)))

    def absolute(self, path: Path) -> str:
        """The path as the host names it: a project file under the directory it works in."""
        if path.is_relative_to(self.project):
            return os.path.join(self.cwd, path.relative_to(self.project))
        return str(path)


@dataclass
class Plan:
    """The files one call changes, kept until every part of the call is known to apply."""

    place: Place
    writes: dict[Path, str | None] = field(default_factory=dict)  # None: deleted
    said: list[str] = field(default_factory=list)
    seen: dict[Path, None] = field(default_factory=dict)  # the files read, in order
    result: str | None = None  # what the call gives back (a read's text); None: scripted

    def files(self) -> dict[str, tuple[str | None, str | None]]:
        """Each file the call read or is to change, by the path the project shows: its text
        now and once the call is written (asked before ``commit``)."""
        now = Plan(self.place)
        return {
            self.place.shown(path): (now.read(path), self.writes.get(path, now.read(path)))
            for path in [*self.seen, *self.writes]
        }

    def read(self, path: Path) -> str | None:
        """A file's text as the call has left it so far (None: there is no such file)."""
        if path in self.writes:
            return self.writes[path]
        self.seen[path] = None
        if path.is_dir():
            raise Refused(f"{self.place.shown(path)} is a folder")
        if not path.is_file():
            return None
        try:
            return path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise Refused(f"cannot read {self.place.shown(path)} ({e})") from None

    def write(self, path: Path, text: str) -> None:
        verb = "created" if self.read(path) is None else "changed"
        self.writes[path] = text
        self.said.append(f"{verb} {self.place.shown(path)}")

    def delete(self, path: Path) -> None:
        if self.read(path) is None:
            raise Refused(f"no such file {self.place.shown(path)}")
        self.writes[path] = None
        self.said.append(f"deleted {self.place.shown(path)}")

    def commit(self) -> str:
        """Write the planned changes; what changed, in words."""
        for path, text in self.writes.items():
            # Resolved now and written without following a link: a link swapped in since the
            # call was planned is refused, not written through.
            root, inside = self.place.inside(path)
            try:
                if text is None:
                    beneath.remove(root, inside)
                else:
                    beneath.write(root, inside, text.encode("utf-8", "surrogateescape"))
            except beneath.Refused as e:
                raise Refused(str(e)) from None
        return ", ".join(self.said)


Tool = Callable[[Mapping[str, Any], Plan], None]


def apply(host: str, call: ToolCall, place: Place) -> ToolRun:
    """Run ``call`` on the project as ``host``'s file tool of that name: what it did, in words
    (``""``: it is not one of the host's file tools), what it gives back (a read's text) and
    the files it read or changed."""
    tool = host_tool(host, call.name)
    if tool is None:
        return ToolRun()
    plan = Plan(place)
    try:
        tool(call.args, plan)
        files = plan.files()
        return ToolRun(f"{call.name} ran: {plan.commit()}", result=plan.result, files=files)
    except Missing as e:
        return ToolRun(f"{call.name} changed nothing: {e}", missing=e.path)
    except Refused as e:
        return ToolRun(f"{call.name} changed nothing: {e}")
    except OSError as e:
        return ToolRun(f"{call.name} failed: {e}")


def _text(args: Mapping[str, Any], key: str) -> str:
    value = args.get(key)
    if not isinstance(value, str):
        raise Refused(f"no {key}")
    return value


def _read(key: str) -> Tool:
    """Read the whole file: it changes nothing, and its text is the result (OpenClaw's read)."""

    def read(args: Mapping[str, Any], plan: Plan) -> None:
        path = plan.place.path(args.get(key), key)
        text = plan.read(path)
        if text is None:
            raise Missing(f"no such file {plan.place.shown(path)}", plan.place.absolute(path))
        plan.result = text
        plan.said.append(f"read {plan.place.shown(path)}")

    return read


def _openclaw_edit(args: Mapping[str, Any], plan: Plan) -> None:
    """OpenClaw's edit: each of ``edits`` (``oldText``, ``newText``) found exactly once in the
    file as it was, none overlapping, spliced in at once; an edit whose texts are the same
    changes nothing (its looser Unicode and whitespace matches are not modelled)."""
    path = plan.place.path(args.get("path"), "path")
    edits = args.get("edits")
    if not isinstance(edits, list) or not edits:
        raise Refused("no edits")
    text, shown = plan.read(path), plan.place.shown(path)
    if text is None:
        raise Refused(f"no such file {shown}")
    spans = []
    for n, edit in enumerate(edits):
        if not isinstance(edit, Mapping):
            raise Refused(f"edits[{n}] is not an object")
        old, new = _text(edit, "oldText"), _text(edit, "newText")
        found = text.count(old) if old else 0
        if found != 1:
            raise Refused(f"edits[{n}].oldText found {found} times in {shown}")
        spans.append((text.index(old), len(old), new))
    spans.sort()
    for (start, length, _), (after, _, _) in itertools.pairwise(spans):
        if start + length > after:
            raise Refused(f"two edits overlap in {shown}")
    new_text = text
    for start, length, new in reversed(spans):
        new_text = new_text[:start] + new + new_text[start + length :]
    if new_text == text:
        raise Refused(f"the edits change nothing in {shown}")
    plan.write(path, new_text)


def _write(key: str) -> Tool:
    """Write the whole file (Claude Code's Write, Gemini CLI's and Hermes' write_file)."""

    def write(args: Mapping[str, Any], plan: Plan) -> None:
        path = plan.place.path(args.get(key), key)
        plan.write(path, _text(args, "content"))

    return write


def _edit(key: str, every: str) -> Tool:
    """Replace ``old_string`` by ``new_string`` in one file (Claude Code's Edit, Gemini CLI's
    replace, Hermes' patch in replace mode); ``every`` names the flag for every occurrence."""

    def edit(args: Mapping[str, Any], plan: Plan) -> None:
        path = plan.place.path(args.get(key), key)
        plan.write(path, _replaced(plan, path, args, every))

    return edit


def _replaced(plan: Plan, path: Path, edit: Mapping[str, Any], every: str) -> str:
    """The file's text after one edit; an empty ``old_string`` on a new file creates it."""
    old, new = _text(edit, "old_string"), _text(edit, "new_string")
    text = plan.read(path)
    shown = plan.place.shown(path)
    if text is None:
        if old == "":
            return new
        raise Refused(f"no such file {shown}")
    if old == "":
        raise Refused(f"{shown} already exists (an empty old_string creates a new file)")
    if old == new:
        raise Refused("old_string and new_string are the same")
    found = text.count(old)
    if found == 0:
        raise Refused(f"old_string not found in {shown}")
    if found > 1 and edit.get(every) is not True:
        raise Refused(f"old_string found {found} times in {shown} ({every} is not set)")
    return text.replace(old, new) if edit.get(every) is True else text.replace(old, new, 1)


def _multi_edit(args: Mapping[str, Any], plan: Plan) -> None:
    """Claude Code's MultiEdit: each of ``edits`` on the text the one before left."""
    path = plan.place.path(args.get("file_path"), "file_path")
    edits = args.get("edits")
    if not isinstance(edits, list) or not edits:
        raise Refused("no edits")
    existed = plan.read(path) is not None
    for n, edit in enumerate(edits, 1):
        if not isinstance(edit, Mapping):
            raise Refused(f"edit {n} is not an object")
        plan.writes[path] = _replaced(plan, path, edit, "replace_all")
    plan.said.append(f"{'changed' if existed else 'created'} {plan.place.shown(path)}")


def _apply_patch(key: str) -> Tool:
    """A patch in Codex's format (Codex's apply_patch, Hermes' patch in patch mode)."""

    def patch(args: Mapping[str, Any], plan: Plan) -> None:
        for hunk in _hunks(_text(args, key)):
            hunk.apply(plan)

    return patch


def _hermes_patch(args: Mapping[str, Any], plan: Plan) -> None:
    mode = args.get("mode", "replace")
    if mode == "patch":
        _hermes_v4a(args, plan)
    elif mode == "replace":
        _edit("path", "replace_all")(args, plan)
    else:
        raise Refused(f"mode {mode!r} is neither replace nor patch")


def _hermes_v4a(args: Mapping[str, Any], plan: Plan) -> None:
    """Hermes' patch mode: Codex's format, but an added file is its ``+`` lines joined by line
    breaks, with none at its end, and an update replaces the hunk's lines inside the text, so
    the file ends as it did (hermes-agent 0.19.0 ``tools/patch_parser.py``: ``_apply_add``,
    ``content = '\\n'.join(content_lines)``; ``_apply_update``, ``fuzzy_find_and_replace``)."""
    before = _texts_before(_text(args, "patch"), plan)
    _apply_patch("patch")(args, plan)
    for path, text in plan.writes.items():
        old = before.get(path)
        if text is not None and text.endswith("\n") and (old is None or not old.endswith("\n")):
            plan.writes[path] = text[:-1]


def _texts_before(patch: str, plan: Plan) -> dict[Path, str | None]:
    """Each file a patch writes, with the text it comes from (a moved file's, its source's)."""
    texts: dict[Path, str | None] = {}
    for hunk in _hunks(patch):
        path = plan.place.path(hunk.path, "path")
        texts[path] = plan.read(path)
        if hunk.move is not None:
            texts[plan.place.path(hunk.move, "path")] = texts[path]
    return texts


# --- Codex's patch format ---------------------------------------------------------------
BEGIN, END = "*** Begin Patch", "*** End Patch"
ADD, DELETE, UPDATE, MOVE = (
    "*** Add File: ",
    "*** Delete File: ",
    "*** Update File: ",
    "*** Move to: ",
)
END_OF_FILE = "*** End of File"


@dataclass(frozen=True)
class Chunk:
    """One ``@@`` hunk of an update: the lines it replaces (after its context line, if any)."""

    context: str | None
    old: tuple[str, ...]
    new: tuple[str, ...]
    end_of_file: bool


@dataclass(frozen=True)
class Hunk:
    """One file of a patch: added (``text``), deleted, or updated (``chunks``, ``move``)."""

    kind: str  # "add", "delete" or "update"
    path: str
    text: str = ""
    chunks: tuple[Chunk, ...] = ()
    move: str | None = None

    def apply(self, plan: Plan) -> None:
        path = plan.place.path(self.path, "path")
        if self.kind == "add":
            plan.write(path, self.text)
        elif self.kind == "delete":
            plan.delete(path)
        else:
            text = plan.read(path)
            if text is None:
                raise Refused(f"no such file {plan.place.shown(path)}")
            new = _updated(text, self.chunks, plan.place.shown(path))
            if self.move is None:
                plan.write(path, new)
                return
            target = plan.place.path(self.move, "path")
            plan.writes[target], plan.writes[path] = new, None
            plan.said.append(f"moved {plan.place.shown(path)} to {plan.place.shown(target)}")


def _hunks(patch: str) -> list[Hunk]:
    """The patch's files, as codex-rs ``parser.rs`` reads them (lenient about the spaces
    around a marker)."""
    lines = patch.strip().splitlines()
    if not lines or lines[0].strip() != BEGIN:
        raise Refused(f"the first line of the patch must be {BEGIN!r}")
    if lines[-1].strip() != END:
        raise Refused(f"the last line of the patch must be {END!r}")
    body, hunks, i = lines[1:-1], [], 0
    while i < len(body):
        head = body[i].strip()
        i += 1
        if head.startswith(ADD):
            added = []
            while i < len(body) and body[i].startswith("+"):
                added.append(body[i][1:] + "\n")
                i += 1
            hunks.append(Hunk("add", head[len(ADD) :], "".join(added)))
        elif head.startswith(DELETE):
            hunks.append(Hunk("delete", head[len(DELETE) :]))
        elif head.startswith(UPDATE):
            move = None
            if i < len(body) and body[i].startswith(MOVE):
                move = body[i][len(MOVE) :]
                i += 1
            chunks: list[Chunk] = []
            while i < len(body) and not body[i].startswith("*"):
                if not body[i].strip():  # blank lines between hunks
                    i += 1
                    continue
                chunk, used = _chunk(body[i:], first=not chunks)
                chunks.append(chunk)
                i += used
            if not chunks:
                raise Refused(f"the update of {head[len(UPDATE) :]} has no hunk")
            hunks.append(Hunk("update", head[len(UPDATE) :], chunks=tuple(chunks), move=move))
        else:
            raise Refused(
                f"{head!r} is not a hunk header ({ADD.strip()}, {DELETE.strip()}, {UPDATE.strip()})"
            )
    return hunks


def _chunk(lines: list[str], *, first: bool) -> tuple[Chunk, int]:
    """One ``@@`` hunk from the start of ``lines``, and how many lines it took."""
    if lines[0] == "@@":
        context, start = None, 1
    elif lines[0].startswith("@@ "):
        context, start = lines[0][3:], 1
    elif first:  # the first hunk may go without its @@ line
        context, start = None, 0
    else:
        raise Refused(f"an update hunk starts with @@, not {lines[0]!r}")
    old: list[str] = []
    new: list[str] = []
    taken, end_of_file = 0, False
    for line in lines[start:]:
        if line == END_OF_FILE and taken:
            end_of_file, taken = True, taken + 1
            break
        if line[:1] in ("", " "):
            old.append(line[1:])
            new.append(line[1:])
        elif line[0] == "+":
            new.append(line[1:])
        elif line[0] == "-":
            old.append(line[1:])
        elif taken:
            break  # the next file's header
        else:
            raise Refused(f"{line!r} in an update hunk starts with none of ' ', '+', '-'")
        taken += 1
    if not taken:
        raise Refused("an update hunk has no lines")
    return Chunk(context, tuple(old), tuple(new), end_of_file), start + taken


def _updated(text: str, chunks: tuple[Chunk, ...], shown: str) -> str:
    """``text`` with each hunk's lines replaced, in order, and a final newline."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    replacements: list[tuple[int, int, tuple[str, ...]]] = []
    at = 0
    for chunk in chunks:
        if chunk.context is not None:
            found = _seek(lines, (chunk.context,), at, end_of_file=False)
            if found is None:
                raise Refused(f"context {chunk.context!r} not found in {shown}")
            at = found + 1
        if not chunk.old:  # lines added at the end of the file
            replacements.append((len(lines), 0, chunk.new))
            continue
        old, new = chunk.old, chunk.new
        found = _seek(lines, old, at, end_of_file=chunk.end_of_file)
        if found is None and old[-1] == "":  # a hunk's last empty line is the file's end
            old, new = old[:-1], new[:-1] if new and new[-1] == "" else new
            found = _seek(lines, old, at, end_of_file=chunk.end_of_file)
        if found is None:
            raise Refused(f"lines not found in {shown}: {' / '.join(chunk.old)}")
        replacements.append((found, len(old), new))
        at = found + len(old)
    for start, length, added in sorted(replacements, reverse=True):
        lines[start : start + length] = added
    return "\n".join([*lines, ""])


def _seek(
    lines: list[str], pattern: tuple[str, ...], start: int, *, end_of_file: bool
) -> int | None:
    """Where ``pattern`` starts in ``lines`` from ``start``: exactly, else ignoring trailing
    whitespace, else ignoring the whitespace around each line (``seek_sequence.rs``)."""
    if not pattern:
        return start
    if len(pattern) > len(lines):
        return None
    first = len(lines) - len(pattern) if end_of_file else start
    for same in (str, str.rstrip, str.strip):
        for i in range(first, len(lines) - len(pattern) + 1):
            if all(same(lines[i + j]) == same(p) for j, p in enumerate(pattern)):
                return i
    return None


# The kinds of file tool a profile names (``Host.file_tools``: name -> kind and its fields).
KINDS: dict[str, Callable[..., Tool]] = {
    "read": _read,  # (path field)
    "write": _write,  # (path field)
    "edit": _edit,  # (path field, the flag that replaces every match)
    "multi_edit": lambda: _multi_edit,
    "apply_patch": _apply_patch,  # (the field that holds the patch)
    "patch": lambda: _hermes_patch,
    "edits": lambda: _openclaw_edit,
}


def host_tool(host: str, name: str) -> Tool | None:
    """``host``'s file tool ``name`` (None: not one of its file tools)."""
    kind = HOSTS[host].file_tools.get(name)
    return None if kind is None else KINDS[kind[0]](*kind[1:])
