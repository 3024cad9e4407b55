"""``hooksim conformance HOST --latest`` / ``--next``: the newest release (or pre-release) the
registry names, run and compared with the newest release of the host's table in a page; exit 1
naming each fact that changed, or 0 and "no change against VERSION".

A fake ``npm`` on PATH (a real process) answers ``npm view PACKAGE dist-tags --json`` from
``FAKE_DIST_TAGS`` and "installs" a stub Gemini CLI that fires ``SessionEnd`` only from 0.30.0
on; a fake ``pip`` answers ``pip index versions`` from ``FAKE_PIP_VERSIONS``. The page the
canary compares with is written by ``hooksim conformance --versions --update``, or by hand.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

SCENARIO = """\
name: one release
tool: gemini-cli
hosts:
  gemini-cli: {launch: headless}
hooks:
  BeforeAgent:
    - hooks: [{type: command, command: "echo before-agent-context"}]
turns:
  - {user: hello, assistant: Hi.}
"""

# Runs the hooks of ~/.gemini/settings.json for one `gemini -p` run, as a release would.
STUB_GEMINI = """\
#!{python}
import json, os, re, subprocess, sys
VERSION = "@VERSION@"
if sys.argv[1:] == ["--version"]:
    print(VERSION)
    sys.exit(0)
settings = json.load(open(os.path.expanduser("~/.gemini/settings.json")))
prompt = sys.argv[sys.argv.index("-p") + 1]
def fire(event, **fields):
    payload = dict(session_id="s-1", transcript_path="", cwd=os.getcwd(),
                   hook_event_name=event, timestamp="2026-01-01T00:00:00Z", **fields)
    for group in settings["hooks"].get(event, []):
        for hook in group["hooks"]:
            done = subprocess.run(["/bin/sh", "-c", hook["command"]], input=json.dumps(payload),
                                  text=True, capture_output=True)
            # Gemini CLI's own account of the run: a hook_call telemetry record.
            with open(settings["telemetry"]["outfile"], "a") as telemetry:
                json.dump({{"attributes": {{"event.name": "gemini_cli.hook_call",
                           "hook_event_name": event, "hook_name": hook["command"],
                           "exit_code": done.returncode, "stdout": done.stdout,
                           "stderr": done.stderr, "duration_ms": 1}}}}, telemetry, indent=2)
fire("SessionStart", source="startup")
fire("BeforeAgent", prompt=prompt)
fire("AfterAgent", prompt=prompt, prompt_response="Hi.", stop_hook_active=False)
if tuple(int(p) for p in re.match(r"[0-9.]+", VERSION).group(0).split(".")) >= (0, 30, 0):
    fire("SessionEnd", reason="exit")
print(json.dumps({{"response": "Hi."}}))
"""

FAKE_NPM = """\
#!{python}
import json, os, sys
from pathlib import Path
args = sys.argv[1:]
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(json.dumps(["npm", *args]) + "\\n")
if args[0] == "view":
    print(os.environ["FAKE_DIST_TAGS"])
    sys.exit(0)
prefix = Path(args[args.index("--prefix") + 1])
name, _, version = args[-1].rpartition("@")
package = prefix / "node_modules" / name
package.mkdir(parents=True)
(package / "package.json").write_text(json.dumps({{"name": name, "engines": {{"node": ">=20"}}}}))
stub = package / "gemini.py"
stub.write_text(Path(os.environ["FAKE_GEMINI"]).read_text().replace("@VERSION@", version))
stub.chmod(0o755)
(prefix / "node_modules" / ".bin").mkdir()
(prefix / "node_modules" / ".bin" / "gemini").symlink_to(Path("..") / name / "gemini.py")
"""

FAKE_PIP = """\
#!{python}
import json, os, sys
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(json.dumps(["pip", *sys.argv[1:]]) + "\\n")
versions = os.environ["FAKE_PIP_VERSIONS"]
print(f"hermes-agent ({{versions.split(',')[0]}})")
print(f"Available versions: {{versions}}")
"""


@pytest.fixture
def world(tmp_path: Path) -> dict[str, object]:
    """A PATH whose ``npm`` and ``pip`` are the fakes, a scenario file, and the cache."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("npm", FAKE_NPM), ("pip", FAKE_PIP)):
        (bin_dir / name).write_text(text.format(python=sys.executable))
        (bin_dir / name).chmod(0o755)
    stub = tmp_path / "stub-gemini.py"
    stub.write_text(STUB_GEMINI.format(python=sys.executable))
    (tmp_path / "one-release.yaml").write_text(SCENARIO)
    (tmp_path / "home").mkdir()
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(tmp_path / "home"),
        "FAKE_LOG": str(tmp_path / "calls.log"),
        "FAKE_GEMINI": str(stub),
        "FAKE_DIST_TAGS": json.dumps({"latest": "0.30.0"}),
    }
    return {"env": env, "cwd": tmp_path, "cache": str(tmp_path / "cache")}


def hooksim(world: dict[str, object], *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {**world["env"], **extra}  # type: ignore[dict-item]
    return subprocess.run(
        [sys.executable, "-m", "hooksim", "conformance", *args, "--cache", str(world["cache"])],
        capture_output=True,
        text=True,
        env=env,
        cwd=world["cwd"],
        timeout=600,
        check=False,
    )


def calls(world: dict[str, object]) -> list[list[str]]:
    log = Path(str(world["cwd"])) / "calls.log"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def record(world: dict[str, object], versions: str) -> Path:
    """A page holding the Gemini CLI table of ``versions``, as --update writes it."""
    page = Path(str(world["cwd"])) / "host-versions.md"
    page.write_text("# Host releases\n")
    done = hooksim(
        world, "gemini-cli", "one-release.yaml", "--versions", versions, "--update", str(page)
    )
    assert done.stderr == ""
    return page


def test_latest_with_nothing_changed_says_so_and_exits_0(world: dict[str, object]) -> None:
    """The latest dist-tag is installed and run on the table's own scenario files; every fact
    as in the table's newest column: one line, exit 0."""
    page = record(world, "0.25.0,0.30.0")
    done = hooksim(world, "gemini-cli", "--latest", "--against", str(page))
    assert done.stderr == ""
    progress, verdict = done.stdout.splitlines()  # a line per scenario, then the verdict
    assert progress.startswith("FAIL  one-release.yaml [gemini-cli 0.30.0]  (")
    # The stub is no Gemini CLI: its line says why the scenario fails on it.
    assert re.search(r"s\): \S.* \(\+\d+ more\)$", progress), progress
    assert verdict == "no change against 0.30.0"
    assert done.returncode == 0
    assert ["npm", "view", "@google/gemini-cli", "dist-tags", "--json"] in calls(world)


def test_a_fact_that_changed_exits_1_and_is_named(world: dict[str, object]) -> None:
    """The table's newest release is 0.25.0 (no SessionEnd); the latest, 0.30.0, fires it:
    exit 1, and the fact is named with its recorded and its new value."""
    page = record(world, "0.25.0")
    done = hooksim(world, "gemini-cli", "--latest", "--against", str(page))
    changed = done.stdout.splitlines()[1:]  # after the scenario's line
    # The stub is no Gemini CLI: its new event also adds differences from the replay.
    assert changed[0] == f"gemini-cli 0.30.0: 7 facts changed against 0.25.0 ({page}):"
    assert {
        "  SessionEnd payload: - -> cwd, hook_event_name, reason, session_id, timestamp,"
        " transcript_path",
        "  fires: SessionEnd: no -> yes",
        "  scenario: one-release.yaml: 15 differences -> 18 differences",
    } <= set(changed[1:])
    assert len(changed) == 8
    assert done.returncode == 1


def test_a_fact_edited_in_the_table_is_a_change(world: dict[str, object]) -> None:
    """The same release as the table's, but one cell of the table says otherwise: the
    comparison says different, naming that fact."""
    page = record(world, "0.30.0")
    text = page.read_text()
    assert "| fires: BeforeAgent | yes | every release |" in text
    page.write_text(text.replace("| fires: BeforeAgent | yes |", "| fires: BeforeAgent | no |"))
    done = hooksim(world, "gemini-cli", "--latest", "--against", str(page))
    assert done.stdout.splitlines()[-2:] == [
        f"gemini-cli 0.30.0: 1 fact changed against 0.30.0 ({page}):",
        "  fires: BeforeAgent: no -> yes",
    ]
    assert done.returncode == 1


def test_next_runs_the_next_or_beta_tag(world: dict[str, object]) -> None:
    """--next takes npm's beta tag when there is no next tag, a pre-release name and all."""
    page = record(world, "0.30.0")
    tags = json.dumps({"latest": "0.30.0", "beta": "0.31.0-preview.2"})
    done = hooksim(world, "gemini-cli", "--next", "--against", str(page), FAKE_DIST_TAGS=tags)
    assert done.stderr == ""
    assert done.stdout.splitlines()[-1] == "no change against 0.30.0"
    assert (Path(str(world["cache"])) / "gemini-cli" / "0.31.0-preview.2").is_dir()
    assert done.returncode == 0


def test_next_without_a_pre_release_is_one_line_and_exit_0(world: dict[str, object]) -> None:
    """A host with only a latest tag has nothing to check for --next: it says so, installs
    nothing."""
    page = record(world, "0.30.0")
    before = len(calls(world))
    done = hooksim(world, "gemini-cli", "--next", "--against", str(page))
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "no pre-release of gemini-cli on npm (no next or beta tag)\n",
        "",
    )
    assert [c[1] for c in calls(world)[before:]] == ["view"]


def test_hermes_latest_asks_the_package_index_and_a_failed_install_is_a_change(
    world: dict[str, object],
) -> None:
    """Hermes' newest final release comes from ``pip index versions`` (a pre-release listed
    first is passed over); pip cannot install it offline: the canary names the install as
    the change, and leaves no venv in the cache."""
    page = Path(str(world["cwd"])) / "host-versions.md"
    page.write_text(
        "<!-- hooksim conformance hermes -->\n`hooksim conformance hermes --versions 0.19.0`"
        " (hermes-agent, Python 3.11.7, 2026-12-01) on one-release.yaml:\n\n"
        "| fact | 0.19.0 | holds from |\n|---|---|---|\n"
        "| scenarios passing | 1 of 1 | every release |\n"
        "<!-- end hooksim conformance hermes -->\n"
    )
    done = hooksim(
        world,
        "hermes",
        "scenarios/probes/hermes-tools-and-blocks.yaml",
        "--latest",
        "--against",
        str(page),
        FAKE_PIP_VERSIONS="0.20.0rc1, 0.19.0, 0.18.2",
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS="",
    )
    assert ["pip", "index", "versions", "hermes-agent", "--disable-pip-version-check"] in calls(
        world
    )
    assert done.stderr.startswith(
        "hooksim: hermes 0.19.0: pip could not install hermes-agent==0.19.0 (exit 1): "
    )
    lines = done.stdout.splitlines()
    assert lines[-3] == f"hermes 0.19.0: 2 facts changed against 0.19.0 ({page}):"
    assert lines[-2].startswith("  installed: - -> no: pip could not install hermes-agent==")
    assert lines[-1] == "  scenarios passing: 1 of 1 -> -"
    assert not (Path(str(world["cache"])) / "hermes" / "0.19.0").exists()
    assert done.returncode == 1


@pytest.mark.parametrize(
    ("listed", "said"),
    [
        ("0.19.0, 0.18.2", "no pre-release of hermes on the package index\n"),
        ("0.19.0, 0.19.0rc2, 0.18.2", "no pre-release of hermes on the package index\n"),
    ],
)
def test_hermes_next_without_a_newer_pre_release_is_one_line(
    world: dict[str, object], listed: str, said: str
) -> None:
    """--next asks ``pip index versions --pre``; a pre-release older than the newest final
    one is none to check: one line, exit 0, nothing installed."""
    page = Path(str(world["cwd"])) / "host-versions.md"
    page.write_text(
        "<!-- hooksim conformance hermes -->\n| fact | 0.19.0 | holds from |\n|---|---|---|\n"
        "| scenarios passing | 1 of 1 | every release |\n<!-- end hooksim conformance hermes -->\n"
    )
    done = hooksim(world, "hermes", "--next", "--against", str(page), FAKE_PIP_VERSIONS=listed)
    assert (done.returncode, done.stdout, done.stderr) == (0, said, "")
    assert calls(world) == [
        ["pip", "index", "versions", "hermes-agent", "--disable-pip-version-check", "--pre"]
    ]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["gemini-cli", "--latest", "--against", "missing.md"],
            "hooksim: --against: cannot read missing.md (No such file or directory)",
        ),
        (
            ["gemini-cli", "--latest", "--against", "one-release.yaml"],
            "hooksim: --against: one-release.yaml has no gemini-cli table; write one with"
            " hooksim conformance gemini-cli --versions V1,V2 --update one-release.yaml",
        ),
        (
            ["gemini-cli", "--latest", "--update", "x.md"],
            "hooksim: --update goes with --versions: --latest and --next only compare",
        ),
    ],
)
def test_a_canary_without_a_table_is_one_line(
    world: dict[str, object], args: list[str], line: str
) -> None:
    """No page, or no table of the host in it: exit 2, one line, the registry never asked."""
    done = hooksim(world, *args)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", line + "\n")
    assert calls(world) == []


ROOT = Path(__file__).parents[2]


def test_every_host_of_the_nightly_canary_has_a_table_to_compare_with(
    world: dict[str, object],
) -> None:
    """Each host of the canary workflow's matrix finds its table in docs/host-versions.md and
    asks its registry (here a fake that answers nothing usable): exit 2 and that one line."""
    workflow = yaml.safe_load((ROOT / "docs/examples/ci/canary.yml").read_text())
    job = workflow["jobs"]["latest"]
    assert workflow[True]["schedule"] == [{"cron": "17 3 * * *"}]  # YAML's `on` is True
    assert job["steps"][-1]["run"] == (
        "hooksim conformance ${{ matrix.host }} ${{ matrix.release }}"
        " --against docs/host-versions.md"
    )
    said = {}
    for host in job["strategy"]["matrix"]["host"]:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "hooksim",
                "conformance",
                host,
                "--latest",
                "--against",
                "docs/host-versions.md",
                "--cache",
                str(world["cache"]),
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=600,
            check=False,
            env={**world["env"], "FAKE_DIST_TAGS": "{}", "FAKE_PIP_VERSIONS": ""},  # type: ignore[dict-item]
        )
        said[host] = (done.returncode, done.stderr.split(": ", 2)[-1])
    assert said == {
        "claude-code": (2, "npm view @anthropic-ai/claude-code dist-tags: no 'latest' tag in {}\n"),
        "codex": (2, "npm view @openai/codex dist-tags: no 'latest' tag in {}\n"),
        "gemini-cli": (2, "npm view @google/gemini-cli dist-tags: no 'latest' tag in {}\n"),
        "hermes": (2, "pip index versions hermes-agent: no release listed\n"),
        "openclaw": (2, "npm view openclaw dist-tags: no 'latest' tag in {}\n"),
    }


@pytest.mark.parametrize(
    ("host", "answer"),
    [
        ("gemini-cli", {"FAKE_DIST_TAGS": json.dumps({"latest": ".."})}),
        ("gemini-cli", {"FAKE_DIST_TAGS": json.dumps({"latest": "../../victim"})}),
        ("gemini-cli", {"FAKE_DIST_TAGS": json.dumps({"latest": "1.0.0\x1b]0;TITLE\x07"})}),
        ("hermes", {"FAKE_PIP_VERSIONS": "../../victim, 0.19.0"}),
    ],
    ids=["dot-dot", "a-path", "escapes", "pip-path"],
)
def test_a_registry_answer_that_is_not_a_release_name_touches_no_folder(
    host: str, answer: dict[str, str], world: dict[str, object], tmp_path: Path
) -> None:
    """A registry (or mirror) answering `..` or a path: refused in one line, exit 2, the
    cache and every folder outside it as they were."""
    cache = Path(str(world["cache"]))
    (cache / "codex" / "0.1.0").mkdir(parents=True)
    (cache / "codex" / "0.1.0" / "KEEP").write_text("keep")
    (cache / "SENTINEL").write_text("keep")
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "PRECIOUS").write_text("keep")
    scenario = "one-release.yaml"
    if host == "hermes":
        scenario = "hermes.yaml"
        (tmp_path / scenario).write_text(
            "name: h\ntool: hermes\nturns:\n  - {user: hi, assistant: ok}\n"
        )
    page = Path(__file__).parents[2] / "docs" / "host-versions.md"
    which = "--next" if "FAKE_PIP_VERSIONS" in answer else "--latest"
    done = hooksim(world, host, scenario, which, "--against", str(page), **answer)
    assert done.returncode == 2, done.stdout + done.stderr
    [line] = done.stderr.splitlines()
    assert "is not a release name" in line
    assert "\x1b" not in line
    assert (cache / "codex" / "0.1.0" / "KEEP").read_text() == "keep"
    assert (cache / "SENTINEL").read_text() == "keep"
    assert (victim / "PRECIOUS").read_text() == "keep"


def test_a_release_folder_is_never_removed_through_a_link(
    world: dict[str, object], tmp_path: Path
) -> None:
    """A link planted where the release goes (to a folder outside) is replaced by the release
    itself: what it pointed at is never removed nor written into."""
    cache = Path(str(world["cache"]))
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "PRECIOUS").write_text("keep")
    (cache / "gemini-cli").mkdir(parents=True)
    (cache / "gemini-cli" / "0.30.0").symlink_to(outside)
    page = Path(__file__).parents[2] / "docs" / "host-versions.md"
    hooksim(world, "gemini-cli", "one-release.yaml", "--latest", "--against", str(page))
    assert sorted(p.name for p in outside.iterdir()) == ["PRECIOUS"]
    assert (outside / "PRECIOUS").read_text() == "keep"
    assert not (cache / "gemini-cli" / "0.30.0").is_symlink()
