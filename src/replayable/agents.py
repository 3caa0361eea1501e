"""OpenAI Agents API (beta, `OpenAI-Beta: agents=v1`): typed session events and replay-safe tool results.

The models are generated from `schemas/agents/` (field-level reference: the `openai` package's
`openai.types.beta`, `agent_session_event.py`, `agent_session.py`, `agent_session_input_param.py`,
`agent_session_item.py`, `agent_output_item.py`). This module adds what a schema cannot say:

- the unions as `Annotated` aliases with module-level adapters (`session_event_adapter`, ...). An event,
  item or required action of a type not known here becomes `UnknownSessionEvent` /
  `UnknownSessionItem` / `UnknownRequiredAction`, kept verbatim with `.unknown == True`: a stream does
  not die on a new event type, and replay code must not act on one. A *known* type with a bad field is
  an error, never an unknown value;
- the tool-result rule: `success` is a JSON boolean; `success: true` needs `output` (a string or a
  list of input_text / input_image parts; a JSON object must be serialized first); `success: false`
  needs a non-empty `error`;
- `check_arguments`: a pending `function_call` action checked against its tool's JSON Schema
  (the same jsonschema-rs path as `replayable.gate`), with a ready `success: false` tool result;
- `PendingActions`: the ledger of what a session waits for. Only `session.required_actions` makes a
  call pending (a `function_call` item in the history never does); each (turn_id, call_id) pair is
  answered exactly once;
- `check_event_log`: the rules above over a whole event log (server events and the client's inputs).

Bad input raises `ItemError` (a value that does not parse) or `ToolResultError` (a tool result that
answers nothing, answers twice, or breaks the rule); both are `ValueError`s with a message naming the
field and the rule.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated, Any, TypeAlias

from pydantic import AfterValidator, BaseModel, Field, TypeAdapter, ValidationError

from ._agents_base import KNOWN_ACTION_TYPES, KNOWN_EVENT_TYPES, KNOWN_ITEM_TYPES, UnknownBase
from ._base import WireModel
from ._generated.agents.agent_config_param import AgentConfigParam
from ._generated.agents.agent_message_item import AgentMessageItem
from ._generated.agents.agent_session import AgentSession
from ._generated.agents.agent_tool import AgentTool
from ._generated.agents.close_subagent_call_item import CloseSubagentCallItem
from ._generated.agents.command_execution_item import CommandExecutionItem
from ._generated.agents.create_subagent_call_item import CreateSubagentCallItem
from ._generated.agents.environment import Environment
from ._generated.agents.environment_connection_action import EnvironmentConnectionAction
from ._generated.agents.function_call_action import FunctionCallAction
from ._generated.agents.function_call_item import FunctionCallItem
from ._generated.agents.function_call_output_item import FunctionCallOutputItem
from ._generated.agents.function_tool import FunctionTool
from ._generated.agents.interrupt_subagent_call_item import InterruptSubagentCallItem
from ._generated.agents.mcp_call_item import McpCallItem
from ._generated.agents.reasoning_item import ReasoningItem
from ._generated.agents.required_action import KnownRequiredAction
from ._generated.agents.resume_subagent_call_item import ResumeSubagentCallItem
from ._generated.agents.send_subagent_input_call_item import SendSubagentInputCallItem
from ._generated.agents.session_create_params import SessionCreateParams
from ._generated.agents.session_event import KnownSessionEvent
from ._generated.agents.session_input_cancel import SessionInputCancel
from ._generated.agents.session_input_message import SessionInputMessage
from ._generated.agents.session_input_tool_result import SessionInputToolResult
from ._generated.agents.session_item import KnownSessionItem
from ._generated.agents.session_message import SessionMessage
from ._generated.agents.subagent import Subagent
from ._generated.agents.turn import Turn
from ._generated.agents.unknown_required_action import UnknownRequiredAction
from ._generated.agents.unknown_session_event import UnknownSessionEvent
from ._generated.agents.unknown_session_item import UnknownSessionItem
from ._generated.agents.wait_for_subagents_call_item import WaitForSubagentsCallItem
from ._generated.agents.web_search_call_item import WebSearchCallItem
from ._json import printable
from .arguments import SchemaFailure, schema_failures
from .items import ItemError, plain_json

__all__ = [
    "AgentConfigParam",
    "AgentMessageItem",
    "AgentSession",
    "AgentTool",
    "AgentsReport",
    "AgentsViolation",
    "AgentsViolationCode",
    "ArgumentCheck",
    "CloseSubagentCallItem",
    "CommandExecutionItem",
    "CreateSubagentCallItem",
    "Environment",
    "EnvironmentConnectionAction",
    "FunctionCallAction",
    "FunctionCallItem",
    "FunctionCallOutputItem",
    "FunctionTool",
    "InterruptSubagentCallItem",
    "McpCallItem",
    "PendingActions",
    "ReasoningItem",
    "RequiredAction",
    "ResumeSubagentCallItem",
    "SendSubagentInputCallItem",
    "SessionCreateParams",
    "SessionEvent",
    "SessionInput",
    "SessionInputCancel",
    "SessionInputMessage",
    "SessionInputToolResult",
    "SessionItem",
    "SessionMessage",
    "Subagent",
    "ToolResultError",
    "Turn",
    "UnknownRequiredAction",
    "UnknownSessionEvent",
    "UnknownSessionItem",
    "WaitForSubagentsCallItem",
    "WebSearchCallItem",
    "check_arguments",
    "check_event_log",
    "dump",
    "format_report",
    "is_unknown",
    "parse_event",
    "parse_input",
    "parse_session",
    "required_action_adapter",
    "session_create_params_adapter",
    "session_event_adapter",
    "session_input_adapter",
    "session_item_adapter",
]


class ToolResultError(ValueError):
    """A tool result that must not be sent.

    `.reason` is one of `malformed` (breaks the tool-result rule or does not parse), `unknown_call` (no
    pending action has this `call_id`), `turn_mismatch` (the `call_id` is pending under another
    `turn_id`), `already_answered`, or `check_passed` (asking for a failure result of a check that
    passed). `.turn_id` / `.call_id` name the pair when known.
    """

    def __init__(self, reason: str, message: str, *, turn_id: Any = None, call_id: Any = None) -> None:
        self.reason = reason
        self.turn_id = turn_id
        self.call_id = call_id
        super().__init__(printable(message))


def _tool_result_rule(result: SessionInputToolResult) -> SessionInputToolResult:
    """`success: true` needs `output`; `success: false` needs a non-empty `error` (Agents API tools guide)."""
    if result.success:
        if not isinstance(result.output, str | list):
            raise ValueError(
                "success is true, so 'output' is required: a string or a list of input_text/input_image parts"
            )
    elif not isinstance(result.error, str) or not result.error.strip():
        raise ValueError("success is false, so 'error' is required: a non-empty message the agent can use")
    return result


_CheckedToolResult: TypeAlias = Annotated[SessionInputToolResult, AfterValidator(_tool_result_rule)]

SessionEvent: TypeAlias = Annotated[KnownSessionEvent | UnknownSessionEvent, Field(union_mode="left_to_right")]
"""A session event (`AgentSessionEvent`), tagged on `type`; an unknown type is an `UnknownSessionEvent`."""

SessionItem: TypeAlias = Annotated[KnownSessionItem | UnknownSessionItem, Field(union_mode="left_to_right")]
"""A session item (`AgentSessionItem` / `AgentOutputItem`); an unknown type is an `UnknownSessionItem`."""

RequiredAction: TypeAlias = Annotated[KnownRequiredAction | UnknownRequiredAction, Field(union_mode="left_to_right")]
"""A required action (`function_call`, `environment_connection`, approval requests); an unknown type
is an `UnknownRequiredAction`, which is never answered automatically."""

SessionInput: TypeAlias = Annotated[
    SessionInputMessage | SessionInputCancel | _CheckedToolResult, Field(discriminator="type")
]
"""A client input event (`agent.session.input.message`, `.cancel`, `.tool_result`), tagged on `type`.
Tool results are checked against the tool-result rule."""

session_event_adapter: TypeAdapter[SessionEvent] = TypeAdapter(SessionEvent)
session_item_adapter: TypeAdapter[SessionItem] = TypeAdapter(SessionItem)
required_action_adapter: TypeAdapter[RequiredAction] = TypeAdapter(RequiredAction)
session_input_adapter: TypeAdapter[SessionInput] = TypeAdapter(SessionInput)
session_create_params_adapter: TypeAdapter[SessionCreateParams] = TypeAdapter(SessionCreateParams)
_known_event_adapter: TypeAdapter[Any] = TypeAdapter(KnownSessionEvent)
_known_action_adapter: TypeAdapter[Any] = TypeAdapter(KnownRequiredAction)
_tool_result_adapter: TypeAdapter[SessionInputToolResult] = TypeAdapter(_CheckedToolResult)
_session_adapter: TypeAdapter[AgentSession] = TypeAdapter(AgentSession)

_INPUT_TYPES = frozenset(
    {"agent.session.input.message", "agent.session.input.cancel", "agent.session.input.tool_result"}
)


# ------------------------------------------------------------------------------------------ parsing


def _errors(exc: ValidationError, prefix: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    """Pydantic errors as `{loc, type, msg}` with the union/tag segments dropped from `loc`."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for err in exc.errors(include_url=False, include_context=False, include_input=False):
        loc = tuple(
            seg
            for seg in err["loc"]
            if not (
                isinstance(seg, str)
                and (
                    seg in KNOWN_EVENT_TYPES
                    or seg in KNOWN_ITEM_TYPES
                    or seg in KNOWN_ACTION_TYPES
                    or seg in _INPUT_TYPES
                    or seg.startswith(
                        ("function-", "tagged-union[", "union[", "nullable[", "list[", "missing-sentinel")
                    )
                    or seg in ("str", "bool", "int", "none", "constrained-str")
                )
            )
        )
        msg = err["msg"].removeprefix("Value error, ")
        if loc and loc[-1] == "output" and err["type"] in ("string_type", "list_type"):
            msg = "output must be a string or a list of input_text/input_image parts; serialize an object first"
        key = (loc, msg)
        if key in seen:
            continue
        seen.add(key)
        out.append({"loc": prefix + loc, "type": err["type"], "msg": msg})
    return out


def _plain(data: Any) -> Any:
    """Accept JSON text, our models (kept) and `openai` SDK models as plain JSON values."""
    return plain_json(data, keep_models=True)


def _need_object(data: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        got = "null" if data is None else type(data).__name__
        raise ItemError(
            [{"loc": (), "type": "object_type", "msg": f"{what} must be a JSON object, got {got}"}],
            f"invalid {what}",
        )
    t = data.get("type")
    if not isinstance(t, str) or not t:
        raise ItemError(
            [
                {
                    "loc": ("type",),
                    "type": "missing_type",
                    "msg": f"every {what} needs a non-empty string 'type'",
                }
            ],
            f"invalid {what}",
        )
    return data


def parse_event(data: Any) -> SessionEvent:
    """Parse one session event (a dict, JSON text, or an `openai.types.beta` event).

    A known `type` is validated strictly against its own model; an unknown one becomes an
    `UnknownSessionEvent` kept verbatim (`.unknown` is true). Raises `ItemError` naming the field and
    rule when a known event does not parse, when the value is not an object with a string `type`, or
    when it is not strict JSON (`replayable._json`: duplicate keys, NaN, nesting past
    `replayable.items.MAX_ITEM_DEPTH`, ..., so that what parses always dumps).
    """
    data = _plain(data)
    if isinstance(data, WireModel):
        return data  # type: ignore[return-value]
    data = _need_object(data, "event")
    try:
        if data["type"] in KNOWN_EVENT_TYPES:
            return _known_event_adapter.validate_python(data)  # type: ignore[no-any-return]
        return UnknownSessionEvent.model_validate(data)
    except ValidationError as exc:
        raise ItemError(_errors(exc), f"invalid event {data['type']!r}") from None


def parse_input(data: Any) -> SessionInput:
    """Parse one client input event (`agent.session.input.*`), applying the tool-result rule.

    Raises `ItemError` naming the field and rule (e.g. `success` not a boolean, `output` an object,
    `success: false` without `error`); an unknown input type is an error (inputs are ours to send).
    """
    data = _plain(data)
    if isinstance(data, SessionInputMessage | SessionInputCancel):
        return data
    if isinstance(data, SessionInputToolResult):
        data = dump(data)
    data = _need_object(data, "input event")
    if data["type"] not in _INPUT_TYPES:
        raise ItemError(
            [
                {
                    "loc": ("type",),
                    "type": "unknown_input_type",
                    "msg": f"unknown input type {data['type']!r}: expected one of " + ", ".join(sorted(_INPUT_TYPES)),
                }
            ],
            "invalid input event",
        )
    try:
        return session_input_adapter.validate_python(data)
    except ValidationError as exc:
        raise ItemError(_errors(exc), f"invalid input event {data['type']!r}") from None


def parse_session(data: Any) -> AgentSession:
    """Parse a whole `agent.session` object strictly; raises `ItemError`."""
    data = _plain(data)
    if isinstance(data, AgentSession):
        return data
    try:
        return _session_adapter.validate_python(data)
    except ValidationError as exc:
        raise ItemError(_errors(exc), "invalid session") from None


def _parse_action(data: Any, index: int | None = None) -> Any:
    data = _plain(data)
    if isinstance(data, WireModel):
        return data
    prefix: tuple[Any, ...] = () if index is None else ("required_actions", index)
    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        raise ItemError(
            [
                {
                    "loc": prefix,
                    "type": "object_type",
                    "msg": "a required action must be a JSON object with a string 'type'",
                }
            ],
            "invalid required action",
        )
    try:
        if data["type"] in KNOWN_ACTION_TYPES:
            return _known_action_adapter.validate_python(data)
        return UnknownRequiredAction.model_validate(data)
    except ValidationError as exc:
        raise ItemError(_errors(exc, prefix), "invalid required action") from None


def dump(model: Any) -> Any:
    """A model as JSON-ready data, exactly as it was read (`by_alias`, `exclude_unset`)."""
    if isinstance(model, BaseModel):
        return model.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return model


def is_unknown(value: Any) -> bool:
    """True for an event, item or required action of a type not known here: do not act on it."""
    return isinstance(value, UnknownBase)


# ------------------------------------------------------------------------------------------ arguments


@dataclass(frozen=True, slots=True)
class ArgumentCheck:
    """The result of `check_arguments`.

    `execute` (also `passed`) is true only when the action's name matches the tool and its arguments
    pass the tool's `parameters`; `failures` lists each failure as a `SchemaFailure` (JSON Pointer
    `path` of the offending value and the failing JSON Schema `keyword`, e.g. `/refund`
    `additionalProperties`; a name mismatch is path `""`, keyword `name`).
    """

    action: FunctionCallAction
    failures: tuple[SchemaFailure, ...]

    @property
    def execute(self) -> bool:
        """Whether the tool may be executed."""
        return not self.failures

    @property
    def passed(self) -> bool:
        """Same as `execute`."""
        return not self.failures

    def error_message(self) -> str:
        """A readable message naming each failing path and rule (empty when the check passed)."""
        if not self.failures:
            return ""
        parts = [
            f"{f.path or '/'} ({f.keyword}): {f.message}" if f.message else f"{f.path or '/'} ({f.keyword})"
            for f in self.failures
        ]
        return f"arguments for {self.action.name!r} were rejected before execution: " + "; ".join(parts)

    def tool_result(self) -> SessionInputToolResult:
        """A ready `agent.session.input.tool_result` with `success: false`, the action's `turn_id` and
        `call_id`, and an `error` naming each failing path and rule. Raises `ToolResultError`
        (`check_passed`) when the check passed: execute the tool and answer with its output instead."""
        if not self.failures:
            raise ToolResultError(
                "check_passed",
                "the check passed: execute the tool and answer with its output",
                turn_id=self.action.turn_id,
                call_id=self.action.call_id,
            )
        return _tool_result_adapter.validate_python(
            {
                "type": "agent.session.input.tool_result",
                "turn_id": self.action.turn_id,
                "call_id": self.action.call_id,
                "success": False,
                "error": self.error_message(),
            }
        )


def _tool_parts(tool: Any) -> tuple[str | None, Any]:
    tool = _plain(tool)
    if isinstance(tool, FunctionTool):
        return tool.name, tool.parameters
    if isinstance(tool, Mapping):
        if "parameters" in tool or tool.get("type") == "function":
            name = tool.get("name")
            return (name if isinstance(name, str) else None), tool.get("parameters", {})
        return None, tool  # a bare JSON Schema
    if isinstance(tool, bool):
        return None, tool
    raise ItemError(
        [
            {
                "loc": (),
                "type": "tool_type",
                "msg": f"a tool must be a function tool object or a JSON Schema, got {type(tool).__name__}",
            }
        ],
        "invalid tool",
    )


def check_arguments(action: Any, tool: Any) -> ArgumentCheck:
    """Check a required `function_call` action against its function tool before executing it.

    `action` is a `FunctionCallAction` or its JSON (`{type: "function_call", turn_id, call_id, name,
    arguments: {...}}`; `arguments` is a JSON object in the Agents API). `tool` is a function tool
    (`{type: "function", name, parameters, ...}`, a `FunctionTool`) or a bare JSON Schema. The
    arguments are checked with jsonschema-rs through `replayable.arguments.schema_failures`, exactly as
    `replayable.gate` does. Raises `ItemError` when the action is not a valid function_call action and
    `SchemaError` when the tool's schema is not valid JSON Schema.
    """
    parsed = _parse_action(action)
    if not isinstance(parsed, FunctionCallAction):
        raise ItemError(
            [
                {
                    "loc": ("type",),
                    "type": "not_function_call",
                    "msg": f"only function_call actions carry arguments, got {getattr(parsed, 'type', '')!r}",
                }
            ],
            "invalid required action",
        )
    name, schema = _tool_parts(tool)
    failures: list[SchemaFailure] = []
    if name is not None and name != parsed.name:
        failures.append(SchemaFailure("", "name", f"the action calls {parsed.name!r}, the tool is {name!r}"))
    failures.extend(schema_failures(parsed.arguments, schema))
    return ArgumentCheck(parsed, tuple(failures))


# ------------------------------------------------------------------------------------------ ledger


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


# ------------------------------------------------------------------------------------------ event log


class AgentsViolationCode(StrEnum):
    """Stable codes of `check_event_log`."""

    EVENT_INVALID = "event_invalid"
    """A known event or an input event that does not parse."""
    MALFORMED_RESULT = "malformed_result"
    """A tool result that breaks the tool-result rule."""
    RESULT_WITHOUT_ACTION = "result_without_action"
    """A tool result whose (turn_id, call_id) pair is not pending."""
    DOUBLE_ANSWER = "double_answer"
    """A second tool result for one pending action."""
    UNANSWERED_ACTION = "unanswered_action"
    """A required function_call that no tool result answers by the end of the log."""
    UNKNOWN_TOOL = "unknown_tool"
    """A required function_call naming no function tool of the session's agent."""
    ARGUMENTS_SCHEMA = "arguments_schema"
    """A required function_call whose arguments fail its tool's `parameters`."""
    EXECUTED_REJECTED_CALL = "executed_rejected_call"
    """A `success: true` result for a call whose arguments failed the tool schema."""


@dataclass(frozen=True, slots=True)
class AgentsViolation:
    """One broken rule: `index` of the event in the log, a stable `code`, a readable `message`, and
    `path`, a JSON Pointer into the event."""

    index: int | None
    code: AgentsViolationCode
    message: str
    path: str = ""

    def __post_init__(self) -> None:  # messages may quote the input: never a lone surrogate
        object.__setattr__(self, "message", printable(self.message))
        object.__setattr__(self, "path", printable(self.path))

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "code": str(self.code), "message": self.message, "path": self.path}


@dataclass(frozen=True, slots=True)
class AgentsReport:
    """The result of `check_event_log`: `ok`, `violations` in log order, the `pending` actions
    (index of the requires_action event, the action), `unknown_events` (indexes of events of unknown
    types, kept and not acted on) and the `session_id` when seen."""

    violations: tuple[AgentsViolation, ...]
    unknown_events: tuple[int, ...] = ()
    session_id: str | None = None
    events: int = 0
    pending: tuple[tuple[int, FunctionCallAction], ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.violations


_RESULT_CODES = {
    "malformed": AgentsViolationCode.MALFORMED_RESULT,
    "unknown_call": AgentsViolationCode.RESULT_WITHOUT_ACTION,
    "turn_mismatch": AgentsViolationCode.RESULT_WITHOUT_ACTION,
    "already_answered": AgentsViolationCode.DOUBLE_ANSWER,
}


def check_event_log(events: Iterable[Any]) -> AgentsReport:
    """Check an Agents API event log: server events and the client's input events, in order.

    Reports (`AgentsViolationCode`): events that do not parse, malformed tool results, results for a
    (turn_id, call_id) pair that is not pending, double answers, required function calls left
    unanswered at the end, and required calls whose arguments fail the tool schemas of the session's
    agent (or name no tool), plus `success: true` answers to such calls. A requires_action event's
    session is read leniently (only `required_actions` is needed). Unknown event types are listed in
    `unknown_events`, not acted on. Never raises on bad events.
    """
    violations: list[AgentsViolation] = []
    unknown: list[int] = []
    ledger = PendingActions()
    origin: dict[tuple[str, str], int] = {}
    rejected: set[tuple[str, str]] = set()
    tools: dict[str, Any] | None = None
    session_id: str | None = None
    n = 0
    for i, raw in enumerate(events):
        n = i + 1
        try:
            raw = _plain(raw)
        except ItemError as exc:
            violations.append(AgentsViolation(i, AgentsViolationCode.EVENT_INVALID, str(exc).splitlines()[-1].strip()))
            continue
        t = raw.get("type") if isinstance(raw, Mapping) else None
        if isinstance(t, str) and t.startswith("agent.session.input."):
            if t != "agent.session.input.tool_result":
                try:
                    parse_input(raw)
                except ItemError as exc:
                    violations.append(AgentsViolation(i, AgentsViolationCode.EVENT_INVALID, _first(exc)))
                continue
            try:
                r = ledger.accept(raw)
            except ToolResultError as exc:
                violations.append(
                    AgentsViolation(i, _RESULT_CODES.get(exc.reason, AgentsViolationCode.MALFORMED_RESULT), str(exc))
                )
                continue
            key = (r.turn_id, r.call_id)
            if r.success and key in rejected:
                violations.append(
                    AgentsViolation(
                        i,
                        AgentsViolationCode.EXECUTED_REJECTED_CALL,
                        f"call {r.call_id!r} failed its tool schema but was answered with success: true",
                    )
                )
            continue
        session: Any = raw.get("session") if isinstance(raw, Mapping) else None
        if t == "agent.session.requires_action" or (
            isinstance(t, str) and t.startswith("agent.session.") and isinstance(session, Mapping)
        ):
            # lenient: a partial session still gives its required_actions
            if isinstance(session, Mapping):
                sid = session.get("id")
                session_id = sid if isinstance(sid, str) else session_id
                agent = session.get("agent")
                if isinstance(agent, Mapping) and isinstance(agent.get("tools"), list):
                    tools = {
                        tl["name"]: tl
                        for tl in agent["tools"]
                        if isinstance(tl, Mapping) and tl.get("type") == "function" and isinstance(tl.get("name"), str)
                    }
            try:
                actions = _actions_of(session, "the event's session")
            except ItemError as exc:
                violations.append(AgentsViolation(i, AgentsViolationCode.EVENT_INVALID, _first(exc), "/session"))
                continue
            new = [a for a in actions if isinstance(a, FunctionCallAction) and (a.turn_id, a.call_id) not in origin]
            ledger.add(new)
            for a in new:
                key = (a.turn_id, a.call_id)
                origin[key] = i
                path = f"/session/required_actions/{actions.index(a)}"
                if tools is None:
                    continue
                tool = tools.get(a.name)
                if tool is None:
                    rejected.add(key)
                    violations.append(
                        AgentsViolation(
                            i,
                            AgentsViolationCode.UNKNOWN_TOOL,
                            f"call {a.call_id!r} names {a.name!r}, which is not a function tool of the agent",
                            path,
                        )
                    )
                    continue
                try:
                    chk = check_arguments(a, tool)
                except ValueError as exc:
                    violations.append(
                        AgentsViolation(i, AgentsViolationCode.ARGUMENTS_SCHEMA, f"tool {a.name!r}: {exc}", path)
                    )
                    continue
                if not chk.execute:
                    rejected.add(key)
                    violations.append(
                        AgentsViolation(
                            i, AgentsViolationCode.ARGUMENTS_SCHEMA, chk.error_message(), path + "/arguments"
                        )
                    )
            continue
        try:
            ev = parse_event(raw)
        except ItemError as exc:
            violations.append(AgentsViolation(i, AgentsViolationCode.EVENT_INVALID, _first(exc)))
            continue
        if is_unknown(ev):
            unknown.append(i)
        sid = getattr(ev, "session_id", None)
        if session_id is None and isinstance(sid, str):
            session_id = sid
    pending = tuple((origin[(a.turn_id, a.call_id)], a) for a in ledger.pending)
    for idx, a in pending:
        violations.append(
            AgentsViolation(
                idx,
                AgentsViolationCode.UNANSWERED_ACTION,
                f"call {a.call_id!r} ({a.name!r}, turn {a.turn_id!r}) was never answered",
            )
        )
    return AgentsReport(tuple(violations), tuple(unknown), session_id, n, pending)


def _first(exc: ItemError) -> str:
    errs = exc.errors
    if errs:
        e = errs[0]
        where = ".".join(map(str, e["loc"])) or "event"
        return f"{where}: {e['msg']} [{e['type']}]"
    return str(exc).splitlines()[0]


def format_report(report: AgentsReport, fmt: str = "text", name: str = "<events>") -> str:
    """`report` as the `replayable check --agents` output: text lines like the items check, or JSON."""
    if fmt == "json":
        return json.dumps(
            {
                "file": name,
                "ok": report.ok,
                "events": report.events,
                "session_id": report.session_id,
                "violations": [v.as_dict() for v in report.violations],
                "pending": [
                    {"index": i, "turn_id": a.turn_id, "call_id": a.call_id, "name": a.name} for i, a in report.pending
                ],
                "unknown_events": list(report.unknown_events),
            },
            indent=2,
        )
    lines = [f"{name}: event {v.index}: {v.code}: {v.message}" for v in report.violations]
    if report.unknown_events:
        lines.append(
            f"{name}: unknown event types (kept, not acted on) at events " + ", ".join(map(str, report.unknown_events))
        )
    if report.violations:
        lines.append(f"{name}: NOT safe: {len(report.violations)} violation(s), {report.events} events")
    else:
        lines.append(f"{name}: ok: {report.events} events, every required action answered once")
    return "\n".join(lines)


# ------------------------------------------------------------------ doors (issue #8): re-exports

from .cards import CardCheck, check_card  # noqa: E402
from .chain import Link, LinkKind, SessionChain, link_chain  # noqa: E402

__all__ += ["CardCheck", "Link", "LinkKind", "SessionChain", "check_card", "link_chain"]
