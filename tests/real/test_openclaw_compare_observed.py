"""``compare --real`` on OpenClaw sees what every handler could observe, without OpenClaw: the
probe loaded by a Node process that calls it as OpenClaw's hook runner does, and comparisons
of the replay (which runs the same probe) against a deliberately wrong copy of its own record,
each of which the comparison must call different."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hooksim.hosts.openclaw.real import compare
from hooksim.hosts.openclaw.real.result import read_log
from hooksim.hosts.openclaw.real.spy import wrap_all
from hooksim.real.compare import compared_host
from hooksim.replay.runner import RunResult
from hooksim.scenario import load_scenario

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="no node on PATH")
SCENARIOS = Path(__file__).parents[2] / "scenarios"

# OpenClaw's part, reduced: register() called twice (in full, then for discovery), handlers by
# priority, higher first, one context object for every handler of a firing; a handler between
# the probe's ends rewrites the event.
HOST = """
const probe = (await import(process.argv[2])).default;
let typed = [];
for (const mode of ["full", "discovery"]) {
  const mine = [];
  probe.register({ registrationMode: mode, on: (name, handler, opts) =>
    mine.push({ name, handler, priority: opts?.priority ?? 0 }), registerHook: () => {} });
  if (mode === "full") typed = mine;
}
typed.push({ name: "after_tool_call", priority: 5,
             handler: (event) => { event.result.details.reason = "rewritten"; } });
const ctx = { sessionKey: "k", getCron: () => null, abortSignal: new AbortController().signal,
              channel: undefined };
const event = { toolName: "exec", error: undefined, result: { details: { status: "ok" } } };
for (const h of typed.filter((h) => h.name === "after_tool_call")
                     .sort((a, b) => b.priority - a.priority)) {
  await h.handler(event, ctx);
}
"""


def test_the_probe_records_every_key_both_ends_and_each_register_call(tmp_path: Path) -> None:
    """A key whose value is undefined is present, a function or a signal is recorded by its
    kind, the last handler's record names its firing and holds the rewritten event, and each
    register() call is one record with its mode."""
    wrapped = wrap_all([], [], tmp_path / "w")
    log, host = tmp_path / "calls.jsonl", tmp_path / "host.mjs"
    host.write_text(HOST)
    assert NODE is not None
    subprocess.run(
        [NODE, str(host), (wrapped.probe / "index.js").as_uri()],
        check=True,
        timeout=60,
        env={"HOOKSIM_OPENCLAW_LOG": str(log)},
    )
    records = read_log(log)
    assert [(r["kind"], r.get("mode")) for r in records if r["kind"] == "loaded"] == [
        ("loaded", "full"),
        ("loaded", "discovery"),
    ]
    (first,) = [r for r in records if r["kind"] == "fire"]
    (last,) = [r for r in records if r["kind"] == "last"]
    assert first["event_shape"] == {
        "toolName": "string",
        "error": "undefined",
        "result": {"details": {"status": "string"}},
    }
    assert first["ctx_shape"] == {
        "sessionKey": "string",
        "getCron": "function",
        "abortSignal": "AbortSignal",
        "channel": "undefined",
    }
    assert last["of"] == first["seq"]
    assert last["event"]["result"]["details"] == {"status": "ok", "reason": "rewritten"}


@pytest.fixture(scope="module")
def recorded() -> tuple[RunResult, list[dict[str, Any]]]:
    """The replay of three local runs and a compaction, with the probe's records."""
    scenario = load_scenario(SCENARIOS / "openclaw/02-local-runs.yaml")
    result, records, _ = compare.replay(scenario, compared_host(scenario, "openclaw"))
    yield result, records
    if result.workdir is not None:
        shutil.rmtree(result.workdir, ignore_errors=True)


def _lines(
    recorded: tuple[RunResult, list[dict[str, Any]]],
    real_records: list[dict[str, Any]],
    sim_records: list[dict[str, Any]] | None = None,
) -> list[str]:
    """The differences of the replay (``sim_records``, else as recorded) from a "real" run
    that recorded ``real_records``."""
    result, records = recorded
    found = compare.differences(result, result, (real_records, sim_records or records))
    return [f"{key}: real {r}; hooksim {s}" for key, r, s in found]


def _first(records: list[dict[str, Any]], name: str, kind: str = "fire") -> dict[str, Any]:
    return next(r for r in records if r["kind"] == kind and r["name"] == name)


def test_the_replay_compared_with_its_own_record_has_no_difference(
    recorded: tuple[RunResult, list[dict[str, Any]]],
) -> None:
    """The probe saw every firing of the replay, at both ends, and a register() per process."""
    result, records = recorded
    firings = [f for f in result.firings if not f.event.startswith("(")]
    assert len([r for r in records if r["kind"] == "fire"]) == len(firings)
    assert len([r for r in records if r["kind"] == "last"]) == len(
        [f for f in firings if ":" not in f.event]
    )
    assert _lines(recorded, copy.deepcopy(records)) == []


def test_a_key_present_as_undefined_is_not_an_absent_one(
    recorded: tuple[RunResult, list[dict[str, Any]]],
) -> None:
    """An event key the real host passes as undefined, a context key it passes a function in,
    and one it leaves out are each a difference; another id is none, a missing one is."""
    real, sim = copy.deepcopy(recorded[1]), copy.deepcopy(recorded[1])
    _first(real, "agent_end")["event_shape"]["error"] = "undefined"
    _first(sim, "agent_end")["event_shape"].pop("error", None)
    prepare = _first(real, "agent_turn_prepare")
    prepare["ctx_shape"]["getCron"] = "function"
    del prepare["ctx_shape"]["workspaceDir"]
    _first(real, "llm_output")["event"]["runId"] = "another-run"
    del _first(real, "llm_input")["event_shape"]["runId"]
    assert _lines(recorded, real, sim) == [
        "ctx/agent_turn_prepare/getCron: real function; hooksim absent",
        'ctx/agent_turn_prepare/workspaceDir: real absent; hooksim "<workdir>/project"',
        'payload/llm_input/runId: real absent; hooksim "<id>"',
        "payload/agent_end/error: real undefined; hooksim absent",
    ]


def test_what_the_last_handler_got_and_the_order_it_ran_in_are_compared(
    recorded: tuple[RunResult, list[dict[str, Any]]],
) -> None:
    """A detail a handler rewrote before the last one ran, and a hook whose last handler
    never ran (a handler stopped the chain), are differences at the -1000 end."""
    real = copy.deepcopy(recorded[1])
    written = _first(real, "before_message_write", "last")
    written["event"]["message"]["details"] = {"reason": "x"}
    written["event_shape"]["message"]["details"] = {"reason": "string"}
    real.remove(_first(real, "before_agent_finalize", "last"))
    lines = _lines(recorded, real)
    assert (
        'last/before_message_write/message.details: real {"reason": "x"}; hooksim absent' in lines
    )
    (order,) = [line for line in lines if line.startswith("events/turn 1 (priority -1000)")]
    assert "before_message_write agent_end llm_output; hooksim" in order


def test_register_calls_are_compared_process_by_process(
    recorded: tuple[RunResult, list[dict[str, Any]]],
) -> None:
    """A process that called the probe's register() again (for discovery) is a difference."""
    real = copy.deepcopy(recorded[1])
    loaded = next(r for r in real if r["kind"] == "loaded")
    real.insert(real.index(loaded) + 1, {**loaded, "mode": "discovery", "seq": -1})
    assert _lines(recorded, real) == [
        "register/hooksim-probe: real [full, discovery, discovery, discovery]"
        " [full, discovery, discovery] [full, discovery, discovery, discovery]; hooksim"
        " [full, discovery, discovery] [full, discovery, discovery]"
        " [full, discovery, discovery, discovery]"
    ]


def test_the_comparison_reads_a_recorded_log(tmp_path: Path) -> None:
    """Records written as JSON lines are read back with their kinds and keys."""
    log = tmp_path / "calls.jsonl"
    log.write_text(
        json.dumps({"kind": "loaded", "owner": "hooksim-probe", "mode": "full", "pid": 1, "seq": 0})
        + "\n"
    )
    assert read_log(log) == [
        {"kind": "loaded", "owner": "hooksim-probe", "mode": "full", "pid": 1, "seq": 0}
    ]


@pytest.fixture(scope="module")
def side_by_side() -> tuple[RunResult, list[dict[str, Any]]]:
    """The replay of a turn whose first model response asks for two calls at once."""
    scenario = load_scenario(SCENARIOS / "openclaw/13-responses.yaml")
    result, records, _ = compare.replay(scenario, compared_host(scenario, "openclaw"))
    yield result, records
    if result.workdir is not None:
        shutil.rmtree(result.workdir, ignore_errors=True)


def test_calls_of_one_response_are_paired_by_call_whatever_order_they_end_in(
    side_by_side: tuple[RunResult, list[dict[str, Any]]],
) -> None:
    """The calls of one response run side by side and end in any order: after_tool_call
    records that come in the other order are no difference; another command is one."""
    real = copy.deepcopy(side_by_side[1])
    ends = [i for i, r in enumerate(real) if r["kind"] == "fire" and r["name"] == "after_tool_call"]
    first, second = ends[:2]
    assert second == first + 1 or all(real[i]["kind"] != "fire" for i in range(first + 1, second))
    real[first], real[second] = real[second], real[first]
    assert _lines(side_by_side, real) == []
    real[first]["event"]["params"]["command"] = "echo another"
    assert _lines(side_by_side, real) == [
        'payload/after_tool_call/params.command: real "echo another"; hooksim "echo two"'
    ]
