"""`stream.parse_event`: a known event type is read by its own model only, never by a
fallback; a malformed spec event is an `event_schema` error naming the field and the rule; in OpenAI
mode OpenAI's lifecycle events (with OpenAI's Response snapshot) and OpenAI's flat `error` event are
typed. Point 3: a negative stream index is refused by choice, and the error says so.
"""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import pytest
from conftest import FULL_RESPONSE
from openai.types.responses import ResponseStreamEvent
from pydantic import TypeAdapter, ValidationError
from test_stream import STREAMS

import replayable as rp
from replayable import stream as S
from replayable.stream._events import _SPEC_MODELS

RESP = FULL_RESPONSE
_VALUES: dict[str, Any] = {
    "sequence_number": 3,
    "item_id": "it_1",
    "output_index": 0,
    "content_index": 0,
    "summary_index": 0,
    "annotation_index": 0,
    "delta": "de",
    "text": "te",
    "arguments": "{}",
    "refusal": "no",
    "part": {"type": "output_text", "text": "", "annotations": []},
    "item": {"type": "message", "id": "it_1", "status": "in_progress", "role": "assistant", "content": []},
    "annotation": {"type": "url_citation", "url": "https://x.test", "start_index": 0, "end_index": 1, "title": "t"},
    "response": RESP,
    "error": {"type": "server_error", "code": None, "message": "boom", "param": None},
}
#: A value of the wrong JSON type for each field.
_WRONG: dict[type, Any] = {int: "1", str: 5}


def valid(etype: str) -> dict[str, Any]:
    model = _SPEC_MODELS[etype]
    return {"type": etype} | {k: _VALUES[k] for k, f in model.model_fields.items() if k != "type" and f.is_required()}


def test_every_spec_event_has_a_model_and_a_valid_instance_reads_back() -> None:
    assert set(_SPEC_MODELS) == S.SPEC_EVENT_TYPES and len(_SPEC_MODELS) == 24
    for etype in sorted(_SPEC_MODELS):
        ev = valid(etype)
        for provider in (None, "openai"):
            got = S.parse_event(ev, provider=provider)
            assert isinstance(got, _SPEC_MODELS[etype]), (etype, provider)
            assert not isinstance(got, S.ExtensionEvent), (etype, provider)
            assert got.model_dump(mode="json", by_alias=True, exclude_unset=True) == ev


def _malformed(etype: str) -> list[tuple[str, dict[str, Any], str]]:
    """(field, the event with that field missing or of the wrong type, the message it must give)."""
    ev = valid(etype)
    model = _SPEC_MODELS[etype]
    out = []
    for name, field in model.model_fields.items():
        if name == "type":
            continue
        if field.is_required():
            out.append((name, {k: v for k, v in ev.items() if k != name}, "Field required"))
        wrong = _WRONG.get(field.annotation) if isinstance(field.annotation, type) else None  # type: ignore[call-overload]
        if wrong is None:
            wrong = 5  # an object (part, item, response, error) or a list given a number
        out.append((name, {**ev, name: wrong}, ""))
    return out


@pytest.mark.parametrize("provider", [None, "openai"])
@pytest.mark.parametrize("etype", sorted(S.SPEC_EVENT_TYPES))
def test_a_malformed_spec_event_names_its_field_and_rule(etype: str, provider: Any) -> None:
    for name, ev, msg in _malformed(etype):
        if provider == "openai" and etype == "error" and name == "error":
            continue  # an `error` event without an `error` object is OpenAI's flat one there (below)
        with pytest.raises(S.StreamError) as exc:
            S.parse_event(ev, provider=provider)
        err = exc.value
        assert err.rule == S.StreamRule.EVENT_SCHEMA, (name, str(err))
        assert "slug" not in str(err) and "prefixed" not in str(err), str(err)
        assert err.message.startswith(f"{name}:") or f"; {name}:" in err.message or f"{name}." in err.message, (
            name,
            str(err),
        )
        assert msg in err.message
        assert err.event_type == etype


def test_a_type_that_is_not_a_string_or_unknown_is_named() -> None:
    with pytest.raises(S.StreamError, match=r"type: an event needs a string 'type'.*got missing") as exc:
        S.parse_event({"sequence_number": 1})
    assert exc.value.rule == S.StreamRule.EVENT_SCHEMA
    with pytest.raises(S.StreamError, match="got a int"):
        S.parse_event({"type": 5, "sequence_number": 1}, provider="openai")
    with pytest.raises(S.StreamError) as exc:
        S.parse_event({"type": "response.output_text.deltaa", "sequence_number": 1})
    assert exc.value.rule == S.StreamRule.UNKNOWN_EVENT


# --- OpenAI mode ----------------------------------------------------------------------------------

SDK_EVENT: TypeAdapter[Any] = TypeAdapter(ResponseStreamEvent)
LIFECYCLE = {
    "response.created": S.OpenAIResponseCreatedEvent,
    "response.queued": S.OpenAIResponseQueuedEvent,
    "response.in_progress": S.OpenAIResponseInProgressEvent,
    "response.completed": S.OpenAIResponseCompletedEvent,
    "response.failed": S.OpenAIResponseFailedEvent,
    "response.incomplete": S.OpenAIResponseIncompleteEvent,
}


def _corpus_events(path: Path) -> list[dict[str, Any]]:
    body: list[dict[str, Any]] = json.loads(path.read_text())["body"]
    return body


@pytest.mark.parametrize("path", STREAMS)
def test_every_recorded_openai_event_is_typed_never_opaque(path: Path) -> None:
    """Each event of a recorded OpenAI stream, as a dict and as the SDK's object: a spec type is read by
    its model (lifecycle events with OpenAI's snapshot), never by the generic `ExtensionEvent`."""
    for ev in _corpus_events(path):
        forms: list[Any] = [ev]
        if "sequence_number" in ev:  # the SDK (3.57) requires it; older recordings lack it
            try:
                forms.append(SDK_EVENT.validate_python(ev))
            except ValidationError:
                pass  # an event type this SDK does not know
        for data in forms:
            if "sequence_number" not in ev and ev["type"] in S.SPEC_EVENT_TYPES:
                with pytest.raises(S.StreamError, match="sequence_number: Field required"):
                    S.parse_event(data, provider="openai")
                continue
            got = S.parse_event(data, provider="openai")
            assert type(got) is not S.ExtensionEvent or ev["type"] not in S.SPEC_EVENT_TYPES, ev["type"]
            if ev["type"] in LIFECYCLE:
                assert type(got) is LIFECYCLE[ev["type"]]
                assert isinstance(got.response, rp.Response)
                assert got.response.id == ev["response"]["id"]
            if data is ev:
                assert got.model_dump(mode="json", by_alias=True, exclude_unset=True) == ev


@pytest.mark.parametrize("etype", sorted(LIFECYCLE))
def test_openai_lifecycle_events_carry_openais_snapshot(etype: str) -> None:
    snap = {
        k: RESP[k]
        for k in ("id", "object", "created_at", "model", "output", "parallel_tool_calls", "tool_choice", "tools")
    }
    ev = {"type": etype, "sequence_number": 0, "response": snap}
    got = S.parse_event(ev, provider="openai")
    assert type(got) is LIFECYCLE[etype] and got.model_dump(mode="json", by_alias=True, exclude_unset=True) == ev
    sdk = SDK_EVENT.validate_python(ev)
    assert type(S.parse_event(sdk)) is LIFECYCLE[etype]  # the SDK object implies OpenAI mode
    with pytest.raises(S.StreamError) as exc:  # strict Open Responses mode wants the whole resource
        S.parse_event(ev)
    assert exc.value.rule == S.StreamRule.EVENT_SCHEMA and "response.completed_at: Field required" in str(exc.value)
    with pytest.raises(S.StreamError, match=r"response\.output\.0") as exc:  # a bad item in the snapshot
        S.parse_event(
            {**ev, "response": {**snap, "output": [{"type": "function_call", "arguments": {}}]}}, provider="openai"
        )
    with pytest.raises(S.StreamError, match="response: ") as exc:
        S.parse_event({**ev, "response": 5}, provider="openai")


def test_openais_flat_error_event_is_typed() -> None:
    flat = {"type": "error", "code": "ERR_X", "message": "Something went wrong", "param": None, "sequence_number": 1}
    model = S.OPENAI_EVENT_TYPES["openai:error"]
    for data in (flat, SDK_EVENT.validate_python(flat)):
        got = S.parse_event(data, provider="openai")
        assert type(got) is model and got.message == "Something went wrong"  # type: ignore[attr-defined]
        assert got.model_dump(mode="json", by_alias=True, exclude_unset=True) == flat
    no_code = {k: v for k, v in flat.items() if k != "code"}  # the SDK has `code` optional
    assert S.parse_event(no_code, provider="openai").model_dump(mode="json", exclude_unset=True) == no_code
    with pytest.raises(S.StreamError, match="message: Field required"):
        S.parse_event({k: v for k, v in flat.items() if k != "message"}, provider="openai")
    with pytest.raises(S.StreamError, match="error: Field required"):  # the spec's error nests its payload
        S.parse_event(flat)
    # the assembler keeps it in `error`, in OpenAI mode
    asm = S.StreamAssembler(provider="openai")
    asm.feed({"type": "response.created", "sequence_number": 0, "response": {"id": "r", "status": "in_progress"}})
    asm.feed(flat)
    assert type(asm.error) is model and asm.error.message == "Something went wrong"  # type: ignore[union-attr]
    strict = S.StreamAssembler()
    with pytest.raises(S.StreamError, match="error: Field required"):
        strict.feed(flat)
    lenient = S.StreamAssembler(strict=False)
    lenient.feed(flat)
    assert [(w.rule, w.message) for w in lenient.warnings] == [("event_schema", "error: Field required")]


# --- point 3: negative indices, refused by a documented choice -------------------------------------


@pytest.mark.parametrize("field", ["output_index", "content_index", "summary_index", "annotation_index"])
def test_a_negative_index_is_refused_naming_the_choice(field: str) -> None:
    etype = next(t for t in sorted(_SPEC_MODELS) if field in _SPEC_MODELS[t].model_fields)
    ev = {**valid(etype), field: -1}
    for provider in (None, "openai"):
        with pytest.raises(S.StreamError) as exc:
            S.parse_event(ev, provider=provider)
        assert exc.value.rule == S.StreamRule.EVENT_SCHEMA
        assert f"{field}: Input should be greater than or equal to 0" in str(exc.value)
        assert "never negative" in str(exc.value) and "schemas/README.md" in str(exc.value)
    readme = (Path(__file__).resolve().parent.parents[1] / "schemas" / "README.md").read_text()
    assert "Stream event indices" in readme


def test_the_sdk_union_has_every_spec_type_and_no_other_lifecycle() -> None:
    members = typing.get_args(typing.get_args(ResponseStreamEvent)[0])
    types = {typing.get_args(m.model_fields["type"].annotation)[0] for m in members}
    assert set(LIFECYCLE) <= types and "error" in types
