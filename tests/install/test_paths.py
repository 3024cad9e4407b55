"""Where the install tools look: Hermes' own rules for its home, root and profiles."""

from __future__ import annotations

from pathlib import Path

import pytest

from hermes_hooks.paths import (
    allowlist_path,
    config_path,
    hermes_root,
    profile_home,
    selected_home,
)


def test_files_in_a_home() -> None:
    """config.yaml and the allowlist sit in the Hermes home."""
    assert config_path("/h") == "/h/config.yaml"
    assert allowlist_path(Path("/h")) == "/h/shell-hooks-allowlist.json"


@pytest.mark.parametrize(
    ("hermes_home", "root"),
    [
        (None, "/u/.hermes"),
        ("/u/.hermes/profiles/coder", "/u/.hermes"),
        ("/opt/data", "/opt/data"),
        ("/opt/data/profiles/coder", "/opt/data"),
    ],
)
def test_root_follows_hermes(hermes_home: str | None, root: str) -> None:
    """The profiles root is ~/.hermes, or a custom HERMES_HOME (or its profile's grandparent)."""
    env = {"HOME": "/u"} | ({"HERMES_HOME": hermes_home} if hermes_home else {})
    assert hermes_root(env) == root


def test_profiles() -> None:
    """A profile lives under <root>/profiles, lower-cased; `default` is the root."""
    env = {"HOME": "/u"}
    assert profile_home(" Coder ", env) == "/u/.hermes/profiles/coder"
    assert profile_home("default", env) == "/u/.hermes"
    for bad in ("", "-x", "a/b", "x" * 65):
        with pytest.raises(ValueError, match="invalid profile name"):
            profile_home(bad, env)


def test_selected_home_order() -> None:
    """--hermes-home wins, then --profile, then $HERMES_HOME, then ~/.hermes."""
    env = {"HOME": "/u", "HERMES_HOME": "/env"}
    assert selected_home("/flag", None, env) == "/flag"
    assert selected_home(None, "p", env) == "/env/profiles/p"
    assert selected_home(None, None, env) == "/env"
    assert selected_home(None, None, {"HOME": "/u"}) == "/u/.hermes"
