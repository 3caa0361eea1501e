"""`StreamError.errors`: a malformed event is refused with a list of `{loc, type, msg}`, as
`ItemError.errors` has them, on every entry point that raises it: `parse_event` (dict, JSON text, bytes,
an openai SDK event), `StreamAssembler.feed`, `.feed_sse` and `.feed_bytes` (strict mode). A value an
event carries as a JSON object (an item, a content part, an annotation, logprobs, a lifecycle event's
Response snapshot) is read by the library's own readers, its errors located under its field."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import FULL_RESPONSE

import replayable as rp
from replayable import stream as S

DELTA = {"type": "response.output_text.delta", "sequence_number": 3, "item_id": "m1", "output_index": 0,
         "content_index": 0, "delta": "hi"}  # fmt: skip
PART_ADDED = {"type": "response.content_part.added", "sequence_number": 2, "item_id": "m1", "output_index": 0,
              "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []}}  # fmt: skip
RESP = FULL_RESPONSE


def _locs(exc: S.StreamError) -> list[tuple[tuple[Any, ...], str]]:
    for e in exc.errors:
        assert set(e) >= {"loc", "type", "msg"} and isinstance(e["loc"], tuple) and e["msg"]
    return [(e["loc"], e["type"]) for e in exc.errors]


def _refused(data: Any, **kw: Any) -> S.StreamError:
    with pytest.raises(S.StreamError) as info:
        S.parse_event(data, **kw)
    assert isinstance(info.value, rp.ReplayableError)
    return info.value


@pytest.mark.parametrize("form", ["dict", "text", "bytes"])
def test_parse_event_names_each_field_and_rule(form: str) -> None:
    bad = {k: v for k, v in DELTA.items() if k != "sequence_number"} | {"delta": 5}
    data: Any = bad if form == "dict" else json.dumps(bad) if form == "text" else json.dumps(bad).encode()
    exc = _refused(data)
    assert exc.rule == S.StreamRule.EVENT_SCHEMA
    assert sorted(_locs(exc)) == [(("delta",), "string_type"), (("sequence_number",), "missing")]


def test_parse_event_openai_sdk_object() -> None:
    types = pytest.importorskip("openai.types.responses")
    sdk = types.ResponseTextDeltaEvent.model_construct(**{**DELTA, "delta": 5, "logprobs": []})
    exc = _refused(sdk)
    assert (("delta",), "string_type") in _locs(exc)


def test_type_errors_are_located_at_type() -> None:
    assert _locs(_refused({"sequence_number": 1})) == [(("type",), "missing")]
    assert _locs(_refused({"type": 5})) == [(("type",), "string_type")]
    exc = _refused({"type": "response.nonsense", "sequence_number": 1})
    assert exc.rule == S.StreamRule.UNKNOWN_EVENT and _locs(exc) == [(("type",), "unknown_event")]
    assert _locs(_refused("[1]")) == [((), "model_type")]


def test_a_negative_index_is_named_with_its_reason() -> None:
    exc = _refused({**DELTA, "output_index": -1})
    assert _locs(exc) == [(("output_index",), "greater_than_equal")]
    assert "never negative" in exc.errors[0]["msg"]


@pytest.mark.parametrize(
    ("event", "loc", "etype"),
    [
        ({**PART_ADDED, "part": {"type": "input_image", "image_url": 5}}, ("part", "image_url"), "string_type"),
        ({**PART_ADDED, "part": {"type": "output_text", "annotations": []}}, ("part", "text"), "missing"),
        (
            {"type": "response.output_text.annotation.added", "sequence_number": 4, "item_id": "m1",
             "output_index": 0, "content_index": 0, "annotation_index": 0,
             "annotation": {"type": "url_citation", "url": "https://x.test", "start_index": 0, "end_index": 1}},
            ("annotation", "title"), "missing",
        ),
        ({**DELTA, "logprobs": [{"token": "t", "logprob": 0.0, "bytes": [1]}]}, ("logprobs", 0, "top_logprobs"),
         "missing"),
        (
            {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0,
             "item": {"type": "function_call", "id": "f1", "call_id": "c", "name": "f", "arguments": {}, "status": "in_progress"}},
            ("item", "arguments"), "string_type",
        ),
        (
            {"type": "response.created", "sequence_number": 0, "response": {**RESP, "tools": [{"type": "function"}]}},
            ("response", "tools", 0, "name"), "missing",
        ),
    ],
    ids=["part-type", "part-missing", "annotation", "logprobs", "item", "snapshot"],
)  # fmt: skip
def test_nested_values_are_read_by_the_library_readers(event: dict[str, Any], loc: tuple[Any, ...], etype: str) -> None:
    exc = _refused(event)
    assert exc.rule == S.StreamRule.EVENT_SCHEMA
    assert (loc, etype) in _locs(exc), exc.errors
    assert ".".join(map(str, loc)) in str(exc)


def test_every_problem_at_once_the_items_too() -> None:
    event = {"type": "response.output_item.added", "sequence_number": 1, "output_index": -1,
             "item": {"type": "function_call", "id": "f1", "call_id": "c", "name": "f", "arguments": {}, "status": "in_progress"}}  # fmt: skip
    assert sorted(_locs(_refused(event))) == [(("item", "arguments"), "string_type"),
                                             (("output_index",), "greater_than_equal")]  # fmt: skip


def test_openai_mode_snapshot_errors_are_located_too() -> None:
    event = {"type": "response.created", "sequence_number": 0, "response": {**RESP, "status": 5}}
    assert (("response", "status"), "string_type") in _locs(_refused(event, provider="openai"))


def test_valid_nested_values_pass() -> None:
    assert S.parse_event(PART_ADDED).type == "response.content_part.added"
    assert S.parse_event({"type": "response.created", "sequence_number": 0, "response": RESP}).response.id == "resp_1"


def _stream(*events: dict[str, Any]) -> list[dict[str, Any]]:
    added = {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0,
             "item": {"type": "message", "id": "m1", "status": "in_progress", "role": "assistant", "content": []}}  # fmt: skip
    return [{"type": "response.created", "sequence_number": 0, "response": RESP}, added, *events]


def _sse(events: list[dict[str, Any]]) -> str:
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)


@pytest.mark.parametrize("entry", ["feed", "feed_sse", "feed_bytes"])
@pytest.mark.parametrize(
    ("bad", "loc", "etype"),
    [
        ({**PART_ADDED, "part": {"type": "input_image", "image_url": 5}}, ("part", "image_url"), "string_type"),
        ({**DELTA, "delta": 5}, ("delta",), "string_type"),
    ],
    ids=["part", "delta"],
)
def test_the_assembler_raises_the_same_errors(
    entry: str, bad: dict[str, Any], loc: tuple[Any, ...], etype: str
) -> None:
    asm = S.StreamAssembler()
    events = _stream(bad)
    with pytest.raises(S.StreamError) as info:
        if entry == "feed":
            for e in events:
                asm.feed(e)
        elif entry == "feed_sse":
            list(asm.feed_sse(_sse(events)))
        else:
            asm.feed_bytes(_sse(events).encode())
            asm.close()
    assert info.value.rule == S.StreamRule.EVENT_SCHEMA
    assert (loc, etype) in _locs(info.value)


def test_the_lenient_assembler_records_a_bad_part() -> None:
    asm = S.StreamAssembler(strict=False)
    for e in _stream({**PART_ADDED, "part": {"type": "input_image", "image_url": 5}}):
        asm.feed(e)
    assert [w.rule for w in asm.warnings] == [S.StreamRule.EVENT_SCHEMA]
    assert "part.image_url" in asm.warnings[0].message


def test_a_rule_without_a_field_has_one_error_at_the_event() -> None:
    asm = S.StreamAssembler()
    asm.feed(_stream()[0])
    with pytest.raises(S.StreamError) as info:
        asm.feed({**_stream()[1], "sequence_number": 0})
    assert info.value.rule == S.StreamRule.SEQUENCE_ORDER
    assert _locs(info.value) == [((), "sequence_order")]
    assert info.value.errors[0]["msg"] == info.value.message


def test_the_stream_events_bundle_types_the_same_values() -> None:
    """The exported `stream-events` JSON Schema judges the nested values as `parse_event` does."""
    jsonschema_rs = pytest.importorskip("jsonschema_rs")
    bundle = jsonschema_rs.validator_for(rp.json_schema("stream-events"))
    bad = [
        {**PART_ADDED, "part": {"type": "input_image", "image_url": 5}},
        {**DELTA, "logprobs": [{"token": "t", "logprob": 0.0, "bytes": [1]}]},
        {"type": "response.output_text.annotation.added", "sequence_number": 4, "item_id": "m1", "output_index": 0,
         "content_index": 0, "annotation_index": 0, "annotation": {"type": "url_citation", "url": "u"}},
    ]  # fmt: skip
    for event in bad:
        with pytest.raises(S.StreamError):
            S.parse_event(event)
        assert not bundle.is_valid(event), event
    good = [PART_ADDED, {**DELTA, "logprobs": [{"token": "t", "logprob": 0.0, "bytes": [1], "top_logprobs": []}]}]
    for event in good:
        S.parse_event(event)
        assert bundle.is_valid(event), event
