"""What a run looks like: to a person (the timeline), to CI (JUnit XML, JSON), as a picture.

- ``formats``: the turn-by-turn timeline, the summary line, JUnit XML and JSON.
- ``picture``: one self-contained HTML page drawing every run on its virtual clock.

May import ``judge`` (its ``Outcome``), ``replay``, ``scenario``, ``hosts`` and ``steps``;
nothing above.
"""
