"""``hooksim tap --log DIR [--tool HOST] [--event EVENT] -- ORIGINAL``: record one hook run.

``hooksim record start`` rewrites a host's hook config so every command hook runs through this
tap. It is transparent: the real hook gets the same stdin bytes, argv, environment and working
directory, and the host gets the hook's stdout and stderr as they come and its exit status
(a hook killed by a signal kills the tap with the same signal). Signals the host sends to stop
a hook (TERM, INT, HUP) are passed on to it. The tap then writes one JSON record to ``DIR``:
the event, stdin, argv, cwd, the host's environment variables (secret-looking values
redacted), wall-clock start and end, duration, exit code, stdout and stderr.

``ORIGINAL`` is what the host would have run: for Hermes (no shell) the command's words; for
the other hosts one argument, the command line, run the way that host runs it (``SHELLS``).

It runs in front of every hook, so it is kept to the standard library and to what it needs:
``benchmarks/bench_tap.py`` measures its cost. Nothing here imports the rest of hooksim.
"""

from __future__ import annotations

import os
import select
import sys
import time

TYPE_CHECKING = False  # not ``typing``'s: importing typing costs the tap time too
if TYPE_CHECKING:
    import signal
    from collections.abc import Sequence
else:
    try:  # the C module: ``signal`` wraps it in enums, and importing ``enum`` is a fifth of the tap
        import _signal as signal
    except ImportError:  # pragma: no cover - another Python implementation
        import signal

# How each host runs a command line (the profiles' ``argv()``; tests keep them equal).
# Codex 0.169 runs /bin/bash -c; a "$SHELL" entry would read the user's shell when the hook runs.
SHELLS: dict[str, tuple[str, ...]] = {
    "claude-code": ("/bin/sh", "-c"),
    "codex": ("/bin/bash", "-c"),
    "cursor": ("/bin/sh", "-c"),
    "gemini-cli": ("bash", "-c"),
}
# Variables of the host's own (names); a secret-looking value is not written down.
HOST_PREFIXES = ("CLAUDE_", "CODEX_", "CURSOR_", "GEMINI_", "HERMES_")
SECRET = ("KEY", "TOKEN", "SECRET", "PASSW", "CREDENTIAL", "AUTH", "COOKIE")
REDACTED = "<redacted>"
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
USAGE = "usage: hooksim tap --log DIR [--tool HOST] [--event EVENT] -- ORIGINAL..."


class UsageError(Exception):
    pass


def parse(argv: Sequence[str]) -> tuple[str, str, str | None, list[str]]:
    """``(log_dir, tool, event, original)``; argparse would double the tap's start-up."""
    args = list(argv)
    if "--" not in args:
        raise UsageError("the original command goes after '--'")
    split = args.index("--")
    options, original = args[:split], args[split + 1 :]
    found: dict[str, str] = {}
    while options:
        name = options.pop(0)
        if name not in ("--log", "--tool", "--event") or not options:
            raise UsageError(f"unknown option or missing value: {name}")
        found[name] = options.pop(0)
    if "--log" not in found:
        raise UsageError("--log DIR is required")
    tool = found.get("--tool", "hermes")
    if tool != "hermes" and tool not in SHELLS:
        raise UsageError(f"unknown tool {tool!r}")
    if not original or (tool != "hermes" and len(original) != 1):
        raise UsageError(
            "after '--': the command's words (hermes) or one command line (other hosts)"
        )
    return found["--log"], tool, found.get("--event"), original


def hook_argv(tool: str, original: list[str]) -> list[str]:
    """The process the host would have started for the original command."""
    if tool == "hermes":
        # Hermes expands a leading ``~`` of the whole command line (os.path.expanduser).
        return [os.path.expanduser(original[0]), *original[1:]]
    shell, flag = SHELLS[tool]
    if shell == "$SHELL":
        shell = os.environ.get("SHELL") or "/bin/sh"
    return [shell, flag, original[0]]


def host_env() -> dict[str, str]:
    return {
        name: REDACTED if any(word in name.upper() for word in SECRET) else value
        for name, value in sorted(os.environ.items())
        if name.startswith(HOST_PREFIXES)
    }


def _read_all(fd: int) -> bytes:
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view) :]
        except BrokenPipeError:
            return
        except InterruptedError:
            continue


def run_hook(argv: list[str], stdin: bytes) -> tuple[int, bytes, bytes]:
    """Run the hook, feeding ``stdin`` and passing its output through as it comes.

    Returns the wait status, stdout and stderr. The hook inherits everything else.
    """
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the hook
        try:
            os.dup2(in_r, 0)
            os.dup2(out_w, 1)
            os.dup2(err_w, 2)
            for fd in (in_r, in_w, out_r, out_w, err_r, err_w):
                os.close(fd)
            os.execvp(argv[0], argv)
        except OSError as e:
            # As a shell reports it; 127: not found, 126: cannot run.
            os.write(2, f"{argv[0]}: {e.strerror}\n".encode())
            os._exit(127 if isinstance(e, FileNotFoundError) else 126)
    for fd in (in_r, out_w, err_w):
        os.close(fd)
    for signum in FORWARDED:
        signal.signal(signum, lambda s, _frame: os.kill(pid, s))
    out, err = bytearray(), bytearray()
    sinks = {out_r: (out, 1), err_r: (err, 2)}
    pending = memoryview(stdin)
    writing = in_w if pending else None
    if writing is None:
        os.close(in_w)
    while sinks or writing is not None:
        want_write = [writing] if writing is not None else []
        readable, writable, _ = select.select(list(sinks), want_write, [])
        if writable:
            try:
                pending = pending[os.write(in_w, pending[:65536]) :]
            except BrokenPipeError:
                pending = pending[:0]  # the hook did not read its stdin: as under the host
            if not pending:
                os.close(in_w)
                writing = None
        for fd in readable:
            chunk = os.read(fd, 65536)
            buffer, target = sinks[fd]
            if chunk:
                buffer += chunk
                _write_all(target, chunk)
            else:
                os.close(fd)
                del sinks[fd]
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    return status, bytes(out), bytes(err)


def _stdin_fields(stdin: bytes) -> dict[str, str]:
    """The payload as text, or as base64 when it is not UTF-8 (a raw event's bytes)."""
    try:
        return {"stdin": stdin.decode("utf-8")}
    except UnicodeDecodeError:
        import base64

        return {"stdin_base64": base64.b64encode(stdin).decode("ascii")}


def _joined(words: list[str]) -> str:
    import shlex

    return shlex.join(words)


# JSON string escapes (``json`` itself would import ``re``, a tenth of the tap's start-up).
_ESCAPES = {i: f"\\u{i:04x}" for i in range(0x20)} | {
    ord('"'): '\\"',
    ord("\\"): "\\\\",
    ord("\n"): "\\n",
    ord("\t"): "\\t",
    ord("\r"): "\\r",
}


def to_json(value: object) -> str:
    """JSON text of the record's values (str, int, float, bool, None, lists, str-keyed dicts)."""
    if isinstance(value, str):
        return '"' + value.translate(_ESCAPES) + '"'
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{to_json(k)}: {to_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(to_json, value)) + "]"
    raise TypeError(f"not a JSON value: {value!r}")


def record(log_dir: str, entry: dict[str, object]) -> None:
    """Write one record atomically; a tap that cannot write still leaves the hook's run intact."""
    name = f"{time.time_ns()}-{os.getpid()}"
    try:
        os.makedirs(log_dir, exist_ok=True)
        temporary = os.path.join(log_dir, f".{name}.tmp")
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(to_json(entry))
        os.replace(temporary, os.path.join(log_dir, f"{name}.json"))
    except OSError as e:
        print(f"hooksim tap: cannot write to {log_dir}: {e.strerror}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        log_dir, tool, event, original = parse(sys.argv[1:] if argv is None else argv)
    except UsageError as e:
        print(f"hooksim tap: {e}\n{USAGE}", file=sys.stderr)
        return 2
    started = time.time()
    stdin = _read_all(0)
    argv_run = hook_argv(tool, original)
    began = time.monotonic()
    status, out, err = run_hook(argv_run, stdin)
    duration = time.monotonic() - began
    code = os.waitstatus_to_exitcode(status)
    record(
        log_dir,
        {
            "tool": tool,
            "event": event,  # None: the payload's hook_event_name says
            "argv": argv_run,
            "command": original[0] if tool != "hermes" else _joined(original),
            "cwd": os.getcwd(),
            "env": host_env(),
            **_stdin_fields(stdin),
            "started": started,
            # The order of hook runs: the system's monotonic clock, the same in every process
            # (a hook under hooksim reads a virtual wall clock of its own).
            "monotonic": began,
            "ended": time.time(),
            "duration_s": round(duration, 6),
            "exit_code": code if code >= 0 else None,
            "signal": -code if code < 0 else None,
            "stdout": out.decode("utf-8", "replace"),
            "stderr": err.decode("utf-8", "replace"),
        },
    )
    if code < 0:  # killed by a signal: the host must see the same
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
