"""Claude Code's facts, each with its sources (``hooksim hosts --sources`` prints them): data only,
read by the profile as ``facts``."""

from __future__ import annotations

from typing import Any

from ..sources import (
    CLAUDE,
    CLAUDE_DOCS,
    CLAUDE_MAIN,
    bundled,
    changelog,
    docs,
    fact,
    observed,
    unverified,
)


def _log(version: str, line: int, note: str = "") -> Any:
    return changelog(CLAUDE, CLAUDE_MAIN, version, line, note)


def _bin(offset: int, note: str) -> Any:
    """Claude Code 2.1.332's bundled code, at a byte offset of its binary."""
    return bundled("@anthropic-ai/claude-code", "2.1.332", "bin/claude.exe", offset, note)


def _bin337(offset: int, note: str) -> Any:
    """Claude Code 2.1.337's bundled code, at a byte offset of its binary."""
    return bundled("@anthropic-ai/claude-code", "2.1.337", "bin/claude.exe", offset, note)


FACTS = (
    fact(
        "transcript",
        "the session JSONL at ~/.claude/projects/<cwd, each non-alphanumeric as '-'>/<session"
        " id>.jsonl, created with the session's first message: queue operations, then user,"
        " assistant and system records chained by parentUuid; a prompt written once its"
        " UserPromptSubmit hooks are done, a tool call before PreToolUse, its result after"
        " PostToolUse, a blocked Stop's feedback and the Stop hooks' summary before the next"
        " answer, a compaction's boundary and summary after PostCompact",
        _bin(340746637, 'type:"queue-operation"'),
        _bin(346238387, 'subtype:"stop_hook_summary"'),
        observed(
            "2.1.332",
            "a hook copying transcript_path at every event; tests/real/test_transcripts.py",
        ),
    ),
    fact(
        "events",
        "SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolBatch,"
        " Stop, StopFailure, PreCompact, PostCompact, SessionEnd (and Notification,"
        " SubagentStop, UserPromptExpansion, Setup)",
        docs(CLAUDE_DOCS, "hook-events"),
    ),
    unverified(
        "PostToolBatch",
        "fires once after each model response's tool calls resolve, before the next request,"
        " with that response's tool_calls (each: tool_name, tool_input, tool_use_id,"
        " tool_response as the model saw it; real 2.1.332); a call a PreToolUse hook denied"
        " is one of them; the"
        " version that added it is not settled by a run: 2.1.118 is the first binary that"
        " names it (2.1.117's does not; no changelog names it), hooksim replays it from there",
        docs(CLAUDE_DOCS, "posttoolbatch"),
        _bin(351576598, "the query loop fires it with the response's tool_use blocks"),
        observed("2.1.332", "payload of one Bash call"),
        observed(
            "2.1.332",
            "two calls in one response, then one: fired twice, with two, then"
            " one; one call per response, a denied one too: once after each",
        ),
        observed("2.1.120", "fired after the tool calls: run of 2.1.120 in conformance-versions"),
        observed("2.1.240", "fired after the tool calls: run of 2.1.240 in conformance-versions"),
    ),
    fact(
        "Setup",
        "fires only with claude --init, --init-only or --maintenance, never in a session",
        _log("2.1.10", 4348),
    ),
    fact(
        "UserPromptExpansion",
        "fires when a slash command expands a prompt; hooksim's"
        " prompts do not expand, so it never fires",
        docs(CLAUDE_DOCS, "userpromptexpansion"),
    ),
    fact(
        "spawn",
        "/bin/sh -c COMMAND; shell: powershell picks PowerShell, shell: bash is /bin/sh -c"
        " all the same off Windows (Git Bash on it); args (v2.1.139) is"
        " exec form, no shell: the command run with those arguments",
        docs(CLAUDE_DOCS, "command-hook-fields"),
        _log("2.1.139", 2115),
        observed("2.1.328", "/bin/sh, bashisms fail"),
        _bin(345578107, "Ao=[fc(e.command),e.args.map(fc)]"),
        _bin(345575373, 'ln=e.shell??c4(),hn=ln==="powershell"'),
        _bin(345583072, "let bl=an?wi:!0; (spawn's shell: true, /bin/sh, off Windows)"),
        observed("2.1.332", "scenarios/probes/claude-code-environment.yaml: $0 is /bin/sh"),
    ),
    fact(
        "parallel",
        "all matching hooks of an event run in parallel",
        docs(CLAUDE_DOCS, "hook-execution-details"),
    ),
    fact("dedupe", "identical commands run once", docs(CLAUDE_DOCS, "hook-execution-details")),
    fact(
        "async",
        "async: true (and asyncRewake) hooks run in the background, not awaited; an"
        " asyncRewake hook that exits 2 wakes the model once the turn is over: a turn whose"
        " prompt is a task notification quoting its stderr, then Stop with"
        " stop_hook_active true (a hook ending while the turn still runs joins that turn"
        " instead: not modelled)",
        docs(CLAUDE_DOCS, "run-hooks-in-the-background"),
        _log("2.1.23", 4221),
        observed("2.1.332", "scenarios/claude-code/15-async-rewake.yaml"),
    ),
    fact(
        "matcher",
        "'', '*' or none match all; only letters, digits, _, -, spaces, ',' and"
        " '|': a list of exact names; anything else: a regex, unanchored ('Edit.*' matches"
        " NotebookEdit); '-' exact since v2.1.195, ',' lists since v2.1.191",
        docs(CLAUDE_DOCS, "matcher-patterns"),
        _log("2.1.195", 1156),
        _log("2.1.191", 1196),
        observed("2.1.328", "'as.' fires for Bash"),
    ),
    fact(
        "if",
        "a tool event's if condition (permission rule syntax, v2.1.85) filters the"
        " hook: Bash patterns against each subcommand (split at &&, ||, ;, |, newlines,"
        " parentheses; VAR= prefixes and redirections dropped; a trailing ' *' or ':*'"
        " also matches the bare command), file patterns by gitignore rules ('/x' from the"
        " project root, '//x' absolute), WebFetch(domain:HOST); a condition that does not"
        " parse never runs its hook; other tools' patterns are judged on the name only",
        _log("2.1.85", 3168),
        docs(CLAUDE_DOCS, "command-hook-fields"),
        docs("https://code.claude.com/docs/en/permissions", "permission-rule-syntax"),
        observed("2.1.332", "scenarios/probes/claude-code-if-conditions.yaml"),
    ),
    fact(
        "default_timeout_s",
        "600 s since v2.1.3 (60 s before); UserPromptSubmit 30 s",
        docs(CLAUDE_DOCS, "command-hook-fields"),
    ),
    fact(
        "SessionEnd budget",
        "SessionEnd hooks share a 1.5 s budget, raised to the highest"
        " SessionEnd timeout in the settings files (plugin hooks excluded: they share"
        " it) up to 60 s;"
        " CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS overrides it (v2.1.74; a fixed 1.5 s"
        " before)",
        _log("2.1.74", 3537),
        docs(CLAUDE_DOCS, "sessionend"),
    ),
    fact(
        "blocking",
        "UserPromptSubmit, PreToolUse, Stop, SubagentStop; PreCompact since v2.1.105",
        docs(CLAUDE_DOCS, "exit-code-2-behavior-per-event"),
        _log("2.1.105", 2788),
    ),
    fact(
        "updatedInput",
        "a PreToolUse hook's hookSpecificOutput.updatedInput replaces the tool's input"
        " unless the call is denied (v2.0.10); hooksim's PostToolUse gets the input as run",
        _log("2.0.10", 5015),
        docs(CLAUDE_DOCS, "pretooluse-decision-control"),
    ),
    fact(
        "timeout_signal",
        "a hook is started detached (a process group of its own); at its timeout the group,"
        " and any descendant outside it, gets SIGTERM, then SIGKILL 1.5 s later; a background"
        " child of the hook dies with it",
        _bin(335977956, 'detached:A()!=="windows"'),
        _bin(340339978, "von=1500"),
        observed("2.1.332", "(sleep 4; echo survived) & sleep 6 with timeout 1: nothing survived"),
    ),
    fact(
        "stop_cap",
        "8 blocked stops in a row end the turn (v2.1.143; CLAUDE_CODE_STOP_HOOK_BLOCK_CAP)",
        _log("2.1.143", 1975),
    ),
    fact(
        "compaction",
        "PreCompact, then SessionStart(compact), then PostCompact (v2.1.76)",
        _log("2.1.76", 3473),
        observed("2.1.328", "SessionStart(compact) before PostCompact"),
    ),
    fact(
        "exit codes",
        "exit 2 blocks with stderr (even empty) as the reason; other codes are"
        " non-blocking errors unless stdout is JSON",
        docs(CLAUDE_DOCS, "exit-code-output"),
    ),
    fact(
        "given to the model",
        "a denied tool call's reason is its error result, 'PreToolUse:TOOL hook error: REASON'"
        " (an exit 2's as '[COMMAND]: STDERR', stderr as written); a blocked Stop's is the"
        " next user message: '<system-reminder>', Claude Code's note that hook output is the"
        " user's standing instruction, 'Stop hook feedback:', the reason, '</system-reminder>';"
        " a PostToolUse decision block's 'PostToolUse:TOOL hook blocking error from command:"
        " \"COMMAND\": REASON'; a blocked prompt's reason goes to the user only",
        docs(CLAUDE_DOCS, "exit-code-2-behavior-per-event"),
        observed(
            "2.1.332",
            "the fake model's requests; scenarios/across/guard-reason.yaml,"
            " scenarios/across/stop-reason.yaml",
        ),
    ),
    unverified(
        "block wording elsewhere",
        "the wording before 2.1.332 (hooksim gives 2.1.332's for every version); an exit 2"
        " on PostToolUse (given plain); when two hooks deny one tool call, which reasons"
        " reach the model (a real 2.1.332 run gave a JSON deny's only, not an exit 2's;"
        " hooksim gives each)",
        observed("2.1.332", "two PreToolUse hooks denying one Bash call"),
    ),
    fact(
        "shown to the user",
        "a systemMessage as 'EVENT[:TOOL] says: MESSAGE' (none seen for SessionStart,"
        " SessionEnd or a blocked prompt); a blocked prompt as 'UserPromptSubmit operation"
        " blocked by hook:', the reason, then 'Original prompt: PROMPT'; continue: false as"
        " 'Operation stopped by hook: STOPREASON' (nothing for Stop); an exit 2 where the"
        " event cannot block: its stderr",
        docs(CLAUDE_DOCS, "exit-code-2-behavior-per-event"),
        observed("2.1.332", "stream-json system/informational messages, print mode"),
    ),
    fact(
        "stdout",
        "JSON decides; other stdout, even text starting with '{', is context for"
        " SessionStart and UserPromptSubmit only",
        docs(CLAUDE_DOCS, "json-output"),
        observed("2.1.328", "'{not json' reached the model as text"),
    ),
    fact(
        "payload",
        "stdin is compact JSON ending with a newline; the first SessionStart has"
        " no model; Stop has last_assistant_message since v2.1.47",
        _log("2.1.47", 3978),
        observed("2.1.328"),
    ),
    fact(
        "environment",
        "every hook: CLAUDE_PROJECT_DIR, CLAUDECODE=1, CLAUDE_CODE_SESSION_ID,"
        " CLAUDE_CODE_CHILD_SESSION=1, CLAUDE_CODE_SESSION_ATTENDED (1 interactive, 0 print"
        " mode), CLAUDE_PID (the CLI's process id; hooksim's own, alive the same way),"
        " CLAUDE_CODE_CHILD_NOTES_DIR ($TMPDIR/claude-UID/PROJECT/SESSION/started),"
        " CLAUDE_CODE_STARTER_READS_FOLDER_SETTINGS (since 2.1.337: 0 under claude -p;"
        " hooksim gives 0 in the terminal UI too, where no run has shown it), and"
        " what the CLI sets in its own environment at start: AI_AGENT"
        " (claude-code_VERSION-WITH-DASHES_harness unless another agent's),"
        " CLAUDE_CODE_ENTRYPOINT (cli, sdk-cli in print mode, unless given),"
        " COREPACK_ENABLE_AUTO_PIN=0, NoDefaultCurrentDirectoryInExePath=1; the loop's"
        " events (PreToolUse, PostToolUse, PostToolBatch, Stop) CLAUDE_EFFORT, the model's"
        " effort (the default model's: medium); SessionStart CLAUDE_ENV_FILE"
        " (~/.claude/session-env/SESSION/sessionstart-hook-N.sh, N the hook's place); the"
        " CLI's live messaging socket and token are not reproduced (which versions set each"
        " variable is not settled: hooksim sets them for every version)",
        docs(CLAUDE_DOCS, "persist-environment-variables"),
        _bin(339360013, 'function kut(e){let o={CLAUDECODE:"1",...,CLAUDE_PID:...}'),
        _bin(328594110, "function d6o(){if(!process.env.AI_AGENT..."),
        _bin(328596776, 'process.env.NoDefaultCurrentDirectoryInExePath="1"'),
        _bin(328596827, 'process.env.COREPACK_ENABLE_AUTO_PIN="0"'),
        _bin(329315452, 's.set("CLAUDE_CODE_ENTRYPOINT",e?"sdk-cli":"cli")'),
        _bin(333978019, "function uNs(t){return _(ZC(),t,p)} (p: started)"),
        _bin(345579446, "ko.CLAUDE_ENV_FILE=await kpl(n,Q,y.envFileSessionId)"),
        _bin(339356221, "return g(await tyo(o),`${n}-hook-${e}.sh`)"),
        _bin(339360486, "QEe: effortLevel:e.effort?.level"),
        observed("2.1.332", "scenarios/probes/claude-code-environment.yaml"),
        _bin337(357120059, 'CLAUDE_CODE_STARTER_READS_FOLDER_SETTINGS:Vrc()?"1":"0"'),
        observed("2.1.337", "CLAUDE_CODE_STARTER_READS_FOLDER_SETTINGS=0 under claude -p"),
    ),
    fact(
        "launch",
        "interactive (the terminal UI) by default; hosts.claude-code.launch: print replays"
        " claude -p as hooksim's --real runs it (stream-json in and out): attended 0,"
        " entrypoint sdk-cli, SessionEnd(other)",
        _bin(329315452, 's.set("CLAUDE_CODE_ENTRYPOINT",e?"sdk-cli":"cli")'),
        observed("2.1.332", "claude -p: SessionEnd reason other"),
    ),
    fact(
        "plain_text_transcript",
        "plain stdout of an event that gives the model none (Stop, PostToolUse, ...) is kept"
        " in the session's JSONL as a hook_success attachment (content, stdout, stderr,"
        " exitCode, command), which the transcript view shows the user; a silent success"
        " is not written",
        _bin(340716308, 'type==="hook_success"&&!e.attachment.content...: not written'),
        observed("2.1.332", "a Stop and a PostToolUse hook's plain line: hook_success content"),
    ),
    fact(
        "compaction output",
        "a PreCompact hook's plain stdout joins the summariser's instructions"
        " ('Additional Instructions:', the user's first, a blank line between); /compact's"
        " output, which the next request carries in <local-command-stdout>, is 'Compacted '"
        " and a line per PreCompact and PostCompact hook: 'EVENT [COMMAND] completed"
        " successfully: STDOUT' (no colon without output); an automatic compaction's"
        " PostCompact stdout reaches no model; an automatic compaction happens in the next"
        " prompt, so its events carry that prompt's id, and /compact and /clear are prompts"
        " of their own (new prompt ids)",
        _bin(342607778, "Kdn(Jn,po.newCustomInstructions): the user's, then the hooks'"),
        _bin(342546411, "Ndt(...{trigger:...}); Kdn(void 0,Ke.newCustomInstructions)"),
        observed("2.1.332", "scenarios/probes/claude-code-compaction.yaml"),
    ),
    fact(
        "tool ids",
        "a tool call's id is the model's: the scenario's tools: [{id}], else hooksim"
        " numbers the session's calls toolu_01, toolu_02, ... (each call its own, as a"
        " model's ids are)",
        observed("2.1.332", "tool_use_id is the id the fake model gave"),
    ),
    fact(
        "payload fields",
        "prompt_id after cwd once the session has had a prompt; only SessionStart(compact)"
        " names the model; PreCompact custom_instructions is null without instructions;"
        " PostToolUse tool_response is the tool's result object (Bash: stdout, stderr,"
        " interrupted, isImage, noOutputExpected), then tool_use_id, then duration_ms;"
        " the loop's events carry effort {level} after permission_mode",
        observed("2.1.332", "hooksim compare --real"),
    ),
    unverified(
        "SessionEnd reason",
        "quitting is prompt_input_exit in an interactive session; a print-mode run ends with other",
        docs(CLAUDE_DOCS, "sessionend"),
        observed("2.1.328", "print mode: other"),
    ),
    fact(
        "config_files",
        "~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json",
        docs(CLAUDE_DOCS, "configuration"),
    ),
    fact(
        "plugins",
        "claude --plugin-dir DIR loads a plugin where it is, with the id NAME@inline (its"
        " manifest's name; without a manifest, its folder's); its hooks are"
        " hooks/hooks.json's hooks, then each of .claude-plugin/plugin.json's hooks (a file"
        " of the same shape, or hooks inline); a hooks file's modules are code run inside"
        " Claude Code",
        _bin(328586114, '"--plugin-dir":(i)=>n.pluginDir.push(i)'),
        _bin(329736546, 'var fm="inline"'),
        _bin(391488875, "yge(s,`${We(s)}@${fm}`"),
        _bin(345053903, 'To=Wp(e,"hooks","hooks.json")'),
        _bin(345055154, "Hooks file ... specified in manifest but escapes plugin directory"),
        _bin(345038790, "return C(),{manifest:{name:n,description:`Plugin from ${o}`}"),
    ),
    fact(
        "exit 2 of an unopened script",
        "an exit 2 whose stderr is python's \"can't open file '...': [Errno 2] ...\" does not"
        " block (the hook failed); another exit 2 of python blocks",
        observed(
            "2.1.332",
            "scenarios/probes/claude-code-missing-script.yaml; an echo of the"
            " same message with exit 2 blocked nothing either",
        ),
    ),
    fact(
        "shell tool output",
        "a run: true Bash call's output loses its leading blank lines (the first line's"
        " indentation stays) and every blank at its end, the last line's trailing spaces"
        " and final newline included",
        _bin(345222174, 'function Fkr(e){let n=e.trimEnd().length;if(n===0)return""'),
        observed("2.1.332", "scenarios/probes/claude-code-shell-output.yaml"),
    ),
    fact(
        "plugin environment",
        "a plugin's hooks get CLAUDE_PLUGIN_ROOT (its folder) and CLAUDE_PLUGIN_DATA"
        " (~/.claude/plugins/data/ID, ID's characters other than letters, digits, - and _"
        " made -; created as the hook starts); a shell-form command is not substituted, the"
        " shell expands them; exec form (args) has ${CLAUDE_PROJECT_DIR},"
        " ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA} replaced in the command and each"
        " argument; a hook outside a plugin naming one of the two is refused",
        _bin(345579056, "if(ko.CLAUDE_PLUGIN_ROOT=Dn(_e),ie)ko.CLAUDE_PLUGIN_DATA=Dn(Eet(ie))"),
        _bin(334032674, 'function sw(e){return k(Yd(),"data",wye(e))}'),
        _bin(334031898, 'function wye(e){return e.replace(/[^a-zA-Z0-9\\-_]/g,"-")}'),
        _bin(345577915, 'xd=xd.replaceAll("${CLAUDE_PROJECT_DIR}"'),
        _bin(345576596, "but the hook is not associated with a plugin"),
        observed("2.1.332", "scenarios/claude-code/16-plugin.yaml"),
    ),
    fact(
        "plugin dedupe",
        "identical hooks run once per source: a plugin's (by its root) apart from the settings'",
        _bin(345614172, 'function t0(e,n){return`${omt(e.hook)?"goal":"hook"}${e.pluginRoot'),
    ),
    fact(
        "resume",
        "claude --resume ID or --continue starts a process on that session:"
        " SessionStart(resume) with its session id and transcript, on its first prompt,"
        " with seconds_since_last_response, prompt_cache_likely_expired (over the cache TTL,"
        " 5 minutes by default), context_tokens and estimated_cache_write_usd (the last"
        " reply's tokens and their price: not modelled); the process before it ended with"
        " SessionEnd (the SessionEnd reasons are clear, resume, logout, prompt_input_exit,"
        " other)",
        docs(CLAUDE_DOCS, "sessionstart"),
        _bin(329468988, 'Red=["clear","resume","logout","prompt_input_exit","other"]'),
        _bin(
            342059704,
            "{seconds_since_last_response:H,context_tokens:h,prompt_cache_likely_expired:Se>=_e,",
        ),
        observed("2.1.332", "scenarios/claude-code/17-resume.yaml"),
    ),
    fact(
        "refused output",
        "a hook's JSON is checked against one output schema: a key of the wrong type (null"
        " too), an unknown decision, a hookSpecificOutput without hookEventName or for an"
        " event that has none, or one naming another event, and a '{...}' that does not"
        " parse, make the hook failed: nothing of its output counts (a PreToolUse call runs;"
        " the user is told once per hook that it was not checked); unknown keys are dropped;"
        " a decision block drops a hookSpecificOutput naming another event and still blocks;"
        " exit 2 blocks with stderr (claude_code.output; run on 2.1.332, hooksim applies it"
        " to every version)",
        _bin(338275692, "NM=p(()=>u({continue:M().describe("),
        _bin(340850125, 'function k8(e){let n=e.trim();if(!n.startsWith("{"))'),
        _bin(345669638, "else if(Hb){ti=!0; ... hook_non_blocking_error"),
        _bin(345566022, "throw new T(`Hook returned incorrect event name"),
        _bin(340979002, 'function rws(e,n){return n!=="PermissionRequest"&&"decision"in e'),
        _bin(345678679, "Fi.ranByContract!==!0)&&Wse(...)) Pkn({toolUseID:g"),
        observed("2.1.332", "scenarios/probes/claude-code-rejected-output.yaml"),
    ),
    fact(
        "disabled",
        "disableAllHooks: true turns off the hooks of every settings file (and of installed"
        " plugins), the last file that sets it deciding; set by a non-managed file it leaves"
        " the managed settings' hooks running, set in managed settings none run; managed"
        " allowManagedHooksOnly leaves only managed hooks (hooksim reads no managed settings)",
        _log("1.0.68", 5252, "Added disableAllHooks"),
        _log("2.1.49", 3952, "non-managed settings can no longer disable managed hooks"),
        _bin(334092533, "if(o?.disableAllHooks===!0)return{};"),
        _bin(334092674, "if(t.disableAllHooks===!0){if(!rHo())return o?.hooks??{}"),
        _bin(396014332, ".map((n)=>me(n)?.disableAllHooks).findLast((n)=>n!==void 0)===!0"),
        _bin(329878837, 'disableAllHooks:()=>M().optional().describe("Disable all hooks'),
    ),
)
