"""The HTML picture of a run: self-contained, and checked in a real headless Chromium."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hooksim.cli import main

SCENARIOS = Path(__file__).parents[2] / "scenarios"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# As root in a container Chromium needs --no-sandbox; the rest keep it off a closed network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
FAILING = """\
name: a stop hook that blocks, with one expectation wrong
tool: claude-code
turns:
  - {user: go, assistant: done}
  - {after: 2h, user: again, assistant: done}
hooks:
  Stop: [{hooks: [{type: command, command: 'grep -q "stop_hook_active.:true" && exit 0; echo "not yet" >&2; exit 2'}]}]
  UserPromptSubmit: [{hooks: [{type: command, command: 'cat >/dev/null; exit 1'}]}]
expect:
  exit_codes: {Stop: [0, 2], UserPromptSubmit: [0, 1], "*": 0}  # the failing hook is meant
  fired_by_turn: {"2": [UserPromptSubmit]}
"""


@pytest.fixture(scope="module")
def run_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """One run of a shipped scenario on every host, plus a failing one: its page and its JSON."""
    folder = tmp_path_factory.mktemp("picture")
    failing = folder / "failing.yaml"
    failing.write_text(FAILING)
    page, saved = folder / "run.html", folder / "run.json"
    shipped = [
        str(SCENARIOS / "across" / name)
        for name in ("memory-session.yaml", "leaked-processes.yaml")
    ]
    code = main(["run", *shipped, str(failing), "--html", str(page), "--json", str(saved)])
    assert code == 1  # the failing scenario
    return page, json.loads(saved.read_text())


def test_the_page_is_self_contained(run_page: tuple[Path, list[dict[str, Any]]]) -> None:
    """No script, style or image is fetched: the page opens offline, as one file."""
    text = run_page[0].read_text()
    assert "<script src" not in text
    assert "<link" not in text
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in text


def test_show_draws_the_same_page_from_saved_json(
    run_page: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    """hooksim show RUN.json --html draws what hooksim run --html drew (its runs sorted by
    path, then host), and exits as the run did (1: a scenario failed)."""
    page, entries = run_page
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps(entries))
    assert main(["show", str(saved), "--html", str(tmp_path / "again.html")]) == 1
    marks = (tmp_path / "again.html").read_text().count('class="mark"')
    assert marks == page.read_text().count('class="mark"') == sum(len(e["hooks"]) for e in entries)


def test_show_refuses_a_file_that_is_not_a_saved_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not JSON, or JSON of something else: one line, exit 2."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"not": "a run"}')
    assert main(["show", str(bad), "--html", str(tmp_path / "p.html")]) == 2
    assert (
        capsys.readouterr().err == f"hooksim show: {bad} is not a run saved by hooksim run --json\n"
    )


def test_show_names_a_missing_file_broken_json_and_an_unwritable_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each problem is one line and exit 2, before anything is written."""
    missing, broken = tmp_path / "missing.json", tmp_path / "broken.json"
    broken.write_text("{")
    assert main(["show", str(missing), "--html", str(tmp_path / "p.html")]) == 2
    assert capsys.readouterr().err.startswith(f"hooksim show: cannot read {missing} (")
    assert main(["show", str(broken), "--html", str(tmp_path / "p.html")]) == 2
    assert capsys.readouterr().err.startswith(f"hooksim show: {broken} is not JSON (")
    saved = tmp_path / "run.json"
    saved.write_text("[]")
    assert main(["show", str(saved), "--html", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
    assert not (tmp_path / "p.html").exists()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, driven by Playwright (no browser download)."""
    playwright_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (tox -e browser installs it)"
    )
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (Debian: apt-get install chromium; .ci/run does)")
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def test_the_page_in_chromium(
    browser: Any, run_page: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    """No console error; one mark per hook run with its outcome; a click shows stdin; a screenshot."""
    page_file, entries = run_page
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page_file.as_uri())
    assert errors == []
    hooks = [hook for entry in entries for hook in entry["hooks"]]
    assert page.locator(".mark").count() == len(hooks)
    assert page.locator("section.run").count() == len(entries)
    outcomes = page.locator(".mark").evaluate_all("ms => ms.map(m => m.dataset.outcome)")
    assert set(outcomes) >= {"ok", "blocked", "failed"}
    calls = sum(
        1 for entry in entries for call in entry["bridge_calls"] if call.get("hook") is not None
    )
    assert page.locator("rect.call").count() == calls > 0
    leaked = sum(len(entry["leaked_processes"]) for entry in entries)
    assert leaked == 30
    assert page.locator("circle.leak").count() == 30  # one ring per hook that leaked, 6 per host
    assert page.locator("rect[data-compaction]").count() > 0
    compactions = [
        call
        for entry in entries
        if entry["tool"] == "hermes"
        for call in entry["bridge_calls"]
        if call["tool"] == "cleanup_frames" and call["outcome"] == "ok"
    ]
    assert page.locator("rect[data-window]").count() == len(compactions) > 0

    first = page.locator(".mark").first
    first.click()
    details = page.locator("#details-s0")
    assert details.is_visible()
    assert '"hook_event_name": "on_session_start"' in details.inner_text()

    failing = len(entries) - 1
    assert entries[failing]["failures"]
    link = page.locator(f"#s{failing} ul.failures a").first
    target = link.get_attribute("href")
    link.click()
    assert page.locator(f"{target}.selected").count() == 1
    assert "UserPromptSubmit at turn 2: failed" in page.locator(f"#details-s{failing}").inner_text()

    shot = tmp_path / "page.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert errors == []
