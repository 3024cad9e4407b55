"""``hooksim conformance HOST --versions V1,V2``: releases of a real host against their profiles.

Each release is installed from npm into hooksim's cache (``real.install``; never globally),
then every scenario is run on it for real and replayed by hooksim as that release behaved
(the profile at ``hosts.HOST.version``), as ``compare --real`` does. A table of what the runs
showed, release by release, closes the output (``real.facts``); ``--update FILE`` writes it
into FILE between the markers of this host, so a page of the docs carries the latest one.

The exit status is 0 only when every release ran every scenario with its expectations met and
no difference from the replay outside the profile's tolerances.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import sys
import time
from dataclasses import replace
from pathlib import Path

from ..hosts import UnknownHost, get_host
from ..real.compare import compare_real
from ..real.driver import Driver, RealHostError
from ..real.facts import ReleaseRun, ScenarioRun, table
from ..real.install import InstallError, default_cache, install_release, node_version
from ..real.session import DRIVERS
from ..scenario import ScenarioError, find_scenarios, load_scenario
from ..scenario.model import HostPart
from . import AddParser, CommandError
from .real import check

# The drivers of hosts that ship on npm (Hermes is a Python package).
NPM_HOSTS = {name: d for name, d in DRIVERS.items() if d.package.startswith("@")}
SECTION_START = "<!-- hooksim conformance {host} -->"
SECTION_END = "<!-- end hooksim conformance {host} -->"


def register(add_parser: AddParser) -> None:
    parser = add_parser(
        "conformance",
        help="install releases of a real host and compare each with its profile, fact by fact",
    )
    parser.add_argument("host", help=f"the host ({', '.join(NPM_HOSTS)})")
    parser.add_argument(
        "paths",
        nargs="*",
        default=["scenarios/probes", "scenarios/across"],
        help="scenario files or folders, before the options; those that run on HOST are used"
        " (default: scenarios/probes scenarios/across)",
    )
    parser.add_argument(
        "--versions", required=True, metavar="V1,V2", help="the releases to install and run"
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
    try:
        driver, versions, paths = _checked(args)
    except CommandError as e:  # nothing ran: a usage error
        print(f"hooksim: {e}", file=sys.stderr)
        return 2
    cache = (args.cache or default_cache()).absolute()  # the host runs in a folder of its own
    releases: list[ReleaseRun] = []
    for version in versions:
        releases.append(_release(driver, version, paths, cache))
        if args.update is not None:  # after each release: a long run keeps what it found
            _update(args.update, driver.name, _section(driver, releases, paths))
    print(_section(driver, releases, paths), end="")
    if args.update is not None:
        print(f"hooksim: updated the {driver.name} table in {args.update}")
    return 1 if any(r.failing for r in releases) else 0


def _checked(args: argparse.Namespace) -> tuple[type[Driver], list[str], list[Path]]:
    """The host's driver, its releases and the scenario files, or CommandError with the line."""
    try:
        host = get_host(args.host)
    except UnknownHost as e:
        raise CommandError(str(e)) from None
    driver = NPM_HOSTS.get(host.name)
    if driver is None:
        raise CommandError(f"conformance installs releases from npm: {', '.join(NPM_HOSTS)};"
                           f" not {host.name}")  # fmt: skip
    versions = [v.strip().removeprefix("v") for v in str(args.versions).split(",") if v.strip()]
    if not versions:
        raise CommandError("--versions: give one or more releases, such as 1.2.3,1.4.0")
    for version in versions:
        if not re.fullmatch(r"\d+\.\d+\.\d+", version):
            raise CommandError(f"--versions: {version!r} is not a release like 1.2.3")
        try:
            host.at_version(version)
        except ValueError as e:
            raise CommandError(f"--versions: {e}") from None
    paths = [p for p in find_scenarios(args.paths) if _runs_on(p, host.name)]
    if not paths:
        raise CommandError(f"no scenario in {' '.join(args.paths)} runs on {host.name}")
    return driver, versions, paths


def _runs_on(path: Path, host: str) -> bool:
    """Whether a scenario file runs on ``host`` (one that cannot be read is run, to say why)."""
    try:
        return host in load_scenario(path).tools()
    except ScenarioError:
        return True


def _release(driver: type[Driver], version: str, paths: list[Path], cache: Path) -> ReleaseRun:
    """One release: installed (or found in the cache), then every scenario on it."""
    try:
        installed = install_release(driver, version, cache)
    except InstallError as e:
        print(f"hooksim: {driver.name} {version}: {e}", file=sys.stderr)
        return ReleaseRun(version, error=str(e))
    release = ReleaseRun(version, installed)
    for path in paths:
        run = _scenario(driver.name, version, path, str(installed.binary))
        release.runs.append(run)
        verdict = "ERROR" if run.error else "FAIL" if (run.failures or (
            run.comparison and run.comparison.failing)) else "PASS"  # fmt: skip
        print(f"{verdict:<5} {path} [{driver.name} {version}]  ({run.seconds:.1f}s)", flush=True)
    return release


def _scenario(host: str, version: str, path: Path, binary: str) -> ScenarioRun:
    """One scenario on one release, compared with the replay of that release."""
    started = time.monotonic()
    try:
        scenario = load_scenario(path)
        part = scenario.hosts.get(host, HostPart())
        scenario = replace(scenario, hosts={**scenario.hosts, host: replace(part, version=version)})
        comparison = compare_real(scenario, host, binary)
    except (ScenarioError, RealHostError, ValueError) as e:
        return ScenarioRun(str(path), error=str(e), seconds=time.monotonic() - started)
    return ScenarioRun(str(path), comparison, check(comparison.real),
                       seconds=time.monotonic() - started)  # fmt: skip


def _section(driver: type[Driver], releases: list[ReleaseRun], paths: list[Path]) -> str:
    """This host's part of the page: how it was made, then the table."""
    versions = ",".join(r.version for r in releases)
    today = dt.datetime.now(dt.timezone.utc).date().isoformat()
    files = " ".join(str(p) for p in paths)
    return (
        f"`hooksim conformance {driver.name} --versions {versions}` ({driver.package}, Node"
        f" {node_version()}, {today}) on {files}:\n\n{table(releases)}"
    )


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
