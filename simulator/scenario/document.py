"""A scenario file's YAML document, read within bounds: a regular file of at most
``MAX_BYTES``, nested at most ``MAX_DEPTH`` levels, whose aliases repeat at most
``MAX_REPEATED`` values and expand to at most ``MAX_EXPANDED`` bytes of text. Anything else is one ``ScenarioError`` line, found before the document
is expanded (``json.dumps`` would repeat every alias)."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from .model import ScenarioError

MAX_BYTES = 64 * 1024 * 1024  # far above any scenario; a larger file is not read at all
MAX_DEPTH = 100  # a scenario nests a few levels; ruamel's composer recurses once per level
MAX_REPEATED = 100_000  # hooks reused across events repeat tens; a billion laughs, billions
# The text the document holds once its aliases are expanded: one large scalar aliased
# thousands of times is a few values but gigabytes.
MAX_EXPANDED = 2 * MAX_BYTES

_KINDS = {
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
}


def read_text(path: Path) -> str:
    """The file's text; never waits on a FIFO nor reads a device (opened ``O_NONBLOCK``)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise ScenarioError(f"{path}: cannot read ({e})") from None
    with os.fdopen(fd, "rb") as f:
        mode, size = os.fstat(fd).st_mode, os.fstat(fd).st_size
        if not stat.S_ISREG(mode):
            kind = _KINDS.get(stat.S_IFMT(mode), "not a regular file")
            raise ScenarioError(f"{path} is {kind}, not a regular file; not read")
        data = f.read(MAX_BYTES + 1) if size <= MAX_BYTES else b""
    if size > MAX_BYTES or len(data) > MAX_BYTES:
        raise ScenarioError(
            f"{path}: {max(size, len(data)):,} bytes: a scenario file is at most 64 MiB"
            f" ({MAX_BYTES:,} bytes); not read"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScenarioError(f"{path}: not a text file (not UTF-8 at byte {e.start})") from None


def read_document(path: Path) -> Any:
    """The file's round-trip document (line numbers kept), or one ``file:line`` error."""
    from ruamel.yaml import YAML
    from ruamel.yaml.composer import Composer
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.events import AliasEvent

    class _Bounded(Composer):
        """ruamel's composer, stopping at the level past ``MAX_DEPTH`` before it recurses
        into it, and noting where the first alias is."""

        nesting = 0
        first_alias: Any = None

        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.parser.peek_event()
            if isinstance(event, AliasEvent):
                if self.first_alias is None:
                    self.first_alias = event
                return super().compose_node(parent, index)
            self.nesting += 1
            if self.nesting > MAX_DEPTH:
                raise _TooDeep(event.start_mark.line + 1)
            try:
                return super().compose_node(parent, index)
            finally:
                self.nesting -= 1

    text = read_text(path)
    yaml = YAML(typ="rt", pure=True)
    yaml.Composer = _Bounded
    try:
        node = yaml.compose(text)
        composer = yaml.composer
        alias = composer.first_alias
        if alias is not None:
            _check_aliases(path, node, alias)
        return None if node is None else yaml.constructor.construct_document(node)
    except _TooDeep as e:
        raise ScenarioError(
            f"{path}:{e.line}: invalid YAML: nested more than {MAX_DEPTH} levels deep"
            " (a scenario needs a few)"
        ) from None
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else 1
        raise ScenarioError(f"{path}:{line}: invalid YAML: {e.problem or e.context}") from None
    except YAMLError as e:  # the reader's: a character YAML refuses, at a position
        position = getattr(e, "position", None)
        line = text.count("\n", 0, position) + 1 if isinstance(position, int) else 1
        raise ScenarioError(f"{path}:{line}: invalid YAML: {str(e).splitlines()[0]}") from None


def _check_aliases(path: Path, node: Any, alias: Any) -> None:
    """ScenarioError at the first alias when the aliases repeat too many values or bytes."""
    repeated, size = _repeated(node)
    if repeated <= MAX_REPEATED and size <= MAX_EXPANDED:
        return
    much = (
        f"repeat more than {MAX_REPEATED:,} values"
        if repeated > MAX_REPEATED
        else f"expand it to more than {MAX_EXPANDED:,} bytes of text"
    )
    raise ScenarioError(
        f"{path}:{alias.start_mark.line + 1}: invalid YAML: its aliases {much}"
        f" (the first alias, *{alias.anchor}, is on this line); reuse an anchor fewer"
        " times, or write the values out"
    )


class _TooDeep(Exception):
    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


def _repeated(root: Any) -> tuple[int, int]:
    """How many values the document's aliases add once expanded (its expanded size, each
    node's size remembered so an alias costs one look-up, less its distinct nodes), and how
    many bytes of scalars it holds once expanded. An alias to a value it is inside counts once
    (the constructor makes it null)."""
    sizes: dict[int, tuple[int, int]] = {}
    open_: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if id(node) in sizes:
            continue
        kids = _children(node)
        if done:
            open_.discard(id(node))
            own = len(node.value) if isinstance(node.value, str) else 0
            counted = [sizes.get(id(k), (1, 0)) for k in kids]
            sizes[id(node)] = (1 + sum(c[0] for c in counted), own + sum(c[1] for c in counted))
            continue
        if id(node) in open_:
            continue
        open_.add(id(node))
        stack.append((node, True))
        stack.extend((k, False) for k in kids if id(k) not in sizes and id(k) not in open_)
    values, size = sizes[id(root)]
    return values - len(sizes), size


def _children(node: Any) -> list[Any]:
    value = node.value
    if isinstance(value, list):
        return [part for item in value for part in (item if isinstance(item, tuple) else (item,))]
    return []
