"""OpenClaw's own tools in the replay: read, write, edit, apply_patch and a run: true exec take
effect in the workspace, after the handlers' rewrites, and give the model and the later hooks
what the real 2026.9.6 gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from hooksim.cli import main
from hooksim.hosts.openclaw.replay import node_binary
from hooksim.hosts.openclaw.tools import derived_paths
from hooksim.steps import ToolCall

FILE_TOOLS = Path(__file__).parents[3] / "scenarios" / "openclaw" / "09-file-tools.yaml"

pytestmark = pytest.mark.skipif(
    node_binary() is None, reason="OpenClaw's plugins run in Node.js: no node on PATH"
)


def test_the_file_tools_scenario_passes_as_the_real_host_ran_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The shipped scenario, whose expectations a real 2026.9.6 run wrote, passes in the replay."""
    assert main(["run", str(FILE_TOOLS)]) == 0
    out = capsys.readouterr().out
    assert f"PASS  {FILE_TOOLS} [openclaw]" in out


def test_the_timeline_says_what_each_file_tool_did(capsys: pytest.CaptureFixture[str]) -> None:
    """The rewritten read reads the other file, and each tool's change is said in words."""
    assert main(["run", str(FILE_TOOLS), "--show-timeline"]) == 0
    out = capsys.readouterr().out
    assert "a hook rewrote the read input; read ran: read real.txt" in out
    assert "write ran: created new.txt" in out
    assert "edit ran: changed notes.txt" in out
    assert "apply_patch ran: created added.txt, changed new.txt" in out
    assert "exec ran `cat new.txt added.txt` in the project: exit 0" in out


def test_an_apply_patch_call_names_every_file_it_targets_once() -> None:
    """before_tool_call's derivedPaths: added, deleted, updated and moved-to files, absolute,
    in the patch's order, each once; a patch without headers targets nothing."""
    patch = (
        "*** Begin Patch\n*** Add File: a.txt\n+a\n*** Delete File: old/b.txt\n"
        "*** Update File: c.txt\n\n*** Move to: d/c.txt\n@@\n-x\n+y\n"
        "  *** Update File: a.txt  \n@@\n-a\n+b\n*** End Patch\n"
    )
    call = ToolCall("apply_patch", {"input": patch})
    assert derived_paths(call, "/project") == [
        "/project/a.txt",
        "/project/old/b.txt",
        "/project/c.txt",
        "/project/d/c.txt",
    ]
    assert derived_paths(ToolCall("apply_patch", {"input": "no patch"}), "/project") == []
    assert derived_paths(ToolCall("read", {"path": "a.txt"}), "/project") == []
