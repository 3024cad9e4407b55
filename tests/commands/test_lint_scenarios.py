"""hooksim lint on the hooks of every shipped scenario: each host it runs on reads them as its
own config file, with the scenario's files in place, and lint finds no error but those the
scenario is written to show."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hooksim.hosts import get_host
from hooksim.inspect import Finding, layers, lint, read
from hooksim.replay.project import seed
from hooksim.replay.runner import own_hooks
from hooksim.replay.workspace import Workspace
from hooksim.scenario import load_scenario

ROOT = Path(__file__).parents[2]

# OpenClaw's hooks are JavaScript plugins its own process loads, not commands in a config
# file (its profile is ``in_process``): lint reads no file of it, so it is left out.
NOT_LINTED = frozenset({"openclaw"})

# The findings a scenario is written to show (each of these runs on one host), from its
# description: each must still be found, so the list cannot go stale, and no other error may be.
# A warning not listed (Hermes' consent: no scenario seeds an allowlist; the replay runs its
# hooks as --accept-hooks does) is allowed.
EXPECTED: dict[str, set[str]] = {
    # The same Stop command listed twice runs once.
    "scenarios/claude-code/06-parallel-and-deduplicated.yaml": {"duplicate-hook"},
    # "Edit.*" is a regex tested unanchored: it fires for NotebookEdit.
    "scenarios/claude-code/13-matchers.yaml": {"unanchored-matcher"},
    # The same AfterAgent command listed twice runs once.
    "scenarios/gemini-cli/03-sequential-groups.yaml": {"duplicate-hook"},
    # timeout 500 is half a second: the hook times out and gets SIGTERM.
    "scenarios/gemini-cli/04-timeout-in-milliseconds.yaml": {"timeout-unit"},
    # "file" is tested with RegExp.test, so it matches read_file and write_file.
    "scenarios/gemini-cli/08-matchers.yaml": {"unanchored-matcher"},
    # A hook that leaves out "type": "command" is discarded.
    "scenarios/gemini-cli/14-hooks-need-a-type.yaml": {"ignored-entry"},
    # An if condition that does not parse (a trailing space) never runs its hook.
    "scenarios/probes/claude-code-if-conditions.yaml": {"ignored-entry"},
    # "as." selects Bash, as the real Claude Code does.
    "scenarios/probes/claude-code-tools-and-matchers.yaml": {"unanchored-matcher"},
}


def shipped() -> list[tuple[str, str]]:
    """Every scenario file with each host it runs on; the folders of the plugins and
    extensions a scenario installs hold no scenario."""
    pairs = []
    for path in sorted((ROOT / "scenarios").glob("**/*.yaml")):
        relative = path.relative_to(ROOT)
        if {"plugins", "extensions"} & set(relative.parts):
            continue
        tools = load_scenario(path).tools()
        pairs += [(relative.as_posix(), t) for t in tools if t not in NOT_LINTED]
    return pairs


PAIRS = shipped()


def findings(
    scenario_path: str, tool: str, root: Path, monkeypatch: pytest.MonkeyPatch
) -> list[Finding]:
    """Lint's findings on the hooks a run of the scenario on ``tool`` registers, written as
    that host's user config file in a throwaway home, with the scenario's files seeded in
    home and project as a run seeds them."""
    scenario = load_scenario(ROOT / scenario_path).on(tool)
    host = scenario.profile(get_host(tool))
    own = own_hooks(scenario, host)
    assert own is not None, f"{scenario_path}: no hooks on {tool}"
    workspace = Workspace(root)
    workspace.create()
    seed(scenario, workspace)
    monkeypatch.setenv("HOME", str(workspace.home))
    monkeypatch.chdir(workspace.project)
    # The user's config file as a real run writes it (``Driver.install`` of each host's
    # real.py: the block under "hooks", as JSON; Hermes reads JSON as YAML).
    config = Path.home() / host.user_config.removeprefix("~/")
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"hooks": own[0]}, indent=2), encoding="utf-8")
    files = [f for f in layers(host, workspace.project, {}) if f.path.is_file()]
    return lint(host, [read(host, f) for f in files], workspace.project)


@pytest.mark.parametrize(("scenario_path", "tool"), PAIRS, ids=[f"{p}:{t}" for p, t in PAIRS])
def test_shipped_hooks_lint_clean(
    scenario_path: str, tool: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = findings(scenario_path, tool, tmp_path / "run", monkeypatch)
    expected = EXPECTED.get(scenario_path, set())
    errors = [
        f"{f.file}:{f.line}: {f.rule}: {f.message}"
        for f in found
        if f.level == "error" and f.rule not in expected
    ]
    assert not errors
    assert expected <= {f.rule for f in found}


def test_expected_names_shipped_scenarios() -> None:
    """Each scenario the list names is still shipped, under that name."""
    assert set(EXPECTED) <= {path for path, _ in PAIRS}
