"""Record real sessions: tap every hook of a host's config, then export what ran as a scenario.

``start`` rewrites the hooks of one host's own config file so each command runs through the
tap (``tap.sh``, a POSIX shell script: it logs every hook run to a directory), keeping a backup; ``stop`` puts the
original back byte for byte; ``export`` turns the logged runs into a scenario file. Config
files are written the careful way ``hermes-hooks install`` writes Hermes' (atomic, mode kept,
refused in one line when the file is not what we expect), with the same module.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hermes_hooks.careful_files import (
    FileChangedError,
    UnsafeFileError,
    read_regular_file,
    replace_file,
)

from ..hosts import HOSTS, get_host
from ..hosts.output import json_object
from .redact import redact_variable, scrub
from .tap import HOST_PREFIXES, TAP_SH

STATE = "recording.json"
BACKUP_SUFFIX = ".hooksim-record.bak"
# A host's config is kilobytes; Hermes' seeded one is about 126 KB.
CONFIG_LIMIT = 16 << 20


class RecordError(Exception):
    """A recording that cannot start, stop or export; ``str()`` is the one line to print."""


def default_config(tool: str) -> Path:
    """Where ``tool`` keeps the hooks a user set up for all projects (``Host.user_config``), in
    the home its variable names if it is set (Hermes' ``HERMES_HOME``)."""
    host = get_host(tool)
    home = os.environ.get(host.home_variable) if host.home_variable else None
    if home:
        return Path(home) / Path(host.user_config).name
    return Path(os.path.expanduser(host.user_config))


def tap_command() -> list[str]:
    """How a tapped hook starts the tap: ``/bin/sh`` and the ``tap.sh`` shipped with hooksim.

    Not ``hooksim tap``: a Python start is more than the whole shell tap costs
    (``benchmarks/bench_tap.py``). The word ``tap`` after the script marks a tapped command.
    """
    if not TAP_SH.is_file():
        raise RecordError(
            f"{TAP_SH}: missing from this installation of hooksim; reinstall it"
            " (the wheel must ship hooksim/record/tap.sh)"
        )
    return ["/bin/sh", str(TAP_SH), "tap"]


def tapped(tool: str, event: str, command: str, log_dir: Path) -> str:
    """The command line that runs ``command`` through the tap, as ``tool`` will read it."""
    head = shlex.join(
        [*tap_command(), "--log", str(log_dir), "--tool", tool, "--event", event, "--"]
    )
    if _splits_words(tool):  # the original's words follow as they were
        return f"{head} {command}"
    # The host's shell becomes the tap (dash forks a last command, bash execs it): the host
    # waits for the tap itself, so its signals reach the tap and the tap's death by a signal
    # reaches it.
    return f"exec {head} {shlex.quote(command)}"


def _rewrite(block: Any, tool: str, log_dir: Path, path: Path) -> int:
    """Tap every command hook in a hooks block, in place; return how many.

    A hook entry reached under two events (a YAML anchor and its aliases are one object) is
    refused: its one command can name only one event to the tap.
    """
    count = 0
    tapped_under: dict[int, str] = {}  # id of each entry tapped → its event

    def walk(node: Any, event: str) -> None:
        nonlocal count
        if isinstance(node, list):
            for item in node:
                walk(item, event)
        elif isinstance(node, dict):
            command = node.get("command")
            if isinstance(command, str) and node.get("type", "command") == "command":
                first = tapped_under.get(id(node))
                if first == event:  # the same entry twice under one event: tapped once
                    return
                if first is not None:
                    line = getattr(getattr(node, "lc", None), "line", None)
                    where = f"{path}:{line + 1}" if isinstance(line, int) else str(path)
                    raise RecordError(
                        f"{where}: this hook entry is shared (an anchor) by the events {first}"
                        f" and {event}, and a tap can name only one; write it out under each"
                        " event, then run this again; left unchanged"
                    )
                tapped_under[id(node)] = event
                node["command"] = tapped(tool, event, command, log_dir)
                count += 1
            for key, value in node.items():
                if key != "command":
                    walk(value, event)

    if isinstance(block, dict):
        for event, entries in block.items():
            walk(entries, str(event))
    return count


def _json_indent(text: str) -> int | str:
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            whitespace = line[: len(line) - len(stripped)]
            return "\t" if whitespace.startswith("\t") else len(whitespace)
    return 2


def _tapped_text(tool: str, path: Path, text: str, log_dir: Path) -> tuple[str, Any, int]:
    """The config with every command hook tapped; the original hooks block; the count."""
    if path.suffix in (".yaml", ".yml"):
        import io

        from ruamel.yaml import YAML
        from ruamel.yaml.error import YAMLError

        yaml = YAML(typ="rt", pure=True)
        yaml.preserve_quotes = True
        try:
            data = yaml.load(text)
        except YAMLError as e:
            raise RecordError(f"{path}: not valid YAML ({str(e).splitlines()[0]})") from None
        hooks = data.get("hooks") if isinstance(data, dict) else None
        original = json.loads(json.dumps(hooks, default=str))
        count = _rewrite(hooks, tool, log_dir, path)
        out = io.StringIO()
        yaml.dump(data, out)
        return out.getvalue(), original, count
    if path.suffix == ".toml":
        raise RecordError(
            f"{path}: hooksim records Codex hooks from hooks.json; move the [hooks] of"
            " config.toml to ~/.codex/hooks.json (same shape, JSON) or pass --config with it"
        )
    try:
        data = json.loads(text)
    except ValueError as e:
        raise RecordError(f"{path}: not valid JSON ({e})") from None
    hooks = data.get("hooks") if isinstance(data, dict) else None
    original = json.loads(json.dumps(hooks))
    count = _rewrite(hooks, tool, log_dir, path)
    ending = "\n" if text.endswith("\n") else ""
    return json.dumps(data, indent=_json_indent(text), ensure_ascii=False) + ending, original, count


EDITED_SUFFIX = ".hooksim-record.edited"
# What every tapped command contains (``tapped``): a config holding it is being recorded.
_TAP_MARK = " tap --log "


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_state(out: Path) -> dict[str, Any] | None:
    try:
        state = json.loads((out / STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) else None


def _write_state(out: Path, state: dict[str, Any]) -> None:
    (out / STATE).write_text(json.dumps(state, indent=2) + "\n", encoding="utf-8")


def start(tool: str, config: Path | None, out: Path) -> str:
    """Tap every command hook of ``tool``'s config; return the line to print.

    Safe under any order of starts, stops and kills: the recording's state (with the
    original's hash) is written before the config is touched, the original is copied to a
    backup before the config is rewritten (each write atomic), and a config that is being
    recorded already, or whose backup holds something else, is refused.
    """
    get_host(tool)
    path = (config or default_config(tool)).expanduser()
    real = Path(os.path.realpath(path))
    out = out.resolve()
    state = _read_state(out)
    if state and state.get("active"):
        raise RecordError(f"{out}: a recording is already running; hooksim record stop --out {out}")
    old, text = _read_config(tool, path, real)
    backup = Path(str(path) + BACKUP_SUFFIX)
    _refuse_a_recorded_config(path, text, backup, old)
    new, original, count = _tapped_text(tool, path, text, out)
    if count == 0:
        raise RecordError(f"{path}: no command hooks to record; left unchanged")
    mode = real.stat().st_mode & 0o7777
    out.mkdir(parents=True, exist_ok=True)
    _write_state(
        out,
        {
            "active": True,
            "tool": tool,
            "config": str(path),
            "backup": str(backup),
            "original_sha256": _sha(old),
            "tapped_sha256": _sha(new.encode("utf-8")),
            "hooks": original,
            "started": time.time(),
        },
    )
    try:
        replace_file(str(backup), old, mode=mode)
        replace_file(str(real), new.encode("utf-8"), mode=mode, expected=old)
    except FileChangedError:
        raise RecordError(f"{path}: changed while we were editing it; left unchanged") from None
    except (UnsafeFileError, OSError) as e:
        raise RecordError(f"{path}: cannot write ({e}); left unchanged") from None
    line = (
        f"hooksim: recording {count} hook(s) of {path} into {out}; stop with:"
        f" hooksim record stop --out {shlex.quote(str(out))}"
    )
    consent = get_host(tool).consent_note  # keyed on the exact command: the tapped are new
    if consent:
        line += f"\n{consent}"
    return line


def _read_config(tool: str, path: Path, real: Path) -> tuple[bytes, str]:
    """The config's bytes and text: opened without blocking (a FIFO) and read up to a bound (a
    device, a huge file); anything else is one line."""
    try:
        old = read_regular_file(str(real), CONFIG_LIMIT + 1)
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file; {tool} has no hooks to record there") from None
    except UnsafeFileError as e:
        raise RecordError(str(e)) from None
    except OSError as e:
        raise RecordError(f"{path}: cannot read ({e.strerror})") from None
    if len(old) > CONFIG_LIMIT:
        raise RecordError(
            f"{path}: larger than {CONFIG_LIMIT >> 20} MiB, not a config file; left unchanged"
        )
    try:
        return old, old.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not UTF-8 text; left unchanged") from None


def _refuse_a_recorded_config(path: Path, text: str, backup: Path, old: bytes) -> None:
    """A config being recorded already, or a backup that is not this config, stops ``start``.

    A backup equal to the config is what a start killed before its rewrite left: harmless.
    """
    if _TAP_MARK in text:
        recording = _recording_of(path)
        where = f" into {recording}; hooksim record stop --out {recording}" if recording else ""
        raise RecordError(f"{path}: already being recorded{where}; left unchanged")
    try:
        kept = backup.read_bytes()
    except FileNotFoundError:
        return
    except OSError as e:
        raise RecordError(f"{backup}: cannot read ({e.strerror}); left unchanged") from None
    if kept != old:
        raise RecordError(
            f"{path}: {backup} holds another version of it, kept by an earlier recording;"
            " compare the two, keep what you want, then remove the backup"
        )


def _recording_of(path: Path) -> str | None:
    """The folder a tapped config logs into (the ``--log`` of its first tapped command)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    found = text.split(_TAP_MARK, 1)[1] if _TAP_MARK in text else ""
    words = found.replace("\\", "").replace('"', " ").split()
    return words[0].strip("'") if words else None


def stop(out: Path, *, force: bool = False) -> str:
    """Put the original config back byte for byte; return the line to print.

    Safe to run again after a kill at any point: a config that is the original already
    finishes the recording; with ``force``, a config edited during the recording is kept
    beside the original (``*.hooksim-record.edited``, or ``.edited.1``, ``.edited.2`` ... when
    an earlier stop kept one there), never lost.
    """
    out = out.resolve()
    state = _read_state(out)
    if state is None:
        raise RecordError(f"{out}: no recording here (no {STATE})")
    if not state.get("active"):
        raise RecordError(f"{out}: this recording was already stopped")
    path, backup = Path(state["config"]), Path(state["backup"])
    real = Path(os.path.realpath(path))
    try:
        current = read_regular_file(str(real), CONFIG_LIMIT + 1) if real.exists() else b""
    except OSError as e:
        raise RecordError(str(e) if isinstance(e, UnsafeFileError) else f"{path}: {e}") from None
    kept = ""
    if _sha(current) != state.get("original_sha256"):
        if _sha(current) != state["tapped_sha256"] and not force:
            raise RecordError(
                f"{path}: changed since hooksim record start (edited by hand or by the host);"
                f" left as it is. The original is in {backup}; put it back with --force"
            )
        try:
            original = backup.read_bytes()
        except OSError as e:
            raise RecordError(f"{backup}: cannot read the backup ({e.strerror})") from None
        mode = real.stat().st_mode & 0o7777 if real.exists() else 0o600
        if _sha(current) != state["tapped_sha256"] and real.exists():
            edited = _free_name(Path(str(path) + EDITED_SUFFIX))
            replace_file(str(edited), current, mode=mode)
            kept = f"; the edited file is kept as {edited}"
        try:
            replace_file(
                str(real), original, mode=mode, expected=current if real.exists() else None
            )
        except FileChangedError:
            raise RecordError(
                f"{path}: changed while we were restoring it; left unchanged"
            ) from None
    if backup.exists():
        backup.unlink()
    scrub(out, STATE)
    state["active"] = False
    state["stopped"] = time.time()
    _write_state(out, state)
    runs = len(list(out.glob("*.json"))) - 1
    return f"hooksim: {path} restored; {runs} hook run(s) recorded in {out}{kept}"


def _free_name(path: Path) -> Path:
    """``path``, else ``path.1``, ``path.2`` ...: the first name nothing has, taken (created
    empty, exclusively) so that no other stop can take it too."""
    for n in itertools.count():
        name = path if n == 0 else Path(f"{path}.{n}")
        try:
            os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600))
        except FileExistsError:
            continue
        except OSError as e:
            raise RecordError(f"{name}: cannot keep the edited file there ({e.strerror})") from None
        return name
    raise AssertionError  # count() never ends


@dataclass
class Recorded:
    """One logged hook run (the tap's record)."""

    event: str
    stdin: bytes
    payload: dict[str, Any]
    started: float  # wall clock, seconds since the epoch
    order: float  # the order runs started in (the tap's run number, or a monotonic clock)
    exit_code: int | None  # None: killed by ``signal``
    stdout: str
    stderr: str
    command: str  # the hook as configured
    signal: int | None = None
    ended: float | None = None
    tool: str = ""
    argv: list[str] = field(default_factory=list)  # the process the tap started
    cwd: str = ""
    env: dict[str, str] = field(default_factory=dict)  # the host's variables, secrets redacted


def load_runs(directory: Path) -> list[Recorded]:
    """The tap's records in ``directory``, in the order the hooks started.

    A run is read once it is finished (its ``N.json``, written last by ``tap.sh``); records of
    hooksim's earlier Python tap (one JSON file per run) are read too.
    """
    runs = []
    for file in sorted(directory.glob("*.json")):
        if file.name == STATE:
            continue
        try:
            entry = json.loads(file.read_text(encoding="utf-8"))
            if not isinstance(entry, dict):
                raise ValueError("not an object")
            run = _shell_run(file, entry) if entry.get("tap") == "sh" else _json_run(entry)
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise RecordError(f"{file}: not a tap record ({e})") from None
        runs.append(run)
    runs.sort(key=lambda r: r.order)
    return runs


def _splits_words(tool: str) -> bool:
    """``tool`` runs a hook's line split into words, no shell (Hermes): the tap saw them apart."""
    host = HOSTS.get(tool)
    return host is not None and host.spawn == "exec"


def _shell_run(file: Path, entry: dict[str, Any]) -> Recorded:
    """One run as ``tap.sh`` logs it: ``N.json`` and, beside it, ``N.ctx``, ``N.in`` ..."""
    base = file.with_suffix("")
    context = file.with_suffix(".ctx")
    fields: dict[str, list[str]] = {}
    for item in context.read_bytes().split(b"\0"):
        key, _, value = item.decode("utf-8", "replace").partition("=")
        if key:
            fields.setdefault(key, []).append(value)
    tool = fields.get("tool", [""])[0]
    argv = fields.get("argv", [])
    first = fields.get("first", [""])[0]
    env = dict(pair.partition("=")[::2] for pair in fields.get("env", []))
    stdin = _read_or_empty(Path(f"{base}.in"))
    payload = json_object(stdin)
    event = fields["event"][0] if "event" in fields else payload.get("hook_event_name")
    started, ended = context.stat().st_mtime, file.stat().st_mtime
    if "clock" in fields:  # under hooksim: the virtual clock the hook read
        started, ended = float(fields["clock"][0]), float(fields["clock"][0]) + ended - started
    return Recorded(
        str(event or ""),
        stdin,
        payload,
        started,
        float(int(base.name)),
        entry.get("exit_code"),
        _read_or_empty(Path(f"{base}.out")).decode("utf-8", "replace"),
        _read_or_empty(Path(f"{base}.err")).decode("utf-8", "replace"),
        shlex.join([first, *argv[1:]]) if _splits_words(tool) else first,
        signal=entry.get("signal"),
        ended=ended,
        tool=tool,
        argv=argv,
        cwd=fields.get("cwd", [""])[0],
        env=_host_env(env),
    )


def _json_run(entry: dict[str, Any]) -> Recorded:
    """One run as hooksim's earlier Python tap logged it, in one JSON file."""
    if "stdin_base64" in entry:
        import base64

        stdin = base64.b64decode(entry["stdin_base64"])
    else:
        stdin = str(entry.get("stdin", "")).encode("utf-8")
    payload = json_object(stdin)
    event = entry.get("event") or payload.get("hook_event_name")
    return Recorded(
        str(event or ""),
        stdin,
        payload,
        float(entry["started"]),
        float(entry.get("monotonic", entry["started"])),
        entry.get("exit_code"),
        str(entry.get("stdout", "")),
        str(entry.get("stderr", "")),
        str(entry.get("command", "")),
        signal=entry.get("signal"),
        ended=entry.get("ended"),
        tool=str(entry.get("tool", "")),
        argv=[str(word) for word in entry.get("argv", [])],
        cwd=str(entry.get("cwd", "")),
        env=_host_env({str(k): str(v) for k, v in dict(entry.get("env", {})).items()}),
    )


def _read_or_empty(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return b""


def _host_env(env: dict[str, str]) -> dict[str, str]:
    """The host's variables only, secret-looking values redacted (the tap does so already)."""
    return {
        name: redact_variable(name, value)
        for name, value in sorted(env.items())
        if name.startswith(HOST_PREFIXES)
    }


def firings(runs: list[Recorded]) -> list[list[Recorded]]:
    """Runs grouped into the host's firings: hooks of one event given the same bytes at once."""
    groups: list[list[Recorded]] = []
    for run in runs:
        if groups and groups[-1][0].event == run.event and groups[-1][0].stdin == run.stdin:
            groups[-1].append(run)
        else:
            groups.append([run])
    return groups


__all__ = [
    "RecordError",
    "Recorded",
    "default_config",
    "firings",
    "load_runs",
    "start",
    "stop",
    "tapped",
]
