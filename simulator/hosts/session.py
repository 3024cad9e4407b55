"""What every host's session loop is (``Session``): the steps of a scenario turned into the
host's events, fired through the runner (``Fire``), with what the session knows of itself
(``SessionInfo``). A host's own loop subclasses it in its folder's ``session.py``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..steps import Compact, NewSession, RawEvent, Resume, Step, ToolCall, Turn
from .conversation import Conversation
from .records import SAFETY_LOOP_LIMIT, Firing, HookRun, RunTool, ToolRun


class SessionHost(Protocol):
    """What a session loop reads of its host's profile (``profile.Host`` is one). A session
    names no profile, so a profile imports its session and never the other way round; a
    host's own loop extends this with what it reads besides."""

    @property
    def title(self) -> str: ...
    @property
    def events(self) -> Mapping[str, str | None]: ...
    @property
    def calls_in_one_response(self) -> bool: ...
    @property
    def stop_cap(self) -> int | None: ...
    def tool_id(self, n: int) -> str: ...


class Fire(Protocol):
    """The runner's side: fire one event, spawn its hooks, return the host's reading of them."""

    def __call__(
        self, event: str, payload: dict[str, Any] | bytes, *, match: str | None = None
    ) -> Firing: ...


@dataclass
class SessionInfo:
    """What a scenario says about the session: ids, model, working directory."""

    cwd: str
    session_id: str
    model: str
    platform: str
    transcript_path: str
    now_ms: Callable[[], int]
    sender_id: str = ""  # the user id a gateway platform reports
    provider: str = ""  # the model's provider (""): the host's own stand-in
    home: str = ""  # the HOME the host runs with (where its own state folders are)
    # State of the host process, shared by every session it serves (Hermes: the variables it
    # sets in its own environment, which every hook inherits).
    process: dict[str, Any] = field(default_factory=dict)
    # Where the tools the host lets through take effect (the replay's project); None: nowhere.
    run_tool: RunTool | None = None
    # The environment the host process was started with (what it derives variables from), and
    # the folder it stands installed in (a replay's stand-in: paths from its own install).
    env: Mapping[str, str] = field(default_factory=dict)
    install: str = ""
    # What was said so far (``conversation``): the session loop adds to it as it goes.
    conversation: Conversation = field(init=False)

    def __post_init__(self) -> None:
        self.conversation = Conversation(self._clock)

    def _clock(self) -> int:
        """The virtual instant, as ``now_ms`` says it when asked (the runner sets it later)."""
        return self.now_ms()


class Session:
    """One host's session loop: turns one scenario step into the events that host fires."""

    host: SessionHost

    def __init__(self, host: SessionHost, info: SessionInfo, fire: Fire) -> None:
        self.host = host
        self.info = info
        self.fire = fire
        self.launched = False
        self.sessions = 1
        self.ran: dict[int, ToolCall] = {}  # the turn's tool calls as run, by number (from 1)
        self.calls_made = 0  # the session's tool calls so far, which its default ids number
        self.tool_run = ToolRun()  # what the last call run_tool ran did (its files, its output)

    @property
    def said(self) -> Conversation:
        """The session's conversation, which the loop adds to as things are said."""
        return self.info.conversation

    def ev(self, point: str) -> str | None:
        """The host's event at a lifecycle point (None: the host has none)."""
        return self.host.events[point]

    def step(self, step: Step) -> None:
        if isinstance(step, Turn):
            self.turn(step)
        elif isinstance(step, NewSession):
            self.new_session(step)
        elif isinstance(step, Compact):
            self.compact(step)
        elif isinstance(step, Resume):
            self.resume(step)
        else:
            self.raw(step)

    def turn(self, turn: Turn) -> None:
        raise NotImplementedError

    def compact(self, step: Compact) -> None:
        raise NotImplementedError

    def new_session(self, step: NewSession) -> None:
        raise NotImplementedError

    def resume(self, step: Resume) -> None:
        """The user quits and starts the host again on this session (``Host.resumes``)."""
        raise NotImplementedError(f"{self.host.title} is not resumed by hooksim")

    def finished_in_background(self, run: HookRun) -> None:
        """A hook the host did not wait for has ended (``run`` says how); by default nothing
        follows from it."""

    def exit(self) -> None:
        """The user quits at the end of the scenario."""

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        raise NotImplementedError

    def raw(self, step: RawEvent) -> None:
        if step.stdin is not None:
            self.fire(step.event, step.stdin)
        else:
            self.fire(step.event, self.payload(step.event, **(step.extra or {})))

    def next_session_id(self, step: NewSession) -> None:
        self.sessions += 1
        self.info.session_id = step.session_id or f"session-{self.sessions}"

    def tool_calls(
        self,
        turn: Turn,
        events: tuple[str, str],
        fields: Callable[[ToolCall, int], dict[str, Any]],
        result: Callable[[ToolCall], dict[str, Any]],
    ) -> bool:
        """Fire the before and after events around each tool call of the turn, response by
        response (``Turn.responses``, grouped as the host's model does by default).

        A response's calls are all said at once, as it asks for them, then each runs in turn.
        ``fields(call, n)`` is what both payloads carry, ``result(call)`` what only the after
        event adds. A blocked call does not run, so its after event does not fire. Once a
        response's calls are done, ``responded`` says so, and a response that reported a full
        context (a call's ``compact: auto``) compacts before the next request. Returns False
        when a hook stopped the agent.
        """
        before, after = events
        self.ran = {}
        for response in turn.responses(self.host.calls_in_one_response):
            asked = [(n, call, fields(call, n)) for n, call in response]
            ids = {n: str(tool.get("tool_use_id") or f"call_{n}") for n, _, tool in asked}
            for k, (n, call, _) in enumerate(asked):
                self.said.called(call, ids[n], same_response=k > 0)
            self.said.asked()
            for n, call, tool in asked:
                call_id = ids[n]
                pre = self.fire(before, self.payload(before, **tool), match=call.name)
                if self.halted(pre):
                    return False
                if pre.blocked:
                    pre.effect = f"the {call.name} call is blocked; the reason goes to the model"
                    self.deliver(pre)
                    denial = "\n".join(self.told(pre)) or pre.reason
                    self.said.returned(call, call_id, denial, denied=True)
                    continue
                ran = self.ran[n] = self.run_tool(call, pre)
                self.said.ran(ran, call_id)
                post = self.fire(
                    after, self.payload(after, **fields(ran, n), **result(ran)), match=call.name
                )
                # The host writes the result down once the after event's hooks are done.
                self.said.returned(ran, call_id, ran.result)
                if self.halted(post):
                    return False
            self.responded(response)
            if any(call.compact for _, call in response) and not self.compact_mid_turn():
                return False
        return True

    def responded(self, response: list[tuple[int, ToolCall]]) -> None:
        """A response's tool calls are done (each numbered from 1 through the turn), before the
        model's next request; by default nothing fires for it."""

    def compact_mid_turn(self) -> bool:
        """A tool call's ``compact: auto``: the host compacts before the turn's next request;
        False when a hook stopped the agent. Only a host that does so (``compacts_mid_turn``)
        gets here: a run refuses the key on the others."""
        return True

    def tool_ids(self, turn: Turn) -> list[str]:
        """The id of each of the turn's tool calls: the scenario's (``tools: [{id}]``), else the
        host's numbering (``Host.tool_id``), which runs on through the session: a model gives
        every call an id of its own."""
        ids = []
        for call in turn.tools:
            self.calls_made += 1
            ids.append(call.id or self.host.tool_id(self.calls_made))
        return ids

    def run_tool(self, call: ToolCall, pre: Firing) -> ToolCall:
        """The call as the host runs it once its pre-tool hooks let it through: with the input a
        hook rewrote (where the host reads one), run where the session's tools take effect
        (``info.run_tool``), with the result the tool gave if it ran for real. What it did
        becomes the pre-tool firing's effect."""
        ran = call
        said = []
        if pre.updated_input is not None:
            ran = replace(call, args=self.rewritten(call.args, pre.updated_input))
            said.append(f"a hook rewrote the {call.name} input")
        self.tool_run = ToolRun()
        if self.info.run_tool is not None:
            done = self.tool_run = self.info.run_tool(ran)
            said += [done.effect] if done.effect else []
            ran = ran if done.result is None else replace(ran, result=done.result)
        if said:
            pre.effect = "; ".join(said)
        return ran

    def rewritten(self, args: dict[str, Any], updated: dict[str, Any]) -> dict[str, Any]:
        """A tool's input once a pre-tool hook rewrote it: the hook's input replaces it (Claude
        Code's and Codex's ``updatedInput``)."""
        return dict(updated)

    def halted(self, firing: Firing) -> bool:
        """``continue: false`` from a hook: the host stops the agent, so the turn ends here."""
        if firing.stop:
            firing.effect = f"continue: false; {self.host.title} stops, the turn ends"
        return firing.stop

    def stop_loop(self, fire_stop: Callable[[int], Firing], cap: int | None) -> None:
        """Fire the stop event until no hook blocks it (or asks to continue).

        ``fire_stop(n)`` fires the n-th stop of the turn (0 first; ``n > 0`` is a continuation,
        ``stop_hook_active``). ``cap`` is how many such stops in a row the host accepts before
        it ends the turn anyway (``cap_of`` may set it from the firing); None: no cap, and
        hooksim ends the loop at ``SAFETY_LOOP_LIMIT``.
        """
        n = 0
        while True:
            firing = fire_stop(n)
            self.said.stop_hooks(
                firing.event,
                [run.command for run in firing.runs],
                [firing.reason] if firing.continued else [],
                [run.command for run in firing.runs if run.told],
            )
            if self.halted(firing) or not firing.continued:
                return
            n += 1
            limit = self.cap_of(firing, cap)
            if limit is not None and n >= limit:
                firing.effect = self.capped(n, limit)
                firing.capped = n
                return
            if n >= SAFETY_LOOP_LIMIT:
                firing.effect = (
                    f"blocked {n} times in a row with no cap; hooksim ended the loop at {n}"
                )
                firing.cut = n
                return
            firing.effect = self.continued(n)
            self.deliver(firing)
            self.fed_back(firing)

    def fed_back(self, firing: Firing) -> None:
        """The stop's block goes to the model as a message of its own, before it answers
        again (in the host's wrapping: ``told``, joined)."""
        told = self.told(firing) or ([firing.followup] if firing.followup else [])
        if told:
            self.said.fed_back(firing.event, "\n".join(told))

    def deliver(self, firing: Firing) -> None:
        """The session goes on with this firing's block (or follow-up): the model gets it, in
        the host's wrapping (``told``), beside the context the hooks gave."""
        firing.context += self.told(firing)

    def told(self, firing: Firing) -> list[str]:
        """What the model gets from a block the session goes on with: each hook's own
        (``HookRun.told``, from the profile's ``read``), by default."""
        return [run.told for run in firing.runs if run.told]

    def cap_of(self, firing: Firing, cap: int | None) -> int | None:
        """The cap that applies after this firing (Cursor: the hook's own loop_limit)."""
        return cap

    def capped(self, n: int, cap: int) -> str:
        return f"blocked {n} times in a row: {self.host.title} ends the turn (cap {cap})"

    def continued(self, n: int) -> str:
        return f"the model continues (continuation {n})"
