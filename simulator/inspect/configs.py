"""A user's real hook config files: where each host reads them, and what they hold.

``layers`` finds the files a host reads, home first, then the project's in the host's order
(``Host.config_files``, ``Host.project_configs``; the host's home variable moves its user
file). ``read`` loads one with the host's own ``load_config`` and ``parse_hooks``, each hook
with the file and line it is written at, and the events the file names that the host does not
have. Nothing here re-states a host's rules: the profile answers.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .. import beneath
from ..hosts import HOSTS, ConfigError, HookSpec, Host


class Unreadable(Exception):
    """A config file that cannot be read; ``str()`` is the one line to print."""


@dataclass(frozen=True)
class ConfigFile:
    """One file a host reads hooks from: its path, its layer (``user`` or ``project``), and
    its name as printed (``~/...`` under HOME, relative under the working directory)."""

    path: Path
    layer: str

    @property
    def shown(self) -> str:
        return shown(self.path)


@dataclass(frozen=True)
class Config:
    """A file's hooks as the host reads them (each with ``source`` and ``line``), the events it
    names that the host does not have (event, its line, its hooks' commands), and the host's
    warnings."""

    file: ConfigFile
    specs: list[HookSpec]
    unknown: list[tuple[str, int, list[str]]]
    warnings: list[str]


def shown(path: Path) -> str:
    """``path`` as the user knows it: relative to the working directory, else under ``~``."""
    absolute = Path(os.path.abspath(path))
    for base, prefix in ((Path.cwd(), ""), (Path.home(), "~/")):
        try:
            return prefix + absolute.relative_to(base).as_posix()
        except ValueError:
            continue
    return absolute.as_posix()


def user_files(host: Host, env: Mapping[str, str]) -> list[Path]:
    """The files in the user's home the host reads hooks from (``~/...`` of its config files);
    its home variable, when set, is the folder they are in."""
    names = [f.split()[0] for f in host.config_files if f.startswith("~/")]
    moved = env.get(host.home_variable) if host.home_variable else None
    if moved:
        return [Path(moved) / Path(name).name for name in names]
    return [Path.home() / name[2:] for name in names]


def layers(host: Host, project: Path, env: Mapping[str, str]) -> list[ConfigFile]:
    """Every file the host reads hooks from, in its order: the user's, then the project's."""
    return [ConfigFile(p, "user") for p in user_files(host, env)] + [
        ConfigFile(project / name, "project") for name in host.project_configs
    ]


def named(path: Path, host: Host) -> ConfigFile:
    """A file the user names, in the layer its name says (a project file, else the user's)."""
    posix = Path(os.path.abspath(path)).as_posix()
    project = any(posix.endswith("/" + name) for name in host.project_configs)
    return ConfigFile(path, "project" if project else "user")


def host_of(path: Path) -> Host | None:
    """The host that reads a file of this name, when one does: the one whose home or project
    config it is (``.claude/settings.json``), else the only one with a file of its base name
    (``config.yaml``: Hermes reads it in any ``HERMES_HOME``)."""
    posix = "/" + Path(os.path.abspath(path)).as_posix().lstrip("/")
    hosts = [h for h in HOSTS.values() if not h.in_process]
    names = {h.name: _names(h) for h in hosts}
    for whole in (True, False):
        found = [
            h
            for h in hosts
            if any(
                posix.endswith(n if whole else "/" + n.rpartition("/")[2]) for n in names[h.name]
            )
        ]
        if found:
            return found[0] if len(found) == 1 else None
    return None


def _names(host: Host) -> list[str]:
    """The host's config files as path endings (``/.claude/settings.json``)."""
    names = [f.split()[0][1:] for f in host.config_files if f.startswith("~/")]
    return names + ["/" + name for name in host.project_configs]


# A variable a host sets to a folder its hooks name files by (``$CLAUDE_PROJECT_DIR``, ``$HOME``).
PATH_VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w*(?:_DIR|_ROOT|_DATA|HOME))\}?")


def expand(word: str, project: Path) -> str:
    """A command's word with the home and project variables the hosts set put in."""

    def value(found: re.Match[str]) -> str:
        if found[1] == "HOME":
            return str(Path.home())
        return str(project) if found[1].endswith("_PROJECT_DIR") else found[0]

    return PATH_VARIABLE.sub(value, word)


def script(host: Host, command: str, project: Path) -> Path | None:
    """The file ``command`` starts, when its first word names one by a path (``~`` and the
    hosts' home and project variables put in; a relative path stays relative: the hosts run
    their hooks in the project, so ``project / script(...)`` is the file); None when it names
    a program on PATH or cannot be read."""
    try:
        words = (
            host.argv(command, {"HOME": str(Path.home())})
            if host.spawn == "exec"
            else (shlex.split(command))
        )
    except ValueError:
        return None
    if not words:
        return None
    first = os.path.expanduser(expand(words[0], project))
    if "/" not in first or "$" in first:
        return None
    return Path(first)


def closest(host: Host, event: str) -> str | None:
    """The host's event closest to ``event`` (its lifecycle's, by spelling or case), if any."""
    known = [e for e in host.events.values() if e]
    lowered = {e.lower(): e for e in known}
    if event.lower() in lowered:
        return lowered[event.lower()]
    close = difflib.get_close_matches(event, known, n=1, cutoff=0.6)
    return close[0] if close else None


def suggestion(host: Host, event: str) -> str:
    """`` (did you mean 'X'?)`` for the host's event closest to ``event``, or ""."""
    close = closest(host, event)
    return f" (did you mean {close!r}?)" if close else ""


def read(host: Host, file: ConfigFile) -> Config:
    """The file's hooks as the host reads them; Unreadable when it cannot be read."""
    if not file.path.exists():
        raise Unreadable(f"{file.shown}: no such file")
    try:
        beneath.check_regular(file.path)
        block = host.load_config(file.path)
    except beneath.Refused as e:
        raise Unreadable(str(e).replace(str(file.path), file.shown, 1)) from None
    except RecursionError:
        raise Unreadable(f"{file.shown}: nested too deeply to read") from None
    except ConfigError as e:
        # One line: a YAML parser's message spans several (the place, a caret).
        raise Unreadable(" ".join(str(e).replace(str(file.path), file.shown, 1).split())) from None
    specs, warnings = host.parse_hooks(block)
    lines = _Lines(file.path)
    specs = [
        replace(
            s, source=file.shown, line=lines.of(["hooks", *s.where], s.command), layer=file.layer
        )
        for s in specs
    ]
    unknown = [
        (event, lines.of(["hooks", event], f"{event}"), _commands(entries))
        for event, entries in (block.items() if isinstance(block, dict) else [])
        if isinstance(event, str) and not host.knows(event) and isinstance(entries, list)
    ]
    return Config(file, specs, unknown, warnings)


def _commands(entries: list[Any]) -> list[str]:
    """The commands of an event's entries, matcher groups or hooks."""
    found = []
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        handlers: list[Any] = entry["hooks"] if isinstance(entry.get("hooks"), list) else [entry]
        found += [str(h["command"]) for h in handlers if isinstance(h, dict) and "command" in h]
    return found


_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')


def json_lines(text: str) -> dict[tuple[str | int, ...], int] | None:
    """The 1-based line where each key and each list item of a JSON text starts, by its path
    (keys and indices); None for text that is not JSON of that shape. One pass over its tokens:
    linear in the text, as the hooks of a settings file are many."""
    lines: dict[tuple[str | int, ...], int] = {}
    line, counted = 1, 0
    # Each open container: [path, index of the next item (a list) or None, the key read]
    stack: list[list[Any]] = []
    expect_key = False
    for token in _JSON_TOKEN.finditer(text):
        t = token.group()
        line += text.count("\n", counted, token.start())
        counted = token.start()
        top = stack[-1] if stack else None
        if t in ",:":
            if t == "," and top is not None:
                if top[1] is None:
                    expect_key = True
                else:
                    top[1] += 1
            continue
        if t in "}]":
            if not stack:
                return None
            stack.pop()
            expect_key = False
            continue
        if top is not None and top[1] is None and expect_key:
            if not t.startswith('"'):
                return None
            try:
                top[2] = t[1:-1] if "\\" not in t else json.loads(t)
            except ValueError:
                return None
            lines[top[0] + (top[2],)] = line
            expect_key = False
            continue
        path: tuple[str | int, ...] = ()
        if top is not None:
            path = top[0] + (top[1] if top[1] is not None else top[2],)
            if top[1] is not None:
                lines.setdefault(path, line)
        if t in "{[":
            stack.append([path, 0 if t == "[" else None, None])
            expect_key = t == "{"
    return lines


class _Lines:
    """Line numbers in a config file: by the keys that lead to a node (JSON and YAML, read as
    YAML with its positions kept), else the first line holding a text (TOML)."""

    def __init__(self, path: Path) -> None:
        self.text = path.read_text(encoding="utf-8", errors="replace")
        self.doc: Any = None
        self.json_lines: dict[tuple[str | int, ...], int] | None = None
        if path.suffix == ".json":  # linear and quick on thousands of hooks (YAML's is not)
            self.json_lines = json_lines(self.text)
        elif path.suffix in (".yaml", ".yml"):
            from ruamel.yaml import YAML
            from ruamel.yaml.error import YAMLError

            try:
                self.doc = YAML(typ="rt", pure=True).load(self.text.replace("\t", " "))
            except (YAMLError, RecursionError):
                self.doc = None

    def of(self, keys: list[str | int], text: str) -> int:
        """The 1-based line of the node at ``keys`` (a mapping's ``command`` when it has one),
        else of ``text``; 0 when neither is found."""
        if self.json_lines is not None:
            where = tuple(keys)
            line = self.json_lines.get((*where, "command"), self.json_lines.get(where))
            return line if line is not None else self._search(text)
        node, line = self.doc, None
        for key in keys:
            position = self._position(node, key)
            if position is None:
                return self._search(text)
            line, node = position
        if line is None:
            return self._search(text)
        command = self._position(node, "command")
        return (command[0] if command else line) + 1

    @staticmethod
    def _position(node: Any, key: str | int) -> tuple[int, Any] | None:
        lc: Any = getattr(node, "lc", None)
        try:
            at = lc.key(key) if isinstance(key, str) else lc.item(key)
            return int(at[0]), node[key]
        except (AttributeError, KeyError, IndexError, TypeError):
            return None

    def _search(self, text: str) -> int:
        for n, line in enumerate(self.text.splitlines(), 1):
            if text and text in line:
                return n
        return 0
