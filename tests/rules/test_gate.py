"""gate and strict arguments: reasons in order, failure paths, hostile arguments bounded in time."""

from __future__ import annotations

import time
from typing import Any

import pytest

import replayable as rp
from replayable._arguments import ArgumentsError, SchemaError, parse_arguments, schema_failures

SALES = {
    "type": "object",
    "properties": {"region": {"type": "string", "enum": ["apac"]}},
    "required": ["region"],
    "additionalProperties": False,
}


def fc(args: Any, **kw: Any) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "c1",
        "name": "t",
        "status": "completed",
        "arguments": args,
        **kw,
    }


def test_order_of_checks_the_first_failing_one_wins() -> None:
    assert (
        rp.gate({"type": "acme:function_call", "status": "in_progress", "arguments": {}}, SALES).reason == "namespaced"
    )
    assert rp.gate({"type": None}, SALES).reason == "namespaced"
    assert rp.gate({"status": "completed"}, SALES).reason == "namespaced"  # no type at all
    assert rp.gate({"type": "message"}, SALES).reason == "not_function_call"
    assert rp.gate(fc({"region": "apac"}, status="in_progress"), SALES).reason == "status"
    assert rp.gate(fc('{"region":"apac"}', status=None), SALES).reason == "status"
    assert rp.gate(fc({"region": "apac"}), SALES).reason == "arguments_type"
    assert rp.gate(fc('{"region":'), SALES).reason == "arguments_parse"
    assert rp.gate(fc('{"region":"emea"}'), SALES).reason == "arguments_schema"
    ok = rp.gate(fc('{"region":"apac"}'), SALES)
    assert ok.ok and ok and ok.reason is rp.GateReason.OK and ok.arguments == {"region": "apac"}


def test_gate_never_raises_on_bad_items() -> None:
    for item in (None, 5, "x", [], {}, {"type": 7}):
        assert not rp.gate(item, SALES).ok


def test_failure_paths_point_at_the_offending_value() -> None:
    schema = {
        "type": "object",
        "properties": {"order_id": {"type": "string", "pattern": "^[A-Z]-\\d{4}$"}, "content": {"type": "string"}},
        "required": ["order_id", "content"],
        "additionalProperties": False,
    }
    res = rp.gate(fc('{"order_id":"1042","refund":true}'), schema)
    got = sorted((f.path, f.keyword) for f in res.failures)
    assert got == [("/content", "required"), ("/order_id", "pattern"), ("/refund", "additionalProperties")]
    assert "/refund" in res.message


def test_nested_paths_are_json_pointers() -> None:
    schema = {"type": "object", "properties": {"a/b": {"type": "array", "items": {"type": "integer"}}}}
    assert [(f.path, f.keyword) for f in schema_failures({"a/b": [1, "x"]}, schema)] == [("/a~1b/1", "type")]


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        ('{"region":"apac","region":"global"}', "duplicate_key"),
        ('{"a":{"b":1,"b":2}}', "duplicate_key"),
        ('{"region":NaN}', "non_finite_number"),
        ('{"n":-Infinity}', "non_finite_number"),
        ("[" * 100_000 + "]" * 100_000, "too_deep"),
        ("[" * 65 + "]" * 65, "too_deep"),
        ('{"region":"\\ud800"}', "lone_surrogate"),
        ('{"a":1} {"b":2}', "not_json"),
        ("", "not_json"),
        ("{'a': 1}", "not_json"),
    ],
)
def test_strict_json(args: str, reason: str) -> None:
    with pytest.raises(ArgumentsError) as err:
        parse_arguments(args)
    assert err.value.reason == reason
    assert rp.gate(fc(args), SALES).reason == "arguments_parse"


def test_strict_json_accepts_what_json_allows() -> None:
    assert parse_arguments(' {"a": [1, 2.5, "\\ud83d\\ude00", null, true]} \n') == {
        "a": [1, 2.5, "\U0001f600", None, True]
    }
    assert parse_arguments("[" * 64 + "]" * 64) is not None
    assert parse_arguments('"[[[[ not brackets ]]]]"') == "[[[[ not brackets ]]]]"


@pytest.mark.parametrize(
    ("title", "args", "schema", "want"),
    [
        (
            "catastrophic pattern",
            '{"q":"' + "a" * 40 + '!"}',
            {"type": "object", "properties": {"q": {"type": "string", "pattern": "^(a+)+$"}}},
            "arguments_schema",
        ),
        ("top-level array", "[1,2]", SALES, "arguments_schema"),
        ("1 MiB arguments", '{"region":"' + "x" * (1 << 20) + '"}', SALES, "arguments_schema"),
        ("nesting 100k deep", "[" * 100_000 + "]" * 100_000, SALES, "arguments_parse"),
        ("10 MB string", '{"region":"' + "y" * 10_000_000 + '"}', SALES, "arguments_schema"),
    ],
)
def test_hostile_arguments_are_bounded(title: str, args: str, schema: dict[str, Any], want: str) -> None:
    start = time.perf_counter()
    assert rp.gate(fc(args), schema).reason == want
    assert time.perf_counter() - start < 5  # a generous bound: a hang would take far longer


def test_gate_on_parsed_items() -> None:
    item = rp.parse_item(fc('{"region":"apac"}'), side="output")
    assert rp.gate(item, SALES).ok
    assert rp.gate(rp.parse_item({"type": "acme:x"}), SALES).reason == "namespaced"


def test_invalid_tool_schema_raises_schema_error() -> None:
    with pytest.raises(SchemaError):
        rp.gate(fc('{"region":"apac"}'), {"type": "no-such-type"})
    with pytest.raises(SchemaError):
        rp.gate(fc('{"region":"apac"}'), [1, 2])


def test_schema_cache_sees_equal_schemas_and_mutated_copies() -> None:
    a = {"type": "object", "required": ["x"]}
    assert rp.gate(fc("{}"), a).reason == "arguments_schema"
    b = dict(a)
    b["required"] = []
    assert rp.gate(fc("{}"), b).ok
    assert rp.gate(fc("{}"), {"type": "object", "required": ["x"]}).reason == "arguments_schema"


def test_empty_schema_checks_only_the_json_and_none_is_refused() -> None:
    assert rp.gate(fc('{"anything": [1]}'), {}).ok  # "no check" is said explicitly
    for res in (rp.gate(fc('{"anything": [1]}'), None), rp.gate(fc('{"anything": [1]}'))):
        assert res.reason == "no_schema" and not res.ok and "{}" in res.message


# --- fail closed: tool shapes, the object rule, invalid calls, the cache ----------------------------------

WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
    "additionalProperties": False,
}


def weather_call(args: str = '{"city": "Paris"}', **kw: Any) -> dict[str, Any]:
    return fc(args, name="get_weather", **kw)


def _tool_shapes() -> dict[str, Any]:
    from openai.types.chat import ChatCompletionFunctionToolParam
    from openai.types.responses import FunctionTool as SdkFunctionTool

    chat: ChatCompletionFunctionToolParam = {
        "type": "function",
        "function": {"name": "get_weather", "parameters": WEATHER, "strict": True},
    }
    return {
        "responses function tool": {"type": "function", "name": "get_weather", "parameters": WEATHER, "strict": True},
        "name + parameters": {"name": "get_weather", "parameters": WEATHER},
        "chat completions": chat,
        "mcp": {"name": "get_weather", "description": "weather", "inputSchema": WEATHER},
        "agents FunctionTool": rp.agents.FunctionTool.model_validate(
            {
                "type": "function",
                "name": "get_weather",
                "description": "weather",
                "parameters": WEATHER,
                "defer_loading": False,
            }
        ),
        "openai SDK FunctionTool": SdkFunctionTool(
            type="function", name="get_weather", parameters=WEATHER, strict=True
        ),
    }


@pytest.mark.parametrize("shape", list(_tool_shapes()))
def test_gate_reads_every_known_tool_shape(shape: str) -> None:
    tool = _tool_shapes()[shape]
    assert rp.gate(weather_call(), tool).ok
    bad = rp.gate(weather_call('{"city": "Paris", "refund": 1000}'), tool)
    assert bad.reason == "arguments_schema"
    assert [(f.path, f.keyword) for f in bad.failures] == [("/refund", "additionalProperties")]
    assert rp.gate(weather_call("{}"), tool).reason == "arguments_schema"
    other = rp.gate(fc('{"city": "Paris"}', name="delete_account"), tool)
    assert other.reason == "name" and "delete_account" in other.message and "get_weather" in other.message


@pytest.mark.parametrize(
    "not_a_schema",
    [
        {"name": "get_weather"},
        {"name": "get_weather", "description": "weather"},
        {"name": "get_weather", "type": "object", "properties": {}},
        {"name": "get_weather", "input_schema": WEATHER},  # a shape the library does not know
        {"type": "function", "function": {"parameters": WEATHER}},  # no name
        {"type": "function", "name": 5, "parameters": WEATHER},
        {"type": "function", "name": "get_weather", "parameters": [1]},
        {"parameters": WEATHER, "strict": True},
        "get_weather",
        5,
        [WEATHER],
    ],
)
def test_gate_refuses_what_is_neither_a_schema_nor_a_tool(not_a_schema: Any) -> None:
    for item in (weather_call(), weather_call('{"refund": 1}'), {"type": "message"}):
        with pytest.raises(SchemaError):
            rp.gate(item, not_a_schema)


@pytest.mark.parametrize("args", ["null", "[]", "[1, 2]", '"Paris"', "1", "1.5", "true", "false"])
@pytest.mark.parametrize(
    "schema",
    [{}, {"properties": {"city": {"type": "string"}}, "required": ["city"]}, {"type": ["object", "array"]}],
)
def test_arguments_are_always_a_json_object(args: str, schema: Any) -> None:
    # (the boolean schema True is refused as a whole: `{}` is the one spelling of "no check")
    assert rp.gate(weather_call(args), None).reason == "no_schema"  # no schema: refused before the arguments
    result = rp.gate(weather_call(args), schema)
    assert result.reason == "arguments_schema"
    assert [(f.path, f.keyword) for f in result.failures] == [("", "type")]
    assert "must be a JSON object" in result.message


@pytest.mark.parametrize(
    "change",
    [
        {"call_id": None},
        {"call_id": ""},
        {"call_id": "c" * 65},
        {"call_id": 5},
        {"name": 5},
        {"name": ""},
        {"name": "get weather"},
        {"name": "n" * 65},
        {"name": None},
        {"id": 7},
    ],
    ids=repr,
)
def test_gate_never_passes_a_call_the_parser_refuses(change: dict[str, Any]) -> None:
    item = {k: v for k, v in {**weather_call(), **change}.items() if v is not None}
    with pytest.raises(rp.ItemError):
        rp.parse_item(item)
    for schema in (None, WEATHER):
        result = rp.gate(item, schema)
        assert result.reason == "item_invalid", result
        assert not result.ok and result.message


def test_gate_reads_openai_sdk_calls() -> None:
    from openai.types.responses import ResponseFunctionToolCall

    sdk = ResponseFunctionToolCall(
        type="function_call", id="fc_1", call_id="call_1", name="get_weather", arguments='{"city": "Paris"}',
        status="completed",
    )  # fmt: skip
    assert rp.gate(sdk, _tool_shapes()["responses function tool"]).ok
    empty = sdk.model_copy(update={"call_id": ""})
    assert rp.gate(empty, WEATHER).reason == "item_invalid"


def test_output_form_models_meet_the_input_rules_in_the_gate() -> None:
    model = rp.parse_item(weather_call(call_id=""), side="output")  # the output form allows it
    assert rp.gate(model, WEATHER).reason == "item_invalid"


def test_validator_cache_is_keyed_by_content_never_identity() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {"city": {"type": "string"}}}
    assert rp.gate(weather_call('{"city": 5}'), schema).reason == "arguments_schema"
    schema["properties"]["city"]["type"] = "integer"  # changed in place, same object
    assert rp.gate(weather_call('{"city": 5}'), schema).ok
    schema["additionalProperties"] = False
    assert rp.gate(weather_call('{"city": 5, "x": 1}'), schema).reason == "arguments_schema"
    const: dict[str, Any] = {"type": "object", "properties": {"n": {"const": 1}}}
    assert rp.gate(fc('{"n": 1}'), const).ok
    const["properties"]["n"]["const"] = True  # == 1 in Python, not in JSON
    assert rp.gate(fc('{"n": 1}'), const).reason == "arguments_schema"


@pytest.mark.parametrize(
    "schema",
    [
        {1: {"type": "string"}},
        {"type": "object", "properties": {1: {"type": "string"}}},
        {"type": "object", "properties": {"a": {"type": "string"}, 2: {}}},
        {"type": "object", "properties": {"a": {"enum": [{(1, 2): 3}]}}},
        {"type": "object", "properties": {"a": {"maximum": float("nan")}}},
        {"type": "object", "properties": {"a": {"enum": [{1, 2}]}}},
    ],
    ids=repr,
)
def test_schema_keys_and_values_must_be_json(schema: Any) -> None:
    for _ in range(2):  # also once a text-equal schema is cached
        with pytest.raises(SchemaError):
            rp.gate(fc('{"1": "x"}'), schema)
    assert rp.gate(fc('{"1": "x"}'), {"type": "object", "properties": {"1": {"type": "string"}}}).ok
    with pytest.raises(SchemaError):
        rp.gate(fc('{"1": "x"}'), {"type": "object", "properties": {1: {"type": "string"}}})


def test_schema_error_names_the_place() -> None:
    with pytest.raises(SchemaError, match="/properties"):
        rp.gate(fc("{}"), {"type": "object", "properties": {5: {}}})


@pytest.mark.parametrize("field", ["call_id", "name", "id", "arguments"])
def test_gate_refuses_a_lone_surrogate_the_parser_refuses(field: str) -> None:
    item = weather_call()
    item[field] = '{"city": "\ud800"}' if field == "arguments" else "x\ud800"
    with pytest.raises(rp.ItemError):
        rp.parse_item(item)
    assert rp.gate(item, None).reason == "item_invalid"
