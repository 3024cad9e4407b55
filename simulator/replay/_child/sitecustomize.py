# Subclassing the datetime classes held in variables is beyond what mypy can check here.
# mypy: disable-error-code="no-any-return,valid-type,misc,assignment"
"""hooksim's virtual clock inside an unmodified Python hook process.

hooksim puts this directory first on ``PYTHONPATH`` and sets ``HOOKSIM_NOW`` (epoch seconds of
the scenario's current instant). At interpreter start-up the wall clock is moved there and keeps
ticking (with ``HOOKSIM_TICK=0``, a scenario's ``clock: {tick: false}``, it stays there):
``time.time()``, ``time.time_ns()``, ``time.localtime()``, ``time.gmtime()``, ``time.ctime()``,
``time.strftime()``, ``datetime.datetime.now()``, ``utcnow()``, ``today()`` and
``datetime.date.today()`` all read virtual time. Monotonic clocks are untouched, so the hook's
own timeouts still work.

Why not freezegun or time-machine in the child: importing either costs a hook process tens to
hundreds of milliseconds (time-machine imports pytest), measured against a ~40 ms hook; this
module costs about as much as importing ``datetime``. Standard library only.

With ``HOOKSIM_READS`` set (a file of the run), every file the process opens for reading is
also appended to it, one path a line, unless it is part of the interpreter's own library:
``hooksim run --cache`` keys a saved pass on what the hooks actually read. An audit hook
(``sys.addaudithook``, the ``open`` event) sees ``open()``, ``os.open()`` and every import.

Afterwards, any other ``sitecustomize`` further down the path still runs.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def _install(now_s: float, tick: bool) -> None:
    """Move the wall clock of ``time`` and ``datetime`` to ``now_s``, ticking or not."""
    fake_time = _virtual_time(now_s, tick)
    _patch_time(fake_time)
    _patch_datetime(fake_time)


def _virtual_time(now_s: float, tick: bool) -> Callable[[], float]:
    """``time.time`` of the virtual clock: from ``now_s`` on, ticking with the real one or not."""
    import time as _time

    real_time = _time.time
    offset = now_s - real_time()

    def fake_time() -> float:
        return real_time() + offset if tick else now_s

    return fake_time


def _patch_time(fake_time: Callable[[], float]) -> None:
    """The ``time`` functions that read the wall clock read ``fake_time`` instead."""
    import time as _time

    def fake_time_ns() -> int:
        return int(fake_time() * 1e9)

    real_localtime, real_gmtime, real_ctime, real_strftime = (
        _time.localtime,
        _time.gmtime,
        _time.ctime,
        _time.strftime,
    )

    def fake_localtime(secs: float | None = None) -> _time.struct_time:
        return real_localtime(fake_time() if secs is None else secs)

    def fake_gmtime(secs: float | None = None) -> _time.struct_time:
        return real_gmtime(fake_time() if secs is None else secs)

    def fake_ctime(secs: float | None = None) -> str:
        return real_ctime(fake_time() if secs is None else secs)

    def fake_strftime(fmt: str, t: object = None) -> str:
        return real_strftime(fmt, fake_localtime() if t is None else t)  # type: ignore[arg-type]

    _time.time, _time.time_ns = fake_time, fake_time_ns
    _time.localtime, _time.gmtime, _time.ctime = fake_localtime, fake_gmtime, fake_ctime
    _time.strftime = fake_strftime


def _patch_datetime(fake_time: Callable[[], float]) -> None:
    """``datetime.datetime`` and ``datetime.date`` become subclasses whose ``now()``,
    ``utcnow()`` and ``today()`` read ``fake_time``; ``isinstance`` still accepts real ones."""
    import datetime as _dt

    real_datetime, real_date = _dt.datetime, _dt.date

    class _DatetimeMeta(type):
        def __instancecheck__(cls, obj: object) -> bool:
            return isinstance(obj, real_datetime)

    class FakeDatetime(real_datetime, metaclass=_DatetimeMeta):
        @classmethod
        def now(cls, tz: _dt.tzinfo | None = None) -> FakeDatetime:
            return cls.fromtimestamp(fake_time(), tz)

        @classmethod
        def utcnow(cls) -> FakeDatetime:
            return cls.fromtimestamp(fake_time(), _dt.timezone.utc).replace(tzinfo=None)

        @classmethod
        def today(cls) -> FakeDatetime:
            return cls.fromtimestamp(fake_time())

    class _DateMeta(type):
        def __instancecheck__(cls, obj: object) -> bool:
            return isinstance(obj, real_date)

    class FakeDate(real_date, metaclass=_DateMeta):
        @classmethod
        def today(cls) -> FakeDate:
            return cls.fromtimestamp(fake_time())

    _dt.datetime, _dt.date = FakeDatetime, FakeDate


def _chain() -> None:
    """Run the next ``sitecustomize`` on the path, which this module shadows. Without
    ``importlib.util`` (it imports contextlib, collections and functools: a third of this
    module's cost in every hook), as ``module_from_spec`` does it for a source file."""
    import importlib.machinery
    import os
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    rest = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is None or spec.loader is None:
        return
    module = type(sys)(spec.name)
    module.__spec__, module.__loader__, module.__file__ = spec, spec.loader, spec.origin
    spec.loader.exec_module(module)


def _record_reads(log: str) -> None:
    """Append each file this process opens for reading to ``log`` (see the docstring): not
    the standard library's own files (third-party packages in its ``site-packages`` are
    recorded), not this folder's; a compiled ``__pycache__`` file as its source module. It
    never raises into the hook."""
    import os
    import sys

    library = os.path.join(os.path.realpath(os.path.dirname(os.__file__)), "")
    child = os.path.join(os.path.realpath(os.path.dirname(__file__)), "")
    seen: set[str] = set()

    def opened(event: str, args: tuple[object, ...]) -> None:
        if event != "open" or len(args) < 3 or not isinstance(args[0], (str, bytes)):
            return  # not a file opened by name (a descriptor's was recorded when it was)
        try:
            record(args[0], args[1], args[2])
        except Exception:  # never into the hook: a failed record only costs the cache a key
            return

    def record(path: str | bytes, mode: object, flags: object) -> None:
        if isinstance(mode, str):
            reading = "r" in mode or "+" in mode
        else:
            reading = not isinstance(flags, int) or flags & 3 != os.O_WRONLY
        full = os.path.abspath(os.fsdecode(path))
        if not reading or full in seen:
            return
        seen.add(full)
        folder, name = os.path.split(full)
        if os.path.basename(folder) == "__pycache__":  # a module's compiled form: its source
            source = os.path.join(os.path.dirname(folder), name.split(".", 1)[0] + ".py")
            full = source if os.path.exists(source) else full
        if full.startswith(child):
            return
        if full.startswith(library) and "site-packages" not in full[len(library) :]:
            return
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
        try:
            os.write(fd, os.fsencode(full) + b"\n")
        finally:
            os.close(fd)

    sys.addaudithook(opened)


def _main() -> None:
    import os
    import sys

    reads = os.environ.get("HOOKSIM_READS")
    if reads:
        _record_reads(reads)
    raw = os.environ.get("HOOKSIM_NOW")
    if raw and os.environ.get("HOOKSIM_CLOCK") != "faketime":
        try:
            _install(float(raw), tick=os.environ.get("HOOKSIM_TICK") != "0")
        except ValueError:
            print(
                f"hooksim: HOOKSIM_NOW is not epoch seconds: {raw!r}; real time used",
                file=sys.stderr,
            )
    _chain()


_main()
