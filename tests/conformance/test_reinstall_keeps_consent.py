"""The real Hermes 0.19.0 CLI keeps capturing after a reinstall of the hook package.

Hermes keys its consent on the exact hook command, and skips a hook it has not approved when it
runs without a terminal (``hermes -z``, a gateway, cron). A reinstall in the same venv (``pip
install --force-reinstall``, an upgrade) rewrites the package's files and names the interpreter
the way the pip that ran it was named (``python3`` → ``python3.11``). Here: a user's venv with
the package, ``install`` by ``python3``, ``hermes --accept-hooks -z`` (consent and a turn), the
package's files rewritten, ``install`` again by ``python3.X``, and one more ``hermes -z`` turn
without a terminal: it must still make the bridge calls of a turn.

Runs in ``tox -e conformance`` (``REAL_HERMES``: the ``hermes`` executable of
``hermes-agent==0.19.0``), against hooksim's fake OpenAI-compatible model server.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

import hermes_hooks
from tests.conftest import StubBridge

REAL_HERMES = os.environ.get("REAL_HERMES", "")
pytestmark = pytest.mark.skipif(
    not REAL_HERMES or not os.path.exists(REAL_HERMES),
    reason="needs the real hermes executable (REAL_HERMES; tox -e conformance)",
)
TURN_TIMEOUT_S = 300


def users_venv(tmp_path: Path) -> Path:
    """A venv holding a copy of the package, as pip installs it; the install tools' libraries
    come from the tests' own environment (a ``.pth`` after the venv's own site-packages)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    packages = next(venv.glob("lib/python*/site-packages"))
    (packages / "tests-libraries.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    copy_package(packages)
    return venv


def users_home(tmp_path: Path, stub_bridge: StubBridge) -> tuple[Path, dict[str, str]]:
    """A HOME with an empty Hermes home, and the environment Hermes and the tools run with."""
    home = tmp_path / "home"
    (home / ".hermes").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HERMES_", "WAGGLE_"))}
    env.update(HOME=str(home), HERMES_HOME=str(home / ".hermes"), **stub_bridge.env)
    return home, env


def copy_package(packages: Path) -> None:
    """(Re)write the package's files: what ``pip install --force-reinstall`` does to them."""
    target = packages / "hermes_hooks"
    shutil.rmtree(target, ignore_errors=True)
    source = Path(hermes_hooks.__file__).parent
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))


def hermes(home: Path, env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    """The real ``hermes`` CLI, as a script or cron job runs it: no terminal on any stream."""
    return subprocess.run(
        [REAL_HERMES, *argv],
        env=env,
        cwd=home,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TURN_TIMEOUT_S,
        check=False,
    )


def hermes_turn(
    prompt: str, home: Path, env: dict[str, str], *flags: str
) -> subprocess.CompletedProcess[str]:
    """One ``hermes -z`` turn."""
    return hermes(home, env, *flags, "-z", prompt)


def test_capture_survives_a_reinstall_without_a_terminal(
    tmp_path: Path, stub_bridge: StubBridge
) -> None:
    from hooksim.real.models.reply import ModelScript, Reply
    from hooksim.real.models.server import ModelServer

    venv = users_venv(tmp_path)
    packages = next(venv.glob("lib/python*/site-packages"))
    home, env = users_home(tmp_path, stub_bridge)
    hermes_home = home / ".hermes"

    def tool(python: str, *argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(venv / "bin" / python), "-m", "hermes_hooks", *argv],
            env=env,
            cwd=home,
            capture_output=True,
            text=True,
            check=False,
        )

    script = ModelScript()
    script.set_turn(0, [Reply("first answer"), Reply("second answer")])
    with ModelServer("openai-chat", script, tmp_path / "model.jsonl", models=["fake"]) as server:
        (hermes_home / "config.yaml").write_text(
            "model:\n  default: fake\n  provider: custom\n"
            f"  base_url: {server.url}/v1\n  api_key: fake-key\n"
            "auxiliary:\n  title_generation:\n    enabled: false\n"
        )
        installed = tool("python3", "install")
        assert installed.returncode == 0, installed.stderr
        first = hermes_turn("remember the first thing", home, env, "--accept-hooks")
        assert first.returncode == 0, first.stderr[-2000:]
        assert stub_bridge.tools() == ["start_session", "save_memory", "save_memory"]

        copy_package(packages)  # the reinstall
        version = f"python{sys.version_info.major}.{sys.version_info.minor}"
        again = tool(version, "install")
        assert again.returncode == 0, again.stderr
        assert again.stdout.startswith("hermes-hooks: already installed in "), again.stdout
        verified = tool(version, "verify")
        assert "ok    post_llm_call: approved in shell-hooks-allowlist.json" in (
            verified.stdout.splitlines()
        ), verified.stdout

        second = hermes_turn("remember the second thing", home, env)
        assert second.returncode == 0, second.stderr[-2000:]
    saves = [c["arguments"] for c in stub_bridge.calls() if c["tool"] == "save_memory"]
    assert [(s["role"], s["content"]) for s in saves] == [  # type: ignore[index]
        ("user", "remember the first thing"),
        ("assistant", "first answer"),
        ("user", "remember the second thing"),
        ("assistant", "second answer"),
    ]


def test_hermes_own_hook_checks_write_nothing_into_the_mind(
    tmp_path: Path, stub_bridge: StubBridge
) -> None:
    """`hermes hooks test EVENT` and `hermes hooks doctor` fire our approved hooks with Hermes'
    synthetic payloads (session "test-session", "What is the weather?"): no bridge call."""
    venv = users_venv(tmp_path)
    home, env = users_home(tmp_path, stub_bridge)
    hermes_home = home / ".hermes"
    env["WAGGLE_HERMES_COMPACT_ON_STOP"] = "1"
    (hermes_home / "config.yaml").write_text("hooks_auto_accept: true\n")
    installed = subprocess.run(
        [str(venv / "bin" / "python3"), "-m", "hermes_hooks", "install"],
        env=env,
        cwd=home,
        capture_output=True,
        text=True,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr
    said = []
    for argv in (
        ["test", "on_session_start"],
        ["test", "pre_llm_call"],
        ["test", "post_llm_call"],
        ["doctor"],
    ):
        done = hermes(home, env, "hooks", *argv)
        said.append(done.stdout + done.stderr)
    assert stub_bridge.calls() == []
    # Hermes shows the hook's stderr: the user sees why nothing reached the mind.
    assert all("Hermes' test payload (session test-session)" in text for text in said[:3]), said
