"""Where Hermes keeps its files, and where we keep ours inside it.

Paths are plain strings (``os.path``): this module is on the hook's per-turn import path, and
``pathlib`` alone would add about a fifth to the hook's start-up time.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

STATE_FILENAME = ".hive-mind-last-compact"


def _home_dir(env: Mapping[str, str]) -> str:
    return env.get("HOME") or os.path.expanduser("~")


def hermes_home(env: Mapping[str, str] | None = None) -> str:
    """``$HERMES_HOME`` when set (a Hermes profile sets it), else ``~/.hermes``.

    Hermes resolves its home the same way (``hermes_constants.get_hermes_home``).
    """
    env = os.environ if env is None else env
    explicit = env.get("HERMES_HOME")
    if explicit:
        return os.path.expanduser(explicit)
    return os.path.join(_home_dir(env), ".hermes")


def compact_state_path(home: str | os.PathLike[str] | None = None) -> str:
    """The file that remembers the last compaction: ``<hermes home>/.hive-mind-last-compact``."""
    return os.path.join(hermes_home() if home is None else os.fspath(home), STATE_FILENAME)


CONFIG_FILENAME = "config.yaml"
ALLOWLIST_FILENAME = "shell-hooks-allowlist.json"
PROFILE_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")


def hermes_root(env: Mapping[str, str] | None = None) -> str:
    """The directory that holds ``profiles/``, as Hermes computes it (``get_default_hermes_root``).

    ``~/.hermes`` unless ``$HERMES_HOME`` lies outside it: then ``$HERMES_HOME`` itself, or its
    grandparent when it is ``<root>/profiles/<name>`` (a container layout such as ``/opt/data``).
    """
    env = os.environ if env is None else env
    native = os.path.join(_home_dir(env), ".hermes")
    explicit = env.get("HERMES_HOME")
    if not explicit:
        return native
    explicit = os.path.expanduser(explicit)
    resolved, native_resolved = os.path.realpath(explicit), os.path.realpath(native)
    if resolved == native_resolved or resolved.startswith(native_resolved + os.sep):
        return native
    parent = os.path.dirname(os.path.normpath(explicit))
    if os.path.basename(parent) == "profiles":
        return os.path.dirname(parent)
    return explicit


def profile_home(name: str, env: Mapping[str, str] | None = None) -> str:
    """The Hermes home of profile NAME (``hermes -p NAME``): ``<root>/profiles/<name>``.

    Hermes lower-cases the name, and ``default`` is the root itself. Raises ValueError, with the
    message to show, for a name Hermes would refuse (``[a-z0-9][a-z0-9_-]{0,63}``).
    """
    canon = name.strip().lower()
    if canon == "default":
        return hermes_root(env)
    if not (0 < len(canon) <= 64 and canon[0] not in "_-" and set(canon) <= PROFILE_NAME_CHARS):
        raise ValueError(
            f"invalid profile name {name!r}: Hermes profile names match [a-z0-9][a-z0-9_-]{{0,63}}"
        )
    return os.path.join(hermes_root(env), "profiles", canon)


def config_path(home: str | os.PathLike[str]) -> str:
    """The Hermes config file of a home: ``<hermes home>/config.yaml``."""
    return os.path.join(os.fspath(home), CONFIG_FILENAME)


def allowlist_path(home: str | os.PathLike[str]) -> str:
    """Hermes' record of approved shell hooks: ``<hermes home>/shell-hooks-allowlist.json``."""
    return os.path.join(os.fspath(home), ALLOWLIST_FILENAME)


def selected_home(
    home: str | None = None, profile: str | None = None, env: Mapping[str, str] | None = None
) -> str:
    """The home the install tools act on: ``--hermes-home``, else ``--profile``, else ``hermes_home``."""
    if home:
        return os.path.abspath(os.path.expanduser(home))
    if profile is not None:
        return profile_home(profile, env)
    return hermes_home(env)
