"""The recorder of a real OpenClaw run, without OpenClaw: the wrappers hooksim puts around a
scenario's plugins and HOOK.md hooks, and the probe, loaded by a real Node process that calls
them as OpenClaw's hook runner does; then the log read back as a run's result."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hooksim.hosts import get_host
from hooksim.hosts.openclaw.real import spy as openclaw_spy
from hooksim.hosts.openclaw.real.result import build_result, compare_records, read_log
from hooksim.hosts.openclaw.real.spy import SPY, SetupError, config, wrap_all, wrap_hook_dir
from hooksim.scenario import Scenario, Turn

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="no node on PATH")

PLUGIN = """
export default {
  id: "memo",
  register(api) {
    api.on("before_tool_call", (event) => ({ block: true, blockReason: `no ${event.toolName}` }),
           { priority: 5 });
    api.on("agent_end", async () => { await null; return { seen: true }; });
    api.on("after_compaction", () => { throw new Error("boom"); });
    api.registerHook(["session", "command:new"], (event) => { event.messages.push("hi"); },
                     { name: "memo-internal" });
  },
};
"""

HOOK_MD = """---
name: note
metadata: {"openclaw": {"events": ["command"], "export": "onEvent"}}
---
# note
"""

# OpenClaw's part, reduced to what the recorder meets: plugins register with an api; typed
# handlers run by priority, higher first; an internal event goes to its family's handlers
# (a HOOK.md folder's first), a plugin's registerHook handler getting a copy of the event
# around the same context (dist/loader-runtime-load-CMBCNIWa.mjs:4261-4275).
HOST = """
const [probe, plugin, hook] = await Promise.all(process.argv.slice(2).map((p) => import(p)));
const typed = [], internal = [];
const api = {
  registrationMode: "full",
  on: (name, handler, opts) => typed.push({ name, handler, priority: opts?.priority ?? 0 }),
  registerHook: (keys, handler) => { for (const key of [keys].flat()) internal.push({ key, handler }); },
};
probe.default.register(api);
plugin.default.register(api);
const out = {};
async function fire(name, event) {
  const handlers = typed.filter((h) => h.name === name).sort((a, b) => b.priority - a.priority);
  out[name] = [];
  for (const h of handlers) {
    try { out[name].push(await h.handler(event, { sessionKey: "k" })); }
    catch (error) { out[name].push(`threw ${error.message}`); }
  }
}
await fire("before_tool_call", { toolName: "exec", params: { command: "ls" } });
await fire("agent_end", { messages: [] });
await fire("after_compaction", { messageCount: 2 });
const event = { type: "command", action: "new", sessionKey: "k", context: {}, messages: [] };
await hook.onEvent(event);
for (const h of internal.filter((h) => h.key === "command" || h.key === "command:new")) {
  await h.handler({ ...event, context: event.context });
}
out.messages = event.messages;
console.log(JSON.stringify(out));
"""


def _plugin(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "openclaw.plugin.json").write_text('{"id": "memo", "configSchema": {}}')
    (folder / "package.json").write_text(
        '{"name": "memo", "type": "module", "openclaw": {"extensions": ["./index.js"]}}'
    )
    (folder / "index.js").write_text(PLUGIN)
    return folder


def _hook(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "HOOK.md").write_text(HOOK_MD)
    (folder / "package.json").write_text('{"type": "module"}')
    (folder / "handler.js").write_text("export function onEvent(event) { return 'ignored'; }\n")
    return folder


def _host(tmp_path: Path, turn: dict[str, object]) -> tuple[dict[str, object], Path]:
    """Wrap the plugin and the hook, run them in Node as OpenClaw would; what the handlers
    returned, and the log."""
    wrapped = wrap_all([_plugin(tmp_path / "memo")], [_hook(tmp_path / "note")], tmp_path / "w")
    log, turn_file, host = tmp_path / "calls.jsonl", tmp_path / "turn.json", tmp_path / "host.mjs"
    turn_file.write_text(json.dumps(turn))
    host.write_text(HOST)
    modules = [
        SPY / "probe" / "index.js",
        wrapped.plugins["memo"] / "hooksim-entry-0.mjs",
        wrapped.hooks["note"] / "handler.js",
    ]
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(host), *(m.as_uri() for m in modules)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={"HOOKSIM_OPENCLAW_LOG": str(log), "HOOKSIM_OPENCLAW_TURN": str(turn_file)},
    )
    return json.loads(done.stdout), log


def test_wrapped_handlers_run_unchanged_and_each_call_is_recorded(tmp_path: Path) -> None:
    """OpenClaw gets what the scenario's handlers return or throw; the log has each firing
    once (the probe first, and last again), each call with its label, result and settling."""
    returned, log = _host(tmp_path, {"turn": 2, "now_ms": 5000})
    assert returned["before_tool_call"] == [None, {"block": True, "blockReason": "no exec"}, None]
    assert returned["agent_end"] == [None, {"seen": True}, None]
    assert returned["after_compaction"] == [None, "threw boom", None]
    assert returned["messages"] == ["hi"]
    records = read_log(log)
    fires = [(r["name"], r["turn"]) for r in records if r["kind"] == "fire"]
    assert fires == [
        ("before_tool_call", 2),
        ("agent_end", 2),
        ("after_compaction", 2),
        ("command:new", 2),
    ]
    calls = {r["label"]: r for r in records if r["kind"] == "call"}
    assert set(calls) == {
        "memo: before_tool_call",
        "memo: agent_end",
        "memo: after_compaction",
        "note (HOOK.md, command)",
        "memo: memo-internal (command:new)",
    }
    assert calls["memo: agent_end"]["returned"] == {"seen": True}
    assert calls["memo: agent_end"]["settled"] is True
    assert calls["memo: after_compaction"]["threw"] == "boom"
    assert calls["note (HOOK.md, command)"]["returned"] == "ignored"
    assert calls["memo: before_tool_call"]["ctx"] == {"sessionKey": "k"}


def test_compaction_hooks_count_at_the_announced_compaction_step(tmp_path: Path) -> None:
    """A turn announced with an auto compaction gives its compaction hooks to that step."""
    _, log = _host(tmp_path, {"turn": 4, "now_ms": 5000, "compaction": {"turn": 3, "now_ms": 4000}})
    turns = {r["name"]: r["turn"] for r in read_log(log) if r["kind"] == "fire"}
    assert turns == {"before_tool_call": 4, "agent_end": 4, "after_compaction": 3, "command:new": 4}


def test_the_log_reads_as_a_run_and_as_compared_records(tmp_path: Path) -> None:
    """Each firing is a firing of the result, each call a run of it read by the profile; a
    tool whose persisted result says blocked is a blocked firing whose text reached the model;
    the records compare reads carry the mapped event and each returned text."""
    _, log = _host(tmp_path, {"turn": 1, "now_ms": 5000})
    records = read_log(log)
    persisted = {
        "toolCallId": "call_1",
        "message": {
            "content": [{"type": "text", "text": "no exec"}],
            "details": {"status": "blocked"},
        },
    }
    records = [r for r in records if r["kind"] in ("fire", "call")]
    records[0]["event"]["toolCallId"] = "call_1"
    records.insert(
        2, {"kind": "fire", "name": "tool_result_persist", "turn": 1, "event": persisted, "seq": 99}
    )
    ledger = tmp_path / "ledger.jsonl"
    ledger.write_text("")
    sent = [{"at": 9e12, "body": {"messages": [{"role": "tool", "content": "no exec"}]}}]
    scenario = Scenario(path=tmp_path / "s.yaml", name="s", steps=(Turn(user="hi"),))
    result = build_result(scenario, get_host("openclaw"), records, sent, ledger, owners=["memo"])
    pre = result.firings[0]
    assert (pre.event, pre.match, pre.blocked, pre.context) == (
        "before_tool_call",
        "exec",
        True,
        ["no exec"],
    )
    (run,) = pre.runs
    assert (run.command, run.exit_code) == ("memo: before_tool_call", 0)
    assert "no exec" in run.verdict
    failed = next(f for f in result.firings if f.event == "after_compaction").runs[0]
    assert (failed.exit_code, failed.stderr) == (1, "boom")
    compared = compare_records(records, owners=["memo"])
    probe = compared[0]
    assert probe["id"] == "probe"
    assert json.loads(probe["stdin"])["toolCallId"] == "<id>"
    assert {"id": "memo: before_tool_call", "stdout": "no exec"}.items() <= compared[1].items()


def test_the_config_loads_the_wrappers_and_the_probe_and_nothing_bundled(tmp_path: Path) -> None:
    """The run's config: wrapped folders and the probe in place of the scenario's folders, the
    scenario's entries kept, the fake model and a loopback gateway, bundled hooks off."""
    wrapped = wrap_all([_plugin(tmp_path / "memo")], [], tmp_path / "w")
    given = {"plugins": {"entries": {"memo": {"hooks": {"allowConversationAccess": True}}}}}
    made = config("http://127.0.0.1:9", tmp_path, wrapped, given, port=1234)
    plugins = made["plugins"]
    assert plugins["allow"] == ["hooksim-probe", "memo"]
    assert plugins["load"]["paths"] == [str(tmp_path / "w/probe"), str(tmp_path / "w/plugins/memo")]
    assert plugins["entries"]["memo"] == {
        "hooks": {"allowConversationAccess": True},
        "enabled": True,
    }
    assert plugins["slots"] == {"memory": "none"}
    assert made["hooks"]["internal"]["entries"]["session-memory"] == {"enabled": False}
    assert made["models"]["providers"]["hooksim"]["baseUrl"] == "http://127.0.0.1:9/v1"
    assert made["gateway"]["bind"] == "loopback"


def test_the_probe_openclaw_loads_is_a_copy_with_one_link_per_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An installer that links files from its cache (uv) gives the installed probe's manifest
    two links, and OpenClaw refuses such a manifest ("unsafe plugin manifest path"): the run
    hands OpenClaw a copy of the probe, beside the record module it imports."""
    linked = tmp_path / "installed"
    shutil.copytree(
        SPY, linked, copy_function=os.link, ignore=shutil.ignore_patterns("__pycache__")
    )
    assert (linked / "probe/openclaw.plugin.json").stat().st_nlink >= 2
    monkeypatch.setattr(openclaw_spy, "SPY", linked)
    wrapped = wrap_all([], [], tmp_path / "w")
    assert wrapped.probe == tmp_path / "w/probe"
    copied = [p for p in [*wrapped.probe.rglob("*"), tmp_path / "w/record.mjs"] if p.is_file()]
    assert {p.name for p in copied} >= {"openclaw.plugin.json", "index.js", "record.mjs"}
    assert all(p.stat().st_nlink == 1 for p in copied)
    made = config("http://127.0.0.1:9", tmp_path, wrapped, {}, port=1234)
    assert made["plugins"]["load"]["paths"] == [str(wrapped.probe)]


def test_a_hook_folder_without_frontmatter_is_one_clear_error(tmp_path: Path) -> None:
    """A HOOK.md without its frontmatter names the folder."""
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "HOOK.md").write_text("# no frontmatter\n")
    with pytest.raises(SetupError, match=r"bad: no HOOK.md with a frontmatter block"):
        wrap_hook_dir(folder, tmp_path / "w")
