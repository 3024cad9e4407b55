"""Steps 3 and 4 of editing a Hermes ``config.yaml`` (``hermes_config`` loads, locates and
writes): **render** the edited ``hooks:`` block, with ruamel.yaml round-trip and only that
block parsed, the lines the edit did not touch kept as the user's own bytes, a block that
shares anchors with the rest edited in a round trip of the whole document; then **re-check**
that the new text loads to exactly the old data with only our entries changed.

``edit_hooks`` is the edit install and uninstall make; ``marked_events`` reads the marker
comments install leaves on an event it filled, from which uninstall gives the original line
back.
"""

from __future__ import annotations

import difflib
import io
import json
import re

from .hermes_config import (
    HERMES_INDENT,
    MARKER,
    MARKER_RE,
    Change,
    ConfigError,
    Edit,
    HermesConfig,
    hermes_view,
    is_filler,
    load_config,
    split_lines,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["detect_indent", "edit_hooks", "marked_events"]


def _ruamel(indent: tuple[int, int, int]) -> Any:
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never re-wrap a long command
    yaml.allow_duplicate_keys = True
    yaml.indent(mapping=indent[0], sequence=indent[1], offset=indent[2])
    return yaml


def _dump(data: Any, indent: tuple[int, int, int]) -> str:
    stream = io.StringIO()
    _ruamel(indent).dump(data, stream)
    return stream.getvalue()


_KEY_LINE = re.compile(r"^( *)[^\s#-][^:]*:(\s|$)")
_DASH_LINE = re.compile(r"^( *)- +(\S)")


def detect_indent(lines: list[str]) -> tuple[int, int, int]:
    """The (mapping, sequence, offset) indentation the user's lines use; Hermes' by default.

    Read off the first nested key (mapping) and the first list item under a key (offset: the
    dash's column from its key; sequence: the item's content column from its key).
    """
    mapping = sequence = offset = None
    previous_key: int | None = None
    for line in lines:
        if is_filler(line):
            continue
        key = _KEY_LINE.match(line)
        dash = _DASH_LINE.match(line)
        if dash and previous_key is not None and offset is None:
            offset = len(dash.group(1)) - previous_key
            sequence = dash.start(2) - previous_key
        elif key:
            column = len(key.group(1))
            if mapping is None and previous_key is not None and column > previous_key:
                mapping = column - previous_key
            previous_key = column
        if mapping is not None and offset is not None:
            break
    m = mapping or HERMES_INDENT[0]
    if offset is None or sequence is None or offset < 0 or sequence < offset + 2:
        return (m, HERMES_INDENT[1], HERMES_INDENT[2]) if m == 2 else (m, m + 2, m)
    return (m, sequence, offset)


def _yaml_string(value: str) -> str:
    """A double-quoted YAML scalar for ``value`` (JSON's escapes are YAML's)."""
    quoted = json.dumps(value, ensure_ascii=False)
    return quoted if quoted.isprintable() else json.dumps(value)


def _new_block(entries: dict[str, str], indent: tuple[int, int, int], column: int) -> list[str]:
    m, s, o = indent
    pad = " " * column
    lines = []
    for event, command in entries.items():
        lines.append(f"{pad}{' ' * m}{event}:\n")
        lines.append(f"{pad}{' ' * (m + o)}-{' ' * (s - o - 1)}command: {_yaml_string(command)}\n")
    return lines


def _merge_untouched(original: list[str], before: list[str], after: list[str]) -> list[str]:
    """``after``, with each line the edit did not touch taken from ``original``.

    ``before`` is the dump of the unedited block: when it has the user's line count, its lines
    stand for the user's lines one to one, so the lines of ``after`` equal to it are the
    user's own bytes (a tag or a quoting style the dump would normalise).
    """
    if len(before) != len(original):
        return after
    merged: list[str] = []
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        merged.extend(original[i1:i2] if op == "equal" else after[j1:j2])
    return merged


def _unshared(hooks: Any, event: str) -> Any:
    """The event's list, copied when an anchor shares it, so that our edit does not leak."""
    import copy

    from ruamel.yaml.comments import CommentedSeq

    seq = hooks[event]
    if seq.anchor.value is None:
        return seq
    fresh = CommentedSeq(copy.deepcopy(list(seq)))
    for item in fresh:
        if hasattr(item, "yaml_set_anchor"):
            item.anchor.value = None
    hooks[event] = fresh
    return fresh


def _drop_trailing_comments(node: Any) -> None:
    """Detach the blank lines and comments that follow the last line of ``node``.

    ruamel hangs them on the last value, so an entry appended after it would land below them;
    they are kept from the original text instead (the block excludes them). An end-of-line
    comment on that last line stays.
    """
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    while isinstance(node, (CommentedMap, CommentedSeq)) and len(node):
        if isinstance(node, CommentedMap):
            last: Any = list(node)[-1]
            slot = 2
        else:
            last, slot = len(node) - 1, 0
        tokens = node.ca.items.get(last)
        token = tokens[slot] if tokens else None
        if token is not None:
            first, newline, _ = token.value.partition("\n")
            if first.strip().startswith("#"):
                token.value = first + newline
            else:
                tokens[slot] = None
        node.ca.end = []
        node = node[last]


def _shares_anchors(block: str, rest: str) -> bool:
    """Whether the block uses an anchor defined outside it, or defines one used outside.

    A cheap, conservative test on the text: a false positive only costs the slower path.
    """
    if "*" not in block and "&" not in block and "<<" not in block:
        return False
    anchors = re.findall(r"&([^\s,\[\]{}]+)", block)
    aliases = re.findall(r"\*([^\s,\[\]{}]+)", block)
    return bool(aliases) or "<<" in block or any(f"*{a}" in rest for a in anchors)


def edit_hooks(
    text: str,
    source: str,
    *,
    edit_tree: Callable[[Any], list[Change]],
    expect: Callable[[dict[str, Any]], dict[str, Any]],
    events: tuple[str, ...] = (),
    fill_empty: dict[str, str] | None = None,
) -> Edit:
    """Apply one edit of the ``hooks:`` mapping to a config's text; raise ConfigError.

    ``edit_tree`` edits the round-trip ``hooks`` mapping in place (it may empty it) and
    returns the changes; ``expect`` maps Hermes' old view of the whole config to the view the
    result must have. ``fill_empty`` (event → command) is what an absent or empty ``hooks:``
    becomes, rendered in the file's own indentation without a round trip.
    """
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom) :]
    crlf = "\r\n" in body
    lf = body.replace("\r\n", "\n")
    config = load_config(lf, source, events, only=("hooks",))
    lines = config.lines
    if config.hooks_empty and fill_empty is not None:
        new_lines, changes, block = _fill(config, fill_empty)
    elif config.block is None or config.hooks_empty:
        changes, new_lines, block = [], lines, None
    else:
        marks = _empty_event_lines(config, events) if fill_empty is not None else {}
        new_lines, changes, restored, block = _rewrite_block(config, edit_tree, source, marks)
        if restored is not None:
            # The edit emptied a ``hooks:`` that install had filled: it gets its line back.
            expect = _with_hooks(expect, restored[0])
    if all(c.action == "unchanged" for c in changes):
        return Edit(text, text, changes)
    new_body = "".join(new_lines)
    _check(config, new_body, block, expect, source)
    if crlf:
        new_body = new_body.replace("\n", "\r\n")
    return Edit(text, bom + new_body, changes)


def _with_hooks(
    expect: Callable[[dict[str, Any]], dict[str, Any]], hooks: Any
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def with_hooks(data: dict[str, Any]) -> dict[str, Any]:
        data = expect(data)
        data["hooks"] = hooks
        return data

    return with_hooks


_KEEP = re.compile(r"[|>][1-9]?\+")


def _fill(
    config: HermesConfig, entries: dict[str, str]
) -> tuple[list[str], list[Change], list[str] | None]:
    """An absent or empty ``hooks:`` becomes our entries (with a marker to undo it exactly)."""
    lines = list(config.lines)
    indent = detect_indent(lines)
    body = _new_block(entries, indent, config.root_column)
    changes = [Change(event, "added", command) for event, command in entries.items()]
    pad = " " * config.root_column
    if config.block is not None:
        start, end = config.block
        original = "".join(lines[start:end]).rstrip("\n")
        head = f"{pad}hooks:  {MARKER}{json.dumps(original, ensure_ascii=False)}\n"
        block = [head, *body]
        return [*lines[:start], *block, *lines[end:]], changes, block
    at = config.insert_at
    keep = _KEEP.search(config.text) is not None
    # After the content's last line, not after trailing blank lines; but a block scalar that
    # keeps its trailing blank lines (``|+``) owns them, and would take a gap line of ours:
    # then the block goes after them, without a gap, and the whole file is checked.
    while not keep and at > 0 and not lines[at - 1].strip():
        at -= 1
    if at > 0 and not lines[at - 1].endswith("\n"):
        lines[at - 1] += "\n"
    gap = ["\n"] if at > 0 and not keep else []
    block = [f"{pad}hooks:\n", *body]
    return lines[:at] + gap + block + lines[at:], changes, None if keep else block


def _empty_event_lines(config: HermesConfig, events: tuple[str, ...]) -> dict[str, str]:
    """The line of each of ``events`` whose key is there with no hooks (``event: []``, a null):
    install marks its key with that line, so that uninstall puts the line back."""
    assert config.block is not None
    start, end = config.block
    found = {}
    for event in events:
        if event not in config.hooks or config.hooks[event]:
            continue
        key = re.compile(r"\s+" + re.escape(event) + r"\s*:")
        line = next((x for x in config.lines[start + 1 : end] if key.match(x)), None)
        if line is None:
            continue
        original = line.strip()
        try:
            alone = hermes_view(original + "\n")
        except ConfigError:
            continue
        if isinstance(alone, dict) and event in alone and alone[event] == config.hooks[event]:
            found[event] = original
    return found


def _mark_event_lines(block: list[str], marks: dict[str, str]) -> list[str]:
    """Each marked event's key line carries install's marker with the line it replaced.

    The key line keeps only its key: a value the user wrote there (``[]``, ``~``, ``null``)
    is what the marker keeps, and the entries now follow on the lines below.
    """
    block = list(block)
    for event, original in marks.items():
        key = re.compile(r"\s+" + re.escape(event) + r"\s*:")
        for i, line in enumerate(block[1:], 1):
            found = key.match(line)
            if found and not MARKER_RE.search(line.rstrip("\n")):
                end = "\n" if line.endswith("\n") else ""
                marker = f"  {MARKER}{json.dumps(original, ensure_ascii=False)}"
                block[i] = found.group(0).rstrip() + marker + end
                break
    return block


_KEY_OF_LINE = re.compile(r"(\s+)([^\s#:][^#:]*?)\s*:")


def _restore_event_lines(block: list[str], emptied: frozenset[str]) -> list[str]:
    """The key line of each event in ``emptied`` that install marked (uninstall took its
    entries and left it with no value) becomes the user's line again."""
    block = list(block)
    for i, line in enumerate(block[1:], 1):
        marker = MARKER_RE.search(line.rstrip("\n"))
        key = _KEY_OF_LINE.match(line)
        if marker is None or key is None or key.group(2) not in emptied:
            continue
        try:
            original = json.loads(marker.group(1))
        except ValueError:
            continue
        if isinstance(original, str):
            block[i] = key.group(1) + original + ("\n" if line.endswith("\n") else "")
    return block


def marked_events(text: str) -> dict[str, Any]:
    """Events whose key install marked (it was there with no hooks): each with its value as
    Hermes read it before install (``[]`` or None)."""
    found = {}
    for line in split_lines(text.replace("\r\n", "\n")):
        marker = MARKER_RE.search(line.rstrip("\n"))
        if marker is None or not line[:1].isspace():
            continue
        try:
            alone = hermes_view(json.loads(marker.group(1)) + "\n")
        except (ValueError, TypeError, ConfigError):
            continue
        if isinstance(alone, dict) and len(alone) == 1:
            found.update(alone)
    return found


def _rewrite_block(
    config: HermesConfig,
    edit_tree: Callable[[Any], list[Change]],
    source: str,
    marks: dict[str, str],
) -> tuple[list[str], list[Change], Any, list[str] | None]:
    """The file with its hooks block edited, the changes, a restored ``hooks`` value (1-tuple)
    when install's marker was undone, and the new block when it can be checked on its own.

    ``marks``: events install fills whose key was there with no hooks, with their lines."""
    assert config.block is not None
    start, end = config.block
    lines = config.lines
    block = "".join(lines[start:end])
    column = config.root_column
    rest = "".join(lines[:start] + lines[end:])
    indent = detect_indent(lines[start:end] if end - start > 1 else lines)
    alone = column == 0 and not _shares_anchors(block, rest)
    if alone:
        # The fast path: a round trip of the block alone.
        yaml = _ruamel(indent)
        tree = yaml.load(block)
        before = split_lines(_dump(tree, indent))
        _drop_trailing_comments(tree["hooks"])
        changes = edit_tree(tree)
        if all(c.action == "unchanged" for c in changes):
            return lines, changes, None, None
        emptied = _emptied_events(tree)
        after = _render_hooks(tree, indent)
        new_block = _merge_untouched(split_lines(block), before, after)
    else:
        yaml = _ruamel(indent)
        try:
            tree = yaml.load(config.text)
        except Exception as e:  # ruamel reads some files PyYAML reads differently
            raise ConfigError(
                f"{source}: cannot be edited keeping its comments ({type(e).__name__}); "
                "left unchanged"
            ) from None
        _drop_trailing_comments(tree["hooks"])
        changes = edit_tree(tree)
        if all(c.action == "unchanged" for c in changes):
            return lines, changes, None, None
        emptied = _emptied_events(tree)
        dumped = split_lines(_dump(tree, indent)) if "hooks" in tree else []
        new_block = _block_of(dumped)
    new_block = _restore_event_lines(_mark_event_lines(new_block, marks), emptied)
    new_block, restored = _restore_marked(new_block, lines[start])
    if (
        not new_block
        and end >= config.insert_at
        and start > 0
        and not lines[start - 1].strip()
        and not _KEEP.search(config.text)
    ):
        start -= 1  # the blank line install put before a block it appended (see ``_fill``)
    return lines[:start] + new_block + lines[end:], changes, restored, new_block if alone else None


def _emptied_events(tree: Any) -> frozenset[str]:
    """The events of the edited ``hooks:`` left with no value (uninstall's emptied keys)."""
    hooks = tree.get("hooks") if isinstance(tree, dict) else None
    if not isinstance(hooks, dict):
        return frozenset()
    return frozenset(str(event) for event, value in hooks.items() if value is None)


def _render_hooks(tree: Any, indent: tuple[int, int, int]) -> list[str]:
    if "hooks" not in tree:
        return []
    return split_lines(_dump(tree, indent))


def _block_of(dumped: list[str]) -> list[str]:
    """The lines of the top-level ``hooks:`` block in a dump of the whole document."""
    start = next((i for i, line in enumerate(dumped) if re.match(r"hooks\s*:", line)), None)
    if start is None:
        return []
    end = start + 1
    while end < len(dumped) and (
        dumped[end].startswith((" ", "-", "#")) or not dumped[end].strip()
    ):
        end += 1
    while end > start + 1 and is_filler(dumped[end - 1]):
        end -= 1
    return dumped[start:end]


def _restore_marked(new_block: list[str], old_head: str) -> tuple[list[str], Any]:
    """Undo install's filling of an empty ``hooks:`` when the edit emptied it again.

    Returns the block's lines and, when the original line came back, its ``hooks`` value in a
    1-tuple (the value itself may be None).
    """
    marker = MARKER_RE.search(old_head.rstrip("\n"))
    if marker is None or new_block:
        return new_block, None
    try:
        original = json.loads(marker.group(1))
        value = hermes_view(original + "\n")
    except (ValueError, ConfigError):
        return new_block, None
    if not isinstance(original, str) or not isinstance(value, dict) or value.get("hooks"):
        return new_block, None
    return split_lines(original + "\n"), (value.get("hooks"),)


def _check(
    config: HermesConfig,
    new_text: str,
    block: list[str] | None,
    expect: Callable[[dict[str, Any]], dict[str, Any]],
    source: str,
) -> None:
    """Refuse to write unless the new text means the old data with only our entries changed.

    The quick check: the new block, loaded on its own, is the old ``hooks`` with our change.
    It suffices when the block was edited on its own (no anchor shared with the rest, the
    rest's bytes unchanged): lines outside it then mean what they meant. Otherwise, or when
    it fails, the whole new file is loaded and compared with the whole old one.
    """
    import copy

    if block is not None and not config.complete:
        try:
            alone = hermes_view("".join(block), source) or {}
        except ConfigError:
            alone = None
        if alone == expect(copy.deepcopy(config.data or {})):
            return
    old = config.data if config.complete else hermes_view(config.text, source)
    expected = expect(copy.deepcopy(old or {}))
    try:
        after = hermes_view(new_text, source) or {}
    except ConfigError:
        after = None
    if after != expected:
        raise ConfigError(
            f"{source}: could not edit the hooks block without changing other settings; "
            "left unchanged (please report this, with the file)"
        )
