"""How install, uninstall and verify scale with config.yaml's size: ratios to a plain load.

    python benchmarks/bench_install.py [--rounds N]

For each size (Hermes' own default config, 15 KB; example-style configs of 126 KB, 1 MB and
8 MB made by ``tests/install/large_configs.py``), each round times, one after the other in this
process: a plain ``yaml`` load of the file (PyYAML's safe load, libyaml when present: what
Hermes does on every start), ``hermes-hooks install``, ``verify`` and ``uninstall`` on a copy
of it in a fresh Hermes home. Medians are printed as seconds (this machine, as it is loaded)
and as ratios to the plain load of the same file, with the time per MB to show the growth.

The baseline is the load as Hermes runs it (``yaml.load`` with the cyclic garbage collector
on); the tools parse the whole file with libyaml too, but build only the keys they need in
Python and pause the collector meanwhile, which is why they can come in under 1x on large
files. ``verify`` exits 1 here (no mind command on a bench machine); it is timed all the same.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hermes_hooks.cli import main  # noqa: E402
from tests.install.large_configs import example_style_config  # noqa: E402

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def corpus() -> dict[str, str]:
    default = (ROOT / "tests" / "install" / "configs" / "hermes_default.yaml").read_text()
    return {
        "Hermes default (15 KB)": default,
        "example-style 126 KB": example_style_config(126 * 1024),
        "example-style 1 MB": example_style_config(1 << 20),
        "example-style 8 MB": example_style_config(8 << 20),
    }


def timed(action: object) -> float:
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        code = action()  # type: ignore[operator]
    elapsed = time.perf_counter() - started
    if code not in (0, None):
        raise SystemExit(f"benchmark step failed with exit code {code}")
    return elapsed


def load(config: Path) -> None:
    yaml.load(config.read_text(), Loader=LOADER)


def measure(text: str, rounds: int) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {"load": [], "install": [], "verify": [], "uninstall": []}
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as home:
            config = Path(home, "config.yaml")
            config.write_text(text)
            samples["load"].append(timed(functools.partial(load, config)))
            for step in ("install", "verify", "uninstall"):
                # verify exits 1 here (no mind command on this machine): timed all the same.
                run = functools.partial(main, [step, "--hermes-home", home])
                samples[step].append(timed(run if step != "verify" else lambda r=run: r() and None))
            if config.read_text() != text:
                raise SystemExit("install then uninstall did not give back the original bytes")
    return samples


def main_bench() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--quick", action="store_true", help="the smallest run, to check the benchmark works"
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds = 1
    os.environ.setdefault("WAGGLE_MIND_CMD", shutil.which("true") or "true")
    measure("model:\n  default: m\n", 1)  # warm imports
    print(f"{args.rounds} rounds per size; medians; ratio = step / plain yaml load of the file")
    print(
        f"{'config':<24} {'size':>9} {'load':>8} {'step':<10} {'seconds':>8} {'ratio':>7} {'s/MB':>7}"
    )
    sizes = corpus()
    if args.quick:  # the two small ones: the large ones take seconds to make and to read
        sizes = dict(list(sizes.items())[:2])
    for name, text in sizes.items():
        size = len(text.encode())
        samples = measure(text, args.rounds)
        load = statistics.median(samples["load"])
        for step in ("install", "verify", "uninstall"):
            t = statistics.median(samples[step])
            print(
                f"{name:<24} {size:>9} {load:>8.3f} {step:<10} {t:>8.3f} {t / load:>6.2f}x "
                f"{t / (size / 1e6):>7.3f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main_bench())
