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
from pydantic_core import PydanticCustomError

from replayable._agents_base import KNOWN_ACTION_TYPES, KNOWN_EVENT_TYPES, UnknownBase
from replayable._base import WireModel, is_unchecked
from replayable._generated.agents.agent_session import AgentSession
from replayable._generated.agents.required_action import KnownRequiredAction
from replayable._generated.agents.session_create_params import SessionCreateParams
from replayable._generated.agents.session_event import KnownSessionEvent
from replayable._generated.agents.session_events_body import SessionEventsBody
from replayable._generated.agents.session_input_cancel import SessionInputCancel
from replayable._generated.agents.session_input_computer_use_approval_request_result import (
    SessionInputComputerUseApprovalRequestResult,
)
from replayable._generated.agents.session_input_mcp_approval_request_result import (
    SessionInputMcpApprovalRequestResult,
)
from replayable._generated.agents.session_input_message import SessionInputMessage
from replayable._generated.agents.session_input_tool_result import SessionInputToolResult
from replayable._generated.agents.session_item import KnownSessionItem
from replayable._generated.agents.session_item_list_page import SessionItemListPage
from replayable._generated.agents.session_list_page import SessionListPage
from replayable._generated.agents.session_snapshot import SessionSnapshot
from replayable._generated.agents.session_update_params import SessionUpdateParams
from replayable._generated.agents.turn_list_page import TurnListPage
from replayable._generated.agents.unknown_required_action import UnknownRequiredAction
from replayable._generated.agents.unknown_session_event import UnknownSessionEvent
from replayable._generated.agents.unknown_session_item import UnknownSessionItem
from replayable._item_json import plain_json
from replayable._validation import clean_errors
from replayable.items import ItemError


def _tool_result_rule(result: SessionInputToolResult) -> SessionInputToolResult:
    """`success: true` needs `output`; `success: false` needs a non-empty `error` (Agents API tools guide)."""
    if result.success:
        if not isinstance(result.output, str | list):
            raise PydanticCustomError(
                "tool_result_output",
                "success is true, so 'output' is required: a string or a list of input_text/input_image parts",
                {"field": "output"},
            )
    elif not isinstance(result.error, str) or not result.error.strip():
        raise PydanticCustomError(
            "tool_result_error",
            "success is false, so 'error' is required: a non-empty message the agent can use",
            {"field": "error"},
        )
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
    SessionInputMessage
    | SessionInputCancel
    | _CheckedToolResult
    | SessionInputMcpApprovalRequestResult
    | SessionInputComputerUseApprovalRequestResult,
    Field(discriminator="type"),
]
"""A client input event (`agent.session.input.message`, `.cancel`, `.tool_result`,
`.mcp_approval_request_result`, `.computer_use_approval_request_result`), tagged on `type`. Tool results
are checked against the tool-result rule."""


def _create_rule(params: SessionCreateParams) -> SessionCreateParams:
    """Without `agent_id`, `agent` and its `model` are required (`POST /v1/agents/sessions`)."""
    if "agent_id" not in params.model_fields_set:
        agent = params.agent
        if not isinstance(agent, BaseModel) or "model" not in agent.model_fields_set:
            field = "agent" if not isinstance(agent, BaseModel) else ("agent", "model")
            raise PydanticCustomError(
                "agent_required", "without agent_id, 'agent' with a 'model' is required", {"field": field}
            )
    return params


def _update_rule(params: SessionUpdateParams) -> SessionUpdateParams:
    """An update carries the session's own settings: `agent_id` (a saved template) only applies to new
    sessions (`POST /v1/agents/sessions/{session_id}`)."""
    if "agent_id" in (params.model_extra or {}):
        raise PydanticCustomError(
            "agent_id_in_update",
            "agent_id is not allowed in a session update: a saved agent template applies only to new sessions; "
            "put the settings to change in 'agent'",
            {"field": "agent_id"},
        )
    return params


def _events_body_rule(body: SessionEventsBody) -> SessionEventsBody:
    """Every tool result of the body follows the tool-result rule."""
    for i, ev in enumerate(body.events):
        if isinstance(ev, SessionInputToolResult):
            try:
                _tool_result_rule(ev)
            except PydanticCustomError as exc:
                field = ("events", i, (exc.context or {}).get("field", ""))
                raise PydanticCustomError(exc.type, exc.message(), {"field": field}) from None
    return body


session_event_adapter: TypeAdapter[SessionEvent] = TypeAdapter(SessionEvent)
session_item_adapter: TypeAdapter[SessionItem] = TypeAdapter(SessionItem)
required_action_adapter: TypeAdapter[RequiredAction] = TypeAdapter(RequiredAction)
session_input_adapter: TypeAdapter[SessionInput] = TypeAdapter(SessionInput)
session_create_params_adapter: TypeAdapter[SessionCreateParams] = TypeAdapter(
    Annotated[SessionCreateParams, AfterValidator(_create_rule)]
)
"""`POST /v1/agents/sessions` body; `agent.model` is required only without `agent_id`."""
session_update_params_adapter: TypeAdapter[SessionUpdateParams] = TypeAdapter(
    Annotated[SessionUpdateParams, AfterValidator(_update_rule)]
)
"""`POST /v1/agents/sessions/{session_id}` body; `agent_id` is refused (a template applies only to new sessions)."""
session_events_body_adapter: TypeAdapter[SessionEventsBody] = TypeAdapter(
    Annotated[SessionEventsBody, AfterValidator(_events_body_rule)]
)
"""`POST /v1/agents/sessions/{session_id}/events` body `{"events": [...]}`, tool-result rule applied."""
session_list_page_adapter: TypeAdapter[SessionListPage] = TypeAdapter(SessionListPage)
session_item_list_page_adapter: TypeAdapter[SessionItemListPage] = TypeAdapter(SessionItemListPage)
turn_list_page_adapter: TypeAdapter[TurnListPage] = TypeAdapter(TurnListPage)
_known_event_adapter: TypeAdapter[Any] = TypeAdapter(KnownSessionEvent)
_known_action_adapter: TypeAdapter[Any] = TypeAdapter(KnownRequiredAction)
checked_tool_result_adapter: TypeAdapter[SessionInputToolResult] = TypeAdapter(_CheckedToolResult)
"""`agent.session.input.tool_result` with the library's rule on `success` / `output` / `error` applied."""
_session_adapter: TypeAdapter[AgentSession] = TypeAdapter(AgentSession)
_snapshot_adapter: TypeAdapter[SessionSnapshot] = TypeAdapter(SessionSnapshot)

_INPUT_TYPES = frozenset(
    {
        "agent.session.input.message",
        "agent.session.input.cancel",
        "agent.session.input.tool_result",
        "agent.session.input.mcp_approval_request_result",
        "agent.session.input.computer_use_approval_request_result",
    }
)


# ------------------------------------------------------------------------------------------ parsing


_NO_DATA = object()


#: Deliberate, fail-closed differences from the openai SDK (schemas/README.md): (error type, field) -> why.
_FAIL_CLOSED = {
    ("string_too_short", "turn_id"): "an empty turn_id pairs with no pending action: copy it exactly (the openai "
    "SDK accepts '', replayable refuses it)",
    ("string_too_short", "call_id"): "an empty call_id pairs with no pending action: copy it exactly (the openai "
    "SDK accepts '', replayable refuses it)",
    ("string_too_short", "request_id"): "an empty request_id answers no approval request: copy it exactly (the "
    "openai SDK accepts '', replayable refuses it)",
    ("greater_than_equal", "max_concurrent_subagents"): "max_concurrent_subagents must be at least 1: a session "
    "that may run no subagent is multi_agent.enabled false (the openai SDK accepts any integer)",
}


def _why(loc: tuple[Any, ...], etype: str, msg: str) -> str:
    """The message of a fail-closed rule (`_FAIL_CLOSED`), else `msg`."""
    last = loc[-1] if loc and isinstance(loc[-1], str) else ""
    return _FAIL_CLOSED.get((etype, last), msg)


def session_errors(exc: ValidationError, prefix: tuple[Any, ...] = (), data: Any = _NO_DATA) -> list[dict[str, Any]]:
    """pydantic's errors as the library's (`replayable._validation.clean_errors`, the one normalizer):
    `{loc, type, msg}` with plain paths; an `output` of the wrong kind says to serialize it first."""
    out = clean_errors(exc, None if data is _NO_DATA else data, prefix)
    for e in out:
        e["msg"] = _why(e["loc"], e["type"], e["msg"])
        if e["loc"] and e["loc"][-1] == "output" and e["type"] in ("string_type", "list_type"):
            e["msg"] = "output must be a string or a list of input_text/input_image parts; serialize an object first"
    return out


def plain_value(data: Any) -> Any:
    """Agents input as plain JSON for this package's readers: JSON text, our models (kept, unless they
    skipped validation: `model_construct`, `model_copy(update=...)`, read again from their JSON) and
    `openai` SDK models. Raises `ItemError` for what is not JSON."""
    return plain_json(data, keep_models=not is_unchecked(data))


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
    when it is not strict JSON (docs/strict-json.md: duplicate keys, NaN, nesting past
    `replayable.items.MAX_ITEM_DEPTH`, ..., so that what parses always dumps).
    """
    data = plain_value(data)
    if isinstance(data, WireModel):
        return data  # type: ignore[return-value]
    data = _need_object(data, "event")
    try:
        if data["type"] in KNOWN_EVENT_TYPES:
            return _known_event_adapter.validate_python(data)  # type: ignore[no-any-return]
        return UnknownSessionEvent.model_validate(data)
    except ValidationError as exc:
        raise ItemError(session_errors(exc, data=data), f"invalid event {data['type']!r}") from None


def parse_input(data: Any) -> SessionInput:
    """Parse one client input event (`agent.session.input.*`), applying the tool-result rule.

    Raises `ItemError` naming the field and rule (e.g. `success` not a boolean, `output` an object,
    `success: false` without `error`); an unknown input type is an error (inputs are ours to send).
    """
    data = plain_value(data)
    if isinstance(
        data,
        SessionInputMessage
        | SessionInputCancel
        | SessionInputMcpApprovalRequestResult
        | SessionInputComputerUseApprovalRequestResult,
    ):
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
        raise ItemError(session_errors(exc, data=data), f"invalid input event {data['type']!r}") from None


def parse_session_snapshot(data: Any) -> SessionSnapshot:
    """Read the session carried by a session event (a dict, JSON text, our model or an SDK object).

    Every field present is validated as in `AgentSession`; none is required, so a trimmed snapshot
    (`{id, object, status, required_actions}`) reads. `parse_event`, `PendingActions.from_event` /
    `.from_session` and `check_event_log` all read sessions this way. A full `AgentSession` is
    accepted as is. Raises `ItemError` naming the field and rule.
    """
    data = plain_value(data)
    if isinstance(data, SessionSnapshot | AgentSession):
        return data  # type: ignore[return-value]
    if not isinstance(data, Mapping):
        got = "null" if data is None else type(data).__name__
        raise ItemError(
            [{"loc": (), "type": "object_type", "msg": f"a session must be a JSON object, got {got}"}],
            "invalid session",
        )
    try:
        return _snapshot_adapter.validate_python(data)
    except ValidationError as exc:
        raise ItemError(session_errors(exc, data=data), "invalid session") from None


def session_of(event: Any) -> SessionSnapshot | AgentSession | None:
    """The session an event carries (`agent.session.*` status events), read with
    `parse_session_snapshot`, or `None` when the event has no `session` key. An event of an unknown
    type gives `None` whatever it holds: it is kept verbatim and never acted on (its fields stay in
    `model_extra` for whoever inspects it). Raises `ItemError` on a bad event."""
    ev = parse_event(event)
    if is_unknown(ev):
        return None
    session = getattr(ev, "session", None)
    if session is None:
        return None
    return parse_session_snapshot(session)


def parse_events_body(data: Any) -> SessionEventsBody:
    """Parse the body of `POST /v1/agents/sessions/{session_id}/events`: `{"events": [input events]}`,
    each event read as `parse_input` reads it. Raises `ItemError` naming `events.<index>.<field>`."""
    data = plain_value(data)
    if isinstance(data, SessionEventsBody):
        return data
    try:
        return session_events_body_adapter.validate_python(data)
    except ValidationError as exc:
        raise ItemError(session_errors(exc, data=data), "invalid events body") from None


def parse_session(data: Any) -> AgentSession:
    """Parse a whole `agent.session` object strictly (`GET /v1/agents/sessions/{id}`); raises `ItemError`.
    For the session inside an event, which may be trimmed, use `parse_session_snapshot`."""
    data = plain_value(data)
    if isinstance(data, AgentSession):
        return data
    try:
        return _session_adapter.validate_python(data)
    except ValidationError as exc:
        raise ItemError(session_errors(exc, data=data), "invalid session") from None


def parse_create_params(data: Any) -> SessionCreateParams:
    """Parse the body of `POST /v1/agents/sessions` (a dict, JSON text, our model or an SDK params
    object): without `agent_id`, `agent` with a `model` is required. Raises `ItemError` naming each field
    by its plain path (`agent.tools.0.name`) and rule."""
    return _parse_body(data, SessionCreateParams, session_create_params_adapter, "session create body")  # type: ignore[no-any-return]


def parse_update_params(data: Any) -> SessionUpdateParams:
    """Parse the body of `POST /v1/agents/sessions/{session_id}` (a dict, JSON text, our model or an SDK
    params object). Raises `ItemError` naming each field by its plain path and rule."""
    return _parse_body(data, SessionUpdateParams, session_update_params_adapter, "session update body")  # type: ignore[no-any-return]


def _parse_body(data: Any, model: type[Any], adapter: TypeAdapter[Any], what: str) -> Any:
    """Read `data` once into plain JSON (an instance of `model` is returned as it is) and validate it
    with `adapter`; raises `ItemError` naming each field by its plain path and rule."""
    data = plain_value(data)
    if isinstance(data, model):
        return data
    data = _object(data, what)
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        raise ItemError(session_errors(exc, data=data), f"invalid {what}") from None


def parse_session_item(data: Any) -> SessionItem:
    """Parse one session item (`AgentSessionItem` / `AgentOutputItem`: a dict, JSON text, our model or an
    SDK item). A known `type` is validated strictly; an unknown one is an `UnknownSessionItem` kept
    verbatim. Raises `ItemError` naming the field and rule."""
    data = plain_value(data)
    if isinstance(data, WireModel):
        return data  # type: ignore[return-value]
    data = _need_object(data, "session item")
    try:
        return session_item_adapter.validate_python(data)
    except ValidationError as exc:
        raise ItemError(session_errors(exc, data=data), f"invalid session item {data['type']!r}") from None


def parse_required_action(data: Any) -> RequiredAction:
    """Parse one required action of a session (`function_call`, `environment_connection`, approval
    requests; a dict, JSON text, our model or an SDK object); an unknown type is an
    `UnknownRequiredAction`. Raises `ItemError` naming the field and rule."""
    return _parse_action(data)  # type: ignore[no-any-return]


def _object(data: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        got = "null" if data is None else type(data).__name__
        raise ItemError(
            [{"loc": (), "type": "object_type", "msg": f"a {what} must be a JSON object, got {got}"}], f"invalid {what}"
        )
    return data


def _parse_action(data: Any, index: int | None = None) -> Any:
    try:
        data = plain_value(data)
    except ItemError as exc:
        # Nesting past MAX_ITEM_DEPTH inside a dict action is left to the arguments depth rule
        # (`check_arguments` reports it as a `too_deep` failure); anything else is not an action.
        if not (isinstance(data, Mapping) and exc.errors and exc.errors[0]["type"] == "too_deep"):
            raise
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
        raise ItemError(session_errors(exc, prefix, data), "invalid required action") from None


def dump(model: Any) -> Any:
    """A model as JSON-ready data, exactly as it was read (`by_alias`, `exclude_unset`)."""
    if isinstance(model, BaseModel):
        return model.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return model


def is_unknown(value: Any) -> bool:
    """True for an event, item or required action of a type not known here: do not act on it."""
    return isinstance(value, UnknownBase)
