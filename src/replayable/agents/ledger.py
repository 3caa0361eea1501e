"""The pending-action ledger of an OpenAI Agents API session (`PendingActions`): what the session waits
for and the answers given so far. Part of `replayable.agents`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from replayable._base import WireModel
from replayable._generated.agents.agent_session import AgentSession
from replayable._generated.agents.function_call_action import FunctionCallAction
from replayable._generated.agents.session_input_tool_result import SessionInputToolResult
from replayable.items import ItemError

from .events import ToolResultError, _errors, _parse_action, _plain, _tool_result_adapter, dump


def _actions_of(session: Any, where: str) -> list[Any]:
    """`required_actions` of a session, read leniently (other fields may be missing), each action strictly."""
    if isinstance(session, AgentSession):
        return list(session.required_actions)
    session = _plain(session)
    if not isinstance(session, Mapping):
        raise ItemError(
            [{"loc": (), "type": "object_type", "msg": f"{where} must be a JSON object"}], "invalid session"
        )
    actions = session.get("required_actions", [])
    if not isinstance(actions, list):
        raise ItemError(
            [{"loc": ("required_actions",), "type": "list_type", "msg": "required_actions must be a list"}],
            "invalid session",
        )
    return [_parse_action(a, i) for i, a in enumerate(actions)]


class PendingActions:
    """The actions a session waits for, and the answers given so far.

    Build it from an `agent.session.requires_action` event (`from_event`) or a session
    (`from_session`). Only `session.required_actions` makes a call pending; a `function_call` item in
    the session history never does (Agents API tools guide). `accept` takes each tool result the
    client sends and refuses (with `ToolResultError`) a malformed one, one whose (turn_id, call_id)
    pair is not pending (byte-for-byte match), and a second answer to the same pair.
    """

    def __init__(self, actions: Iterable[Any] = ()) -> None:
        self.actions: tuple[Any, ...] = tuple(_parse_action(a) for a in actions)
        """Every required action, in order (function calls, environment connections, unknown ones)."""
        self._calls: dict[tuple[str, str], FunctionCallAction] = {}
        for a in self.actions:
            if isinstance(a, FunctionCallAction):
                self._calls.setdefault((a.turn_id, a.call_id), a)
        self._answered: dict[tuple[str, str], SessionInputToolResult] = {}

    @classmethod
    def from_session(cls, session: Any) -> PendingActions:
        """From an `agent.session` (dict or `AgentSession`). Only `required_actions` is read, so a
        partial session works; each action is validated strictly (`ItemError` otherwise)."""
        return cls(_actions_of(session, "session"))

    @classmethod
    def from_event(cls, event: Any) -> PendingActions:
        """From an event carrying a session (`agent.session.requires_action`, or any `agent.session.*`
        status event; a dict, strict JSON text or SDK object). Raises `ItemError` when the event has no
        session object or is not strict JSON."""
        if isinstance(event, WireModel):
            session = getattr(event, "session", None)
        else:
            event = _plain(event)
            session = event.get("session") if isinstance(event, Mapping) else None
        if session is None:
            raise ItemError(
                [
                    {
                        "loc": ("session",),
                        "type": "missing",
                        "msg": "the event carries no 'session' (expected agent.session.requires_action)",
                    }
                ],
                "invalid event",
            )
        return cls.from_session(session)

    @property
    def pending(self) -> list[FunctionCallAction]:
        """Function-call actions still waiting for a tool result, in order."""
        return [a for k, a in self._calls.items() if k not in self._answered]

    @property
    def answered(self) -> dict[tuple[str, str], SessionInputToolResult]:
        """The accepted tool results by (turn_id, call_id)."""
        return dict(self._answered)

    def _find(self, action: Any) -> FunctionCallAction:
        parsed = action if isinstance(action, FunctionCallAction) else _parse_action(action)
        if not isinstance(parsed, FunctionCallAction):
            raise ToolResultError("unknown_call", f"only function_call actions take a tool result, got {parsed.type!r}")
        return parsed

    def result(self, action: Any, *, output: Any = None, error: str | None = None) -> SessionInputToolResult:
        """Build a tool result for `action`: `output=` (a string or input_text/input_image parts) gives
        `success: true`, `error=` gives `success: false`. Give exactly one. Raises `ToolResultError`
        (`malformed`) for a dict output (serialize it with `json.dumps` first), both or neither."""
        a = self._find(action)
        if (output is None) == (error is None):
            raise ToolResultError(
                "malformed", "give exactly one of output= or error=", turn_id=a.turn_id, call_id=a.call_id
            )
        body: dict[str, Any] = {
            "type": "agent.session.input.tool_result",
            "turn_id": a.turn_id,
            "call_id": a.call_id,
        }
        if error is not None:
            body.update(success=False, error=error)
        else:
            if isinstance(output, Mapping):
                raise ToolResultError(
                    "malformed",
                    "output must be a string or content parts: serialize a JSON object with json.dumps first",
                    turn_id=a.turn_id,
                    call_id=a.call_id,
                )
            body.update(success=True, output=_plain(output) if isinstance(output, BaseModel) else output)
        return self._validate(body)

    def _validate(self, data: Any) -> SessionInputToolResult:
        try:
            data = _plain(data)
        except ItemError as exc:  # not strict JSON: a malformed tool result, never sent
            raise ToolResultError("malformed", f"malformed tool result: {exc.errors[0]['msg']}") from None
        if isinstance(data, SessionInputToolResult):
            data = dump(data)
        if not isinstance(data, Mapping) or data.get("type") != "agent.session.input.tool_result":
            got = data.get("type") if isinstance(data, Mapping) else type(data).__name__
            raise ToolResultError("malformed", f"expected an agent.session.input.tool_result, got {got!r}")
        try:
            return _tool_result_adapter.validate_python(data)
        except ValidationError as exc:
            errs = _errors(exc)
            detail = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'tool_result'}: {e['msg']}" for e in errs)
            raise ToolResultError(
                "malformed",
                f"malformed tool result: {detail}",
                turn_id=data.get("turn_id"),
                call_id=data.get("call_id"),
            ) from None

    def accept(self, tool_result: Any) -> SessionInputToolResult:
        """Record a tool result the client sends; returns it parsed.

        Raises `ToolResultError` with `.reason` `malformed` (not a tool result, `success` not a JSON
        boolean, `output` not a string or parts, `success: false` without `error`), `unknown_call` (no
        pending action has this call_id), `turn_mismatch` (the call_id is pending under another
        turn_id) or `already_answered`.
        """
        r = self._validate(tool_result)
        key = (r.turn_id, r.call_id)
        if key in self._answered:
            raise ToolResultError(
                "already_answered",
                f"call {r.call_id!r} of turn {r.turn_id!r} was already answered",
                turn_id=r.turn_id,
                call_id=r.call_id,
            )
        if key not in self._calls:
            turns = sorted(t for t, c in self._calls if c == r.call_id)
            if turns:
                raise ToolResultError(
                    "turn_mismatch",
                    f"call {r.call_id!r} is pending under turn_id {turns[0]!r}, not {r.turn_id!r}",
                    turn_id=r.turn_id,
                    call_id=r.call_id,
                )
            raise ToolResultError(
                "unknown_call",
                f"no pending action has call_id {r.call_id!r} (turn {r.turn_id!r})",
                turn_id=r.turn_id,
                call_id=r.call_id,
            )
        self._answered[key] = r
        return r

    def add(self, actions: Iterable[Any]) -> None:
        """Add newly required actions (from a later requires_action event); known pairs are kept."""
        for a in actions:
            parsed = _parse_action(a)
            self.actions = (*self.actions, parsed)
            if isinstance(parsed, FunctionCallAction):
                self._calls.setdefault((parsed.turn_id, parsed.call_id), parsed)
