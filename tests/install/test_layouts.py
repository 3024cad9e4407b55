"""Install then uninstall gives back the bytes, over the layouts people write by hand.

Hypothesis draws a ``hooks:`` block: its indentation (2 or 4), its sequence style (dashes at the
key's column or indented), the order of its keys, our events there with no hooks in each way
Hermes accepts (``[]``, a bare key, ``~``, ``null``), other events with entries or empty, and
``output_spill`` (a section Hermes skips). Whatever it draws, install adds exactly our entries,
installing again changes nothing, and uninstall returns the original text byte for byte.
"""

from __future__ import annotations

import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hermes_hooks.install import plan_install
from hermes_hooks.uninstall import plan_uninstall

ENTRIES = {
    "on_session_start": "/opt/venv/bin/python /opt/venv/lib/hermes_hooks/__main__.py session-start",
    "pre_llm_call": "/opt/venv/bin/python /opt/venv/lib/hermes_hooks/__main__.py user-prompt-submit",
    "post_llm_call": "/opt/venv/bin/python /opt/venv/lib/hermes_hooks/__main__.py stop",
}
OTHER_EVENTS = ("pre_tool_call", "on_session_end", "post_tool_call")
EMPTY_VALUES = ("[]", "", "~", "null")


@st.composite
def hooks_blocks(draw: st.DrawFn) -> str:
    indent = draw(st.sampled_from([2, 4]))
    dash_offset = draw(st.sampled_from([0, 2, indent]))  # from the event key's column
    ours = draw(st.lists(st.sampled_from(list(ENTRIES)), unique=True, max_size=3))
    others = draw(st.lists(st.sampled_from(OTHER_EVENTS), unique=True, max_size=3))
    spill = draw(st.booleans())
    keys = draw(st.permutations([*ours, *others, *(["output_spill"] if spill else [])]))
    pad = " " * indent
    lines = []
    if draw(st.booleans()):
        lines += ["model:", f"{pad}default: m", ""]
    lines.append("hooks:")
    for key in keys:
        if key == "output_spill":
            lines += [f"{pad}output_spill:", f"{pad}{pad}max_bytes: 4096"]
        elif key in ENTRIES or draw(st.booleans()):
            value = draw(st.sampled_from(EMPTY_VALUES))
            lines.append(f"{pad}{key}:" + (f" {value}" if value else ""))
        else:
            lines.append(f"{pad}{key}:")
            dash = " " * (indent + dash_offset)
            for n in range(draw(st.integers(1, 2))):
                lines.append(f"{dash}- command: /usr/local/bin/{key}-{n}.sh")
                if draw(st.booleans()):
                    lines.append(f"{dash}  timeout: 5")
    if draw(st.booleans()):
        lines += ["", "display:", f"{pad}skin: default"]
    return "\n".join(lines) + "\n"


def _view(text: str) -> dict[str, object]:
    view = yaml.safe_load(text)
    assert isinstance(view, dict)
    return view


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=hooks_blocks())
@example(text="hooks:\n  post_llm_call: []\n  pre_tool_call:\n  - command: /usr/bin/true\n")
@example(text="hooks:\n  post_llm_call:\n  on_session_end:\n  - command: /usr/bin/true\n")
@example(text="hooks:\n    post_llm_call: []\n    pre_tool_call:\n    - command: /usr/bin/true\n")
@example(text="hooks:\n  post_llm_call: ~\n  pre_tool_call:\n    - command: /usr/bin/true\n")
@example(text="hooks:\n  post_llm_call: []\n  output_spill:\n  - 1\n")
def test_install_then_uninstall_gives_back_the_bytes(text: str) -> None:
    installed = plan_install(text, ENTRIES).new
    before, after = _view(text), _view(installed)
    assert {k: v for k, v in after.items() if k != "hooks"} == {
        k: v for k, v in before.items() if k != "hooks"
    }
    old_hooks = before["hooks"] or {}
    assert isinstance(old_hooks, dict)
    new_hooks = after["hooks"]
    assert isinstance(new_hooks, dict)
    for event, hooks in new_hooks.items():
        theirs = old_hooks.get(event) or []
        if event in ENTRIES:
            assert hooks == [*theirs, {"command": ENTRIES[event]}]
        else:
            assert hooks == old_hooks[event]
    again = plan_install(installed, ENTRIES)
    assert not again.changed
    assert plan_uninstall(installed).new == text
