"""Claude Code's profile: its attributes (events, timeouts, spawn rules) and its rules (parsing its
hook config, matching, reading a hook's output)."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from ..claude_style import NO_VERDICT_SHOWN, TRANSCRIPT_ONLY, ClaudeStyleReading
from ..config import parse_matcher_groups
from ..output import json_object, parse_json_output
from ..plugins import hook_specs
from ..profile import Host, Switch, as_version, parse_version, read_json_once
from ..records import PYTHON_CANNOT_OPEN, ConfigError, HookRun, HookSpec, Plugin, Verdict
from ..session import SessionInfo
from ..sources import CLAUDE, CLAUDE_DOCS, CLAUDE_MAIN
from ..transcript import folder_name
from .constants import (
    DEFAULT_MODEL,
    EFFORT_EVENTS,
    EFFORTS,
    EVENTS,
    EXACT_MATCHER,
    EXACT_MATCHER_BEFORE_2_1_195,
    IF_EVENTS,
    MATCHER_EVENTS,
    PLUGIN_VARIABLES,
    SESSION_END_BUDGET_S,
    SESSION_END_MAX_S,
)
from .facts import FACTS
from .output import accepted, dropped_keys, refusal
from .plugin import read_claude_plugin
from .rules import Places, Rule
from .session import ClaudeSession
from .transcript import ClaudeCodeJsonl


class ClaudeCode(ClaudeStyleReading, Host):
    name = "claude-code"
    folder_variables = ("CLAUDE_CONFIG_DIR",)
    title = "Claude Code"
    modelled = "v2.1.337 (hooks reference, changelog, real binary)"
    versions = (
        "v1.0.85 (the first with SessionEnd) to v2.1.337 (default v2.1.337), real runs from"
        " v2.1.310 on (before v2.1.326 without CLAUDE_CODE_CHILD_NOTES_DIR, before v2.1.337"
        " without CLAUDE_CODE_STARTER_READS_FOLDER_SETTINGS); before, from the"
        " changelog only: runs of 1.0.85, 2.0.76, 2.1.120, 2.1.240 and 2.1.288 differ from"
        " their replays (payload fields, variables, a manual /compact in print mode;"
        " conformance-versions, docs/host-versions.md)"
    )
    checked = (
        f"docs ({CLAUDE_DOCS}), CHANGELOG ({CLAUDE}@{CLAUDE_MAIN[:12]}), a real 2.1.328 run,"
        " real 2.1.337 compared by `hooksim compare --real` (tox -e conformance-claude-code)"
    )
    events = {
        "session_start": "SessionStart",
        "prompt_submit": "UserPromptSubmit",
        "pre_tool": "PreToolUse",
        "post_tool": "PostToolUse",
        "stop": "Stop",
        "pre_compact": "PreCompact",
        "post_compact": "PostCompact",
        "session_end": "SessionEnd",
    }
    config_files = (
        "~/.claude/settings.json",
        ".claude/settings.json",
        ".claude/settings.local.json",
    )
    # Every settings source's hooks run, user then project then local, an identical command
    # once (newcomer trial 3: a seeded .claude/settings.json ran on the real 2.1.332).
    project_configs = (".claude/settings.json", ".claude/settings.local.json")
    spawn = "shell"
    shell_tool = "Bash"  # the Bash tool (hooks reference: PreToolUse matcher values)
    shell_tool_argv = ("bash", "-c")  # the Bash tool runs the user's shell; hooksim's is bash
    parallel = True
    dedupe = True
    match_search = True  # a regex matcher is tested unanchored
    default_timeout_s = 600.0  # since v2.1.3; 60 s before
    event_timeouts_s = {"UserPromptSubmit": 30.0, "SessionEnd": SESSION_END_BUDGET_S}
    blocking = frozenset({"UserPromptSubmit", "PreToolUse", "Stop", "SubagentStop", "PreCompact"})
    stop_cap = 8  # CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, v2.1.143
    stop_flag = "stop_hook_active"
    plain_text_transcript = True  # a hook_success record with the text (facts: transcript)
    # Each hook is started detached (a process group of its own); a timeout signals the group.
    timeout_signal = "SIGTERM"
    timeout_kills_group = True
    term_grace_s = 1.5
    exit_2 = "blocks, stderr is the reason (even empty)"
    session_class = ClaudeSession
    transcript = ClaudeCodeJsonl
    resumes = True  # claude --resume / --continue: SessionStart(resume), the same session id
    plugin_kind = "plugin"  # a folder loaded with --plugin-dir
    sends_last_message = True  # Stop's last_assistant_message, since v2.1.47
    shared_session_end_budget = True  # v2.1.74: the highest SessionEnd timeout raises the budget
    post_tool_batch = True
    default_model = DEFAULT_MODEL
    release = "2.1.337"  # the version its variables name (AI_AGENT)
    # CLAUDE_CODE_CHILD_NOTES_DIR: first named by the 2.1.326 binary; real 2.1.310, 2.1.318 and
    # 2.1.325 set none (runs in conformance-versions).
    child_notes_dir = True
    # CLAUDE_CODE_STARTER_READS_FOLDER_SETTINGS: first set by 2.1.337 (2.1.332 is the release
    # before it on the registry, and sets none).
    starter_reads_folder_settings = True
    print_launch = False  # claude -p (launched("print")): nobody attends, entrypoint sdk-cli
    # What `hooksim compare --real` may find different from the real binary, and why: only what
    # hooksim cannot reproduce.
    real_tolerances = {
        "payload/PostCompact/compact_summary": "the model writes the summary",
        "payload/PostToolUse/tool_response": "a file tool's result (Read, Write, Edit) is an"
        " object the real tool builds; a scenario gives a tool's result as text",
        # As on Gemini CLI and Hermes: a shell call runs on the real host whatever run: says.
        **dict.fromkeys(
            [
                f"payload/PostToolUse/tool_response.{key}"
                for key in ("stdout", "stderr", "noOutputExpected")
            ],
            "the tool really runs on the host: its output is not the scenario's scripted result",
        ),
        "payload/SessionStart/context_tokens": "a resumed transcript's last reply's tokens: the"
        " model's, which a scenario does not give",
        "payload/SessionStart/estimated_cache_write_usd": "the price of those tokens, as above",
        "payload/SessionStart/seconds_since_last_response": "a real run does not wait the"
        " scenario's after: gaps; hooksim counts them",
        "payload/SessionStart/prompt_cache_likely_expired": "from the seconds, as above",
        "env/CLAUDE_CODE_MESSAGING_*": "a live socket of the CLI's for its child processes"
        " (and its random token): hooksim has no such socket to offer a hook",
    }
    exact_matcher: ClassVar[re.Pattern[str]] = EXACT_MATCHER
    user_config = "~/.claude/settings.json"
    file_tools = {
        "Write": ("write", "file_path"),
        "Edit": ("edit", "file_path", "replace_all"),
        "MultiEdit": ("multi_edit",),
    }
    facts = FACTS

    def launched(self, how: str) -> Host:
        """``print``: ``claude -p`` (stream-json in and out, as the real driver runs it): nobody
        attends (CLAUDE_CODE_SESSION_ATTENDED=0), the entrypoint is sdk-cli, and the session
        ends with reason other; ``interactive``: the terminal UI."""
        if how == "interactive" or self.print_launch:
            return self
        if how != "print":
            raise ValueError(f"{how!r}: Claude Code runs interactive or print (claude -p)")
        modelled = f"{self.modelled}, claude -p"
        name = f"{type(self).__name__}_print"
        return type(name, (type(self),), {"print_launch": True, "modelled": modelled})()  # type: ignore[no-any-return]

    def at_version(self, version: str) -> Host:
        """Claude Code as the changelog says it was at ``version`` (v1.0.85, with SessionEnd, on).

        Before v2.0.10 a PreToolUse hook could not rewrite the tool's input (``updatedInput``);
        before v2.1.3 hooks had a 60 s default timeout; before v2.1.47 Stop had no
        ``last_assistant_message``; before v2.1.74 SessionEnd hooks were killed after 1.5 s
        whatever their timeout; before v2.1.76 there was no PostCompact; before v2.1.105 a
        PreCompact hook could not block; before v2.1.143 blocked stops had no cap; before
        v2.1.195 a hyphen made a matcher a regex; before v2.1.118 there was no PostToolBatch
        (real 2.1.120 and 2.1.240 fire it: runs of them in conformance-versions)."""
        v = parse_version(self.title, version)
        if v < (1, 0, 85):
            raise ValueError(f"hooksim models Claude Code from v1.0.85 on, not {version}")
        if v > (2, 1, 337):
            raise ValueError(f"hooksim models Claude Code up to v2.1.337, not {version}")
        facts: dict[str, Any] = {"release": ".".join(map(str, v))}
        if v < (2, 1, 337):
            facts["starter_reads_folder_settings"] = False
        if v < (2, 1, 326):
            facts["child_notes_dir"] = False
        if v < (2, 0, 10):
            facts["reads_updated_input"] = False
        if v < (2, 1, 3):
            facts["default_timeout_s"] = 60.0
        if v < (2, 1, 47):
            facts["sends_last_message"] = False
        if v < (2, 1, 74):
            facts["shared_session_end_budget"] = False
        if v < (2, 1, 76):
            facts["events"] = {**self.events, "post_compact": None}
        if v < (2, 1, 105):
            facts["blocking"] = self.blocking - {"PreCompact"}
        if v < (2, 1, 143):
            facts["stop_cap"] = None
        if v < (2, 1, 195):
            facts["exact_matcher"] = EXACT_MATCHER_BEFORE_2_1_195
        if v < (2, 1, 118):
            facts["post_tool_batch"] = False
        return as_version(self, version, facts)

    def disabled(self, spec: HookSpec, file: Path, files: Sequence[Path]) -> Switch | None:
        """``disableAllHooks: true`` in the last settings file that sets it (a later one's false
        undoes it) turns off every settings file's hooks; Claude Code then runs only its managed
        settings' hooks, which are in none of the files hooksim reads."""
        said = [
            (path, data["disableAllHooks"])
            for path in files
            if isinstance(data := _settings(path), dict) and "disableAllHooks" in data
        ]
        if not said or said[-1][1] is not True:
            return None
        return Switch(
            "disableAllHooks is true",
            said[-1][0],
            ("disableAllHooks",),
            "remove disableAllHooks (or set it to false)",
        )

    def parse_hooks(self, block: Any) -> tuple[list[HookSpec], list[str]]:
        # A hook whose timeout is not positive is dropped (real 2.1.332: timeout -1 never ran).
        specs, warnings = parse_matcher_groups(
            block, events=EVENTS, matcher_events=MATCHER_EVENTS, skip_nonpositive_timeout=True
        )
        warnings += self._if_warnings(block)
        ends = [s.timeout_s for s in specs if s.event == "SessionEnd" and s.timeout_s is not None]
        if self.shared_session_end_budget:
            budget = min(max([SESSION_END_BUDGET_S, *ends]), SESSION_END_MAX_S)
            specs = [
                replace(s, shared_timeout_s=budget) if s.event == "SessionEnd" else s for s in specs
            ]
        conditions = self._conditions(block)
        specs = [replace(s, condition=conditions.get((s.event, s.command))) for s in specs]
        for s in specs:
            if s.event == "Setup":
                warnings.append(
                    "hooks.Setup fires only with claude --init, --init-only or --maintenance;"
                    " never in a session"
                )
        return specs, warnings

    @staticmethod
    def _conditions(block: Any) -> dict[tuple[str, str], str]:
        """The ``if`` of each tool-event hook, by event and command."""
        found: dict[tuple[str, str], str] = {}
        if not isinstance(block, dict):
            return found
        for event in IF_EVENTS:
            for group in block.get(event) or []:
                for handler in (group.get("hooks") or []) if isinstance(group, dict) else []:
                    if isinstance(handler, dict) and isinstance(handler.get("if"), str):
                        found[(event, str(handler.get("command")))] = handler["if"]
        return found

    @staticmethod
    def _if_warnings(block: Any) -> list[str]:
        if not isinstance(block, dict):
            return []
        warnings = []
        for (event, _), text in ClaudeCode._conditions(block).items():
            rule = Rule.parse(text)
            if rule is None:
                warnings.append(
                    f"hooks.{event}: if {text!r} is not a permission rule (Tool or"
                    " Tool(pattern)); Claude Code never runs this hook"
                )
            elif rule.unmodelled():
                warnings.append(
                    f"hooks.{event}: if {text!r}: hooksim does not model {rule.tool} patterns;"
                    f" the hook runs for every {rule.tool} call"
                )
        return warnings + [
            f"hooks.{event}: an if condition applies to tool events only; ignored"
            for event, groups in block.items()
            if event not in IF_EVENTS and isinstance(groups, list)
            for group in groups
            if isinstance(group, dict)
            for handler in (group.get("hooks") or [])
            if isinstance(handler, dict) and "if" in handler
        ]

    def selects(self, spec: HookSpec, value: str | None, payload: Mapping[str, Any]) -> bool:
        """The matcher, then a tool event's ``if`` rule against the call (``permission_rules``)."""
        if not self.matches(spec, value):
            return False
        if spec.condition is None or spec.event not in IF_EVENTS or "tool_name" not in payload:
            return True
        rule = Rule.parse(spec.condition)
        cwd = str(payload.get("cwd") or ".")
        tool_input = payload.get("tool_input")
        return rule is not None and rule.matches(
            str(payload["tool_name"]),
            tool_input if isinstance(tool_input, dict) else {},
            Places(cwd=cwd, project=cwd),
        )

    def read(self, event: str, run: HookRun) -> Verdict:
        """As Claude Code reads a hook (``ClaudeStyleReading``), once its output schema took the
        hook's JSON: output it refuses makes the hook failed, none of its fields counting (a
        PreToolUse hook's failure is shown); after exit 2 it blocks with stderr alone."""
        # An exit 2 in python's words for a script it cannot open is a failed hook, not a block
        # (real 2.1.332: "python3 missing.py" and an echo of its message blocked nothing; an
        # exit 2 of the same python with other words blocked).
        if run.exit_code == 2 and PYTHON_CANNOT_OPEN.match(run.stderr.lstrip()):
            return Verdict(
                "failed: exit 2 of a python that could not open its script does not block",
                fault="failed",
            )
        finished = not (run.timed_out or run.spawn_error) and run.exit_code != 2
        refused = refusal(event, run.stdout) if finished else None
        if refused is None:
            verdict = super().read(event, run)
            compaction = self._compaction_reading(event, run)
            if compaction is not None and verdict.note == TRANSCRIPT_ONLY:
                return compaction
            dropped = dropped_keys(event, run.stdout) if finished else None
            if dropped is not None and verdict.fault is None:
                verdict.note = dropped if verdict.note == "ok" else f"{verdict.note}; {dropped}"
                verdict.fault = "refused"
            return verdict
        shown = NO_VERDICT_SHOWN if event == "PreToolUse" else None
        return Verdict(f"failed: {refused}", shown=shown, fault="refused")

    def _compaction_reading(self, event: str, run: HookRun) -> Verdict | None:
        """A compaction hook's plain stdout, which the session passes on itself
        (``_compaction_output``): a PreCompact hook's joins the summariser's instructions; a
        manual compaction's PostCompact output is listed in /compact's output, which the next
        request carries. An automatic compaction's PostCompact output reaches nobody."""
        if event == "PreCompact":
            return Verdict("plain stdout joins the compaction's instructions")
        if event == "PostCompact" and json_object(run.stdin).get("trigger") == "manual":
            return Verdict(
                "plain stdout listed in /compact's output, which the next request carries"
            )
        return None

    def json_output(self, event: str, run: HookRun) -> dict[str, Any] | None:
        """The JSON the output schema took, as Claude Code acts on it (``accepted``)."""
        output = parse_json_output(run.stdout)
        if output is None or refusal(event, run.stdout) is not None:
            return None
        return accepted(event, output)

    def matches(self, spec: HookSpec, value: str | None) -> bool:
        """A list of exact names, or an unanchored regex (``Edit.*`` matches NotebookEdit)."""
        matcher = spec.matcher
        if matcher is None or matcher in self.match_all or value is None:
            return matcher is None or matcher in self.match_all
        if self.exact_matcher.fullmatch(matcher):
            return value in {name.strip() for name in re.split(r"[|,]", matcher)}
        try:
            return re.search(matcher, value) is not None
        except re.error:
            return False

    def read_plugin(self, folder: Path) -> Plugin:
        return read_claude_plugin(folder)

    def plugin_place(self, plugin: Plugin, home: Path, workdir: Path) -> Path:
        """``--plugin-dir`` loads the folder where it is: hooksim's copy in the work directory."""
        return workdir / "plugins" / plugin.source.name

    def plugin_specs(
        self, plugin: Plugin, place: Path, *, home: Path, project: Path
    ) -> tuple[list[HookSpec], list[str]]:
        """Its hooks with CLAUDE_PLUGIN_ROOT (where it loads from) and CLAUDE_PLUGIN_DATA
        (``~/.claude/plugins/data/`` and its id, ``NAME@inline`` with every character but
        letters, digits, ``-`` and ``_`` made ``-``), a folder Claude Code creates."""
        plugin_id = re.sub(r"[^a-zA-Z0-9\-_]", "-", f"{plugin.name}@inline")
        data = home / ".claude" / "plugins" / "data" / plugin_id
        data.mkdir(parents=True, exist_ok=True)
        env = {"CLAUDE_PLUGIN_ROOT": str(place), "CLAUDE_PLUGIN_DATA": str(data)}
        return hook_specs(self, plugin, [h.block for h in plugin.hooks], origin=str(place), env=env)

    def with_plugins(self, settings: list[HookSpec], plugins: list[HookSpec]) -> list[HookSpec]:
        """A plugin's SessionEnd hooks share the budget the settings' SessionEnd timeouts set
        (their own timeouts do not raise it)."""
        budget = next((s.shared_timeout_s for s in settings if s.event == "SessionEnd"), None)
        return [
            *settings,
            *(
                replace(s, shared_timeout_s=budget) if s.event == "SessionEnd" else s
                for s in plugins
            ),
        ]

    def shell_tool_result(self, output: str, exit_code: int) -> str:
        """The Bash tool's output as the model and a PostToolUse hook get it: blank lines before
        the first line with text are dropped (its indentation stays), and every blank at the
        end, the last line's trailing spaces and newline included."""
        text = output.rstrip()
        start = len(text) - len(text.lstrip())
        return text[text.rfind("\n", 0, start + 1) + 1 :]

    def argv_for(self, spec: HookSpec, env: Mapping[str, str]) -> list[str]:
        """``args``: exec form, no shell: the command, then its arguments, each with
        ``${CLAUDE_PROJECT_DIR}`` (and a plugin's ``${CLAUDE_PLUGIN_ROOT}`` and
        ``${CLAUDE_PLUGIN_DATA}``) replaced; ``shell: powershell``: PowerShell; else (``shell:
        bash`` too, off Windows) ``/bin/sh -c``, which expands the variables itself. An exec-form
        hook outside a plugin that names a plugin's variable does not run (ValueError): only the
        substitution refuses it. A shell-form one runs, the shell expanding what it finds (real
        2.1.332 ran a settings hook that sets CLAUDE_PLUGIN_ROOT on its own command line)."""
        named = [
            v
            for v in PLUGIN_VARIABLES
            if f"${{{v}}}" in " ".join((spec.command, *(spec.args or ())))
        ]
        if named and not spec.origin and spec.args is not None:
            raise ValueError(
                f"Claude Code refuses it: ${{{named[0]}}} is set only for a plugin's hooks"
            )
        if spec.args is not None:
            names = ("CLAUDE_PROJECT_DIR", *(PLUGIN_VARIABLES if spec.origin else ()))
            argv = [spec.command, *spec.args]
            for name in (n for n in names if n in env):
                argv = [a.replace(f"${{{name}}}", env[name]) for a in argv]
            return argv
        if spec.shell == "powershell":
            return [spec.shell, "-c", spec.command]
        return self.argv(spec.command, env)  # any other shell field: /bin/sh -c off Windows

    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        return ["/bin/sh", "-c", command]

    def encode(self, payload: dict[str, Any]) -> bytes:
        """Compact JSON and a newline, as a real run writes it."""
        return super().encode(payload) + b"\n"

    def timeout_s(self, spec: HookSpec, env: Mapping[str, str]) -> float:
        """SessionEnd: the budget its hooks share (1.5 s, or 1.5 s raised to their highest
        timeout up to 60 s since v2.1.74), or ``CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS``."""
        if spec.event != "SessionEnd":
            return super().timeout_s(spec, env)
        if not self.shared_session_end_budget:
            return SESSION_END_BUDGET_S
        with contextlib.suppress(KeyError, ValueError):
            return float(env["CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"]) / 1000
        return spec.shared_timeout_s or SESSION_END_BUDGET_S

    def env(self, event: str, info: SessionInfo) -> dict[str, str]:
        """What every hook gets (``process_env``, then the hook runner's own), and the model's
        effort on the loop's events; SessionStart's env file is a hook's own (``hook_env``)."""
        env = self.process_env(info.env)
        env.update(
            CLAUDECODE="1",
            CLAUDE_CODE_SESSION_ID=info.session_id,
            CLAUDE_CODE_CHILD_SESSION="1",
            CLAUDE_CODE_SESSION_ATTENDED="0" if self.print_launch else "1",
            CLAUDE_PID=str(os.getpid()),
        )
        tmp = info.env.get("TMPDIR") or "/tmp"
        if self.child_notes_dir:
            env["CLAUDE_CODE_CHILD_NOTES_DIR"] = (
                f"{tmp}/claude-{os.getuid()}/{folder_name(info.cwd)}/{info.session_id}/started"
            )
        if self.starter_reads_folder_settings:
            env["CLAUDE_CODE_STARTER_READS_FOLDER_SETTINGS"] = "0"
        effort = self.effort(info.model)
        if effort is not None and event in EFFORT_EVENTS:
            env["CLAUDE_EFFORT"] = effort
        env["CLAUDE_PROJECT_DIR"] = info.cwd
        return env

    def process_env(self, given: Mapping[str, str]) -> dict[str, str]:
        """What Claude Code sets in its own environment as it starts, which every hook
        inherits: AI_AGENT naming it and its version (unless the user's names another agent),
        CLAUDE_CODE_ENTRYPOINT (cli, or sdk-cli in print mode, unless given),
        COREPACK_ENABLE_AUTO_PIN=0 and NoDefaultCurrentDirectoryInExePath=1. The hook's own
        process stands for the CLI's: CLAUDE_PID is hooksim's process id, so ``kill -0
        "$CLAUDE_PID"`` finds it alive, as it finds the CLI."""
        env: dict[str, str] = {}
        agent = given.get("AI_AGENT", "")
        if not agent or agent.startswith(("claude-code_", "claude-code/")):
            env["AI_AGENT"] = f"claude-code_{self.release.replace('.', '-')}_harness"
        entry = given.get("CLAUDE_CODE_ENTRYPOINT")
        if entry is None:
            env["CLAUDE_CODE_ENTRYPOINT"] = "sdk-cli" if self.print_launch else "cli"
        elif entry == "cli" and self.print_launch:
            env["CLAUDE_CODE_ENTRYPOINT"] = "sdk-cli"
        env.update(COREPACK_ENABLE_AUTO_PIN="0", NoDefaultCurrentDirectoryInExePath="1")
        return env

    def hook_env(self, event: str, index: int, info: SessionInfo) -> dict[str, str]:
        """SessionStart's CLAUDE_ENV_FILE, one per hook of the firing (by its place among the
        firing's hooks): ``~/.claude/session-env/SESSION/sessionstart-hook-N.sh``."""
        if event != "SessionStart":
            return {}
        folder = f"{info.home}/.claude/session-env/{info.session_id}"
        return {"CLAUDE_ENV_FILE": f"{folder}/{event.lower()}-hook-{index}.sh"}

    def tool_id(self, n: int) -> str:
        return f"toolu_{n:02d}"

    def effort(self, model: str) -> str | None:
        """The model's effort level, for a model that has one (the default model's: medium)."""
        return EFFORTS.get(model)


def _settings(path: Path) -> Any:
    """A settings file's JSON; None when it cannot be read."""
    try:
        return read_json_once(path)
    except ConfigError:
        return None


PROFILE = ClaudeCode  # what the registry (``hosts.FOLDERS``) loads
