"""The request body of POST /responses: built by keyword, dumped to exactly what is sent, valid against the
official CreateResponseBody schema; recorded requests parse and dump back unchanged; errors name the
field; the model agrees with the openai SDK's ResponseCreateParams field by field; the bundle agrees with
parse_request."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from conftest import corpus_files, load, needs_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis_jsonschema import from_schema
from openai.types.responses import ResponseCreateParams
from pydantic import TypeAdapter, ValidationError

import replayable as rp
from replayable.parts import InputImageContentParam, InputTextContent, OutputTextContentParam
from replayable.request import (
    AllowedToolsParam,
    FunctionToolParam,
    JsonObjectFormat,
    JsonSchemaFormatParam,
    NamespacedTool,
    ReasoningConfigParam,
    SpecificFunctionParam,
    StreamOptions,
    TextFormat,
    TextParam,
)

OFFICIAL = json.loads((resources.files("openresponses") / "openapi" / "2026-04-24.json").read_text(encoding="utf-8"))
CREATE_BODY = jsonschema_rs.validator_for(
    {"$ref": "#/components/schemas/CreateResponseBody", "components": OFFICIAL["components"]}
)
BUNDLE = jsonschema_rs.validator_for(rp.json_schema("request"))
SDK_PARAMS = TypeAdapter(ResponseCreateParams)

WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
    "additionalProperties": False,
}


def built_requests() -> list[rp.CreateResponseBody]:
    """Requests built by keyword, covering every field of the official body."""
    call = rp.FunctionCallParam(call_id="call_1", name="get_weather", arguments='{"city": "Paris"}')
    return [
        rp.CreateResponseBody(model="gpt-5", input="Hello"),
        rp.CreateResponseBody(
            model="gpt-5",
            instructions="Be brief.",
            input=[
                rp.SystemMessageParam(content="You are terse."),
                rp.DeveloperMessageParam(content=[InputTextContent(text="Answer in French.")]),
                rp.UserMessageParam(
                    content=[
                        InputTextContent(text="Weather?"),
                        InputImageContentParam(image_url="https://example.com/a.png", detail="low"),
                    ]
                ),
                rp.AssistantMessageParam(content=[OutputTextContentParam(text="Let me check.")], phase="commentary"),
                call,
                rp.FunctionCallOutputParam(call_id="call_1", output="18C"),
                rp.ReasoningParam(summary=[], encrypted_content="gAAA"),
                rp.ItemReferenceParam(id="msg_1"),
            ],
            tools=[FunctionToolParam(name="get_weather", description="Weather in a city", parameters=WEATHER, strict=True)],
            tool_choice=AllowedToolsParam(tools=[SpecificFunctionParam(name="get_weather")], mode="required"),
            text=TextParam(
                format=JsonSchemaFormatParam(name="answer", schema=WEATHER, strict=True, description="d"),
                verbosity="low",
            ),
            reasoning=ReasoningConfigParam(effort="high", summary="auto"),
            include=["reasoning.encrypted_content", "message.output_text.logprobs"],
            parallel_tool_calls=False,
            max_output_tokens=256,
            max_tool_calls=3,
            previous_response_id="resp_1",
            store=False,
            stream=True,
            stream_options=StreamOptions(include_obfuscation=False),
            background=False,
            metadata={"user": "u1"},
            truncation="disabled",
            temperature=0.2,
            top_p=0.9,
            presence_penalty=0.0,
            frequency_penalty=0.5,
            top_logprobs=2,
            safety_identifier="user-1",
            prompt_cache_key="k1",
            service_tier="flex",
        ),
        rp.CreateResponseBody(tool_choice="none", text=TextParam(format=TextFormat()), tools=[], input=[]),
        rp.CreateResponseBody(tool_choice=SpecificFunctionParam(name="get_weather"), model=None, input=None),
    ]


def every_item_and_part_has_type(value: Any, path: str = "") -> list[str]:
    """Paths of objects in `input` / `tools` / formats that lack `type`."""
    missing: list[str] = []
    if isinstance(value, dict):
        if "type" not in value:
            missing.append(path)
        for k, v in value.items():
            if k in ("content", "output", "summary", "format", "tools") and isinstance(v, list | dict):
                missing += every_item_and_part_has_type(v, f"{path}/{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            missing += every_item_and_part_has_type(v, f"{path}/{i}")
    return missing


@pytest.mark.parametrize("body", built_requests(), ids=range(4))
def test_built_request_dumps_what_is_sent(body: rp.CreateResponseBody) -> None:
    out = rp.dump_request(body)
    assert out == body.model_dump(mode="json", exclude_unset=True) == body.model_dump(mode="json")
    assert CREATE_BODY.is_valid(out), list(CREATE_BODY.iter_errors(out))[:3]
    assert BUNDLE.is_valid(out)
    assert rp.dump_request(rp.parse_request(out)) == out
    assert rp.dump_request(rp.parse_request(json.dumps(out))) == out
    for key in ("input", "tools"):
        if isinstance(out.get(key), list):
            assert every_item_and_part_has_type(out[key]) == []
    if isinstance(out.get("tool_choice"), dict):
        assert every_item_and_part_has_type(out["tool_choice"]) == []


def test_item_models_fill_in_their_tags() -> None:
    out = rp.dump_item(rp.FunctionCallOutputParam(call_id="c", output="x"))
    assert out == {"type": "function_call_output", "call_id": "c", "output": "x"}
    assert rp.dump_item(rp.UserMessageParam(content="hi")) == {"type": "message", "role": "user", "content": "hi"}
    assert InputTextContent(text="t").model_dump(exclude_unset=True) == {"type": "input_text", "text": "t"}
    # an explicit tag is kept; a wrong one is refused
    assert rp.FunctionCallParam(type="function_call", call_id="c", name="n", arguments="{}").type == "function_call"
    with pytest.raises(ValidationError):
        rp.FunctionCallParam(type="message", call_id="c", name="n", arguments="{}")  # type: ignore[arg-type]
    # parsing never adds a tag the input did not have: item_reference stays without one
    assert rp.dump_item(rp.parse_item({"id": "msg_1"})) == {"id": "msg_1"}


@needs_corpus
@pytest.mark.parametrize("path", corpus_files("request"), ids=lambda p: p.stem)
def test_recorded_request_round_trips(path: Path) -> None:
    body = load(path)["body"]
    parsed = rp.parse_request(body, provider="openai")
    assert isinstance(parsed, rp.CreateResponseBody)
    assert rp.dump_request(parsed) == body
    # (not compared with the SDK here: its TypedDicts refuse `status: null` on replayed function calls,
    # which OpenAI accepted in these recordings)


@needs_corpus
def test_recorded_native_tools_are_namespaced_in_openai_mode() -> None:
    body = load(next(p for p in corpus_files("request") if p.stem == "pai-16"))["body"]
    parsed = rp.parse_request(body, provider="openai")
    assert isinstance(parsed.tools, list)
    tool = parsed.tools[0]
    assert isinstance(tool, NamespacedTool) and tool.type == "openai:mcp" and tool.wire_type == "mcp"
    with pytest.raises(rp.ItemError) as err:
        rp.parse_request(body)
    assert ("tools", 0) in [e["loc"] for e in err.value.errors]


@pytest.mark.parametrize(
    ("body", "loc", "code"),
    [
        ({"input": [{"type": "function_call_output", "call_id": "", "output": "x"}]}, ("input", 0, "call_id"), "string_too_short"),
        ({"tools": [{"type": "function", "name": "a b"}]}, ("tools", 0, "name"), "string_pattern_mismatch"),
        ({"tools": [{"type": "web_search"}]}, ("tools", 0), "namespaced_type"),
        ({"tool_choice": {"type": "function"}}, ("tool_choice", "name"), "missing"),
        ({"tool_choice": "sometimes"}, ("tool_choice",), "literal_error"),
        ({"tool_choice": {"type": "allowed_tools", "tools": []}}, ("tool_choice", "tools"), "too_short"),
        ({"text": {"format": {"type": "json_object"}}}, ("text", "format", "type"), "union_tag_invalid"),
        ({"include": ["file_search_call.results"]}, ("include", 0), "literal_error"),
        ({"input": [{"role": "user", "content": "hi"}]}, ("input", 0, "type"), "union_tag_not_found"),
        ({"max_output_tokens": 8}, ("max_output_tokens",), "greater_than_equal"),
        ({"metadata": {"k": 1}}, ("metadata", "k"), "string_type"),
        ({"temperature": "hot"}, ("temperature",), "float_type"),
        ({"stream": None}, ("stream",), "bool_type"),
    ],
)
def test_bad_request_names_the_field(body: dict[str, Any], loc: tuple[Any, ...], code: str) -> None:
    with pytest.raises(rp.ItemError) as err:
        rp.parse_request(body)
    assert [(e["loc"], e["type"]) for e in err.value.errors] == [(loc, code)], err.value.errors
    assert not CREATE_BODY.is_valid(body) or code == "namespaced_type"  # the official schema refuses it too
    assert not BUNDLE.is_valid(body)


def test_openai_mode_reads_what_openai_accepts() -> None:
    body = {
        "input": [{"role": "user", "content": "hi"}, {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "q"}}],
        "tools": [{"type": "web_search"}, {"type": "function", "name": "f", "defer_loading": True}],
        "tool_choice": {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "mcp", "server_label": "x"}]},
        "text": {"format": {"type": "json_object"}},
        "include": ["file_search_call.results"],
        "reasoning": {"effort": "minimal", "generate_summary": None},
        "service_tier": "scale",
        "store": None,
        "user": "u",
    }
    parsed = rp.parse_request(body, provider="openai")
    assert rp.dump_request(parsed) == body
    assert isinstance(parsed.text, TextParam) and isinstance(parsed.text.format, JsonObjectFormat)
    SDK_PARAMS.validate_python(body)


def nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {"x": 1}
    for _ in range(depth):
        value = {"a": value}
    return value


@pytest.mark.parametrize(
    "bad",
    [
        None,
        5,
        [],
        "[]",
        "{",
        b"\xff",
        '{"model": NaN}',
        {"model": float("inf")},
        "[" * 100_000,
        {"metadata": nested(5000)},
        {"model": "m", "extra": {1, 2}},
        {"input": "\ud800"},
        {"input": [{"type": "message", "role": "user", "content": "x", "extra": nested(200)}]},
    ],
)
def test_not_a_body_is_an_item_error(bad: Any) -> None:
    for parse in (rp.parse_request, rp.parse_response, rp.parse_compact_request, rp.parse_compact_response):
        with pytest.raises(rp.ItemError):
            parse(bad)  # type: ignore[operator]


def test_compact_request() -> None:
    body = rp.CompactRequestBody(model="gpt-5", previous_response_id="resp_1", prompt_cache_key="k")
    out = rp.dump_request(body)
    official = jsonschema_rs.validator_for(
        {"$ref": "#/components/schemas/CompactResponseMethodPublicBody", "components": OFFICIAL["components"]}
    )
    assert official.is_valid(out) and rp.parse_compact_request(out) == body
    with pytest.raises(rp.ItemError) as err:
        rp.parse_compact_request({"input": "hi"})
    assert err.value.errors[0]["loc"] == ("model",)


# ---- differential: our model (OpenAI mode) against the SDK's ResponseCreateParams, field by field ----

#: field -> values both accept, values both refuse. Values only one side accepts are listed in DIFFERENT.
FIELD_CASES: dict[str, tuple[list[Any], list[Any]]] = {
    "model": (["gpt-5"], [5, ["gpt-5"]]),
    "instructions": (["Be brief.", None], [5, {"a": 1}]),
    "previous_response_id": (["resp_1", None], [5]),
    "include": ([["reasoning.encrypted_content"], []], ["reasoning.encrypted_content", 5]),
    # the SDK types `tools` as a lazy Iterable: pydantic checks its items only when iterated, so only
    # non-iterables are compared here (items are compared through the official schema above)
    "tools": ([[{"type": "function", "name": "f", "parameters": WEATHER, "strict": True}], []], [5]),
    "tool_choice": (
        ["auto", "none", "required", {"type": "function", "name": "f"}, {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "f"}]}],
        [5, ["auto"]],
    ),
    "text": ([{"format": {"type": "text"}}, {"verbosity": "low"}, {"format": {"type": "json_object"}}], ["text", 5]),
    "reasoning": ([{"effort": "low"}, {"summary": "auto"}, None], ["low", 5]),
    "metadata": ([{"a": "b"}, None], ["a", 5]),
    "parallel_tool_calls": ([True, False, None], ["yes", 1]),
    "max_output_tokens": ([16, 1000, None], ["16", 1.5]),
    "max_tool_calls": ([1, None], ["1"]),
    "temperature": ([0.5, 1, None], ["hot"]),
    "top_p": ([0.5, None], ["all"]),
    "top_logprobs": ([0, 20, None], ["2", 1.5]),
    "store": ([True, False, None], ["yes"]),
    "background": ([True, None], ["yes"]),
    "truncation": (["auto", "disabled", None], ["sometimes", 5]),
    "service_tier": (["auto", "default", "flex", "priority"], [5]),
    "safety_identifier": (["u1", None], [5]),
    "prompt_cache_key": (["k", None], [5]),
    "stream_options": ([{"include_obfuscation": False}, None], ["yes", 5]),
    "input": (
        ["hi", [{"role": "user", "content": "hi"}], [{"type": "function_call_output", "call_id": "c", "output": "x"}]],
        [5, {"role": "user"}],
    ),
}
#: Deliberate differences: (field, value, ours accepts, SDK accepts, why).
DIFFERENT: list[tuple[str, Any, bool, bool, str]] = [
    ("max_output_tokens", 1, False, True, "the spec's minimum is 16; the SDK sets no bound"),
    ("tools", None, True, False, "the spec allows null tools; the SDK's Iterable does not"),
    ("tool_choice", None, True, False, "the spec allows a null tool_choice; the SDK does not"),
]


def accepts_ours(body: dict[str, Any]) -> bool:
    try:
        rp.parse_request(body, provider="openai")
    except rp.ItemError:
        return False
    return True


def accepts_sdk(body: dict[str, Any]) -> bool:
    try:
        SDK_PARAMS.validate_python(body, strict=True)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("field", sorted(FIELD_CASES))
def test_request_agrees_with_sdk_params_field_by_field(field: str) -> None:
    good, bad = FIELD_CASES[field]
    for value in good:
        body = {field: value}
        assert accepts_ours(body) and accepts_sdk(body), (field, value)
    for value in bad:
        body = {field: value}
        assert not accepts_ours(body) and not accepts_sdk(body), (field, value)



@pytest.mark.parametrize(("field", "value", "ours", "sdk", "why"), DIFFERENT, ids=[d[0] for d in DIFFERENT])
def test_documented_differences_from_sdk_params(field: str, value: Any, ours: bool, sdk: bool, why: str) -> None:
    assert (accepts_ours({field: value}), accepts_sdk({field: value})) == (ours, sdk), why


@needs_corpus
@pytest.mark.parametrize("path", corpus_files("request"), ids=lambda p: p.stem)
def test_bundle_agrees_with_strict_parse_on_recorded_requests(path: Path) -> None:
    body = load(path)["body"]
    try:
        rp.parse_request(body)
        ours = True
    except rp.ItemError:
        ours = False
    assert BUNDLE.is_valid(body) == ours


# ---- conformance: bodies generated from the official CreateResponseBody ----


def documented_difference(body: dict[str, Any], error: dict[str, Any]) -> bool:
    """An error schemas/README.md lists as deliberate: a `json_schema` format without `type`, `name` or
    `schema`, or an input item our item models refuse on their own (tests/contracts/test_conformance.py)."""
    loc = error["loc"]
    if loc[:2] == ("text", "format"):
        fmt = body["text"]["format"]
        return isinstance(fmt, dict) and not {"type", "name", "schema"} <= set(fmt)
    if loc[:1] == ("input",) and len(loc) > 1 and isinstance(loc[1], int):
        try:
            rp.parse_item(body["input"][loc[1]])
        except rp.ItemError:
            return True
    return False


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(from_schema({"$ref": "#/components/schemas/CreateResponseBody", "components": OFFICIAL["components"]}))
def test_official_bodies_parse_and_dump_back(body: dict[str, Any]) -> None:
    try:
        parsed = rp.parse_request(body)
    except rp.ItemError as err:
        assert all(documented_difference(body, e) for e in err.errors), err.errors
        return
    assert rp.dump_request(parsed) == body
