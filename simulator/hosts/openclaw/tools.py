"""OpenClaw's own file tools in the replay: which they are, and what each gives back.

The replay runs a call on the workspace (``FILE_TOOLS`` names each tool's kind for
``replay.file_tools``), after the handlers' rewrites; ``given`` is then the result the real
2026.9.6 hands the model and the later hooks (after_tool_call's ``result``, the tool result
message of tool_result_persist and before_message_write): its text and its ``details``, made
from what the call read or changed (``ToolRun.files``).

Not modelled: read's paging and truncation (a long file is given whole), images, and where
the JavaScript ``diff`` package's line matching picks other lines than Python's ``difflib``
(the same for an edit of one place).
"""

from __future__ import annotations

import difflib
import json
import os
from typing import Any

from ...steps import ToolCall
from ..records import ToolRun

# The tools, as replay.file_tools' kinds with their fields: read, write and edit
# (dist/tools-COqmKCvp.mjs:2348, 4241; edit's `edits` of {oldText, newText}, :2189-2195) and
# apply_patch (`input`, dist/core-coding-tools-DiXs0QQ9.mjs:546), which OpenClaw offers every
# model unless tools.exec.applyPatch.allowModels names others (:115-127).
FILE_TOOLS = {
    "read": ("read", "path"),
    "write": ("write", "path"),
    "edit": ("edits",),
    "apply_patch": ("apply_patch", "input"),
}
PATCH_MARKERS = ("*** Add File: ", "*** Delete File: ", "*** Update File: ")
CONTEXT_LINES = 4  # around each change in a diff (dist/tools-COqmKCvp.mjs:2011, 2022)
NO_NEWLINE = "\\ No newline at end of file"


def given(call: ToolCall, done: ToolRun) -> dict[str, Any] | None:
    """The result OpenClaw's own tool gives for ``call`` that ran as ``done`` says: its text
    in ``content`` and its ``details``; None: not a file tool that took effect (the call keeps
    its scripted result)."""
    path = str(call.args.get("path", ""))
    if call.name == "read" and done.result is not None:
        # The read tool's details carry the text it read (dist/agent-tools.read-g6MfsPCZ.mjs:433-440).
        return _result(done.result, {"kind": "text", "content": done.result})
    if not done.files:
        return None
    if call.name == "write":
        before, after = next(iter(done.files.values()))
        size = len(str(after).encode("utf-8"))
        if before == after:  # dist/tools-COqmKCvp.mjs:4256
            return _result(
                f"No changes made to {path}. The file already has identical content.",
                {"changed": False},
            )
        # successfulWriteResult and resolveWriteDetails, dist/tools-COqmKCvp.mjs:4162-4213, 4228.
        details = {"changed": True, "created": before is None, **_changes(path, before, after)}
        return _result(f"Successfully wrote {size} bytes to {path}", details)
    if call.name == "edit":
        before, after = next(iter(done.files.values()))
        edits = [e for e in call.args.get("edits", []) if e.get("oldText") != e.get("newText")]
        # dist/tools-COqmKCvp.mjs:2393-2408.
        return _result(
            f"Successfully replaced {len(edits)} block(s) in {path}.",
            {"changed": True, **_changes(path, before, after)},
        )
    if call.name == "apply_patch":
        return _patched(done.files)
    return None


def failed(tool: str, message: str) -> dict[str, Any]:
    """The result of a call whose tool threw (or whose gate failed): the error as JSON, as
    text and as details (jsonResult of {status, tool, error},
    dist/agent-tool-definition-adapter-BOCBnNyL.mjs:130-134)."""
    details = {"status": "error", "tool": tool, "error": message}
    return _result(json.dumps(details, indent=2, ensure_ascii=False), details)


def thrown(call: ToolCall, done: ToolRun) -> str | None:
    """The error OpenClaw's own tool throws for ``call``, if it does: a read of a file that is
    not there (dist/tools-COqmKCvp.mjs:3755; the names of similar files it suggests are not
    modelled)."""
    if call.name == "read" and done.missing is not None:
        return f"File not found: {done.missing}."
    return None


def derived_paths(call: ToolCall, cwd: str) -> list[str]:
    """The files an apply_patch call targets, absolute, in the patch's order, each once:
    before_tool_call's ``derivedPaths`` (deriveToolParams and extractApplyPatchTargets,
    dist/agent-tools.before-tool-call-D6M7yTR3.mjs:1185-1189, dist/apply-patch-paths-DztplzLA.mjs:25-75)."""
    text = call.args.get("input") if call.name == "apply_patch" else None
    if not isinstance(text, str):
        return []
    lines = text.splitlines()
    found: list[str] = []
    for i, line in enumerate(lines):
        header = line.strip() if line.lstrip().startswith("***") else ""
        for marker in PATCH_MARKERS:
            if header.startswith(marker):
                found.append(header[len(marker) :])
        if header.startswith("*** Update File: "):  # a move's target may follow its header
            after = next((ln.strip() for ln in lines[i + 1 :] if ln.strip()), "")
            if after.startswith("*** Move to: "):
                found.append(after[len("*** Move to: ") :])
    paths = [os.path.normpath(os.path.join(cwd, p)) for p in found if p]
    return list(dict.fromkeys(p for p in paths if p != "."))


def _result(text: str, details: dict[str, Any]) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "details": details}


def _patched(files: dict[str, tuple[str | None, str | None]]) -> dict[str, Any]:
    """apply_patch's result: the files it added, changed and deleted, in the patch's order
    (applyPatch and formatSummary, dist/core-coding-tools-DiXs0QQ9.mjs:583-589, 594-706)."""
    summary: dict[str, list[str]] = {"added": [], "modified": [], "deleted": []}
    for shown, (before, after) in files.items():
        kind = "added" if before is None else "deleted" if after is None else "modified"
        summary[kind].append(shown)
    lines = ["Success. Updated the following files:"]
    lines += [
        f"{mark} {shown}"
        for mark, kind in (("A", "added"), ("M", "modified"), ("D", "deleted"))
        for shown in summary[kind]
    ]
    return _result("\n".join(lines), {"summary": summary})


def _changes(path: str, before: str | None, after: str | None) -> dict[str, Any]:
    """What changed, as write's and edit's details give it: a ``diff`` with line numbers, the
    unified ``patch`` and the first changed line (generateDiffString, generateUnifiedPatch,
    dist/tools-COqmKCvp.mjs:2011-2054)."""
    old, new = before or "", after or ""
    hunks = _hunks(old, new)
    patch = [f"--- {path}", f"+++ {path}"]
    for old_start, old_count, new_start, new_count, lines in hunks:
        # An empty side is numbered one lower in the header (the diff package's formatPatch).
        patch.append(
            f"@@ -{old_start - (old_count == 0)},{old_count}"
            f" +{new_start - (new_count == 0)},{new_count} @@"
        )
        patch += lines
    diff, first = _numbered(old, new, hunks)
    return {
        "diff": diff,
        "patch": "\n".join(patch) + "\n",
        **({"firstChangedLine": first} if first is not None else {}),
    }


Hunk = tuple[int, int, int, int, list[str]]


def _hunks(old: str, new: str) -> list[Hunk]:
    """The hunks of a line diff, each ``(old start, old count, new start, new count, lines)``,
    its lines marked `` ``, ``-``, ``+``, a last line without a line break followed by the
    diff package's note of it."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    hunks = []
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(
        CONTEXT_LINES
    ):
        lines: list[str] = []
        for tag, i1, i2, j1, j2 in group:
            marked = (
                [(" ", line) for line in a[i1:i2]]
                if tag == "equal"
                else [*[("-", line) for line in a[i1:i2]], *[("+", line) for line in b[j1:j2]]]
            )
            for mark, line in marked:
                lines.append(mark + line.removesuffix("\n"))
                if not line.endswith("\n"):
                    lines.append(NO_NEWLINE)
        (_, i1, _, j1, _), (_, _, i2, _, j2) = group[0], group[-1]
        hunks.append((i1 + 1, i2 - i1, j1 + 1, j2 - j1, lines))
    return hunks


def _numbered(old: str, new: str, hunks: list[Hunk]) -> tuple[str, int | None]:
    """The diff as OpenClaw shows it, each line with its number, `...` where lines are left
    out; and the first changed line of the new text (generateDiffString)."""
    width = len(str(max(len(old.split("\n")), len(new.split("\n")))))
    last = 0 if new == "" else len(new.split("\n")) - new.endswith("\n")
    gap = f" {' ' * width} ..."
    out: list[str] = []
    first = None
    for n, (old_start, _, new_start, new_count, lines) in enumerate(hunks):
        if n > 0 or new_start > 1:
            out.append(gap)
        old_at, new_at = old_start, new_start
        for line in lines:
            mark = line[0]
            if mark == "\\":
                continue
            if first is None and mark != " ":
                first = new_at
            out.append(f"{mark}{str(old_at if mark == '-' else new_at).rjust(width)} {line[1:]}")
            old_at += mark != "+"
            new_at += mark != "-"
        if n == len(hunks) - 1 and new_start + new_count <= last:
            out.append(gap)
    return "\n".join(out), first
