"""What a run looks like: to a person (the timeline), to CI (JUnit XML, JSON, SARIF, GitHub
annotations), as a picture.

- ``formats``: the turn-by-turn timeline, the summary line, each run's report entry (JSON),
  and JUnit XML drawn from entries.
- ``ci``: GitHub Actions annotations and a SARIF log, drawn from entries.
- ``picture``: one self-contained HTML page drawing every run on its virtual clock.

May import ``judge`` (its ``Outcome``), ``replay``, ``scenario``, ``hosts`` and ``steps``;
nothing above.
"""
