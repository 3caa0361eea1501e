"""The response object: recorded responses parse and dump back exactly (OpenAI mode, and strict where they
carry every spec key); typed fields; errors name the field; the model agrees with the openai SDK's
`Response` on the same inputs; the bundle agrees with parse_response; the compaction endpoint."""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from conftest import corpus_files, full_response, load, needs_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis_jsonschema import from_schema
from openai.types.responses import Response as SDKResponse
from pydantic import ValidationError

import replayable as rp
from replayable.request import FunctionTool, NamespacedTool, TextField, TextFormat
from replayable.response import IncompleteDetails, ResponseError, Usage

OFFICIAL = json.loads((resources.files("openresponses") / "openapi" / "2026-04-24.json").read_text(encoding="utf-8"))
RESOURCE = jsonschema_rs.validator_for(
    {"$ref": "#/components/schemas/ResponseResource", "components": OFFICIAL["components"]}
)
COMPACT = jsonschema_rs.validator_for({"$ref": "#/components/schemas/CompactResource", "components": OFFICIAL["components"]})
BUNDLE = jsonschema_rs.validator_for(rp.json_schema("response"))

RESPONSES = [p for p in corpus_files("response") if load(p)["body"].get("object") == "response"]
COMPACTIONS = [p for p in corpus_files("response") if load(p)["body"].get("object") == "response.compaction"]


def test_full_response_is_typed_end_to_end() -> None:
    data = full_response()
    assert RESOURCE.is_valid(data) and BUNDLE.is_valid(data)
    resp = rp.parse_response(data)
    assert isinstance(resp.output[0], rp.FunctionCall) and resp.output[0].call_id == "call_1"
    assert isinstance(resp.tools[0], FunctionTool)
    assert isinstance(resp.text, TextField) and isinstance(resp.text.format, TextFormat)
    assert isinstance(resp.usage, Usage) and resp.usage.total_tokens == 15
    assert rp.dump_response(resp) == data
    assert rp.dump_response(rp.parse_response(json.dumps(data).encode())) == data
    failed = dict(data, status="failed", error={"code": "server_error", "message": "boom"})
    assert isinstance(rp.parse_response(failed).error, ResponseError)
    cut = dict(data, status="incomplete", incomplete_details={"reason": "max_output_tokens"})
    assert isinstance(rp.parse_response(cut).incomplete_details, IncompleteDetails)


@needs_corpus
def test_there_are_recorded_responses() -> None:
    assert len(RESPONSES) >= 20 and COMPACTIONS


@needs_corpus
@pytest.mark.parametrize("path", RESPONSES, ids=lambda p: p.stem)
def test_recorded_response_round_trips(path: Path) -> None:
    body = load(path)["body"]
    resp = rp.parse_response(body, provider="openai")
    assert isinstance(resp, rp.Response)
    assert rp.dump_response(resp) == body
    # the same through the openai SDK's object, which implies OpenAI mode (the pinned SDK requires
    # usage.input_tokens_details.cache_write_tokens, which recordings before it existed lack)
    sdk_body = copy.deepcopy(body)
    details = (sdk_body.get("usage") or {}).get("input_tokens_details")
    if isinstance(details, dict):
        details.setdefault("cache_write_tokens", 0)
    sdk = SDKResponse.model_validate(sdk_body)
    assert rp.dump_response(rp.parse_response(sdk)) == sdk.model_dump(mode="json", exclude_unset=True)
    # strict mode accepts exactly the recordings that carry every spec key in spec shapes
    try:
        rp.parse_response(body)
        strict = True
    except rp.ItemError:
        strict = False
    assert strict == BUNDLE.is_valid(body)
    if strict:
        assert RESOURCE.is_valid(body)


@needs_corpus
def test_native_tools_and_items_are_namespaced() -> None:
    body = load(next(p for p in RESPONSES if p.stem == "pai-10"))["body"]
    resp = rp.parse_response(body, provider="openai")
    assert isinstance(resp.tools[0], NamespacedTool) and resp.tools[0].wire_type == "web_search"
    assert isinstance(resp.output[0], rp.NamespacedItem) and resp.output[0].type == "openai:web_search_call"


@needs_corpus
@pytest.mark.parametrize("path", COMPACTIONS, ids=lambda p: p.stem)
def test_recorded_compaction_round_trips(path: Path) -> None:
    body = load(path)["body"]
    resp = rp.parse_compact_response(body)
    assert rp.dump_response(resp) == body and COMPACT.is_valid(body)
    assert any(isinstance(x, rp.Compaction) for x in resp.output)
    with pytest.raises(rp.ItemError, match="parse_compact_response"):
        rp.parse_response(body)


@pytest.mark.parametrize(
    ("change", "loc", "code"),
    [
        ({"output": [{"type": "function_call", "id": "fc", "call_id": "c", "name": "f", "arguments": {}, "status": "completed"}]}, ("output", 0, "arguments"), "string_type"),
        ({"output": [{"type": "web_search_call", "id": "ws"}]}, ("output", 0), "unknown_item_type"),
        ({"usage": {"input_tokens": 1}}, ("usage", "output_tokens"), "missing"),
        ({"tool_choice": "sometimes"}, ("tool_choice",), "literal_error"),
        ({"tools": [{"type": "function", "name": "f"}]}, ("tools", 0, "description"), "missing"),
        ({"text": {"format": {"type": "yaml"}}}, ("text", "format", "type"), "union_tag_invalid"),
        ({"created_at": "yesterday"}, ("created_at",), "int_type"),
        ({"object": "chat.completion"}, ("object",), "literal_error"),
    ],
)
def test_bad_response_names_the_field(change: dict[str, Any], loc: tuple[Any, ...], code: str) -> None:
    data = full_response() | change
    with pytest.raises(rp.ItemError) as err:
        rp.parse_response(data)
    assert (loc, code) in [(e["loc"], e["type"]) for e in err.value.errors], err.value.errors
    assert not BUNDLE.is_valid(data)


@pytest.mark.parametrize("key", sorted(full_response()))
def test_every_key_is_required_in_strict_mode(key: str) -> None:
    data = full_response()
    del data[key]
    with pytest.raises(rp.ItemError) as err:
        rp.parse_response(data)
    assert err.value.errors[0]["loc"] == (key,)
    assert not RESOURCE.is_valid(data) and not BUNDLE.is_valid(data)


# ---- differential: our OpenAI mode against openai.types.responses.Response, key by key ----

SDK_REQUIRED = {"id", "object", "created_at", "model", "output", "parallel_tool_calls", "tool_choice", "tools"}


def accepts_ours(data: dict[str, Any]) -> bool:
    try:
        rp.parse_response(data, provider="openai")
    except rp.ItemError:
        return False
    return True


def accepts_sdk(data: dict[str, Any]) -> bool:
    try:
        SDKResponse.model_validate(data, strict=True)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("key", sorted(full_response()))
def test_response_agrees_with_sdk_on_missing_keys(key: str) -> None:
    data = full_response()
    del data[key]
    assert accepts_ours(data) == accepts_sdk(data) == (key not in SDK_REQUIRED)


#: key -> a wrong value both refuse
WRONG = {
    "id": 5,
    "created_at": "now",
    "output": {"type": "message"},
    "tools": "get_weather",
    "tool_choice": 5,
    "parallel_tool_calls": "yes",
    "usage": {"input_tokens": "ten"},
    "error": {"code": 5},
    "incomplete_details": "max_output_tokens",
    "text": "plain",
    "max_output_tokens": "many",
    "temperature": "hot",
    "reasoning": "high",
    "metadata": ["a"],
    "previous_response_id": 5,
    "instructions": 5,
}


@pytest.mark.parametrize("key", sorted(WRONG))
def test_response_agrees_with_sdk_on_wrong_values(key: str) -> None:
    data = full_response() | {key: WRONG[key]}
    assert not accepts_ours(data) and not accepts_sdk(data)
    assert accepts_ours(full_response()) and accepts_sdk(full_response())


@needs_corpus
def test_mutated_recordings_agree_with_sdk() -> None:
    """Each recorded response with one output item's `type` or `call_id` broken: both refuse."""
    checked = 0
    for path in RESPONSES:
        body = load(path)["body"]
        for i, item in enumerate(body["output"]):
            if item.get("type") != "function_call":
                continue
            bad = copy.deepcopy(body)
            bad["output"][i]["call_id"] = 5
            bad["usage"]["input_tokens_details"].setdefault("cache_write_tokens", 0)
            assert not accepts_ours(bad) and not accepts_sdk(bad), path.stem
            checked += 1
    assert checked >= 5


# ---- conformance: responses generated from the official ResponseResource ----


def documented_difference(body: dict[str, Any], error: dict[str, Any]) -> bool:
    """An error schemas/README.md lists as deliberate: `metadata` that is not an object or null, or an
    output item our item models refuse on their own (tests/contracts/test_conformance.py)."""
    loc = error["loc"]
    if loc[:1] == ("metadata",):
        return not isinstance(body["metadata"], dict | None)
    if loc[:1] == ("output",) and len(loc) > 1 and isinstance(loc[1], int):
        try:
            rp.parse_item(body["output"][loc[1]], side="output")
        except rp.ItemError:
            return True
    return False


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(from_schema({"$ref": "#/components/schemas/ResponseResource", "components": OFFICIAL["components"]}))
def test_official_responses_parse_and_dump_back(body: dict[str, Any]) -> None:
    try:
        parsed = rp.parse_response(body)
    except rp.ItemError as err:
        assert all(documented_difference(body, e) for e in err.errors), err.errors
        return
    assert rp.dump_response(parsed) == body
