"""Conformance with the real host: Hermes v0.19.0 loads the installed config and runs our hooks.

Runs in ``tox -e conformance`` (which installs ``hermes-agent==0.19.0``); skipped elsewhere so
the main environments stay fast and free of Hermes.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest

from hermes_hooks.cli import main
from hermes_hooks.entries import hook_command
from tests.conftest import StubBridge

try:
    HAVE_HERMES = importlib.util.find_spec("agent.shell_hooks") is not None
except ImportError:  # no top-level ``agent`` package at all
    HAVE_HERMES = False

pytestmark = pytest.mark.skipif(
    not HAVE_HERMES, reason="needs hermes-agent==0.19.0 (tox -e conformance)"
)


@pytest.fixture
def hermes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A Hermes home in tmp_path, set before Hermes resolves it, with its hook registry empty."""
    home = tmp_path / "hermes-home"
    monkeypatch.setenv("HERMES_HOME", str(home))
    from agent import shell_hooks
    from hermes_cli.plugins import get_plugin_manager

    shell_hooks.reset_for_tests()
    manager = get_plugin_manager()
    for event in ("on_session_start", "pre_llm_call", "post_llm_call"):
        manager._hooks.pop(event, None)
    yield home
    shell_hooks.reset_for_tests()
    for event in ("on_session_start", "pre_llm_call", "post_llm_call"):
        manager._hooks.pop(event, None)


def test_hermes_registers_and_runs_the_installed_hooks(
    hermes: Path, stub_bridge: StubBridge, capsys: pytest.CaptureFixture[str]
) -> None:
    """Install on a commented config; Hermes' own loader and runner fire our three hooks."""
    from agent.shell_hooks import register_from_config
    from hermes_cli.config import load_config
    from hermes_cli.plugins import invoke_hook

    hermes.mkdir()
    config = hermes / "config.yaml"
    config.write_text(
        "# my settings\nmodel:\n  default: hermes-4   # keep\nhooks:\n  pre_llm_call:\n"
        '    - command: "true"   # theirs\n'
    )
    assert main(["install"]) == 0
    capsys.readouterr()
    assert "# my settings" in config.read_text()
    assert "# keep" in config.read_text()
    assert "# theirs" in config.read_text()

    specs = register_from_config(load_config(), accept_hooks=True)
    assert [(s.event, s.command) for s in specs] == [
        # Hermes registers in config order: the user's event first, then ours.
        ("pre_llm_call", "true"),
        ("pre_llm_call", hook_command("user-prompt-submit")),
        ("on_session_start", hook_command("session-start")),
        ("post_llm_call", hook_command("stop")),
    ]

    invoke_hook("on_session_start", session_id="s1", model="hermes-4", platform="cli")
    invoke_hook(
        "pre_llm_call",
        session_id="s1",
        user_message="What is the answer?",
        conversation_history=[],
        is_first_turn=True,
        model="hermes-4",
        platform="cli",
        sender_id="",
    )
    invoke_hook(
        "post_llm_call",
        session_id="s1",
        user_message="What is the answer?",
        assistant_response="It is 42.",
        conversation_history=[],
        model="hermes-4",
        platform="cli",
    )

    calls = stub_bridge.calls()
    assert [c["tool"] for c in calls] == ["start_session", "save_memory", "save_memory"]
    assert calls[0]["arguments"] == {
        "session_id": "s1",
        "cwd": str(Path.cwd()),
        "model": "hermes-4",
        "platform": "cli",
        "source": "hermes",
    }
    assert calls[1]["arguments"] == {
        "content": "What is the answer?",
        "role": "user",
        "temporary": True,
        "session_id": "s1",
        "turn_id": "",
        "source": "hermes",
    }
    assert calls[2]["arguments"] == {
        "content": "It is 42.",
        "role": "assistant",
        "temporary": False,
        "session_id": "s1",
        "turn_id": "",
        "source": "hermes",
    }
    # accept_hooks recorded the approvals where verify looks for them.
    assert main(["verify"]) == 0
    out = capsys.readouterr().out
    assert "ok    post_llm_call: approved in shell-hooks-allowlist.json" in out.splitlines()


def test_hermes_runs_nothing_of_ours_after_uninstall(
    hermes: Path, stub_bridge: StubBridge, capsys: pytest.CaptureFixture[str]
) -> None:
    """After uninstall Hermes registers only the user's own hooks."""
    from agent.shell_hooks import register_from_config
    from hermes_cli.config import load_config

    hermes.mkdir()
    (hermes / "config.yaml").write_text('hooks:\n  pre_llm_call:\n    - command: "true"\n')
    assert main(["install"]) == 0
    assert main(["uninstall"]) == 0
    capsys.readouterr()
    specs = register_from_config(load_config(), accept_hooks=True)
    assert [(s.event, s.command) for s in specs] == [("pre_llm_call", "true")]
