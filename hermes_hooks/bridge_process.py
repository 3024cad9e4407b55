"""One bridge process (``bridge.Bridge`` makes the call): started without a shell and without
``subprocess`` (``os.posix_spawn``), fed its request, read within bounds (``MAX_OUTPUT_BYTES``,
``MAX_STDERR_BYTES``) until its deadline, and killed with its whole process group at the
deadline, on an oversized answer, or when a signal ends the hook (``CallInterrupted``); a
watcher (``DeathGuard``) kills it too if the hook dies first.

On the hook's per-turn path: standard library only, and only the cheapest parts of it.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

# poll() takes an int of milliseconds: about 24.8 days is the most the platform can wait on.
MAX_TIMEOUT_S = 2_147_483.0
# What a call may print before it counts as failed: a bridge stuck printing must not make
# the hook buffer gigabytes.
MAX_OUTPUT_BYTES = 1 << 20
MAX_STDERR_BYTES = 64 * 1024
# ``_signal`` is the C module under ``signal``: the same functions without ``signal``'s enums
# (whose import, with ``enum``'s, would be paid on every turn).
try:
    import _signal
except ImportError:  # pragma: no cover - CPython always has it
    import signal as _signal

_SIGHUP, _SIGINT, _SIGKILL, _SIGTERM = 1, 2, 9, 15  # the same numbers on every POSIX system


class BridgeError(Exception):
    """A failed bridge call; ``str()`` is the one line the user sees."""


class _Spawned:
    """A bridge process started with ``os.posix_spawn``: its pid and our ends of its pipes.

    Shaped like the parts of ``subprocess.Popen`` we use, so that one exchange loop serves
    both. The hook process itself spawns this way: importing ``subprocess`` (with threading,
    selectors, locale and signal handling) would be a fifth of a hook's start-up.
    """

    __slots__ = ("pid", "returncode", "stderr", "stdin", "stdout")

    def __init__(self, pid: int, stdin: int, stdout: int, stderr: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.stdin: _Fd | None = _Fd(stdin)
        self.stdout: _Fd | None = _Fd(stdout)
        self.stderr: _Fd | None = _Fd(stderr)

    def kill(self) -> None:
        try:
            os.kill(self.pid, _SIGKILL)
        except ProcessLookupError:
            return

    def poll(self) -> int | None:
        """The exit code once the process has exited (reaping it), else None."""
        if self.returncode is None:
            reaped, status = os.waitpid(self.pid, os.WNOHANG)
            if reaped:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Reap the process; raise TimeoutError if it is still running after ``timeout``."""
        if self.returncode is not None:
            return self.returncode
        if timeout is None:
            _, status = os.waitpid(self.pid, 0)
        else:
            status = _wait_until(self.pid, timeout)
        self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode


class _Fd:
    """One pipe end, closed at most once."""

    __slots__ = ("fd",)

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def fileno(self) -> int:
        return self.fd

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _wait_until(pid: int, timeout: float) -> int:
    import time

    deadline = time.monotonic() + timeout
    delay = 0.0005
    while True:
        reaped, status = os.waitpid(pid, os.WNOHANG)
        if reaped:
            return status
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        # The pipes are closed already, so the process is exiting: a short, growing pause.
        time.sleep(min(delay, left))
        delay = min(delay * 2, 0.05)


def start(argv: list[str], name: str, env: Mapping[str, str] | None = None) -> Any:
    """Start the bridge in a session of its own, with pipes for its stdin, stdout, stderr.

    A session of its own, so that a timeout can kill the bridge *and* its children: an
    orphaned grandchild holding our pipe would keep the hook alive past Hermes' 60 s hook
    timeout (Hermes v0.19.0 kills only its direct child). Through ``subprocess.Popen`` when
    this process has ``subprocess`` already (an embedding, or a test faking it); else with
    ``os.posix_spawnp``, which costs no import.
    """
    try:
        if "subprocess" in sys.modules or not hasattr(os, "posix_spawnp"):
            import subprocess

            return subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                env=env,
            )
        return _posix_spawn(argv, os.environ if env is None else env)
    except FileNotFoundError:
        raise BridgeError(f"{name}: command not found (set WAGGLE_MIND_CMD)") from None
    except PermissionError:
        raise BridgeError(f"{name}: command not executable") from None
    except OSError as e:
        raise BridgeError(f"{name}: cannot start ({e.strerror or e})") from None


def _posix_spawn(argv: list[str], env: Mapping[str, str]) -> _Spawned:
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    try:
        # The pipes are close-on-exec; dup2 gives the child its copies without the flag.
        pid = os.posix_spawnp(
            argv[0],
            argv,
            env,
            file_actions=[
                (os.POSIX_SPAWN_DUP2, in_r, 0),
                (os.POSIX_SPAWN_DUP2, out_w, 1),
                (os.POSIX_SPAWN_DUP2, err_w, 2),
            ],
            setsid=True,
        )
    except BaseException:
        for fd in (in_w, out_r, err_r):
            os.close(fd)
        raise
    finally:
        for fd in (in_r, out_w, err_w):
            os.close(fd)
    return _Spawned(pid, in_w, out_r, err_r)


def kill_tree(proc: Any) -> None:
    if proc.pid > 0:
        try:
            os.killpg(proc.pid, _SIGKILL)
        except (ProcessLookupError, PermissionError):
            proc.kill()
    else:  # not a process of the kernel's (an in-process stand-in)
        proc.kill()
    # Do not wait on the pipes: a grandchild that left our process group could hold them open.
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
    proc.wait()


def _fileno(stream: object) -> int:
    try:
        return int(stream.fileno())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return -1


def exchange(proc: Any, stdin: bytes, timeout_s: float, name: str) -> tuple[bytes, bytes]:
    """Write stdin, read stdout (bounded) and stderr (kept bounded) until EOF and exit.

    Raises BridgeError on timeout or when stdout passes MAX_OUTPUT_BYTES; the caller kills.
    """
    if _fileno(proc.stdout) < 0:  # an in-process stand-in without real pipes
        import subprocess

        try:
            result: tuple[bytes, bytes] = proc.communicate(stdin, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            raise BridgeError(f"{name} timed out after {timeout_s:g}s; killed") from None
        return result
    import time

    deadline = time.monotonic() + timeout_s
    out: list[bytes] = []
    err: list[bytes] = []
    _pump_until_done(proc, memoryview(stdin), out, err, deadline, name, timeout_s)
    proc.stdin.close()  # an exited bridge may have left some of it unread
    proc.stdout.close()
    proc.stderr.close()
    left = max(deadline - time.monotonic(), 0.0)
    try:
        proc.wait(left)
    except Exception as e:  # subprocess.TimeoutExpired, or TimeoutError from _Spawned
        if not isinstance(e, TimeoutError) and type(e).__name__ != "TimeoutExpired":
            raise
        raise BridgeError(f"{name} timed out after {timeout_s:g}s; killed") from None
    return b"".join(out), b"".join(err)


def _pump_until_done(  # noqa: PLR0917 - the exchange's state, passed once
    proc: Any,
    pending: memoryview,
    out: list[bytes],
    err: list[bytes],
    deadline: float,
    name: str,
    timeout_s: float,
) -> None:
    """Set up poll() on the pipes, the signal wake-up and the bridge's exit, then pump."""
    import select

    out_fd, err_fd, in_fd = proc.stdout.fileno(), proc.stderr.fileno(), proc.stdin.fileno()
    poller = select.poll()
    readable = select.POLLIN | select.POLLHUP | select.POLLERR
    poller.register(out_fd, readable)
    poller.register(err_fd, readable)
    if pending:
        os.set_blocking(in_fd, False)
        poller.register(in_fd, select.POLLOUT | select.POLLERR)
    else:
        proc.stdin.close()
    wake_fd, restore_wakeup = _wake_poll_on_signals()
    if wake_fd >= 0:
        poller.register(wake_fd, select.POLLIN)
    exit_fd = _exit_fd(proc.pid)
    if exit_fd >= 0:
        poller.register(exit_fd, select.POLLIN)
    try:
        _pump(
            poller,
            proc,
            pending,
            {out_fd, err_fd},
            out,
            err,
            deadline,
            wake_fd,
            exit_fd,
            name,
            timeout_s,
        )
    finally:
        restore_wakeup()
        if exit_fd >= 0:
            os.close(exit_fd)


def _exit_fd(pid: int) -> int:
    """A descriptor that poll() sees readable once ``pid`` has exited (Linux's pidfd), or -1.

    The call ends when the bridge exits, not when its output closes: a child it leaves
    running may hold the pipes open for as long as it lives.
    """
    pidfd_open = getattr(os, "pidfd_open", None)
    if pidfd_open is None or pid <= 0:
        return -1
    try:
        return int(pidfd_open(pid))
    except OSError:  # a kernel before 5.3, or a sandbox that refuses it
        return -1


def _wake_poll_on_signals() -> tuple[int, Any]:
    """A pipe that every signal writes a byte to (``set_wakeup_fd``), for poll() to watch.

    Python runs a signal handler between bytecodes; a signal that lands after the last check
    and before poll() starts would otherwise wait out poll's whole timeout (up to the bridge
    budget): Ctrl-C or Hermes' SIGTERM would not end the call. Returns the read end (-1 when
    this is not the main thread, where signals are not ours) and the function that undoes it.
    """
    read_fd, write_fd = os.pipe()
    for fd in (read_fd, write_fd):
        os.set_blocking(fd, False)
    try:
        previous = _signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    except ValueError:  # not the main thread
        os.close(read_fd)
        os.close(write_fd)
        return -1, lambda: None

    def restore() -> None:
        _signal.set_wakeup_fd(previous)
        os.close(read_fd)
        os.close(write_fd)

    return read_fd, restore


# Without a pidfd, how often the loop looks whether the bridge has exited.
_EXIT_POLL_S = 0.05


def _pump(  # noqa: PLR0917 - the loop's state, passed once
    poller: Any,
    proc: Any,
    pending: memoryview,
    open_fds: set[int],
    out: list[bytes],
    err: list[bytes],
    deadline: float,
    wake_fd: int,
    exit_fd: int,
    name: str,
    timeout_s: float,
) -> None:
    """Feed stdin and drain stdout and stderr until both close or the bridge exits; bounded,
    with a deadline. Once the bridge has exited, what its output pipes hold is read and the
    call is over, whatever a child it left behind still holds open."""
    import time

    in_fd = proc.stdin.fileno() if pending else -1
    sink = _Output(proc.stdout.fileno(), out, err, name)
    while open_fds or pending:
        left = deadline - time.monotonic()
        if left <= 0:
            raise BridgeError(f"{name} timed out after {timeout_s:g}s; killed")
        wait_s = left if exit_fd >= 0 else min(left, _EXIT_POLL_S)
        for fd, _event in poller.poll(min(wait_s, MAX_TIMEOUT_S) * 1000):
            if fd == wake_fd:  # a signal: its handler runs as soon as poll() returns
                _drain_wakeups(wake_fd)
            elif fd == exit_fd:
                sink.rest(open_fds)
                return
            elif fd == in_fd:
                pending = _feed(in_fd, pending)
                if not pending:
                    poller.unregister(in_fd)
                    proc.stdin.close()
            elif not sink.read(fd):
                poller.unregister(fd)
                open_fds.discard(fd)
        if exit_fd < 0 and proc.poll() is not None:
            sink.rest(open_fds)
            return


def _drain_wakeups(wake_fd: int) -> None:
    while True:
        try:
            if not os.read(wake_fd, 512):
                return
        except BlockingIOError:
            return


def _feed(in_fd: int, pending: memoryview) -> memoryview:
    """Write what the pipe takes now; what is left to write (nothing once the bridge stopped
    reading: its exit says why)."""
    try:
        return pending[os.write(in_fd, pending[:65536]) :]
    except BlockingIOError:
        return pending
    except BrokenPipeError:
        return pending[:0]


class _Output:
    """The bridge's stdout (bounded: more is a failed call) and stderr (only its start kept)."""

    __slots__ = ("err", "err_size", "name", "out", "out_fd", "out_size")

    def __init__(self, out_fd: int, out: list[bytes], err: list[bytes], name: str) -> None:
        self.out_fd, self.out, self.err, self.name = out_fd, out, err, name
        self.out_size = self.err_size = 0

    def read(self, fd: int) -> bool:
        """Read one chunk of ``fd``; False at its end."""
        chunk = os.read(fd, 65536)
        if not chunk:
            return False
        if fd == self.out_fd:
            self.out_size += len(chunk)
            if self.out_size > MAX_OUTPUT_BYTES:
                raise BridgeError(f"{self.name} printed more than {MAX_OUTPUT_BYTES} bytes; killed")
            self.out.append(chunk)
        elif self.err_size < MAX_STDERR_BYTES:  # keep draining, keep only the start
            self.err_size += len(chunk)
            self.err.append(chunk)
        return True

    def rest(self, open_fds: set[int]) -> None:
        """What the pipes hold once the bridge has exited, without waiting for more."""
        for fd in open_fds:
            os.set_blocking(fd, False)
            try:
                while self.read(fd) and (fd == self.out_fd or self.err_size < MAX_STDERR_BYTES):
                    pass
            except BlockingIOError:
                pass
        open_fds.clear()


class CallInterrupted(BaseException):
    """The hook got SIGTERM or SIGHUP during a call: unwind, kill the bridge, stop.

    A BaseException, like KeyboardInterrupt: nothing on the way may swallow it.
    """


def signals_end_the_call() -> dict[int, Any]:
    """Make SIGTERM and SIGHUP unwind the call (so the bridge is killed) instead of killing us.

    Returns the previous handlers for ``restore_signals``. SIGINT already unwinds as
    KeyboardInterrupt. SIGKILL cannot be caught: ``DeathGuard`` covers it.
    """

    def end(signum: int, frame: object) -> None:
        raise CallInterrupted(signum)

    previous = {}
    for signum in (_SIGTERM, _SIGHUP):
        try:
            previous[signum] = _signal.signal(signum, end)
        except (ValueError, OSError):  # not the main thread: leave the handlers alone
            break
    return previous


def restore_signals(previous: dict[int, Any]) -> None:
    for signum, handler in previous.items():
        _signal.signal(signum, handler)


class DeathGuard:
    """A forked watcher that kills the bridge's process group if the hook dies mid-call.

    The bridge runs in its own session (so a timeout can kill its children), which also puts
    it out of reach of a signal sent to the hook: Hermes kills only its direct child on its
    own timeout, with SIGKILL, which no handler sees; a supervisor may SIGKILL the hook's
    whole process group. The watcher leaves that group at once (it is forked before the
    bridge starts, and put in a group of its own by both sides of the fork), then reads a
    pipe whose write end only the hook holds: the bridge's pid (``watch``), then a word when
    the call ends (``release``). End of file after a pid and without the word means the
    hook is gone, and the watcher kills the bridge's group.
    """

    __slots__ = ("_pid", "_write_fd")

    def __init__(self) -> None:
        self._pid = self._write_fd = -1
        threading = sys.modules.get("threading")
        if threading is not None and threading.active_count() > 1:
            # Forking a threaded process can deadlock the child; the hook itself never has
            # threads (an embedding that does, such as a test run, goes without the watcher).
            return
        read_fd, write_fd = os.pipe()
        try:
            pid = os.fork()
        except OSError:  # no watcher is better than no call
            os.close(read_fd)
            os.close(write_fd)
            return
        if pid == 0:  # the watcher
            try:
                os.close(write_fd)
                _watch(read_fd)
            finally:  # whatever happened (the group may be gone already): leave at once
                os._exit(0)
        os.close(read_fd)
        try:  # noqa: SIM105 - contextlib is not worth its import here
            os.setpgid(pid, pid)  # the child does it too; whichever runs first, it is done
        except OSError:
            pass
        self._pid, self._write_fd = pid, write_fd

    def watch(self, bridge_pid: int) -> None:
        """Tell the watcher which process group to kill if the hook dies from now on."""
        if self._pid >= 0:
            try:  # noqa: SIM105
                os.write(self._write_fd, b"%d\n" % bridge_pid)
            except OSError:  # the watcher is gone: the call goes on without it
                pass

    def release(self) -> None:
        """The call is over (the bridge reaped): let the watcher go without killing."""
        if self._pid < 0:
            return
        try:  # noqa: SIM105
            os.write(self._write_fd, b"x")
        except OSError:  # the watcher is gone already: nothing to tell it
            pass
        os.close(self._write_fd)
        try:  # noqa: SIM105
            os.waitpid(self._pid, 0)
        except ChildProcessError:  # reaped by someone else (a SIGCHLD handler of a host)
            pass
        self._pid = -1


def _watch(read_fd: int) -> None:
    """The watcher's life: out of the hook's group, deaf to its signals, reading the pipe."""
    try:  # noqa: SIM105
        os.setpgid(0, 0)
    except OSError:
        pass
    _close_other_fds(read_fd)
    for signum in (_SIGINT, _SIGTERM, _SIGHUP):
        _signal.signal(signum, _signal.SIG_IGN)
    said = b""
    while True:
        try:
            chunk = os.read(read_fd, 64)
        except OSError:
            break
        if not chunk:
            break
        said += chunk
    pid = said.split(b"\n", 1)[0]
    if said.endswith(b"\n") and pid.isdigit():  # a bridge started, and no word came
        os.killpg(int(pid), _SIGKILL)


def _close_other_fds(keep: int) -> None:
    # The watcher must not hold the bridge's pipes (or Hermes' stdout) open.
    os.closerange(3, keep)
    os.closerange(keep + 1, 1 << 16)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
