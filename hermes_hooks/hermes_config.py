"""Editing the ``hooks:`` block of a Hermes ``config.yaml``: load, locate, render, re-check, write.

People keep comments and hand-tuned settings in that file, and Hermes' installer seeds it from
an example of about 126 KB, so the edit is surgical and linear in the file's size:

1. **load** the text once as Hermes does (PyYAML's safe loader, libyaml when present), keeping
   the node tree for its line marks: a file Hermes cannot load is refused with file:line;
2. **locate** the top-level ``hooks:`` block (its first line to the next top-level key, trailing
   comments excluded) from those marks;
3. **render**: only that block is parsed round-trip (ruamel.yaml, comments kept), edited and
   dumped; lines of the block that the edit did not touch are the user's own bytes (a tag, a
   quoting style, a comment ruamel would normalise stay as they were); every byte outside the
   block is the user's. A block that shares anchors with the rest of the file is edited in a
   round trip of the whole document instead (slower, same guarantees);
4. **re-check**: the new text must load to exactly the old data with only our entries changed,
   otherwise nothing is written;
5. **write** with :mod:`careful_files`: atomic, mode kept, backup written the same careful
   way, refused if the file changed meanwhile.

An empty ``hooks:`` (``{}``, null) that install fills carries a marker comment with the
original line, so that uninstall gives back the original bytes.

Not on the hook's per-turn path: PyYAML and ruamel.yaml are imported only here (the
``install`` extra).
"""

from __future__ import annotations

import difflib
import gc
import io
import json
import os
import re
import shlex
import stat
from dataclasses import dataclass, field

from .careful_files import FileChangedError, UnsafeFileError, read_regular_file, replace_file
from .installation import is_our_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = [
    "BACKUP_SUFFIX",
    "MARKER",
    "RESERVED_HOOKS_KEYS",
    "Change",
    "ConfigError",
    "Edit",
    "backup_path",
    "edit_hooks",
    "hermes_view",
    "is_our_command",
    "load_config",
    "marked_events",
    "read_config",
    "unified_diff",
    "write_config",
]

BACKUP_SUFFIX = ".hermes-hooks.bak"
# Sub-keys of ``hooks:`` that Hermes 0.19.0 skips as not being events
# (``agent.shell_hooks._parse_hooks_block``): never ours to edit or to refuse.
RESERVED_HOOKS_KEYS = frozenset({"output_spill"})
# Hermes creates its home 0700 and its config 0600 (hermes_cli/config.py); so do we.
NEW_FILE_MODE = 0o600
# Hermes' own style (``yaml.dump`` of its defaults, and its example config): ruamel's
# (mapping, sequence, offset) indentation.
HERMES_INDENT = (2, 4, 2)
MARKER = "# hermes-hooks install replaced: "
_MARKER_RE = re.compile(r"\s+" + re.escape(MARKER) + r'(".*")\s*$')


class ConfigError(Exception):
    """A config we will not edit; ``str()`` is the one line the user sees."""


@dataclass(frozen=True)
class Change:
    """What happened to one event's entry: added, updated, unchanged or removed."""

    event: str
    action: str
    command: str
    previous: tuple[str, ...] = ()
    why: str = ""


@dataclass
class Edit:
    """The new text of a config and the changes that produced it."""

    old: str
    new: str
    changes: list[Change] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.new != self.old


# --- load ----------------------------------------------------------------------------------


def _pyyaml_loader() -> Any:
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _yaml_error(e: Exception, source: str) -> ConfigError:
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark is not None else source
    problem = getattr(e, "problem", None) or getattr(e, "context", None)
    if not problem:
        lines = str(e).strip().splitlines()
        problem = lines[0] if lines else "cannot be parsed"
    return ConfigError(f"{where}: not valid YAML ({problem}); left unchanged")


def hermes_view(text: str, source: str = "config.yaml") -> Any:
    """What Hermes sees: the text loaded as ``hermes_cli`` loads it (PyYAML safe load)."""
    import yaml

    collecting = gc.isenabled()
    gc.disable()  # see _load
    try:
        return yaml.load(text, Loader=_pyyaml_loader())
    except yaml.YAMLError as e:
        raise _yaml_error(e, source) from None
    except (ValueError, RecursionError) as e:  # e.g. an integer over the digit limit
        raise ConfigError(f"{source}: cannot be loaded ({e}); left unchanged") from None
    finally:
        if collecting:
            gc.enable()


@dataclass
class HermesConfig:
    """A loaded config: Hermes' view of it and where its ``hooks:`` block is.

    ``block`` is the line range [start, end) of the top-level ``hooks:`` block (trailing
    comments excluded), None when there is none; ``insert_at`` is the line where a new block
    goes (the end of the document's content, before a ``...`` marker). ``data`` is the whole
    config when ``complete``, else a mapping holding only its ``hooks`` (see ``load_config``).
    """

    text: str
    lines: list[str]
    data: dict[str, Any] | None
    block: tuple[int, int] | None
    insert_at: int
    hooks_empty: bool
    root_column: int = 0
    complete: bool = True

    @property
    def hooks(self) -> dict[str, Any]:
        """The ``hooks:`` mapping as Hermes sees it (``{}`` when absent or null)."""
        hooks = (self.data or {}).get("hooks")
        return hooks if isinstance(hooks, dict) else {}


def split_lines(text: str) -> list[str]:
    """``text`` as lines that keep their ``\\n``; the last one may lack it."""
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _is_filler(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _kind(value: object) -> str:
    if isinstance(value, dict):
        return "mapping"
    if isinstance(value, list):
        return "list"
    return "string" if isinstance(value, str) else type(value).__name__


def load_config(
    text: str,
    source: str = "config.yaml",
    events: tuple[str, ...] = (),
    *,
    only: tuple[str, ...] | None = None,
) -> HermesConfig:
    """Load LF text as Hermes would and locate its ``hooks:`` block; raise ConfigError.

    ``events`` are the events we will edit: each must be a list (or absent or null) there.
    Other sub-keys of ``hooks:`` may be anything: Hermes skips what it cannot use. With
    ``only`` (top-level keys), only those values are built into Python data (``data`` then
    holds those keys alone, ``complete`` is False): the document is still parsed and checked
    whole, by libyaml, but building every value in Python is most of a load's time.
    """
    lines = split_lines(text)
    root, data, complete = _load(text, source, only)
    if data is None:
        return HermesConfig(text, lines, None, None, _content_end(lines, None), True)
    hooks_keys = _hooks_keys(root, data, source)
    hooks = data.get("hooks")
    if hooks_keys:
        _check_events(hooks or {}, hooks_keys[0][1], events, source)
    if root.flow_style and (hooks_keys or events):
        raise ConfigError(
            f"{source}:{root.start_mark.line + 1}: the settings are one flow mapping "
            "({...}); write them as one key per line, then run this again; left unchanged"
        )
    block = _locate_block(lines, root, hooks_keys[0][0]) if hooks_keys else None
    return HermesConfig(
        text,
        lines,
        data,
        block,
        _content_end(lines, root),
        not hooks,
        root.start_mark.column,
        complete,
    )


def _load(text: str, source: str, only: tuple[str, ...] | None) -> tuple[Any, Any, bool]:
    """The root node, the data built from it (``only``: those top-level keys), and whether
    that data is the whole document; raise ConfigError."""
    import yaml

    loader = _pyyaml_loader()(text)
    complete = True
    # Millions of new objects in a large file set off the cyclic collector again and again
    # (most of an 8 MB load's time on a busy machine); none of them is garbage yet.
    collecting = gc.isenabled()
    gc.disable()
    try:
        root = loader.get_single_node()
        if root is None:
            data = None
        elif only is None or not isinstance(root, yaml.MappingNode) or _has_merge_key(root):
            data = loader.construct_document(root)
        else:
            data = {}
            for key, value in root.value:  # the last one wins, as in a full load
                if key.tag == _STR_TAG and key.value in only:
                    data[key.value] = loader.construct_object(value, deep=True)
            complete = False
    except yaml.YAMLError as e:
        raise _yaml_error(e, source) from None
    except (ValueError, RecursionError) as e:
        raise ConfigError(f"{source}: cannot be loaded ({e}); left unchanged") from None
    finally:
        loader.dispose()
        if collecting:
            gc.enable()
    return root, data, complete


def _hooks_keys(root: Any, data: Any, source: str) -> list[tuple[Any, Any]]:
    """The (key, value) nodes of the top-level ``hooks:``, once the top level is a mapping and
    its one ``hooks`` a mapping of this file's own; raise ConfigError."""
    if not isinstance(data, dict):
        raise ConfigError(
            f"{source}:{root.start_mark.line + 1}: the top level is a {_kind(data)}, not a "
            "mapping of settings; left unchanged"
        )
    hooks = data.get("hooks")
    hooks_keys = [(k, v) for k, v in root.value if k.tag == _STR_TAG and k.value == "hooks"]
    if hooks is not None and not isinstance(hooks, dict):
        line = hooks_keys[-1][0].start_mark.line + 1 if hooks_keys else root.start_mark.line + 1
        raise ConfigError(
            f"{source}:{line}: 'hooks' is a {_kind(hooks)}; Hermes expects a mapping of event "
            "names to lists of hooks; left unchanged"
        )
    if len(hooks_keys) > 1:
        first, last = (k.start_mark.line + 1 for k, _ in (hooks_keys[0], hooks_keys[-1]))
        raise ConfigError(
            f"{source}:{last}: 'hooks' appears twice (lines {first} and {last}); Hermes reads "
            "only the last one; merge them, then run this again"
        )
    if "hooks" in data and not hooks_keys:
        raise ConfigError(
            f"{source}: 'hooks' comes from a merge key (<<), not from a key of this file; give "
            "the file a 'hooks:' key of its own, then run this again"
        )
    return hooks_keys


def _locate_block(lines: list[str], root: Any, key_node: Any) -> tuple[int, int]:
    """Lines [start, end) of the top-level ``hooks:`` block, trailing comments excluded.

    A comment between the block and the next key usually speaks of that next key: it stays
    out of the block, so it is never moved or dropped.
    """
    index = [k for k, _ in root.value].index(key_node)
    start = key_node.start_mark.line
    if index + 1 < len(root.value):
        end = root.value[index + 1][0].start_mark.line
    else:
        end = _content_end(lines, root)
    while end > start + 1 and _is_filler(lines[end - 1]):
        end -= 1
    return start, end


_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"


def _has_merge_key(root: Any) -> bool:
    return any(key.tag == _MERGE_TAG for key, _ in root.value)


def _check_events(
    hooks: dict[str, Any], hooks_node: Any, events: tuple[str, ...], source: str
) -> None:
    """Each event we edit must be a list of its own (or absent, or null) under ``hooks:``."""
    for event in events:
        seq = hooks.get(event)
        if seq is not None and not isinstance(seq, list):
            line = _event_line(hooks_node, event)
            raise ConfigError(
                f"{source}:{line}: 'hooks.{event}' is a {_kind(seq)}; Hermes expects a list of "
                "hooks; left unchanged"
            )
        alias = _alias_of(hooks_node, event) if seq else None
        if alias is not None:
            line, anchor_line = alias
            raise ConfigError(
                f"{source}:{line}: 'hooks.{event}' is an alias of the list at line "
                f"{anchor_line}; an entry added there would change that list too; write the "
                f"list out under '{event}', then run this again; left unchanged"
            )


def _alias_of(hooks_node: Any, event: str) -> tuple[int, int] | None:
    """(key line, anchor line) when the event's list is an alias (``event: *name``), 1-based.

    PyYAML hands an alias back as the anchored node itself, and an anchor comes before its
    aliases: a value that starts before its own key is an alias.
    """
    for key, value in getattr(hooks_node, "value", ()):
        if getattr(key, "value", None) == event and value.start_mark.index < key.start_mark.index:
            return int(key.start_mark.line) + 1, int(value.start_mark.line) + 1
    return None


def _event_line(hooks_node: Any, event: str) -> int:
    for key, _ in getattr(hooks_node, "value", ()):
        if getattr(key, "value", None) == event:
            return int(key.start_mark.line) + 1
    return int(hooks_node.start_mark.line) + 1


def _content_end(lines: list[str], root: Any) -> int:
    """The line after the document's content: before a ``...`` end marker, else the end."""
    end = len(lines)
    if root is not None:
        # The root's end mark is where the next token begins: a ``...`` or the end of the text.
        mark = root.end_mark.line
        if (mark < len(lines) and lines[mark].startswith("...")) or (
            mark < len(lines) and lines[mark].startswith("---")
        ):
            end = mark
    return end


# --- render --------------------------------------------------------------------------------


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
        if _is_filler(line):
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
            if found and not _MARKER_RE.search(line.rstrip("\n")):
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
        marker = _MARKER_RE.search(line.rstrip("\n"))
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
        marker = _MARKER_RE.search(line.rstrip("\n"))
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
    while end > start + 1 and _is_filler(dumped[end - 1]):
        end -= 1
    return dumped[start:end]


def _restore_marked(new_block: list[str], old_head: str) -> tuple[list[str], Any]:
    """Undo install's filling of an empty ``hooks:`` when the edit emptied it again.

    Returns the block's lines and, when the original line came back, its ``hooks`` value in a
    1-tuple (the value itself may be None).
    """
    marker = _MARKER_RE.search(old_head.rstrip("\n"))
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


# --- the files -----------------------------------------------------------------------------


def backup_path(path: str) -> str:
    """Where the previous config is kept: ``config.yaml.hermes-hooks.bak`` beside it."""
    return path + BACKUP_SUFFIX


def read_config(path: str) -> str:
    """The config's text exactly as stored (line endings kept); ``""`` when it does not exist.

    A symlinked config (a dotfiles repository) is read through the link, on purpose; anything
    but a regular file there is refused, and so is a link to nothing (writing through it would
    create its target's folders, wherever they are).
    """
    try:
        data = read_regular_file(os.path.realpath(path))
    except FileNotFoundError:
        if os.path.islink(path):
            raise ConfigError(
                f"{path} points at {os.path.realpath(path)}, which does not exist; left "
                "unchanged. Create the file or remove the link, then run this again"
            ) from None
        return ""
    except UnsafeFileError as e:
        raise ConfigError(f"{e}") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read ({e.strerror or e}); left unchanged") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 text (byte {e.start}); left unchanged") from None


def write_config(path: str, edit: Edit) -> str | None:
    """Write ``edit.new`` over ``path``; return the backup's path (None if the file is new).

    A symlinked config is written through the link (the link stays). The file keeps its mode;
    a new one is created 0600 in a 0700 directory, as Hermes does. A read-only config (no
    write bit for its owner) is refused: someone made it so on purpose. If the file changed
    since it was read (Hermes rewrote it meanwhile), nothing is written. The backup is written
    the same careful way, with the config's mode from its creation on.
    """
    from .careful_files import make_private_dirs

    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    if st is None:
        make_private_dirs(os.path.dirname(real))
        mode = NEW_FILE_MODE
    else:
        mode = stat.S_IMODE(st.st_mode)
        if not mode & stat.S_IWUSR:
            raise ConfigError(
                f"{path} is read-only (mode {mode:04o}); left unchanged. Make it writable "
                f"(chmod u+w {shlex.quote(path)}) and run this again"
            )
    old = edit.old.encode("utf-8")
    backup = None
    try:
        if st is not None:
            backup = backup_path(path)
            replace_file(backup, old, mode=mode)
        replace_file(real, edit.new.encode("utf-8"), mode=mode, expected=old)
    except FileChangedError:
        raise ConfigError(
            f"{path}: changed while we were editing it; left unchanged, try again"
        ) from None
    except UnsafeFileError as e:
        raise ConfigError(str(e)) from None
    return backup


def unified_diff(path: str, edit: Edit, label: str) -> str:
    """The change as a unified diff, for ``--dry-run``."""

    def lines(text: str) -> list[str]:
        return [
            line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
            for line in split_lines(text.replace("\r\n", "\n"))
        ]

    return "".join(
        difflib.unified_diff(lines(edit.old), lines(edit.new), path, f"{path} ({label})")
    )
