"""The fast paths of `gate` give the same verdicts as the slow paths they stand in for.

- the call check (`replay._call_problem`): a dict with the model's fields is checked without building a
  model; it must accept exactly the items the parser (`items.validate_item`, input side) accepts;
- schema failures (`arguments.validator_failures`): simple errors are read from jsonschema-rs's
  evaluation output; they must equal the failures read from its `ValidationError`s;
- the tool cache: a tool or schema changed in place gets a fresh verdict;
- arguments: texts without a comma are read without the duplicate-key hook; same values, same refusals.
"""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import replayable as rp
from replayable._arguments import (
    _NOT_SIMPLE,
    ArgumentsError,
    _error_failures,
    compile_schema,
    parse_arguments,
    validator_failures,
)
from replayable._call_gate import _call_problem
from replayable.items import ItemError, validate_item


class _Text(str):
    """A str subclass: not what JSON reading gives."""


def _parser_accepts(item: dict[str, Any]) -> bool:
    try:
        validate_item(item, "input", None, None)
    except ItemError:
        return False
    return True


_texts = st.one_of(
    st.sampled_from(["", "c", "call_1", "get_weather", "a-b_C9", "x" * 64, "x" * 65, "f\n", "\nf", "é", "f.g"]),
    st.text(max_size=70),
    st.text(alphabet=st.characters(min_codepoint=0xD7F0, max_codepoint=0xE010), max_size=3),  # surrogates
)
_values = st.one_of(
    _texts,
    _texts.map(_Text),
    _texts.map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.none(),
    st.integers(),
    st.booleans(),
    st.lists(st.text(max_size=3), max_size=2),
)


@st.composite
def _call_items(draw: st.DrawFn) -> dict[str, Any]:
    """A completed function_call with string arguments (what `gate` has checked before the call check),
    with any values in the other fields, some missing, some unknown."""
    item: dict[str, Any] = {"type": "function_call", "status": "completed", "arguments": draw(st.sampled_from(['{}', '{"a":1}', '"\ud800"']))}
    for key in ("call_id", "name", "id"):
        if draw(st.booleans()) or key != "id" and draw(st.integers(0, 9)) > 0:
            item[key] = draw(_values)
    if draw(st.integers(0, 9)) == 0:
        item[draw(st.sampled_from(["namespace", "extra", "output"]))] = draw(_values)
    return item


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_call_items())
def test_call_check_accepts_exactly_what_the_parser_accepts(item: dict[str, Any]) -> None:
    assert (_call_problem(item) is None) == _parser_accepts(item)


def test_call_check_refuses_bytes_and_str_subclasses_like_the_parser() -> None:
    base = {"type": "function_call", "name": "f", "call_id": "c1", "status": "completed", "arguments": "{}"}
    for key, value in [("call_id", b"c1"), ("name", bytearray(b"f")), ("id", b"x"), ("call_id", "\ud800")]:
        item = {**base, key: value}
        assert not _parser_accepts(item)
        result = rp.gate(item, {"type": "object"})
        assert result.reason is rp.GateReason.ITEM_INVALID, (key, value, result)
    assert rp.gate(base, {"type": "object"}).ok


# --- schema failures: evaluation output vs ValidationErrors --------------------------------------------

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from([0.5, 2.0]), st.sampled_from(["", "a", "a/b~", "xyz", "10"]))
# No empty key: jsonschema-rs's `ValidationError.instance_path` drops it (`{"": 1}` reads as the root),
# its evaluation output does not; see test_an_empty_key_has_its_own_pointer.
_keys = st.sampled_from(["a", "b", "a/b~", "type", "items", "~0", " "])


def _schemas() -> st.SearchStrategy[dict[str, Any]]:
    leaf = st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(["string", "integer", "number", "object", "array", "boolean", "null"]),
            "enum": st.lists(_scalars, min_size=1, max_size=3),
            "const": _scalars,
            "minimum": st.integers(-2, 2),
            "exclusiveMaximum": st.integers(-2, 2),
            "multipleOf": st.sampled_from([2, 3]),
            "maxLength": st.integers(0, 3),
            "pattern": st.sampled_from(["^a", "b$", "[0-9]"]),
            "minItems": st.integers(0, 2),
            "uniqueItems": st.just(True),
            "maxProperties": st.integers(0, 2),
            "format": st.sampled_from(["email", "date"]),
        },
    )

    def extend(inner: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
        return st.one_of(
            st.fixed_dictionaries(
                {"properties": st.dictionaries(_keys, inner, max_size=3)},
                optional={
                    "required": st.lists(_keys, max_size=2, unique=True),
                    "additionalProperties": st.one_of(st.booleans(), inner),
                    "patternProperties": st.dictionaries(st.sampled_from(["^a", "~"]), inner, max_size=1),
                    "type": st.just("object"),
                },
            ),
            st.fixed_dictionaries({"items": inner}, optional={"prefixItems": st.lists(inner, max_size=2)}),
            st.fixed_dictionaries({st.sampled_from(["anyOf", "oneOf", "allOf"]): st.lists(inner, min_size=1, max_size=2)}),
            st.fixed_dictionaries({"not": inner}),
            st.fixed_dictionaries({"$defs": st.fixed_dictionaries({"d": inner}), "$ref": st.just("#/$defs/d")}),
            st.fixed_dictionaries({"dependentRequired": st.dictionaries(_keys, st.lists(_keys, max_size=2, unique=True), max_size=2)}),
        )

    return st.recursive(leaf, extend, max_leaves=6)


_instances = st.recursive(
    _scalars, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_keys, inner, max_size=3)), max_leaves=8
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_schemas(), _instances)
def test_schema_failures_from_evaluation_equal_those_from_errors(schema: dict[str, Any], value: Any) -> None:
    try:
        validator = compile_schema(schema)
    except ValueError:
        return  # not a valid schema (e.g. a bad pattern): compile_schema refuses it, nothing to compare
    slow = [] if validator.is_valid(value) else _error_failures(list(validator.iter_errors(value)))
    _NOT_SIMPLE.clear()  # the evaluation output is tried first
    assert validator_failures(validator, value) == slow
    assert validator_failures(validator, value) == slow  # and again (straight to `iter_errors` when marked)


def test_simple_failures_are_read_from_the_evaluation_output() -> None:
    schema = {
        "type": "object",
        "properties": {"a/b~": {"type": "integer"}, "l": {"prefixItems": [{"const": 3}], "items": {"enum": [1]}}},
        "patternProperties": {"^x": {"minimum": 3}},
    }
    value = {"a/b~": "s", "l": [4, 2], "xy": 1}
    validator = compile_schema(schema)
    expected = _error_failures(list(validator.iter_errors(value)))
    assert [f.path for f in expected] == ["/a~1b~0", "/l/1", "/l/0", "/xy"]
    assert validator_failures(validator, value) == expected
    # errors that need their kind (an unexpected key, a missing key) still come from `iter_errors`
    closed = {"type": "object", "properties": {"k": {}}, "required": ["k"], "additionalProperties": False}
    failures = validator_failures(compile_schema(closed), {"x": 1})
    assert {(f.path, f.keyword) for f in failures} == {("/k", "required"), ("/x", "additionalProperties")}


def test_schema_changed_in_place_gets_a_fresh_verdict() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {"n": {"enum": [1]}}}
    call = {"type": "function_call", "name": "f", "call_id": "c", "status": "completed", "arguments": '{"n":1}'}
    assert rp.gate(call, schema).ok
    schema["properties"]["n"]["enum"] = [True]  # equal to 1 in Python, not in JSON
    assert rp.gate(call, schema).reason is rp.GateReason.ARGUMENTS_SCHEMA
    tool = {"type": "function", "name": "f", "parameters": schema}
    assert rp.gate(call, tool).reason is rp.GateReason.ARGUMENTS_SCHEMA
    schema["properties"]["n"]["enum"] = [1.0]
    assert rp.gate(call, tool).ok  # 1 and 1.0 are one JSON number
    tool["name"] = "g"
    assert rp.gate(call, tool).reason is rp.GateReason.NAME



def test_a_fresh_copy_of_a_schema_seen_before_reuses_its_validator_and_still_sees_changes() -> None:
    """A response's own tools are new objects on every parse: their schema hits the cache by content (one
    compile), and each new object is then checked on the fast path against the content it had, so a
    change made in place afterwards (`1` to `True`, equal in Python, not in JSON) is never missed."""
    text = '{"type": "object", "properties": {"n": {"enum": [1]}, "m": {"type": "array"}}}'
    first = json.loads(text)
    validator = compile_schema(first)
    copies = [json.loads(text) for _ in range(3)]
    assert all(compile_schema(c) is validator for c in copies)
    copies[0]["properties"]["n"]["enum"] = [True]
    assert compile_schema(copies[0]) is not validator
    assert validator_failures(compile_schema(copies[0]), {"n": 1})
    assert not validator_failures(compile_schema(copies[1]), {"n": 1})
    copies[1]["properties"]["m"]["type"] = "object"  # the same content for the other copies' fast path
    assert compile_schema(copies[2]) is validator and compile_schema(first) is validator
    assert validator_failures(compile_schema(copies[1]), {"m": []})

# --- arguments: the scanner without the duplicate-key hook, used only for texts without a comma --------


def _reference_parse(text: str) -> Any:
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in items]
        if len(set(keys)) != len(keys):
            raise ValueError("duplicate key")
        return dict(items)

    def number(t: str) -> float:
        if math.isinf(float(t)):
            raise ValueError("not finite")
        return float(t)

    def constant(name: str) -> Any:
        raise ValueError(name)

    return json.loads(text, object_pairs_hook=pairs, parse_constant=constant, parse_float=number)


_json_texts = st.one_of(
    _instances.map(lambda v: json.dumps(v, separators=(",", ":"))),
    st.sampled_from(['{"a":1}', '{"a":{"a":1}}', '{"a":1,"a":2}', '{"a":[1 2]}', '{"a":1 "a":2}', '{"a":1e999}', "[NaN]", '{"a":"x,y"}', ' {"k":"v"} ', '{"a":{"b":1,"b":2}}']),
)


@settings(max_examples=400, deadline=None)
@given(_json_texts)
def test_arguments_parse_like_the_strict_reference(text: str) -> None:
    try:
        expected: Any = ("ok", _reference_parse(text))
    except (ValueError, OverflowError):
        expected = ("error",)
    try:
        got: Any = ("ok", parse_arguments(text))
    except ArgumentsError:
        got = ("error",)
    assert got == expected


def test_an_empty_key_has_its_own_pointer() -> None:
    validator = compile_schema({"properties": {"": {"type": "string"}, "a": {"properties": {"": {"type": "string"}}}}})
    failures = validator_failures(validator, {"": None, "a": {"": 1}})
    assert [(f.path, f.keyword) for f in failures] == [("/", "type"), ("/a/", "type")]
