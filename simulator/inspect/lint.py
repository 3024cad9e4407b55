"""Named findings about a host's hook configs, each at a file and line with a one-line fix.

Every rule asks the profile: its tools (``shell_tool``, ``file_tools``) and matcher rule
(``matches``), its events (``knows``), the unit of its timeouts (``config_timeout_unit``),
whether it runs a command in a shell (``spawn``, ``argv``), what it runs once (``dedupe``),
what its user has not approved (``unconsented``) and what a setting turns off (``disabled``).
``RULES`` holds each rule's summary, the anchor of its section in docs/answers.md being its id.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from ..hosts import HookSpec, Host
from .configs import PATH_VARIABLE, Config, closest, script, shown
from .explain import anchoring, disabled

DOCS = "docs/answers.md"

RULES = {
    "dead-matcher": "a tool matcher that selects none of the host's tools",
    "matcher-case": "a name in a matcher list written in the wrong case",
    "unanchored-matcher": "a regex matcher the host tests unanchored, selecting longer names too",
    "unknown-event": "an event the host does not have: its hooks never run",
    "timeout-unit": "a timeout in the wrong unit (Gemini CLI's are milliseconds)",
    "missing-script": "a script a command runs by a path that does not exist",
    "not-executable": "a script a command runs that has no execute bit",
    "no-shebang": "a script a command runs that has no #! line",
    "unquoted-path-variable": "a path variable outside quotes",
    "plugin-variable-outside-plugin": "a plugin's variable in a settings file's hook",
    "hermes-no-shell-form": "shell syntax in a command Hermes runs without a shell",
    "hermes-not-consented": "a hook Hermes has not been allowed to run",
    "duplicate-hook": "the same hook twice",
    "ignored-entry": "an entry or key the host skips or ignores",
    "disabled-hook": "a hook a setting of the host turns off",
}


@dataclass(frozen=True)
class Finding:
    """One rule's finding at a file (as shown, and its path) and line."""

    rule: str
    level: str  # "error" or "warning"
    file: str
    line: int
    message: str
    fix: str
    path: Path

    @property
    def doc(self) -> str:
        return f"{DOCS}#{self.rule}"

    def data(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "level": self.level,
            "file": self.file,
            "line": self.line,
            "message": self.message,
            "fix": self.fix,
            "doc": self.doc,
        }


def lint(host: Host, configs: list[Config], project: Path) -> list[Finding]:
    """Every finding in a host's config files, file by file in its order, by line."""
    found: list[tuple[int, int, int, Finding]] = []
    seen: dict[tuple[str, str | None, str], HookSpec] = {}
    for rank, config in enumerate(configs):
        at = _At(config)
        for spec in config.specs:
            key = (spec.event, spec.matcher, spec.command)
            for finding in _hook(host, spec, seen.get(key), project, at):
                found.append((rank, spec.line, len(found), finding))
            off = disabled(host, spec, config, configs)
            if off:
                said = f"{host.title} does not run this hook: {off[0]}"
                found.append(
                    (
                        rank,
                        spec.line,
                        len(found),
                        at("disabled-hook", "warning", spec.line, said, off[1]),
                    )
                )
            seen.setdefault(key, spec)
        for event, line, _ in config.unknown:
            close = closest(host, event)
            fix = f"rename it {close}" if close else "use one of the host's events"
            message = f"{host.title} has no event {event!r}; its hooks never run"
            found.append((rank, line, len(found), at("unknown-event", "error", line, message, fix)))
        for warning in config.warnings:
            if not warning.startswith("unknown "):
                line = _warning_line(config, warning)
                fix = "correct or remove the entry"
                found.append(
                    (rank, line, len(found), at("ignored-entry", "warning", line, warning, fix))
                )
    # A matcher group's hooks share its matcher and line: one finding about it, not one each.
    return list(dict.fromkeys(f for *_, f in sorted(found, key=lambda n: n[:3])))


class _At:
    """Findings in one config file."""

    def __init__(self, config: Config) -> None:
        self.config = config

    def __call__(self, rule: str, level: str, line: int, message: str, fix: str) -> Finding:
        file = self.config.file
        return Finding(rule, level, file.shown, line, message, fix, file.path)


def _hook(
    host: Host, spec: HookSpec, first: HookSpec | None, project: Path, at: _At
) -> list[Finding]:
    """The findings about one hook, ``first`` the same hook written before (None: none)."""
    found: list[tuple[str, str, str, str]] = []
    if first is not None:
        where = f"{first.source}:{first.line}" if first.line else first.source
        runs = "once" if host.dedupe else "twice"
        found.append(
            (
                "duplicate-hook",
                "warning",
                f"the same hook as {where}; {host.title} runs it {runs}",
                "delete one of the two",
            )
        )
    found += _matcher(host, spec) + _timeout(host, spec)
    plugin = _plugin_variable(spec)
    if plugin:
        found.append(
            (
                "plugin-variable-outside-plugin",
                "error",
                f"{plugin} is set only for a plugin's hooks, not a settings file's",
                "name the script by an absolute path, or move the hook into the plugin",
            )
        )
    else:
        found += _command(host, spec, project, at.config.file.path.parent)
    return [at(rule, level, spec.line, message, fix) for rule, level, message, fix in found]


def _plugin_variable(spec: HookSpec) -> str:
    """The plugin's variable (``CLAUDE_PLUGIN_ROOT``) a settings file's hook names ("": none).

    Claude Code refuses an exec-form hook (``args``) outside a plugin that names one; a
    shell-form one runs, the shell expanding the variable, so one that sets it on its own
    command line first is left alone (hosts/claude_code/facts.py, "plugin environment":
    real 2.1.332 ran scenarios/probes/claude-code-plugin-root-in-settings.yaml)."""
    text = " ".join((spec.command, *(spec.args or ())))
    for used in re.finditer(r"\$\{?(\w+_PLUGIN_(?:ROOT|DATA))\b", text):
        name = used[1]
        if spec.args is not None or not re.search(rf"(?:^|[\s;&|(]){name}=", text[: used.start()]):
            return name
    return ""


def _tools(host: Host) -> list[str]:
    return [host.shell_tool, *host.file_tools]


def _matcher(host: Host, spec: HookSpec) -> list[tuple[str, str, str, str]]:
    """dead-matcher, matcher-case and unanchored-matcher for a tool event's matcher."""
    tool_events = {host.events.get("pre_tool"), host.events.get("post_tool")}
    if spec.matcher is None or spec.event not in tool_events:
        return []
    matcher, tools = spec.matcher, _tools(host)
    selected = [t for t in tools if host.matches(spec, t)]
    if not selected:
        return [("dead-matcher", "error", *why) for why in [_dead(host, spec, tools)] if why]
    found = []
    for part in re.split(r"[|,]", matcher):
        name = part.strip()
        cased = [t for t in tools if name.lower() == t.lower() and name != t]
        if cased and not any(host.matches(replace(spec, matcher=name), t) for t in tools):
            found.append(
                (
                    "matcher-case",
                    "warning",
                    f"{name!r} in matcher {matcher!r} selects no {host.title} tool:"
                    " tool names are case-sensitive",
                    f"write {cased[0]}",
                )
            )
    longer = [t for t in selected if host.matches(spec, f"x{t}x")]
    # One that selects even an empty name ('*' by the host's rule, '.*') selects every tool:
    # anchored, it selects the same ones.
    if longer and not host.matches(spec, ""):
        found.append(
            (
                "unanchored-matcher",
                "warning",
                f"matcher {matcher!r} is a regex {host.title} tests unanchored: it also"
                f" selects any tool whose name contains {longer[0]!r}",
                f"write matcher: ^({matcher})$",
            )
        )
    return found


def _dead(host: Host, spec: HookSpec, tools: list[str]) -> tuple[str, str] | None:
    """Why a matcher that selects none of the host's known tools never selects one, when the
    rule explains it (its case, ``*``, anchoring); None: it may name a tool hooksim does not
    list (an MCP server's)."""
    matcher = str(spec.matcher)
    said = f"matcher {matcher!r} never selects a {host.title} tool"
    cased = [t for t in tools if host.matches(replace(spec, matcher=matcher.lower()), t.lower())]
    if cased:
        fix = (
            f"write matcher: {cased[0]}"
            if matcher.lower() == cased[0].lower()
            else (f"write the tool's name as {cased[0]}")
        )
        return f"{said}: tool names are case-sensitive", fix
    if matcher == "*" and "*" not in host.match_all:
        return f"{said}: '*' is a regex that selects nothing here", "drop the matcher"
    anchored = next((a for t in tools if (a := anchoring(host, matcher, t))), "")
    if anchored:
        return f"{said}: {host.title} anchors a matcher at both ends", f"write matcher: {anchored}"
    return None


def _timeout(host: Host, spec: HookSpec) -> list[tuple[str, str, str, str]]:
    """timeout-unit: milliseconds too few to run a hook in, or seconds that look like ms."""
    if spec.timeout_s is None:
        return []
    if host.config_timeout_unit == "ms":
        written = round(spec.timeout_s * 1000)
        if written < 1000:
            return [
                (
                    "timeout-unit",
                    "error",
                    f"timeout {written} is {written} ms: {host.title} reads timeouts in"
                    " milliseconds",
                    f"write timeout: {written * 1000} for {written} seconds",
                )
            ]
        return []
    if spec.timeout_s >= 1000:
        seconds = spec.timeout_s
        return [
            (
                "timeout-unit",
                "warning",
                f"timeout {seconds:g} is {seconds / 3600:.1f} hours: {host.title} reads timeouts"
                " in seconds",
                f"write timeout: {seconds / 1000:g} for {seconds / 1000:g} seconds",
            )
        ]
    return []


SHELL_OPERATORS = frozenset({"|", "||", "&&", ";", "&", ">", ">>", "<", "2>&1", "2>"})


def _command(
    host: Host, spec: HookSpec, project: Path, config_home: Path
) -> list[tuple[str, str, str, str]]:
    """The rules on the command: its shell form where there is no shell, consent, the script
    it names, and path variables outside quotes."""
    found = []
    if host.spawn == "exec":
        said = _no_shell(host, spec.command)
        if said:
            found.append(
                (
                    "hermes-no-shell-form",
                    "error",
                    f"{host.title} runs this command without a shell: {said}",
                    "name the script by an absolute path, or write sh -c '...'",
                )
            )
    unapproved = host.unconsented(spec, config_home)
    if unapproved:
        found.append(
            (
                "hermes-not-consented",
                "warning",
                unapproved,
                "start Hermes once with --accept-hooks (or answer y at its prompt)",
            )
        )
    found += _script(host, spec.command, project)
    if host.spawn == "shell":
        bare = _unquoted_variable(spec.command)
        if bare:
            found.append(
                (
                    "unquoted-path-variable",
                    "warning",
                    f"${bare} is not quoted: a path with a space breaks the command",
                    f'write "${bare}"/... (the variable in double quotes)',
                )
            )
    return found


def _no_shell(host: Host, command: str) -> str:
    """What a shell would have done to ``command`` that the host's argv does not ("": none)."""
    try:
        argv = host.argv(command, {"HOME": str(Path.home())})
    except ValueError as e:
        return f"it cannot be split into words ({e})"
    script = _shell_script(argv)
    for k, word in enumerate(argv):
        if k == script:  # the shell expands its script
            continue
        variable = re.search(r"\$\{?(\w+)", word)
        if variable:
            return f"'${variable[1]}' is not expanded"
        if word in SHELL_OPERATORS or "`" in word:
            return f"{word!r} is passed to the program as a word"
    return ""


SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh"})


def _shell_script(argv: list[str]) -> int:
    """The index of the word a shell started as ``sh -c SCRIPT`` (``bash -lc``, ...) runs as
    its script, expanding its variables and operators itself; -1: no such word. Hermes splits
    a command into words with no shell (hosts/hermes/facts.py, "spawn"), so ``sh -c '...'`` is
    how its hooks get one (scenarios/world/08-formatter-hermes.yaml)."""
    if not argv or Path(argv[0]).name not in SHELLS:
        return -1
    flags, words = "", iter(enumerate(argv[1:], 1))
    for k, word in words:
        if word in ("-o", "+o"):  # a named option's name follows
            next(words, None)
        elif word[:1] in "-+" and len(word) > 1 and word != "--":
            flags += "" if word.startswith("--") else word[1:]  # bash's --login: no flag
        else:  # the script, or after "--" (the end of the options) the word that follows
            script = next(words, (-1, ""))[0] if word == "--" else k
            return script if "c" in flags else -1
    return -1


def _script(host: Host, command: str, project: Path) -> list[tuple[str, str, str, str]]:
    """missing-script, not-executable and no-shebang for the file the command starts, when it
    names one by a path."""
    named = script(host, command, project)
    if named is None:
        return []
    path = project / named
    name = shown(path)
    if not os.path.lexists(path) and named.is_absolute():  # a relative one: from where it runs
        return [
            (
                "missing-script",
                "error",
                f"{name} does not exist: the command fails (exit 127)",
                "correct the path",
            )
        ]
    if not path.is_file():
        return []
    if not os.access(path, os.X_OK):
        return [("not-executable", "error", f"{name} is not executable", f"chmod +x {name}")]
    with path.open("rb") as f:
        start = f.read(4)
    if start[:2] == b"#!" or start == b"\x7fELF":
        return []
    if host.spawn == "exec":
        said = f"{host.title} cannot start it (exec format error)"
        return [("no-shebang", "error", f"{name} has no #! line: {said}", _SHEBANG)]
    return [
        (
            "no-shebang",
            "warning",
            f"{name} has no #! line: the shell runs it as a sh script",
            _SHEBANG,
        )
    ]


_SHEBANG = "add a first line naming its interpreter, such as #!/bin/sh"


def _unquoted_variable(command: str) -> str:
    """The first path variable of ``command`` outside quotes ("": none)."""
    quote = ""
    for i, char in enumerate(command):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "$":
            found = PATH_VARIABLE.match(command, i)
            if found:
                return found[1]
    return ""


def _warning_line(config: Config, warning: str) -> int:
    """The line of the entry a host's warning names (``hooks.EVENT[i]``), else 0."""
    found = re.match(r"hooks\.(\w+)\[(\d+)\]", warning)
    if not found:
        return 0
    lines = [s.line for s in config.specs if s.where[:2] == (found[1], int(found[2]))]
    return lines[0] if lines else 0
