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


def stop(payload: HermesPayload, ctx: HookContext) -> None:
    """Save the assistant's response, then maybe compact.

    Save first: a failed save raises and skips compaction (the capture is the priority). A turn
    with nothing to save still reaches the gate: maintenance is not tied to this turn's text.
    """
    response = payload.text("assistant_response")
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
