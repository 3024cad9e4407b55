"""The registry: every folder's profile, and each host's own stage parts found from its profile."""

from __future__ import annotations

from hooksim.hosts import FOLDERS, HOSTS, part
from hooksim.hosts.openclaw.profile import OpenClaw


def test_every_folder_is_a_host_in_the_registrys_order() -> None:
    modules = [type(host).__module__ for host in HOSTS.values()]
    assert modules == [f"hooksim.hosts.{folder}.profile" for folder in FOLDERS]


def test_a_part_is_found_from_the_profile_or_one_made_from_it() -> None:
    """A test's mutant profile (a subclass in the test's module) still finds its host's parts."""

    class Mutant(OpenClaw):
        pass

    replay = part(HOSTS["openclaw"], "replay")
    assert replay is not None
    assert part(Mutant(), "replay") is replay


def test_a_part_the_folder_does_not_have_is_none() -> None:
    assert part(HOSTS["cursor"], "real") is None
    assert part(HOSTS["claude-code"], "replay") is None
