"""Real hosts: the same scenario run by the real agent CLI, offline, and compared with the replay.

- ``session``: the session loop (``run_real``): a fake model server, the hooks installed with
  the recorder in front, each step handed to the host's driver; ``DRIVERS`` by host name, each
  the ``DRIVER`` of a host folder's ``real.py`` (``hosts.part``).
- ``confine``: the run's confinement (a mount and PID namespace: unshare or bubblewrap), which
  every host process starts in.
- ``driver``: what a driver is (``Driver``, and the two ways a host runs: ``LineDriver``, one
  process for the session, ``ExecDriver``, one per turn), the host processes it runs.
- ``tools``: the tools a real host offers its model (each host's ``OFFER``), and the scenario
  calls it would not run.
- ``wrapping``: the scenario's hooks in the host's format, the recorder in front of each and a
  probe on every event.
- ``result``: the ``RunResult`` of a real run, from the records and what reached the model.
- ``models``: the fake model API on 127.0.0.1 (``models.server.ModelServer``), scripted from
  the turns (``models.reply``); one module per API: ``anthropic``, ``responses``, ``gemini``,
  ``openai_chat``.
- ``hook_recorder``: what the real host runs in place of each hook command (run as a script):
  it watches the hook (where the host keeps its own account of each run) or runs it; and the
  probes, a few lines of ``sh``.
- ``compare``: a real run against the replay of the same scenario, difference by difference;
  ``observable``: what a hook can observe of its run, in a form both sides compare in.
- ``install``: a host's release installed from its registry into hooksim's cache;
  ``releases``: the newest release (and pre-release) on the registry; ``facts``: facts read
  from real runs, release by release, as one Markdown table (``hooksim conformance``).

This package's ``__init__`` imports nothing: each hook process imports it before
``hook_recorder`` runs, which must stay quick.

May import ``judge``, ``report``, ``replay``, ``scenario``, ``hosts`` and ``steps``; not
``explore`` or ``record``.
"""
