"""Whatever a hook prints, the reports stay well-formed and bounded and the terminal stays clean:
the HTML page keeps its two scripts, the JUnit XML parses, the console shows control characters
as escapes, a file name with a line break stays on its line, and a field is cut at a cap."""

from __future__ import annotations

import json
import re
import sys
import unicodedata
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hooksim.cli import main

from tests.console import console

pytest_plugins = ["pytester"]

# Every sequence that can end or confuse a <script> element, and JavaScript's line breaks.
SCRIPT_BREAKERS = "<!--<script>\n<script></script>-->\n</script><!-- & > \u2028 \u2029 end\n"


def _scenario(tmp_path: Path, hook: str, *, expect: str = "exit_codes: 0", extra: str = "") -> Path:
    """A one-turn Claude Code scenario whose UserPromptSubmit hook runs ``hook`` (a Python file)."""
    (tmp_path / "hook.py").write_text(hook)
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: a hook that prints anything\ntool: claude-code\n"
        "hooks:\n  UserPromptSubmit: [{hooks: [{type: command,"
        f" command: '{sys.executable} {tmp_path / 'hook.py'}'}}]}}]\n"
        f"turns:\n  - {{user: hi, assistant: ok}}\n{extra}expect:\n  {expect}\n"
    )
    return path


class _Scripts(HTMLParser):
    """Each <script> element of a page: its attributes and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.scripts.append((dict(attrs), ""))
            self._inside = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._inside = False

    def handle_data(self, data: str) -> None:
        if self._inside:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)


def _scripts(page: Path) -> _Scripts:
    parser = _Scripts()
    parser.feed(page.read_text(encoding="utf-8"))
    parser.close()
    return parser


def _page_data(page: Path) -> Any:
    """The data block of a page, read back."""
    return json.loads(_scripts(page).scripts[0][1])


def test_script_and_comment_sequences_in_a_hook_output_leave_the_page_whole(
    tmp_path: Path,
) -> None:
    """The page has exactly its two scripts; the data block holds no '<', '>' or '&' (so no
    tokenizer state can run it past its end) and reads back as the run's hooks."""
    hook = f"import sys\nsys.stdin.read()\nsys.stdout.write({SCRIPT_BREAKERS!r})\n"
    page, saved = tmp_path / "run.html", tmp_path / "run.json"
    assert (
        main(["run", str(_scenario(tmp_path, hook)), "--html", str(page), "--json", str(saved)])
        == 0
    )
    parser = _scripts(page)
    assert [attrs for attrs, _ in parser.scripts] == [
        {"type": "application/json", "id": "hooksim-data"},
        {},
    ]
    block = parser.scripts[0][1]
    assert not set(block) & {"<", ">", "&", "\u2028", "\u2029"}
    data = json.loads(block)
    entries = json.loads(saved.read_text(encoding="utf-8"))
    assert [h["stdout"] for h in data[0]["hooks"]] == [h["stdout"] for h in entries[0]["hooks"]]
    assert SCRIPT_BREAKERS in [h["stdout"] for h in data[0]["hooks"]]


# Every byte, invalid UTF-8, and a JSON reply whose text holds a lone surrogate and U+FFFE.
ANY_BYTES = """\
import sys
sys.stdin.read()
sys.stderr.buffer.write(bytes(range(256)) + b"\\xff\\xfe\\xc3( \\xed\\xa0\\x80 ESC:\\x1b[31mRED\\x01")
print('{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",'
      ' "additionalContext": "lone \\\\udc80 and \\\\ufffe\\\\u0000"}}')
sys.exit(1)
"""
# The first line of that stderr (bytes 0 to 8, the tab before its line break stripped), as shown
# in the timeline, with the count of the line it leaves out.
STDERR_SHOWN = r"stderr: \x00\x01\x02\x03\x04\x05\x06\x07\x08  (+1 more line of stderr)"


def _xml_safe(text: str) -> bool:
    return all(
        c in "\t\n\r" or 0x20 <= ord(c) <= 0xD7FF or 0xE000 <= ord(c) <= 0xFFFD or ord(c) > 0xFFFF
        for c in text
    )


def test_any_bytes_from_a_hook_give_well_formed_junit_json_and_html(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """JUnit XML parses, and what XML cannot hold is written as a visible escape; the JSON and
    the page are written too, a lone surrogate as its escape."""
    junit, saved, page = tmp_path / "junit.xml", tmp_path / "run.json", tmp_path / "run.html"
    scenario = _scenario(tmp_path, ANY_BYTES)
    code = main(
        ["run", str(scenario), "--junit-xml", str(junit), "--json", str(saved), "--html", str(page)]
    )
    assert code == 1
    capsys.readouterr()
    case = ET.parse(junit).getroot().find("testcase")
    assert case is not None
    failure, out = case.find("failure"), case.find("system-out")
    assert failure is not None
    assert out is not None
    for text in (failure.text or "", out.text or "", failure.get("message", "")):
        assert _xml_safe(text), text
    assert STDERR_SHOWN in (out.text or "")
    assert r"context given to the model: 'lone \udc80 and \ufffe\x00'" in (out.text or "")
    hooks = json.loads(saved.read_text(encoding="utf-8"))[0]["hooks"]
    assert hooks[0]["context"] == "lone \udc80 and \ufffe\x00"
    assert "\x1b[31mRED" in hooks[0]["stderr"]
    assert page.read_text(encoding="utf-8").count("<script") == 2


def test_the_plugin_junit_xml_parses_whatever_a_hook_prints(pytester: pytest.Pytester) -> None:
    """pytest --junit-xml on a scenario whose hook prints every byte is well-formed."""
    pytester.makeini("[pytest]\nhooksim_dirs = scenarios\n")
    _scenario(pytester.path, ANY_BYTES)
    (pytester.path / "scenarios").mkdir()
    (pytester.path / "s.yaml").rename(pytester.path / "scenarios" / "s.yaml")
    result = pytester.runpytest_subprocess("--junit-xml=junit.xml")
    result.assert_outcomes(failed=1)
    case = ET.parse(pytester.path / "junit.xml").getroot().find(".//testcase")
    assert case is not None
    failure = case.find("failure")
    assert failure is not None
    assert STDERR_SHOWN in (failure.text or "")


def _raw_controls(text: str) -> list[str]:
    """The control characters (C0 but newline and tab, C1, DEL) and line separators in ``text``."""
    return sorted(
        {c for c in text if c not in "\n\t" and unicodedata.category(c) in ("Cc", "Zl", "Zp")}
    )


def test_a_failing_run_shows_a_hook_stderr_with_its_controls_escaped(tmp_path: Path) -> None:
    """ESC, BEL and the other controls a hook writes reach the terminal as escapes."""
    hook = (
        "import sys\nsys.stdin.read()\n"
        "sys.stderr.write('E\\x1b[31mRED\\x1b]0;title\\x07\\r\\x9b2J\\u2028end\\n')\n"
    )
    result = console("hooksim", "run", _scenario(tmp_path, hook, expect="exit_codes: 1"))
    assert result.returncode == 1
    assert _raw_controls(result.stdout) == []
    assert " " * 38 + r"stderr: E\x1b[31mRED\x1b]0;title\x07\r\x9b2J\u2028end" in (
        result.stdout.splitlines()
    )


def test_timeline_always_shows_a_passing_run_with_its_controls_escaped(tmp_path: Path) -> None:
    """A passing run shown by ``timeline: always`` is escaped as a failing one."""
    hook = "import sys\nsys.stdin.read()\nsys.stderr.write('a\\tb\\x1bc\\n')\n"
    path = _scenario(tmp_path, hook, extra="timeline: always\n")
    result = console("hooksim", "run", path)
    assert result.returncode == 0
    assert _raw_controls(result.stdout) == []
    assert " " * 38 + "stderr: a\tb\\x1bc" in result.stdout.splitlines()


def test_a_file_name_with_a_line_break_stays_on_its_line(tmp_path: Path) -> None:
    """The file tool's words and an expectation on the file quote a name with a line break."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: odd names\ntool: claude-code\nturns:\n  - user: write\n    tools:\n"
        '      - {name: Write, args: {file_path: "sub/new\\nline.txt", content: "x"}}\n'
        "    assistant: ok\n"
        "hooks:\n  Stop: [{hooks: [{type: command, command: 'cat >/dev/null'}]}]\n"
        'expect:\n  files:\n    "sub/new\\nline.txt": {contains: y}\n'
        "    sub/nlé.txt: {exists: true}\n"
    )
    result = console("hooksim", "run", path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert r"  file 'sub/new\nline.txt': expected text containing 'y', got 'x'" in lines
    assert "  file sub/nlé.txt: expected it to exist, got no such file" in lines
    assert any(line.endswith(r"=> Write ran: created 'sub/new\nline.txt'") for line in lines)


BIG = "import sys\nsys.stdin.read()\nsys.stdout.write('x' * 5_000_000)\nsys.stderr.write('y' * 5_000_000)\n"


def test_a_hook_printing_megabytes_leaves_the_reports_small(tmp_path: Path) -> None:
    """Each field of the JSON and the page is cut at its cap, saying how much was cut."""
    saved, page, junit = tmp_path / "run.json", tmp_path / "run.html", tmp_path / "junit.xml"
    code = main(
        [
            "run",
            str(_scenario(tmp_path, BIG)),
            "--json",
            str(saved),
            "--html",
            str(page),
            "--junit-xml",
            str(junit),
        ]
    )
    assert code == 0
    assert saved.stat().st_size < 300_000
    assert page.stat().st_size < 300_000
    assert junit.stat().st_size < 300_000
    hook: dict[str, Any] = json.loads(saved.read_text(encoding="utf-8"))[0]["hooks"][0]
    # What the run kept of each stream (its first MiB, hook_process.OUTPUT_CAP), cut again here.
    assert re.fullmatch(r"x+\n\[… \d+ more characters cut\]", hook["stdout"])
    assert re.fullmatch(r"y+\n\[… \d+ more characters cut\]", hook["stderr"])
    assert len(hook["stdout"]) < 64 * 1024 + 40
    shown = _page_data(page)[0]["hooks"][0]
    assert (shown["stdout"], shown["stderr"]) == (hook["stdout"], hook["stderr"])


def test_compare_shows_a_scenario_name_and_a_file_name_escaped(tmp_path: Path) -> None:
    """hooksim compare words names as the timeline does: no raw control reaches the terminal."""
    path = tmp_path / "s.yaml"
    path.write_text(
        'name: "odd \\e]0;title\\a name"\ntool: claude-code\nturns:\n  - user: write\n'
        '    tools:\n      - {name: Write, args: {file_path: "a\\rb.txt", content: "x"}}\n'
        "    assistant: ok\n"
        "hooks:\n  Stop: [{hooks: [{type: command, command: 'cat >/dev/null'}]}]\n"
    )
    result = console("hooksim", "compare", path, "--tools", "claude-code")
    assert result.returncode == 0
    assert _raw_controls(result.stdout) == []
    lines = result.stdout.splitlines()
    assert lines[0] == rf"odd \x1b]0;title\x07 name  ({path})"
    assert " " * 23 + r"=> Write ran: created 'a\rb.txt'" in lines


def test_a_scenario_name_and_a_warning_with_controls_stay_one_escaped_line(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        'name: "red\\e[31m\\nname"\ntool: claude-code\n'
        "hooks: {UserPromptSubmit: [{hooks: [{type: command, command: 'true'}]}],"
        ' "Odd\\e[2J": [{hooks: [{type: command, command: "true"}]}]}\n'
        "turns: [{user: hi, assistant: ok}]\n"
    )
    result = console("hooksim", "run", path)
    assert "\x1b" not in result.stdout + result.stderr
    header = result.stdout.splitlines()[0]
    assert "  'red\\x1b[31m\\nname'  (" in header, header
    assert any("warning:" in line and "\\x1b[2J" in line for line in result.stdout.splitlines())


def _commands(out: str) -> list[str]:
    """The lines GitHub Actions would run as workflow commands (``::`` after any blanks)."""
    return [line for line in out.splitlines() if line.lstrip().startswith("::")]


def test_no_value_in_the_output_can_start_a_workflow_command(tmp_path: Path) -> None:
    """A link target or a hook's output holding `\n::error ...::` prints as text: no line of
    hooksim's output is a GitHub workflow command it did not mean (without --format github it
    means none)."""
    fixture = tmp_path / "fix" / "dir"
    fixture.mkdir(parents=True)
    (fixture / "out").symlink_to("nowhere\n::error file=README.md,line=1::INJECTED\n::add-mask::x")
    (tmp_path / "g1.yaml").write_text(
        'name: g1\ntool: claude-code\nfiles: {d: {from: fix/dir}, d/out/x.txt: "y"}\n'
        "hooks: {Stop: [{hooks: [{type: command, command: 'true'}]}]}\n"
        "turns: [{user: hi, assistant: ok}]\n"
    )
    printing = "printf 'ok\\n::error::INJECTED\\n  ::add-mask::x\\n' >&2; exit 1"
    (tmp_path / "g2.yaml").write_text(
        "name: g2\ntool: claude-code\nhooks: {Stop: [{hooks: [{type: command, command: "
        + json.dumps(printing)
        + "}]}]}\nturns: [{user: hi, assistant: ok}]\nexpect: {exit_codes: 0}\n"
    )
    result = console("hooksim", "run", tmp_path / "g1.yaml", tmp_path / "g2.yaml")
    assert result.returncode == 1
    assert "INJECTED" in result.stdout
    assert _commands(result.stdout) == []
