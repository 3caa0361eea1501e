"""The Open Responses streaming events: generated models, the tagged unions and their adapters, and
`parse_event` to read one event strictly (spec "Streaming events")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, TypeAlias

from pydantic import Field, TypeAdapter, ValidationError

from replayable._base import WireModel, is_unchecked
from replayable._generated.streaming.error_event import ErrorEvent
from replayable._generated.streaming.error_payload import ErrorPayload
from replayable._generated.streaming.extension_event import ExtensionEvent
from replayable._generated.streaming.response_completed_event import ResponseCompletedEvent
from replayable._generated.streaming.response_content_part_added_event import ResponseContentPartAddedEvent
from replayable._generated.streaming.response_content_part_done_event import ResponseContentPartDoneEvent
from replayable._generated.streaming.response_created_event import ResponseCreatedEvent
from replayable._generated.streaming.response_failed_event import ResponseFailedEvent
from replayable._generated.streaming.response_function_call_arguments_delta_event import (
    ResponseFunctionCallArgumentsDeltaEvent,
)
from replayable._generated.streaming.response_function_call_arguments_done_event import (
    ResponseFunctionCallArgumentsDoneEvent,
)
from replayable._generated.streaming.response_in_progress_event import ResponseInProgressEvent
from replayable._generated.streaming.response_incomplete_event import ResponseIncompleteEvent
from replayable._generated.streaming.response_output_item_added_event import ResponseOutputItemAddedEvent
from replayable._generated.streaming.response_output_item_done_event import ResponseOutputItemDoneEvent
from replayable._generated.streaming.response_output_text_annotation_added_event import (
    ResponseOutputTextAnnotationAddedEvent,
)
from replayable._generated.streaming.response_output_text_delta_event import ResponseOutputTextDeltaEvent
from replayable._generated.streaming.response_output_text_done_event import ResponseOutputTextDoneEvent
from replayable._generated.streaming.response_queued_event import ResponseQueuedEvent
from replayable._generated.streaming.response_reasoning_delta_event import ResponseReasoningDeltaEvent
from replayable._generated.streaming.response_reasoning_done_event import ResponseReasoningDoneEvent
from replayable._generated.streaming.response_reasoning_summary_part_added_event import (
    ResponseReasoningSummaryPartAddedEvent,
)
from replayable._generated.streaming.response_reasoning_summary_part_done_event import (
    ResponseReasoningSummaryPartDoneEvent,
)
from replayable._generated.streaming.response_reasoning_summary_text_delta_event import (
    ResponseReasoningSummaryTextDeltaEvent,
)
from replayable._generated.streaming.response_reasoning_summary_text_done_event import (
    ResponseReasoningSummaryTextDoneEvent,
)
from replayable._generated.streaming.response_refusal_delta_event import ResponseRefusalDeltaEvent
from replayable._generated.streaming.response_refusal_done_event import ResponseRefusalDoneEvent
from replayable._item_json import plain_json
from replayable._json import JSONError, check_value
from replayable._openai_forms import OpenAIStreamLogProb
from replayable._validation import clean_errors
from replayable.items import MAX_ITEM_DEPTH, OPENAI_CONTEXT, ItemError, Provider, is_openai_model, parse_item
from replayable.response import OpenAIResponse, parse_response
from replayable.response import Response as ResponseResource  # one typed response object: replayable.Response

from ._openai_events import OPENAI_EVENT_TYPES, ResponseErrorEvent
from ._stream_codes import StreamError, StreamRule

__all__ = [
    "OPENAI_EVENT_TYPES",
    "SPEC_EVENT_TYPES",
    "TERMINAL_EVENT_TYPES",
    "ErrorEvent",
    "ErrorPayload",
    "ExtensionEvent",
    "ResponseCompletedEvent",
    "ResponseContentPartAddedEvent",
    "ResponseContentPartDoneEvent",
    "ResponseCreatedEvent",
    "ResponseFailedEvent",
    "ResponseFunctionCallArgumentsDeltaEvent",
    "ResponseFunctionCallArgumentsDoneEvent",
    "ResponseInProgressEvent",
    "ResponseIncompleteEvent",
    "ResponseOutputItemAddedEvent",
    "ResponseOutputItemDoneEvent",
    "ResponseOutputTextAnnotationAddedEvent",
    "ResponseOutputTextDeltaEvent",
    "ResponseOutputTextDoneEvent",
    "ResponseQueuedEvent",
    "ResponseReasoningDeltaEvent",
    "ResponseReasoningDoneEvent",
    "ResponseReasoningSummaryPartAddedEvent",
    "ResponseReasoningSummaryPartDoneEvent",
    "ResponseReasoningSummaryTextDeltaEvent",
    "ResponseReasoningSummaryTextDoneEvent",
    "ResponseRefusalDeltaEvent",
    "ResponseRefusalDoneEvent",
    "ResponseResource",
    "OpenAIResponseCompletedEvent",
    "OpenAIResponseCreatedEvent",
    "OpenAIResponseFailedEvent",
    "OpenAIResponseInProgressEvent",
    "OpenAIResponseIncompleteEvent",
    "OpenAIResponseQueuedEvent",
    "SpecStreamEvent",
    "StreamEvent",
    "event_model",
    "parse_event",
    "response_resource_adapter",
    "stream_event_adapter",
]

_LIFECYCLE = (
    ResponseCreatedEvent,
    ResponseQueuedEvent,
    ResponseInProgressEvent,
    ResponseCompletedEvent,
    ResponseFailedEvent,
    ResponseIncompleteEvent,
)
# The events inside a response (not carrying the whole response), the ones the assembler reads often.
_LightMembers: TypeAlias = (
    ResponseOutputItemAddedEvent
    | ResponseOutputItemDoneEvent
    | ResponseContentPartAddedEvent
    | ResponseContentPartDoneEvent
    | ResponseOutputTextDeltaEvent
    | ResponseOutputTextDoneEvent
    | ResponseOutputTextAnnotationAddedEvent
    | ResponseRefusalDeltaEvent
    | ResponseRefusalDoneEvent
    | ResponseReasoningDeltaEvent
    | ResponseReasoningDoneEvent
    | ResponseReasoningSummaryPartAddedEvent
    | ResponseReasoningSummaryPartDoneEvent
    | ResponseReasoningSummaryTextDeltaEvent
    | ResponseReasoningSummaryTextDoneEvent
    | ResponseFunctionCallArgumentsDeltaEvent
    | ResponseFunctionCallArgumentsDoneEvent
    | ErrorEvent
)
_LightEvent: TypeAlias = Annotated[_LightMembers, Field(discriminator="type")]

SpecStreamEvent: TypeAlias = Annotated[
    ResponseCreatedEvent
    | ResponseQueuedEvent
    | ResponseInProgressEvent
    | ResponseCompletedEvent
    | ResponseFailedEvent
    | ResponseIncompleteEvent
    | _LightMembers,
    Field(discriminator="type"),
]
"""One of the 24 Open Responses streaming events, tagged on `type` (spec: the `text/event-stream` oneOf)."""

StreamEvent: TypeAlias = Annotated[SpecStreamEvent | ExtensionEvent, Field(union_mode="left_to_right")]
"""A spec streaming event, or a `slug:name` `ExtensionEvent` kept verbatim."""

stream_event_adapter: TypeAdapter[StreamEvent] = TypeAdapter(StreamEvent)
response_resource_adapter: TypeAdapter[ResponseResource] = TypeAdapter(ResponseResource)
light_event_adapter: TypeAdapter[_LightEvent] = TypeAdapter(_LightEvent)
"""The adapter of the events the assembler reads without building the full model (deltas and the like)."""

SPEC_EVENT_TYPES: frozenset[str] = frozenset(
    m.model_fields["type"].annotation.__args__[0]  # type: ignore[union-attr]
    for m in (
        *_LIFECYCLE,
        ResponseOutputItemAddedEvent,
        ResponseOutputItemDoneEvent,
        ResponseContentPartAddedEvent,
        ResponseContentPartDoneEvent,
        ResponseOutputTextDeltaEvent,
        ResponseOutputTextDoneEvent,
        ResponseOutputTextAnnotationAddedEvent,
        ResponseRefusalDeltaEvent,
        ResponseRefusalDoneEvent,
        ResponseReasoningDeltaEvent,
        ResponseReasoningDoneEvent,
        ResponseReasoningSummaryPartAddedEvent,
        ResponseReasoningSummaryPartDoneEvent,
        ResponseReasoningSummaryTextDeltaEvent,
        ResponseReasoningSummaryTextDoneEvent,
        ResponseFunctionCallArgumentsDeltaEvent,
        ResponseFunctionCallArgumentsDoneEvent,
        ErrorEvent,
    )
)
"""The 24 event types of the spec (2026-04-24)."""
LIFECYCLE_EVENT_TYPES = frozenset(m.model_fields["type"].annotation.__args__[0] for m in _LIFECYCLE)  # type: ignore[union-attr]
"""The response lifecycle events (`response.created`, `.queued`, `.in_progress`, and the terminal ones)."""
TERMINAL_EVENT_TYPES: frozenset[str] = frozenset({"response.completed", "response.failed", "response.incomplete"})
"""Events that end a response; nothing may follow them but `[DONE]`."""
TERMINAL_STATUS = {
    "response.completed": "completed",
    "response.failed": "failed",
    "response.incomplete": "incomplete",
}
"""The response status each terminal event sets."""


# ---------------------------------------------------------------------------------------------------
# OpenAI mode: lifecycle events carry OpenAI's Response (the keys OpenAI leaves out are optional)


class OpenAIResponseCreatedEvent(ResponseCreatedEvent):
    """`response.created` as OpenAI sends it: `response` is an `OpenAIResponse` (OpenAI mode)."""

    response: OpenAIResponse  # type: ignore[assignment]


class OpenAIResponseQueuedEvent(ResponseQueuedEvent):
    """`response.queued` as OpenAI sends it: `response` is an `OpenAIResponse` (OpenAI mode)."""

    response: OpenAIResponse  # type: ignore[assignment]


class OpenAIResponseInProgressEvent(ResponseInProgressEvent):
    """`response.in_progress` as OpenAI sends it: `response` is an `OpenAIResponse` (OpenAI mode)."""

    response: OpenAIResponse  # type: ignore[assignment]


class OpenAIResponseCompletedEvent(ResponseCompletedEvent):
    """`response.completed` as OpenAI sends it: `response` is an `OpenAIResponse` (OpenAI mode)."""

    response: OpenAIResponse  # type: ignore[assignment]


class OpenAIResponseFailedEvent(ResponseFailedEvent):
    """`response.failed` as OpenAI sends it: `response` is an `OpenAIResponse` (OpenAI mode)."""

    response: OpenAIResponse  # type: ignore[assignment]


class OpenAIResponseIncompleteEvent(ResponseIncompleteEvent):
    """`response.incomplete` as OpenAI sends it: `response` is an `OpenAIResponse` (OpenAI mode)."""

    response: OpenAIResponse  # type: ignore[assignment]


def _tag(model: Any) -> str:
    return str(model.model_fields["type"].annotation.__args__[0])


#: Spec event type -> its model; in OpenAI mode the lifecycle events' OpenAI models.
_SPEC_MODELS: dict[str, Any] = {_tag(m): m for m in (*_LIFECYCLE, *_LightMembers.__args__)}
_OPENAI_MODELS: dict[str, Any] = {
    **_SPEC_MODELS,
    **{
        _tag(m): m
        for m in (
            OpenAIResponseCreatedEvent,
            OpenAIResponseQueuedEvent,
            OpenAIResponseInProgressEvent,
            OpenAIResponseCompletedEvent,
            OpenAIResponseFailedEvent,
            OpenAIResponseIncompleteEvent,
        )
    },
}


def event_model(raw: Mapping[str, Any], provider: Provider) -> Any:
    """The model that reads an event object by its `type` (a known type never falls back): a spec event's
    model (in OpenAI mode OpenAI's lifecycle models, and OpenAI's flat `error` event, `ResponseErrorEvent`,
    for an `error` without an `error` object); `ExtensionEvent` for `slug:name` types and, in OpenAI mode,
    OpenAI's un-prefixed own events (their typed models, via `ExtensionEvent`); None for an un-prefixed
    type outside the spec in Open Responses mode, or a `type` that is not a string."""
    etype = raw.get("type")
    if not isinstance(etype, str):
        return None
    if provider == "openai":
        if etype == "error" and "error" not in raw:
            return ResponseErrorEvent
        model = _OPENAI_MODELS.get(etype)
    else:
        model = _SPEC_MODELS.get(etype)
    if model is None and (":" in etype or provider == "openai"):
        return ExtensionEvent
    return model


# ---------------------------------------------------------------------------------------------------
# One event


def coerce_event(data: Any) -> tuple[Any, bool]:
    """Plain JSON for an event given as a dict, JSON text, our model or an openai SDK event (flagged)."""
    try:
        return plain_json(data, "event"), is_openai_model(data)
    except ItemError as exc:
        raise StreamError(
            StreamRule.EVENT_SCHEMA,
            f"an event must be a JSON object: {exc.errors[0]['msg']}",
            errors=[{**e, "msg": f"an event must be a JSON object: {e['msg']}"} for e in exc.errors[:1]],
        ) from None


def event_schema_errors(exc: ValidationError, raw: Any, *, one_model: bool = False) -> list[dict[str, Any]]:
    """The cleaned errors (`{"loc", "type", "msg"}`, by the one normalizer `clean_errors`) of an event
    that failed validation, as `StreamError.errors` carries them. A value that is not JSON at all (a lone
    surrogate, NaN, a set, nesting past `MAX_ITEM_DEPTH`) is named first: it is the cause, and pydantic
    cannot even render some of those in its messages. `one_model`: `exc` comes from the event's own model
    (not a union tagged on `type`), so no path segment is a tag, not even one equal to the event's type
    (the `error` field of an `error` event)."""
    try:
        check_value(raw, what="event", max_depth=MAX_ITEM_DEPTH)  # the one strict reader's rules
    except JSONError as why:
        return [{"loc": (), "type": "not_json", "msg": why.detail}]
    errs = clean_errors(exc, {**raw, "type": None} if one_model and isinstance(raw, Mapping) else raw)
    return [{**e, "msg": _why(e)} for e in errs]


def event_schema_message(
    exc: ValidationError, raw: Any, errs: list[dict[str, Any]] | None = None, *, one_model: bool = False
) -> str:
    """One line naming the first five errors of an event that failed validation (`event_schema_errors`)."""
    errs = event_schema_errors(exc, raw, one_model=one_model) if errs is None else errs
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'event'}: {e['msg']}" for e in errs[:5])


def _why(error: Mapping[str, Any]) -> str:
    """An error's message; a negative stream index also says why it is refused (a deliberate difference)."""
    loc = error.get("loc") or ()
    if error.get("type") == "greater_than_equal" and loc and str(loc[-1]).endswith("_index"):
        return (
            f"{error['msg']} (an index is a position in a list, never negative: refused by choice, although "
            "the official document and the openai SDK set no minimum; see schemas/README.md)"
        )
    return str(error["msg"])


def parse_event(data: Any, *, provider: Provider = None) -> StreamEvent:
    """Read one streaming event strictly into its model (spec "Streaming events").

    `data` is a dict, JSON text, one of our event models (returned as is) or an `openai` SDK event
    (which implies `provider="openai"`). A `slug:name` type gives an `ExtensionEvent`; with
    `provider="openai"` un-prefixed non-spec types (`response.reasoning_text.delta`) give an
    `ExtensionEvent` typed `openai:<type>` that dumps back un-prefixed. OpenAI's own events
    (`OPENAI_EVENT_TYPES`: `response.mcp_call_arguments.delta`, ...) give their typed model, a subclass
    of `ExtensionEvent`, prefixed or (OpenAI mode) not. A known type is read by its own model only, never
    by a fallback (`event_model`): a malformed spec event is an `event_schema` error naming each field and
    rule (`delta: Input should be a valid string`, `sequence_number: Field required`). Lifecycle events
    need a complete `ResponseResource` snapshot in Open Responses mode; with `provider="openai"` they are
    `OpenAIResponse*Event`s whose `response` is an `OpenAIResponse` (OpenAI's snapshot, the keys it leaves
    out optional, as `parse_response(..., provider="openai")` reads it), and an `error` event without an
    `error` object is OpenAI's flat `ResponseErrorEvent` (`code`, `message`, `param`). The assembler reads
    snapshots leniently.

    Raises `StreamError` (rule `unknown_event` for an un-prefixed type outside the spec in Open Responses
    mode and, in every mode, for an OpenAI Agents API `agent.*` event; else `event_schema`) naming the
    event's sequence_number; its `.errors` list each problem as `{"loc", "type", "msg"}` (`ItemError.errors`'
    shape), `loc` a path into the event.
    """
    if (
        isinstance(data, ExtensionEvent)
        or (isinstance(data, WireModel) and type(data).__module__.startswith("replayable._generated.streaming"))
    ) and not is_unchecked(data):  # one that skipped validation (`model_construct`) is read again from its JSON
        return data  # type: ignore[return-value]
    raw, sdk = coerce_event(data)
    if sdk:
        provider = "openai"
    etype, seq = peek_event(raw)
    if not isinstance(raw, Mapping):
        msg = f"an event must be a JSON object, got {type(raw).__name__}"
        raise StreamError(StreamRule.EVENT_SCHEMA, msg, errors=[{"loc": (), "type": "model_type", "msg": msg}])
    if isinstance(etype, str) and etype.startswith("agent.") and ":" not in etype:  # in every mode
        msg = (
            f"'{etype}' is an OpenAI Agents API event, not a Responses stream event: this is an Agents API "
            "event log, check it with --agents (replayable.agents.check_event_log)"
        )
        raise StreamError(
            StreamRule.UNKNOWN_EVENT, msg, sequence_number=seq, event_type=etype,
            errors=[{"loc": ("type",), "type": "unknown_event", "msg": msg}],
        )  # fmt: skip
    model = event_model(raw, provider)
    if model is None:
        if etype is None:
            got = "missing" if "type" not in raw else f"a {type(raw['type']).__name__}"
            why = f"an event needs a string 'type' (a spec event type, or slug:name), got {got}"
            code = "missing" if "type" not in raw else "string_type"
            raise StreamError(
                StreamRule.EVENT_SCHEMA,
                f"type: {why}",
                sequence_number=seq,
                errors=[{"loc": ("type",), "type": code, "msg": why}],
            )
        why = f"unknown event type '{etype}': events outside the spec must be named slug:name"
        raise StreamError(
            StreamRule.UNKNOWN_EVENT,
            why,
            sequence_number=seq,
            event_type=etype,
            errors=[{"loc": ("type",), "type": str(StreamRule.UNKNOWN_EVENT), "msg": why}],
        )
    ctx = OPENAI_CONTEXT if provider == "openai" else None
    try:
        event: StreamEvent = model.model_validate(raw, context=ctx)
    except ValidationError as exc:
        one = model is not ExtensionEvent and not issubclass(model, ExtensionEvent)
        errs = event_schema_errors(exc, raw, one_model=one)
        seen = {(tuple(e["loc"]), e["type"]) for e in errs}  # every problem at once, the item's or part's too
        errs += [e for e in nested_errors(raw, provider) if (tuple(e["loc"]), e["type"]) not in seen]
        raise StreamError(
            StreamRule.EVENT_SCHEMA,
            event_schema_message(exc, raw, errs),
            sequence_number=seq,
            event_type=etype,
            errors=errs,
        ) from None
    errs = nested_errors(raw, provider)
    if errs:
        where = "; ".join(".".join(map(str, e["loc"])) + f": {e['msg']}" for e in errs[:5])
        raise StreamError(StreamRule.EVENT_SCHEMA, where, sequence_number=seq, event_type=etype, errors=errs)
    return event


# ---------------------------------------------------------------------------------------------------
# The values an event carries as JSON objects (the source schemas keep them objects: no cross-folder
# `$ref`), read by the one item reader (or response reader), as the official document types them

_MESSAGE = {"type": "message", "id": "msg", "status": "in_progress", "role": "assistant"}
_TEXT = {"type": "output_text", "text": "", "annotations": []}
Host = tuple[Any, tuple[Any, ...]]


def _as_item(value: Any) -> Host:
    return value, ()


def _as_part(value: Any) -> Host:
    return {**_MESSAGE, "content": [value]}, ("content", 0)


def _as_annotation(value: Any) -> Host:
    return {**_MESSAGE, "content": [{**_TEXT, "annotations": [value]}]}, ("content", 0, "annotations", 0)


def _as_logprobs(value: Any) -> Host:
    return {**_MESSAGE, "content": [{**_TEXT, "logprobs": value}]}, ("content", 0, "logprobs")


#: Event type -> (the field holding a nested value, how to host that value in an output item; None: the
#: value is a Response snapshot, read by `parse_response`). The official document types these fields:
#: `item` an `ItemField` (or null), `part` a content part, `annotation` an `Annotation` (or null),
#: `logprobs` a list of `LogProb`, a lifecycle event's `response` a `ResponseResource`.
_NESTED: dict[str, tuple[str, Any]] = {
    "response.output_item.added": ("item", _as_item),
    "response.output_item.done": ("item", _as_item),
    "response.content_part.added": ("part", _as_part),
    "response.content_part.done": ("part", _as_part),
    "response.reasoning_summary_part.added": ("part", _as_part),
    "response.reasoning_summary_part.done": ("part", _as_part),
    "response.output_text.annotation.added": ("annotation", _as_annotation),
    "response.output_text.delta": ("logprobs", _as_logprobs),
    "response.output_text.done": ("logprobs", _as_logprobs),
    **{_tag(m): ("response", None) for m in _LIFECYCLE},
}

NESTED_VALUE_FIELDS: dict[str, str] = {etype: field for etype, (field, _) in _NESTED.items()}
"""Event type -> the field that holds a value read by the item or response reader (`nested_errors`)."""


_OPENAI_LOGPROBS: TypeAdapter[list[OpenAIStreamLogProb]] = TypeAdapter(list[OpenAIStreamLogProb])


def nested_errors(raw: Mapping[str, Any], provider: Provider) -> list[dict[str, Any]]:
    """The errors (`{"loc", "type", "msg"}`, located in the event) of the value a spec event carries as a
    JSON object: an output_item event's `item` read as an output item (`parse_item(item, side="output")`),
    a content part event's `part` as a part of an output message, an annotation event's `annotation`, an
    output_text event's `logprobs` (Open Responses mode: OpenAI streams its own logprob shape), each read
    inside a minimal output message by the same reader, and (Open
    Responses mode; OpenAI mode's lifecycle models type it already) a lifecycle event's `response` by
    `parse_response`. Empty when the event has no such value, or when it is not an object (or list) at all
    (the event's own model reports that)."""
    nested = _NESTED.get(raw.get("type"))  # type: ignore[arg-type]
    if nested is None:
        return []
    field, host = nested
    value = raw.get(field)
    if field == "logprobs" and provider == "openai":  # OpenAI streams its own shape: {token, logprob, top_logprobs}
        if not isinstance(value, list) or value == []:
            return []
        try:
            _OPENAI_LOGPROBS.validate_python(value)
        except ValidationError as exc:
            return [{**e, "loc": (field, *tuple(e["loc"]))} for e in clean_errors(exc, value)]
        return []
    if not isinstance(value, Mapping if field != "logprobs" else list) or value == []:
        return []
    try:
        if host is None:
            if provider is None:
                parse_response(value)
            return []
        item, at = host(value)
        parse_item(item, side="output", provider=provider)
    except ItemError as exc:
        n = 0 if host is None else len(at)
        return [{**e, "loc": (field, *tuple(e["loc"])[n:])} for e in exc.errors]
    return []


def peek_event(raw: Any) -> tuple[str | None, int | None]:
    """An event's `type` and `sequence_number` when they have the right JSON types, else None for each."""
    if not isinstance(raw, Mapping):
        return None, None
    t = raw.get("type")
    s = raw.get("sequence_number")
    return (t if isinstance(t, str) else None), (s if type(s) is int else None)
