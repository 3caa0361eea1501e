"""Open Responses streaming: typed events, SSE reading, and an assembler that enforces the stream rules.

Apps read most responses as a stream of server-sent events; the replay rules start there. A function
call arrives as `response.function_call_arguments.delta` text and is a call only once its item is
`completed`. This module gives:

- the 24 spec streaming events as generated models (`ResponseCreatedEvent`, ..., `ErrorEvent`), tagged
  on `type`, plus `ExtensionEvent` for `slug:name` events (kept verbatim, ignorable), and the
  `ResponseResource` object; `StreamEvent` / `stream_event_adapter` / `parse_event` read one event;
- `parse_sse`: SSE bytes, text or lines -> event dicts (spec "Streaming": `event:` equals `type`,
  `data: [DONE]` ends the stream);
- `StreamAssembler`: feed events, get finished items as they complete and the final response, with
  every streaming rule checked (spec "Items are state machines", "Items are streamable");
- `check_stream`: both the stream rules and the replay rules of the items (used by `replayable check`).

Rules (`StreamRule`), and what breaks them. Strict mode raises `StreamError` at the offending event;
lenient mode (`strict=False`) records a `StreamWarning` with `violation=True` and goes on. Notes marked
*note* are never errors (not even in strict mode): `StreamWarning` with `violation=False`.

- `event_schema`: an event does not match its spec model (missing field, wrong type).
- `unknown_event`: an un-prefixed `type` that is not a spec event (extension events must be `slug:name`;
  with `provider="openai"` such events are OpenAI's own and are read as `openai:` extension events).
- `event_name`: the SSE `event:` line differs from the body's `type`.
- `sequence_order`: `sequence_number` not strictly increasing.
- `sequence_missing`: an event without `sequence_number` (error in strict Open Responses mode; a *note*,
  once per stream, with `provider="openai"`: OpenAI's streams before mid-2025 had none).
- `not_added`: an event for an `output_index` never announced by `response.output_item.added`
  (or whose `item_id` is not that item's id: `item_id`).
- `added_twice`: a second `response.output_item.added` for one `output_index`.
- `after_done`: any event for an item after its `response.output_item.done` ("no updates after
  completed").
- `item_schema`: the item of `output_item.added` / `.done` is not a valid output item.
- `item_changed`: the done item's `type`, `id`, `call_id` or `name` differs from the added item's.
- `done_status`: an `output_item.done` spec item whose `status` is still `in_progress`.
- `wrong_item`: argument events for an item that is not a `function_call`, content events for an item
  without content (reasoning summary events for a non-reasoning item).
- `part_order`: a delta or done for a content/summary part never added, already done, or added twice.
- `text_mismatch`: a `*.done` text, a `content_part.done` part, or the done item's content that
  differs from the concatenated deltas.
- `arguments_mismatch`: `function_call_arguments.done` (or the done item's `arguments`) differs from the
  concatenated argument deltas.
- `after_incomplete`: an item added after an `incomplete` item (which must be the last one).
- `response_status`: a terminal event whose status disagrees with its items (`response.completed`
  with an `incomplete` item or an item never done) or with its own snapshot's `status`.
- `after_terminal`: an event after `response.completed` / `failed` / `incomplete`.
- `snapshot_mismatch`: the terminal snapshot's `output` disagrees with the streamed items on types,
  call_ids, names, arguments or message text (paired by `output_index`). Ids, `encrypted_content` and
  other fields are not compared: real providers refresh `encrypted_content` at completion and rename
  reasoning ids between the stream and the snapshot.
- `snapshot_schema` (*note*): the terminal snapshot is not a complete `ResponseResource` (real ones
  often miss keys); `asm.resource` is then None.
- `no_terminal`: `close()` was called before any terminal event.

Never rules: items finishing out of `output_index` order (the spec does not order them), extension
events (ignored, only their `sequence_number` counts), `encrypted_content` present on `added` or
changed at `done`, a part without any delta (empty text).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import IO, Annotated, Any, TypeAlias

from pydantic import Field, TypeAdapter, ValidationError

from ._base import WireModel
from ._generated.streaming.error_event import ErrorEvent
from ._generated.streaming.error_payload import ErrorPayload
from ._generated.streaming.extension_event import ExtensionEvent
from ._generated.streaming.response_completed_event import ResponseCompletedEvent
from ._generated.streaming.response_content_part_added_event import ResponseContentPartAddedEvent
from ._generated.streaming.response_content_part_done_event import ResponseContentPartDoneEvent
from ._generated.streaming.response_created_event import ResponseCreatedEvent
from ._generated.streaming.response_failed_event import ResponseFailedEvent
from ._generated.streaming.response_function_call_arguments_delta_event import (
    ResponseFunctionCallArgumentsDeltaEvent,
)
from ._generated.streaming.response_function_call_arguments_done_event import (
    ResponseFunctionCallArgumentsDoneEvent,
)
from ._generated.streaming.response_in_progress_event import ResponseInProgressEvent
from ._generated.streaming.response_incomplete_event import ResponseIncompleteEvent
from ._generated.streaming.response_output_item_added_event import ResponseOutputItemAddedEvent
from ._generated.streaming.response_output_item_done_event import ResponseOutputItemDoneEvent
from ._generated.streaming.response_output_text_annotation_added_event import (
    ResponseOutputTextAnnotationAddedEvent,
)
from ._generated.streaming.response_output_text_delta_event import ResponseOutputTextDeltaEvent
from ._generated.streaming.response_output_text_done_event import ResponseOutputTextDoneEvent
from ._generated.streaming.response_queued_event import ResponseQueuedEvent
from ._generated.streaming.response_reasoning_delta_event import ResponseReasoningDeltaEvent
from ._generated.streaming.response_reasoning_done_event import ResponseReasoningDoneEvent
from ._generated.streaming.response_reasoning_summary_part_added_event import (
    ResponseReasoningSummaryPartAddedEvent,
)
from ._generated.streaming.response_reasoning_summary_part_done_event import (
    ResponseReasoningSummaryPartDoneEvent,
)
from ._generated.streaming.response_reasoning_summary_text_delta_event import (
    ResponseReasoningSummaryTextDeltaEvent,
)
from ._generated.streaming.response_reasoning_summary_text_done_event import (
    ResponseReasoningSummaryTextDoneEvent,
)
from ._generated.streaming.response_refusal_delta_event import ResponseRefusalDeltaEvent
from ._generated.streaming.response_refusal_done_event import ResponseRefusalDoneEvent
from ._generated.streaming.response_resource import ResponseResource
from ._json import loads, printable
from .items import ItemError, OutputItem, Provider, _clean_errors, dump_item, is_openai_model, parse_item, plain_json
from .replay import TranscriptReport, check_transcript

__all__ = [
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
    "SpecStreamEvent",
    "StreamAssembler",
    "StreamError",
    "StreamEvent",
    "StreamReport",
    "StreamRule",
    "StreamWarning",
    "check_stream",
    "format_stream_report",
    "is_event_list",
    "looks_like_sse",
    "parse_event",
    "parse_sse",
    "response_resource_adapter",
    "stream_event_adapter",
]

# ---------------------------------------------------------------------------------------------------
# Event models and unions

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
_light_adapter: TypeAdapter[_LightEvent] = TypeAdapter(_LightEvent)

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
_LIFECYCLE_TYPES = frozenset(m.model_fields["type"].annotation.__args__[0] for m in _LIFECYCLE)  # type: ignore[union-attr]
TERMINAL_EVENT_TYPES: frozenset[str] = frozenset({"response.completed", "response.failed", "response.incomplete"})
"""Events that end a response; nothing may follow them but `[DONE]`."""
_TERMINAL_STATUS = {
    "response.completed": "completed",
    "response.failed": "failed",
    "response.incomplete": "incomplete",
}
_OPENAI_CONTEXT = {"provider": "openai"}


class StreamRule(StrEnum):
    """Stable codes of the streaming rules (see the module docstring for what breaks each)."""

    SSE_MALFORMED = "sse_malformed"
    EVENT_NAME = "event_name"
    EVENT_SCHEMA = "event_schema"
    UNKNOWN_EVENT = "unknown_event"
    SEQUENCE_MISSING = "sequence_missing"
    SEQUENCE_ORDER = "sequence_order"
    NOT_ADDED = "not_added"
    ITEM_ID = "item_id"
    ADDED_TWICE = "added_twice"
    AFTER_DONE = "after_done"
    ITEM_SCHEMA = "item_schema"
    ITEM_CHANGED = "item_changed"
    DONE_STATUS = "done_status"
    WRONG_ITEM = "wrong_item"
    PART_ORDER = "part_order"
    TEXT_MISMATCH = "text_mismatch"
    ARGUMENTS_MISMATCH = "arguments_mismatch"
    AFTER_INCOMPLETE = "after_incomplete"
    RESPONSE_STATUS = "response_status"
    AFTER_TERMINAL = "after_terminal"
    SNAPSHOT_MISMATCH = "snapshot_mismatch"
    SNAPSHOT_SCHEMA = "snapshot_schema"
    NO_TERMINAL = "no_terminal"


def _where(sequence_number: int | None, index: int | None, event_type: str | None, offset: int | None) -> str:
    parts = []
    if sequence_number is not None:
        parts.append(f"event {sequence_number}")
    elif index is not None:
        parts.append(f"event #{index} (no sequence_number)")
    if event_type:
        parts.append(f"({event_type})")
    if offset is not None:
        parts.append(f"at byte {offset}")
    return " ".join(parts) or "stream"


@dataclass(frozen=True, slots=True)
class StreamWarning:
    """A rule finding recorded instead of raised.

    `sequence_number` of the event (None when it had none), `index` (position of the event in what was
    fed, from 0), `event_type`, `rule` (a `StreamRule`), `message`, and `violation`: True when the
    stream breaks the rule (strict mode raises `StreamError` for it), False for a note that strict mode
    also lets pass (`sequence_missing` in OpenAI mode, `snapshot_schema`).
    """

    sequence_number: int | None
    index: int | None
    event_type: str | None
    rule: StreamRule
    message: str
    violation: bool = True

    def __str__(self) -> str:
        return f"{_where(self.sequence_number, self.index, self.event_type, None)}: {self.message} [{self.rule}]"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form: `{"sequence_number", "index", "event_type", "rule", "message", "violation"}`."""
        return {
            "sequence_number": self.sequence_number,
            "index": self.index,
            "event_type": self.event_type,
            "rule": str(self.rule),
            "message": self.message,
            "violation": self.violation,
        }


class StreamError(ValueError):
    """A stream breaks a rule: `.rule` (`StreamRule`), `.sequence_number` of the offending event (None
    when it had none), `.index` (its position among the events fed), `.event_type`, `.offset` (byte
    offset of the SSE frame, for `parse_sse` errors) and `.message`. `str()` names them all."""

    def __init__(
        self,
        rule: StreamRule,
        message: str,
        *,
        sequence_number: int | None = None,
        index: int | None = None,
        event_type: str | None = None,
        offset: int | None = None,
    ) -> None:
        self.rule = rule
        self.message = message
        self.sequence_number = sequence_number
        self.index = index
        self.event_type = event_type
        self.offset = offset
        super().__init__(printable(f"{_where(sequence_number, index, event_type, offset)}: {message} [{rule}]"))


# ---------------------------------------------------------------------------------------------------
# One event


def _coerce_event(data: Any) -> tuple[Any, bool]:
    """Plain JSON for an event given as a dict, JSON text, our model or an openai SDK event (flagged)."""
    try:
        return plain_json(data, "event"), is_openai_model(data)
    except ItemError as exc:
        raise StreamError(StreamRule.EVENT_SCHEMA, f"an event must be a JSON object: {exc.errors[0]['msg']}") from None


def _schema_message(exc: ValidationError, raw: Any) -> str:
    errs = _clean_errors(exc, raw)
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'event'}: {e['msg']}" for e in errs[:5])


def parse_event(data: Any, *, provider: Provider = None) -> StreamEvent:
    """Read one streaming event strictly into its model (spec "Streaming events").

    `data` is a dict, JSON text, one of our event models (returned as is) or an `openai` SDK event
    (which implies `provider="openai"`). A `slug:name` type gives an `ExtensionEvent`; with
    `provider="openai"` un-prefixed non-spec types (`response.reasoning_text.delta`) give an
    `ExtensionEvent` typed `openai:<type>` that dumps back un-prefixed. Lifecycle events need a complete
    `ResponseResource` snapshot here (the assembler reads snapshots leniently).

    Raises `StreamError` (rule `unknown_event` or `event_schema`) naming the event's sequence_number.
    """
    if isinstance(data, WireModel) and type(data).__module__.startswith("replayable._generated.streaming"):
        return data  # type: ignore[return-value]
    raw, sdk = _coerce_event(data)
    if sdk:
        provider = "openai"
    etype, seq = _peek(raw)
    if not isinstance(raw, Mapping):
        raise StreamError(StreamRule.EVENT_SCHEMA, f"an event must be a JSON object, got {type(raw).__name__}")
    if isinstance(etype, str) and etype not in SPEC_EVENT_TYPES and ":" not in etype and provider != "openai":
        raise StreamError(
            StreamRule.UNKNOWN_EVENT,
            f"unknown event type '{etype}': events outside the spec must be named slug:name",
            sequence_number=seq,
            event_type=etype,
        )
    try:
        return stream_event_adapter.validate_python(raw, context=_OPENAI_CONTEXT if provider == "openai" else None)
    except ValidationError as exc:
        raise StreamError(
            StreamRule.EVENT_SCHEMA, _schema_message(exc, raw), sequence_number=seq, event_type=etype
        ) from None


def _peek(raw: Any) -> tuple[str | None, int | None]:
    if not isinstance(raw, Mapping):
        return None, None
    t = raw.get("type")
    s = raw.get("sequence_number")
    return (t if isinstance(t, str) else None), (s if type(s) is int else None)


# ---------------------------------------------------------------------------------------------------
# SSE


def _chunks(source: Any) -> Iterator[tuple[bytes, bool]]:
    """Yield (bytes, is_line) pieces of the source."""
    if isinstance(source, bytes | bytearray | memoryview):
        yield bytes(source), False
    elif isinstance(source, str):
        yield source.encode("utf-8", "surrogatepass"), False  # a lone surrogate: invalid UTF-8, refused
    elif hasattr(source, "read"):
        stream: IO[Any] = source
        while True:
            block = stream.read(65536)
            if not block:
                return
            yield (block.encode("utf-8", "surrogatepass") if isinstance(block, str) else bytes(block)), False
    else:
        for piece in source:
            if isinstance(piece, str):
                yield piece.encode("utf-8", "surrogatepass"), True
            elif isinstance(piece, bytes | bytearray | memoryview):
                yield bytes(piece), False
            else:
                raise StreamError(
                    StreamRule.SSE_MALFORMED,
                    f"expected str lines or bytes chunks, got {type(piece).__name__}",
                )


def _iter_lines(source: Any) -> Iterator[tuple[int, bytes]]:
    """(byte offset, line without terminator); CRLF, LF and CR all end a line (WHATWG SSE)."""
    offset = 0
    buf = b""
    for piece, is_line in _chunks(source):
        if is_line:
            if buf:
                piece = buf + piece
                buf = b""
            body = piece.rstrip(b"\r\n")
            for line in body.splitlines() or [b""]:
                yield offset, line
                offset += len(line) + 1
            continue
        buf += piece
        start = 0
        n = len(buf)
        while start < n:
            lf = buf.find(b"\n", start)
            cr = buf.find(b"\r", start, lf if lf >= 0 else n)
            if cr >= 0:
                if cr + 1 == n:
                    break  # a CR at the end of a chunk may be the first half of CRLF
                end, nxt = cr, cr + (2 if buf[cr + 1 : cr + 2] == b"\n" else 1)
            elif lf >= 0:
                end, nxt = lf, lf + 1
            else:
                break
            yield offset, buf[start:end]
            offset += nxt - start
            start = nxt
        buf = buf[start:]
    if buf:
        yield offset, buf.rstrip(b"\r")


def parse_sse(source: Any) -> Iterator[dict[str, Any]]:
    """Read a `text/event-stream` body into event dicts (spec "Streaming": SSE rules; WHATWG SSE framing).

    `source` is the whole capture (`bytes` or `str`), a binary or text file object, an iterable of
    `bytes` chunks (a byte stream, split anywhere, e.g. `httpx.Response.iter_bytes()`), or an iterable
    of `str` lines (terminators optional, e.g. `httpx.Response.iter_lines()`).

    Yields one dict per frame, the JSON of its `data:` lines (several `data:` lines are joined with
    newlines). Comment lines (`:`), `id:` and `retry:` are ignored; CRLF, LF and CR end lines; a frame
    ends at a blank line or at the end of input. `data: [DONE]` ends the stream and is not yielded.

    Raises `StreamError` with `.offset` (the frame's byte offset): rule `sse_malformed` for a line that
    is not an SSE field, data that is not a JSON object, or an `event:` without data; rule
    `event_name` when the `event:` field differs from the body's `type`.
    """
    return _parse_sse(source, None)


def _parse_sse(source: Any, notes: list[StreamWarning] | None) -> Iterator[dict[str, Any]]:
    event_name: str | None = None
    data: list[bytes] = []
    frame_at: int | None = None
    count = 0
    for offset, line in _iter_lines(source):
        if not line:
            if frame_at is None:
                continue
            at = frame_at
            name, payload = event_name, data
            event_name, data, frame_at = None, [], None
            if not payload:
                if name is not None:
                    raise StreamError(StreamRule.SSE_MALFORMED, f"event '{name}' has no data line", offset=at)
                continue
            body = b"\n".join(payload)
            if body.strip() == b"[DONE]":
                return
            yield _frame(body, name, at, count, notes)
            count += 1
            continue
        if line.startswith(b":"):
            continue
        if frame_at is None:
            frame_at = offset
        key, sep, value = line.partition(b":")
        if value.startswith(b" "):
            value = value[1:]
        if key == b"data":
            data.append(value)
        elif key == b"event":
            event_name = value.decode("utf-8", "replace")
        elif key in (b"id", b"retry"):
            continue
        else:
            shown = line[:60].decode("utf-8", "replace")
            raise StreamError(
                StreamRule.SSE_MALFORMED,
                f"line {shown!r} is not an SSE field (expected 'event:', 'data:', 'id:', 'retry:' or a ':' comment)",
                offset=offset,
            )
    if frame_at is not None and data:
        body = b"\n".join(data)
        if body.strip() != b"[DONE]":
            yield _frame(body, event_name, frame_at, count, notes)
    elif frame_at is not None and event_name is not None:
        raise StreamError(StreamRule.SSE_MALFORMED, f"event '{event_name}' has no data line", offset=frame_at)


def _frame(body: bytes, name: str | None, at: int, index: int, notes: list[StreamWarning] | None) -> dict[str, Any]:
    try:
        value = loads(body, what="data")  # the one strict reader (replayable._json)
    except (ValueError, RecursionError) as exc:
        raise StreamError(StreamRule.SSE_MALFORMED, f"data is not JSON: {exc}", index=index, offset=at) from None
    if not isinstance(value, dict):
        raise StreamError(
            StreamRule.SSE_MALFORMED,
            f"data must be a JSON object, got {type(value).__name__}",
            index=index,
            offset=at,
        )
    etype, seq = _peek(value)
    if name is not None and name != etype:
        msg = f"SSE 'event: {name}' differs from the body's type {etype!r}"
        if notes is None:
            raise StreamError(StreamRule.EVENT_NAME, msg, sequence_number=seq, index=index, event_type=etype, offset=at)
        notes.append(StreamWarning(seq, index, etype, StreamRule.EVENT_NAME, msg + f" (byte {at})"))
    return value


# ---------------------------------------------------------------------------------------------------
# Assembler


@dataclass(slots=True)
class _Part:
    kind: Any  # the part's type when added
    chunks: list[str] = field(default_factory=list)
    got_delta: bool = False
    text_done: str | None = None
    closed: bool = False
    final: str | None = None  # the text of content_part.done

    def text(self) -> str | None:
        """The best-known text of the part, or None when nothing about it was streamed."""
        if self.final is not None:
            return self.final
        if self.text_done is not None:
            return self.text_done
        return "".join(self.chunks) if self.got_delta else None


@dataclass(slots=True)
class _Slot:
    index: int
    added: dict[str, Any] | None
    type: Any = None
    id: Any = None
    done: bool = False
    tainted: bool = False
    parts: dict[int, _Part] = field(default_factory=dict)
    summary: dict[int, _Part] = field(default_factory=dict)
    args: list[str] = field(default_factory=list)
    got_args: bool = False
    args_done: str | None = None


_TEXT_DELTA = {
    "response.output_text.delta": ("content", "output_text"),
    "response.refusal.delta": ("content", "refusal"),
    "response.reasoning.delta": ("content", "reasoning_text"),
    "response.reasoning_summary_text.delta": ("summary", "summary_text"),
}
_TEXT_DONE = {
    "response.output_text.done": ("content", "output_text", "text"),
    "response.refusal.done": ("content", "refusal", "refusal"),
    "response.reasoning.done": ("content", "reasoning_text", "text"),
    "response.reasoning_summary_text.done": ("summary", "summary_text", "text"),
}


class StreamAssembler:
    """Assemble a streamed response, enforcing the spec's streaming rules (Open Responses 2026-04-24:
    "Items are state machines", "Items are streamable", "Streaming events").

    `provider=None` is strict Open Responses; `provider="openai"` also reads OpenAI's un-prefixed extra
    events (`response.reasoning_text.delta`, `response.custom_tool_call_input.delta`, ...) as `openai:`
    extension events, reads OpenAI's native items, and lets events without `sequence_number` pass with
    one note. `strict=True` raises `StreamError` at the first broken rule; `strict=False` records
    every finding in `.warnings` and goes on (the event's effect is skipped where it cannot apply).

    Feed events in order with `feed(event)` (dicts, JSON text, our models or `openai` SDK events);
    call `close()` when the stream ends. Memory is bounded by the response (its items and their text),
    not by the number of events.

    Attributes: `items` (finished items, models, ordered by `output_index`), `response` (the latest
    response snapshot as sent, a dict, or None), `resource` (the terminal snapshot as a
    `ResponseResource` when it is complete, else None), `status` (`completed`, `failed`, `incomplete`,
    or None before a terminal event), `error` (the `ErrorPayload` of an `error` event, or None),
    `warnings` (`StreamWarning`s: notes, plus violations in lenient mode).
    """

    def __init__(self, *, provider: Provider = None, strict: bool = True) -> None:
        if provider not in (None, "openai"):
            raise ValueError(f"provider must be None or 'openai', got {provider!r}")
        self.provider: Provider = provider
        self.strict = strict
        self.warnings: list[StreamWarning] = []
        self.response: dict[str, Any] | None = None
        self.resource: ResponseResource | None = None
        self.status: str | None = None
        self.error: ErrorPayload | None = None
        self._slots: dict[int, _Slot] = {}
        self._by_id: dict[str, int] = {}
        self._finished: dict[int, OutputItem] = {}
        self._last_seq: int | None = None
        self._noted_missing_seq = False
        self._unknown_seen: set[str] = set()
        self._incomplete_at: int | None = None
        self._count = 0
        # per-event context for findings
        self._seq: int | None = None
        self._etype: str | None = None

    # -- findings ----------------------------------------------------------------------------------

    def _violate(self, rule: StreamRule, message: str) -> None:
        if self.strict:
            raise StreamError(rule, message, sequence_number=self._seq, index=self._count, event_type=self._etype)
        self.warnings.append(StreamWarning(self._seq, self._count, self._etype, rule, message))

    def _note(self, rule: StreamRule, message: str) -> None:
        self.warnings.append(StreamWarning(self._seq, self._count, self._etype, rule, message, violation=False))

    # -- public ------------------------------------------------------------------------------------

    @property
    def items(self) -> list[OutputItem]:
        """Finished items (from `response.output_item.done`), ordered by `output_index`."""
        return [self._finished[k] for k in sorted(self._finished)]

    @property
    def done(self) -> bool:
        """True once a terminal event (`response.completed` / `failed` / `incomplete`) arrived."""
        return self.status is not None

    @property
    def violations(self) -> list[StreamWarning]:
        """The recorded findings that break a rule (lenient mode), without the notes."""
        return [w for w in self.warnings if w.violation]

    def feed(self, event: Any) -> list[OutputItem]:
        """Apply one event; return the items finished by it.

        An item is returned when its `response.output_item.done` arrives. A `function_call` is returned
        only when that item is `completed` and no rule was broken for it (an `incomplete` call stays in
        `items` with its status and is never handed out as executable). Raises `StreamError` (strict
        mode) naming the event's sequence_number and the rule; `ValueError` subclasses only. An event
        that is not strict JSON (`replayable._json`: a duplicate key, NaN, a set or bytes inside, nesting
        past `replayable.items.MAX_ITEM_DEPTH`) is a `StreamError` (`event_schema`) in either mode.
        """
        try:
            return self._feed(event)
        finally:
            self._count += 1

    def close(self) -> dict[str, Any] | None:
        """End of stream: checks that a terminal event arrived (rule `no_terminal`) and returns
        `response` (the latest snapshot dict, or None)."""
        self._seq, self._etype = None, None
        if self.status is None:
            open_items = sorted(k for k, s in self._slots.items() if not s.done)
            extra = f"; items {open_items} never finished" if open_items else ""
            self._violate(
                StreamRule.NO_TERMINAL,
                "the stream ended without response.completed, failed or incomplete" + extra,
            )
        return self.response

    def __iter__(self) -> Iterator[OutputItem]:
        return iter(self.items)

    # -- the rules -----------------------------------------------------------------------------------

    def _feed(self, event: Any) -> list[OutputItem]:
        raw, sdk = _coerce_event(event)
        provider: Provider = "openai" if sdk else self.provider
        self._etype, self._seq = _peek(raw)
        if not isinstance(raw, Mapping):
            self._violate(StreamRule.EVENT_SCHEMA, f"an event must be a JSON object, got {type(raw).__name__}")
            return []
        etype = self._etype
        if etype is None:
            self._violate(StreamRule.EVENT_SCHEMA, "an event needs a string 'type'")
            return []
        self._check_sequence(raw, provider)
        if self.status is not None:
            self._violate(StreamRule.AFTER_TERMINAL, f"no event may follow response.{self.status}")
            return []
        if etype not in SPEC_EVENT_TYPES:
            if ":" in etype or provider == "openai":
                self._extension(raw, provider)
            elif self.strict or etype not in self._unknown_seen:
                self._unknown_seen.add(etype)  # lenient: one finding per unknown type
                self._violate(
                    StreamRule.UNKNOWN_EVENT,
                    f"unknown event type '{etype}': events outside the spec must be named slug:name "
                    "(clients ignore those); with provider='openai' OpenAI's own events "
                    "are read as openai:<type>",
                )
            return []
        if etype in _LIFECYCLE_TYPES:
            return self._lifecycle(raw, etype)
        if not self._valid(raw):
            return []
        handler = _HANDLERS[etype]
        found: list[OutputItem] = handler(self, raw, provider)
        return found

    def _check_sequence(self, raw: Mapping[str, Any], provider: Provider) -> None:
        seq = raw.get("sequence_number")
        if seq is None and "sequence_number" not in raw:
            if provider == "openai":
                if not self._noted_missing_seq:
                    self._noted_missing_seq = True
                    self._note(
                        StreamRule.SEQUENCE_MISSING,
                        "events carry no sequence_number (OpenAI streams before mid-2025); order is taken as fed",
                    )
            elif self.strict or not self._noted_missing_seq:
                self._noted_missing_seq = True  # lenient: one finding per stream, not one per event
                self._violate(StreamRule.SEQUENCE_MISSING, "every event needs an integer sequence_number")
            return
        if type(seq) is not int:
            self._violate(StreamRule.EVENT_SCHEMA, f"sequence_number must be an integer, got {seq!r}")
            return
        if self._last_seq is not None and seq <= self._last_seq:
            self._violate(
                StreamRule.SEQUENCE_ORDER,
                f"sequence_number {seq} does not increase (the previous event had {self._last_seq})",
            )
        self._last_seq = seq if self._last_seq is None else max(seq, self._last_seq)

    def _valid(self, raw: Mapping[str, Any]) -> bool:
        try:
            _light_adapter.validate_python(raw)
            return True
        except ValidationError as exc:
            errs = [
                e
                for e in _clean_errors(exc, raw)
                if not (e["loc"] and e["loc"][-1] == "sequence_number" and "sequence_number" not in raw)
            ]
            if not errs:
                return True  # only the missing sequence_number, already judged
            self._violate(
                StreamRule.EVENT_SCHEMA,
                "; ".join(f"{'.'.join(map(str, e['loc'])) or 'event'}: {e['msg']}" for e in errs[:5]),
            )
            return False

    def _extension(self, raw: Mapping[str, Any], provider: Provider) -> None:
        try:
            ExtensionEvent.model_validate(raw, context=_OPENAI_CONTEXT if provider == "openai" else None)
        except ValidationError as exc:
            self._violate(StreamRule.EVENT_SCHEMA, _schema_message(exc, raw))

    def _lifecycle(self, raw: Mapping[str, Any], etype: str) -> list[OutputItem]:
        snap = raw.get("response")
        if not isinstance(snap, dict):
            self._violate(StreamRule.EVENT_SCHEMA, "a response.* lifecycle event needs a 'response' object")
            return []
        self.response = snap
        if etype not in TERMINAL_EVENT_TYPES:
            return []
        status = _TERMINAL_STATUS[etype]
        self.status = status
        if snap.get("status") is not None and snap.get("status") != status:
            self._violate(StreamRule.RESPONSE_STATUS, f"{etype} carries a snapshot with status {snap.get('status')!r}")
        try:
            self.resource = response_resource_adapter.validate_python(snap)
        except ValidationError as exc:
            missing = [".".join(map(str, e["loc"])) for e in exc.errors() if e["type"] == "missing"]
            other = len(exc.errors()) - len(missing)
            what = (f"missing {', '.join(missing)}" if missing else "") + (
                f"{'; ' if missing else ''}{other} field(s) of another shape" if other else ""
            )
            self._note(StreamRule.SNAPSHOT_SCHEMA, f"the final snapshot is not a complete ResponseResource: {what}")
        if status == "completed":
            if self._incomplete_at is not None:
                self._violate(
                    StreamRule.RESPONSE_STATUS,
                    f"item {self._incomplete_at} is incomplete, so the response must end with response.incomplete",
                )
            open_items = sorted(k for k, s in self._slots.items() if not s.done)
            if open_items:
                self._violate(StreamRule.RESPONSE_STATUS, f"response.completed while items {open_items} never finished")
        if status in ("completed", "incomplete"):
            self._compare_snapshot(snap)
        return []

    def _compare_snapshot(self, snap: Mapping[str, Any]) -> None:
        output = snap.get("output")
        if not isinstance(output, list):
            self._violate(StreamRule.SNAPSHOT_MISMATCH, "the final snapshot has no 'output' list")
            return
        mine = {k: dump_item(v) for k, v in self._finished.items()}
        if len(output) != len(mine) or set(mine) != set(range(len(output))):
            self._violate(
                StreamRule.SNAPSHOT_MISMATCH,
                f"the final snapshot has {len(output)} output item(s), the stream finished {len(mine)} "
                f"at output_index {sorted(mine)}",
            )
            return
        for k, theirs in enumerate(output):
            diff = _essential_diff(mine[k], theirs)
            if diff:
                self._violate(StreamRule.SNAPSHOT_MISMATCH, f"output[{k}] differs from the streamed item: {diff}")

    # -- item events ---------------------------------------------------------------------------------

    def _slot(self, raw: Mapping[str, Any]) -> _Slot | None:
        """The open item an event refers to, or None after recording why it has none."""
        idx = raw.get("output_index")
        slot = self._slots.get(idx) if isinstance(idx, int) else None
        item_id = raw.get("item_id")
        if slot is None and isinstance(item_id, str) and item_id in self._by_id:
            slot = self._slots[self._by_id[item_id]]
        if slot is None:
            self._violate(
                StreamRule.NOT_ADDED,
                f"output_index {idx} (item_id {item_id!r}) was never announced by response.output_item.added",
            )
            return None
        if isinstance(item_id, str) and isinstance(slot.id, str) and item_id != slot.id:
            self._violate(
                StreamRule.ITEM_ID,
                f"item_id {item_id!r} is not the id {slot.id!r} of output_index {slot.index}",
            )
            slot.tainted = True
            return None
        if slot.done:
            self._violate(StreamRule.AFTER_DONE, f"item {slot.index} is already done: no updates after completion")
            return None
        return slot

    def _parse(self, item: Any, provider: Provider) -> OutputItem | None:
        try:
            return parse_item(item, side="output", provider=provider)  # type: ignore[return-value]
        except ItemError as exc:
            self._violate(StreamRule.ITEM_SCHEMA, str(exc).replace("\n ", ""))
            return None

    def _on_added(self, raw: Mapping[str, Any], provider: Provider) -> list[OutputItem]:
        idx: int = raw["output_index"]
        item = raw.get("item")
        if idx in self._slots:
            self._violate(StreamRule.ADDED_TWICE, f"output_index {idx} was already added")
            return []
        if self._incomplete_at is not None:
            self._violate(
                StreamRule.AFTER_INCOMPLETE,
                f"item {self._incomplete_at} ended incomplete, so it must be the last item; "
                f"output_index {idx} follows it",
            )
        slot = _Slot(idx, item if isinstance(item, dict) else None)
        if isinstance(item, dict):
            slot.type, slot.id = item.get("type"), item.get("id")
            if self._parse(item, provider) is None:
                slot.tainted = True
            if isinstance(slot.id, str):
                self._by_id.setdefault(slot.id, idx)
        self._slots[idx] = slot
        return []

    def _on_done(self, raw: Mapping[str, Any], provider: Provider) -> list[OutputItem]:
        idx = raw["output_index"]
        slot = self._slots.get(idx)
        if slot is None:
            self._violate(StreamRule.NOT_ADDED, f"output_index {idx} was never announced by response.output_item.added")
            return []
        if slot.done:
            self._violate(StreamRule.AFTER_DONE, f"item {idx} is already done: no updates after completion")
            return []
        slot.done = True
        item = raw.get("item")
        if item is None:
            return []
        parsed = self._parse(item, provider)
        if parsed is None:
            return []
        d = dump_item(parsed)
        before = slot.added or {}
        changed = [k for k in ("type", "id", "call_id", "name") if k in before and before.get(k) != d.get(k)]
        if changed:
            slot.tainted = True
            what = ", ".join(f"{k} {before.get(k)!r} -> {d.get(k)!r}" for k in changed)
            self._violate(StreamRule.ITEM_CHANGED, f"the done item differs from the added one: {what}")
        status = d.get("status")
        spec_type = d.get("type") in (
            "message",
            "function_call",
            "function_call_output",
            "reasoning",
            "compaction",
        )
        if spec_type and status == "in_progress":
            slot.tainted = True
            self._violate(
                StreamRule.DONE_STATUS,
                "an item ends with output_item.done as completed or incomplete, not in_progress",
            )
        if status == "incomplete":
            self._incomplete_at = idx
        self._check_done_content(slot, d)
        self._finished[idx] = parsed
        if d.get("type") == "function_call" and (status != "completed" or slot.tainted):
            return []
        return [parsed]

    def _check_done_content(self, slot: _Slot, d: Mapping[str, Any]) -> None:
        if slot.got_args or slot.args_done is not None:
            want = slot.args_done if slot.args_done is not None else "".join(slot.args)
            if d.get("arguments") != want:
                slot.tainted = True
                self._violate(
                    StreamRule.ARGUMENTS_MISMATCH,
                    f"the done item's arguments {_short(d.get('arguments'))} differ from the streamed {_short(want)}",
                )
        for key, parts in (("content", slot.parts), ("summary", slot.summary)):
            if not parts:
                continue
            got = d.get(key)
            got_list = got if isinstance(got, list) else []
            for i, part in parts.items():
                text = part.text()
                if text is None:
                    continue
                have = got_list[i] if i < len(got_list) and isinstance(got_list[i], dict) else None
                if have is None:
                    self._violate(StreamRule.TEXT_MISMATCH, f"the done item has no {key}[{i}], which was streamed")
                    continue
                value = have.get("refusal") if have.get("type") == "refusal" else have.get("text")
                if value != text:
                    slot.tainted = True
                    self._violate(
                        StreamRule.TEXT_MISMATCH,
                        f"the done item's {key}[{i}] text {_short(value)} differs from the streamed {_short(text)}",
                    )

    def _on_part_added(self, raw: Mapping[str, Any], provider: Provider) -> list[OutputItem]:
        slot = self._slot(raw)
        if slot is None:
            return []
        summary = raw["type"].startswith("response.reasoning_summary")
        if summary and slot.type not in (None, "reasoning"):
            self._violate(
                StreamRule.WRONG_ITEM,
                f"summary parts belong to reasoning items, item {slot.index} is {slot.type}",
            )
        parts = slot.summary if summary else slot.parts
        i = raw["summary_index" if summary else "content_index"]
        if i in parts:
            self._violate(StreamRule.PART_ORDER, f"part {i} of item {slot.index} was already added")
            return []
        parts[i] = _Part(raw["part"].get("type"))
        return []

    def _on_part_done(self, raw: Mapping[str, Any], provider: Provider) -> list[OutputItem]:
        slot = self._slot(raw)
        if slot is None:
            return []
        summary = raw["type"].startswith("response.reasoning_summary")
        i = raw["summary_index" if summary else "content_index"]
        part = (slot.summary if summary else slot.parts).get(i)
        if part is None or part.closed:
            what = "never added" if part is None else "already done"
            self._violate(StreamRule.PART_ORDER, f"part {i} of item {slot.index} was {what}")
            return []
        final = raw["part"]
        value = final.get("refusal") if final.get("type") == "refusal" else final.get("text")
        known = part.text()
        if known is not None and isinstance(value, str) and value != known:
            slot.tainted = True
            self._violate(
                StreamRule.TEXT_MISMATCH,
                f"part {i} of item {slot.index} ends as {_short(value)}, streamed {_short(known)}",
            )
        part.closed = True
        if isinstance(value, str):
            part.final = value
        return []

    def _text_part(self, raw: Mapping[str, Any], where: str, kind: str) -> tuple[_Slot, _Part] | None:
        slot = self._slot(raw)
        if slot is None:
            return None
        i = raw["summary_index" if where == "summary" else "content_index"]
        part = (slot.summary if where == "summary" else slot.parts).get(i)
        if part is None:
            self._violate(StreamRule.PART_ORDER, f"{where} part {i} of item {slot.index} was never added")
            return None
        if part.closed or part.text_done is not None:
            self._violate(StreamRule.PART_ORDER, f"{where} part {i} of item {slot.index} is already done")
            return None
        if part.kind is not None and part.kind != kind:
            self._violate(
                StreamRule.WRONG_ITEM,
                f"{raw['type']} for a {part.kind!s} part ({where} {i} of item {slot.index})",
            )
        return slot, part

    def _on_text_delta(self, raw: Mapping[str, Any], provider: Provider) -> list[OutputItem]:
        where, kind = _TEXT_DELTA[raw["type"]]
        found = self._text_part(raw, where, kind)
        if found is not None:
            found[1].chunks.append(raw["delta"])
            found[1].got_delta = True
        return []

    def _on_text_done(self, raw: Mapping[str, Any], provider: Provider) -> list[OutputItem]:
        where, kind, key = _TEXT_DONE[raw["type"]]
        found = self._text_part(raw, where, kind)
        if found is None:
            return []
        slot, part = found
        text = raw[key]
        if part.got_delta:
            streamed = "".join(part.chunks)
            if streamed != text:
                slot.tainted = True
                self._violate(
                    StreamRule.TEXT_MISMATCH,
                    f"{raw['type']} text {_short(text)} differs from the concatenated deltas {_short(streamed)}",
                )
        part.text_done = text
        part.chunks = []  # the done text replaces the deltas: memory stays one copy per part
        return []

    def _on_annotation(self, raw: Mapping[str, Any], provider: Provider) -> list[OutputItem]:
        found = self._text_part(raw, "content", "output_text")
        del found
        return []

    def _args_slot(self, raw: Mapping[str, Any]) -> _Slot | None:
        slot = self._slot(raw)
        if slot is None:
            return None
        if slot.type is not None and slot.type != "function_call":
            self._violate(
                StreamRule.WRONG_ITEM,
                f"argument events belong to function_call items, item {slot.index} is {slot.type}",
            )
            return None
        if slot.args_done is not None:
            self._violate(StreamRule.AFTER_DONE, f"the arguments of item {slot.index} are already done")
            return None
        return slot

    def _on_args_delta(self, raw: Mapping[str, Any], provider: Provider) -> list[OutputItem]:
        slot = self._args_slot(raw)
        if slot is not None:
            slot.args.append(raw["delta"])
            slot.got_args = True
        return []

    def _on_args_done(self, raw: Mapping[str, Any], provider: Provider) -> list[OutputItem]:
        slot = self._args_slot(raw)
        if slot is None:
            return []
        args = raw["arguments"]
        if slot.got_args:
            streamed = "".join(slot.args)
            if streamed != args:
                slot.tainted = True
                self._violate(
                    StreamRule.ARGUMENTS_MISMATCH,
                    f"arguments {_short(args)} differ from the concatenated deltas {_short(streamed)}",
                )
        slot.args_done = args
        slot.args = []
        return []

    def _on_error(self, raw: Mapping[str, Any], provider: Provider) -> list[OutputItem]:
        self.error = ErrorPayload.model_validate(raw["error"])
        return []


_HANDLERS: dict[str, Any] = {
    "response.output_item.added": StreamAssembler._on_added,
    "response.output_item.done": StreamAssembler._on_done,
    "response.content_part.added": StreamAssembler._on_part_added,
    "response.content_part.done": StreamAssembler._on_part_done,
    "response.reasoning_summary_part.added": StreamAssembler._on_part_added,
    "response.reasoning_summary_part.done": StreamAssembler._on_part_done,
    "response.output_text.annotation.added": StreamAssembler._on_annotation,
    "response.function_call_arguments.delta": StreamAssembler._on_args_delta,
    "response.function_call_arguments.done": StreamAssembler._on_args_done,
    "error": StreamAssembler._on_error,
    **{t: StreamAssembler._on_text_delta for t in _TEXT_DELTA},
    **{t: StreamAssembler._on_text_done for t in _TEXT_DONE},
}


def _short(value: Any, n: int = 60) -> str:
    s = json.dumps(value, ensure_ascii=False)
    return s if len(s) <= n else s[: n - 3] + "..."


def _message_text(item: Mapping[str, Any]) -> str:
    content = item.get("content")
    if isinstance(content, str):
        return content
    return (
        "".join(str(p.get("text", p.get("refusal", ""))) for p in content or [] if isinstance(p, dict))
        if isinstance(content, list)
        else ""
    )


def _essential_diff(mine: Mapping[str, Any], theirs: Any) -> str:
    """Compare a streamed item with the snapshot's on what replay depends on; '' when they agree."""
    if not isinstance(theirs, Mapping):
        return "the snapshot item is not an object"
    if mine.get("type") != theirs.get("type"):
        return f"type {mine.get('type')!r} vs {theirs.get('type')!r}"
    keys = ("call_id", "name", "arguments") if mine.get("type") == "function_call" else ("call_id", "name")
    for k in keys:
        if (k in mine or k in theirs) and mine.get(k) != theirs.get(k):
            return f"{k} {_short(mine.get(k))} vs {_short(theirs.get(k))}"
    if mine.get("type") == "message":
        if mine.get("role") != theirs.get("role"):
            return f"role {mine.get('role')!r} vs {theirs.get('role')!r}"
        a, b = _message_text(mine), _message_text(theirs)
        if a != b:
            return f"text {_short(a)} vs {_short(b)}"
    return ""


# ---------------------------------------------------------------------------------------------------
# Checking a capture (used by `replayable check`)


@dataclass(frozen=True, slots=True)
class StreamReport:
    """The result of `check_stream`: `findings` (every stream rule finding, `StreamWarning`s, notes
    included), `transcript` (the `TranscriptReport` of the assembled items, read as output items with
    pending calls allowed), `items` (the finished items), `events` (how many were read), `status`
    (the terminal status or None). `ok` is true when no stream rule and no replay rule is broken."""

    findings: list[StreamWarning]
    transcript: TranscriptReport
    items: list[OutputItem]
    events: int
    status: str | None

    @property
    def ok(self) -> bool:
        return self.transcript.ok and not any(f.violation for f in self.findings)


def looks_like_sse(data: bytes, name: str = "") -> bool:
    """True for an SSE capture: a `.sse` file name, or content whose first line starts with `event:`,
    `data:` or `:` (a comment)."""
    if name.endswith(".sse"):
        return True
    head = data[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith((b"event:", b"data:", b":"))


def is_event_list(value: Any) -> bool:
    """True for a non-empty list of objects that are streaming events rather than items: every `type`
    starts with `response.` or is `error` (extension events typed `slug:name` may be mixed in), and at
    least one is a `response.*` event."""
    if not isinstance(value, list) or not value:
        return False
    types: list[str] = []
    for v in value:
        t = v.get("type") if isinstance(v, dict) else None
        if not isinstance(t, str):
            return False
        types.append(t)
    return any(t.startswith("response.") for t in types) and all(
        t.startswith("response.") or t == "error" or ":" in t for t in types
    )


def check_stream(
    source: Any, *, provider: Provider = None, tools: Iterable[Any] | None = None, target: str | None = None
) -> StreamReport:
    """Check a recorded stream: the streaming rules, then the replay rules of its items.

    `source` is an SSE capture (`bytes`/`str`/lines, see `parse_sse`) or a list of event objects. The
    stream is assembled leniently (every finding collected), closed, and the finished items are checked
    with `check_transcript(items, side="output", pending_ok=True, provider=provider, tools=tools,
    target=target)`.

    Raises `StreamError` (rule `sse_malformed`) only when the SSE framing cannot be read.
    """
    notes: list[StreamWarning] = []
    events: Iterable[Any] = source if isinstance(source, list) else _parse_sse(source, notes)
    asm = StreamAssembler(provider=provider, strict=False)
    n = 0
    for ev in events:
        asm.feed(ev)
        n += 1
    asm.close()
    items = asm.items
    report = check_transcript(items, side="output", pending_ok=True, provider=provider, tools=tools, target=target)
    return StreamReport([*notes, *asm.warnings], report, items, n, asm.status)


def format_stream_report(report: StreamReport, fmt: str, name: str) -> str:
    """Render a `StreamReport` for the command line (`fmt` is `text` or `json`)."""
    if fmt == "json":
        return json.dumps(
            {
                "file": name,
                "kind": "stream",
                "ok": report.ok,
                "events": report.events,
                "status": report.status,
                "items": len(report.items),
                "stream": [f.as_dict() for f in report.findings],
                "violations": [v.as_dict() for v in report.transcript.violations],
                "pending": list(report.transcript.pending),
            },
            indent=2,
        )
    lines = []
    for f in report.findings:
        lines.append(f"{name}: {'stream' if f.violation else 'note'}: {f.rule}: {f}")
    for v in report.transcript.violations:
        lines.append(f"{name}: item {v.index}: {v.code}: {v.message}")
    if report.transcript.pending:
        lines.append(
            f"{name}: pending calls (awaiting output) at items " + ", ".join(map(str, report.transcript.pending))
        )
    verdict = "stream ok, items replay-safe" if report.ok else "NOT ok"
    lines.append(
        f"{name}: {verdict}: {report.events} events, {len(report.items)} items, status {report.status or 'none'}"
    )
    return "\n".join(lines)
