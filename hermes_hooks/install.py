"""``hermes-hooks install`` / ``uninstall``: edit the ``hooks:`` block of a Hermes config.yaml.

People keep comments and hand-tuned settings in that file, so the edit is surgical:

1. parse with ruamel.yaml (round-trip), change only our entries in the tree, dump it;
2. splice: take from the dump only the lines of the top-level ``hooks:`` block and put them in
   place of the original block, so every byte outside it is the user's own, whatever ruamel
   would have normalised elsewhere (indentation, quoting, line width);
3. check: the result must load to exactly the original data with only our entries changed;
   otherwise nothing is written.

Not on the hook's per-turn path: ruamel.yaml is imported only here (the ``install`` extra).
"""

from __future__ import annotations

import contextlib
import difflib
import io
import os
import shlex
import stat
import sys
import tempfile
from dataclasses import dataclass, field

from .hooks import BINDINGS
from .paths import config_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

OUR_SUBCOMMANDS = frozenset(b.command for b in BINDINGS)
BACKUP_SUFFIX = ".hermes-hooks.bak"
# Hermes creates its home 0700 and its config 0600 (hermes_cli/config.py); so do we.
NEW_DIR_MODE = 0o700
NEW_FILE_MODE = 0o600
# Indentation styles to try, as ruamel's (mapping, sequence, offset): the one that reproduces
# the user's own ``hooks:`` block best is used for the lines we write. The first is Hermes' own.
_INDENTS = tuple(
    dict.fromkeys(
        [(2, 4, 2)]
        + [
            (mapping, offset + dash, offset)
            for mapping in (2, 4, 3)
            for offset in sorted({0, 2, mapping})
            for dash in sorted({2, mapping, 4})
        ]
    )
)


class ConfigError(Exception):
    """A config we will not edit; ``str()`` is the one line the user sees."""


@dataclass(frozen=True)
class Change:
    """What happened to one event's entry: added, updated, unchanged or removed."""

    event: str
    action: str
    command: str
    previous: tuple[str, ...] = ()


@dataclass
class Edit:
    """The new text of a config and the changes that produced it."""

    old: str
    new: str
    changes: list[Change] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.new != self.old


def is_our_command(command: object) -> bool:
    """Whether a hook command runs some installation of ours, as Hermes would split it.

    Ours ends in ``hermes-hooks SUB`` (a console script, by any path) or ``-m hermes_hooks SUB``,
    with SUB one of our subcommands.
    """
    if not isinstance(command, str):
        return False
    try:
        argv = shlex.split(os.path.expanduser(command.strip()))
    except ValueError:
        return False
    if len(argv) < 2 or argv[-1] not in OUR_SUBCOMMANDS:
        return False
    if os.path.basename(argv[-2]) == "hermes-hooks":
        return True
    return len(argv) >= 3 and argv[-3:-1] == ["-m", "hermes_hooks"]


# --- the tree edits ------------------------------------------------------------------------


def _is_our_entry(entry: object) -> bool:
    from ruamel.yaml.comments import CommentedMap

    return isinstance(entry, CommentedMap) and is_our_command(entry.get("command"))


def _new_entry(command: str) -> Any:
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    entry = CommentedMap()
    entry["command"] = DoubleQuotedScalarString(command)
    return entry


def _unshared(hooks: Any, event: str) -> Any:
    """The event's list, copied first when an anchor shares it: our edit must not leak."""
    from ruamel.yaml.comments import CommentedSeq

    seq = hooks[event]
    if seq.anchor.value is None:
        return seq
    copy = CommentedSeq(seq)
    hooks[event] = copy
    return copy


def _install_tree(data: Any, entries: Mapping[str, str]) -> list[Change]:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import ScalarString

    hooks = data.get("hooks")
    if hooks is None:
        hooks = data["hooks"] = CommentedMap()
    changes = []
    for event, command in entries.items():
        if hooks.get(event) is None:
            hooks[event] = CommentedSeq([_new_entry(command)])
            changes.append(Change(event, "added", command))
            continue
        ours = [i for i, e in enumerate(hooks[event]) if _is_our_entry(e)]
        if not ours:
            _unshared(hooks, event).append(_new_entry(command))
            changes.append(Change(event, "added", command))
            continue
        old = [str(hooks[event][i]["command"]) for i in ours]
        if old == [command]:
            changes.append(Change(event, "unchanged", command))
            continue
        seq = _unshared(hooks, event)
        for i in reversed(ours[1:]):
            del seq[i]
        entry = seq[ours[0]]
        if entry.anchor.value is not None:  # an aliased entry: edit a copy, not the original
            entry = seq[ours[0]] = CommentedMap(entry)
        previous = entry["command"]
        # Keep the user's quoting style for the scalar we rewrite.
        style = type(previous) if isinstance(previous, ScalarString) else None
        entry["command"] = style(command) if style else command
        changes.append(Change(event, "updated", command, tuple(c for c in old if c != command)))
    return changes


def _uninstall_tree(data: Any) -> list[Change]:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    hooks = data.get("hooks") if isinstance(data, CommentedMap) else None
    if not isinstance(hooks, CommentedMap):
        return []
    changes = []
    for event in list(hooks):
        seq = hooks[event]
        if not isinstance(seq, CommentedSeq):
            continue
        ours = [i for i, e in enumerate(seq) if _is_our_entry(e)]
        if not ours:
            continue
        removed = tuple(str(seq[i]["command"]) for i in ours)
        if len(ours) == len(seq):
            del hooks[event]
        else:
            seq = _unshared(hooks, event)
            for i in reversed(ours):
                del seq[i]
        changes.append(Change(event, "removed", removed[0], removed))
    if not hooks:
        # We emptied it: drop the key, so that install then uninstall gives back the file.
        del data["hooks"]
    return changes


# --- parsing and checking ------------------------------------------------------------------


def _yaml(indent: tuple[int, int, int] = _INDENTS[0]) -> Any:
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never re-wrap a long command
    yaml.indent(mapping=indent[0], sequence=indent[1], offset=indent[2])
    return yaml


def _load(text: str, source: str) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        data = _yaml().load(text)
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
        problem = e.problem or e.context or "cannot be parsed"
        raise ConfigError(f"{where}: not valid YAML ({problem}); left unchanged") from None
    except YAMLError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else "cannot be parsed"
        raise ConfigError(f"{source}: not valid YAML ({first}); left unchanged") from None
    if data is None:
        return None
    if not isinstance(data, CommentedMap):
        raise ConfigError(
            f"{source}:1: the top level is a {_kind(data)}, not a mapping of settings; "
            "left unchanged"
        )
    hooks = data.get("hooks")
    if hooks is not None and not isinstance(hooks, CommentedMap):
        line = data.lc.key("hooks")[0] + 1
        raise ConfigError(
            f"{source}:{line}: 'hooks' is a {_kind(hooks)}; Hermes expects a mapping of event "
            "names to lists of hooks; left unchanged"
        )
    if hooks is None:
        return data
    for event, seq in hooks.items():
        if seq is not None and not isinstance(seq, CommentedSeq):
            line = hooks.lc.key(event)[0] + 1
            raise ConfigError(
                f"{source}:{line}: 'hooks.{event}' is a {_kind(seq)}; Hermes expects a list "
                "of hooks; left unchanged"
            )
    return data


def _kind(value: object) -> str:
    if isinstance(value, dict):
        return "mapping"
    if isinstance(value, list):
        return "list"
    return "string" if isinstance(value, str) else type(value).__name__


def _plain(text: str) -> Any:
    """What Hermes (PyYAML ``safe_load``) sees, as plain Python values."""
    from ruamel.yaml import YAML

    return YAML(typ="safe", pure=True).load(text)


def _split(text: str) -> list[str]:
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _is_filler(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _hooks_block(data: Any, lines: list[str]) -> tuple[int, int] | None:
    """The lines [start, end) of the top-level ``hooks:`` block, trailing comments excluded.

    A comment between the block and the next key usually speaks of that next key: it stays out
    of the block, so it is never moved or dropped.
    """
    if data is None or "hooks" not in data:
        return None
    keys = list(data)
    start = data.lc.key("hooks")[0]
    after = keys.index("hooks") + 1
    end = data.lc.key(keys[after])[0] if after < len(keys) else len(lines)
    while end > start + 1 and _is_filler(lines[end - 1]):
        end -= 1
    return start, end


def _drop_trailing_comments(node: Any) -> None:
    """Detach the blank lines and comments that follow the last line of ``node``.

    ruamel hangs them on the last value, so an entry appended after it would land below them;
    they are kept from the original text instead (see ``_hooks_block``). An end-of-line comment
    on that last line stays.
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


def _dump(data: Any, indent: tuple[int, int, int]) -> str:
    stream = io.StringIO()
    _yaml(indent).dump(data, stream)
    return stream.getvalue()


def _best_indent(data: Any, lines: list[str]) -> tuple[int, int, int]:
    """The indentation style that reproduces the user's own ``hooks:`` block (or file) best."""
    block = _hooks_block(data, lines)
    original = lines[block[0] : block[1]] if block else lines

    def score(indent: tuple[int, int, int]) -> int:
        dumped = _split(_dump(data, indent))
        matcher = difflib.SequenceMatcher(None, original, dumped, autojunk=False)
        return sum(b.size for b in matcher.get_matching_blocks())

    return max(_INDENTS, key=score) if data is not None else _INDENTS[0]


def _render(text: str, data: Any, indent: tuple[int, int, int], source: str) -> str:
    """The original text with only its ``hooks:`` block replaced by the dump of ``data``'s."""
    lines = _split(text)
    old_block = _hooks_block(_yaml().load(text), lines) if text.strip() else None
    dumped = _dump(data, indent)
    new_data = _yaml().load(dumped)
    new_lines = _split(dumped)
    new_block = _hooks_block(new_data, new_lines)
    replacement = new_lines[new_block[0] : new_block[1]] if new_block else []
    if old_block:
        start, end = old_block
        if not replacement and end == len(lines) and start > 0 and not lines[start - 1].strip():
            start -= 1  # the blank line we put before a block we appended
    else:
        start = end = len(lines)
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        if replacement and lines and lines[-1].strip():
            replacement = ["\n", *replacement]
    return "".join(lines[:start] + replacement + lines[end:])


def _check(old_text: str, new_text: str, expect: Callable[[Any], Any], source: str) -> None:
    """Refuse to write unless the new text means the old data with only our entries changed."""
    expected = expect(_plain(old_text) or {})
    if (_plain(new_text) or {}) != expected:
        raise ConfigError(
            f"{source}: could not edit the hooks block without changing other settings; "
            "left unchanged (please report this, with the file)"
        )


def _expect_install(entries: Mapping[str, str]) -> Callable[[Any], Any]:
    def expect(data: Any) -> Any:
        hooks = data.get("hooks") or {}
        for event, command in entries.items():
            seq = list(hooks.get(event) or [])
            ours = [
                i
                for i, e in enumerate(seq)
                if isinstance(e, dict) and is_our_command(e.get("command"))
            ]
            if not ours:
                seq.append({"command": command})
            else:
                entry = {**seq[ours[0]], "command": command}
                seq = [e for i, e in enumerate(seq) if i not in ours[1:]]
                seq[ours[0]] = entry
            hooks[event] = seq
        data["hooks"] = hooks
        return data

    return expect


def _expect_uninstall(data: Any) -> Any:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data
    touched = False
    for event, seq in list(hooks.items()):
        if not isinstance(seq, list):
            continue
        kept = [e for e in seq if not (isinstance(e, dict) and is_our_command(e.get("command")))]
        if len(kept) != len(seq):
            touched = True
            if kept:
                hooks[event] = kept
            else:
                del hooks[event]
    if touched and not hooks:
        del data["hooks"]
    return data


def _edit(
    text: str, source: str, edit_tree: Callable[[Any], list[Change]], expect: Callable[[Any], Any]
) -> Edit:
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom) :]
    crlf = "\r\n" in body
    lf_body = body.replace("\r\n", "\n")
    data = _load(lf_body, source)
    indent = _best_indent(data, _split(lf_body))
    if data is None:
        from ruamel.yaml.comments import CommentedMap

        data = CommentedMap()
    if "hooks" in data:
        _drop_trailing_comments(data["hooks"])
    changes = edit_tree(data)
    if all(c.action == "unchanged" for c in changes):
        return Edit(text, text, changes)
    new_body = _render(lf_body, data, indent, source)
    _check(lf_body, new_body, expect, source)
    if crlf:
        new_body = new_body.replace("\n", "\r\n")
    return Edit(text, bom + new_body, changes)


def plan_install(text: str, entries: Mapping[str, str], source: str = "config.yaml") -> Edit:
    """The config text with one entry of ours per event in ``entries`` (event → command).

    Our older entries (another path, or duplicates) are replaced in place; others are kept in
    their order. Raises ConfigError for a config we will not edit.
    """
    return _edit(text, source, lambda data: _install_tree(data, entries), _expect_install(entries))


def plan_uninstall(text: str, source: str = "config.yaml") -> Edit:
    """The config text without any entry of ours; an event list (or ``hooks:``) we empty goes."""
    return _edit(text, source, _uninstall_tree, _expect_uninstall)


# --- the files -----------------------------------------------------------------------------


def backup_path(path: str) -> str:
    """Where the previous config is kept: ``config.yaml.hermes-hooks.bak`` beside it."""
    return path + BACKUP_SUFFIX


def read_config(path: str) -> str:
    """The config's text exactly as stored (line endings kept); ``""`` when it does not exist."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return f.read()
    except FileNotFoundError:
        return ""
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 text (byte {e.start}); left unchanged") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read ({e.strerror or e}); left unchanged") from None


def write_config(path: str, edit: Edit) -> str | None:
    """Write ``edit.new`` atomically over ``path``; return the backup's path (None if new).

    A symlinked config (a dotfiles repository) is written through the link. The file keeps its
    mode; a new one is created 0600 in a 0700 directory, as Hermes does. If the file changed
    since it was read (Hermes rewrote it meanwhile), nothing is written.
    """
    real = os.path.realpath(path)
    directory = os.path.dirname(real)
    exists = os.path.exists(real)
    if exists:
        mode = stat.S_IMODE(os.stat(real).st_mode)
    else:
        os.makedirs(directory, mode=NEW_DIR_MODE, exist_ok=True)
        mode = NEW_FILE_MODE
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(real)}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(edit.new)
            f.flush()
            os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        if read_config(real) != edit.old:
            raise ConfigError(
                f"{path}: changed while we were editing it; left unchanged, try again"
            )
        backup = None
        if exists:
            backup = backup_path(path)
            with open(backup, "w", encoding="utf-8", newline="") as f:
                f.write(edit.old)
            os.chmod(backup, mode)
        os.replace(tmp, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return backup


def unified_diff(path: str, edit: Edit, label: str) -> str:
    """The change as a unified diff, for ``--dry-run``."""
    old = [line.replace("\r\n", "\n") for line in _split(edit.old.replace("\r\n", "\n"))]
    new = [line.replace("\r\n", "\n") for line in _split(edit.new.replace("\r\n", "\n"))]
    old = [
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in old
    ]
    new = [
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in new
    ]
    return "".join(difflib.unified_diff(old, new, path, f"{path} ({label})"))


# --- the commands --------------------------------------------------------------------------


def _consent_lines(profile: str | None) -> list[str]:
    hermes = f"hermes -p {shlex.quote(profile)}" if profile else "hermes"
    return [
        "Consent: Hermes asks once for each hook, the first time it starts with it (a run "
        "without a terminal skips a hook not yet approved). Pre-approve: run "
        f"`{hermes} --accept-hooks` once, or set `hooks_auto_accept: true` in config.yaml.",
        "Capture: 3 Hermes events bound (on_session_start, pre_llm_call, post_llm_call). Hermes "
        "has no pre-compact event: the mind's compaction is approximated from Stop, opt-in: "
        "WAGGLE_HERMES_COMPACT_ON_STOP=1, at most once per WAGGLE_HERMES_COMPACT_WINDOW_MIN "
        "minutes (default 10).",
    ]


def _change_lines(changes: list[Change]) -> list[str]:
    width = max(len(c.event) for c in changes) + 1
    lines = []
    for c in changes:
        line = f"  {c.event + ':':<{width}} {c.action:<9} {c.command}"
        if c.action == "updated" and c.previous:
            line += f" (was: {'; '.join(c.previous)})"
        lines.append(line)
    return lines


def run_install(
    home: str,
    *,
    dry_run: bool = False,
    profile: str | None = None,
    entries: Mapping[str, str] | None = None,
) -> int:
    """``hermes-hooks install``: print what changed (or the diff), return the exit code."""
    from .entries import hook_entries

    path = config_path(home)
    edit = plan_install(read_config(path), hook_entries() if entries is None else entries, path)
    return _finish(path, edit, dry_run, "install", _consent_lines(profile))


def run_uninstall(home: str, *, dry_run: bool = False) -> int:
    """``hermes-hooks uninstall``: remove our entries only; return the exit code."""
    path = config_path(home)
    edit = plan_uninstall(read_config(path), path)
    after = [
        "Hermes keeps its approvals in shell-hooks-allowlist.json; "
        "`hermes hooks revoke COMMAND` removes one."
    ]
    return _finish(path, edit, dry_run, "uninstall", after)


def _finish(path: str, edit: Edit, dry_run: bool, verb: str, after: list[str]) -> int:
    out = sys.stdout
    if not edit.changed:
        if verb == "install":
            out.write(f"hermes-hooks: already installed in {path}; nothing changed\n")
            out.write("\n".join(_change_lines(edit.changes)) + "\n")
        else:
            out.write(f"hermes-hooks: no hermes-hooks entries in {path}; nothing changed\n")
        return 0
    if dry_run:
        out.write(unified_diff(path, edit, f"after {verb}"))
        out.write("hermes-hooks: dry run; nothing written\n")
        return 0
    backup = write_config(path, edit)
    done = "installed into" if verb == "install" else "removed from"
    out.write(f"hermes-hooks: {done} {path}\n")
    out.write("\n".join(_change_lines(edit.changes)) + "\n")
    if backup:
        out.write(f"Previous file kept as {backup}\n")
    out.write("\n".join(after) + "\n")
    return 0


def run_tool(
    command: str, *, hermes_home: str | None, profile: str | None, dry_run: bool = False
) -> int:
    """The error boundary of install, verify and uninstall: one line on stderr, exit 1."""
    from .paths import selected_home

    try:
        home = selected_home(hermes_home, profile)
        if profile is not None and not os.path.isdir(home):
            raise ConfigError(
                f"no Hermes profile {profile!r} (no directory {home}); "
                f"create it with `hermes profile create {shlex.quote(profile)}`"
            )
        _require_ruamel()
        if command == "verify":
            from .verify import run_verify

            return run_verify(home)
        if command == "install":
            return run_install(home, dry_run=dry_run, profile=profile)
        return run_uninstall(home, dry_run=dry_run)
    except (ConfigError, ValueError) as e:
        sys.stderr.write(f"hermes-hooks {command}: {e}\n")
        return 1
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        sys.stderr.write(f"hermes-hooks {command}: {where}{e.strerror or e}\n")
        return 1


def _require_ruamel() -> None:
    try:
        import ruamel.yaml  # noqa: F401
    except ImportError:
        raise ConfigError(
            "needs ruamel.yaml to edit config.yaml without losing comments: "
            "pip install 'hermes-hooks[install]'"
        ) from None
