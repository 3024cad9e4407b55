"""Hermes' interactive CLI, driven one message at a time (``hooksim run --real hermes``).

Run by the Python that runs Hermes (the interpreter of the ``hermes`` executable), never
imported by hooksim: standard library and Hermes only. It does what ``hermes`` does at start
(register the config's shell hooks, consented), then for each JSON line on stdin:

- ``{"user": TEXT}``: ``HermesCLI.chat(TEXT)``, a turn as the interactive CLI runs it;
- ``{"new": true}``: ``/new`` (``HermesCLI.new_session``);

and answers each with ``{"type": "result"}`` on stdout once Hermes is idle again. At the end
of stdin it exits as the CLI does (``_run_cleanup``). Everything Hermes prints goes to stderr.
The fake model server is ``HOOKSIM_MODEL_URL``, Hermes' ``custom`` OpenAI-compatible provider.

Hermes' own account of each hook run is the result of ``agent.shell_hooks._spawn``, the one
place it starts a hook (returncode, stdout, stderr, timed_out, error), and the ``subprocess.run``
call inside it (the argv, the payload, the timeout): ``watch_hooks`` writes both, with what the
hook was given, as one record per run in the recorder's format (``HOOKSIM_RECORDER_SPEC``),
and starts nothing of its own: the hooks run exactly as Hermes runs them.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any


def main() -> int:
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # Hermes' own output goes to stderr; stdout carries only the answers
    os.environ["HERMES_INTERACTIVE"] = "1"  # cli.main sets it before anything else
    import cli as hermes_cli  # type: ignore[import-not-found]  # reads HERMES_HOME's config
    from agent.shell_hooks import register_from_config  # type: ignore[import-not-found]
    from hermes_cli.config import load_config  # type: ignore[import-not-found]

    spec = os.environ.get("HOOKSIM_RECORDER_SPEC")
    if spec:
        watch_hooks(json.loads(Path(spec).read_text(encoding="utf-8")))
    register_from_config(load_config(), accept_hooks=True)
    shell = hermes_cli.HermesCLI(
        model=os.environ.get("HOOKSIM_MODEL_NAME", "fake-model"),
        provider="custom",
        api_key="sk-hooksim-offline",
        base_url=os.environ["HOOKSIM_MODEL_URL"],
        toolsets=os.environ.get("HOOKSIM_TOOLSETS", "file,terminal").split(","),
    )
    for line in sys.stdin:
        step = json.loads(line)
        if step.get("new"):
            shell.new_session(silent=True)
        else:
            shell.chat(step["user"])
        protocol.write(json.dumps({"type": "result"}) + "\n")
        protocol.flush()
    hermes_cli._run_cleanup()
    return 0


def watch_hooks(spec: dict[str, Any]) -> None:
    """Record each hook run as Hermes starts it and as it ends, from Hermes' own ``_spawn``."""
    from agent import shell_hooks  # type: ignore[import-not-found]

    spawn, subprocess_module = shell_hooks._spawn, shell_hooks.subprocess
    ids: dict[tuple[str, str], list[str]] = {}
    for hook_id, hook in spec["hooks"].items():
        ids.setdefault((hook["event"], hook["command"]), []).append(hook_id)
    started: dict[str, Any] = {}

    class Watched:
        """``subprocess`` as ``shell_hooks`` sees it: ``run`` noted, then called as it was."""

        def __getattr__(self, name: str) -> Any:
            return getattr(subprocess_module, name)

        def run(self, argv: Any, *args: Any, **kwargs: Any) -> Any:
            started.update(argv=list(argv), start=time.time())
            return subprocess_module.run(argv, *args, **kwargs)

    def watched(hook: Any, stdin_json: str) -> dict[str, Any]:
        found = ids.get((hook.event, hook.command))
        if not found:  # hooksim's own probe: not a hook of the scenario
            return dict(spawn(hook, stdin_json))
        announced = _announced(spec)
        received = dict(os.environ)
        # The hook's plumbing (its turn and the scenario's clock), for this hook only.
        os.environ.update(
            HOOKSIM_EVENT=hook.event,
            HOOKSIM_TURN=str(announced.get("turn", 0)),
            HOOKSIM_NOW=f"{announced.get('now_ms', 0) / 1000:.3f}",
        )
        started.clear()
        began = time.time()
        try:
            result: dict[str, Any] = spawn(hook, stdin_json)
        finally:
            os.environ.clear()
            os.environ.update(received)
        began = started.get("start", began)
        argv = started.get("argv", [])
        record = _record(found[0], hook, stdin_json, received, argv=argv, start=began)
        record.update(_outcome(result, announced))
        path = Path(spec["record_dir"]) / f"{time.time_ns()}-{os.getpid()}.json"
        path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        return result

    shell_hooks.subprocess = Watched()
    shell_hooks._spawn = watched


def _record(
    hook_id: str, hook: Any, stdin_json: str, env: dict[str, str], *, argv: list[str], start: float
) -> dict[str, Any]:
    """What the recorder writes of a hook run as Hermes started it (``real.hook_recorder``'s
    fields), in this process: its parent is Hermes."""
    return {
        "id": hook_id,
        "event": hook.event,
        "command": hook.command,
        "argv": argv,
        "parent": [],
        "shell": [],
        "host_pid": os.getpid(),
        "stdin": stdin_json,
        "env": env,
        "cwd": os.getcwd(),
        "start": start,
        "end": time.time(),
        "step": "",
        "pid": None,
        "watched": True,
    }


def _outcome(result: dict[str, Any], announced: dict[str, Any]) -> dict[str, Any]:
    """How the run ended, as Hermes' ``_spawn`` returned it, at the turn announced."""
    outcome = {
        "exit": result.get("returncode"),
        "stdout": result.get("stdout") or "",
        "stderr": result.get("stderr") or "",
        "turn": int(announced.get("turn", 0)),
        "virtual_ms": announced.get("now_ms"),
    }
    if result.get("timed_out"):
        outcome["killed"] = "timeout"
    if result.get("error"):
        outcome["spawn_error"] = result["error"]
    return outcome


def _announced(spec: dict[str, Any]) -> dict[str, Any]:
    """The turn and virtual instant the driver announced (``turn.json``)."""
    try:
        loaded = json.loads(Path(spec["turn_file"]).read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


if __name__ == "__main__":
    raise SystemExit(main())
