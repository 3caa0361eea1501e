"""The pending-action ledger of an OpenAI Agents API session (`PendingActions`): what the session waits
for and the answers given so far. Part of `replayable.agents`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from replayable._generated.agents.agent_session import AgentSession
from replayable._generated.agents.function_call_action import FunctionCallAction
from replayable._generated.agents.session_input_tool_result import SessionInputToolResult
from replayable._generated.agents.session_snapshot import SessionSnapshot
from replayable.errors import ToolResultError
from replayable.items import ItemError

from ._approvals import ApprovalAction, ApprovalResult, approval_problems
from ._events import (
    checked_tool_result_adapter,
    dump,
    is_unknown,
    parse_event,
    parse_input,
    parse_required_action,
    parse_session_snapshot,
    plain_value,
    session_errors,
    session_of,
)


def _call_of(action: FunctionCallAction) -> str:
    """What identifies the call behind an action: its name and arguments as canonical JSON."""
    return json.dumps([action.name, dump(action)["arguments"]], sort_keys=True, ensure_ascii=False)


def duplicate_tool_names(session: Any) -> list[tuple[int, str]]:
    """`(index in agent.tools, name)` of each function tool of a session's agent whose name an earlier
    function tool already has (read by `parse_session_snapshot`; a session without an agent or tools
    has none). Two tools with one name make every call to that name a guess."""
    snap = session if isinstance(session, SessionSnapshot | AgentSession) else parse_session_snapshot(session)
    agent = getattr(snap, "agent", None)
    tools = getattr(agent, "tools", None)
    if not isinstance(tools, list):
        return []
    seen: set[str] = set()
    out: list[tuple[int, str]] = []
    for n, tool in enumerate(tools):
        name = getattr(tool, "name", None) if getattr(tool, "type", None) == "function" else None
        if isinstance(name, str):
            if name in seen:
                out.append((n, name))
            seen.add(name)
    return out


def _same(a: Any, b: Any) -> bool:
    """Two answers are the same when their JSON values are equal (key order does not count)."""
    return json.dumps(dump(a), sort_keys=True) == json.dumps(dump(b), sort_keys=True)


_APPROVAL_TYPES = ("mcp_approval_request", "computer_use_approval_request")
_APPROVAL_INPUTS = (
    "agent.session.input.mcp_approval_request_result",
    "agent.session.input.computer_use_approval_request_result",
)


class PendingActions:
    """The actions a session waits for, and the answers given so far.

    Build it from an `agent.session.requires_action` event (`from_event`) or a session
    (`from_session`). Only `session.required_actions` makes a call pending; a `function_call` item in
    the session history never does (Agents API tools guide). `accept` takes each answer the client
    sends: a tool result for a `function_call` action, paired by (turn_id, call_id) byte for byte, or an
    approval answer for an `mcp_approval_request` / `computer_use_approval_request`, paired by
    `request_id` (see `replayable.agents._approvals` for the rules an answer must meet). It refuses (with
    `ToolResultError`) a malformed answer, one that answers nothing pending, and a second answer to the
    same action. Resending the *same* answer after a dropped connection is allowed with
    `accept(..., resubmit=True)`: it changes nothing and returns the recorded answer.
    """

    def __init__(self, actions: Iterable[Any] = ()) -> None:
        self._actions: list[Any] = []
        self._calls: dict[tuple[str, str], FunctionCallAction] = {}
        self._requests: dict[str, ApprovalAction] = {}
        self._answered: dict[tuple[str, str], SessionInputToolResult] = {}
        self._approved: dict[str, ApprovalResult] = {}
        self.add(actions)

    @classmethod
    def from_session(cls, session: Any) -> PendingActions:
        """From an `agent.session` (dict, `AgentSession`, or a trimmed snapshot), read by
        `parse_session_snapshot`: every field present is validated, `required_actions` are the actions,
        each read strictly. Raises `ItemError`, also (`duplicate_tool`) when two function tools of the
        session's agent share one name (which one a call runs would be a guess) and
        (`action_conflict`) when two required actions reuse one (turn_id, call_id) for different calls."""
        snap = parse_session_snapshot(session)
        dupes = duplicate_tool_names(snap)
        if dupes:
            raise ItemError(
                [
                    {
                        "loc": ("agent", "tools", n, "name"),
                        "type": "duplicate_tool",
                        "msg": f"two function tools are named {name!r}: which one a call runs would be a guess",
                    }
                    for n, name in dupes
                ],
                "invalid session",
            )
        actions = snap.required_actions
        return cls(list(actions) if isinstance(actions, list) else [])

    @classmethod
    def from_event(cls, event: Any) -> PendingActions:
        """From an event carrying a session (`agent.session.requires_action`, or any `agent.session.*`
        status event; a dict, strict JSON text or SDK object), read as `parse_event` reads it. Raises
        `ItemError` when the event does not parse (strict JSON included), is of an unknown type (kept
        verbatim and never acted on: `unknown_event`) or has no session object."""
        ev = parse_event(event)
        if is_unknown(ev):
            raise ItemError(
                [
                    {
                        "loc": ("type",),
                        "type": "unknown_event",
                        "msg": f"{ev.type!r} is not a known session event: an unknown event is kept verbatim "
                        "and never acted on (expected agent.session.requires_action)",
                    }
                ],
                "invalid event",
            )
        session = session_of(ev)
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
    def actions(self) -> tuple[Any, ...]:
        """Every required action, in order (function calls, approvals, environment connections, unknown ones)."""
        return tuple(self._actions)

    def call(self, turn_id: str, call_id: str) -> FunctionCallAction | None:
        """The required function_call action of (turn_id, call_id), answered or not; None when unknown."""
        return self._calls.get((turn_id, call_id))

    def is_answered(self, turn_id: str, call_id: str) -> bool:
        """Whether a tool result for (turn_id, call_id) has been accepted."""
        return (turn_id, call_id) in self._answered

    @property
    def answered(self) -> dict[tuple[str, str], SessionInputToolResult]:
        """The accepted tool results by (turn_id, call_id)."""
        return dict(self._answered)

    @property
    def pending_approvals(self) -> list[ApprovalAction]:
        """Approval requests (`mcp_approval_request`, `computer_use_approval_request`) still waiting for
        an answer, in order."""
        return [a for k, a in self._requests.items() if k not in self._approved]

    @property
    def approvals(self) -> dict[str, ApprovalResult]:
        """The accepted approval answers by `request_id`."""
        return dict(self._approved)

    def _find(self, action: Any) -> FunctionCallAction:
        parsed = action if isinstance(action, FunctionCallAction) else parse_required_action(action)
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
            body.update(success=True, output=plain_value(output) if isinstance(output, BaseModel) else output)
        return self._validate(body)

    def _validate(self, data: Any) -> SessionInputToolResult:
        try:
            data = plain_value(data)
        except ItemError as exc:  # not strict JSON: a malformed tool result, never sent
            raise ToolResultError("malformed", f"malformed tool result: {exc.errors[0]['msg']}") from None
        if isinstance(data, SessionInputToolResult):
            data = dump(data)
        if not isinstance(data, Mapping) or data.get("type") != "agent.session.input.tool_result":
            got = data.get("type") if isinstance(data, Mapping) else type(data).__name__
            raise ToolResultError("malformed", f"expected an agent.session.input.tool_result, got {got!r}")
        try:
            return checked_tool_result_adapter.validate_python(data)
        except ValidationError as exc:
            errs = session_errors(exc, data=data)
            detail = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'tool_result'}: {e['msg']}" for e in errs)
            raise ToolResultError(
                "malformed",
                f"malformed tool result: {detail}",
                turn_id=data.get("turn_id"),
                call_id=data.get("call_id"),
            ) from None

    def accept(self, answer: Any, *, resubmit: bool = False) -> Any:
        """Record an answer the client sends (a tool result or an approval answer); returns it parsed.

        With `resubmit=True` the answer may already have been recorded: when it is the same JSON value
        as the recorded one (a resend after a dropped connection) nothing changes and the recorded
        answer is returned; a different answer is still refused.

        Raises `ToolResultError` with `.reason` `malformed` (not an answer, `success` not a JSON
        boolean, `output` not a string or parts, `success: false` without `error`), `unknown_call` (no
        pending action has this call_id), `turn_mismatch` (the call_id is pending under another
        turn_id), `unknown_request` (no pending approval has this request_id), `response_mismatch` (the
        answer does not fit its request) or `already_answered` (a second answer; without `resubmit`
        also an identical one).
        """
        try:
            data = plain_value(answer)
        except ItemError as exc:  # not strict JSON: a malformed answer, never sent
            raise ToolResultError("malformed", f"malformed tool result: {exc.errors[0]['msg']}") from None
        t = data.get("type") if isinstance(data, Mapping) else getattr(data, "type", None)
        if t in _APPROVAL_INPUTS:
            return self._accept_approval(data, resubmit)
        r = self._validate(data)
        key = (r.turn_id, r.call_id)
        if key in self._answered:
            prev = self._answered[key]
            if resubmit and _same(prev, r):
                return prev
            same = _same(prev, r)
            raise ToolResultError(
                "already_answered",
                f"call {r.call_id!r} of turn {r.turn_id!r} was already answered"
                + (
                    " with this same result (pass resubmit=True when resending it)"
                    if same
                    else " with a different result"
                ),
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

    def _accept_approval(self, data: Any, resubmit: bool) -> ApprovalResult:
        try:
            r = parse_input(data)
        except ItemError as exc:
            rid = data.get("request_id") if isinstance(data, Mapping) else None
            raise ToolResultError("malformed", f"malformed approval answer: {exc}", request_id=rid) from None
        assert isinstance(r, ApprovalResult)
        rid = r.request_id
        if rid in self._approved:
            prev = self._approved[rid]
            if resubmit and _same(prev, r):
                return prev
            raise ToolResultError(
                "already_answered",
                f"approval request {rid!r} was already answered"
                + (" with this same answer (pass resubmit=True)" if _same(prev, r) else " with a different answer"),
                request_id=rid,
            )
        action = self._requests.get(rid)
        if action is None:
            raise ToolResultError(
                "unknown_request", f"no pending approval request has request_id {rid!r}", request_id=rid
            )
        problems = approval_problems(action, r)
        if problems:
            raise ToolResultError(
                "response_mismatch",
                f"the answer does not fit request {rid!r}: " + "; ".join(problems),
                turn_id=action.turn_id,
                request_id=rid,
            )
        self._approved[rid] = r
        return r

    def conflict(self, action: Any) -> str | None:
        """Why a required function_call `action` cannot be added: its (turn_id, call_id) is already
        known for another call (another name or other arguments); None when it is new or the same
        action listed again (which is idempotent). Raises `ItemError` when `action` does not parse."""
        parsed = parse_required_action(action)
        if not isinstance(parsed, FunctionCallAction):
            return None
        known = self._calls.get((parsed.turn_id, parsed.call_id))
        if known is None or _call_of(known) == _call_of(parsed):
            return None
        where = f"(turn_id {parsed.turn_id!r}, call_id {parsed.call_id!r})"
        if known.name != parsed.name:
            return f"{where} is already required for {known.name!r}; a later action reuses it for {parsed.name!r}"
        return f"{where} is already required for {known.name!r} with other arguments; one call id names one call"

    def add(self, actions: Iterable[Any]) -> None:
        """Add newly required actions (from a later requires_action event); known calls and requests are
        kept, and the same function_call listed again changes nothing. Raises `ItemError`
        (`action_conflict`) when a function_call reuses a known (turn_id, call_id) with another name or
        other arguments (nothing of `actions` is added then), and when an action does not parse."""
        parsed_all: list[Any] = [parse_required_action(a) for a in actions]
        staged = PendingActions.__new__(PendingActions)
        staged._calls = dict(self._calls)
        for n, parsed in enumerate(parsed_all):
            why = staged.conflict(parsed)
            if why is not None:
                raise ItemError(
                    [{"loc": ("required_actions", n), "type": "action_conflict", "msg": why}], "invalid required action"
                )
            if isinstance(parsed, FunctionCallAction):
                staged._calls.setdefault((parsed.turn_id, parsed.call_id), parsed)
        for parsed in parsed_all:
            self._actions.append(parsed)
            if isinstance(parsed, FunctionCallAction):
                self._calls.setdefault((parsed.turn_id, parsed.call_id), parsed)
            elif getattr(parsed, "type", None) in _APPROVAL_TYPES and not getattr(parsed, "unknown", False):
                self._requests.setdefault(parsed.request_id, parsed)
