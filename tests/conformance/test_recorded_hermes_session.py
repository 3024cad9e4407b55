"""A session recorded under the real Hermes agent loop exports to a scenario hooksim replays.

Runs in ``tox -e conformance`` (which installs ``hermes-agent==0.19.0``): ``hooksim record
start`` taps a Hermes config, Hermes' own CLI (driven by ``hermes_session.py`` against the fake
model server) runs a session, ``record stop`` restores the config, ``record export`` writes the
scenario, and ``hooksim run`` passes it with the same hooks.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hooksim.cli import main

try:
    HAVE_HERMES = importlib.util.find_spec("agent.shell_hooks") is not None
except ImportError:  # no top-level ``agent`` package at all
    HAVE_HERMES = False

pytestmark = pytest.mark.skipif(
    not HAVE_HERMES, reason="needs hermes-agent==0.19.0 (tox -e conformance)"
)
DRIVER = Path(__file__).with_name("hermes_session.py")
CONTEXT = 'sh -c \'cat >/dev/null; echo "{\\"context\\": \\"the user likes tea\\"}"\''
QUIET = "sh -c 'cat >/dev/null'"
CONFIG = f"""\
# my Hermes settings
model:
  default: fake-model
hooks:
  on_session_start:
    - command: {json.dumps(QUIET)}
  pre_llm_call:
    - command: {json.dumps(CONTEXT)}   # gives the model some context
  post_llm_call:
    - command: {json.dumps(QUIET)}
  on_session_end:
    - command: {json.dumps(QUIET)}
  on_session_finalize:
    - command: {json.dumps(QUIET)}
  on_session_reset:
    - command: {json.dumps(QUIET)}
"""


def test_a_recorded_hermes_session_replays_in_hooksim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Record under the real agent loop, restore, export, replay: the replay passes."""
    home = tmp_path / "home"
    hermes_home = home / ".hermes"
    project = tmp_path / "project"
    for folder in (hermes_home, project):
        folder.mkdir(parents=True)
    config = hermes_home / "config.yaml"
    config.write_text(CONFIG)
    out = tmp_path / "recording"
    args = ["record", "start", "--tool", "hermes", "--config", str(config), "--out", str(out)]
    assert main(args) == 0
    plan = tmp_path / "plan.json"
    plan.write_text(
        json.dumps(
            {
                "model_name": "fake-model",
                "model": [
                    {"content": "Hello! How can I help?"},
                    {"content": "Tea it is."},
                    {"content": "A fresh start."},
                ],
                "steps": [
                    {"user": "hi there"},
                    {"user": "what do I like?"},
                    {"new_session": True},
                    {"user": "new topic"},
                ],
                "requests_log": str(tmp_path / "requests.json"),
            }
        )
    )
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("HERMES_", "HOOKSIM_"))},
        "HOME": str(home),
        "HERMES_HOME": str(hermes_home),
    }
    driven = subprocess.run(
        [sys.executable, str(DRIVER), str(plan)],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert driven.returncode == 0, driven.stderr[-2000:]
    assert main(["record", "stop", "--out", str(out)]) == 0
    assert config.read_text() == CONFIG
    exported = tmp_path / "session.yaml"
    assert main(["record", "export", str(out), "-o", str(exported)]) == 0
    text = exported.read_text()
    # The replies come from post_llm_call's payload (which model answer went to which turn is
    # Hermes' business: it also asks the model for a session title).
    for said in ("user: hi there", "assistant: Hello! How can I help?", "user: new topic"):
        assert said in text
    assert "new_session: " in text
    assert "(reply not recorded)" not in text
    assert "'1': the user likes tea" in text
    capsys.readouterr()
    assert main(["run", str(exported)]) == 0, capsys.readouterr().out
