"""The spec's WebSocket mode (`WebSocketResponseCreateEvent`, `WebSocketErrorEvent`) as
models, a parse function and a bundle; and the bundles for the compaction bodies and the Agents sessions,
create / update bodies and list pages (their differential runs in tests/interop/test_languages.py)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema_rs
import pytest
from conftest import compact_response

import replayable as rp
from replayable import schema as schema_mod
from replayable import websocket as W

CREATE = {
    "type": "response.create",
    "model": "gpt-x",
    "input": [{"type": "message", "role": "user", "content": "hi"}],
    "tools": [{"type": "function", "name": "f", "parameters": {"type": "object"}}],
}
ERROR = {"type": "error", "status": 400, "error": {"code": "invalid_request_error", "message": "bad", "param": None}}
BUNDLE = jsonschema_rs.validator_for(rp.json_schema("websocket-events"))


@pytest.mark.parametrize("form", ["dict", "text", "bytes"])
@pytest.mark.parametrize("value", [CREATE, ERROR], ids=["create", "error"])
def test_websocket_messages_parse_typed_and_round_trip(value: dict[str, Any], form: str) -> None:
    data: Any = {"dict": value, "text": json.dumps(value), "bytes": json.dumps(value).encode()}[form]
    event = W.parse_websocket_event(data)
    assert type(event) is (W.WebSocketResponseCreateEvent if value is CREATE else W.WebSocketErrorEvent)
    assert event.model_dump(mode="json", exclude_unset=True) == value
    assert W.parse_websocket_event(event) is event
    assert BUNDLE.is_valid(value)


def test_a_create_event_is_a_request_body() -> None:
    event = W.parse_websocket_event(CREATE)
    assert isinstance(event, rp.CreateResponseBody)
    assert rp.dump_request(event) == CREATE  # type: ignore[arg-type]
    linted = [(v.code, "/tools/0" + v.path) for v in rp.check_tool(CREATE["tools"][0])]  # type: ignore[index]
    assert [(v.code, v.path) for v in rp.check_transcript(event).violations] == linted  # its tools, linted


@pytest.mark.parametrize("field", W.DISALLOWED_FIELDS)
def test_http_fields_are_not_allowed(field: str) -> None:
    value = {**CREATE, field: None if field == "stream_options" else False}
    with pytest.raises(rp.ItemError) as err:
        W.parse_websocket_event(value)
    assert [(e["loc"], e["type"]) for e in err.value.errors] == [((field,), "websocket_disallowed")]
    assert "socket itself streams" in str(err.value)
    assert not BUNDLE.is_valid(value)
    with pytest.raises(ValueError, match=f"'{field}' is not allowed"):
        W.WebSocketResponseCreateEvent(model="gpt-x", **{field: True})
    assert rp.parse_request({k: v for k, v in value.items() if k != "type"}) is not None  # fine over HTTP


@pytest.mark.parametrize(
    ("value", "loc", "etype"),
    [
        ({"type": "response.created", "sequence_number": 0}, ("type",), "unknown_websocket_type"),
        ({"model": "gpt-x"}, ("type",), "unknown_websocket_type"),
        ({"type": "response.create", "model": "m", "messages": []}, ("messages",), "chat_completions_body"),
        ({"type": "response.create", "input": 5}, ("input",), None),
        ({**ERROR, "status": "400"}, ("status",), "int_type"),
        ({**ERROR, "error": {"message": "m"}}, ("error", "code"), "missing"),
        ([CREATE], (), "model_type"),
    ],
)
def test_bad_messages_name_the_field(value: Any, loc: tuple[Any, ...], etype: str | None) -> None:
    with pytest.raises(rp.ItemError) as err:
        W.parse_websocket_event(value)
    assert loc in [e["loc"] for e in err.value.errors]
    if etype is not None:
        assert etype in [e["type"] for e in err.value.errors]
    assert not BUNDLE.is_valid(value)


NEW_SIDES = {
    "compact-request": ({"model": "gpt-x", "input": "hi"}, {"input": "hi"}),
    "compact-response": (
        {**compact_response(), "id": "c"},
        {"id": "c", "object": "response.compaction", "created_at": 1, "output": []},
    ),
    "agents-session-update": ({"metadata": {"k": "v"}}, {"agent_id": "agt_1"}),
    "agents-session-list": ({"data": [], "has_more": False}, {"data": [5]}),
    "agents-item-list": ({"data": [{"type": "brand_new_item"}]}, {"data": [{"type": "function_call"}]}),
}


@pytest.mark.parametrize("side", sorted(NEW_SIDES))
def test_new_bundles_exist_and_judge_as_the_parsers(side: str) -> None:
    assert side in schema_mod.sides()
    good, bad = NEW_SIDES[side]
    v = jsonschema_rs.validator_for(rp.json_schema(side))
    assert v.is_valid(good) and not v.is_valid(bad)


def test_agents_session_and_create_bundles() -> None:
    for side in ("agents-session", "agents-session-create", "agents-turn-list", "websocket-events"):
        doc = rp.json_schema(side)
        assert doc["$schema"].endswith("2020-12/schema") and doc["$defs"]
    create = jsonschema_rs.validator_for(rp.json_schema("agents-session-create"))
    assert create.is_valid({"agent": {"model": "gpt-x"}, "environment": {"type": "none"}, "input": "hi"})
    assert not create.is_valid({"agent": {}, "environment": {"type": "none"}, "input": "hi"})  # no model, no agent_id


# --- OpenAI mode: OpenAI's own socket messages (openai.types.responses ResponsesClientEvent / ServerEvent) ---

OPENAI_CREATE = {"type": "response.create", "model": "gpt-x", "stream_id": "lane-1",
                 "input": [{"role": "user", "content": "hi"}], "tools": [{"type": "web_search"}]}  # fmt: skip
OPENAI_STEER = {"type": "response.steer", "previous_response_id": "resp_1", "input": "also check the tests"}
OPENAI_ERROR = {"type": "error", "status": 400, "stream_id": "lane-1",
                "error": {"type": "invalid_request_error", "code": None, "message": "bad", "param": "input"}}  # fmt: skip
STEER_PENDING = {"type": "response.steer.pending", "sequence_number": 9, "reason": "waiting_for_required_input",
                 "steer": {"id": "st_1", "previous_response_id": "resp_1"},
                 "required_input": [{"type": "function_call_output", "call_id": "call_1", "name": "f"}]}  # fmt: skip


@pytest.mark.parametrize(
    ("value", "model"),
    [(OPENAI_CREATE, W.OpenAIWebSocketResponseCreateEvent), (OPENAI_STEER, W.OpenAIWebSocketSteerEvent),
     (OPENAI_ERROR, W.OpenAIWebSocketErrorEvent), (STEER_PENDING, W.OpenAIWebSocketSteerPendingEvent)],
    ids=["create", "steer", "error", "steer-pending"],
)  # fmt: skip
def test_openai_socket_messages_parse_typed_and_round_trip(value: dict[str, Any], model: type) -> None:
    event = W.parse_websocket_event(json.dumps(value), provider="openai")
    assert type(event) is model
    assert event.model_dump(mode="json", by_alias=True, exclude_unset=True) == value
    assert W.parse_websocket_event(event, provider="openai") is event


def test_openai_socket_messages_from_sdk_objects_imply_openai_mode() -> None:
    responses = pytest.importorskip("openai.types.responses", reason="the openai SDK is a dev dependency")
    from pydantic import TypeAdapter

    sdk = TypeAdapter(responses.ResponsesClientEvent).validate_python(OPENAI_STEER)
    assert type(W.parse_websocket_event(sdk)) is W.OpenAIWebSocketSteerEvent


@pytest.mark.parametrize("field", ["stream", "stream_options", "background"])
def test_openai_create_refuses_the_http_fields_too(field: str) -> None:
    with pytest.raises(rp.ItemError) as err:
        W.parse_websocket_event({**OPENAI_CREATE, field: True}, provider="openai")
    assert [(e["loc"], e["type"]) for e in err.value.errors] == [((field,), "websocket_disallowed")]


def test_openai_mode_points_streaming_events_to_the_stream_reader() -> None:
    event = {"type": "response.output_text.delta", "sequence_number": 1, "item_id": "m", "output_index": 0,
             "content_index": 0, "delta": "hi", "logprobs": [], "stream_id": "lane-1"}  # fmt: skip
    with pytest.raises(rp.ItemError) as err:
        W.parse_websocket_event(event, provider="openai")
    assert [(e["loc"], e["type"]) for e in err.value.errors] == [(("type",), "stream_event_on_socket")]
    assert "stream.parse_event" in str(err.value)
    from replayable import stream as S

    assert S.parse_event(event, provider="openai").model_dump(mode="json", exclude_unset=True) == event


def test_strict_mode_refuses_openai_socket_messages_naming_openai_mode() -> None:
    with pytest.raises(rp.ItemError) as err:
        W.parse_websocket_event(OPENAI_STEER)
    assert err.value.errors[0]["type"] == "unknown_websocket_type" and "provider='openai'" in str(err.value)
    with pytest.raises(rp.ItemError) as err:  # OpenAI's error envelope lacks the spec's required status/code
        W.parse_websocket_event({**OPENAI_ERROR, "status": None})
    with pytest.raises(ValueError, match="provider"):
        W.parse_websocket_event(OPENAI_STEER, provider="acme")  # type: ignore[arg-type]


def test_openai_steer_errors_name_the_field() -> None:
    with pytest.raises(rp.ItemError) as err:
        W.parse_websocket_event({**STEER_PENDING, "required_input": [{"type": "function_call_output",
                                                                      "call_id": 5}]}, provider="openai")  # fmt: skip
    assert [e["loc"] for e in err.value.errors] == [("required_input", 0, "call_id")]


@pytest.mark.parametrize("provider", [None, "openai"])
@pytest.mark.parametrize("bad_type", [["response.create"], {"a": 1}, 5, None])
def test_a_type_of_any_json_kind_is_a_library_error(bad_type: Any, provider: str | None) -> None:
    with pytest.raises(rp.ItemError) as err:
        W.parse_websocket_event({"type": bad_type}, provider=provider)  # type: ignore[arg-type]
    assert err.value.errors[0]["loc"] == ("type",)
