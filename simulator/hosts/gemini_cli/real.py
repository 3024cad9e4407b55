"""Gemini CLI as a real host: ``gemini -p`` per turn, ``--resume latest`` after the first.

Its hooks and settings go in ``~/.gemini/settings.json`` under the temporary HOME, its
extensions in ``~/.gemini/extensions`` (copied there, as ``gemini extensions install`` does),
and ``GOOGLE_GEMINI_BASE_URL`` points it at the fake Gemini API.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from ...hosts import Firing, Host
from ...real.driver import After, ExecDriver
from ...real.hook_recorder import PROBE
from ...real.observable import payload_of
from ...real.result import all_strings
from ...real.tools import Offer
from ...real.wrapping import recorded_id


class GeminiCliDriver(ExecDriver):
    """Gemini CLI: ``gemini -p`` per turn, ``--resume latest`` after the first.

    Headless mode needs the API-key login chosen in ``settings.json`` (else the base URL
    selects a gateway login it rejects) and a trusted workspace (else it refuses to start and
    project hooks do not run); ``--yolo`` lets the scripted tools run. A named model keeps the
    CLI from asking a classifier model which one to use.
    """

    name = "gemini-cli"
    dialect = "gemini"
    binary = "gemini"
    package = "@google/gemini-cli"
    launch = "headless"  # without a terminal there is no interactive session
    watches = True  # its telemetry's hook_call records say how each hook run ended

    @classmethod
    def blocked(cls, host: Host, firing: Firing, probe: dict[str, Any], seen: After) -> bool | None:
        """Its model requests have hooks of their own (BeforeModel, AfterModel), and a retry
        prompt fires BeforeAgent again, whose hooks may block it before the model is asked."""
        ev, same_turn = host.events, seen.same_turn
        if firing.event == ev["stop"]:
            retried = any(f.event == ev["prompt_submit"] for f in same_turn)
            return bool(seen.model) or retried
        if firing.event == ev["prompt_submit"]:
            # BeforeModel fires for a prompt that went on, sent or not (its own hooks may keep
            # the request from the model); a stopped prompt joins the chat, a blocked one not.
            if _prompt_kept(probe, seen.requests):
                return False
            went_on = (ev["stop"], "BeforeModel")
            return not seen.model and not any(f.event in went_on for f in same_turn)
        if firing.event == ev["pre_tool"] and not any(f.event == "BeforeModel" for f in same_turn):
            return False  # the turn ended there: a stop (a blocked call goes back to the model)
        if firing.event in ("BeforeModel", "AfterModel"):
            return _model_blocked(firing, probe, same_turn, seen.requests)
        return None

    def install(self, wrapped: dict[str, Any]) -> list[str]:
        settings = self.run.home / ".gemini" / "settings.json"
        settings.parent.mkdir(parents=True, exist_ok=True)
        notes = [
            "the workspace is trusted (GEMINI_CLI_TRUST_WORKSPACE=true): untrusted, headless"
            " Gemini CLI does not start and project hooks do not run"
        ]
        values: dict[str, Any] = {
            "hooks": wrapped,
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            # Its own account of each hook run: one gemini_cli.hook_call record per hook process
            # (with logPrompts, its stdout and stderr), written to a file of the run.
            "telemetry": {
                "enabled": True,
                "target": "local",
                "outfile": str(self.telemetry),
                "logPrompts": True,
            },
            "privacy": {"usageStatisticsEnabled": False},
            "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
        }
        if self.hooks_off_by_default():
            values["tools"] = {"enableHooks": True}
            notes.append(
                "hooks are off by default before Gemini CLI 0.24.0: settings.json turns"
                " them on (tools.enableHooks: true), as its user must"
            )
        settings.write_text(json.dumps(values, indent=2), encoding="utf-8")
        return notes

    @property
    def telemetry(self) -> Path:
        return self.run.home.parent / "gemini-telemetry.json"

    def outcomes(self, records: list[dict[str, Any]]) -> None:
        """Each watched hook run's end, from Gemini CLI's ``gemini_cli.hook_call`` telemetry
        records (``HookCallEvent``: exit_code, stdout, stderr, duration_ms; a timeout's or a
        failed spawn's ``error`` instead of an exit code), paired with the recorder's records
        of the same hook in the order they ran. A record names its hook by the hook's ``name``
        where it has one, else by its command (the recorder's, which holds the hook's id)."""
        hooks: dict[str, dict[str, str]] = json.loads(self.run.spec.read_text(encoding="utf-8"))[
            "hooks"
        ]
        by_name = {(h["event"], h["name"]): i for i, h in reversed(hooks.items()) if "name" in h}

        def key(hook_id: str) -> str:  # hooks of one event and one name are told apart by order
            hook = hooks.get(hook_id, {})
            return by_name.get((hook.get("event", ""), hook.get("name", "")), hook_id)

        calls: dict[str, list[dict[str, Any]]] = {}
        for attributes in hook_calls(self.telemetry):
            name, event = str(attributes.get("hook_name", "")), attributes.get("hook_event_name")
            hook_id = recorded_id(name) or by_name.get((str(event), name))
            if hook_id is not None:
                calls.setdefault(key(hook_id), []).append(attributes)
        for record in sorted(records, key=lambda r: r["start"]):
            if not record.get("watched") or record["id"] == PROBE:
                continue
            told = calls.get(key(record["id"]), [])
            if not told:
                record["unaccounted"] = True
                continue
            call = told.pop(0)
            error = str(call.get("error") or "")
            record.update(
                stdout=str(call.get("stdout") or ""),
                stderr=str(call.get("stderr") or "") or error,
                end=record["start"] + float(call.get("duration_ms") or 0) / 1000,
            )
            if isinstance(call.get("exit_code"), int):
                record["exit"] = call["exit_code"]
            elif error.startswith("Hook timed out"):
                record["killed"] = "timeout"

    def hooks_off_by_default(self) -> bool:
        """Before 0.24.0 hooks ran only with ``tools.enableHooks: true`` (default false in
        0.22.4's ``dist/src/config/settingsSchema.js``, line 952; true in 0.24.0's, line 949);
        later releases dropped the setting."""
        try:
            found = tuple(int(p) for p in self.version().split()[0].split(".")[:3])
        except (ValueError, IndexError):
            return False
        return found < (0, 24, 0)

    def version(self) -> str:
        """The release its package's ``package.json`` names, read without starting Node (each
        ``gemini --version`` costs seconds of a run); else what ``--version`` prints."""
        for folder in Path(os.path.realpath(self.run.binary)).parents:
            manifest = folder / "package.json"
            if manifest.is_file():
                with contextlib.suppress(OSError, ValueError):
                    data = json.loads(manifest.read_text(encoding="utf-8"))
                    if data.get("name") == self.package and isinstance(data.get("version"), str):
                        return str(data["version"])
                break
        return super().version()

    def env(self, url: str) -> dict[str, str]:
        return {
            "GOOGLE_GEMINI_BASE_URL": url,
            "GEMINI_API_KEY": "hooksim-offline",
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
        }

    def resume(self) -> None:
        """Each later ``gemini -p`` already resumes (``--resume latest``); after a /new, the next
        one resumes the session before it, the latest on disk."""
        self.started = True

    def send(self, text: str) -> None:
        model = self.run.scenario.session.get("model", "gemini-2.5-pro")
        argv = [self.run.binary, "-p", text, "--yolo", "-o", "json", "-m", model]
        if self.started:
            argv += ["--resume", "latest"]
        self.started = True
        self.exec_turn(argv)


def hook_calls(path: Path) -> list[dict[str, Any]]:
    """The attributes of each ``gemini_cli.hook_call`` record in a telemetry file (OpenTelemetry
    log records, pretty-printed JSON objects one after another), in the order written."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return []
    decoder, at = json.JSONDecoder(), 0
    found: list[dict[str, Any]] = []
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return found
        try:
            value, at = decoder.raw_decode(text, at)
        except ValueError:
            return found  # a record cut short when the process ended
        attributes = value.get("attributes") if isinstance(value, dict) else None
        if isinstance(attributes, dict) and attributes.get("event.name") == "gemini_cli.hook_call":
            found.append(attributes)


def _model_blocked(
    firing: Firing, probe: dict[str, Any], same_turn: list[Firing], requests: list[dict[str, Any]]
) -> bool:
    """Whether Gemini CLI blocked a model request (BeforeModel) or its reply (AfterModel) and
    went on with the turn (a stop ends it: no AfterAgent). A blocked request is not sent, so
    no BeforeToolSelection follows; a blocked reply is not kept, so the next request of the
    same chat lacks it (a reply without text, or one no such request follows, cannot tell)."""
    if not any(f.event == "AfterAgent" for f in same_turn):
        return False
    if firing.event == "BeforeModel":
        return not same_turn or same_turn[0].event != "BeforeToolSelection"
    payload = payload_of(probe)
    response, request = payload.get("llm_response"), payload.get("llm_request")
    text = response.get("text") if isinstance(response, dict) else None
    asked = [
        m.get("content")
        for m in (request or {}).get("messages") or []
        if isinstance(m, dict) and m.get("role") == "user"
    ]
    if not text or not asked or not isinstance(asked[-1], str):
        return False
    # Only a later request of the same chat (it still holds the prompt; a cleared chat does
    # not) can tell whether the reply was kept.
    later = [
        _texts(r["body"])
        for r in requests
        if r.get("kind") == "main"
        and r.get("at", 0) >= probe["start"]
        and isinstance(r.get("body"), dict)
    ]
    same = [t for t in later if any(p and asked[-1].endswith(p) for p in t["user"])]
    return bool(same) and text not in same[0]["model"]


def _texts(body: dict[str, Any]) -> dict[str, list[str]]:
    """A Gemini API request's text parts, by role (``user``, ``model``)."""
    texts: dict[str, list[str]] = {"user": [], "model": []}
    for content in body.get("contents") or []:
        if isinstance(content, dict) and content.get("role") in texts:
            parts = content.get("parts") or []
            texts[content["role"]] += [
                p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)
            ]
    return texts


def _prompt_kept(probe: dict[str, Any], requests: list[dict[str, Any]]) -> bool:
    """Whether a prompt Gemini CLI's BeforeAgent hooks saw is in a model request sent after
    them: its chat keeps a stopped prompt, never a blocked one."""
    prompt = payload_of(probe).get("prompt")
    later = [
        r.get("body")
        for r in requests
        if r.get("kind") == "main" and r.get("at", 0) >= probe["start"]
    ]
    return isinstance(prompt, str) and any(prompt in s for b in later for s in all_strings(b))


# The tools the pinned release declares in its requests to the fake model, by the name its hooks
# see, with the arguments its schema requires (``real.tools``).
OFFER = Offer(
    "0.61.0",
    {
        "update_topic": ("strategic_intent",),
        "list_directory": ("dir_path",),
        "read_file": ("file_path",),
        "grep_search": ("pattern",),
        "glob": ("pattern",),
        "replace": ("file_path", "instruction", "old_string", "new_string"),
        "write_file": ("file_path", "content"),
        "web_fetch": ("prompt",),
        "run_shell_command": ("command",),
        "list_background_processes": (),
        "read_background_output": ("pid",),
        "google_web_search": ("query",),
        "write_todos": ("todos",),
        "enter_plan_mode": (),
        "invoke_agent": ("agent_name", "prompt"),
        "activate_skill": ("name",),
    },
)

DRIVER = GeminiCliDriver
