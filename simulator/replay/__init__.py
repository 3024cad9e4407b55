"""The replay: a scenario run on a host profile, every hook a real process, on a virtual clock.

- ``runner``: ``run_scenario`` walks the schedule, asks the host which hooks fire, runs them and
  gathers a ``RunResult``.
- ``hook_process``: starts one hook process (its environment, the virtual clock, the mock bridge
  on ``WAGGLE_MIND_CMD``), feeds its stdin and collects its exit, output and time.
- ``mock_bridge``: the bridge a hook calls, run as ``python -m hooksim.replay.mock_bridge``.
- ``leaks``: processes a hook left running; ``attribution``: which hook made each bridge call.
- ``transcript``: each host's transcript file, written as the session goes, where its payloads
  say, in its own format.
- ``_child/sitecustomize.py``: loaded into Python hooks, it moves their clock to the scenario's.

May import ``scenario``, ``hosts`` and ``steps``; nothing above.
"""
