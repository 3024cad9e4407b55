"""What the model was sent at each turn: read back as it was, in memory that grows with the
messages, not with turns times messages."""

from __future__ import annotations

import tracemalloc

from hooksim.hosts.conversation import ASSISTANT, USER, Conversation, Message
from hooksim.steps import ToolCall


def test_each_turn_reads_back_what_was_sent_then() -> None:
    """Every turn's last request reads back as the messages it carried, whatever changed the
    list later: a merged call, a compaction, a clear, a host's own filter, a new session."""
    conv = Conversation(lambda: 0)
    want: dict[int, tuple[Message, ...]] = {}

    def turn(n: int) -> None:
        conv.turn = n
        conv.prompt(f"hi {n}")

    def sends(act: object) -> None:
        want[conv.turn] = tuple(conv.messages)
        assert callable(act)
        act()

    call = ToolCall("Read", {"path": "a"}, result="text")
    turn(1)
    sends(lambda: conv.called(call, "c1"))
    conv.called(call, "c2", same_response=True)  # the assistant message before it is merged
    conv.returned(call, "c1", "one")
    conv.returned(call, "c2", "two")
    sends(lambda: conv.replied("done"))
    turn(2)
    conv.context("UserPromptSubmit", "beside")
    sends(lambda: conv.replied("ok"))
    turn(3)
    conv.compacted("auto", "summary", [Message(USER, "summary")])
    sends(conv.failed)
    turn(4)
    conv.messages = [m for m in conv.messages if m.role != USER]  # a host drops a prompt
    conv.prompt("again")
    sends(lambda: conv.replied("fine"))
    turn(5)
    conv.cleared()
    sends(lambda: conv.replied("empty"))
    turn(6)
    conv.started("startup", "s2")
    conv.prompt("new")
    sends(lambda: conv.replied("new ok"))

    assert {t: tuple(sent) for t, sent in conv.sent.items()} == want
    assert want[1][1] == Message(ASSISTANT, 'Read {"path": "a"}\nRead {"path": "a"}')
    for t, sent in conv.sent.items():
        assert len(sent) == len(want[t])
        assert list(sent) == list(want[t])
        assert sent == want[t]
        if want[t]:
            assert (sent[0], sent[-1], tuple(sent[1:])) == (want[t][0], want[t][-1], want[t][1:])


def _peak_bytes(turns: int) -> int:
    """The peak memory a conversation of ``turns`` prompt and reply turns takes."""
    tracemalloc.start()
    try:
        conv = Conversation(lambda: 0)
        for n in range(1, turns + 1):
            conv.turn = n
            conv.prompt("hi")
            conv.replied("ok")
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_grows_with_turns_not_with_their_square() -> None:
    """Four times the turns take about four times the memory (a copy of every message so far
    per turn would take about sixteen)."""
    small, large = _peak_bytes(500), _peak_bytes(2000)
    assert large / small < 6, f"{small} -> {large} bytes"
