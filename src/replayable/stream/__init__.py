"""Open Responses streaming: typed events, SSE reading, and an assembler that enforces the stream rules.

Apps read most responses as a stream of server-sent events; the replay rules start there. A function
call arrives as `response.function_call_arguments.delta` text and is a call only once its item is
`completed`. This package gives (every name is importable from `replayable.stream`):

- `events`: the 24 spec streaming events as generated models (`ResponseCreatedEvent`, ..., `ErrorEvent`),
  tagged on `type`, plus `ExtensionEvent` for `slug:name` events (kept verbatim, ignorable), and the
  `ResponseResource` object (the same class as `replayable.Response`: typed output items, tools, usage);
  `StreamEvent` / `stream_event_adapter` / `parse_event` read one event;
- `openai_events`: OpenAI's own stream events (`OPENAI_EVENT_TYPES`, `openai:response.mcp_call.completed`
  -> its model): typed `ExtensionEvent` subclasses, read un-prefixed in OpenAI mode; the assembler applies
  their deltas, done events and status events to their items under the same rules as the spec's;
- `sse`: `parse_sse`, SSE bytes, text or lines -> event dicts (spec "Streaming": `event:` equals `type`,
  `data: [DONE]` ends the stream; a cut-off last frame and a missing `[DONE]` are found);
- `assembler`: `StreamAssembler`, feed events (or an SSE source with `feed_sse`, which reads each event
  once; raw bytes as they arrive with `feed_bytes`; an async source with `afeed_sse`, from `sources`), get
  finished items as they complete and the final response, with every streaming rule checked (spec "Items
  are state machines", "Items are streamable"); `state` holds its per-item state;
- `rules`: `StreamRule`, `StreamWarning`, `StreamError`;
- `check`: `check_stream`, both the stream rules and the replay rules of the items (used by
  `replayable check`).

Rules (`StreamRule`), and what breaks them. Strict mode raises `StreamError` at the offending event;
lenient mode (`strict=False`) records a `StreamWarning` with `violation=True` and goes on. Notes marked
*note* are never errors (not even in strict mode): `StreamWarning` with `violation=False`.

- `sse_malformed`: SSE framing that cannot be read (a line that is not an SSE field, data that is not a
  JSON object, an `event:` without data). A line with an unknown field (not `event`, `data`, `id`,
  `retry`) is refused by a strict reader, naming the line (most often a `data:` line that lost its
  prefix); a lenient one ignores it as the SSE standard says, with a *note* naming it. One leading byte
  order mark is ignored in both modes (WHATWG SSE).
- `sse_truncated`: the last frame of an SSE capture lacks its terminating blank line: it is cut off and
  dropped (WHATWG SSE; the openai SDK drops it too). A cut-off `data: [DONE]` is a *note*.
- `done_missing`: an SSE capture does not end with the literal `data: [DONE]` (spec "Streaming"). A *note*
  in lenient mode, and with `provider="openai"` (OpenAI's Responses API never sends it).
- `after_done_marker`: an SSE frame after `data: [DONE]`, which ends the stream. What follows is read to
  the end of input (as the openai SDK's decoder drains it) and never dropped silently: a strict reader
  raises at the first such frame; a lenient one records one finding naming how many frames it skipped.
- `event_schema`: an event does not match the model of its type (missing field, wrong type); the message
  names each field and rule.
- `unknown_event`: an un-prefixed `type` that is not a spec event (extension events must be `slug:name`;
  with `provider="openai"` such events are OpenAI's own and are read as `openai:` extension events, an
  undocumented one with a *note*, once per type, saying it is ignored). An OpenAI Agents API `agent.*`
  event breaks it in every mode: the stream is an Agents API event log (`replayable.agents`).
- `event_name`: the SSE `event:` line differs from the body's `type`.
- `sequence_order`: `sequence_number` not strictly increasing.
- `sequence_missing`: an event without `sequence_number` (error in strict Open Responses mode; a *note*,
  once per stream, with `provider="openai"`: OpenAI's streams before mid-2025 had none).
- `not_added`: an event for an `output_index` never announced by `response.output_item.added`
  (or whose `item_id` is not that item's id: `item_id`).
- `added_twice`: a second `response.output_item.added` for one `output_index`.
- `output_index`: a `response.output_item.added` whose `output_index` is not the next position in
  `response.output` (items are added at 0, 1, 2, ... in order: an index that skips one is found at the
  event that skips, and the item is never handed out as executable).
- `duplicate_id`: an item whose `id` or `call_id` is already another item's in this response (found at
  the `added`, or at the `done` that first carries it; the item is never handed out).
- `after_done`: any event for an item after its `response.output_item.done` ("no updates after
  completed").
- `item_schema`: the item of `output_item.added` / `.done` is not a valid output item.
- `item_changed`: the done item's `type`, `id`, `call_id` or `name` differs from the added item's.
- `done_status`: an `output_item.done` spec item whose `status` is still `in_progress`.
- `wrong_item`: argument events for an item that is not a `function_call` (OpenAI's
  `custom_tool_call_input`, `mcp_call_arguments`, `code_interpreter_call_code` and status events such as
  `web_search_call.searching` for an item of another type), content events for an item without content
  (reasoning summary events for a non-reasoning item).
- `part_order`: a delta or done for a content/summary part never added, already done, or added twice.
- `text_mismatch`: a `*.done` text, a `content_part.done` part, or the done item's content that
  differs from the concatenated deltas.
- `arguments_mismatch`: `function_call_arguments.done` (or the done item's `arguments`) differs from the
  concatenated argument deltas; likewise OpenAI's `custom_tool_call_input.done` / `input`,
  `mcp_call_arguments.done` / `arguments` and `code_interpreter_call_code.done` / `code`.
- `after_incomplete`: an item added after an `incomplete` item (which must be the last one).
- `response_status`: a terminal event whose status disagrees with its items (`response.completed`
  with an `incomplete` item or an item never done) or with its own snapshot's `status`.
- `after_terminal`: an event after `response.completed` / `failed` / `incomplete`.
- `snapshot_mismatch`: the terminal snapshot's `output` disagrees with the streamed items on types,
  call_ids, names, arguments, message text or annotations (one the stream never sent), or holds an item
  the stream never sent (paired by `output_index`). Ids, `encrypted_content` and
  other fields are not compared: real providers refresh `encrypted_content` at completion and rename
  reasoning ids between the stream and the snapshot.
- `snapshot_schema` (*note*): the terminal snapshot is not a complete `ResponseResource` (real ones
  often miss keys); `asm.resource` is then None. An output item of the snapshot that does not parse (a
  part without its `annotations`) is `item_schema`, as `parse_response` refuses it: the snapshot is the
  record a client stores.
- `no_terminal`: `close()` was called before any terminal event.

Hand-out rule: `feed` (and every SSE path) returns an item when its `output_item.done` arrives, except a
call of a family the client executes (a call whose output the client sends back: docs/openai.md), which is
returned only when it is `completed` (for OpenAI's `program` and `mcp_approval_request`, which carry no
status: when none of the family's unfinished statuses was put on it) and no finding concerns its own
events (any rule broken at an event naming its `output_index` or `item_id`, before or at its `done`). It
stays in `items` either way.

Never rules: items finishing out of `output_index` order (the spec does not order them), extension
events (ignored, only their `sequence_number` counts), `encrypted_content` present on `added` or
changed at `done`, a part without any delta (empty text).
"""

from typing import Any

from ._assembler import StreamAssembler
from ._check import StreamReport, check_stream, is_event_list
from ._events import (
    OPENAI_EVENT_TYPES,
    SPEC_EVENT_TYPES,
    TERMINAL_EVENT_TYPES,
    ErrorEvent,
    ErrorPayload,
    ExtensionEvent,
    OpenAIResponseCompletedEvent,
    OpenAIResponseCreatedEvent,
    OpenAIResponseFailedEvent,
    OpenAIResponseIncompleteEvent,
    OpenAIResponseInProgressEvent,
    OpenAIResponseQueuedEvent,
    ResponseCompletedEvent,
    ResponseContentPartAddedEvent,
    ResponseContentPartDoneEvent,
    ResponseCreatedEvent,
    ResponseFailedEvent,
    ResponseFunctionCallArgumentsDeltaEvent,
    ResponseFunctionCallArgumentsDoneEvent,
    ResponseIncompleteEvent,
    ResponseInProgressEvent,
    ResponseOutputItemAddedEvent,
    ResponseOutputItemDoneEvent,
    ResponseOutputTextAnnotationAddedEvent,
    ResponseOutputTextDeltaEvent,
    ResponseOutputTextDoneEvent,
    ResponseQueuedEvent,
    ResponseReasoningDeltaEvent,
    ResponseReasoningDoneEvent,
    ResponseReasoningSummaryPartAddedEvent,
    ResponseReasoningSummaryPartDoneEvent,
    ResponseReasoningSummaryTextDeltaEvent,
    ResponseReasoningSummaryTextDoneEvent,
    ResponseRefusalDeltaEvent,
    ResponseRefusalDoneEvent,
    ResponseResource,
    SpecStreamEvent,
    StreamEvent,
    event_model,
    parse_event,
    response_resource_adapter,
    stream_event_adapter,
)
from ._sse import parse_sse
from ._stream_codes import StreamError, StreamRule, StreamWarning

__all__ = [
    "ErrorEvent",
    "ErrorPayload",
    "ExtensionEvent",
    "OPENAI_EVENT_TYPES",
    "OpenAIResponseCompletedEvent",
    "OpenAIResponseCreatedEvent",
    "OpenAIResponseFailedEvent",
    "OpenAIResponseInProgressEvent",
    "OpenAIResponseIncompleteEvent",
    "OpenAIResponseQueuedEvent",
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
    "SPEC_EVENT_TYPES",
    "SpecStreamEvent",
    "StreamAssembler",
    "StreamError",
    "StreamEvent",
    "StreamReport",
    "StreamRule",
    "StreamWarning",
    "TERMINAL_EVENT_TYPES",
    "check_stream",
    "event_model",
    "is_event_list",
    "parse_event",
    "parse_sse",
    "response_resource_adapter",
    "stream_event_adapter",
]


def __getattr__(name: str) -> Any:
    """`format_stream_report` and `looks_like_sse` moved to `replayable._render` and `replayable._reading`
    (the one renderer and the one reader, which reads files); the old names still resolve."""
    if name == "format_stream_report":
        from replayable._render import format_stream_report  # noqa: PLC0415

        return format_stream_report
    if name == "looks_like_sse":
        from replayable._reading import looks_like_sse  # noqa: PLC0415

        return looks_like_sse
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
