"""Large config.yaml files shaped like Hermes' example config, made on demand.

Hermes' installer seeds ``config.yaml`` from an example of about 126 KB: sections of settings,
each under a banner of comments, with commented-out alternatives. ``example_style_config``
makes such a file of a given size (deterministically), with a ``hooks:`` block holding
someone else's hook in the middle, so that the installer's speed and exactness can be
measured on the sizes users have.
"""

from __future__ import annotations

_SECTION = """\
# =============================================================================
# Section {i}: settings of feature {i}
# =============================================================================
# Feature {i} is off unless enabled. Each setting below says what it changes; the
# commented-out lines show other values you can use.
feature_{i}:
  enabled: {enabled}          # turn feature {i} on or off
  mode: "fast"           # one of: fast, careful, off
  # mode: careful
  limit: {i}
  label: 'feature #{i}: "quoted" and unicode \u00e9\u00e8 \u2713'
  providers:
    - name: p{i}
      base_url: "https://h{i}.example.com/v1"   # an OpenAI-compatible endpoint
      timeout: 30
    - name: q{i}
      base_url: https://q{i}.example.com/v1
  notes: |
    A literal block of text for feature {i},
    kept exactly as written.

"""

_HOOKS = """\
# =============================================================================
# Shell hooks: commands Hermes runs at lifecycle events
# =============================================================================
hooks:
  pre_tool_call:
    - matcher: "terminal"          # only the terminal tool
      command: "~/.hermes/agent-hooks/block-rm-rf.sh"
      timeout: 5

"""


def example_style_config(size: int) -> str:
    """A config of about ``size`` bytes (at least one section), ``hooks:`` in the middle."""
    sections = []
    total = 0
    i = 0
    while total < size or i < 2:
        text = _SECTION.format(i=i, enabled="true" if i % 2 else "false")
        sections.append(text)
        total += len(text.encode())
        i += 1
    middle = len(sections) // 2
    return "".join(sections[:middle]) + _HOOKS + "".join(sections[middle:])
