"""The replay: a scenario run on a host profile, every hook a real process, on a virtual clock.

- ``runner``: ``run_scenario`` walks the schedule, asks the host which hooks fire, runs them and
  gathers a ``RunResult`` (``result``: firings, hook runs, bridge calls, the clock).
- ``dispatch``: one event of one session fired as the host fires it (each hook's environment,
  in parallel or in turn, awaited or not), and the host's reading of what its hooks did.
- ``workspace``: the run's work directory (a home, the project, the bridge's ledger) and the
  environment every hook starts from; ``project``: the project seeded before the session,
  changed by the tools the host runs, read back for ``expect.files``; ``file_tools``: what a
  host's file tools do to it; ``plugins``: a scenario's plugins installed as the host installs
  them.
- ``hook_process``: starts one hook process (its environment, the virtual clock, the mock bridge
  on ``WAGGLE_MIND_CMD``), feeds its stdin and collects its exit, output and time.
- ``mock_bridge``: the bridge a hook calls, run as ``python -m hooksim.replay.mock_bridge``.
- ``leaks``: processes a hook left running; ``attribution``: which hook made each bridge call.
- ``transcript``: each host's transcript file, written as the session goes, where its payloads
  say, in its own format.
- ``_child/sitecustomize.py``: loaded into Python hooks, it moves their clock to the scenario's.
- ``interrupt``: a run stopped by a signal: what it started dies, its reports are written;
  ``sweep``: what a run killed outright left behind, removed by the next run.

May import ``scenario``, ``hosts`` and ``steps``; nothing above.
"""
