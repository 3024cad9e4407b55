"""Editing the ``hooks:`` block of a Hermes ``config.yaml``: load, locate, render, re-check, write.

People keep comments and hand-tuned settings in that file, and Hermes' installer seeds it from
an example of about 126 KB, so the edit is surgical and linear in the file's size:

1. **load** the text once as Hermes does (PyYAML's safe loader, libyaml when present), keeping
   the node tree for its line marks: a file Hermes cannot load is refused with file:line;
2. **locate** the top-level ``hooks:`` block (its first line to the next top-level key, trailing
   comments excluded) from those marks;
3. **render** (``hooks_block``, as is step 4): only that block is parsed round-trip (ruamel.yaml, comments kept), edited and
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
import os
import re
import shlex
import stat
from dataclasses import dataclass, field

from .careful_files import FileChangedError, UnsafeFileError, read_regular_file, replace_file
from .installation import is_our_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "BACKUP_SUFFIX",
    "MARKER",
    "RESERVED_HOOKS_KEYS",
    "Change",
    "ConfigError",
    "Edit",
    "backup_path",
    "hermes_view",
    "is_our_command",
    "load_config",
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
MARKER_RE = re.compile(r"\s+" + re.escape(MARKER) + r'(".*")\s*$')


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


def is_filler(line: str) -> bool:
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
    while end > start + 1 and is_filler(lines[end - 1]):
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
