"""`StreamAssembler`: feed streaming events, get finished items, with every streaming rule checked
(spec "Items are state machines", "Items are streamable", "Streaming events")."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from pydantic import ValidationError

from replayable._base import checked_provider
from replayable._families import CallFamily, by_call_type
from replayable._generated.open_responses.function_call import FunctionCall
from replayable._generated.streaming.error_payload import ErrorPayload
from replayable._generated.streaming.extension_event import ExtensionEvent
from replayable._item_validation import validate_item
from replayable._messages import said
from replayable.items import OPENAI_CONTEXT, ItemError, OutputItem, Provider, dump_item, parse_item
from replayable.response import Response, parse_response

from ._events import (
    LIFECYCLE_EVENT_TYPES,
    NESTED_VALUE_FIELDS,
    SPEC_EVENT_TYPES,
    TERMINAL_EVENT_TYPES,
    TERMINAL_STATUS,
    coerce_event,
    event_model,
    event_schema_errors,
    event_schema_message,
    light_event_adapter,
    nested_errors,
)
from ._openai_events import ResponseErrorEvent, native_event_name
from ._sources import SSEFeeding
from ._sse import ByteReader
from ._state import ARGS_BY_EVENT as _ARGS_BY_EVENT
from ._state import ARGS_EVENTS as _ARGS_EVENTS
from ._state import STATUS_EVENTS as _STATUS_EVENTS
from ._state import TEXT_DELTA as _TEXT_DELTA
from ._state import TEXT_DONE as _TEXT_DONE
from ._state import Part as _Part
from ._state import Slot as _Slot
from ._state import essential_diff as _essential_diff
from ._state import plain_type as _plain_type
from ._state import short as _short
from ._state import unsent_annotations
from ._stream_codes import StreamError, StreamRule, StreamWarning

__all__ = ["StreamAssembler"]

# ---------------------------------------------------------------------------------------------------
# Assembler


def _held_back(family: CallFamily | None, item: Any, status: Any) -> bool:
    """The hand-out rule of a finished item that no finding concerns: a call of a family the client
    executes (`CallFamily.needs_output`: it asks the app to run something and answer) is handed out
    only when `completed`; a family whose items carry no status (`CallFamily.has_status` false: OpenAI's
    `program`, `mcp_approval_request`) only when no unfinished status was put on it. Every other item
    (messages, reasoning, hosted calls that carry their own result) is handed out."""
    if family is None or not family.needs_output(item):
        return False
    if family.has_status:
        return bool(status != "completed")
    return status in family.unfinished


class StreamAssembler(SSEFeeding):
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
    response snapshot as sent, a dict, or None), `resource` (the terminal snapshot as a typed
    `replayable.Response`, read with `parse_response` in this assembler's provider mode, when it parses,
    else None), `status` (`completed`, `failed`, `incomplete`,
    or None before a terminal event), `error` (the `ErrorPayload` of an `error` event, or None),
    `warnings` (`StreamWarning`s: notes, plus violations in lenient mode).
    """

    def __init__(self, *, provider: Provider = None, strict: bool = True) -> None:
        checked_provider(provider)
        self.provider: Provider = provider
        self.strict = strict
        self.warnings: list[StreamWarning] = []
        self.response: dict[str, Any] | None = None
        self.resource: Response | None = None
        self.status: str | None = None
        self.error: ErrorPayload | ResponseErrorEvent | None = None
        self._slots: dict[int, _Slot] = {}
        self._by_id: dict[str, int] = {}
        self._call_ids: dict[str, int] = {}
        self._finished: dict[int, OutputItem] = {}
        self._last_seq: int | None = None
        self._noted_missing_seq = False
        self._unknown_seen: set[str] = set()
        self._incomplete_at: int | None = None
        self._flagged: set[int] = set()  # output indices a finding concerned: their calls are never handed out
        self._bytes: ByteReader | None = None  # `feed_bytes`: the SSE read so far
        self._deferred: StreamError | None = None  # raised at the next `feed_bytes` / `close` (`_feed_frames`)
        self._count = 0
        # per-event context for findings
        self._seq: int | None = None
        self._etype: str | None = None
        self._at: int | None = None  # the output_index the event concerns, if any

    # -- findings ----------------------------------------------------------------------------------

    def _violate(self, rule: StreamRule, message: str, errors: list[dict[str, Any]] | None = None) -> None:
        """A broken rule: raised as `StreamError` (with `errors`, its `{loc, type, msg}` list) in strict
        mode, else recorded."""
        if self._at is not None:  # a finding at an item's own events: that item is never handed out
            self._flagged.add(self._at)
        if self.strict:
            raise StreamError(
                rule, message, sequence_number=self._seq, index=self._count, event_type=self._etype, errors=errors
            )
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

        An item is returned when its `response.output_item.done` arrives. A `function_call` (or OpenAI's
        `custom_tool_call`) is returned only when that item is `completed` and no rule was broken for it
        (an `incomplete` call stays in `items` with its status and is never handed out as executable).
        Raises `StreamError` (strict mode) naming the event's sequence_number and the rule; `ValueError`
        subclasses only. An event that is not strict JSON (docs/strict-json.md: a duplicate key, NaN, a set
        or bytes inside, nesting past `replayable.items.MAX_ITEM_DEPTH`) is rule `event_schema`.
        """
        try:
            return self._feed(event)
        finally:
            self._count += 1

    def close(self) -> dict[str, Any] | None:
        """End of stream: checks that a terminal event arrived (rule `no_terminal`) and returns
        `response` (the latest snapshot dict, or None).

        After `feed_bytes`, the SSE read is ended first, as `feed_sse` ends it at the end of its source:
        a cut-off last frame (`sse_truncated`) and a missing `data: [DONE]` (`done_missing`) are found
        here (see `parse_sse`)."""
        if self._bytes is not None or self._deferred is not None:
            self._end_bytes()
        self._seq, self._etype, self._at = None, None, None
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
        self._etype, self._seq, self._at = None, None, None
        try:
            raw, sdk = coerce_event(event)
        except StreamError as exc:  # not JSON text, or not JSON at all: a finding like any other
            self._violate(StreamRule(exc.rule), exc.message, exc.errors)
            return []
        if not isinstance(raw, Mapping):
            msg = f"an event must be a JSON object, got {type(raw).__name__}"
            self._violate(StreamRule.EVENT_SCHEMA, msg, [{"loc": (), "type": "model_type", "msg": msg}])
            return []
        return self._apply(raw, "openai" if sdk else self.provider)

    def _feed_read(self, events: Iterable[Any]) -> Iterator[OutputItem]:
        """Feed events the strict reader has just read (`_parse_sse`: JSON objects, nothing else holds
        them), yielding the items each finishes; the same as `feed` without checking them again."""
        apply, provider = self._apply, self.provider
        for raw in events:
            try:  # a body that is not a JSON object (lenient mode only) is read, and reported, by `feed`
                found = apply(raw, provider) if type(raw) is dict else self._feed(raw)
            finally:
                self._count += 1
            if found:
                yield from found

    def _apply(self, raw: Mapping[str, Any], provider: Provider) -> list[OutputItem]:
        """Apply one event that is strict JSON and an object."""
        etype = raw.get("type")
        seq = raw.get("sequence_number")
        self._etype = etype = etype if isinstance(etype, str) else None
        self._seq = seq if type(seq) is int else None
        at = raw.get("output_index")
        if type(at) is not int:
            item_id = raw.get("item_id")
            at = self._by_id.get(item_id) if isinstance(item_id, str) else None
        self._at = at
        if etype is None:
            msg = "an event needs a string 'type'"
            code = "missing" if "type" not in raw else "string_type"
            self._violate(StreamRule.EVENT_SCHEMA, msg, [{"loc": ("type",), "type": code, "msg": msg}])
            return []
        last = self._last_seq
        if type(seq) is int and last is not None and seq > last:
            self._last_seq = seq  # the common case of `_check_sequence`
        else:
            self._check_sequence(raw, seq, provider)
        if self.status is not None:
            self._violate(StreamRule.AFTER_TERMINAL, f"no event may follow response.{self.status}")
            return []
        handler = _SPEC_HANDLERS.get(etype)
        if handler is not None:  # the events inside a response, by far the most frequent
            try:
                _light_validate(raw)  # its spec model, picked by `type` in one pydantic-core call
            except ValidationError:
                try:  # the errors again from the event's own model: their paths hold no union tag
                    event_model(raw, None).model_validate(raw)
                except ValidationError as exc:
                    if not self._schema_finding(exc, raw, one_model=True):
                        return []
            if NESTED_VALUE_FIELDS.get(etype, "item") != "item":  # a part, annotation or logprobs (the
                errs = nested_errors(raw, provider)  # item is read by its handler)
                if errs:
                    where = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in errs[:5])
                    self._violate(StreamRule.EVENT_SCHEMA, where, errs)
                    return []
            found: list[OutputItem] = handler(self, raw, provider)
            return found
        if etype in LIFECYCLE_EVENT_TYPES:
            return self._lifecycle(raw, etype)
        if etype == "error":
            return self._on_error(raw, provider)
        if etype.startswith("agent.") and ":" not in etype:  # in every mode: never a Responses stream event
            self._violate(
                StreamRule.UNKNOWN_EVENT,
                f"'{etype}' is an OpenAI Agents API event, not a Responses stream event: this is an Agents API "
                "event log, check it with --agents (replayable.agents.check_event_log)",
            )
            return []
        if ":" in etype or provider == "openai":
            name = native_event_name(etype)
            if self._extension(raw, provider) and name is not None:
                return self._openai_event(raw, name)
            if name is None and ":" not in etype and etype not in self._unknown_seen:
                self._unknown_seen.add(etype)  # read as openai:<type> and ignored: say so, once per type
                self._note(
                    StreamRule.UNKNOWN_EVENT,
                    f"'{etype}' is not an event OpenAI documents: read as the extension event "
                    f"openai:{etype} and ignored (nothing of it is applied)",
                )
        elif self.strict or etype not in self._unknown_seen:
            self._unknown_seen.add(etype)  # lenient: one finding per unknown type
            self._violate(
                StreamRule.UNKNOWN_EVENT,
                said(
                    "unknown event type '{etype}': events outside the spec must be named slug:name (clients ignore "
                    "those); with {option:provider} OpenAI's own events are read as openai:<type>",
                    etype=etype,
                ),
            )
        return []

    def _check_sequence(self, raw: Mapping[str, Any], seq: Any, provider: Provider) -> None:
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
            elif self._at is not None:  # reported once, but each item whose events lack it is never handed out
                self._flagged.add(self._at)
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

    def _extension(self, raw: Mapping[str, Any], provider: Provider) -> bool:
        """Validate an extension event (OpenAI's own by their typed model); False after a finding."""
        try:
            ExtensionEvent.model_validate(raw, context=OPENAI_CONTEXT if provider == "openai" else None)
            return True
        except ValidationError as exc:
            return self._schema_finding(exc, raw)

    def _schema_finding(self, exc: ValidationError, raw: Mapping[str, Any], *, one_model: bool = False) -> bool:
        """Record an `event_schema` finding for `exc`, leaving out a missing `sequence_number` (judged on
        its own by the sequence rule); True when nothing else was wrong."""
        errs = [
            e
            for e in event_schema_errors(exc, raw, one_model=one_model)
            if not (e["loc"] and e["loc"][-1] == "sequence_number" and "sequence_number" not in raw)
        ]
        if not errs:
            return True
        self._violate(StreamRule.EVENT_SCHEMA, event_schema_message(exc, raw, errs), errs)
        return False

    def _openai_event(self, raw: Mapping[str, Any], name: str) -> list[OutputItem]:
        """Apply one of OpenAI's own (typed, valid) events to its item, under the core state machine."""
        family, _, step = name.rpartition(".")
        if name in _TEXT_DELTA:
            return self._on_text_delta({**raw, "type": name}, None)
        if name in _TEXT_DONE:
            return self._on_text_done({**raw, "type": name}, None)
        if family in _ARGS_EVENTS:
            return (self._on_args_done if step == "done" else self._on_args_delta)({**raw, "type": name}, None)
        if family in _STATUS_EVENTS:
            slot = self._slot(raw)
            want = _STATUS_EVENTS[family]
            have = _plain_type(slot.type) if slot is not None else None
            if slot is not None and want is not None and have is not None and have != want:
                self._violate(StreamRule.WRONG_ITEM, f"{name} belongs to {want} items, item {slot.index} is {have}")
        return []  # audio events name no item

    def _lifecycle(self, raw: Mapping[str, Any], etype: str) -> list[OutputItem]:
        snap = raw.get("response")
        if not isinstance(snap, dict):
            msg = "a response.* lifecycle event needs a 'response' object"
            code = "missing" if "response" not in raw else "model_type"
            self._violate(StreamRule.EVENT_SCHEMA, msg, [{"loc": ("response",), "type": code, "msg": msg}])
            return []
        self.response = snap
        if etype not in TERMINAL_EVENT_TYPES:
            return []
        status = TERMINAL_STATUS[etype]
        self.status = status
        if snap.get("status") is not None and snap.get("status") != status:
            self._violate(StreamRule.RESPONSE_STATUS, f"{etype} carries a snapshot with status {snap.get('status')!r}")
        try:
            self.resource = parse_response(snap, provider=self.provider)
        except ItemError as exc:
            # an output item that does not parse is what a client stores and then fails to read back: refused,
            # as parse_response refuses it (issue 31); the snapshot's other keys (real ones often miss some)
            # stay a note
            items = [e for e in exc.errors if _output_loc(e.get("loc"))]
            if items:
                shown = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e.get('msg', '')}" for e in items[:3])
                self._violate(
                    StreamRule.ITEM_SCHEMA, f"the final snapshot's output does not parse as parse_response reads it: "
                    f"{shown}", items,
                )  # fmt: skip
            rest = [e for e in exc.errors if not _output_loc(e.get("loc"))]
            missing = [".".join(map(str, e["loc"])) for e in rest if e["type"] == "missing"]
            other = len(rest) - len(missing)
            what = (f"missing {', '.join(missing)}" if missing else "") + (
                f"{'; ' if missing else ''}{other} field(s) of another shape" if other else ""
            )
            if rest:
                self._note(StreamRule.SNAPSHOT_SCHEMA, f"the final snapshot is not a complete response: {what}")
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
            diff = _essential_diff(mine[k], theirs) or unsent_annotations(mine[k], theirs)
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
        """The output item of an `output_item.added` / `.done` event, or None (`item_schema` recorded). A
        function_call is handed out to be executed and its output sent back with its `call_id`: its input
        form must hold too (a `call_id` of 1-64 characters, spec `FunctionCallParam`), as `check_transcript`
        reads a call sent back as it is; when it does not, `item_schema` is recorded and the call, kept in
        `items` for the transcript check, is never handed out (its output index is flagged)."""
        try:
            model = parse_item(item, side="output", provider=provider)
        except ItemError as exc:
            errs = [{**e, "loc": ("item", *e["loc"])} for e in exc.errors]
            self._violate(StreamRule.ITEM_SCHEMA, str(exc).replace("\n ", ""), errs)
            return None
        if isinstance(model, FunctionCall):
            try:
                validate_item(dump_item(model), "input", provider, None)
            except ItemError as exc:  # kept for the transcript check (call_id_empty, ...), never handed out
                errs = [{**e, "loc": ("item", *e["loc"])} for e in exc.errors]
                msg = "a function_call whose input form is invalid cannot be executed and answered: "
                self._violate(StreamRule.ITEM_SCHEMA, msg + str(exc).replace("\n ", ""), errs)
        return model

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
        gap = idx != len(self._slots)
        if gap:  # seen here, before any later event can hand out the item at the wrong position
            self._violate(
                StreamRule.OUTPUT_INDEX,
                f"output_index {idx} is not the next position in response.output: {len(self._slots)} item(s) "
                f"were added before it, so it must be {len(self._slots)}",
            )
        slot = _Slot(idx, item if isinstance(item, dict) else None, tainted=gap or idx in self._flagged)
        if isinstance(item, dict):
            slot.type, slot.id = item.get("type"), item.get("id")
            if self._parse(item, provider) is None:
                slot.tainted = True
            self._claim(slot, item)
        self._slots[idx] = slot
        return []

    def _claim(self, slot: _Slot, item: Mapping[str, Any]) -> None:
        """Record the item's `id` and `call_id`; one already used by another item of this response is a
        `duplicate_id` finding here, at the first event that shows it (the item is never handed out)."""
        for key, seen in (("id", self._by_id), ("call_id", self._call_ids)):
            value = item.get(key)
            if not isinstance(value, str):
                continue
            other = seen.setdefault(value, slot.index)
            if other != slot.index:
                slot.tainted = True
                self._violate(
                    StreamRule.DUPLICATE_ID,
                    f"{key} {value!r} of output_index {slot.index} is already the {key} of output_index {other}",
                )

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
        else:
            self._claim(slot, d)  # ids first seen on the done item
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
        family = by_call_type.get(getattr(parsed, "type", None))  # type: ignore[arg-type]
        if family is not None and (slot.tainted or idx in self._flagged or _held_back(family, d, status)):
            return []
        return [parsed]

    def _check_done_content(self, slot: _Slot, d: Mapping[str, Any]) -> None:
        if slot.got_args or slot.args_done is not None:
            want = slot.args_done if slot.args_done is not None else "".join(slot.args)
            if d.get(slot.args_key) != want:
                slot.tainted = True
                self._violate(
                    StreamRule.ARGUMENTS_MISMATCH,
                    f"the done item's {slot.args_key} {_short(d.get(slot.args_key))} differs from the streamed "
                    f"{_short(want)}",
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
        idx = raw.get("output_index")
        slot = self._slots.get(idx) if type(idx) is int else None
        if slot is not None and not slot.done and raw.get("item_id") == slot.id:  # the common case, in short
            summary = where == "summary"
            part = (slot.summary if summary else slot.parts).get(raw["summary_index" if summary else "content_index"])
            if part is not None and part.kind == kind and not part.closed and part.text_done is None:
                part.chunks.append(raw["delta"])
                part.got_delta = True
                return []
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
        want, key, _ = _ARGS_BY_EVENT[raw["type"]]
        idx = raw.get("output_index")
        slot = self._slots.get(idx) if type(idx) is int else None
        if (
            slot is not None
            and not slot.done
            and raw.get("item_id") == slot.id
            and slot.type == want
            and slot.args_done is None
        ):  # the common case, in short
            slot.args_key = key
            return slot
        slot = self._slot(raw)
        if slot is None:
            return None
        if slot.type is not None and _plain_type(slot.type) != want:
            self._violate(
                StreamRule.WRONG_ITEM,
                f"{raw['type']} events belong to {want} items, item {slot.index} is {slot.type}",
            )
            return None
        if slot.args_done is not None:
            self._violate(StreamRule.AFTER_DONE, f"the {key} of item {slot.index} is already done")
            return None
        slot.args_key = key
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
        args = raw[_ARGS_BY_EVENT[raw["type"]][2]]
        if slot.got_args:
            streamed = "".join(slot.args)
            if streamed != args:
                slot.tainted = True
                self._violate(
                    StreamRule.ARGUMENTS_MISMATCH,
                    f"{slot.args_key} {_short(args)} differs from the concatenated deltas {_short(streamed)}",
                )
        slot.args_done = args
        slot.args = []
        return []

    def _on_error(self, raw: Mapping[str, Any], provider: Provider) -> list[OutputItem]:
        """The spec's `error` event (`error` holds an `ErrorPayload`), or in OpenAI mode OpenAI's flat one
        (`code`, `message`, `param` on the event: `ResponseErrorEvent`, kept whole in `self.error`)."""
        model = event_model(raw, provider)
        try:
            event = model.model_validate(raw, context=OPENAI_CONTEXT if provider == "openai" else None)
        except ValidationError as exc:
            if not self._schema_finding(exc, raw, one_model=model is not ResponseErrorEvent):
                return []
            # only `sequence_number` is missing (an older OpenAI stream: the sequence rule judged it)
            if model is not ResponseErrorEvent:
                self.error = ErrorPayload.model_validate(raw["error"])
                return []
            fields = {k: v for k, v in raw.items() if k != "type"}
            event = ResponseErrorEvent.model_construct(type="openai:error", **fields)
        self.error = event if isinstance(event, ResponseErrorEvent) else event.error
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
    **{t: StreamAssembler._on_text_delta for t in _TEXT_DELTA},
    **{t: StreamAssembler._on_text_done for t in _TEXT_DONE},
}
#: The spec's events inside a response -> handler (the lifecycle events go to `_lifecycle`).
_SPEC_HANDLERS: dict[str, Any] = {t: h for t, h in _HANDLERS.items() if t in SPEC_EVENT_TYPES}
_light_validate = light_event_adapter.validator.validate_python  # the core validator: no per-call wrapper


def _output_loc(loc: Any) -> bool:
    """Whether a validation error's `loc` is inside one of the snapshot's output items (`output.N...`)."""
    return isinstance(loc, tuple | list) and len(loc) > 1 and loc[0] == "output" and isinstance(loc[1], int)
