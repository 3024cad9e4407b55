"""Record real sessions and replay them: tap a host's hooks, then export what ran as a scenario.

- ``recording``: ``record start`` and ``stop`` (rewriting a host's config so each hook runs
  through the tap, and putting it back byte for byte), and reading what was logged.
- ``tap.sh``: the tap, a POSIX shell script, transparent in front of one hook run, logging it
  (about a fifth of a Python start); ``tap``: ``hooksim tap``, its command-line front.
- ``export``: a recording rebuilt as a scenario file through the host's lifecycle.
- ``redact``: the rules that keep secrets out of a recording and its export (by a variable's
  name, by a value's shape), used by all three.

May import ``hosts`` and ``steps`` (and the hook package's careful file writing); not ``real`` or
``explore``.
"""
