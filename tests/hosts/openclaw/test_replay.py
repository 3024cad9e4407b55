"""OpenClaw as a host: its JavaScript plugins replayed in hooksim's Node runner, end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.hosts.openclaw.replay import node_binary
from hooksim.judge import expect
from hooksim.replay.runner import run_scenario
from hooksim.scenario import load_scenario

SCENARIOS = Path(__file__).parents[3] / "scenarios"
SCRIPTED = SCENARIOS / "openclaw" / "plugins" / "scripted"

pytestmark = pytest.mark.skipif(
    node_binary() is None, reason="OpenClaw's plugins run in Node.js: no node on PATH"
)


def plugin(folder: Path, plugin_id: str, register: str) -> Path:
    """A plugin folder whose ``register(api)`` body is ``register`` (JavaScript); its manifest
    asks a gateway to start it for its hooks."""
    folder.mkdir(parents=True)
    manifest = {"id": plugin_id, "configSchema": {}, "activation": {"onCapabilities": ["hook"]}}
    (folder / "openclaw.plugin.json").write_text(json.dumps(manifest))
    (folder / "package.json").write_text(
        json.dumps({"type": "module", "openclaw": {"extensions": ["./index.js"]}})
    )
    body = textwrap.indent(textwrap.dedent(register).strip(), "    ")
    (folder / "index.js").write_text(
        'import { appendFileSync } from "node:fs";\n'
        'import { execFileSync } from "node:child_process";\n'
        'import { setTimeout as sleep } from "node:timers/promises";\n'
        'const log = (line) => appendFileSync("seen.txt", `${line}\\n`);\n'
        'const bridge = (tool) => execFileSync("/bin/sh", ["-c", \'$WAGGLE_MIND_CMD call "$1"\','
        ' "mind", tool], { input: "{}" });\n'
        f"export default {{\n  id: {json.dumps(plugin_id)},\n  register(api) {{\n{body}\n  }},\n}};\n"
    )
    return folder


def scenario(folder: Path, body: str, *, entries: str = "") -> Path:
    """A scenario beside ``folder``'s plugins (every plugin under ``plugins/``)."""
    paths = sorted(p.name for p in (folder / "plugins").iterdir())
    path = folder / "s.yaml"
    path.write_text(
        "name: openclaw test\ntool: openclaw\nhooks:\n  plugins:\n"
        f"    load: {{paths: [{', '.join(f'plugins/{p}' for p in paths)}]}}\n"
        + (
            f"    entries:\n{textwrap.indent(textwrap.dedent(entries), '      ')}"
            if entries
            else ""
        )
        + textwrap.dedent(body)
    )
    return path


def test_a_plugin_runs_through_hooksim_run_and_the_timeline_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """hooksim run replays a plugin: its handler's block reaches the model, read as OpenClaw does."""
    plugin(
        tmp_path / "plugins" / "guard",
        "guard",
        """
        api.on("before_tool_call", (event) =>
          event.params.command.includes("rm") ? { block: true, blockReason: "no rm" } : undefined);
        """,
    )
    path = scenario(
        tmp_path,
        """
        turns:
          - {user: clean, tools: [{shell: "rm -rf build"}], assistant: Done.}
        timeline: always
        expect:
          blocked: {before_tool_call: 1}
          context_at_turn: {"1": no rm}
        """,
    )
    assert main(["run", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"PASS  {path} [openclaw]  openclaw test" in out
    assert "before_tool_call(exec) returned   guard: before_tool_call" in out
    assert "OpenClaw reads it as: block; reason 'no rm'" in out
    assert "given to the model: 'no rm'" in out


def test_without_node_the_scenario_is_an_error_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No node on PATH: the scenario cannot run, and one line says why and what to install."""
    plugin(tmp_path / "plugins" / "quiet", "quiet", 'api.on("agent_end", () => {});')
    path = scenario(tmp_path, "turns:\n  - {user: hi, assistant: hello}\n")
    bare = tmp_path / "bin"
    bare.mkdir()
    monkeypatch.setenv("PATH", str(bare))
    assert main(["run", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[1] == (
        f"  {path}: tool openclaw runs its plugins in Node.js: no node on PATH (install Node 20"
        " or later)"
    )


def test_an_openclaw_json_stands_in_for_the_scenarios_hooks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--hooks-config reads an openclaw.json: its plugins from its own folder, its entries."""
    config_dir = tmp_path / "home"
    plugin(
        config_dir / "extensions" / "talk",
        "talk",
        'api.on("agent_end", (event) => log(`end ${event.success}`));',
    )
    config = config_dir / "openclaw.json"
    config.write_text(
        json.dumps(
            {
                "plugins": {
                    "load": {"paths": ["extensions/talk"]},
                    "entries": {"talk": {"hooks": {"allowConversationAccess": True}}},
                },
                "gateway": {"port": 18789},
            }
        )
    )
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: from a config\nturns:\n  - {user: hi, assistant: hello}\n"
        'expect:\n  files: {seen.txt: {equals: "end true\\n"}}\n'
    )
    assert main(["run", str(path), "--tool", "openclaw", "--hooks-config", str(config)]) == 0
    config.write_text('{"plugins": {}, // a JSON5 comment\n}')
    assert main(["run", str(path), "--tool", "openclaw", "--hooks-config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"hooksim: --hooks-config: {config}: not valid JSON (")
    assert err.endswith("); JSON5 is not read\n")


def test_a_folder_that_is_not_a_plugin_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plugins.load.paths folder without openclaw.plugin.json: an error naming the folder."""
    (tmp_path / "plugins" / "loose").mkdir(parents=True)
    path = scenario(tmp_path, "turns:\n  - {user: hi, assistant: hello}\n")
    assert main(["run", str(path)]) == 1
    assert (
        f"{tmp_path / 'plugins' / 'loose'}: no openclaw.plugin.json (an OpenClaw plugin's manifest)"
        in capsys.readouterr().out
    )


def test_registration_is_judged_as_openclaw_judges_it(tmp_path: Path) -> None:
    """An async register registers nothing; a typed name given to registerHook, and a HOOK.md
    listening to one, are warnings, and the built-in check fails a hook that can never fire."""
    plugin(
        tmp_path / "plugins" / "eager",
        "eager",
        'api.on("gateway_start", () => log("eager")); return Promise.resolve();',
    )
    plugin(
        tmp_path / "plugins" / "mixed",
        "mixed",
        'api.registerHook(["before_tool_call"], () => log("never"), { name: "typed" });',
    )
    hook = tmp_path / "hooks" / "typed-hook"
    hook.mkdir(parents=True)
    (hook / "HOOK.md").write_text(
        '---\nname: typed-hook\nmetadata: {"openclaw": {"events": ["before_tool_call"]}}\n---\n'
    )
    (hook / "handler.js").write_text("export default () => {};\n")
    (hook / "package.json").write_text('{"type": "module"}')
    path = scenario(tmp_path, "turns:\n  - {user: hi, assistant: hello}\n")
    text = path.read_text().replace(
        "turns:", "  hooks: {internal: {load: {extraDirs: [hooks]}}}\nturns:", 1
    )
    path.write_text(text)
    result = run_scenario(load_scenario(path))
    assert result.warnings == [
        "plugin failed during register: plugin register must be synchronous (plugin eager)",
        'hook event "before_tool_call" is dispatched by the typed hook runner only;'
        " api.registerHook registrations for it are not invoked. Use"
        ' api.on("before_tool_call", ...) instead. (plugin mixed)',
        "unknown internal hook event 'before_tool_call' in hook typed-hook: not emitted by"
        " OpenClaw core — likely a typo; unless a plugin emits it, the hook never fires",
    ]
    assert not (tmp_path / "seen.txt").exists()
    assert main(["run", str(path), "-q"]) == 1


@pytest.mark.parametrize("launch", ["gateway", "local"])
def test_each_bridge_call_belongs_to_the_handler_that_made_it(tmp_path: Path, launch: str) -> None:
    """Handlers share OpenClaw's process; the ledger still tells their bridge calls apart, and
    under --local, where each turn is a process of its own, tells the processes apart too."""
    plugin(
        tmp_path / "plugins" / "two",
        "two",
        """
        api.on("agent_end", async () => { await sleep(10); bridge("slow_one"); });
        api.on("agent_end", () => { bridge("quick_one"); });
        """,
    )
    path = scenario(
        tmp_path,
        f"hosts: {{openclaw: {{launch: {launch}}}}}\n"
        "turns:\n  - {user: hi, assistant: hello}\n  - {after: 1m, user: bye, assistant: ciao}\n",
        entries="two: {hooks: {allowConversationAccess: true}}\n",
    )
    result = run_scenario(load_scenario(path))
    made = [(c["tool"], c["turn"], result.runs[c["hook"]].command) for c in result.calls]
    assert all(result.runs[c["hook"]].turn == c["turn"] for c in result.calls)
    ran = {(c["tool"], result.runs[c["hook"]].tag) for c in result.calls}
    assert sorted(made) == [
        ("quick_one", 1, "two: agent_end"),
        ("quick_one", 2, "two: agent_end"),
        ("slow_one", 1, "two: agent_end"),
        ("slow_one", 2, "two: agent_end"),
    ]
    assert len(ran) == 4  # four handler calls, each its own run


def test_handlers_read_the_virtual_clock(tmp_path: Path) -> None:
    """Date, performance.now and process.hrtime move with the scenario, sleeps take no real
    time, and a process a handler starts reads the same instant (HOOKSIM_NOW)."""
    plugin(
        tmp_path / "plugins" / "clock",
        "clock",
        """
        api.on("before_prompt_build", async () => {
          const [date, perf, hr] = [Date.now(), performance.now(), process.hrtime.bigint()];
          await sleep(3_600_000);
          const child = execFileSync("/bin/sh", ["-c", "echo $HOOKSIM_NOW"]).toString().trim();
          log(`${new Date().toISOString()} ${Date.now() - date} ${Math.round(performance.now() - perf)}`
              + ` ${(process.hrtime.bigint() - hr) / 1000000n} ${child}`);
        }, { timeoutMs: 7_200_000 });
        """,
    )
    path = scenario(
        tmp_path,
        "clock: {start: 2030-01-01T00:00:00Z, tick: false}\nturns:\n  - {user: hi, assistant: hello}\n"
        'expect:\n  files: {seen.txt: {equals: "2030-01-01T01:00:00.000Z 3600000 3600000 3600000'
        ' 1893459600.000\\n"}}\n',
        entries="clock: {hooks: {allowConversationAccess: true}}\n",
    )
    assert expect.check(run_scenario(load_scenario(path))) == []


def test_a_handler_that_never_settles_is_said_and_the_session_goes_on(tmp_path: Path) -> None:
    """A claim hook without a budget that never settles: OpenClaw would wait for ever; hooksim
    says so and goes on with the turn."""
    plugin(
        tmp_path / "plugins" / "stuck",
        "stuck",
        """
        api.on("before_agent_reply", () => new Promise(() => {}));
        api.on("agent_end", () => log("the turn went on"));
        """,
    )
    path = scenario(
        tmp_path,
        "turns:\n  - {user: hi, assistant: hello}\n"
        "expect:\n  effects: ['a handler never settles: OpenClaw would wait for before_agent_reply"
        ' for ever\']\n  files: {seen.txt: {equals: "the turn went on\\n"}}\n',
        entries="stuck: {hooks: {allowConversationAccess: true}}\n",
    )
    assert expect.check(run_scenario(load_scenario(path))) == []


def test_hosts_sources_cite_the_package_for_openclaw(capsys: pytest.CaptureFixture[str]) -> None:
    """--sources --tool openclaw: every fact with its file and line in the released package."""
    assert main(["hosts", "--sources", "--tool", "openclaw"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "OpenClaw (openclaw): openclaw 2026.9.6 (the npm package, read as shipped)"
    )
    assert "    release: openclaw==2026.9.6 dist/hook-runner-global-C81Znoo2.mjs#L95" in out
    assert "  - fail closed: a throw or timeout in before_tool_call, before_agent_run" in out


def test_record_tap_and_the_default_explore_refuse_openclaw_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """OpenClaw has no command hooks to tap, nor the hooks hermes-hooks installs to explore."""
    assert main(["record", "start", "--tool", "openclaw", "--out", str(tmp_path / "r")]) == 1
    assert capsys.readouterr().err == (
        "hooksim record: --tool openclaw: OpenClaw's hooks are JavaScript handlers inside its own"
        " process, not commands a tap can stand in front of; replay its plugins with hooksim run"
        " (tool: openclaw) and check them against the real gateway with --real openclaw\n"
    )
    assert main(["explore", "--tool", "openclaw"]) == 2
    assert capsys.readouterr().err.startswith(
        "hooksim: explore --tool openclaw: name a scenario file with its plugins"
    )
    env = {**os.environ, "HOME": str(tmp_path)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "hooksim",
            "tap",
            "--log",
            str(tmp_path),
            "--tool",
            "openclaw",
            "--",
            "true",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("hooksim tap: --tool openclaw: OpenClaw's hooks are JavaScript")
    assert not any(tmp_path.iterdir())


def test_the_memory_plugin_replays_a_long_session_quickly(tmp_path: Path) -> None:
    """The shipped memory plugin, four turns on a gateway: every prompt and reply saved, each
    through its own handler's bridge call."""
    result = run_scenario(
        load_scenario(SCENARIOS / "across" / "memory-session.yaml"), tool="openclaw"
    )
    saved = [
        (c["turn"], result.runs[c["hook"]].event)
        for c in result.calls
        if c["tool"] == "save_memory"
    ]
    assert saved == [(t, e) for t in (1, 2, 4, 5) for e in ("before_prompt_build", "agent_end")]


def test_explore_draws_sessions_for_a_scenarios_plugins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """explore FILE runs OpenClaw sessions drawn from its tools and steps against the plugins."""
    claim = SCENARIOS / "openclaw" / "05-claim.yaml"
    args = ["explore", str(claim), "--examples", "2", "--seed", "7", "--out", str(tmp_path)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"explore {claim} on openclaw: 2 examples in " in out
    assert out.endswith("no invariant failed\n")


def test_a_handler_returning_keys_openclaw_does_not_read_fails_and_says_which(
    tmp_path: Path,
) -> None:
    """Newcomer trial 3, finding 4: ``{blocked: true, reason}`` blocks nothing; the timeline
    says so (not "blocked true") and the run fails unless ``expect`` counts the refusal."""
    scenario = tmp_path / "wrong-keys.yaml"
    plugins = SCRIPTED
    scenario.write_text(
        "name: wrong keys\ntool: openclaw\nhooks:\n  plugins:\n"
        f"    load: {{paths: [{plugins}]}}\n    entries:\n      scripted:\n        config:\n"
        "          handlers:\n            - {hook: before_tool_call, label: wrongret,"
        ' return: {blocked: true, reason: "no curl"}}\n'
        'turns:\n  - {user: fetch, tools: [{shell: "echo curl > page.html", run: true}],'
        " assistant: done}\n"
    )
    result = subprocess.run(
        [str(Path(sys.executable).parent / "hooksim"), "run", str(scenario), "--show-timeline"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1, result.stdout
    assert (
        "OpenClaw reads it as: nothing it acts on (unknown keys: blocked, reason; did you mean"
        " block, blockReason?)"
    ) in result.stdout
    assert "built-in check output_refused: the before_tool_call hook" in result.stdout
    assert "=> exec ran `echo curl > page.html` in the project: exit 0" in result.stdout
