"""A picture of a run: one self-contained HTML page, a timeline per scenario and host.

Built from the same data as ``--json`` (``report.to_json``), so ``hooksim run --html`` and
``hooksim show RUN.json --html`` draw the same page. Per scenario and host, an SVG on the
virtual clock: one lane per session and event, each hook run a mark coloured by its outcome
(ok, blocked, failed, timed out), the bridge calls it made as small squares under it, a
process it left running as a red ring, the host's compactions shaded, blocks and continuations
marked. Hovering a mark shows a summary; clicking it shows the stdin, stdout, stderr and the
host's reading. Failing expectations are listed above their timeline, linked to the marks
they name. No network: styles, script and data are inline.
"""

from __future__ import annotations

import datetime as dt
import html
import itertools
import json
import re
from dataclasses import dataclass, field
from typing import Any

from .. import beneath
from ..hosts import DEFAULT_HOST
from .formats import capped_all, verdict

OUTCOMES = {
    "ok": "#2e9e5b",
    "blocked": "#e08a00",
    "failed": "#d23c3c",
    "timed out": "#7b4fc9",
}
LANE_H = 34
LABEL_W = 230
STEP_W = 46  # between firings at the same virtual instant
SECOND_W = 0.6  # px per virtual second for short gaps
LONG_GAP_S = 120  # longer gaps are drawn compressed, with their length written
LONG_GAP_W = 70

_STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
header{padding:12px 20px;background:#223;color:#fff}header h1{font-size:18px;margin:0}
.legend span{display:inline-block;margin-right:14px}.legend i{display:inline-block;width:11px;
height:11px;border-radius:6px;margin-right:4px;vertical-align:-1px}
section.run{background:#fff;margin:16px 20px;padding:12px 16px;border:1px solid #ddd;
border-radius:6px}section.run h2{font-size:16px;margin:0 0 6px}
.verdict{font-weight:600;padding:1px 7px;border-radius:4px;color:#fff;margin-right:6px}
.PASS{background:#2e9e5b}.FAIL{background:#d23c3c}.ERROR{background:#7b4fc9}.SKIP{background:#888}
ul.failures{margin:6px 0 10px;padding-left:20px;color:#a11}ul.failures a{color:#a11}
.scroll{overflow-x:auto}svg text{font:12px system-ui,sans-serif;fill:#333}
svg .mark{cursor:pointer;stroke:#fff;stroke-width:1.5}svg .mark.selected{stroke:#000;stroke-width:3}
svg .lane{fill:#f4f6f8}svg .gap{font-style:italic;fill:#777}
.details{display:none;border-top:1px solid #ddd;margin-top:8px;padding-top:8px}
.details.shown{display:block}.details pre{background:#f3f3f3;padding:6px;white-space:pre-wrap;
word-break:break-all;max-height:220px;overflow:auto;margin:2px 0 8px}
.details h3{font-size:14px;margin:0 0 4px}.muted{color:#777}
"""

_SCRIPT = """
(function () {
  var data = JSON.parse(document.getElementById('hooksim-data').textContent);
  function show(id) {
    var parts = id.split('-'), run = data[+parts[0].slice(1)], hook = run.hooks[+parts[1].slice(1)];
    document.querySelectorAll('.mark.selected').forEach(function (m) { m.classList.remove('selected'); });
    var mark = document.getElementById(id);
    if (mark) { mark.classList.add('selected'); }
    var box = document.getElementById('details-' + parts[0]);
    var fields = [['command', hook.command], ['stdin', hook.stdin], ['stdout', hook.stdout],
      ['stderr', hook.stderr], ['host reads it as', hook.verdict || 'ok'],
      ['context given to the model', hook.context]];
    box.textContent = '';
    var h = document.createElement('h3');
    h.textContent = hook.event + ' at turn ' + hook.turn + ': ' + hook.outcome;
    box.appendChild(h);
    fields.forEach(function (f) {
      if (f[1] === null || f[1] === undefined || f[1] === '') { return; }
      var label = document.createElement('div'); label.className = 'muted'; label.textContent = f[0];
      var pre = document.createElement('pre'); pre.textContent = f[1];
      box.appendChild(label); box.appendChild(pre);
    });
    (hook.calls || []).forEach(function (c) {
      var pre = document.createElement('pre');
      pre.textContent = 'bridge: ' + c.tool + ' #' + c.call + ' ' + c.outcome + ' ' + JSON.stringify(c.arguments);
      box.appendChild(pre);
    });
    (hook.leaks || []).forEach(function (l) {
      var pre = document.createElement('pre');
      pre.textContent = 'left running: pid ' + l.pid + ' ' + l.command;
      box.appendChild(pre);
    });
    box.classList.add('shown');
  }
  document.querySelectorAll('.mark').forEach(function (m) {
    m.addEventListener('click', function () { show(m.id); });
  });
  function fromHash() { var id = location.hash.slice(1); if (document.getElementById(id)) { show(id); } }
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
"""


def outcome(hook: dict[str, Any]) -> str:
    """ok, blocked, failed or timed out: what the mark's colour says."""
    if hook.get("timed_out"):
        return "timed out"
    reading = str(hook.get("verdict") or "")  # what the host read from the hook
    if reading.startswith(("block", "deny", "continue: false")) or "follow-up" in reading:
        return "blocked"
    if hook.get("spawn_error") or hook.get("exit_code") not in (0, None):
        return "failed"
    return "ok"


def _session_of(stdin: str) -> str | None:
    try:
        payload = json.loads(stdin)
    except ValueError:
        return None
    if not isinstance(payload, dict):
        return None
    session = payload.get("session_id") or payload.get("conversation_id")
    return str(session) if session else None


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    parts = [(seconds // 86400, "d"), (seconds % 86400 // 3600, "h"), (seconds % 3600 // 60, "m")]
    text = "".join(f"{n}{unit}" for n, unit in parts if n)
    return text or f"{seconds}s"


@dataclass
class _Layout:
    """x positions on the compressed virtual clock, and the lanes in order of appearance."""

    xs: list[float] = field(default_factory=list)
    gaps: list[tuple[float, str]] = field(default_factory=list)
    lanes: list[tuple[str, str]] = field(default_factory=list)
    width: float = 0.0


def _layout(events: list[dict[str, Any]], sessions: list[str]) -> _Layout:
    layout = _Layout()
    x = float(LABEL_W + 20)
    last_ms: int | None = None
    for event, session in zip(events, sessions, strict=True):
        ms = int(event["virtual_ms"])
        if last_ms is not None:
            gap_s = (ms - last_ms) / 1000
            if gap_s > LONG_GAP_S:
                layout.gaps.append((x + LONG_GAP_W / 2, f"… {_duration(gap_s)} …"))
                x += LONG_GAP_W + STEP_W
            else:
                x += STEP_W + gap_s * SECOND_W
        layout.xs.append(x)
        last_ms = ms
        lane = (session, event["event"])
        if lane not in layout.lanes:
            layout.lanes.append(lane)
    layout.width = x + STEP_W
    return layout


def _owned(events: list[dict[str, Any]]) -> list[list[int]]:
    """Per firing, the indices of its hook runs."""
    # A firing's hooks are the next ``hooks`` runs, in order: the runner records them so.
    owned: list[list[int]] = []
    next_hook = 0
    for event in events:
        count = int(event.get("hooks", 0))
        owned.append(list(range(next_hook, next_hook + count)))
        next_hook += count
    return owned


def _sessions(hooks: list[dict[str, Any]], owned: list[list[int]]) -> list[str]:
    """Per firing, its session: the one its hooks' stdin names, else the one before it."""
    sessions: list[str] = []
    # Firings before the first hook that names its session belong to that session.
    current = next((s for h in hooks if (s := _session_of(h.get("stdin", "")))), "session")
    for mine in owned:
        found = next((_session_of(hooks[h].get("stdin", "")) for h in mine), None)
        current = found or current
        sessions.append(current)
    return sessions


def _svg(index: int, entry: dict[str, Any]) -> str:
    """The timeline of one scenario on one host."""
    events: list[dict[str, Any]] = entry.get("events", [])
    hooks: list[dict[str, Any]] = entry.get("hooks", [])
    if not events:
        return '<p class="muted">No event fired.</p>'
    owned = _owned(events)
    sessions = _sessions(hooks, owned)
    layout = _layout(events, sessions)
    lane_of = {lane: i for i, lane in enumerate(layout.lanes)}
    top = 34.0
    band = (top, LANE_H * len(layout.lanes))
    height = top + LANE_H * len(layout.lanes) + 30
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{layout.width:.0f}" height="{height}"'
        f' role="img" aria-label="timeline">'
    ]
    out += _lanes(layout, top)
    turn_seen: set[int] = set()
    for event, x, session, mine in zip(events, layout.xs, sessions, owned, strict=True):
        turn = int(event.get("turn", 0))
        out += _column(event, x, band, turn if turn not in turn_seen else 0)
        turn_seen.add(turn)
        y = top + lane_of[(session, event["event"])] * LANE_H + LANE_H / 2.0
        if not mine:
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="#bbb"><title>{html.escape(str(event["event"]))}'
                " fired, no hook</title></circle>"
            )
        for k, h in enumerate(mine):
            hx = x + (k - (len(mine) - 1) / 2) * 12
            out += _hook_marks(f"s{index}-h{h}", hooks[h], hx, y)
        out += _sign(event, x, y)
    firing_x = {h: x for x, mine in zip(layout.xs, owned, strict=True) for h in mine}
    out += _windows(entry, events, layout.xs, firing_x, band)
    for gx, label in layout.gaps:
        out.append(
            f'<text class="gap" x="{gx:.1f}" y="{height - 8}" text-anchor="middle">{html.escape(label)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def _lanes(layout: _Layout, top: float) -> list[str]:
    """One shaded lane per session and event, with its label."""
    out = []
    for i, (session, name) in enumerate(layout.lanes):
        y = top + i * LANE_H
        out.append(
            f'<rect class="lane" x="0" y="{y + 2}" width="{layout.width:.0f}" height="{LANE_H - 4}"/>'
        )
        out.append(
            f'<text x="6" y="{y + LANE_H / 2 + 4}">{html.escape(session)} · {html.escape(name)}</text>'
        )
    return out


def _column(
    event: dict[str, Any], x: float, band: tuple[float, float], labelled_turn: int
) -> list[str]:
    """A compaction's shading across the lanes, and the label of ``labelled_turn`` (0: none)."""
    top, height = band
    out = []
    if re.search(r"compact|compress", str(event["event"]), re.IGNORECASE):
        out.append(
            f'<rect x="{x - STEP_W / 2:.1f}" y="{top}" width="{STEP_W}" height="{height}"'
            f' fill="#6b8cc7" opacity="0.16" data-compaction="1"><title>compaction: {html.escape(str(event["event"]))}</title></rect>'
        )
    if labelled_turn:
        clock = dt.datetime.fromtimestamp(event["virtual_ms"] / 1000, dt.timezone.utc)
        out.append(f'<text x="{x - 6:.1f}" y="20">turn {labelled_turn} · {clock:%H:%M}</text>')
    return out


def _hook_marks(mark_id: str, hook: dict[str, Any], hx: float, y: float) -> list[str]:
    """One hook run's mark, coloured by outcome, its bridge calls, and a ring if it leaked."""
    tip = f"{hook['event']} turn {hook['turn']}: {hook['outcome']} — {hook.get('command', '')}"
    out = [
        f'<circle class="mark" id="{mark_id}" data-outcome="{html.escape(str(hook["outcome"]))}"'
        f' cx="{hx:.1f}" cy="{y:.1f}" r="8" fill="{OUTCOMES[hook["outcome"]]}">'
        f"<title>{html.escape(tip)}</title></circle>"
    ]
    for c, call in enumerate(hook.get("calls", [])):
        colour = "#2e9e5b" if str(call.get("outcome")) in ("ok", "empty", "meet") else "#d23c3c"
        out.append(
            f'<rect class="call" x="{hx - 3 + (c % 3) * 0:.1f}" y="{y + 10 + c * 6:.1f}" width="6"'
            f' height="5" fill="{colour}"><title>{html.escape(str(call.get("tool")))}'
            f" #{html.escape(str(call.get('call')))} {html.escape(str(call.get('outcome')))}</title></rect>"
        )
    if hook.get("leaks"):
        out.append(
            f'<circle class="leak" cx="{hx:.1f}" cy="{y:.1f}" r="12" fill="none" stroke="#d23c3c"'
            f' stroke-dasharray="3 2"><title>left {len(hook["leaks"])} process(es) running</title></circle>'
        )
    return out


def _sign(event: dict[str, Any], x: float, y: float) -> list[str]:
    """A sign over a firing the hooks blocked (a cross) or made continue (a loop arrow)."""
    if not (event.get("blocked") or event.get("followup")):
        return []
    word = (
        "continues" if event.get("followup") or "continu" in str(event.get("effect")) else "blocked"
    )
    return [
        f'<text x="{x - 10:.1f}" y="{y - 12:.1f}" fill="#e08a00">{"↻" if word == "continues" else "&#215;"}'
        f"<title>{html.escape(str(event.get('effect') or word))}</title></text>"
    ]


def _x_at(ms: float, events: list[dict[str, Any]], xs: list[float]) -> float:
    """Where a virtual instant falls on the compressed axis (between the firings around it)."""
    points = list(zip((float(e["virtual_ms"]) for e in events), xs, strict=True))
    for (t0, x0), (t1, x1) in itertools.pairwise(points):
        if t0 <= ms <= t1:
            return x0 if t1 == t0 else x0 + (x1 - x0) * (ms - t0) / (t1 - t0)
    return points[-1][1] + STEP_W if ms > points[-1][0] else points[0][1]


def _windows(
    entry: dict[str, Any],
    events: list[dict[str, Any]],
    xs: list[float],
    firing_x: dict[int, float],
    band: tuple[float, float],
) -> list[str]:
    """The compaction gate's window after each successful compaction (``cleanup_frames``).

    The gate is ``hermes_hooks``' Stop hook's, so only runs on its host have one.
    """
    env = entry.get("env") or {}
    if entry.get("tool") != DEFAULT_HOST:
        return []
    try:
        window_ms = float(env.get("WAGGLE_HERMES_COMPACT_WINDOW_MIN", 10)) * 60_000
    except ValueError:
        return []
    out = []
    for call in entry.get("bridge_calls", []):
        if call.get("tool") != "cleanup_frames" or str(call.get("outcome")) not in (
            "ok",
            "empty",
            "meet",
        ):
            continue
        start = float(call["virtual_ms"])
        # From the firing of the hook that compacted (several fire at one virtual instant).
        x0 = firing_x.get(call.get("hook", -1), _x_at(start, events, xs))
        x1 = _x_at(start + window_ms, events, xs)
        top, height = band
        out.append(
            f'<rect x="{x0:.1f}" y="{top}" width="{max(x1 - x0, 2):.1f}" height="{height}"'
            f' fill="#e0b000" opacity="0.12" data-window="1"><title>compaction window:'
            f" {window_ms / 60_000:g} min"
            f" after the compaction at turn {html.escape(str(call.get('turn')))}</title></rect>"
        )
    return out


def _failure_links(index: int, failures: list[str], hooks: list[dict[str, Any]]) -> str:
    """Each failing expectation, linked to the marks of the hooks it names (turn and event)."""
    items = []
    for failure in failures:
        turns = {int(n) for n in re.findall(r"\bturns? (\d+)", failure)}
        named = [
            i
            for i, hook in enumerate(hooks)
            if (not turns or hook["turn"] in turns)
            and (
                str(hook["event"]) in failure or not any(str(h["event"]) in failure for h in hooks)
            )
            and (turns or str(hook["event"]) in failure)
        ]
        links = " ".join(
            f'<a href="#s{index}-h{i}">{html.escape(str(hooks[i]["event"]))} (turn {html.escape(str(hooks[i]["turn"]))})</a>'
            for i in named[:6]
        )
        items.append(f"<li>{html.escape(failure)}{' — ' + links if links else ''}</li>")
    return f'<ul class="failures">{"".join(items)}</ul>' if items else ""


def _prepared(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries with each hook's outcome, bridge calls and leaked processes attached."""
    prepared = []
    for entry in entries:
        hooks = [dict(h, outcome=outcome(h), calls=[], leaks=[]) for h in entry.get("hooks", [])]
        for call in entry.get("bridge_calls", []):
            if isinstance(call.get("hook"), int) and 0 <= call["hook"] < len(hooks):
                hooks[call["hook"]]["calls"].append(call)
        for leak in entry.get("leaked_processes", []):
            if isinstance(leak.get("hook"), int) and 0 <= leak["hook"] < len(hooks):
                hooks[leak["hook"]]["leaks"].append(leak)
        prepared.append(dict(entry, hooks=hooks))
    return prepared


def page(entries: list[dict[str, Any]], title: str = "hooksim run") -> str:
    """The whole page for a run's JSON entries (``report.to_json``), each text capped as there
    (a saved run of an older hooksim may hold more)."""
    entries = _prepared(capped_all(entries))
    legend = "".join(f'<span><i style="background:{c}"></i>{o}</span>' for o, c in OUTCOMES.items())
    sections = []
    for i, entry in enumerate(entries):
        said = verdict(entry)
        head = (
            f'<h2><span class="verdict {said}">{said}</span>{html.escape(str(entry["name"]))}'
            f' <span class="muted">[{html.escape(str(entry.get("tool")))}] {html.escape(str(entry["path"]))}</span></h2>'
        )
        body = [head]
        if entry.get("error"):
            body.append(f'<ul class="failures"><li>{html.escape(str(entry["error"]))}</li></ul>')
        body.append(_failure_links(i, list(entry.get("failures") or []), entry["hooks"]))
        if entry.get("events") is not None:
            body.append(f'<div class="scroll">{_svg(i, entry)}</div>')
        body.append(f'<div class="details" id="details-s{i}"></div>')
        sections.append(f'<section class="run" id="s{i}">{"".join(body)}</section>')
    data = _script_json([{"hooks": e["hooks"]} for e in entries])
    passed = sum(bool(e.get("passed")) for e in entries)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>"
        f"<header><h1>{html.escape(title)}: {passed} passed, {len(entries) - passed} failed</h1>"
        f'<div class="legend">{legend}<span>▫ bridge call</span><span>◌ left a process running</span>'
        "<span>shaded blue: a compaction; yellow: the compaction gate's window</span>"
        "</div></header>"
        + "".join(sections)
        + f'<script type="application/json" id="hooksim-data">{data}</script>'
        + f"<script>{_SCRIPT}</script></body></html>\n"
    )


def _script_json(data: Any) -> str:
    """``data`` as JSON to put inside a <script> element: no '<' (so neither ``</script>`` nor
    ``<!--``, which puts the tokenizer in a state where ``</script>`` no longer ends the
    element), no '>' or '&', and no character outside ASCII (U+2028, a lone surrogate)."""
    text = json.dumps(data, ensure_ascii=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def write_html(entries: list[dict[str, Any]], path: str, title: str = "hooksim run") -> None:
    # A lone surrogate in a name or a failure (a hook's JSON can hold one) is written as its
    # backslash escape; the data block holds only ASCII.
    beneath.write_file(path, page(entries, title).encode("utf-8", "backslashreplace"))
