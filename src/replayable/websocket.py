"""The spec's WebSocket mode (Open Responses 2026-04-24, added in that version): the client's
`response.create` message and the server's error envelope.

Over a WebSocket the client starts a turn with `WebSocketResponseCreateEvent`, the `POST /responses` body
plus `type: "response.create"`, and without the HTTP fields `stream`, `stream_options` and `background`
(the socket itself streams; the spec marks them `x-openresponses-disallowed`). The server answers with the
usual streaming events (read them with `replayable.stream.parse_event` / `StreamAssembler`) or with
`WebSocketErrorEvent` `{type: "error", status, error: {code, message, type?, param?}}`.

`parse_websocket_event(data)` reads either of the two; `replayable.json_schema("websocket-events")` is
the same contract as a JSON Schema bundle (strict Open Responses).

With `provider="openai"` it reads OpenAI's own WebSocket messages (`openai.types.responses`
`ResponsesClientEvent`, and the members of `ResponsesServerEvent` that only a socket sends):

- `response.create` (`OpenAIWebSocketResponseCreateEvent`): OpenAI's request body (as
  `parse_request(..., provider="openai")` reads it) plus `type` and the socket's lane `stream_id`.
  `stream`, `stream_options` and `background` are refused here too: OpenAI's own reference says `stream`
  is implicit over a socket and must not be sent and `background` is not supported there (the SDK's model
  still types them);
- `response.steer` (`OpenAIWebSocketSteerEvent`): `previous_response_id` and `input` (a string or input
  items, read as OpenAI input items);
- `error` (`OpenAIWebSocketErrorEvent`): OpenAI's envelope `{type, error: {type, message, code?, param?,
  headers?, misalignment?}, status?, sequence_number?, stream_id?}`;
- `response.steer.accepted`, `.pending`, `.failed` (`OpenAIWebSocketSteerAcceptedEvent`, ...).

The other server messages are the streaming events with the lane's `stream_id`: read them with
`replayable.stream.parse_event(..., provider="openai")`, which keeps `stream_id`; here they are refused
with that pointer (`stream_event_on_socket`), never read as something else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeAlias

from pydantic import model_validator
from pydantic.experimental.missing_sentinel import MISSING
from pydantic_core import PydanticCustomError

from ._base import WireModel, checked_provider, is_unchecked
from ._body_validation import models_as_json, validate_body
from ._chat_shapes import refuse_chat_completions_body
from ._generated.open_responses.common import LongText
from ._generated.open_responses.websocket_error_event import WebSocketErrorEvent, WebSocketErrorPayload
from ._generated.open_responses.websocket_response_create_event import (
    WebSocketResponseCreateEvent as _WebSocketResponseCreateEvent,
)
from ._item_json import plain_json
from ._messages import OPTIONS, Said
from .items import ItemError, OpenAIInputItem, Provider
from .request import MAX_BODY_DEPTH, OpenAICreateResponseBody

__all__ = [
    "DISALLOWED_FIELDS",
    "OPENAI_WEBSOCKET_TYPES",
    "OpenAIWebSocketErrorEvent",
    "OpenAIWebSocketErrorPayload",
    "OpenAIWebSocketEvent",
    "OpenAIWebSocketRequiredInput",
    "OpenAIWebSocketResponseCreateEvent",
    "OpenAIWebSocketSteer",
    "OpenAIWebSocketSteerAcceptedEvent",
    "OpenAIWebSocketSteerEvent",
    "OpenAIWebSocketSteerFailedEvent",
    "OpenAIWebSocketSteerFailedSteer",
    "OpenAIWebSocketSteerFailure",
    "OpenAIWebSocketSteerPendingEvent",
    "WebSocketErrorEvent",
    "WebSocketErrorPayload",
    "WebSocketEvent",
    "WebSocketResponseCreateEvent",
    "parse_websocket_event",
]

#: The HTTP fields a WebSocket `response.create` message MUST NOT carry (spec `x-openresponses-disallowed`).
DISALLOWED_FIELDS = ("stream", "stream_options", "background")


def _disallowed_message(field: str) -> str:
    return (
        f"'{field}' is not allowed in a WebSocket response.create message: it is an HTTP field and the socket "
        "itself streams (spec WebSocketResponseCreateEvent); drop it"
    )


def _refuse_http_fields(data: Any) -> Any:
    """A model's `before` validator: `stream`, `stream_options` and `background` are refused, at their field."""
    if isinstance(data, Mapping):
        for field in DISALLOWED_FIELDS:
            if field in data:
                raise PydanticCustomError("websocket_disallowed", _disallowed_message(field), {"field": field})
    return data


class WebSocketResponseCreateEvent(_WebSocketResponseCreateEvent):
    """A client `response.create` message of the WebSocket mode: a `CreateResponseBody` with `type`, and
    never `stream`, `stream_options` or `background` (building one with them raises too)."""

    @model_validator(mode="before")
    @classmethod
    def _refuse_http_fields(cls, data: Any) -> Any:
        return _refuse_http_fields(data)


WebSocketEvent: TypeAlias = WebSocketResponseCreateEvent | WebSocketErrorEvent
"""A WebSocket-mode message: the client's `response.create` or the server's error envelope."""


# ---- OpenAI mode: OpenAI's own WebSocket messages (openai.types.responses ResponsesClientEvent / ServerEvent) ----


class OpenAIWebSocketResponseCreateEvent(OpenAICreateResponseBody):
    """OpenAI's client `response.create` message (SDK `ResponseCreate`): OpenAI's request body plus `type`
    and the lane `stream_id`; never `stream`, `stream_options` or `background` (OpenAI: `stream` is implicit
    over a socket, `background` is not supported there)."""

    type: Literal["response.create"] = "response.create"
    """Always `response.create`."""
    stream_id: str | None | MISSING = MISSING
    """The socket lane: requests of one lane run in order, and the response's events echo it."""

    @model_validator(mode="before")
    @classmethod
    def _refuse_http_fields(cls, data: Any) -> Any:
        return _refuse_http_fields(data)


class OpenAIWebSocketSteerEvent(WireModel):
    """OpenAI's client `response.steer` message (SDK `ResponseSteerEvent`): input queued for a running
    response of this socket. OpenAI accepts only `type`, `previous_response_id` and `input`."""

    type: Literal["response.steer"] = "response.steer"
    """Always `response.steer`."""
    previous_response_id: str
    """The response to steer."""
    input: LongText | list[OpenAIInputItem]
    """A string, or input items (user messages; tool outputs for the stubs of `response.steer.pending`)."""


class OpenAIWebSocketErrorPayload(WireModel):
    """The `error` of OpenAI's WebSocket error message (SDK `ResponseWsErrorError`)."""

    type: str
    """The error type."""
    message: str
    """What went wrong, for people."""
    code: str | None | MISSING = MISSING
    """The error code, if any."""
    param: str | None | MISSING = MISSING
    """The request parameter the error is about, if any."""
    headers: dict[str, str] | None | MISSING = MISSING
    """The response headers sent with the error, if any."""
    misalignment: dict[str, Any] | None | MISSING = MISSING
    """A safety review's explanation, kept as sent (its values may grow)."""


class OpenAIWebSocketErrorEvent(WireModel):
    """OpenAI's WebSocket `error` message (SDK `ResponseWsError`): the spec's envelope with OpenAI's own
    fields (`status`, `sequence_number` and `stream_id` optional; `error.type` required)."""

    type: Literal["error"] = "error"
    """Always `error`."""
    error: OpenAIWebSocketErrorPayload
    """What went wrong."""
    status: int | None | MISSING = MISSING
    """The HTTP status of a protocol error."""
    sequence_number: int | None | MISSING = MISSING
    """The position of an error sent by a response's stream."""
    stream_id: str | None | MISSING = MISSING
    """The lane of the `response.create` that led to the error, when it named one."""


class OpenAIWebSocketSteer(WireModel):
    """Which steering input an acknowledgement is about."""

    id: str
    """The steering input's id."""
    previous_response_id: str
    """The response it steers."""


class OpenAIWebSocketSteerAcceptedEvent(WireModel):
    """`response.steer.accepted`: the server holds the steering input (it is not applied yet)."""

    type: Literal["response.steer.accepted"] = "response.steer.accepted"
    """Always `response.steer.accepted`."""
    sequence_number: int
    """The event's position in the socket's stream."""
    steer: OpenAIWebSocketSteer
    """The steering input accepted."""
    stream_id: str | None | MISSING = MISSING
    """The lane, when the response has one."""


class OpenAIWebSocketRequiredInput(WireModel):
    """A stub of `response.steer.pending`: which output or approval answer to send (`function_call_output`
    with `call_id` and `name`, `mcp_approval_response` with `approval_request_id`, ...; other keys kept)."""

    type: str
    """The item type to send back (`function_call_output`, `shell_call_output`, `mcp_approval_response`, ...)."""
    call_id: str | MISSING = MISSING
    """The call the output answers (tool outputs)."""
    approval_request_id: str | MISSING = MISSING
    """The approval request the answer is for (`mcp_approval_response`)."""


class OpenAIWebSocketSteerPendingEvent(WireModel):
    """`response.steer.pending`: accepted steering input waits for the client's tool outputs or approvals;
    `required_input` holds their stubs (`{type, call_id, ...}`, kept as sent)."""

    type: Literal["response.steer.pending"] = "response.steer.pending"
    """Always `response.steer.pending`."""
    reason: str
    """Why the input waits (`waiting_for_required_input`; other values may come)."""
    required_input: list[OpenAIWebSocketRequiredInput]
    """Stubs of the outputs and approval answers to send back with `response.create`."""
    sequence_number: int
    """The event's position in the socket's stream."""
    steer: OpenAIWebSocketSteer
    """The steering input that waits."""
    stream_id: str | None | MISSING = MISSING
    """The lane, when the response has one."""


class OpenAIWebSocketSteerFailure(WireModel):
    """Why steering input could not be committed."""

    type: str
    """The error type (`invalid_request_error`)."""
    code: str
    """`response_not_found`, `invalid_input`, `steering_not_supported`, ... (other values may come)."""
    message: str
    """What went wrong, for people."""


class OpenAIWebSocketSteerFailedSteer(WireModel):
    """The steering input returned by `response.steer.failed`."""

    previous_response_id: str
    """The response it was meant to steer."""
    input: LongText | list[OpenAIInputItem]
    """The input returned, as sent."""
    id: str | None | MISSING = MISSING
    """The steering input's id, when it had one."""


class OpenAIWebSocketSteerFailedEvent(WireModel):
    """`response.steer.failed`: steering input that could not be committed, returned to the client."""

    type: Literal["response.steer.failed"] = "response.steer.failed"
    """Always `response.steer.failed`."""
    error: OpenAIWebSocketSteerFailure
    """Why it failed."""
    sequence_number: int
    """The event's position in the socket's stream."""
    steer: OpenAIWebSocketSteerFailedSteer
    """The input returned."""
    stream_id: str | None | MISSING = MISSING
    """The lane, when the response has one."""


OpenAIWebSocketEvent: TypeAlias = (
    OpenAIWebSocketResponseCreateEvent
    | OpenAIWebSocketSteerEvent
    | OpenAIWebSocketErrorEvent
    | OpenAIWebSocketSteerAcceptedEvent
    | OpenAIWebSocketSteerPendingEvent
    | OpenAIWebSocketSteerFailedEvent
)
"""A message only OpenAI's WebSocket mode sends: the client's `response.create` and `response.steer`, the
server's `error` and steering acknowledgements."""

_OPENAI_MODELS: dict[str, type[WireModel]] = {
    "response.create": OpenAIWebSocketResponseCreateEvent,
    "response.steer": OpenAIWebSocketSteerEvent,
    "error": OpenAIWebSocketErrorEvent,
    "response.steer.accepted": OpenAIWebSocketSteerAcceptedEvent,
    "response.steer.pending": OpenAIWebSocketSteerPendingEvent,
    "response.steer.failed": OpenAIWebSocketSteerFailedEvent,
}
OPENAI_WEBSOCKET_TYPES = frozenset(_OPENAI_MODELS)
"""The `type`s `parse_websocket_event(..., provider="openai")` reads (the socket-only messages)."""


def parse_websocket_event(data: Any, *, provider: Provider = None) -> WebSocketEvent | OpenAIWebSocketEvent:
    """Parse one WebSocket-mode message: `{"type": "response.create", ...}` (the request body plus `type`)
    or the server's `{"type": "error", "status", "error": {code, message, ...}}`; with `provider="openai"`,
    OpenAI's own socket messages (`OPENAI_WEBSOCKET_TYPES`: `response.create` with `stream_id`,
    `response.steer`, OpenAI's `error`, `response.steer.accepted` / `.pending` / `.failed`).

    `data` is a dict, JSON text or bytes, or one of the models (returned as is); an `openai` SDK event
    implies `provider="openai"`. Raises `ItemError` naming the field and rule: `websocket_disallowed` for
    `stream`, `stream_options` or `background` in a `response.create` message (loc `("stream",)`, ...; in
    both modes), `chat_completions_body` for a Chat Completions body, `unknown_websocket_type` for any other
    `type`, `stream_event_on_socket` (OpenAI mode) for a streaming event (read it with
    `replayable.stream.parse_event(..., provider="openai")`), and the message's own field errors; a
    `ValueError` for a `provider` other than None or "openai". Spec: Open Responses 2026-04-24,
    `WebSocketResponseCreateEvent`, `WebSocketErrorEvent`; OpenAI: `openai.types.responses`
    `ResponsesClientEvent`, `ResponsesServerEvent`.
    """
    checked_provider(provider)
    if isinstance(data, (WebSocketResponseCreateEvent, WebSocketErrorEvent, *_OPENAI_MODELS.values())) and not (
        is_unchecked(data)  # one that skipped validation (`model_construct`) is read again from its JSON
    ):
        return data  # type: ignore[return-value]
    if type(data).__module__.startswith("openai.") or isinstance(data, tuple(_OPENAI_MODELS.values())):
        provider = "openai"
    if isinstance(data, Mapping):  # the models a dict event holds (a parsed item, a tool) are read as their JSON
        data, held_sdk = models_as_json(data, "invalid WebSocket event")
        if held_sdk:  # as `parse_request` reads the same body
            provider = "openai"
    raw = plain_json(data, "WebSocket event", max_depth=MAX_BODY_DEPTH)
    if not isinstance(raw, Mapping):
        got = "null" if raw is None else type(raw).__name__
        raise ItemError(
            [{"loc": (), "type": "model_type", "msg": f"a WebSocket event must be a JSON object, got {got}"}],
            title="invalid WebSocket event",
        )
    t = raw.get("type")
    if provider == "openai":
        return _parse_openai(raw, t)
    if t == "response.create":
        _refuse_create_fields(raw)  # a request body plus `type`
        event: WebSocketResponseCreateEvent = validate_body(
            raw, WebSocketResponseCreateEvent, WebSocketResponseCreateEvent, None, "WebSocket response.create event"
        )
        return event
    if t == "error":
        err: WebSocketErrorEvent = validate_body(raw, WebSocketErrorEvent, WebSocketErrorEvent, None, "WebSocket error")
        return err
    shown = repr(t) if isinstance(t, str) else f"of type {type(t).__name__}" if "type" in raw else "missing"
    openai_type = isinstance(t, str) and t in OPENAI_WEBSOCKET_TYPES
    hint = Said(" (an OpenAI WebSocket message: read it with ", OPTIONS["provider"], ")") if openai_type else ""
    raise ItemError(
        [
            {
                "loc": ("type",),
                "type": "unknown_websocket_type",
                "msg": f"type {shown}{hint}: a WebSocket-mode message here is 'response.create' (client) or "
                "'error' (server); the server's streaming events are read by replayable.stream.parse_event",
            }
        ],
        title="invalid WebSocket event",
    )


def _refuse_create_fields(raw: Mapping[str, Any]) -> None:
    """A socket's `response.create` is a request body plus `type`: refuse the fields a socket does not
    allow (`stream`, `stream_options`, `background`) and a Chat Completions body, in both modes."""
    bad = [f for f in DISALLOWED_FIELDS if f in raw]
    if bad:
        raise ItemError(
            [{"loc": (f,), "type": "websocket_disallowed", "msg": _disallowed_message(f)} for f in bad],
            title="invalid WebSocket response.create event",
        )
    refuse_chat_completions_body({k: v for k, v in raw.items() if k != "type"})


def _parse_openai(raw: Mapping[str, Any], t: Any) -> OpenAIWebSocketEvent:
    """OpenAI mode of `parse_websocket_event`: one of OpenAI's socket-only messages, by its `type`."""
    model = _OPENAI_MODELS.get(t) if isinstance(t, str) else None
    if model is None:
        streamed = isinstance(t, str) and (t.startswith("response.") or ":" in t)
        shown = repr(t) if isinstance(t, str) else f"of type {type(t).__name__}" if "type" in raw else "missing"
        msg = (
            f"type {shown} is a streaming event: over OpenAI's socket it carries the lane's stream_id and is "
            "read by replayable.stream.parse_event(..., provider='openai')"
            if streamed
            else f"type {shown}: OpenAI's WebSocket messages read here are " + ", ".join(sorted(_OPENAI_MODELS))
        )
        code = "stream_event_on_socket" if streamed else "unknown_websocket_type"
        raise ItemError([{"loc": ("type",), "type": code, "msg": msg}], title="invalid WebSocket event")
    if t == "response.create":
        _refuse_create_fields(raw)
    event: OpenAIWebSocketEvent = validate_body(raw, model, model, "openai", f"WebSocket {t} event")
    return event
