"""``python -m hermes_hooks``, and the command ``install`` writes: ``python <this file> SUB``.

Run as a file, the hook skips what a console script costs on every start (its wrapper imports
``re``, and with it ``enum``, ``functools`` and more); the hook runs twice per agent turn, in
front of the model call. Python puts this file's folder first on ``sys.path``; the package's
parent goes there instead, so that ``hermes_hooks`` imports as a package and none of its
modules can shadow another module of the same name.
"""

from __future__ import annotations

import sys

if not __package__:  # run as a file, not with -m
    here = __file__.rpartition("/")[0]
    if sys.path and sys.path[0] == here:
        sys.path[0] = here.rpartition("/")[0] or "/"
    else:  # python -P or -I: the folder was not added
        sys.path.insert(0, here.rpartition("/")[0] or "/")

from hermes_hooks.cli import main

raise SystemExit(main())
