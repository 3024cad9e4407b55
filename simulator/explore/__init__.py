"""``hooksim explore``: generated sessions against a hook, failures shrunk and written as scenarios.

- ``session_space``: what a session may be made of (steps, gaps, bridge outcomes), drawn by
  Hypothesis.
- ``vocabulary``: each host's own words for it: tool names with arguments of their shape, and
  the step kinds the host has.
- ``gate_model``: what Hermes' compaction gate should do in a session, the invariant explore
  checks by default.
- ``coverage``: the built-in checks, per drawn session or over all of them.
- ``search``: runs drawn sessions through the replay, shrinks the first failure, writes it.

May import ``judge``, ``report``, ``replay``, ``scenario``, ``hosts`` and ``steps``; not ``real``
or ``record``.
"""
