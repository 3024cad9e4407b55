"""Gemini CLI's facts, each with its sources (``hooksim hosts --sources`` prints them): data only,
read by the profile as ``facts``."""

from __future__ import annotations

from typing import Any

from ..sources import GEMINI, GEMINI_MAIN, code, fact, observed, release
from .constants import COALESCED_SINCE, QUOTED_SINCE, VARIABLES_SINCE


def _src(path: str, line: int, note: str = "") -> Any:
    return code(GEMINI, GEMINI_MAIN, path, line, note)


def _pkg(chunk: str, line: int, note: str = "") -> Any:
    """A line of the released 0.61.0 bundle (the chunks ``bundle/gemini.js`` loads)."""
    return release("@google/gemini-cli", "0.61.0", f"bundle/{chunk}", line, note)


CLI_CHUNK = "chunk-HPLZM7PQ.js"  # packages/cli, as gemini-3HFX2LNT.js imports it
CORE_CHUNK = "chunk-JDPZ4CE3.js"  # packages/core


RUNNER = "packages/core/src/hooks/hookRunner.ts"
PLANNER = "packages/core/src/hooks/hookPlanner.ts"
CLIENT = "packages/core/src/core/client.ts"
REFERENCE = "docs/hooks/reference.md"
CHAT = "packages/core/src/core/geminiChat.ts"
GEMINI_TSX = "packages/cli/src/gemini.tsx"


FACTS = (
    fact(
        "transcript",
        "the chat file ~/.gemini/tmp/<project>/chats/session-<minute>-<id prefix>.jsonl (JSON"
        " lines; an older .json file is converted when resumed): metadata, then each message"
        " and $set"
        " updates; a prompt, a tool's response and a retry's prompt written when their"
        " request goes out (after PreCompress), a reply before AfterAgent; a headless resume"
        " names a new file in SessionStart, then writes on in the session's",
        _pkg(CORE_CHUNK, 286195, "ChatRecordingService"),
        _pkg(CORE_CHUNK, 286270, "the session file's name"),
        _pkg(CORE_CHUNK, 286243, "a resume's $set sessionId"),
        observed("0.61.0", "gemini -p; tests/real/test_transcripts.py"),
    ),
    fact(
        "events",
        "SessionStart, BeforeAgent, BeforeModel, BeforeToolSelection, AfterModel,"
        " BeforeTool/AfterTool, AfterAgent, PreCompress, SessionEnd (and Notification)",
        _src("packages/core/src/hooks/types.ts", 43),
        _src(REFERENCE, 77, "tool, agent, model and lifecycle hooks: 77, 143, 185, 243"),
    ),
    fact(
        "headless",
        "gemini -p is a session of its own: SessionStart(startup), or (resume) with"
        " --resume, then the prompt, then SessionEnd(exit); hosts.gemini-cli.launch: headless",
        _src(GEMINI_TSX, 823, "resumedSessionData ? Resume : Startup"),
        _src(GEMINI_TSX, 660, "await fireSessionEndEvent(Exit)"),
        observed("0.61.0", "SessionStart(resume) and SessionEnd(exit) on every -p run"),
    ),
    fact(
        "headless prompt",
        "gemini -p puts its SessionStart hooks' context (joined by newlines, < and >"
        " escaped) in <hook_context> and a blank line before the prompt: BeforeAgent's and"
        " AfterAgent's prompt and the model's message carry it",
        _pkg("gemini-3HFX2LNT.js", 17592, "wrappedContext: input = wrapped + prompt"),
        _pkg(CORE_CHUNK, 335331, "getAdditionalContext: < and > escaped"),
        _pkg(CORE_CHUNK, 363639, "additionalContexts.join('\\n')"),
        observed("0.61.0", "scenarios/probes/gemini-cli-sequential-and-environment.yaml"),
    ),
    fact(
        "model events",
        "BeforeModel, BeforeToolSelection and AfterModel carry the conversation sent:"
        " llm_request {model, messages (each message's text parts joined; a tool call's or"
        " result's, without text, left out), config {temperature 1, topP 0.95, topK 64}};"
        " a new chat's first message is the session context (date, system, the project's"
        " temporary folder, the workspace and its folder structure) followed by the prompt"
        " and a <hook_context> part per BeforeAgent context (before v0.53.0 the prompt is a"
        " message of its own, the next); a resumed chat keeps that first"
        " message's session context and its chat file's parts (none that starts with"
        " <hook_context>); AfterModel's llm_response {text, candidates [{content {role"
        " model, parts}, finishReason STOP, index 0}], usageMetadata} (the counts hooksim's"
        " fake model reports)",
        _pkg(CORE_CHUNK, 335021, "toHookLLMRequest"),
        _pkg(CORE_CHUNK, 334956, "getEnvironmentContext"),
        _pkg(CORE_CHUNK, 322100, "getFolderStructure"),
        _pkg(CORE_CHUNK, 346762, "BeforeAgent's context: a <hook_context> part"),
        _pkg(CORE_CHUNK, 285868, "the chat file keeps no <hook_context> part"),
        _pkg(CORE_CHUNK, 332210, "coalesceConsecutiveRoles: the context and prompt joined"),
        code(GEMINI, COALESCED_SINCE, CHAT, 691, "joined from v0.53.0; before, two messages"),
        release(
            "@google/gemini-cli",
            "0.51.0",
            "bundle/chunk-DHQ53XVO.js",
            321772,
            "makeApiCallAndProcessStream sends each entry as it is",
        ),
        observed("0.61.0", "scenarios/probes/gemini-cli-tools-and-exit-codes.yaml"),
        observed("0.39.0", "the session context and the prompt two user messages"),
    ),
    fact(
        "headless /compress",
        "gemini -p '/compress' (or /compact) runs the command, PreCompress(manual), and then"
        " sends its text to the model as a prompt all the same (a command that returns"
        " nothing falls through): one more model turn, AfterAgent and a chat-file turn"
        " included",
        _src("packages/cli/src/nonInteractiveCliCommands.ts", 112, "returns nothing"),
        _src("packages/cli/src/nonInteractiveCli.ts", 272, "falls through to the prompt"),
        _src("packages/cli/src/ui/commands/compressCommand.ts", 12, "altNames compact"),
        observed("0.61.0", "scenarios/probes/gemini-cli-headless-compress.yaml"),
    ),
    fact(
        "races",
        "the command compresses in a promise it does not wait for (void (async () => ...)),"
        " so PreCompress(manual) and the prompt's BeforeAgent come in either order (the"
        " replay fires PreCompress first; compare --real takes either)",
        _pkg(CLI_CHUNK, 78146, "compressCommand: void (async () => tryCompressChat)"),
        observed("0.61.0", "BeforeAgent first in 2 of 6 runs on a loaded machine"),
    ),
    fact(
        "not_awaited",
        "PreCompress and SessionEnd are awaited (the docs say they are not)",
        _src(
            "packages/core/src/context/chatCompressionService.ts",
            266,
            "await firePreCompressEvent",
        ),
        _src("packages/cli/src/ui/commands/clearCommand.ts", 31, "await fireSessionEndEvent"),
        _src(GEMINI_TSX, 660, "await fireSessionEndEvent on exit"),
        _src(REFERENCE, 296, "docs: fired asynchronously; the code wins"),
        _src(REFERENCE, 269, "docs: SessionEnd will not wait; the code wins"),
        observed("0.61.0", "PreCompress and SessionEnd awaited"),
    ),
    fact(
        "PreCompress",
        "fires (trigger auto) before every model request, a session's first included"
        " (the history starts with the environment context, so it is never empty), before"
        " the token check decides whether to compress; an automatic compression is that"
        " check, so it fires once",
        _src("packages/core/src/context/chatCompressionService.ts", 252, "only if empty"),
        _src("packages/core/src/context/chatCompressionService.ts", 266),
        _src("packages/core/src/utils/environmentContext.ts", 101, "history's first entry"),
        _src(CLIENT, 689, "processTurn calls tryCompressChat before each request"),
        observed("0.61.0", "PreCompress(auto) before the first request too"),
    ),
    fact(
        "model events",
        "BeforeModel, then BeforeToolSelection, before every request; AfterModel for"
        " each streamed chunk of the reply (hooksim's replies are one chunk); a BeforeModel"
        " deny sends no request; the tool calls one response asks for all run before the next"
        " request, which carries their results",
        _src(CHAT, 932),
        _src(CHAT, 944, "blocked: the hook's synthetic response instead"),
        _src(CHAT, 987),
        _src(CHAT, 1400, "per chunk"),
        observed(
            "0.61.0",
            "two calls in one response, then one: three requests, and in the"
            " chat file one message per response, its results one user message",
        ),
    ),
    fact(
        "model request hooks",
        "a BeforeModel deny sends no request: its hookSpecificOutput.llm_response (the last"
        " hook's) is the turn's answer, else it has none, and AfterAgent fires; an"
        " AfterModel llm_response with parts replaces the reply the turn gets, while the chat"
        " keeps the model's; an AfterModel deny leaves the turn the reply as it came, the"
        " chat none of it; either shows 'Agent execution blocked: <reason>'. continue: false"
        " from either stops the agent: gemini -p returns at once (no AfterAgent; the chat"
        " rolls back the prompt), the interactive UI reads the turn to its end (AfterAgent,"
        " no answer). BeforeToolSelection's decision and continue are not read: only its"
        " toolConfig (NONE wins, else ANY, else AUTO; every hook's names, sorted), which the"
        " request carries",
        _pkg(CORE_CHUNK, 332259, "BeforeModel: stopped, blocked with syntheticResponse"),
        _pkg(CORE_CHUNK, 332587, "AfterModel: stopped, blocked with the chunk"),
        _pkg(CORE_CHUNK, 332098, "the synthetic response yielded as the reply's chunk"),
        _pkg(CORE_CHUNK, 332150, "not a success: the history rolls back"),
        _pkg(CORE_CHUNK, 364340, "fireBeforeToolSelectionEvent: the tool config only"),
        _pkg(CORE_CHUNK, 363674, "mergeToolSelectionOutputs"),
        _pkg("gemini-3HFX2LNT.js", 12255, "gemini -p returns on AgentExecutionStopped"),
        _pkg("interactiveCli-TRXNUIPM.js", 28141, "the UI goes on reading"),
        observed("0.61.0", "scenarios/gemini-cli/19-before-model-blocks.yaml, 20, 21"),
    ),
    fact(
        "spawn",
        "bash -c COMMAND, shell: false, cwd = the session's cwd",
        _src("packages/core/src/utils/shell-utils.ts", 698),
        _src(RUNNER, 358),
    ),
    fact(
        "environment",
        "Gemini's whole environment (redacted only with GITHUB_SHA set or"
        " redaction on), its relaunched process's GEMINI_CLI_NO_RELAUNCH=true, then"
        " GEMINI_PROJECT_DIR, GEMINI_PLANS_DIR, GEMINI_CWD, GEMINI_SESSION_ID and"
        " CLAUDE_PROJECT_DIR, then the hook's own env",
        _src(RUNNER, 348),
        _src(RUNNER, 355, "hookConfig.env last"),
        _src("packages/core/src/services/environmentSanitization.ts", 18),
        _src("packages/cli/src/utils/processUtils.ts", 85, "GEMINI_CLI_NO_RELAUNCH"),
        code(
            GEMINI,
            VARIABLES_SINCE,
            RUNNER,
            351,
            "GEMINI_PLANS_DIR, GEMINI_CWD and"
            " GEMINI_SESSION_ID from v0.39.0; before, the project directory only",
        ),
        observed("0.61.0", "GEMINI_API_KEY and GEMINI_CLI_NO_RELAUNCH reached the hook"),
    ),
    fact(
        "GEMINI_PLANS_DIR",
        "~/.gemini/tmp/<project's short id>/<session id>/plans (the short id is the"
        " project folder's name as a slug)",
        _src(RUNNER, 351),
        _src("packages/core/src/config/storage.ts", 321),
        _src("packages/core/src/config/projectRegistry.ts", 163),
        observed("0.61.0", "~/.gemini/tmp/project/<session id>/plans"),
    ),
    fact(
        "command substitution",
        "$GEMINI_PROJECT_DIR, $GEMINI_CWD, $GEMINI_PLANS_DIR, $GEMINI_SESSION_ID and"
        " $CLAUDE_PROJECT_DIR in the command string are replaced, shell-quoted as"
        " shell-quote quotes (backslashes where it can, nothing for an empty value), before"
        " the shell runs it",
        _src(RUNNER, 526),
        _src("packages/core/src/utils/shell-utils.ts", 714),
        code(GEMINI, QUOTED_SINCE, RUNNER, 362, "quoted from v0.23.0; before, raw"),
    ),
    fact(
        "parallel",
        "matching hooks run in parallel unless any has sequential: true",
        _src(PLANNER, 54),
        _src(RUNNER, 119),
    ),
    fact(
        "sequential input",
        "in a sequential run a hook that exits 0 with JSON output changes the next"
        " hook's input: BeforeAgent prompt += blank line + additionalContext, BeforeModel"
        " llm_request merged, BeforeTool tool_input merged; other events pass it unchanged",
        _src(RUNNER, 157),
        _src(RUNNER, 172),
    ),
    fact(
        "tool_input",
        "a BeforeTool hook's hookSpecificOutput.tool_input is merged into the tool's input"
        " before it runs (v0.24.0); AfterTool gets the merged input and the tool's own"
        " result, the model that result and, after AfterTool, a note of the rewrite",
        _src("packages/core/src/core/coreToolHookTriggers.ts", 128, "Object.assign"),
        _pkg(CORE_CHUNK, 347173, "the scheduler's note, after executeToolWithHooks"),
        observed("0.61.0", "scenarios/gemini-cli/24-tool-rewrites-and-stops.yaml"),
        code(
            GEMINI,
            "90eb1e0281bf544efd5a65d964bab2c7c2173e16",
            "packages/core/src/hooks/types.ts",
            "getModifiedToolInput",
            "added 2025-12-30, first in v0.24.0",
        ),
    ),
    fact(
        "dedupe",
        "identical hooks of one firing run once (key: name and command)",
        _src(PLANNER, 48),
        _src("packages/core/src/hooks/types.ts", 121),
    ),
    fact(
        "matcher",
        "trimmed; '' or '*' match all; tool events: a RegExp test (unanchored),"
        " an invalid regex compares exactly; SessionStart/SessionEnd/PreCompress: the exact"
        " string",
        _src(PLANNER, 84),
        _src(PLANNER, 108),
        _src(PLANNER, 119),
        observed("0.61.0", "exact-string matchers for SessionStart/SessionEnd/PreCompress"),
    ),
    fact(
        "default_timeout_s",
        "60 000 ms; timeout is configured in milliseconds",
        _src(RUNNER, 36),
    ),
    fact(
        "timeout_signal",
        "a timeout sends SIGTERM to the hook's bash only (no process group of its own); the"
        " SIGKILL 5 s later is sent only if !child.killed, which Node set when the SIGTERM was"
        " delivered, so none follows; the run ends when the hook's pipes close",
        _src(RUNNER, 381),
        _pkg(CORE_CHUNK, 363380),
        observed(
            "0.61.0", "a trap on TERM runs at the timeout; a child holding stdout delays the end"
        ),
    ),
    fact(
        "exit codes",
        "v0.30.0 on: stdout's text, else stderr's, is JSON whatever the exit"
        " code; other text: exit 0 systemMessage, exit 1 warning, any other code a deny with"
        " the text; a silent non-zero exit only fails",
        _src(RUNNER, 455),
        _src(RUNNER, 547),
        _src(RUNNER, 554),
        code(
            GEMINI,
            "884acda2dca825e9f2e763ce65b75b78657cc973",
            RUNNER,
            431,
            "the change, 2026-02-15, first in v0.30.0",
        ),
        observed("0.61.0", "exit 3 with output denies; silent exit 2 does not"),
    ),
    fact(
        "blocking",
        "BeforeAgent, BeforeTool, BeforeModel, AfterModel and AfterAgent (a retry) can"
        " deny; an AfterTool deny replaces the tool's result with the reason; continue:"
        " false from BeforeTool or AfterTool makes the call's response the stop, which the"
        " chat keeps, and a stopped prompt joins the chat (a blocked one does not)",
        _src(
            "packages/core/src/core/coreToolHookTriggers.ts",
            211,
            "llmContent: Tool result blocked: <reason>",
        ),
        _src(CHAT, 1411),
        _src(REFERENCE, 114),
        _pkg(CORE_CHUNK, 342112, "BeforeTool stop: STOP_EXECUTION"),
        _pkg(CORE_CHUNK, 346750, "a stopped prompt: addHistory"),
        observed("0.61.0", "scenarios/gemini-cli/24-tool-rewrites-and-stops.yaml"),
    ),
    fact(
        "stop",
        "an AfterAgent deny sends the reason as a new prompt: BeforeAgent fires"
        " again, AfterAgent with stop_hook_active: true",
        _src(CLIENT, 1017),
        _src(CLIENT, 1032),
        observed("0.61.0", "BeforeAgent again with the reason"),
    ),
    fact(
        "stop_cap",
        "none: the retry spends the per-prompt budget (MAX_TURNS = 100), which"
        " does not stop a hook that keeps denying; hooksim ends the loop at 50",
        _src(CLIENT, 79),
        _src(CLIENT, 1030),
    ),
    fact(
        "given to the model",
        "a deny's reason (stopReason, else reason, else 'No reason provided'; several"
        " hooks' joined by a newline) is, for BeforeTool, the denied tool's function"
        " response {error: 'Tool execution blocked: REASON'}, for AfterTool {error: REASON},"
        " for AfterAgent the retry prompt, as it is",
        _src("packages/core/src/scheduler/hook-utils.ts", 68),
        _src("packages/core/src/scheduler/tool-executor.ts", 468, "createErrorResponse"),
        _src("packages/core/src/hooks/types.ts", 232, "getEffectiveReason"),
        _src("packages/core/src/hooks/hookAggregator.ts", 201),
        _src(CLIENT, 1017, "continueRequest"),
        observed(
            "0.61.0",
            "scenarios/across/guard-reason.yaml, stop-reason.yaml: the fake model's requests",
        ),
    ),
    fact(
        "prompt_response",
        "AfterAgent's prompt_response holds every reply of the prompt, retries included, one"
        " per line; '[no response text]' when there is none",
        _src(CLIENT, 869, "cumulativeResponse"),
        _src(CLIENT, 241),
    ),
    fact(
        "shown to the user",
        "a systemMessage (and a hook's plain stdout on exit 0, 'Warning: TEXT' on exit 1); a"
        " denied tool's 'Tool execution blocked: REASON' or 'Tool result blocked: REASON';"
        " 'Agent execution blocked: MESSAGE or REASON' for a BeforeAgent or AfterAgent deny,"
        " 'Agent execution stopped: …' for their continue: false",
        _src(RUNNER, 545),
        _src(RUNNER, 551),
        _src("packages/core/src/hooks/hookEventHandler.ts", 465, "emitHookSystemMessage"),
        _src("packages/core/src/core/coreToolHookTriggers.ts", 114, "returnDisplay"),
        _src("packages/core/src/core/coreToolHookTriggers.ts", 212, "returnDisplay"),
        _src("packages/cli/src/ui/hooks/useGeminiStream.ts", 1499),
        _src("packages/cli/src/ui/hooks/useGeminiStream.ts", 1460),
    ),
    fact(
        "context",
        "BeforeAgent additionalContext joins the prompt as <hook_context>…</hook_context>",
        _src(CLIENT, 953),
        observed("0.61.0"),
    ),
    fact(
        "SessionStart",
        "continue and decision are ignored; additionalContext joins the"
        " history (interactive) or the prompt (headless) as <hook_context>",
        _src(REFERENCE, 257),
        _src(GEMINI_TSX, 838),
        _src("packages/cli/src/ui/AppContainer.tsx", 504),
    ),
    fact(
        "trust",
        "in an untrusted folder no settings hooks are registered (the user's included:"
        " all settings hooks count as the project's); new project hooks in a trusted"
        " folder are trusted with a warning; a headless run refuses an untrusted folder",
        _src("packages/core/src/hooks/hookRegistry.ts", 180),
        _src("packages/core/src/hooks/hookRegistry.ts", 151),
        _src(RUNNER, 64),
    ),
    fact(
        "type",
        "a hook without type (command, plugin or runtime) is discarded",
        _src("packages/core/src/hooks/hookRegistry.ts", 301),
    ),
    fact(
        "config_files",
        "user ~/.gemini/settings.json and project .gemini/settings.json",
        _src(REFERENCE, 21),
    ),
    fact(
        "extensions",
        "each folder of ~/.gemini/extensions with a gemini-extension.json (name: letters,"
        " digits, dashes; and a version) is an extension; gemini extensions install copies"
        " one there; its hooks are hooks/hooks.json's hooks object, every string hydrated:"
        " ${extensionPath}, ${workspacePath}, ${/}, ${pathSeparator} (an unknown ${name}"
        " stays); they register after the settings' hooks, trusted folder or not, and get"
        " no variable of their own (only an extension setting's, with"
        " experimental.extensionConfig: not modelled)",
        _pkg(CLI_CHUNK, 65699, "loadExtensions: each folder of the extensions dir"),
        _pkg(CLI_CHUNK, 66038, "a config without name or version is refused"),
        _pkg(CLI_CHUNK, 66053, "validateName"),
        _pkg(CLI_CHUNK, 66064, "loadExtensionHooks: hooks/hooks.json"),
        _pkg(CLI_CHUNK, 66074, "recursivelyHydrateStrings(rawHooks.hooks)"),
        _pkg(CLI_CHUNK, 61182, "hydrateString: an unknown name stays"),
        _pkg(CLI_CHUNK, 65901, "hydrationContext"),
        _pkg(CLI_CHUNK, 65542, "install copies the folder"),
        _pkg(CORE_CHUNK, 363068, "extension hooks, outside the trust check"),
        _pkg(CORE_CHUNK, 363162, "ConfigSource.Extensions: priority 4, after settings"),
        _pkg(CORE_CHUNK, 363363, "...hookConfig.env"),
        observed("0.61.0", "scenarios/gemini-cli/17-extension.yaml"),
    ),
    fact(
        "clearContext",
        "AfterAgent's hookSpecificOutput.clearContext: true (no other event reads it), when"
        " its hooks stop the agent or deny: the chat is reset before the retry prompt is"
        " sent, and the interactive UI shows 'Conversation context has been cleared.';"
        " gemini -p prints nothing of it",
        _pkg(CORE_CHUNK, 335356, "DefaultHookOutput.shouldClearContext: false"),
        _pkg(CORE_CHUNK, 335461, "AfterAgentHookOutput.shouldClearContext"),
        _pkg(CORE_CHUNK, 346777, "stop: contextCleared, resetChat"),
        _pkg(CORE_CHUNK, 346793, "deny: contextCleared, resetChat, then continueRequest"),
        _pkg(CORE_CHUNK, 346368, "resetChat: a new chat"),
        _pkg("interactiveCli-TRXNUIPM.js", 28098, "the UI's line"),
        observed("0.61.0", "scenarios/gemini-cli/18-clear-context.yaml"),
    ),
    fact(
        "resume",
        "gemini --resume starts on a saved session: SessionStart(resume); the CLI before it"
        " quit with SessionEnd(exit)",
        _src(GEMINI_TSX, 823, "resumedSessionData ? Resume : Startup"),
        _src(GEMINI_TSX, 660, "await fireSessionEndEvent(Exit)"),
    ),
    fact(
        "disabled",
        "hooksConfig.enabled (default true) false: no hook system starts, no hook runs;"
        " hooksConfig.disabled (the lists of all settings files added up) names hooks that"
        " do not run, each by its name, else its command",
        _src("packages/cli/src/config/settingsSchema.ts", 2558, "hooksConfig.enabled"),
        _src("packages/cli/src/config/settingsSchema.ts", 2581, "disabled: MergeStrategy.UNION"),
        _src("packages/core/src/config/config.ts", 1555, "if (this.getEnableHooks())"),
        _src("packages/core/src/hooks/hookRegistry.ts", 131, "name || command"),
        _src("packages/core/src/hooks/hookRegistry.ts", 257, "getDisabledHooks()"),
        _pkg("gemini-3HFX2LNT.js", 8655, "enableHooks: settings.hooksConfig.enabled"),
        _pkg("chunk-2YTYPKEZ.js", 14673, "hooksConfig.enabled, default: true"),
        _pkg(CORE_CHUNK, 363102, "const disabledHooks = this.config.getDisabledHooks()"),
    ),
)
