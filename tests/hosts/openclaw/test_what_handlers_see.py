"""What OpenClaw's handlers are given: the keys of each hook's event and context, as the real
2026.9.6 hands them (a key whose value is ``undefined`` is there too), replayed."""

from __future__ import annotations

import tempfile
import textwrap
from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.hosts.openclaw.replay import node_binary

PLUGINS = Path(__file__).parents[3] / "scenarios" / "openclaw" / "plugins"

pytestmark = pytest.mark.skipif(
    node_binary() is None, reason="OpenClaw's plugins run in Node.js: no node on PATH"
)

# Two `openclaw agent --local` runs of the real 2026.9.6: a plain reply, then an exec call a
# guard blocks (the keys plugin's lines, as the real run wrote them).
LOCAL_RUNS = [
    "before_agent_reply event: cleanedBody | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined jobId=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trigger workspaceDir",
    "before_model_resolve event: prompt | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined jobId=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trigger workspaceDir",
    "agent_turn_prepare event: messages prompt queuedInjections | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined inputProvenance=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "before_prompt_build event: messages prompt | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined hookInvocation inputProvenance=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "before_agent_run event: accountId=undefined channelId=undefined messages prompt senderId=undefined senderIsOwner systemPrompt | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined inputProvenance=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "llm_input event: historyMessages imagesCount model prompt provider runId sessionId systemPrompt tools | ctx: agentId channel=undefined channelId=undefined chatId=undefined messageProvider=undefined runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "before_message_write event: message | ctx: agentId sessionKey",
    "model_call_started event: api callId contextTokenBudget contextWindowSource model provider runId sessionId sessionKey transport | ctx: contextTokenBudget contextWindowSource modelId modelProviderId runId sessionId sessionKey trace",
    "model_call_ended event: api callId contextTokenBudget contextWindowSource durationMs model outcome provider requestPayloadBytes responseStreamBytes runId sessionId sessionKey timeToFirstByteMs transport | ctx: contextTokenBudget contextWindowSource modelId modelProviderId runId sessionId sessionKey trace",
    "before_message_write event: message | ctx: agentId sessionKey",
    "before_agent_finalize event: cwd lastAssistantMessage messages model provider runId sessionId sessionKey stopHookActive transcriptPath | ctx: agentId modelId modelProviderId runId sessionId sessionKey trace trigger workspaceDir",
    "agent_end event: durationMs error=undefined messages runId success | ctx: agentId modelId modelProviderId runId sessionId sessionKey trace trigger workspaceDir",
    "llm_output event: assistantTexts contextTokenBudget contextWindowSource harnessId lastAssistant model provider resolvedRef runId sessionId usage | ctx: agentId channel=undefined channelId=undefined chatId=undefined contextTokenBudget contextWindowSource messageProvider=undefined runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "before_agent_reply event: cleanedBody | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined jobId=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trigger workspaceDir",
    "before_model_resolve event: prompt | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined jobId=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trigger workspaceDir",
    "agent_turn_prepare event: messages prompt queuedInjections | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined inputProvenance=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "before_prompt_build event: messages prompt | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined hookInvocation inputProvenance=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "before_agent_run event: accountId=undefined channelId=undefined messages prompt senderId=undefined senderIsOwner systemPrompt | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined inputProvenance=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "llm_input event: historyMessages imagesCount model prompt provider runId sessionId systemPrompt tools | ctx: agentId channel=undefined channelId=undefined chatId=undefined messageProvider=undefined runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "before_message_write event: message | ctx: agentId sessionKey",
    "model_call_started event: api callId contextTokenBudget contextWindowSource model provider runId sessionId sessionKey transport | ctx: contextTokenBudget contextWindowSource modelId modelProviderId runId sessionId sessionKey trace",
    "model_call_ended event: api callId contextTokenBudget contextWindowSource durationMs model outcome provider requestPayloadBytes responseStreamBytes runId sessionId sessionKey timeToFirstByteMs transport | ctx: contextTokenBudget contextWindowSource modelId modelProviderId runId sessionId sessionKey trace",
    "before_message_write event: message | ctx: agentId sessionKey",
    "resolve_exec_env event: host sessionKey toolName | ctx: agentId channelId=undefined messageProvider=undefined sessionId sessionKey",
    "before_tool_call event: params runId toolCallId toolName | ctx: abortSignal agentId requester runId sessionId sessionKey toolCallId toolName trace",
    "after_tool_call event: durationMs error params result runId toolCallId toolName | ctx: agentId runId sessionId sessionKey toolCallId toolName",
    "tool_result_persist event: isSynthetic message toolCallId toolName | ctx: agentId sessionKey toolCallId toolName",
    "before_message_write event: message | ctx: agentId sessionKey",
    "model_call_started event: api callId contextTokenBudget contextWindowSource model provider runId sessionId sessionKey transport | ctx: contextTokenBudget contextWindowSource modelId modelProviderId runId sessionId sessionKey trace",
    "model_call_ended event: api callId contextTokenBudget contextWindowSource durationMs model outcome provider requestPayloadBytes responseStreamBytes runId sessionId sessionKey timeToFirstByteMs transport | ctx: contextTokenBudget contextWindowSource modelId modelProviderId runId sessionId sessionKey trace",
    "before_message_write event: message | ctx: agentId sessionKey",
    "before_agent_finalize event: cwd lastAssistantMessage messages model provider runId sessionId sessionKey stopHookActive transcriptPath | ctx: agentId modelId modelProviderId runId sessionId sessionKey trace trigger workspaceDir",
    "agent_end event: durationMs error=undefined messages runId success | ctx: agentId modelId modelProviderId runId sessionId sessionKey trace trigger workspaceDir",
    "llm_output event: assistantTexts contextTokenBudget contextWindowSource harnessId lastAssistant model provider resolvedRef runId sessionId usage | ctx: agentId channel=undefined channelId=undefined chatId=undefined contextTokenBudget contextWindowSource messageProvider=undefined runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
]

# A gateway of the real 2026.9.6: a plain reply, the blocked exec call, `sessions compact`, a
# reset (/new), another reply, then the gateway stopped.
GATEWAY = [
    "gateway_start event: port | ctx: abortSignal config getCron port workspaceDir",
    "cron_changed event: action agentId job jobId nextRunAtMs sessionTarget | ctx: config getCron",
    "cron_changed event: action agentId job jobId nextRunAtMs sessionTarget | ctx: config getCron",
    "cron_reconciled event: enabled reason | ctx: abortSignal config getCron port workspaceDir",
    "session_start event: resumedFrom=undefined sessionId sessionKey | ctx: agentId sessionId sessionKey",
    "before_message_write event: message | ctx: agentId sessionKey",
    "before_agent_reply event: cleanedBody | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined jobId=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trigger workspaceDir",
    "before_model_resolve event: prompt | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined jobId=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trigger workspaceDir",
    "agent_turn_prepare event: messages prompt queuedInjections | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined inputProvenance=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "before_prompt_build event: messages prompt | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined hookInvocation inputProvenance=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "before_agent_run event: accountId=undefined channelId=undefined messages prompt senderId=undefined senderIsOwner systemPrompt | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined inputProvenance=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "llm_input event: historyMessages imagesCount model prompt provider runId sessionId systemPrompt tools | ctx: agentId channel=undefined channelId=undefined chatId=undefined messageProvider=undefined runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "model_call_started event: api callId contextTokenBudget contextWindowSource model provider runId sessionId sessionKey transport | ctx: contextTokenBudget contextWindowSource modelId modelProviderId runId sessionId sessionKey trace",
    "model_call_ended event: api callId contextTokenBudget contextWindowSource durationMs model outcome provider requestPayloadBytes responseStreamBytes runId sessionId sessionKey timeToFirstByteMs transport | ctx: contextTokenBudget contextWindowSource modelId modelProviderId runId sessionId sessionKey trace",
    "before_message_write event: message | ctx: agentId sessionKey",
    "before_agent_finalize event: cwd lastAssistantMessage messages model provider runId sessionId sessionKey stopHookActive transcriptPath | ctx: agentId modelId modelProviderId runId sessionId sessionKey trace trigger workspaceDir",
    "agent_end event: durationMs error=undefined messages runId success | ctx: agentId modelId modelProviderId runId sessionId sessionKey trace trigger workspaceDir",
    "llm_output event: assistantTexts contextTokenBudget contextWindowSource harnessId lastAssistant model provider resolvedRef runId sessionId usage | ctx: agentId channel=undefined channelId=undefined chatId=undefined contextTokenBudget contextWindowSource messageProvider=undefined runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "before_message_write event: message | ctx: agentId sessionKey",
    "before_agent_reply event: cleanedBody | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined jobId=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trigger workspaceDir",
    "before_model_resolve event: prompt | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined jobId=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trigger workspaceDir",
    "agent_turn_prepare event: messages prompt queuedInjections | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined inputProvenance=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "before_prompt_build event: messages prompt | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined hookInvocation inputProvenance=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "before_agent_run event: accountId=undefined channelId=undefined messages prompt senderId=undefined senderIsOwner systemPrompt | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined inputProvenance=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "llm_input event: historyMessages imagesCount model prompt provider runId sessionId systemPrompt tools | ctx: agentId channel=undefined channelId=undefined chatId=undefined messageProvider=undefined runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "model_call_started event: api callId contextTokenBudget contextWindowSource model provider runId sessionId sessionKey transport | ctx: contextTokenBudget contextWindowSource modelId modelProviderId runId sessionId sessionKey trace",
    "model_call_ended event: api callId contextTokenBudget contextWindowSource durationMs model outcome provider requestPayloadBytes responseStreamBytes runId sessionId sessionKey timeToFirstByteMs transport | ctx: contextTokenBudget contextWindowSource modelId modelProviderId runId sessionId sessionKey trace",
    "before_message_write event: message | ctx: agentId sessionKey",
    "resolve_exec_env event: host sessionKey toolName | ctx: agentId channelId=undefined messageProvider=undefined sessionId sessionKey",
    "before_tool_call event: params runId toolCallId toolName | ctx: abortSignal agentId requester runId sessionId sessionKey toolCallId toolName trace",
    "after_tool_call event: durationMs error params result runId toolCallId toolName | ctx: agentId runId sessionId sessionKey toolCallId toolName",
    "tool_result_persist event: isSynthetic message toolCallId toolName | ctx: agentId sessionKey toolCallId toolName",
    "before_message_write event: message | ctx: agentId sessionKey",
    "model_call_started event: api callId contextTokenBudget contextWindowSource model provider runId sessionId sessionKey transport | ctx: contextTokenBudget contextWindowSource modelId modelProviderId runId sessionId sessionKey trace",
    "model_call_ended event: api callId contextTokenBudget contextWindowSource durationMs model outcome provider requestPayloadBytes responseStreamBytes runId sessionId sessionKey timeToFirstByteMs transport | ctx: contextTokenBudget contextWindowSource modelId modelProviderId runId sessionId sessionKey trace",
    "before_message_write event: message | ctx: agentId sessionKey",
    "before_agent_finalize event: cwd lastAssistantMessage messages model provider runId sessionId sessionKey stopHookActive transcriptPath | ctx: agentId modelId modelProviderId runId sessionId sessionKey trace trigger workspaceDir",
    "agent_end event: durationMs error=undefined messages runId success | ctx: agentId modelId modelProviderId runId sessionId sessionKey trace trigger workspaceDir",
    "llm_output event: assistantTexts contextTokenBudget contextWindowSource harnessId lastAssistant model provider resolvedRef runId sessionId usage | ctx: agentId channel=undefined channelId=undefined chatId=undefined contextTokenBudget contextWindowSource messageProvider=undefined runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "before_compaction event: messageCount tokenCount | ctx: agentId messageProvider=undefined sessionId sessionKey workspaceDir",
    "model_call_started event: api callId contextTokenBudget model provider runId sessionId sessionKey transport | ctx: contextTokenBudget modelId modelProviderId runId sessionId sessionKey trace",
    "model_call_ended event: api callId contextTokenBudget durationMs model outcome provider requestPayloadBytes responseStreamBytes runId sessionId sessionKey timeToFirstByteMs transport | ctx: contextTokenBudget modelId modelProviderId runId sessionId sessionKey trace",
    "after_compaction event: compactedCount messageCount sessionFile tokenCount=undefined | ctx: agentId messageProvider=undefined sessionId sessionKey workspaceDir",
    "before_reset event: messages reason sessionFile | ctx: agentId sessionId sessionKey workspaceDir",
    "session_end event: durationMs=undefined messageCount nextSessionId nextSessionKey=undefined reason sessionFile=undefined sessionId sessionKey transcriptArchived=undefined | ctx: agentId sessionId sessionKey",
    "session_start event: resumedFrom sessionId sessionKey | ctx: agentId sessionId sessionKey",
    "subagent_ended event: outcome reason sendFarewell targetKind targetSessionKey | ctx: childSessionKey",
    "before_message_write event: message | ctx: agentId sessionKey",
    "before_agent_reply event: cleanedBody | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined jobId=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trigger workspaceDir",
    "before_model_resolve event: prompt | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined jobId=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trigger workspaceDir",
    "agent_turn_prepare event: messages prompt queuedInjections | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined inputProvenance=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "before_prompt_build event: messages prompt | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined hookInvocation inputProvenance=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "before_agent_run event: accountId=undefined channelId=undefined messages prompt senderId=undefined senderIsOwner systemPrompt | ctx: activeProjectKeys agentId channel=undefined channelId=undefined chatId=undefined inputProvenance=undefined messageProvider=undefined modelId modelProviderId runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "llm_input event: historyMessages imagesCount model prompt provider runId sessionId systemPrompt tools | ctx: agentId channel=undefined channelId=undefined chatId=undefined messageProvider=undefined runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "model_call_started event: api callId contextTokenBudget contextWindowSource model provider runId sessionId sessionKey transport | ctx: contextTokenBudget contextWindowSource modelId modelProviderId runId sessionId sessionKey trace",
    "model_call_ended event: api callId contextTokenBudget contextWindowSource durationMs model outcome provider requestPayloadBytes responseStreamBytes runId sessionId sessionKey timeToFirstByteMs transport | ctx: contextTokenBudget contextWindowSource modelId modelProviderId runId sessionId sessionKey trace",
    "before_message_write event: message | ctx: agentId sessionKey",
    "before_agent_finalize event: cwd lastAssistantMessage messages model provider runId sessionId sessionKey stopHookActive transcriptPath | ctx: agentId modelId modelProviderId runId sessionId sessionKey trace trigger workspaceDir",
    "agent_end event: durationMs error=undefined messages runId success | ctx: agentId modelId modelProviderId runId sessionId sessionKey trace trigger workspaceDir",
    "llm_output event: assistantTexts contextTokenBudget contextWindowSource harnessId lastAssistant model provider resolvedRef runId sessionId usage | ctx: agentId channel=undefined channelId=undefined chatId=undefined contextTokenBudget contextWindowSource messageProvider=undefined runId senderId=undefined sessionId sessionKey trace trigger workspaceDir",
    "gateway_stop event: reason | ctx: port",
    "session_end event: durationMs=undefined messageCount nextSessionId=undefined nextSessionKey=undefined reason sessionFile=undefined sessionId sessionKey transcriptArchived=undefined | ctx: agentId sessionId sessionKey",
]


def keys_scenario(folder: Path, launch: str, turns: str) -> Path:
    """A scenario with the keys plugin on every typed hook and a guard refusing ``rm``."""
    path = folder / "s.yaml"
    path.write_text(
        "name: what handlers see\ntool: openclaw\n"
        f"hosts: {{openclaw: {{launch: {launch}}}}}\n"
        "hooks:\n  plugins:\n"
        f"    load: {{paths: [{PLUGINS / 'keys'}, {PLUGINS / 'scripted'}]}}\n"
        "    entries:\n      keys: {hooks: {allowConversationAccess: true}}\n"
        "      scripted:\n        config:\n          handlers:\n"
        "            - {hook: before_tool_call, when: {params.command: rm},"
        " return: {block: true, blockReason: no rm}}\n" + textwrap.dedent(turns)
    )
    return path


@pytest.fixture(autouse=True)
def _workdirs_in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The work directories --keep-workdir keeps go under the test's own folder."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


def ran(path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The keys plugin's lines of a replay of ``path`` (its work directory kept)."""
    assert main(["run", str(path), "--keep-workdir"]) == 0
    out = capsys.readouterr().out
    workdir = next(line.split(": ", 1)[1] for line in out.splitlines() if "workdir: " in line)
    return (Path(workdir) / "project" / ".openclaw-keys").read_text().splitlines()


def test_local_runs_hand_handlers_the_keys_the_real_host_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two --local runs: every hook's event and ctx have the real host's keys, no more."""
    path = keys_scenario(
        tmp_path,
        "local",
        """
        turns:
          - {user: hello, assistant: Hi.}
          - {after: 1m, user: clean, tools: [{shell: "rm -rf build"}], assistant: Refused.}
        """,
    )
    lines = [line for line in ran(path, capsys) if not line.startswith("register")]
    assert lines == LOCAL_RUNS


def test_a_gateway_hands_handlers_the_keys_the_real_host_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A gateway's hooks, its start and stop, a manual compaction and a reset included: every
    event and ctx has the real host's keys, no more."""
    path = keys_scenario(
        tmp_path,
        "gateway",
        """
        turns:
          - {user: hello, assistant: Hi.}
          - {after: 1m, user: clean, tools: [{shell: "rm -rf build"}], assistant: Refused.}
          - {after: 1m, compact: manual}
          - {after: 1m, new_session: second, label: fresh}
          - {after: 1m, user: again, assistant: Again.}
        """,
    )
    lines = [line for line in ran(path, capsys) if not line.startswith("register")]
    assert lines == GATEWAY


@pytest.mark.parametrize(
    ("launch", "registered"),
    [
        ("local", ["register full", "register discovery", "register discovery"] * 2),
        ("gateway", ["register full", "register discovery"]),
    ],
)
def test_register_runs_as_often_as_the_real_host_calls_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], launch: str, registered: list[str]
) -> None:
    """OpenClaw calls register() once to register, then in discovery passes whose handlers
    never run: twice more in each --local run, once more in a gateway (observed)."""
    path = keys_scenario(
        tmp_path,
        launch,
        """
        turns:
          - {user: hello, assistant: Hi.}
          - {after: 1m, user: again, assistant: Again.}
        """,
    )
    lines = ran(path, capsys)
    assert [line for line in lines if line.startswith("register")] == registered
    assert sum(line.startswith("agent_end ") for line in lines) == 2


def test_a_local_run_that_compacts_registers_once_more_for_its_compaction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An --local run that compacts first loads the compaction's runtime, which runs
    register() for discovery once more: four passes in that process (observed)."""
    path = keys_scenario(
        tmp_path,
        "local",
        """
        turns:
          - {user: hello, assistant: Hi.}
          - {after: 1m, compact: auto}
          - {after: 1m, user: again, assistant: Again.}
        """,
    )
    registered = [line for line in ran(path, capsys) if line.startswith("register")]
    assert registered == [
        "register full",
        "register discovery",
        "register discovery",
        "register full",
        "register discovery",
        "register discovery",
        "register discovery",
    ]
