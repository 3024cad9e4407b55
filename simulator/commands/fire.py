"""``hooksim fire HOST EVENT``: one hook fired once, as HOST fires it, and what HOST makes of its
output; an answer before a scenario is written.

The firing is a scenario run: a one-step session of HOST, built in memory, whose only hooks are
the command given after ``--`` (or those of ``--config``, or without either those of every
config file HOST reads in home and project: ``inspect.own_hooks``), run by ``run_scenario``. So the
payload, environment, shell, timeout and the host's reading are those of a scenario run, by
construction; the first firing of EVENT is what is reported. The replay is imported when the
command runs, not when ``hooksim`` builds its parser.

Exit code: 0 when the hooks ran and HOST read their output (whatever it decided, a block too);
1 when a hook failed as HOST counts it (a crash, a spawn error), timed out, or printed output
HOST refuses, or when no hook ran; 2 for an unknown host or event, or arguments that do not go
together.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import beneath
from . import AddParser

if TYPE_CHECKING:
    from ..hosts import Firing, HookRun, Host
    from ..inspect import Own
    from ..replay.result import RunResult
    from ..scenario import Scenario, Step

FIRE_PATH = Path("hooksim-fire")  # what the run's messages call the session it makes


USAGE = (
    "hooksim fire HOST EVENT [--tool NAME] [--input JSON | --payload FILE] [--config FILE]"
    " [--json] [-- COMMAND...]"
)


def register(add_parser: AddParser) -> None:
    parser = add_parser(
        "fire",
        usage=USAGE,
        help="fire one hook once, as HOST does, and say what HOST makes of its output",
        description="Fire EVENT of HOST once, with the hook COMMAND given after -- (one word is"
        " the command line as HOST's config holds it, several are quoted together) or every"
        " hook of --config that the event selects (without either, every hook of the config"
        " files HOST reads in your home and project), and print what HOST does with the output:"
        " the context it gives the model, a block and its reason, output it refuses, a"
        " failure. Exit 0 when the hooks ran (whatever they decided), 1 when one failed, timed"
        " out or was refused, 2 for an unknown host or event.",
    )
    _options(parser)
    # argparse hands every positional its words at the first of them, so a command after the
    # options (HOST EVENT --tool X -- COMMAND) would be left over: the words are kept whole
    # here and parsed again with options and positionals intermixed (``_parsed``).
    parser.add_argument("words", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    parser.set_defaults(func=run)


def _options(parser: argparse.ArgumentParser) -> None:
    """The options of ``fire``."""
    parser.add_argument(
        "--tool", metavar="NAME", help="a tool event's tool (default: HOST's shell tool)"
    )
    given = parser.add_mutually_exclusive_group()
    given.add_argument(
        "--input", metavar="JSON", help="a tool event's tool input (default: a shell command)"
    )
    given.add_argument(
        "--payload",
        metavar="FILE",
        type=Path,
        help="the hook's whole stdin, as is (the event fires on its own, as a scenario's"
        " event: step: a hook with a matcher is not selected)",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="HOST's hooks config file (settings.json, config.yaml, ...): fire each of its hooks"
        " that EVENT selects, in HOST's order (default: the files HOST reads in home and"
        " project)",
    )
    parser.add_argument("--json", action="store_true", help="print the answer as one JSON object")


def _parsed(args: argparse.Namespace) -> argparse.Namespace:
    """``args`` with HOST, EVENT and COMMAND, and the options given among them."""
    inner = argparse.ArgumentParser(prog="hooksim fire", usage=USAGE)
    _options(inner)
    inner.add_argument("host")
    inner.add_argument("event")
    inner.add_argument("command", nargs="*")
    return inner.parse_intermixed_args(args.words, namespace=args)


class Refusal(Exception):
    """Arguments ``fire`` cannot run (exit 2); ``str()`` is the line to print."""


def run(args: argparse.Namespace) -> int:
    from ..replay.runner import SetupError

    args = _parsed(args)
    try:
        host = _host(args.host)
        event = _event(host, args.event)
        own = None if args.command or args.config else _own(host)
        scenario = _scenario(host, event, args, own)
    except Refusal as e:
        print(f"hooksim: fire: {e}", file=sys.stderr)
        return 2
    try:
        result = _run(scenario, host, args.config)
    except SetupError as e:
        print(f"hooksim: fire: {' '.join(str(e).split())}", file=sys.stderr)
        return 1
    firing = next((f for f in result.firings if f.event == event and f.runs), None)
    if firing is None:
        print(f"hooksim: fire: {_none_ran(host, event, args, own)}", file=sys.stderr)
        return 1
    answer = _answer(host, event, result, firing)
    if own is not None:
        answer["configs"] = own.shown
        answer["not_fired"] = [hook.data() for hook in own.left_out]
    if args.json:
        print(json.dumps(answer, indent=2, ensure_ascii=False))
    else:
        print(_text(answer))
    return int(answer["exit_code"])


def _own(host: Host) -> Own:
    """The hooks of the config files ``host`` reads here; Refusal when there are none."""
    from ..inspect import NoConfig, Unreadable, own_hooks

    if host.in_process:
        raise Refusal(
            f"{host.title}'s hooks are handlers its plugins register in its own process: give"
            " --config with the config file that loads them"
        )
    try:
        return own_hooks(host, Path.cwd(), os.environ)
    except NoConfig as e:
        raise Refusal(
            f"{e}: give the hook after -- (hooksim fire HOST EVENT -- COMMAND), or --config FILE"
        ) from None
    except Unreadable as e:
        raise Refusal(str(e)) from None


def _none_ran(host: Host, event: str, args: argparse.Namespace, own: Own | None) -> str:
    """What fire says when no hook ran on ``event``."""
    if own is None:
        return f"no hook of {args.config} runs on {event}"
    return (
        f"no hook of {', '.join(own.shown)} runs on {event}"
        f" (hooksim explain {host.name} {event} says why)"
    )


def answer(host_name: str, event: str, command: str) -> dict[str, Any]:
    """What ``hooksim fire --json HOST EVENT -- COMMAND`` prints, as data: ``command`` (the
    command line as HOST's config holds it) fired once on EVENT of HOST, in a run's throwaway
    home. Refusal for an unknown host or event, or a host whose hooks are no commands;
    SetupError when the run cannot start."""
    args = argparse.Namespace(command=[command], config=None, tool=None, input=None, payload=None)
    host = _host(host_name)
    event = _event(host, event)
    result = _run(_scenario(host, event, args), host, None)
    firing = next((f for f in result.firings if f.event == event and f.runs), None)
    if firing is None:
        raise Refusal(f"{host.title} ran no hook on {event}")
    return _answer(host, event, result, firing)


def _host(name: str) -> Host:
    """The host named ``name``; Refusal with the closest name otherwise."""
    from ..hosts import HOSTS

    if name in HOSTS:
        return HOSTS[name]
    close = difflib.get_close_matches(name, list(HOSTS), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else f" (hooksim knows: {', '.join(HOSTS)})"
    raise Refusal(f"unknown host {name!r}{hint}")


def _event(host: Host, event: str) -> str:
    """``event`` when ``host`` can fire it; Refusal with the closest event otherwise."""
    from ..scenario.events import knows, suggestion

    if not knows(host.name, event):
        raise Refusal(f"{host.title} has no event {event!r}{suggestion(host.name, event)}")
    return event


def _command(words: list[str]) -> str:
    """The hook's command line: one word as is, several quoted together as the shell splits
    them back."""
    return words[0] if len(words) == 1 else shlex.join(words)


def one_hook_block(host: Host, event: str, command: str) -> dict[str, Any]:
    """The simplest hooks block ``host`` reads as one hook running ``command`` on ``event``:
    the first of the config shapes the hosts use that its profile parses into one hook."""
    shapes: list[dict[str, Any]] = [
        {event: [{"command": command}]},  # a list of hooks per event
        {event: [{"hooks": [{"type": "command", "command": command}]}]},  # matcher groups
    ]
    for block in shapes:
        specs, warnings = host.parse_hooks(block)
        if len(specs) == 1 and not warnings:
            return block
    raise Refusal(
        f"{host.title} runs its hooks inside its own process, not as commands: give --config"
        " with a config file that loads them"
    )


def _scenario(host: Host, event: str, args: argparse.Namespace, own: Own | None = None) -> Scenario:
    """A one-step session of ``host`` that fires ``event``, with the hook as its hooks (or the
    user's own hooks, their project files and scripts put in place)."""
    from ..scenario import Scenario
    from ..scenario.model import Seed

    if args.command and args.config:
        raise Refusal("give the hook after --, or --config FILE, not both")
    hooks = one_hook_block(host, event, _command(args.command)) if args.command else None
    return Scenario(
        path=FIRE_PATH,
        name=f"{event} on {host.title}",
        steps=_steps(host, event, args),
        tool=host.name,
        hooks=own.block if own is not None else hooks,
        files=Seed(own.files) if own is not None else Seed(),
        checks=False,
    )


def _steps(host: Host, event: str, args: argparse.Namespace) -> tuple[Step, ...]:
    """What the session does so that ``host`` fires ``event``: a turn (with one tool call for a
    tool event), then a compaction for a compaction event, the end of the session for its last
    event; an event outside the lifecycle fires on its own, as a scenario's ``event:`` step."""
    from ..scenario import Compact, RawEvent, ToolCall, Turn
    from ..steps import SHELL

    if args.payload is not None:
        return (RawEvent(event, _read(args.payload)),)
    point = next((p for p, name in host.events.items() if name == event), None)
    if point is None:
        return (RawEvent(event),)
    tools: tuple[ToolCall, ...] = ()
    if point in ("pre_tool", "post_tool") or args.tool or args.input:
        name = args.tool or SHELL
        default = {"command": "true"} if name == SHELL else {}
        tools = (ToolCall(name, _input(args.input) if args.input else default),)
    turn = Turn(user="hello", assistant="Done.", tools=tools)
    if point in ("pre_compact", "post_compact"):
        return (turn, Compact("manual"))
    return (turn,)


MAX_PAYLOAD = 256 * 1024 * 1024  # far above any host's payload


def _read(path: Path) -> bytes:
    """``--payload``: the bytes of a regular file (never a FIFO's wait nor a device's flood)."""
    try:
        return beneath.read_file(path, MAX_PAYLOAD)
    except beneath.Refused as e:
        raise Refusal(f"--payload: {e}") from None
    except OSError as e:
        raise Refusal(f"--payload: {path}: {e.strerror or e}") from None


def _input(text: str) -> dict[str, Any]:
    """``--input``: a JSON object."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise Refusal("--input: nested too deeply to read") from None
    except ValueError as e:
        raise Refusal(f"--input: not JSON ({e})") from None
    if not isinstance(value, dict):
        raise Refusal('--input: give the tool\'s input as a JSON object, such as \'{"path": "a"}\'')
    return value


def _run(scenario: Scenario, host: Host, config: str | None) -> RunResult:
    from ..replay.runner import run_scenario

    return run_scenario(scenario, host=host, hooks_config=config)


def _answer(host: Host, event: str, result: RunResult, firing: Firing) -> dict[str, Any]:
    """What ``hooksim fire`` says, as data: the firing's outcome, each hook's, the timeline."""
    from dataclasses import replace

    from ..report.formats import timeline

    hooks = [_hook(run) for run in firing.runs]
    failed = any(h["fault"] is not None for h in hooks)
    return {
        "host": host.name,
        "event": event,
        "match": firing.match,
        "exit_code": 1 if failed else 0,
        "decision": _decision(firing),
        "blocked": firing.blocked,
        "reason": firing.reason,
        "context": firing.context,
        "shown": firing.shown,
        "stop": firing.stop,
        "followup": firing.followup,
        "effect": firing.effect,
        "hooks": hooks,
        "timeline": timeline(replace(result, firings=[firing]), notes=False),
    }


def _decision(firing: Firing) -> str:
    """What the host does next because of the hooks: stop, block, follow up, or go on."""
    if firing.stop:
        return "stop"
    if firing.blocked:
        return "block"
    if firing.followup is not None:
        return "follow-up"
    return "go on"


def _hook(run: HookRun) -> dict[str, Any]:
    """One hook run as ``hooksim run --json`` reports it, with how it went wrong (``fault``)
    and what the model gets of its block (``told``)."""
    return {
        "command": run.command,
        "exit_code": run.exit_code,
        "timed_out": run.timed_out,
        "spawn_error": run.spawn_error,
        "stdout": run.stdout,
        "stderr": run.stderr,
        "context": run.context,
        "shown": run.shown,
        "told": run.told,
        "verdict": run.verdict,
        "fault": run.fault,
        "stdin": run.stdin.decode("utf-8", "replace"),
    }


def _text(answer: dict[str, Any]) -> str:
    """The answer for a person: the timeline, then the decision and each hook's fault. Every
    value a hook or a config gave (a reason, a command, a file name) is one line with its
    controls escaped: a hook cannot retitle or clear the terminal of whoever tries it."""
    from ..hosts.records import FAULTS
    from ..printable import no_commands, one_line

    def shown(value: object) -> str:
        text = one_line(str(value))
        return text[1:-1] if text != str(value) else text  # escaped, without repr's quotes

    configs = answer.get("configs")
    lines = [f"hooks from: {', '.join(shown(c) for c in configs)}"] if configs else []
    lines.append(answer["timeline"])
    decision = answer["decision"]
    if answer["blocked"] and answer["reason"]:
        decision += f": {shown(answer['reason'])}"
    elif answer["followup"] is not None:
        decision += f": {shown(answer['followup'])}"
    lines.append(f"decision: {decision}")
    lines += [f"context: {text!r}" for text in answer["context"]]
    for hook in answer["hooks"]:
        if hook["fault"] is not None:
            fault = hook["fault"].replace("_", " ")
            lines.append(f"{fault}: {shown(hook['command'])} ({FAULTS[hook['fault']]})")
    for hook in answer.get("not_fired", []):
        where = f"{shown(hook['file'])}:{hook['line']}"
        lines.append(f"not fired: {where}  {shown(hook['command'])}: {shown(hook['why'])}")
    return no_commands("\n".join(lines))
