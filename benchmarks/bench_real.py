"""A real host's run of a 4-turn session against hooksim's replay of it. Ratio, one run.

    python benchmarks/bench_real.py --real claude-code=PATH [--rounds N]
    python benchmarks/bench_real.py --real codex=PATH [--rounds N]
    python benchmarks/bench_real.py --real gemini-cli=PATH [--rounds N]

The session: four turns a minute apart with the stand-in memory hook on session start, prompt
and stop, one shell call in the second turn. Each round runs it once on the real host (offline,
against the fake model server, hooks behind the recorder) and once under hooksim (plain
replay, as ``hooksim run`` does); rounds interleave the two and the medians are compared
(aim: the replay under a tenth of the real run).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from hooksim.real.session import run_real
from hooksim.replay.runner import run_scenario
from hooksim.scenario import load_scenario

ROOT = Path(__file__).parents[1]
MIND = '"$HOOKSIM_PYTHON" "$HOOKSIM_SCENARIO_DIR/hooks/mind_hook.py"'
EVENTS = {
    "claude-code": ("SessionStart", "UserPromptSubmit", "Stop"),
    "codex": ("SessionStart", "UserPromptSubmit", "Stop"),
    "gemini-cli": ("SessionStart", "BeforeAgent", "AfterAgent"),
}
# How each host is run for real, so the replay runs the same session (Codex: an exec per turn;
# Gemini CLI: a gemini -p run per turn).
LAUNCH = {
    "codex": "hosts: {codex: {launch: exec}}\n",
    "gemini-cli": "hosts: {gemini-cli: {launch: headless}}\n",
}
# The host's shell tool, as the scenario names it.
SHELL_CALL = {"gemini-cli": "{name: run_shell_command, args: {command: ls}, result: ok}"}


def write_scenario(directory: Path, tool: str) -> Path:
    (directory / "hooks").mkdir()
    (directory / "hooks" / "mind_hook.py").write_text(
        (ROOT / "scenarios" / "hooks" / "mind_hook.py").read_text()
    )
    hooks = "\n".join(
        f"  {event}: [{{hooks: [{{type: command, command: '{MIND}'}}]}}]" for event in EVENTS[tool]
    )
    path = directory / "four-turns.yaml"
    path.write_text(
        f"name: four turns\ntool: {tool}\nenv: {{MIND_HOST: {tool}}}\n{LAUNCH.get(tool, '')}"
        f"hooks:\n{hooks}\nturns:\n"
        "  - {user: plan it, assistant: the plan}\n"
        "  - {after: 1m, user: list files, assistant: listed, tools: ["
        + SHELL_CALL.get(tool, "{name: Bash, args: {command: ls, description: list}, result: ok}")
        + "]}\n"
        "  - {after: 1m, user: go on, assistant: going}\n"
        "  - {after: 1m, user: done?, assistant: done}\n"
        "expect: {exit_codes: 0, calls: {save_memory: 8}}\n"
    )
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", required=True, metavar="HOST=PATH")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    tool, _, binary = args.real.partition("=")
    with tempfile.TemporaryDirectory() as tmp:
        scenario = load_scenario(write_scenario(Path(tmp), tool))
        real, replay = [], []
        for _ in range(args.rounds):
            started = time.perf_counter()
            run = run_real(scenario, tool, binary or None)
            real.append(time.perf_counter() - started)
            started = time.perf_counter()
            run_scenario(scenario, tool=tool)
            replay.append(time.perf_counter() - started)
            saves = sum(c["tool"] == "save_memory" for c in run.result.calls)
            if saves != 8:
                print(f"the real run saved {saves} memories, not 8")
                return 1
    ratio = statistics.median(replay) / statistics.median(real)
    print(
        f"{tool}: real {statistics.median(real):.2f}s, hooksim replay"
        f" {statistics.median(replay):.2f}s (median of {args.rounds}): replay/real {ratio:.3f}"
        f" ({'under' if ratio < 0.1 else 'over'} a tenth)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
