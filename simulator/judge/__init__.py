"""Verdicts: a run's results checked against the scenario's ``expect:`` and the built-in checks.

- ``verdict``: load each file, run it on each host, one ``Outcome`` each (bad input becomes the
  outcome's error, never an exception).
- ``outcome``: ``Outcome``, a scenario's verdict on one host, which ``report`` shows.
- ``expect``: each key of ``expect:`` as a check returning ``what: expected X, got Y`` lines.
- ``builtin_checks``: what every scenario gets without asking (a hook that never ran must fail).
- ``items``: what a run is made of, one item per scenario file and host, each with an id;
  ``shards``: a corpus split over N machines, each item in exactly one; ``cache``: ``hooksim
  run --cache``, a passed run not run again while nothing its verdict depends on changed.

May import ``replay``, ``scenario``, ``hosts`` and ``steps``; ``report`` shows what it decides.
"""
