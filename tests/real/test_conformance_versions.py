"""``hooksim conformance HOST --versions``: releases installed by npm into the cache, each run
and compared, and a table of facts by release; bad input and an npm failure are one line.

A fake ``npm`` on PATH (a real process) "installs" a stub Gemini CLI: a small script that runs
the hooks of its ``settings.json`` as ``gemini -p`` would, and fires ``SessionEnd`` only from
0.30.0 on, so the table must show that fact changing between the two releases.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hooksim.hosts import HOSTS

SCENARIO = """\
name: two releases
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
import json, os, subprocess, sys
VERSION = {version!r}
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
fire("SessionStart", source="resume" if "--resume" in sys.argv else "startup")
fire("BeforeAgent", prompt=prompt)
fire("AfterAgent", prompt=prompt, prompt_response="Hi.", stop_hook_active=False)
if tuple(int(p) for p in VERSION.split(".")) >= (0, 30, 0):
    fire("SessionEnd", reason="exit")
print(json.dumps({{"response": "Hi."}}))
"""

# npm install --prefix DIR ... @google/gemini-cli@VERSION: the stub and its package.json;
# FAKE_NPM_FAIL names a version it fails for, as the registry does for one it lacks.
FAKE_NPM = """\
#!{python}
import json, os, sys
from pathlib import Path
args = sys.argv[1:]
with open(os.environ["FAKE_NPM_LOG"], "a") as log:
    log.write(json.dumps(args) + "\\n")
prefix = Path(args[args.index("--prefix") + 1])
name, _, version = args[-1].rpartition("@")
if version == os.environ.get("FAKE_NPM_FAIL"):
    print("npm error code E404", file=sys.stderr)
    print(f"npm error 404 No match found for version {{version}}", file=sys.stderr)
    sys.exit(1)
package = prefix / "node_modules" / name
package.mkdir(parents=True)
(package / "package.json").write_text(json.dumps({{"name": name, "version": version,
                                                   "engines": {{"node": ">=20"}}}}))
stub = package / "gemini.py"
stub.write_text(Path(os.environ["FAKE_GEMINI"]).read_text().replace("@VERSION@", version))
stub.chmod(0o755)
(prefix / "node_modules" / ".bin").mkdir()
(prefix / "node_modules" / ".bin" / "gemini").symlink_to(Path("..") / name / "gemini.py")
"""


@pytest.fixture
def npm_world(tmp_path: Path) -> dict[str, object]:
    """A PATH whose ``npm`` is the fake, a scenario file, and the cache folder."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text(FAKE_NPM.format(python=sys.executable))
    npm.chmod(0o755)
    stub = tmp_path / "stub-gemini.py"
    stub.write_text(STUB_GEMINI.format(python=sys.executable, version="@VERSION@"))
    scenario = tmp_path / "two-releases.yaml"
    scenario.write_text(SCENARIO)
    home = tmp_path / "home"
    home.mkdir()
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(home),
        "FAKE_NPM_LOG": str(tmp_path / "npm.log"),
        "FAKE_GEMINI": str(stub),
    }
    return {
        "env": env,
        "scenario": scenario,
        "cache": tmp_path / "cache",
        "log": tmp_path / "npm.log",
        "cwd": tmp_path,
    }


def hooksim(world: dict[str, object], *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {**world["env"], **extra}  # type: ignore[dict-item]
    return subprocess.run(
        [sys.executable, "-m", "hooksim", "conformance", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=world["cwd"],
        timeout=600,
        check=False,
    )


def rows(table: str) -> dict[str, list[str]]:
    """The Markdown table's rows by their first cell."""
    found = {}
    for line in table.splitlines():
        if line.startswith("| ") and not line.startswith("| fact "):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            found[cells[0]] = cells[1:]
    return found


def test_each_release_is_installed_into_the_cache_and_its_facts_tabled(
    npm_world: dict[str, object],
) -> None:
    """Two releases go to CACHE/gemini-cli/VERSION; the table shows, per release, the events
    fired (SessionEnd only from 0.30.0), the payload keys and the hook output that reached the
    model, read from the runs; a second run finds both in the cache."""
    scenario, cache = str(npm_world["scenario"]), npm_world["cache"]
    assert isinstance(cache, Path)
    done = hooksim(
        npm_world, "gemini-cli", scenario, "--versions", "0.30.0,0.25.0", "--cache", str(cache)
    )
    assert done.stderr == ""
    for version in ("0.25.0", "0.30.0"):
        gemini = cache / "gemini-cli" / version / "node_modules" / ".bin" / "gemini"
        assert (
            subprocess.run([gemini, "--version"], capture_output=True, text=True, check=True).stdout
            == f"{version}\n"
        )
    assert sorted(p.name for p in (cache / "gemini-cli").iterdir()) == ["0.25.0", "0.30.0"]
    calls = [json.loads(line) for line in Path(str(npm_world["log"])).read_text().splitlines()]
    assert [c[-1] for c in calls] == ["@google/gemini-cli@0.30.0", "@google/gemini-cli@0.25.0"]
    assert all(c[:2] == ["install", "--prefix"] for c in calls)
    table = rows(done.stdout)
    assert table["--version says"] == ["0.25.0", "0.30.0", "0.30.0"]
    assert table["fires: SessionEnd"] == ["no", "yes", "0.30.0"]
    assert table["fires: BeforeAgent"] == ["yes", "yes", "every release"]
    assert table["BeforeAgent payload"][0] == (
        "cwd, hook_event_name, prompt, session_id, timestamp, transcript_path"
    )
    # The stub runs hooks with /bin/sh -c and never asks a model: a hook's stdout reaches none.
    assert table["hooks: shell"] == ["/bin/sh -c", "/bin/sh -c", "every release"]
    assert table["BeforeAgent: plain stdout reaches the model or user"] == [
        "no",
        "no",
        "every release",
    ]
    assert table["npm install"][:2] != ["cached", "cached"]
    assert table[f"scenario: {scenario}"][0].endswith("differences")
    assert done.returncode == 1  # the stub is no Gemini CLI: its runs differ from the replay
    again = hooksim(
        npm_world, "gemini-cli", scenario, "--versions", "0.25.0", "--cache", str(cache)
    )
    assert rows(again.stdout)["npm install"] == ["cached", "every release"]
    assert len(Path(str(npm_world["log"])).read_text().splitlines()) == 2


def test_an_npm_failure_is_one_line_and_leaves_nothing_in_the_cache(
    npm_world: dict[str, object],
) -> None:
    """The release npm cannot install is named in one line; the other still runs, and the
    table says why the first did not."""
    cache = npm_world["cache"]
    assert isinstance(cache, Path)
    done = hooksim(
        npm_world,
        "gemini-cli",
        str(npm_world["scenario"]),
        "--versions",
        "0.26.0,0.30.0",
        "--cache",
        str(cache),
        FAKE_NPM_FAIL="0.26.0",
    )
    assert done.stderr.splitlines() == [
        "hooksim: gemini-cli 0.26.0: npm could not install @google/gemini-cli@0.26.0 (exit 1):"
        " npm error 404 No match found for version 0.26.0"
    ]
    assert done.returncode == 1
    assert [p.name for p in (cache / "gemini-cli").iterdir()] == ["0.30.0"]
    table = rows(done.stdout)
    assert table["installed"][0].startswith("no: npm could not install")
    assert table["fires: SessionEnd"] == ["-", "yes", "0.30.0"]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["nope", "--versions", "1.0.0"],
            f"hooksim: unknown tool 'nope' (hooksim knows: {', '.join(HOSTS)})",
        ),
        (
            ["cursor", "--versions", "1.0.0"],
            "hooksim: conformance installs releases of claude-code, codex, gemini-cli, hermes,"
            " openclaw; not cursor",
        ),
        (
            ["codex", "--versions", "0.150,latest"],
            "hooksim: --versions: '0.150' is not a release like 1.2.3",
        ),
        (
            ["codex", "--versions", "0.150.0,0.1x.0"],
            "hooksim: --versions: '0.1x.0' is not a release like 1.2.3",
        ),
        (
            ["claude-code", "--versions", "0.2.9"],
            "hooksim: --versions: hooksim models Claude Code from v1.0.85 on, not 0.2.9",
        ),
    ],
)
def test_bad_input_is_one_line_and_installs_nothing(
    npm_world: dict[str, object], args: list[str], line: str
) -> None:
    """An unknown host, one not on npm, or a release that is no version or outside the
    profile's range: exit 2, one line, npm never called."""
    done = hooksim(npm_world, *args, "--cache", str(npm_world["cache"]))
    assert (done.returncode, done.stdout, done.stderr) == (2, "", line + "\n")
    assert not Path(str(npm_world["log"])).exists()


# Hermes: each release is a venv in the cache (``CACHE/hermes/VERSION``, marked installed, so
# pip is not asked), holding a small ``agent.shell_hooks`` and ``hermes_cli.config`` of that
# release. The old one's parser has no ``iter_configured_hooks`` and does not know
# ``pre_llm_call``; one release has no ``agent.shell_hooks`` at all; one keeps only the first
# word of a command.
HERMES_SCENARIO = """\
name: one turn
tool: hermes
turns:
  - {user: hello, assistant: Hi.}
"""

FAKE_SHELL_HOOKS = """\
import json, os
from pathlib import Path

VALID_HOOKS = {valid!r}


class ShellHookSpec:
    def __init__(self, event, command):
        self.event, self.command = event, command


def _parse_hooks_block(hooks_cfg):
    if not isinstance(hooks_cfg, dict):
        return []
    return [ShellHookSpec(event, {command})
            for event, entries in hooks_cfg.items() if event in VALID_HOOKS
            for entry in entries or []]


def register_from_config(cfg, *, accept_hooks=False):
    specs = _parse_hooks_block(cfg.get("hooks"))
    if accept_hooks:
        path = Path(os.environ["HERMES_HOME"]) / "shell-hooks-allowlist.json"
        path.write_text(json.dumps({{"approvals": [
            {{"event": s.event, "command": s.command}} for s in specs]}}))
    return specs
"""

ITER_CONFIGURED_HOOKS = """
def iter_configured_hooks(cfg):
    return _parse_hooks_block(cfg.get("hooks")) if isinstance(cfg, dict) else []
"""

FAKE_CONFIG = """\
import os
import yaml


def load_config():
    with open(os.path.join(os.environ["HERMES_HOME"], "config.yaml")) as f:
        return yaml.safe_load(f) or {}
"""

FAKE_HERMES = """\
#!{python}
print("Hermes Agent v{version}")
"""


def fake_hermes_release(cache: Path, version: str, shell_hooks: str | None) -> None:
    """A venv in ``CACHE/hermes/VERSION`` as the install leaves it, with a ``hermes`` that
    prints its version and the release's ``agent.shell_hooks`` (None: none at all); PyYAML is
    the test's own, by a ``.pth`` file."""
    prefix = cache / "hermes" / version
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(prefix)], check=True)
    (site,) = prefix.glob("lib/python*/site-packages")
    (site / "yaml-of-the-test.pth").write_text(str(Path(yaml.__file__).parents[1]) + "\n")
    for package, text in (("agent", shell_hooks), ("hermes_cli", FAKE_CONFIG)):
        (site / package).mkdir()
        (site / package / "__init__.py").write_text("")
        if text is not None:
            name = "shell_hooks.py" if package == "agent" else "config.py"
            (site / package / name).write_text(text)
    hermes = prefix / "bin" / "hermes"
    hermes.write_text(FAKE_HERMES.format(python=prefix / "bin" / "python", version=version))
    hermes.chmod(0o755)
    (prefix / ".installed").write_text(f"hermes-agent=={version}\n")


def test_hermes_releases_read_the_installed_hooks_with_their_own_parser(
    tmp_path: Path, isolated_home: Path
) -> None:
    """Per release, ``hermes-hooks install`` writes a throwaway Hermes home; that release's own
    parser, run by its venv's Python, says which hooks it reads there (naming the function
    when it is not ``iter_configured_hooks``), the release records its consent, and
    ``hermes-hooks verify`` gives its verdict on that home. A release without
    ``agent.shell_hooks`` says why, and verify is not run for it."""
    cache = tmp_path / "cache"
    every = ["on_session_start", "pre_llm_call", "post_llm_call", "pre_tool_call"]
    whole, first_word = 'entry["command"].strip()', 'entry["command"].split()[0]'
    old = FAKE_SHELL_HOOKS.format(valid=sorted(set(every) - {"pre_llm_call"}), command=whole)
    fake_hermes_release(cache, "0.13.0", old)
    fake_hermes_release(cache, "0.14.0", None)
    cut = FAKE_SHELL_HOOKS.format(valid=every, command=first_word) + ITER_CONFIGURED_HOOKS
    fake_hermes_release(cache, "0.15.0", cut)
    new = FAKE_SHELL_HOOKS.format(valid=every, command=whole) + ITER_CONFIGURED_HOOKS
    fake_hermes_release(cache, "0.19.0", new)
    scenario = tmp_path / "one-turn.yaml"
    scenario.write_text(HERMES_SCENARIO)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "hooksim",
            "conformance",
            "hermes",
            str(scenario),
            "--versions",
            "0.13.0,0.14.0,0.15.0,0.19.0",
            "--cache",
            str(cache),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
        check=False,
    )
    table = rows(done.stdout)
    assert table["pip install"] == ["cached", "cached", "cached", "cached", "every release"]
    assert table["hermes-hooks install: hooks the release's parser reads"] == [
        "on_session_start, post_llm_call (agent.shell_hooks._parse_hooks_block)",
        "error: ModuleNotFoundError: No module named 'agent.shell_hooks'",
        "on_session_start, pre_llm_call, post_llm_call; commands differ from those written",
        "on_session_start, pre_llm_call, post_llm_call",
        "0.19.0",
    ]
    assert table["hermes-hooks verify, after the release's consent"] == [
        "verify: 13 ok, 1 warnings, 0 failed; warn pre_llm_call: not approved yet; Hermes will a...",
        "-",
        "verify: 11 ok, 3 warnings, 0 failed; warn on_session_start: not approved yet; Hermes wi...",
        "verify: 14 ok, 0 warnings, 0 failed",
        "0.19.0",
    ]
    assert done.returncode == 1  # the fake releases run no scenario
    assert not any(isolated_home.iterdir())
