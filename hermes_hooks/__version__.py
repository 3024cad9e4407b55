"""The distribution's version (``hermes-hooks``, which ships both packages): the one place it is
written; the build reads it from here (``[tool.hatch.version]``), and both CLIs print it
without importing ``importlib.metadata`` (about 20 ms of every ``--version``)."""

__version__ = "0.1.0"
