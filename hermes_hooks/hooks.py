"""The three hook handlers and the Hermes events they are bound to."""

from __future__ import annotations

from .compact_on_stop import maybe_compact_on_stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from .bridge import Bridge
    from .payload import HermesPayload

    Handler = Callable[[HermesPayload, "HookContext"], None]


class HookContext:
    """What a handler may use besides its payload: the bridge and the environment."""

    __slots__ = ("bridge", "env")

    def __init__(self, bridge: Bridge, env: Mapping[str, str]) -> None:
        self.bridge = bridge
        self.env = env


def session_start(payload: HermesPayload, ctx: HookContext) -> None:
    """Tell the mind a session began."""
    ctx.bridge.start_session(
        session_id=payload.session_id,
        cwd=payload.cwd,
        model=payload.text("model"),
        platform=payload.text("platform"),
    )


def user_prompt_submit(payload: HermesPayload, ctx: HookContext) -> None:
    """Capture the user's message as a temporary frame (the gate's compaction prunes these)."""
    message = payload.text("user_message")
    if message:
        ctx.bridge.save_memory(
            message,
            role="user",
            temporary=True,
            session_id=payload.session_id,
            turn_id=payload.text("turn_id"),
        )


# What Hermes 0.19.0 writes in the assistant's place, read from its source:
# - agent/conversation_loop.py: after empty retries the turn's last message is an "(empty)"
#   sentinel (``_empty_terminal_sentinel``), which ``_persist_session`` pops (with a trailing
#   tool round) before post_llm_call, so the history then ends with the turn's user message;
#   on a local processing error, or repeated errors near the iteration limit, Hermes appends
#   an assistant message of its own with the prefixes below;
# - agent/turn_finalizer.py: the turn-completion explainer ("⚠️ No reply: ...") replaces an
#   empty reply, or is appended after "\n\n" to a cut-off fragment; the failed-file-edit
#   footer is appended after "\n\n" too. Neither reaches the turn's messages.
_EMPTY_SENTINEL = "(empty)"
_EXPLANATION_PREFIX = "\u26a0\ufe0f No reply: "
_HERMES_PREFIXES = (
    _EXPLANATION_PREFIX,
    "I apologize, but I encountered an error while processing the model response: ",
    "I apologize, but I encountered repeated errors: ",
)


def assistant_said(payload: HermesPayload) -> str:
    """The part of ``assistant_response`` the model said; ``""`` when it is all Hermes' text.

    ``conversation_history`` carries the turn's messages, which Hermes' substitutions do not
    reach. When the turn holds no reply of the model (the history ends with the turn's user
    message, a tool result, the empty-reply sentinel, or a message of Hermes' own), the
    response is Hermes' text. When it does, and the response is that reply followed by a
    blank line and more, the more is Hermes' (explainer, file-edit footer). Without a
    history, only the explanation's own prefix tells it apart.
    """
    response = payload.text("assistant_response")
    history = payload.extra.get("conversation_history")
    last = history[-1] if isinstance(history, list) and history else None
    if not isinstance(last, dict):
        return "" if response.startswith(_EXPLANATION_PREFIX) else response
    if last.get("role") != "assistant" or last.get("_empty_terminal_sentinel") is True:
        return ""
    content = _text_of(last.get("content")).strip()
    if content == _EMPTY_SENTINEL or content.startswith(_HERMES_PREFIXES):
        return ""
    if content and response != content and response.startswith(content + "\n\n"):
        return content
    return response


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts: keep the text ones
        return "".join(
            str(part["text"])
            for part in content
            if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    return ""


def stop(payload: HermesPayload, ctx: HookContext) -> None:
    """Save what the assistant said, then maybe compact.

    Save first: a failed save raises and skips compaction (the capture is the priority). A turn
    with nothing to save, or whose reply is Hermes' own text (see ``assistant_said``), still
    reaches the gate: maintenance is not tied to this turn's text.
    """
    response = assistant_said(payload)
    if response:
        ctx.bridge.save_memory(
            response,
            role="assistant",
            temporary=False,
            session_id=payload.session_id,
            turn_id=payload.text("turn_id"),
        )
    maybe_compact_on_stop(ctx.bridge, env=ctx.env)


class Binding:
    """A subcommand of ``hermes-hooks``, the Hermes event it runs on, and its handler."""

    __slots__ = ("command", "event", "handler", "summary")

    def __init__(self, command: str, event: str, handler: Handler, summary: str) -> None:
        self.command = command
        self.event = event
        self.handler = handler
        self.summary = summary

    def __repr__(self) -> str:
        return f"Binding({self.command!r}, {self.event!r})"


# The Hermes events we bind. There is deliberately no pre-compact binding: Hermes v0.19.0 has no
# compaction event for shell hooks (none in ``hermes_cli.plugins.VALID_HOOKS``; a ``PreCompact``
# entry is rejected as unknown). The mind's maintenance pass is approximated, opt-in, from Stop
# instead: see ``compact_on_stop``.
BINDINGS: tuple[Binding, ...] = (
    Binding("session-start", "on_session_start", session_start, "tell the mind a session began"),
    Binding(
        "user-prompt-submit",
        "pre_llm_call",
        user_prompt_submit,
        "capture the prompt as a temporary frame",
    ),
    Binding("stop", "post_llm_call", stop, "save the response, then maybe compact"),
)
BINDINGS_BY_COMMAND: dict[str, Binding] = {b.command: b for b in BINDINGS}
