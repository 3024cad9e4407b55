"""File tools take effect in the replay, between the pre-tool and post-tool events, as on the
real host: unless a hook blocks the call, and with the input a hook rewrote where the host reads
one. A shell call runs for real with ``run: true``."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from hooksim.judge import expect
from hooksim.replay.runner import RunResult, run_scenario
from hooksim.scenario import load_scenario

PRE_AND_POST = "cat {file} >> ~/{log} 2>/dev/null || echo absent >> ~/{log}"


def run(tmp_path: Path, text: str) -> RunResult:
    path = tmp_path / "s.yaml"
    path.write_text("name: t\n" + textwrap.dedent(text))
    return run_scenario(load_scenario(path))


def effects(result: RunResult) -> list[str]:
    return [f.effect for f in result.firings if f.effect]


def test_claude_code_write_edit_and_multiedit_change_the_file_before_post_tool_use(
    tmp_path: Path,
) -> None:
    """PreToolUse sees the file as it was, PostToolUse as the tool left it."""
    result = run(
        tmp_path,
        f"""\
        tool: claude-code
        hooks:
          PreToolUse: [{{matcher: Write|Edit|MultiEdit, hooks: [{{type: command, command: '{PRE_AND_POST.format(file="a.txt", log="pre")}'}}]}}]
          PostToolUse: [{{matcher: Write|Edit|MultiEdit, hooks: [{{type: command, command: '{PRE_AND_POST.format(file="a.txt", log="post")}'}}]}}]
        turns:
          - user: write it
            tools:
              - {{name: Write, args: {{file_path: a.txt, content: "one two two\\n"}}}}
              - {{name: Edit, args: {{file_path: a.txt, old_string: one, new_string: "1"}}}}
              - {{name: Edit, args: {{file_path: a.txt, old_string: two, new_string: "2", replace_all: true}}}}
              - name: MultiEdit
                args: {{file_path: a.txt, edits: [{{old_string: "1", new_string: uno}}, {{old_string: "2 2", new_string: dos}}]}}
            assistant: done
        expect:
          files:
            ~/pre: {{equals: "absent\\none two two\\n1 two two\\n1 2 2\\n"}}
            ~/post: {{equals: "one two two\\n1 two two\\n1 2 2\\nuno dos\\n"}}
            a.txt: {{equals: "uno dos\\n"}}
        """,
    )
    assert expect.check(result) == []
    assert effects(result) == [
        "Write ran: created a.txt",
        "Edit ran: changed a.txt",
        "Edit ran: changed a.txt",
        "MultiEdit ran: changed a.txt",
    ]


def test_an_edit_that_cannot_apply_changes_nothing_and_says_why(tmp_path: Path) -> None:
    """An old_string that is not there, or not unique without replace_all, leaves the file."""
    result = run(
        tmp_path,
        """\
        tool: claude-code
        hooks: {Stop: [{hooks: [{type: command, command: "true"}]}]}
        files: {a.txt: "x x\\n"}
        turns:
          - user: edit it
            tools:
              - {name: Edit, args: {file_path: a.txt, old_string: y, new_string: z}}
              - {name: Edit, args: {file_path: a.txt, old_string: x, new_string: z}}
              - {name: Edit, args: {file_path: missing.txt, old_string: x, new_string: z}}
              - {name: Write, args: {file_path: b.txt}}
            assistant: done
        expect:
          files: {a.txt: {equals: "x x\\n"}, b.txt: {exists: false}}
        """,
    )
    assert expect.check(result) == []
    assert effects(result) == [
        "Edit changed nothing: old_string not found in a.txt",
        "Edit changed nothing: old_string found 2 times in a.txt (replace_all is not set)",
        "Edit changed nothing: no such file missing.txt",
        "Write changed nothing: no content",
    ]


def test_a_path_outside_the_project_and_home_is_never_written(tmp_path: Path) -> None:
    """The replay writes inside its work directory only, whatever the model asks."""
    outside = tmp_path / "outside.txt"
    result = run(
        tmp_path,
        f"""\
        tool: claude-code
        hooks: {{Stop: [{{hooks: [{{type: command, command: "true"}}]}}]}}
        turns:
          - user: write there
            tools: [{{name: Write, args: {{file_path: {json.dumps(str(outside))}, content: x}}}}]
            assistant: done
        """,
    )
    assert not outside.exists()
    assert effects(result) == [
        f"Write changed nothing: {outside} is outside the project and the run's HOME"
    ]


def test_a_blocked_call_changes_nothing(tmp_path: Path) -> None:
    """A .env guard on PreToolUse: the blocked Write leaves .env as it was, the other goes on."""
    result = run(
        tmp_path,
        """\
        tool: claude-code
        hooks:
          PreToolUse: [{matcher: Write, hooks: [{type: command, command: 'grep -q "\\.env\\"" && { echo "not .env" >&2; exit 2; }; exit 0'}]}]
        files: {.env: "SECRET=1\\n"}
        turns:
          - user: write both
            tools:
              - {name: Write, args: {file_path: .env, content: "SECRET=0\\n"}}
              - {name: Write, args: {file_path: notes.txt, content: "ok\\n"}}
            assistant: done
        expect:
          files: {.env: {equals: "SECRET=1\\n"}, notes.txt: {equals: "ok\\n"}}
        """,
    )
    assert expect.check(result) == []


def test_claude_code_runs_the_input_a_pre_tool_use_hook_rewrote(tmp_path: Path) -> None:
    """updatedInput replaces the call's input (v2.0.10 on); PostToolUse sees the input as run."""
    rewrite = (  # printf: sh's echo would turn the JSON's \\n into a newline
        'printf %s \'{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput":'
        ' {"file_path": "b.txt", "content": "rewritten\\n"}}}\''
    )
    text = f"""\
        tool: claude-code
        hooks:
          PreToolUse: [{{matcher: Write, hooks: [{{type: command, command: {json.dumps(rewrite)}}}]}}]
          PostToolUse: [{{matcher: Write, hooks: [{{type: command, command: cat > ~/post.json}}]}}]
        turns:
          - user: write a
            tools: [{{name: Write, args: {{file_path: a.txt, content: "original\\n"}}}}]
            assistant: done
        expect:
          files:
            a.txt: {{exists: false}}
            b.txt: {{equals: "rewritten\\n"}}
            ~/post.json: {{json: {{tool_input.content: "rewritten\\n"}}}}
        """
    result = run(tmp_path, text)
    assert expect.check(result) == []
    assert effects(result) == ["a hook rewrote the Write input; Write ran: created b.txt"]
    older = run(tmp_path, text + "hosts: {claude-code: {version: 2.0.9}}\n")
    assert expect.check(older) == [
        "file a.txt: expected no such file, got a file of 9 bytes ('original\\n')",
        "file b.txt: expected 'rewritten\\n', got no such file",
        'file ~/post.json: expected tool_input.content = "rewritten\\n", got "original\\n"',
    ]


def test_claude_code_trims_trailing_spaces_of_what_write_and_edit_write(tmp_path: Path) -> None:
    """Write's content and Edit's new_string lose each line's trailing whitespace (but in a
    Markdown file) before the hooks see them and the tool writes, and Edit's input gets its
    replace_all: false, in its schema's order (real 2.1.332)."""
    keep = (  # each tool_input as one JSON line, keys in the order the hook got them
        '"$HOOKSIM_PYTHON" -c "import json, sys, os; i = json.load(sys.stdin)[\'tool_input\'];'
        " i['file_path'] = os.path.basename(i['file_path']); print(json.dumps(i))\" >> ~/pre"
    )
    result = run(
        tmp_path,
        f"""\
        tool: claude-code
        hooks:
          PreToolUse: [{{matcher: Write|Edit, hooks: [{{type: command, command: {json.dumps(keep)}}}]}}]
        turns:
          - user: write them
            tools:
              - {{name: Write, args: {{file_path: a.py, content: "x = 1   \\ny = 2\\t\\n"}}}}
              - {{name: Edit, args: {{file_path: a.py, old_string: "y = 2", new_string: "y = 3  "}}}}
              - {{name: Write, args: {{file_path: a.md, content: "line  \\n"}}}}
            assistant: done
        expect:
          files:
            a.py: {{equals: "x = 1\\ny = 3\\n"}}
            a.md: {{equals: "line  \\n"}}
            ~/pre: {{exists: true}}
        """,
    )
    assert expect.check(result) == []
    pre = [json.loads(line) for line in result.files[("~/pre", 0)].data.decode().splitlines()]
    assert pre == [
        {"file_path": "a.py", "content": "x = 1\ny = 2\n"},
        {"file_path": "a.py", "old_string": "y = 2", "new_string": "y = 3", "replace_all": False},
        {"file_path": "a.md", "content": "line  \n"},
    ]
    assert [list(p) for p in pre][1] == ["file_path", "old_string", "new_string", "replace_all"]


def test_codex_apply_patch_adds_updates_moves_and_deletes(tmp_path: Path) -> None:
    """The patch in the hook-visible command, in Codex's *** Begin Patch format."""
    patch = textwrap.indent(
        textwrap.dedent(
            """\
            *** Begin Patch
            *** Add File: new.txt
            +fresh
            *** Update File: app.py
            @@ def main():
            -    return 1
            +    return 2
            *** Update File: old_name.txt
            *** Move to: moved/new_name.txt
            @@
            -a
            +b
            *** Delete File: gone.txt
            *** End Patch
            """
        ),
        " " * 20,
    )
    result = run(
        tmp_path,
        f"""\
        tool: codex
        hooks:
          PostToolUse: [{{matcher: apply_patch, hooks: [{{type: command, command: 'cat app.py > ~/seen'}}]}}]
        files:
          app.py: "def other():\\n    return 1\\n\\n\\ndef main():\\n    return 1\\n"
          old_name.txt: "a\\n"
          gone.txt: "bye\\n"
        turns:
          - user: patch it
            tools:
              - name: apply_patch
                args:
                  command: |
{patch}
            assistant: done
        expect:
          files:
            new.txt: {{equals: "fresh\\n"}}
            app.py: {{equals: "def other():\\n    return 1\\n\\n\\ndef main():\\n    return 2\\n"}}
            ~/seen: {{contains: "return 2"}}
            old_name.txt: {{exists: false}}
            moved/new_name.txt: {{equals: "b\\n"}}
            gone.txt: {{exists: false}}
        """,
    )
    assert expect.check(result) == []
    assert effects(result) == [
        "apply_patch ran: created new.txt, changed app.py, moved old_name.txt to"
        " moved/new_name.txt, deleted gone.txt"
    ]


def test_a_patch_that_does_not_apply_changes_nothing_at_all(tmp_path: Path) -> None:
    """Codex checks every hunk before it writes: one that does not apply leaves every file."""
    result = run(
        tmp_path,
        """\
        tool: codex
        hooks: {Stop: [{hooks: [{type: command, command: "true"}]}]}
        files: {a.txt: "one\\n"}
        turns:
          - user: patch it
            tools:
              - name: apply_patch
                args: {command: "*** Begin Patch\\n*** Add File: b.txt\\n+b\\n*** Update File: a.txt\\n@@\\n-two\\n+2\\n*** End Patch\\n"}
            assistant: done
        expect:
          files: {a.txt: {equals: "one\\n"}, b.txt: {exists: false}}
        """,
    )
    assert expect.check(result) == []
    assert effects(result) == ["apply_patch changed nothing: lines not found in a.txt: two"]


def test_codex_runs_an_updated_input_only_with_permission_decision_allow(tmp_path: Path) -> None:
    """updatedInput with allow rewrites the patch; without allow the hook failed and the model's
    patch runs."""
    add = "*** Begin Patch\\n*** Add File: {name}\\n+x\\n*** End Patch\\n"
    output = (
        '{{"hookSpecificOutput": {{"hookEventName": "PreToolUse",{decision} "updatedInput":'
        ' {{"command": "' + add.format(name="hook.txt") + '"}}}}}}'
    )
    for decision, written, not_written in [
        (' "permissionDecision": "allow",', "hook.txt", "model.txt"),
        ("", "model.txt", "hook.txt"),
    ]:
        hook = "echo '" + output.format(decision=decision) + "'"
        result = run(
            tmp_path,
            f"""\
            tool: codex
            hooks:
              PreToolUse: [{{matcher: apply_patch, hooks: [{{type: command, command: {json.dumps(hook)}}}]}}]
            turns:
              - user: patch it
                tools: [{{name: apply_patch, args: {{command: "{add.format(name="model.txt")}"}}}}]
                assistant: done
            expect:
              files: {{{written}: {{exists: true}}, {not_written}: {{exists: false}}}}
            """,
        )
        assert expect.check(result) == [], decision


def test_gemini_cli_write_file_and_replace(tmp_path: Path) -> None:
    """write_file and replace (allow_multiple for more than one occurrence), before AfterTool."""
    result = run(
        tmp_path,
        """\
        tool: gemini-cli
        hooks:
          AfterTool: [{matcher: write_file|replace, hooks: [{type: command, command: 'cat a.txt >> ~/after'}]}]
        turns:
          - user: write it
            tools:
              - {name: write_file, args: {file_path: a.txt, content: "a a b\\n"}}
              - {name: replace, args: {file_path: a.txt, old_string: b, new_string: c}}
              - {name: replace, args: {file_path: a.txt, old_string: a, new_string: d, allow_multiple: true}}
            assistant: done
        expect:
          files:
            ~/after: {equals: "a a b\\na a c\\nd d c\\n"}
        """,
    )
    assert expect.check(result) == []


def test_gemini_cli_merges_the_tool_input_a_before_tool_hook_returns(tmp_path: Path) -> None:
    """BeforeTool's hookSpecificOutput.tool_input is merged into the call's input (v0.24.0 on);
    AfterTool sees the merged input and the tool's own result: Gemini adds its note of the
    rewrite after AfterTool (real 0.61.0)."""
    hook = (
        'echo \'{"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input":'
        ' {"content": "merged\\n"}}}\''
    )
    text = f"""\
        tool: gemini-cli
        hooks:
          BeforeTool: [{{matcher: write_file, hooks: [{{type: command, command: {json.dumps(hook)}}}]}}]
          AfterTool: [{{matcher: write_file, hooks: [{{type: command, command: cat > ~/after.json}}]}}]
        turns:
          - user: write it
            tools: [{{name: write_file, args: {{file_path: a.txt, content: "model\\n"}}, result: written}}]
            assistant: done
        expect:
          files:
            a.txt: {{equals: "merged\\n"}}
            ~/after.json:
              json:
                tool_input.content: "merged\\n"
                tool_response.llmContent: written
        """
    assert expect.check(run(tmp_path, text)) == []
    older = run(tmp_path, text + "hosts: {gemini-cli: {version: 0.23.0}}\n")
    assert "file a.txt: expected 'merged\\n', got 'model\\n'" in expect.check(older)


def test_hermes_write_file_and_patch(tmp_path: Path) -> None:
    """write_file (path, content); patch in replace mode (path, old_string, new_string) and in
    patch mode (the same *** Begin Patch format as Codex)."""
    result = run(
        tmp_path,
        """\
        hooks:
          post_tool_call: [{command: "sh -c 'cat a.txt >> ~/after'"}]
        turns:
          - user: write it
            tools:
              - {name: write_file, args: {path: a.txt, content: "one\\n"}}
              - {name: patch, args: {mode: replace, path: a.txt, old_string: one, new_string: two}}
              - {name: patch, args: {mode: patch, patch: "*** Begin Patch\\n*** Update File: a.txt\\n@@\\n-two\\n+three\\n*** End Patch\\n"}}
            assistant: done
        expect:
          files:
            ~/after: {equals: "one\\ntwo\\nthree\\n"}
        """,
    )
    assert expect.check(result) == []


def test_hermes_patch_mode_keeps_its_own_line_ends(tmp_path: Path) -> None:
    """Hermes' patch mode adds a file as its + lines joined, with no final line break, and an
    update keeps the file's end as it was (hermes-agent 0.19.0 tools/patch_parser.py), where
    Codex ends every file it writes with one."""
    result = run(
        tmp_path,
        """\
        hooks: {post_tool_call: [{command: "true"}]}
        files: {b.txt: "one\\ntwo"}
        turns:
          - user: patch them
            tools:
              - name: patch
                args:
                  mode: patch
                  patch: "*** Begin Patch\\n*** Add File: a.txt\\n+x  =  1\\n+y\\n*** Update File: b.txt\\n@@\\n one\\n-two\\n+three\\n*** End Patch\\n"
            assistant: done
        expect:
          files:
            a.txt: {equals: "x  =  1\\ny"}
            b.txt: {equals: "one\\nthree"}
        """,
    )
    assert expect.check(result) == []


def test_cursor_tool_calls_change_nothing(tmp_path: Path) -> None:
    """Cursor's tool inputs are not known from public code: its calls keep no effect."""
    result = run(
        tmp_path,
        """\
        tool: cursor
        hooks: {stop: [{command: "true"}]}
        turns:
          - user: write it
            tools: [{name: Write, args: {file_path: a.txt, content: x}}]
            assistant: done
        expect:
          files: {a.txt: {exists: false}}
        """,
    )
    assert expect.check(result) == []


def test_a_shell_call_runs_with_run_true_and_its_output_is_the_result(tmp_path: Path) -> None:
    """run: true runs the command in the project with the host's shell; its output is what
    PostToolUse gets (Claude Code drops its final newline). Without it the result stays the
    scripted one and nothing runs."""
    text = """\
        tool: claude-code
        hooks:
          PostToolUse: [{matcher: Bash, hooks: [{type: command, command: cat > ~/post.json}]}]
        turns:
          - user: run it
            tools: [{shell: "printf made > out.txt; echo ran; echo oops >&2", RUN}]
            assistant: done
        expect:
          files:
            out.txt: {equals: made}
            ~/post.json: {json: {tool_response.stdout: "ran\\noops"}}
        """
    result = run(tmp_path, text.replace("RUN", "run: true"))
    assert expect.check(result) == []
    assert effects(result) == [
        "Bash ran `printf made > out.txt; echo ran; echo oops >&2` in the project: exit 0"
    ]
    scripted = run(tmp_path, text.replace(", RUN", ""))
    assert expect.check(scripted) == [
        "file out.txt: expected 'made', got no such file",
        'file ~/post.json: expected tool_response.stdout = "ran\\noops", got "ok"',
    ]


def test_codex_runs_a_shell_call_as_a_login_shell(tmp_path: Path) -> None:
    """Codex runs its shell tool as the user's shell with -lc."""
    result = run(
        tmp_path,
        """\
        tool: codex
        hooks:
          PostToolUse: [{matcher: Bash, hooks: [{type: command, command: cat > ~/post.json}]}]
        turns:
          - user: run it
            tools: [{shell: "shopt -q login_shell && echo login", run: true}]
            assistant: done
        expect:
          files:
            ~/post.json: {json: {tool_response: "login\\n"}}
        """,
    )
    assert expect.check(result) == []


def test_hermes_runs_a_terminal_call_and_answers_with_its_json(tmp_path: Path) -> None:
    """Hermes' terminal tool gives the model JSON: the output, the exit code, no error."""
    result = run(
        tmp_path,
        """\
        hooks:
          post_tool_call: [{command: "sh -c 'cat > ~/post.json'"}]
        turns:
          - user: run it
            tools: [{shell: "echo hi; echo oops >&2; exit 3", run: true}]
            assistant: done
        expect:
          files:
            ~/post.json:
              json:
                extra.result: '{"output": "hi\\noops", "exit_code": 3, "error": null}'
                extra.status: ok
        """,
    )
    assert expect.check(result) == []
