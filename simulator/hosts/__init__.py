"""The host registry: the one place that lists the agent CLIs hooksim replays.

Each host is a folder, ``hosts/<folder>/``: its profile (``profile.py``, whose ``PROFILE`` is
the class; attributes and rules), its session loop, payloads and output reading, its
transcript writer, its facts as data, and its parts of the stages above: what a real run of it
needs (``real``), the words ``hooksim explore`` draws (``explore``), and what its replay needs
beyond the shell hosts' (``replay``: OpenClaw's handlers run in a Node process). The modules
here beside the folders are what every host shares:

- ``profile``: ``Host``, what a profile says (events, spawn, timeouts, reading of output);
  ``records``: the records every stage passes on (``HookSpec``, ``HookRun``, ``Firing``, ...);
  ``sources``: where each fact of a profile comes from.
- ``session``: the session loop every host's own subclasses; ``conversation``: what was said
  in a session, in order; ``transcript``: the transcript a host writes as the session goes;
  ``given``: what a text the host hands the model says once its wrapping is off.
- ``config``: hook configs in the shape most hosts share (events, matcher groups, handlers);
  ``plugins``: what the plugin formats share; ``output``: reading a hook's output the ways
  several hosts share (JSON, context, the telling line of stderr);
  ``claude_style``: the reading Claude Code and Codex share.
- ``tables``: the hosts side by side (README's table, ``hooksim hosts``), from the profiles.

``HOSTS`` maps a scenario's ``tool:`` to its profile, loaded from ``FOLDERS``; a stage asks a
profile what differs per host and never names one. A stage that needs a host's own code reaches
it through ``part()``, which imports it the first time it is asked for.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .given import contains, readings
from .profile import Host
from .records import LIFECYCLE, ConfigError, Firing, HookRun, HookSpec, Plugin, PluginHooks, Verdict
from .session import Session, SessionInfo

# The hosts hooksim knows, by folder, in the order tables list them.
FOLDERS = ("hermes", "claude_code", "codex", "cursor", "gemini_cli", "openclaw")


def _profile(folder: str) -> Host:
    profile: type[Host] = importlib.import_module(f"{__name__}.{folder}.profile").PROFILE
    return profile()


HOSTS: dict[str, Host] = {host.name: host for host in map(_profile, FOLDERS)}
# The host of a scenario that names no ``tool:``.
DEFAULT_HOST = "hermes"


def part(host: Host, name: str) -> ModuleType | None:
    """``host``'s own module ``name`` for a stage above the profiles (``real``, ``explore``,
    ``replay``), from the folder its profile is in; None where the folder has none."""
    # The folder of the profile it is, or is made from (a test's mutant subclasses one).
    folder = next(
        (
            c.__module__.rpartition(".")[0]
            for c in type(host).__mro__
            if c.__module__.startswith(f"{__name__}.") and c.__module__.endswith(".profile")
        ),
        "",
    )
    if not folder:
        return None
    try:
        return importlib.import_module(f"{folder}.{name}")
    except ModuleNotFoundError as e:
        if e.name == f"{folder}.{name}":
            return None
        raise


class UnknownHost(LookupError):
    """A tool name hooksim has no profile for; ``str()`` says which names exist."""


def get_host(name: str) -> Host:
    """The profile for ``name``; an unknown name raises UnknownHost naming those that exist."""
    if name in HOSTS:
        return HOSTS[name]
    raise UnknownHost(f"unknown tool {name!r} (hooksim knows: {', '.join(HOSTS)})")


__all__ = [
    "DEFAULT_HOST",
    "FOLDERS",
    "HOSTS",
    "LIFECYCLE",
    "ConfigError",
    "Firing",
    "HookRun",
    "HookSpec",
    "Host",
    "Plugin",
    "PluginHooks",
    "Session",
    "SessionInfo",
    "UnknownHost",
    "Verdict",
    "contains",
    "get_host",
    "part",
    "readings",
]
