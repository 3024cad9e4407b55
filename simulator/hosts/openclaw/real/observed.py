"""What every handler could observe in an OpenClaw run, real or replayed, as the probe recorded it.

The probe (``openclaw_spy/probe``) runs in both runs, so both sides are read alike. It writes:

- a ``fire`` record at the first end of every firing (priority +1000): the event and the
  context as JSON, and their ``shape``: every key that is there, one whose value is
  ``undefined`` too, with the kind of what it holds (``"function"``, ``"AbortSignal"``...);
- a ``last`` record at the other end (priority -1000), linked to its firing (``of``): what
  the last handler gets once the others have changed it, and whether it ran at all;
- a ``loaded`` record per ``register()`` call, with its process and ``registrationMode``.

``differences`` compares two runs on these (keys as ``compare`` names them):

- ``payload/HOOK/PATH``, ``ctx/HOOK/PATH``: a key on one side only (``undefined`` counts as
  present), another kind of value, or another value once the values that differ on every run
  by nature are mapped (``result.normalised``: ids, instants, sizes, token counts);
- ``last/HOOK/PATH``: what the last handler got, where it is not what the first got;
- ``events/turn N (priority -1000)``: the hooks that reached their last handler, in order;
- ``register/PLUGIN``: the ``register()`` calls of the probe, process by process.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ....hosts import Firing
from .result import normalised, read_log
from .spy import PROBE_ID

Found = list[tuple[str, str, str]]  # (key, real, hooksim)
# Compared by kind only: the gateway's config is the run's own (a real run's names its fake
# model server, its port and its folders), not the scenario's.
_BY_KIND = frozenset({"config"})
_ABSENT = object()

# What the replay does not reproduce yet, found by this comparison on OpenClaw 2026.9.6, each
# with why: a difference whose key matches one of these patterns is listed as tolerated with
# "known, not yet replayed" and the reason, until the replay catches up. An entry goes when
# the replay reproduces it; empty means nothing is known to differ. ``HOOK`` patterns stand
# for both ends of a firing (``payload/`` and ``last/``).
_KNOWN_EVENTS: dict[str, str] = {
    "before_reset/messages*.__openclaw*": "the messages a reset reads back from the real host's"
    " store carry its record bookkeeping (record ids, sequence numbers, a hash of the"
    " transcript's source); the replay's carry the run that wrote them only",
}
KNOWN_DIFFERENCES: dict[str, str] = {
    **{
        f"{end}/{pattern}": why
        for pattern, why in _KNOWN_EVENTS.items()
        for end in ("payload", "last")
    },
}


def read_probe(path: Path) -> list[dict[str, Any]]:
    """The records of a run's log (the replay's: no turns announced)."""
    return read_log(path)


def _show(value: Any) -> str:
    if value is _ABSENT:
        return "absent"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."


def attach(firings: list[Firing], records: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Each firing's ``fire`` record, by ``id()`` of the firing: the k-th firing of a hook is
    the k-th record of its name (a firing the probe did not see has none)."""
    by_name: dict[str, list[dict[str, Any]]] = {}
    for record in _in_call_order([r for r in records if r.get("kind") == "fire"]):
        by_name.setdefault(str(record["name"]), []).append(record)
    seen: dict[str, int] = {}
    found: dict[int, dict[str, Any]] = {}
    for firing in firings:
        if firing.event.startswith("("):
            continue
        k = seen.get(firing.event, 0)
        seen[firing.event] = k + 1
        mine = by_name.get(firing.event, [])
        if k < len(mine):
            found[id(firing)] = mine[k]
    return found


def _in_call_order(fires: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``fire`` records in the log's order, except that after_tool_call records one after
    another, the calls of one model response, which run side by side and end in any order
    (dist/agent-core-DG5aPUnb.mjs:792-794), are put in their calls' order (the number in
    each ``toolCallId``)."""
    ordered: list[dict[str, Any]] = []
    block: list[dict[str, Any]] = []
    for record in [*fires, {}]:
        if record.get("name") == "after_tool_call":
            block.append(record)
            continue
        ordered += sorted(block, key=_call_number)
        block = []
        if record:
            ordered.append(record)
    return ordered


def _call_number(record: dict[str, Any]) -> int:
    event = record.get("event")
    call_id = str(event.get("toolCallId", "")) if isinstance(event, dict) else ""
    digits = "".join(c for c in call_id if c.isdigit())
    return int(digits) if digits else 0


def _kind(shape: Any) -> str:
    if isinstance(shape, dict):
        return "object"
    if isinstance(shape, list):
        return f"array of {len(shape)}"
    return str(shape)


def _described(shape: Any, value: Any) -> str:
    """A value as shown: ``absent``, its kind where JSON has no value for it (``undefined``,
    ``function``), else its JSON."""
    if shape is _ABSENT:
        return "absent"
    if isinstance(shape, str) and shape not in ("string", "number", "boolean", "null"):
        return shape
    return _show(value)


def observed(rs: Any, rv: Any, ss: Any, sv: Any, path: str = "") -> Iterator[tuple[str, str, str]]:
    """Each path where two values a handler got differ: by key (``rs``, ``ss``: their shapes),
    by kind, or by value (``rv``, ``sv``: their mapped JSON)."""
    if path in _BY_KIND:
        if _kind(rs) != _kind(ss):
            yield path, _described(rs, rv), _described(ss, sv)
    elif isinstance(rs, dict) and isinstance(ss, dict):
        rv = rv if isinstance(rv, dict) else {}
        sv = sv if isinstance(sv, dict) else {}
        for key in [*rs, *(k for k in ss if k not in rs)]:
            yield from observed(
                rs.get(key, _ABSENT),
                rv.get(key),
                ss.get(key, _ABSENT),
                sv.get(key),
                f"{path}.{key}" if path else key,
            )
    elif isinstance(rs, list) and isinstance(ss, list) and len(rs) == len(ss):
        rv = rv if isinstance(rv, list) else [None] * len(rs)
        sv = sv if isinstance(sv, list) else [None] * len(ss)
        for i, (r_item, s_item) in enumerate(zip(rs, ss, strict=True)):
            r_value = rv[i] if i < len(rv) else None
            s_value = sv[i] if i < len(sv) else None
            yield from observed(r_item, r_value, s_item, s_value, f"{path}[{i}]")
    elif _kind(rs) != _kind(ss) or (rs is _ABSENT) != (ss is _ABSENT):
        if isinstance(rs, list) and isinstance(ss, list) and rv != sv:
            yield path or "(event)", _show(rv), _show(sv)
        elif not (isinstance(rs, list) and isinstance(ss, list)):
            yield path or "(event)", _described(rs, rv), _described(ss, sv)
    elif rv != sv and not isinstance(rs, (dict, list)):
        yield path or "(event)", _show(rv), _show(sv)


def _mapped(record: dict[str, Any], field: str, workdir: str) -> Any:
    value = record.get(field)
    if workdir:
        value = json.loads(json.dumps(value).replace(workdir, "<workdir>"))
    return normalised(value)


def firing_differences(
    real: dict[str, Any], sim: dict[str, Any], workdirs: tuple[str, str]
) -> Found:
    """One firing's event and context, as its first handler got them."""
    name = str(real["name"])
    found: Found = []
    for field, head in (("event", "payload"), ("ctx", "ctx")):
        if f"{field}_shape" not in real or f"{field}_shape" not in sim:
            continue
        rv, sv = _mapped(real, field, workdirs[0]), _mapped(sim, field, workdirs[1])
        for path, r_shown, s_shown in observed(
            real[f"{field}_shape"], rv, sim[f"{field}_shape"], sv
        ):
            found.append((f"{head}/{name}/{path}", r_shown, s_shown))
    return found


Key = tuple[int, int]  # a record's process and its number there


def key(record: dict[str, Any]) -> Key:
    return int(record.get("pid") or 0), int(record.get("seq") or 0)


def _lasts(records: list[dict[str, Any]]) -> dict[Key, dict[str, Any]]:
    """Each ``last`` record by the key of its firing's ``fire`` record: linked by the probe
    (in the same process), else the latest firing of its hook there not yet linked."""
    fires = [r for r in records if r.get("kind") == "fire"]
    linked: dict[Key, dict[str, Any]] = {}
    for record in records:
        if record.get("kind") != "last":
            continue
        pid, of = int(record.get("pid") or 0), record.get("of")
        if not isinstance(of, int):
            earlier = [
                key(f)
                for f in fires
                if f["name"] == record["name"]
                and key(f)[0] == pid
                and f["seq"] < record["seq"]
                and key(f) not in linked
            ]
            of = earlier[-1][1] if earlier else None
        if isinstance(of, int):
            linked.setdefault((pid, of), record)
    return linked


def last_differences(
    pairs: list[tuple[dict[str, Any], dict[str, Any]]],
    real: list[dict[str, Any]],
    sim: list[dict[str, Any]],
    workdirs: tuple[str, str],
    first: Found,
) -> Found:
    """What the last handler of each firing got, where it differs otherwise than the first
    handler's event does (those differences are listed once, at the first end)."""
    r_last, s_last = _lasts(real), _lasts(sim)
    already = {(k.split("/", 1)[1], r, s) for k, r, s in first if k.startswith("payload/")}
    found: Found = []
    for r, s in pairs:
        rl, sl = r_last.get(key(r)), s_last.get(key(s))
        if rl is None or sl is None:
            continue
        rv, sv = _mapped(rl, "event", workdirs[0]), _mapped(sl, "event", workdirs[1])
        for path, r_shown, s_shown in observed(
            rl.get("event_shape"), rv, sl.get("event_shape"), sv
        ):
            if (f"{r['name']}/{path}", r_shown, s_shown) not in already:
                found.append((f"last/{r['name']}/{path}", r_shown, s_shown))
    return found


def last_order(
    firings: list[Firing], fires: dict[int, dict[str, Any]], records: list[dict[str, Any]]
) -> dict[int, list[str]]:
    """Per turn, the hooks whose last handler ran, in the order it ran."""
    turn_of = {key(fires[id(f)]): f.turn for f in firings if id(f) in fires}
    position = {id(r): i for i, r in enumerate(records)}  # the log's order, across processes
    lasts = sorted(_lasts(records).items(), key=lambda item: position[id(item[1])])
    order: dict[int, list[str]] = {}
    for of, record in lasts:
        if of in turn_of:
            order.setdefault(turn_of[of], []).append(str(record["name"]))
    return order


def registrations(records: list[dict[str, Any]], owner: str = PROBE_ID) -> str:
    """The ``register()`` calls of ``owner``, per process in the order they first loaded it:
    each process as its calls' ``registrationMode`` list."""
    per: dict[int, list[str]] = {}
    for record in records:
        if record.get("kind") == "loaded" and record.get("owner") == owner:
            per.setdefault(int(record.get("pid") or 0), []).append(str(record.get("mode")))
    return " ".join(f"[{', '.join(modes)}]" for modes in per.values()) or "none"
