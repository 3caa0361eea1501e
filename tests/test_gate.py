"""gate and strict arguments: reasons in order, failure paths, hostile arguments bounded in time."""

from __future__ import annotations

import time
from typing import Any

import pytest

import replayable as rp
from replayable.arguments import ArgumentsError, SchemaError, parse_arguments, schema_failures

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


def test_none_schema_checks_only_the_json() -> None:
    assert rp.gate(fc('{"anything": [1]}'), None).ok
