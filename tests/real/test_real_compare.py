"""Differences between two recorded runs: ids and paths mapped, tolerances applied with reasons."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hooksim.hosts import get_host
from hooksim.real.compare import Side, differences, differences_text
from hooksim.replay.runner import RunResult
from hooksim.scenario import Scenario


def probe(turn: int, event: str, payload: dict[str, Any], env: dict[str, str]) -> dict[str, Any]:
    return {
        "id": "probe",
        "event": event,
        "turn": turn,
        "stdin": json.dumps(payload) + "\n",
        "env": {"PATH": "/bin", **env},
        "start": 0.0,
        "pid": 1,
    }


def hook(probe_record: dict[str, Any], hook_id: str, **fields: Any) -> dict[str, Any]:
    """A hook process of the firing ``probe_record`` stands for."""
    return {**probe_record, "id": hook_id, "start": 0.1, "end": 0.2, "exit": 0, **fields}


def side(root: str, records: list[dict[str, Any]]) -> Side:
    result = RunResult(Scenario(Path("s.yaml"), "s", ()))
    return Side(records, result, Path(root), {"PATH": "/bin"})


def lines(real: Side, sim: Side, tool: str = "claude-code") -> list[str]:
    return differences_text(differences(real, sim, get_host(tool))).splitlines()[:-1]


def test_ids_and_paths_are_mapped_and_real_differences_listed() -> None:
    """Different ids and work directories are equal; an extra field, another order and an
    added variable are differences."""
    real = side(
        "/r",
        [
            probe(
                1,
                "SessionStart",
                {
                    "session_id": "0b5e3c1a-1111-2222-3333-444455556666",
                    "cwd": "/r/project",
                    "source": "startup",
                },
                {"CLAUDECODE": "1"},
            ),
            probe(1, "UserPromptSubmit", {"session_id": "x", "prompt_id": "p1"}, {"ADDED": "9"}),
            probe(1, "Stop", {"session_id": "x"}, {}),
        ],
    )
    sim = side(
        "/s",
        [
            probe(
                1,
                "SessionStart",
                {"session_id": "session-1", "cwd": "/s/project", "source": "startup"},
                {"CLAUDECODE": "1"},
            ),
            probe(1, "Stop", {"session_id": "y"}, {}),
            probe(1, "UserPromptSubmit", {"session_id": "y"}, {}),
        ],
    )
    assert lines(real, sim) == [
        'env/ADDED: real "9"; hooksim absent',
        "events/turn 1: real SessionStart UserPromptSubmit Stop;"
        " hooksim SessionStart Stop UserPromptSubmit",
        'payload/UserPromptSubmit/prompt_id: real "<prompt_id 1>"; hooksim absent',
    ]


def test_ids_compare_by_which_firings_share_them() -> None:
    """A tool id the replay gives every call alike, where the real host gives each call its
    own, is a difference of rank, whatever the ids' values."""
    calls = [("toolu_a", "toolu_b"), ("call_1", "call_1")]
    real, sim = (
        side(
            root,
            [
                probe(1, "PreToolUse", {"tool_use_id": first}, {}),
                probe(1, "PreToolUse", {"tool_use_id": second}, {}),
            ],
        )
        for root, (first, second) in zip(("/r", "/s"), calls, strict=True)
    )
    assert lines(real, sim) == [
        'payload/PreToolUse/tool_use_id: real "<tool_use_id 2>"; hooksim "<tool_use_id 1>"'
    ]


def test_the_environment_is_compared_against_what_the_host_was_started_with() -> None:
    """A variable the host adds, a PATH it prefixes with a run's folder, one it removes, and
    the process id of the host itself, which maps to <host pid> on both sides."""
    real = side(
        "/r",
        [
            {
                **probe(1, "Stop", {}, {"PATH": "/r/bin:/bin", "CLAUDE_PID": "41", "A": "1"}),
                "host_pid": 41,
            }
        ],
    )
    sim = side("/s", [{**probe(1, "Stop", {}, {"CLAUDE_PID": "7"}), "host_pid": 7}])
    sim.base_env["GONE"] = "x"
    assert lines(real, sim) == [
        'env/A: real "1"; hooksim absent',
        "env/GONE: real absent; hooksim unset",
        'env/PATH: real "<workdir>/bin:" + $PATH; hooksim as started',
    ]


def test_key_order_and_the_bytes_around_the_json_are_compared() -> None:
    """tool_response before tool_use_id on one side only, and JSON with spaces or without a
    trailing newline, are differences hooks can see."""
    real_probe = probe(1, "PostToolUse", {"tool_response": "r", "tool_use_id": "t"}, {})
    sim_probe = probe(1, "PostToolUse", {"tool_use_id": "t", "tool_response": "r"}, {})
    sim_probe["stdin"] = sim_probe["stdin"].rstrip("\n")
    real_probe["stdin"] = real_probe["stdin"].replace(": ", ":").replace(", ", ",")
    assert lines(side("/r", [real_probe]), side("/s", [sim_probe])) == [
        "order/PostToolUse/(top): real tool_response, tool_use_id; hooksim tool_use_id,"
        " tool_response",
        "stdin/PostToolUse/after ,: real ''; hooksim ' '",
        "stdin/PostToolUse/after :: real ''; hooksim ' '",
        "stdin/PostToolUse/ends with: real '\\n'; hooksim ''",
    ]


def test_each_hook_process_is_compared_by_its_id() -> None:
    """Which hooks ran for a firing, and for each the shell it ran in and how it ended."""
    real_probe, sim_probe = probe(1, "Stop", {}, {}), probe(1, "Stop", {}, {})
    command = "python -m hooksim.real.hook_recorder /r/spec.json Stop.0.0; exit $?"
    real = side(
        "/r",
        [
            real_probe,
            hook(real_probe, "Stop.0.0", parent=["/bin/sh", "-c", command]),
            hook(real_probe, "Stop.1.0", exit=2),
        ],
    )
    sim = side(
        "/s",
        [
            sim_probe,
            hook(sim_probe, "Stop.0.0", parent=["bash", "-c", command.replace("/r", "/s")]),
        ],
    )
    assert lines(real, sim) == [
        "hooks/Stop: real Stop.0.0, Stop.1.0; hooksim Stop.0.0",
        "shell/Stop.0.0: real /bin/sh -c; hooksim bash -c",
    ]


def test_firings_with_the_same_payload_keep_their_own_hooks() -> None:
    """A stop hook's continuations fire with the same payload, and a hook may start before the
    probe of its own firing: each firing's run of a hook is its own (the k-th run of the k-th
    firing), never two runs on one firing and none on the next (real Codex 0.168.0)."""
    records: dict[str, list[dict[str, Any]]] = {}
    # (probe, hook) starts: the third firing's probe starts late, after its hook, which is
    # then nearer the second firing's probe.
    for root, starts in (
        ("/r", [(0.0, 0.1), (1.0, 1.3), (2.0, 1.4)]),
        ("/s", [(0.0, 0.05), (1.0, 1.1), (2.0, 2.1)]),
    ):
        records[root] = []
        for probe_start, hook_start in starts:
            stop = {**probe(1, "Stop", {"stop_hook_active": True}, {}), "start": probe_start}
            records[root] += [stop, hook(stop, "Stop.0.0", start=hook_start, end=hook_start)]
    assert lines(side("/r", records["/r"]), side("/s", records["/s"]), "codex") == []


def test_secret_looking_values_are_not_printed() -> None:
    """A variable whose name says token, key, secret, ... differs, and says so, unprinted."""
    token = "cd2507b2c0ffee"
    real = side(
        "/r", [probe(1, "Stop", {"session_id": "x"}, {"CLAUDE_CODE_MESSAGING_TOKEN": token})]
    )
    sim = side("/s", [probe(1, "Stop", {"session_id": "y"}, {})])
    text = differences_text(differences(real, sim, get_host("claude-code")))
    assert "env/CLAUDE_CODE_MESSAGING_TOKEN: real <redacted>; hooksim absent" in text
    assert token not in text


def test_a_payload_field_that_is_null_is_no_matcher_value(tmp_path: Path) -> None:
    """Hermes' post_llm_call carries tool_name: null: the firing is post_llm_call, not
    post_llm_call(None)."""
    from hooksim.real.result import build_result

    ledger = tmp_path / "ledger.jsonl"
    ledger.write_text("")
    record = probe(1, "post_llm_call", {"tool_name": None, "session_id": "s"}, {})
    result = build_result(
        Scenario(Path("s.yaml"), "s", ()), get_host("hermes"), [record], [], ledger
    )
    assert [(f.event, f.match) for f in result.firings] == [("post_llm_call", None)]


def test_what_each_run_picks_for_itself_is_mapped() -> None:
    """The install folder, a host's random folder name, dates (in words too) and an id's first
    eight characters in a file name compare equal; what is left differs."""
    sid = "c82e693a-1111-2222-3333-444455556666"
    path = "/r/home/.codex/tmp/arg0-linux/codex-arg0AbC123:/opt/npm/node_modules/x:/bin"
    real = Side(
        [
            probe(
                1,
                "Stop",
                {
                    "session_id": sid,
                    "note": "Tuesday, December 1, 2026",
                    "file": f"chats/session-2026-12-01T15-07-{sid[:8]}.jsonl",
                },
                {"PATH": path},
            )
        ],
        RunResult(Scenario(Path("s.yaml"), "s", ())),
        Path("/r"),
        {"PATH": "/bin"},
        "/opt/npm",
    )
    sim_path = "/s/home/.codex/tmp/arg0-linux/codex-arg0zzzzzz:/s/install/node_modules/x:/bin"
    sim = Side(
        [
            probe(
                1,
                "Stop",
                {
                    "session_id": "session-1",
                    "note": "Monday, June 1, 2026",
                    "file": "chats/session-2026-06-01T09-00-session-.jsonl",
                },
                {"PATH": sim_path},
            )
        ],
        RunResult(Scenario(Path("s.yaml"), "s", ())),
        Path("/s"),
        {"PATH": "/bin"},
        "/s/install",
    )
    assert lines(real, sim, "codex") == []


def test_events_a_host_fires_from_work_it_does_not_wait_for_may_come_in_either_order() -> None:
    """Headless Gemini CLI's ``/compress`` compresses without waiting while its text goes on to
    the model, so PreCompress(manual) and BeforeAgent race; any other swap, an automatic
    compression's included, is still a difference."""

    def turn(*events: tuple[str, dict[str, Any]]) -> list[dict[str, Any]]:
        return [probe(1, event, payload, {}) for event, payload in events]

    manual, auto, agent = (
        ("PreCompress", {"trigger": "manual"}),
        ("PreCompress", {"trigger": "auto"}),
        ("BeforeAgent", {}),
    )
    real = side("/r", turn(agent, manual, auto))
    sim = side("/s", turn(manual, agent, auto))
    assert lines(real, sim, "gemini-cli") == []
    real = side("/r", turn(manual, auto, agent))
    sim = side("/s", turn(manual, agent, auto))
    assert lines(real, sim, "gemini-cli") == [
        "events/turn 1: real PreCompress PreCompress BeforeAgent;"
        " hooksim PreCompress BeforeAgent PreCompress"
    ]
    real = side("/r", turn(agent, manual))
    sim = side("/s", turn(manual, agent))
    assert lines(real, sim, "claude-code") != []


def test_the_hosts_own_version_inside_a_value_is_mapped() -> None:
    """Newcomer trial 5, finding 11: a newer release names itself in a value (Claude Code's
    ``AI_AGENT``, dashed): the version compares as ``<version>``, whatever else differs."""
    result = RunResult(Scenario(Path("s.yaml"), "s", ()))
    env = {"AI_AGENT": "claude-code_2-1-337_harness", "UA": "claude-cli/2.1.337 (external)"}
    real = Side(
        [probe(1, "Stop", {"session_id": "x"}, env)],
        result,
        Path("/r"),
        {"PATH": "/bin"},
        version="2.1.337",
    )
    same = {"AI_AGENT": "claude-code_2-1-332_harness", "UA": "claude-cli/2.1.332 (external)"}
    sim = Side(
        [probe(1, "Stop", {"session_id": "y"}, same)],
        result,
        Path("/s"),
        {"PATH": "/bin"},
        version="2.1.332",
    )
    assert lines(real, sim) == []
    other = {**same, "AI_AGENT": "claude-code_2-1-332_other"}
    sim = Side(
        [probe(1, "Stop", {"session_id": "y"}, other)],
        result,
        Path("/s"),
        {"PATH": "/bin"},
        version="2.1.332",
    )
    assert lines(real, sim) == [
        'env/AI_AGENT: real "claude-code_<version>_harness"; hooksim "claude-code_<version>_other"'
    ]
