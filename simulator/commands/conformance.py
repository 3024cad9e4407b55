"""``hooksim conformance HOST --versions V1,V2``: releases of a real host against their profiles.

Each release is installed from its registry into hooksim's cache (``real.install``: npm, or a
venv for a Python package; never globally), then every scenario is run on it for real and
replayed by hooksim as that release behaved (the profile at ``hosts.HOST.version``; a profile
that models one release replays that one), as ``compare --real`` does. A table of what the
runs showed, release by release, closes the output (``real.facts``); ``--update FILE`` writes it
into FILE between the markers of this host, so a page of the docs carries the latest one. The
exit status is 0 only when every release ran every scenario with its expectations met and no
difference from the replay outside the profile's tolerances.

``--latest`` (``--next``: a pre-release, where the host publishes one) is the canary of a new
release: it asks the registry for the newest one (``real.releases``), runs it on the scenario
files of the host's table in ``--against FILE`` (docs/host-versions.md), and compares its facts
with the newest release of that table. The exit status is 1, naming each fact that changed,
or 0 with "no change against VERSION".

A host's driver may also read facts from the installed release itself, outside any scenario
(``release_checks``): for Hermes, which hooks the release's own parser reads from what
``hermes-hooks install`` writes, and what ``hermes-hooks verify`` says after the release
consented to them. They are rows of the table like the others.
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import re
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ..hosts import UnknownHost, get_host
from ..hosts.profile import Host
from ..printable import one_line
from ..real.compare import compare_real
from ..real.driver import Driver, RealHostError
from ..real.facts import Recorded, ReleaseRun, ScenarioRun, changes, column, recorded, table
from ..real.install import (
    InstallError,
    Source,
    default_cache,
    install_release,
    node_version,
    source_of,
)
from ..real.releases import newest
from ..real.session import DRIVERS
from ..scenario import ScenarioError, find_scenarios, load_scenario
from ..scenario.model import HostPart
from . import AddParser, CommandError
from .real import check

# The drivers of hosts whose releases hooksim can install.
RELEASED = {name: d for name, d in DRIVERS.items() if source_of(d) is not None}
DEFAULT_PATHS = ["scenarios/probes", "scenarios/across"]
RECORD = Path("docs/host-versions.md")
SECTION_START = "<!-- hooksim conformance {host} -->"
SECTION_END = "<!-- end hooksim conformance {host} -->"


def register(add_parser: AddParser) -> None:
    parser = add_parser("conformance")
    parser.add_argument("host", help=f"the host ({', '.join(RELEASED)})")
    parser.add_argument(
        "paths",
        nargs="*",
        help="scenario files or folders, before the options; those that run on HOST are used"
        " (default: scenarios/probes scenarios/across; with --latest or --next, the files of"
        " the host's table in --against)",
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--versions", metavar="V1,V2", help="the releases to install and run")
    which.add_argument(
        "--latest",
        action="store_true",
        help="the newest release on the registry, compared with the newest in --against",
    )
    which.add_argument(
        "--next",
        action="store_true",
        help="the newest pre-release (npm's next or beta tag, a pre-release on the package"
        " index), compared with the newest in --against",
    )
    parser.add_argument(
        "--against",
        metavar="FILE",
        type=Path,
        default=RECORD,
        help=f"the page holding the host's table, for --latest and --next (default: {RECORD})",
    )
    parser.add_argument(
        "--cache",
        metavar="DIR",
        type=Path,
        help="where releases are installed, DIR/HOST/VERSION (default: ~/.cache/hooksim/hosts)",
    )
    parser.add_argument(
        "--update", metavar="FILE", type=Path, help="write the table into FILE (this host's part)"
    )
    parser.set_defaults(func=conformance)


def conformance(args: argparse.Namespace) -> int:
    if args.latest or args.next:
        return _canary(args)
    try:
        host, driver, paths = _host_and_paths(args, args.paths or DEFAULT_PATHS)
        versions = _versions(host, str(args.versions))
    except CommandError as e:  # nothing ran: a usage error
        print(f"hooksim: {e}", file=sys.stderr)
        return 2
    cache = (args.cache or default_cache()).absolute()  # the host runs in a folder of its own
    releases: list[ReleaseRun] = []
    for version in versions:
        releases.append(_release(host, driver, version, paths, cache))
        if args.update is not None:  # after each release: a long run keeps what it found
            _update(args.update, driver.name, _section(driver, releases, paths))
    print(_section(driver, releases, paths), end="")
    if args.update is not None:
        print(f"hooksim: updated the {driver.name} table in {args.update}")
    return 1 if any(r.failing for r in releases) else 0


def _canary(args: argparse.Namespace) -> int:
    """The newest release (or pre-release) against the newest of the host's table: 1 and each
    fact that changed, or 0 and "no change"."""
    try:
        if args.update is not None:
            raise CommandError("--update goes with --versions: --latest and --next only compare")
        host, driver, _ = _host_and_paths(args, None)
        record = _record(args.against, driver.name)
        given = args.paths or record.paths or DEFAULT_PATHS
        host, driver, paths = _host_and_paths(args, given)
        source = source_of(driver)
        assert source is not None
        version = newest(source, pre=args.next)
    except CommandError as e:
        print(f"hooksim: {e}", file=sys.stderr)
        return 2
    except LookupError as e:
        print(f"hooksim: {driver.name}: {e}", file=sys.stderr)
        return 2
    if version is None:
        print(f"no pre-release of {driver.name} on {_registry(source)}")
        return 0
    cache = (args.cache or default_cache()).absolute()
    release = _release(host, driver, version.removeprefix("v"), paths, cache)
    changed = changes(record.facts, column(release))
    if not changed:
        print(f"no change against {record.version}")
        return 0
    facts = "1 fact" if len(changed) == 1 else f"{len(changed)} facts"
    print(
        f"{driver.name} {release.version}: {facts} changed against {record.version}"
        f" ({args.against}):"
    )
    for line in changed:
        print(f"  {line}")
    return 1


def _registry(source: Source) -> str:
    return "npm (no next or beta tag)" if source.registry == "npm" else "the package index"


def _record(page: Path, host: str) -> Recorded:
    """The host's table in ``page``, read back; CommandError when there is none."""
    try:
        text = page.read_text(encoding="utf-8")
    except OSError as e:
        raise CommandError(f"--against: cannot read {page} ({e.strerror})") from None
    found = recorded(text, SECTION_START.format(host=host), SECTION_END.format(host=host))
    if found is None:
        raise CommandError(
            f"--against: {page} has no {host} table; write one with"
            f" hooksim conformance {host} --versions V1,V2 --update {page}"
        )
    return found


def _host_and_paths(
    args: argparse.Namespace, given: list[str] | None
) -> tuple[Host, type[Driver], list[Path]]:
    """The host, its driver and the scenario files of ``given`` that run on it (none asked
    for: no files), or CommandError with the line."""
    try:
        host = get_host(args.host)
    except UnknownHost as e:
        raise CommandError(str(e)) from None
    driver = RELEASED.get(host.name)
    if driver is None:
        raise CommandError(
            f"conformance installs releases of {', '.join(RELEASED)}; not {host.name}"
        )
    if given is None:
        return host, driver, []
    wanted: list[str | Path] = [*given]
    paths = [p for p in find_scenarios(wanted) if _runs_on(p, host.name)]
    if not paths:
        raise CommandError(f"no scenario in {' '.join(given)} runs on {host.name}")
    return host, driver, paths


def _versions(host: Host, given: str) -> list[str]:
    """The releases of ``--versions``, each one hooksim can replay, or CommandError."""
    versions = [v.strip().removeprefix("v") for v in given.split(",") if v.strip()]
    if not versions:
        raise CommandError("--versions: give one or more releases, such as 1.2.3,1.4.0")
    for version in versions:
        if not re.fullmatch(r"\d+\.\d+\.\d+", version):
            raise CommandError(f"--versions: {version!r} is not a release like 1.2.3")
        if _models_versions(host):
            try:
                host.at_version(version)
            except ValueError as e:
                raise CommandError(f"--versions: {e}") from None
    return versions


def _models_versions(host: Host) -> bool:
    """Whether the profile replays older releases (``at_version``); one that models a single
    release replays that one for each."""
    return type(host).at_version is not Host.at_version


def _replayed_as(host: Host, version: str) -> str | None:
    """The version hooksim replays a release as: its numbers (a pre-release's too) when the
    profile models them, else the profile as it stands (None: a single-release profile, or a
    release newer than it knows, whose baseline is then the newest it models)."""
    numbers = re.match(r"\d+\.\d+\.\d+", version)
    if numbers is None or not _models_versions(host):
        return None
    try:
        host.at_version(numbers.group(0))
    except ValueError:
        return None
    return numbers.group(0)


def _runs_on(path: Path, host: str) -> bool:
    """Whether a scenario file runs on ``host`` (one that cannot be read is run, to say why)."""
    try:
        return host in load_scenario(path).tools()
    except ScenarioError:
        return True


def _release(
    host: Host, driver: type[Driver], version: str, paths: list[Path], cache: Path
) -> ReleaseRun:
    """One release: installed (or found in the cache), then every scenario on it."""
    try:
        installed = install_release(driver, version, cache)
    except InstallError as e:
        print(f"hooksim: {driver.name} {version}: {e}", file=sys.stderr)
        return ReleaseRun(version, error=str(e))
    release = ReleaseRun(version, installed, checks=_checks(driver, installed.binary))
    for path in paths:
        run = _scenario(driver.name, _replayed_as(host, version), path, str(installed.binary))
        release.runs.append(run)
        why = _why(run)
        verdict = "ERROR" if run.error else "FAIL" if why else "PASS"
        said = f": {why}" if why else ""
        print(
            f"{verdict:<5} {path} [{driver.name} {version}]  ({run.seconds:.1f}s){said}", flush=True
        )
    return release


def _why(run: ScenarioRun) -> str:
    """Why a scenario did not pass on a release, in one line ("": it passed): the error, else
    the first failed expectation, else the first difference outside the tolerances, and how
    many more there are."""
    failing = run.comparison.failing if run.comparison is not None else []
    said = [run.error] if run.error else [*run.failures, *(d.line() for d in failing)]
    if not said:
        return ""
    more = f" (+{len(said) - 1} more)" if len(said) > 1 else ""
    return one_line(said[0])[:200] + more


def _checks(driver: type[Driver], binary: Path) -> dict[str, str]:
    """The facts the driver reads from the installed release itself (its ``release_checks``,
    given the release's executable), by row name; none for a driver without them."""
    checks: Callable[[Path], dict[str, str]] | None = getattr(driver, "release_checks", None)
    return checks(binary) if checks is not None else {}


def _scenario(host: str, version: str | None, path: Path, binary: str) -> ScenarioRun:
    """One scenario on one release, compared with the replay of that release (``version``;
    None: of the profile as it stands)."""
    started = time.monotonic()
    try:
        scenario = load_scenario(path)
        if version is not None:
            part = scenario.hosts.get(host, HostPart())
            hosts = {**scenario.hosts, host: replace(part, version=version)}
            scenario = replace(scenario, hosts=hosts)
        comparison = compare_real(scenario, host, binary)
    except (ScenarioError, RealHostError, ValueError) as e:
        return ScenarioRun(str(path), error=str(e), seconds=time.monotonic() - started)
    return ScenarioRun(
        str(path), comparison, check(comparison.real), seconds=time.monotonic() - started
    )


def _section(driver: type[Driver], releases: list[ReleaseRun], paths: list[Path]) -> str:
    """This host's part of the page: how it was made, then the table."""
    versions = ",".join(r.version for r in releases)
    today = dt.datetime.now(dt.timezone.utc).date().isoformat()
    files = " ".join(str(p) for p in paths)
    source = source_of(driver)
    assert source is not None
    return (
        f"`hooksim conformance {driver.name} --versions {versions}` ({source.package},"
        f" {_runtime(source, releases)}, {today}) on {files}:\n\n{table(releases)}"
    )


def _runtime(source: Source, releases: list[ReleaseRun]) -> str:
    """What ran the releases: the Python of their venvs, or the Node beside them or on PATH."""
    if source.registry == "pypi":
        return f"Python {platform.python_version()}"
    beside = [r.installed.binary.parent / "node" for r in releases if r.installed is not None]
    return f"Node {node_version(str(beside[0]) if beside and beside[0].exists() else 'node')}"


def _update(path: Path, host: str, text: str) -> None:
    """Replace this host's part of FILE (between its markers), or add it at the end."""
    start, end = SECTION_START.format(host=host), SECTION_END.format(host=host)
    try:
        page = path.read_text(encoding="utf-8")
    except OSError as e:
        raise CommandError(f"--update: cannot read {path} ({e.strerror})") from None
    block = f"{start}\n{text}{end}"
    if start in page and end in page:
        before, rest = page.split(start, 1)
        page = before + block + rest.split(end, 1)[1]
    else:
        page = page.rstrip("\n") + f"\n\n{block}\n"
    path.write_text(page, encoding="utf-8")
