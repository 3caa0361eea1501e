"""The spec's WebSocket mode (Open Responses 2026-04-24, added in that version): the client's
`response.create` message and the server's error envelope.

Over a WebSocket the client starts a turn with `WebSocketResponseCreateEvent`, the `POST /responses` body
plus `type: "response.create"`, and without the HTTP fields `stream`, `stream_options` and `background`
(the socket itself streams; the spec marks them `x-openresponses-disallowed`). The server answers with the
usual streaming events (read them with `replayable.stream.parse_event` / `StreamAssembler`) or with
`WebSocketErrorEvent` `{type: "error", status, error: {code, message, type?, param?}}`.

`parse_websocket_event(data)` reads either of the two; `replayable.json_schema("websocket-events")` is
the same contract as a JSON Schema bundle. Strict Open Responses only (no `provider`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

from pydantic import model_validator
from pydantic_core import PydanticCustomError

from ._generated.open_responses.websocket_error_event import WebSocketErrorEvent, WebSocketErrorPayload
from ._generated.open_responses.websocket_response_create_event import (
    WebSocketResponseCreateEvent as _WebSocketResponseCreateEvent,
)
from .chat_shapes import refuse_chat_completions_body
from .items import ItemError, plain_json
from .request import MAX_BODY_DEPTH, validate_body

__all__ = [
    "DISALLOWED_FIELDS",
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


class WebSocketResponseCreateEvent(_WebSocketResponseCreateEvent):
    """A client `response.create` message of the WebSocket mode: a `CreateResponseBody` with `type`, and
    never `stream`, `stream_options` or `background` (building one with them raises too)."""

    @model_validator(mode="before")
    @classmethod
    def _refuse_http_fields(cls, data: Any) -> Any:
        if isinstance(data, Mapping):
            for field in DISALLOWED_FIELDS:
                if field in data:
                    raise PydanticCustomError("websocket_disallowed", _disallowed_message(field))
        return data


WebSocketEvent: TypeAlias = WebSocketResponseCreateEvent | WebSocketErrorEvent
"""A WebSocket-mode message: the client's `response.create` or the server's error envelope."""


def parse_websocket_event(data: Any) -> WebSocketEvent:
    """Parse one WebSocket-mode message: `{"type": "response.create", ...}` (the request body plus `type`)
    or the server's `{"type": "error", "status", "error": {code, message, ...}}`.

    `data` is a dict, JSON text or bytes, or one of the two models (returned as is). Raises `ItemError`
    naming the field and rule: `websocket_disallowed` for `stream`, `stream_options` or `background` in a
    `response.create` message (loc `("stream",)`, ...), `chat_completions_body` for a Chat Completions
    body, `unknown_websocket_type` for any other `type` (the server's streaming events are read by
    `replayable.stream.parse_event`), and the body's own field errors. Spec: Open Responses 2026-04-24,
    `WebSocketResponseCreateEvent`, `WebSocketErrorEvent`.
    """
    if isinstance(data, WebSocketResponseCreateEvent | WebSocketErrorEvent):
        return data
    raw = plain_json(data, "WebSocket event", max_depth=MAX_BODY_DEPTH)
    if not isinstance(raw, Mapping):
        got = "null" if raw is None else type(raw).__name__
        raise ItemError(
            [{"loc": (), "type": "model_type", "msg": f"a WebSocket event must be a JSON object, got {got}"}],
            title="invalid WebSocket event",
        )
    t = raw.get("type")
    if t == "response.create":
        bad = [f for f in DISALLOWED_FIELDS if f in raw]
        if bad:
            raise ItemError(
                [{"loc": (f,), "type": "websocket_disallowed", "msg": _disallowed_message(f)} for f in bad],
                title="invalid WebSocket response.create event",
            )
        refuse_chat_completions_body({k: v for k, v in raw.items() if k != "type"})  # a request body plus `type`
        event: WebSocketResponseCreateEvent = validate_body(
            raw, WebSocketResponseCreateEvent, WebSocketResponseCreateEvent, None, "WebSocket response.create event"
        )
        return event
    if t == "error":
        err: WebSocketErrorEvent = validate_body(raw, WebSocketErrorEvent, WebSocketErrorEvent, None, "WebSocket error")
        return err
    shown = repr(t) if isinstance(t, str) else f"of type {type(t).__name__}" if "type" in raw else "missing"
    raise ItemError(
        [
            {
                "loc": ("type",),
                "type": "unknown_websocket_type",
                "msg": f"type {shown}: a WebSocket-mode message here is 'response.create' (client) or 'error' "
                "(server); the server's streaming events are read by replayable.stream.parse_event",
            }
        ],
        title="invalid WebSocket event",
    )
