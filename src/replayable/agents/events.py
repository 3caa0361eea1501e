"""Parsing of OpenAI Agents API values: the session event, item, required-action and input unions, their
adapters, the tool-result rule, and `parse_event` / `parse_input` / `parse_session` / `dump`.

Field-level reference: the `openai` package's `openai.types.beta` (`agent_session_event.py`,
`agent_session.py`, `agent_session_input_param.py`, `agent_session_item.py`, `agent_output_item.py`).
Part of `replayable.agents`; import the names from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, TypeAlias

from pydantic import AfterValidator, BaseModel, Field, TypeAdapter, ValidationError

from replayable._agents_base import KNOWN_ACTION_TYPES, KNOWN_EVENT_TYPES, KNOWN_ITEM_TYPES, UnknownBase
from replayable._base import WireModel
from replayable._generated.agents.agent_session import AgentSession
from replayable._generated.agents.required_action import KnownRequiredAction
from replayable._generated.agents.session_create_params import SessionCreateParams
from replayable._generated.agents.session_event import KnownSessionEvent
from replayable._generated.agents.session_input_cancel import SessionInputCancel
from replayable._generated.agents.session_input_message import SessionInputMessage
from replayable._generated.agents.session_input_tool_result import SessionInputToolResult
from replayable._generated.agents.session_item import KnownSessionItem
from replayable._generated.agents.unknown_required_action import UnknownRequiredAction
from replayable._generated.agents.unknown_session_event import UnknownSessionEvent
from replayable._generated.agents.unknown_session_item import UnknownSessionItem
from replayable._json import printable
from replayable.items import ItemError, plain_json


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
