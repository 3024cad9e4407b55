"""Real hosts: the same scenario run by the real agent CLI, offline, and compared with the replay.

- ``host``: the drivers that run each real CLI against a fake model server, a recorder in
  front of every hook.
- ``model_server`` and ``fake_models``: fake model APIs on 127.0.0.1, scripted from the turns.
- ``hook_recorder``: what the real host runs in place of each hook command (run as a script).
- ``hermes_loop``: Hermes' interactive CLI driven a message at a time (run by Hermes' Python).
- ``compare``: a real run against the replay of the same scenario, difference by difference.

May import ``judge``, ``report``, ``replay``, ``scenario``, ``hosts`` and ``steps``; not
``explore`` or ``record``.
"""
