"""The config corpus: install and uninstall change our entries and not one other byte."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from hermes_hooks.hermes_config import ConfigError, Edit
from hermes_hooks.install import plan_install as _plan_install
from hermes_hooks.installation import Installation
from hermes_hooks.uninstall import plan_uninstall
from tests.install.large_configs import example_style_config

CONFIGS = Path(__file__).parent / "configs"
EXPECTED = CONFIGS / "expected"
# A path with a space: the commands must be quoted for Hermes' shlex.split.
ENTRIES = {
    "on_session_start": "'/opt/hermes hooks/bin/hermes-hooks' session-start",
    "pre_llm_call": "'/opt/hermes hooks/bin/hermes-hooks' user-prompt-submit",
    "post_llm_call": "'/opt/hermes hooks/bin/hermes-hooks' stop",
}
CORPUS = sorted(p.name for p in CONFIGS.glob("*.yaml"))


def plan_install(text: str, entries: dict[str, str], source: str = "config.yaml") -> Edit:
    """Install as on a machine where no older entry of the corpus runs this installation
    (whatever ``python3 -m hermes_hooks`` imports where the tests run)."""
    return _plan_install(text, entries, source, which=lambda _: Installation("broken", "gone"))


def read(path: Path) -> str:
    return path.read_bytes().decode()


def hermes_view(text: str) -> object:
    """What Hermes' yaml.safe_load sees."""
    return yaml.safe_load(text)


def test_the_corpus_is_what_we_think() -> None:
    """The corpus holds every shape the installer must handle."""
    assert CORPUS == [
        "anchors.yaml",
        "commented.yaml",
        "comments_only.yaml",
        "crlf.yaml",
        "document_end_no_hooks.yaml",
        "document_markers.yaml",
        "empty.yaml",
        "empty_event_keys.yaml",
        "event_null.yaml",
        "flow_style.yaml",
        "hermes_default.yaml",
        "hooks_empty_line.yaml",
        "hooks_empty_mapping.yaml",
        "hooks_null.yaml",
        "indented4.yaml",
        "no_hooks_key.yaml",
        "old_entry.yaml",
        "other_hooks.yaml",
        "output_spill.yaml",
        "tagged.yaml",
    ]
    assert b"\r\n" in (CONFIGS / "crlf.yaml").read_bytes()
    assert (CONFIGS / "empty.yaml").read_bytes() == b""


def test_hermes_default_is_hermes_own_dump() -> None:
    """hermes_default.yaml is Hermes 0.19.0's DEFAULT_CONFIG as Hermes writes it, `hooks: {}` and all.

    Made with hermes-agent 0.19.0 installed: ``utils.atomic_yaml_write(path,
    hermes_cli.config.DEFAULT_CONFIG)`` (its ``yaml.dump`` with Hermes' IndentDumper), which is
    how Hermes writes a config.yaml.
    """
    text = read(CONFIGS / "hermes_default.yaml")
    assert 15_000 < len(text) < 16_000
    assert "\nhooks: {}\nhooks_auto_accept: false\n" in text
    view = hermes_view(text)
    assert isinstance(view, dict)
    assert view["hooks"] == {}


@pytest.mark.parametrize("name", CORPUS)
def test_install_gives_the_expected_file(name: str) -> None:
    """Install adds our three entries; the result is the reviewed expected file, byte for byte."""
    edit = plan_install(read(CONFIGS / name), ENTRIES)
    assert edit.new == read(EXPECTED / name)


@pytest.mark.parametrize("name", CORPUS)
def test_install_changes_nothing_but_our_entries(name: str) -> None:
    """Hermes sees the user's settings unchanged and exactly one entry of ours per event."""
    before = hermes_view(read(CONFIGS / name)) or {}
    after = hermes_view(plan_install(read(CONFIGS / name), ENTRIES).new)
    assert isinstance(before, dict)
    assert isinstance(after, dict)
    assert {k: v for k, v in after.items() if k != "hooks"} == {
        k: v for k, v in before.items() if k != "hooks"
    }
    old_hooks = before.get("hooks") or {}
    for event, hooks in after["hooks"].items():
        if event == "output_spill":  # a reserved section, not an event
            assert hooks == old_hooks[event]
            continue
        mine = [h for h in hooks if h.get("command") == ENTRIES.get(event)]
        theirs = [h for h in hooks if "hermes" not in str(h.get("command"))]
        assert len(mine) == (1 if event in ENTRIES else 0)
        assert theirs == [
            h for h in old_hooks.get(event) or [] if "hermes" not in str(h.get("command"))
        ]


@pytest.mark.parametrize("name", CORPUS)
def test_lines_outside_the_hooks_block_are_untouched(name: str) -> None:
    """Every line of the original that is not in its hooks block is in the result, in order."""
    original = read(CONFIGS / name).splitlines(keepends=True)
    installed = read(EXPECTED / name).splitlines(keepends=True)
    kept = iter(installed)
    outside = [line for line in original if not line.startswith((" ", "\t", "-", "hooks:"))]
    assert all(line in kept for line in outside)


@pytest.mark.parametrize("name", CORPUS)
def test_install_twice_changes_no_byte(name: str) -> None:
    """Installing over an installed config returns the same text and reports nothing changed."""
    installed = read(EXPECTED / name)
    again = plan_install(installed, ENTRIES)
    assert again.new == installed
    assert not again.changed
    assert [c.action for c in again.changes] == ["unchanged"] * 3


@pytest.mark.parametrize("name", CORPUS)
def test_uninstall_gives_back_the_users_file(name: str) -> None:
    """Uninstall after install leaves the original bytes (or the reviewed result without ours)."""
    expected = EXPECTED / name.replace(".yaml", ".uninstalled.yaml")
    want = read(expected) if expected.exists() else read(CONFIGS / name)
    assert plan_uninstall(read(EXPECTED / name)).new == want


@pytest.mark.parametrize(
    "name", ["hooks_empty_mapping.yaml", "hooks_null.yaml", "hooks_empty_line.yaml"]
)
def test_an_empty_hooks_line_comes_back_after_uninstall(name: str) -> None:
    """Install marks the `hooks:` line it filled with the original; uninstall restores that line."""
    original = read(CONFIGS / name)
    installed = plan_install(original, ENTRIES).new
    head = next(line for line in installed.splitlines() if line.startswith("hooks:"))
    assert head.startswith("hooks:  # hermes-hooks install replaced: ")
    assert plan_uninstall(installed).new == original


def test_a_tagged_scalar_in_another_entry_keeps_its_tag() -> None:
    """`!!int "7"` in someone else's entry is the same bytes after install and after uninstall."""
    installed = read(EXPECTED / "tagged.yaml")
    assert '      timeout: !!int "7"\n' in installed
    assert plan_uninstall(installed).new == read(CONFIGS / "tagged.yaml")


def test_a_reserved_key_under_hooks_is_left_alone() -> None:
    """`hooks.output_spill` (a section Hermes skips, not an event) is kept as it is."""
    after = hermes_view(read(EXPECTED / "output_spill.yaml"))
    assert isinstance(after, dict)
    assert after["hooks"]["output_spill"] == {"max_bytes": 10000}


def test_document_markers_stay_around_the_content() -> None:
    """A new hooks block goes before a `...` end marker: the file stays one document."""
    installed = read(EXPECTED / "document_end_no_hooks.yaml")
    assert installed.startswith("---\n")
    assert installed.endswith('stop"\n...\n')
    assert isinstance(hermes_view(installed), dict)


def test_an_older_entry_is_replaced_in_place_keeping_its_settings() -> None:
    """An entry of ours from another path is rewritten where it stands; its timeout stays."""
    edit = plan_install(read(CONFIGS / "old_entry.yaml"), ENTRIES)
    assert [(c.event, c.action, c.previous) for c in edit.changes] == [
        ("on_session_start", "updated", ("/old/venv/bin/hermes-hooks session-start",)),
        (
            "pre_llm_call",
            "updated",
            (
                "python3 -m hermes_hooks user-prompt-submit",
                "/old/venv/bin/hermes-hooks user-prompt-submit",
            ),
        ),
        ("post_llm_call", "updated", ("/old/venv/bin/hermes-hooks stop",)),
    ]
    assert hermes_view(edit.new) == {
        "hooks": {
            "on_session_start": [{"command": ENTRIES["on_session_start"], "timeout": 20}],
            "pre_llm_call": [
                {"command": "~/bin/inject-cwd.sh"},
                {"command": ENTRIES["pre_llm_call"]},
            ],
            "post_llm_call": [{"command": ENTRIES["post_llm_call"]}],
        }
    }


def test_an_anchored_list_is_not_changed_through_its_alias() -> None:
    """Our entry on one event does not leak into another event that aliases the same list."""
    text = "hooks:\n  pre_llm_call: &shared\n    - command: a.sh\n  post_tool_call: *shared\n"
    after = hermes_view(plan_install(text, ENTRIES).new)
    assert isinstance(after, dict)
    assert after["hooks"]["post_tool_call"] == [{"command": "a.sh"}]
    assert after["hooks"]["pre_llm_call"] == [
        {"command": "a.sh"},
        {"command": ENTRIES["pre_llm_call"]},
    ]


def test_a_bom_and_a_missing_final_newline_survive() -> None:
    """A UTF-8 byte-order mark stays first; a last line without newline gets ours after it."""
    text = "\ufeffmodel:\n  default: gpt-5"
    new = plan_install(text, ENTRIES).new
    assert new.startswith("\ufeffmodel:\n  default: gpt-5\n\nhooks:\n")
    assert plan_uninstall(new).new == "\ufeffmodel:\n  default: gpt-5\n"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "not_yaml.yaml",
            "config.yaml:6:4: not valid YAML (did not find expected key); left unchanged",
        ),
        (
            "hooks_list.yaml",
            "config.yaml:3: 'hooks' is a list; Hermes expects a mapping of event names to "
            "lists of hooks; left unchanged",
        ),
        (
            "event_mapping.yaml",
            "config.yaml:2: 'hooks.pre_llm_call' is a mapping; Hermes expects a list of hooks; "
            "left unchanged",
        ),
        (
            "alias_event_list.yaml",
            "config.yaml:4: 'hooks.pre_llm_call' is an alias of the list at line 1; an entry "
            "added there would change that list too; write the list out under 'pre_llm_call', "
            "then run this again; left unchanged",
        ),
        (
            "top_level_list.yaml",
            "config.yaml:1: the top level is a list, not a mapping of settings; left unchanged",
        ),
    ],
)
def test_a_config_we_will_not_edit_is_one_clear_line(name: str, message: str) -> None:
    """Install and uninstall refuse with the file, the line and the problem."""
    text = read(CONFIGS / "invalid" / name)
    with pytest.raises(ConfigError) as info:
        plan_install(text, ENTRIES, "config.yaml")
    assert str(info.value) == message
    if "'hooks." in message:  # a list of ours cannot be there: uninstall has nothing to do
        assert not plan_uninstall(text).changed
    else:
        with pytest.raises(ConfigError) as info:
            plan_uninstall(text)
        assert str(info.value) == message


@pytest.mark.parametrize(
    ("command", "ours"),
    [
        ("hermes-hooks stop", True),
        ("'/opt/my venv/bin/hermes-hooks' session-start", True),
        ("~/.local/bin/hermes-hooks user-prompt-submit", True),
        ("/usr/bin/python3 -m hermes_hooks stop", True),
        ("  hermes-hooks stop  ", True),
        ("hermes-hooks install", False),
        ("hermes-hooks-extra stop", False),
        ("~/bin/stop", False),
        ("python3 -m other stop", False),
        ("'unbalanced stop", False),
    ],
)
def test_which_commands_are_ours(command: str, ours: bool) -> None:
    """Ours ends in `hermes-hooks SUB` or `-m hermes_hooks SUB`, as Hermes would split it."""
    from hermes_hooks.hermes_config import is_our_command

    assert is_our_command(command) is ours


@pytest.mark.parametrize("size", [126 * 1024, 1 << 20])
def test_a_large_example_style_config_round_trips(size: int) -> None:
    """On a 126 KB and a 1 MB config only the hooks block's lines change, and uninstall undoes it."""
    original = example_style_config(size)
    installed = plan_install(original, ENTRIES).new
    kept = set(original.splitlines())
    added = [line for line in installed.splitlines() if line not in kept]
    assert added == [
        "  on_session_start:",
        f'    - command: "{ENTRIES["on_session_start"]}"',
        "  pre_llm_call:",
        f'    - command: "{ENTRIES["pre_llm_call"]}"',
        "  post_llm_call:",
        f'    - command: "{ENTRIES["post_llm_call"]}"',
    ]
    assert installed.count("\n") == original.count("\n") + 6
    assert plan_uninstall(installed).new == original


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        # A keep-chomped block scalar last in the hooks block: its trailing blank lines lie
        # outside the block, so the block alone reads differently; the whole file is checked,
        # and the edit (which would move them) is refused.
        (
            "hooks:\n  post_tool_call:\n    - command: a.sh\n      note: |+\n        kept\n\n\nmodel: m\n",
            True,
        ),
        # A keep-chomped scalar at the end of a file without hooks: our block goes after its
        # blank lines, without a gap line it would take.
        ("model: m\nnotes: |+\n  kept\n\n", False),
        # An anchor in the hooks block that another key aliases: the whole document is edited.
        ("hooks:\n  post_tool_call: &h\n    - command: a.sh\nother: *h\n", False),
    ],
    ids=["keep-chomped-in-hooks", "keep-chomped-at-end", "anchor-used-outside"],
)
def test_shapes_the_quick_check_cannot_vouch_for(text: str, refused: bool) -> None:
    """Where the hooks block cannot be checked alone, the whole file is: a right result or a refusal."""
    if refused:
        with pytest.raises(ConfigError, match="left unchanged"):
            plan_install(text, ENTRIES)
        return
    before = hermes_view(text)
    installed = plan_install(text, ENTRIES).new
    after = hermes_view(installed)
    assert isinstance(before, dict)
    assert isinstance(after, dict)
    assert {k: v for k, v in after.items() if k != "hooks"} == {
        k: v for k, v in before.items() if k != "hooks"
    }
    assert plan_uninstall(installed).new == text


def test_a_flow_mapping_of_settings_is_one_clear_line() -> None:
    """A config written as one flow mapping is refused with a line saying what to do."""
    with pytest.raises(ConfigError) as info:
        plan_install("{model: m, hooks: {}}\n", ENTRIES)
    assert str(info.value) == (
        "config.yaml:1: the settings are one flow mapping ({...}); write them as one key per "
        "line, then run this again; left unchanged"
    )
