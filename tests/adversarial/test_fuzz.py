"""Property-based fuzzing of the entry points that read untrusted data.

Each property feeds arbitrary JSON (and JSON-ish Python values) to an entry point and asserts the
contract: the only exceptions are the library's own (`ItemError`, `ArgumentsError`, `SchemaError`,
`ToolResultError`), results have the documented shape, and nothing hangs (hypothesis reports slow
examples as health-check failures; no wall-clock assertions here). The default run is cheap
(`max_examples=200` per property); `HYPOTHESIS_PROFILE=long` runs 20,000 examples per property:

    HYPOTHESIS_PROFILE=long .venv/bin/pytest tests/adversarial/test_fuzz.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

import replayable as rp
from replayable._arguments import ArgumentsError, SchemaError, parse_arguments
from replayable._replay import ViolationCode, check_transcript_iter
from replayable._tools import is_tool_collection

FUZZ = fuzz_settings(200)  # the profile mechanism lives in conftest.py

ITEM_TYPES = [
    "message",
    "function_call",
    "function_call_output",
    "reasoning",
    "compaction",
    "item_reference",
    "acme:thing",
    "openai:web_search_call",
    "web_search_call",
    "",
    ":",
    "a:",
    "brand_new",
]
KEYS = [
    "type",
    "id",
    "call_id",
    "name",
    "arguments",
    "status",
    "output",
    "role",
    "content",
    "summary",
    "text",
    "annotations",
    "encrypted_content",
    "tool_calls",
    "tool_call_id",
]

json_leaf = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
json_value = st.recursive(
    json_leaf,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner, max_size=5)
    ),
    max_leaves=20,
)


@st.composite
def item_like(draw: st.DrawFn) -> dict[str, Any]:
    """A dict that often looks like an item: a plausible type and plausible fields with random values."""
    item: dict[str, Any] = draw(st.dictionaries(st.sampled_from(KEYS), json_value, max_size=6))
    if draw(st.booleans()):
        item["type"] = draw(st.sampled_from(ITEM_TYPES))
    if draw(st.booleans()):
        item["call_id"] = draw(st.sampled_from(["c1", "c2", "c3"]))
    if item.get("type") == "function_call" and draw(st.booleans()):
        item["arguments"] = draw(st.sampled_from(['{"q":"x"}', "{", "[]", '{"q":1}', '{"a":NaN}', "null"]))
        item["status"] = draw(st.sampled_from(["completed", "incomplete", "in_progress"]))
        item["name"] = draw(st.sampled_from(["search", "other"]))
    return item


anything = item_like() | json_value
SEARCH_SCHEMA = {
    "type": "object",
    "properties": {"q": {"type": "string", "pattern": "^(a+)+$"}},
    "required": ["q"],
    "additionalProperties": False,
}
TOOLS = [{"type": "function", "name": "search", "parameters": SEARCH_SCHEMA}]


@FUZZ
@given(anything, st.sampled_from(["input", "output"]), st.sampled_from([None, "openai"]))
def test_parse_item_raises_only_item_error(data: Any, side: Any, provider: Any) -> None:
    try:
        item = rp.parse_item(data, side=side, provider=provider)
    except rp.ItemError as exc:
        assert exc.errors and all({"loc", "type", "msg"} <= set(e) for e in exc.errors)
        return
    assert rp.parse_item(rp.dump_item(item), side=side, provider=provider) == item  # exact round trip


@FUZZ
@given(st.text(max_size=60) | st.binary(max_size=60))
def test_parse_item_text_raises_only_item_error(text: Any) -> None:
    try:
        rp.parse_item(text)
    except rp.ItemError:
        pass


@FUZZ
@given(st.lists(anything, max_size=8))
def test_parse_items_and_iter_items_agree(items: list[Any]) -> None:
    try:
        whole = rp.parse_items(items)
    except rp.ItemError:
        whole = None
    try:
        one_by_one = list(rp.iter_items(items))
    except rp.ItemError:
        one_by_one = None
    assert (whole is None) == (one_by_one is None)
    if whole is not None:
        assert whole == one_by_one


@FUZZ
@given(anything, st.sampled_from([None, SEARCH_SCHEMA, {"type": "array"}, {}]))
def test_gate_never_raises_and_reason_is_an_enum(item: Any, schema: Any) -> None:
    res = rp.gate(item, schema)
    assert isinstance(res.reason, rp.GateReason)
    assert res.ok == (res.reason is rp.GateReason.OK)
    if res.reason is rp.GateReason.ARGUMENTS_SCHEMA:
        assert res.failures and all(f.path == "" or f.path.startswith("/") for f in res.failures)


@FUZZ
@given(st.text(max_size=80))
def test_parse_arguments_raises_only_arguments_error(text: str) -> None:
    try:
        value = parse_arguments(text)
    except ArgumentsError as exc:
        assert exc.reason in {
            "not_json",
            "duplicate_key",
            "non_finite_number",
            "number_too_long",
            "too_deep",
            "lone_surrogate",
        }
        return
    assert json.loads(text) == value or value != value  # strict JSON is a subset of what json reads


@FUZZ
@given(json_value)
def test_gate_with_a_fuzzed_schema_raises_only_schema_error(schema: Any) -> None:
    item = {"type": "function_call", "call_id": "c", "name": "t", "status": "completed", "arguments": '{"q":"a"}'}
    try:
        res = rp.gate(item, schema)
    except SchemaError:
        return
    if schema is None:  # no tool: never run unchecked
        assert res.reason is rp.GateReason.NO_SCHEMA
    elif is_tool_collection(schema):  # a list, or a mapping of names to tools: the call's name picks one
        assert res.reason in (rp.GateReason.OK, rp.GateReason.ARGUMENTS_SCHEMA, rp.GateReason.UNKNOWN_TOOL)
    else:
        assert res.reason in (rp.GateReason.OK, rp.GateReason.ARGUMENTS_SCHEMA)


@pytest.mark.slow
@FUZZ
@given(
    st.lists(anything, max_size=10),
    st.sampled_from([None, "input", "output"]),
    st.sampled_from([None, "acme"]),
    st.booleans(),
)
def test_check_transcript_never_raises_and_check_stream_agrees(
    items: list[Any], side: Any, target: Any, pending_ok: bool
) -> None:
    report = rp.check_transcript(items, tools=TOOLS, side=side, target=target, pending_ok=pending_ok)
    assert len(report.items) == len(items)
    assert all(isinstance(v.code, ViolationCode) and v.index is not None for v in report.violations)
    assert all(0 <= v.index < len(items) for v in report.violations if v.index is not None)
    streamed = check_transcript_iter(iter(items), tools=TOOLS, side=side, target=target, pending_ok=pending_ok)
    assert streamed.violations == report.violations
    assert streamed.pending == report.pending


@pytest.mark.slow
@FUZZ
@given(st.lists(anything, max_size=6))
def test_cli_check_exits_0_1_or_2(tmp_path_factory: pytest.TempPathFactory, values: list[Any]) -> None:
    from replayable._cli import main

    d = tmp_path_factory.mktemp("fuzz")
    for name, text in [("a.json", json.dumps(values)), ("a.jsonl", "\n".join(json.dumps(v) for v in values))]:
        f = Path(d, name)
        f.write_text(text)
        assert main(["check", str(f), "--format", "json"]) in (0, 1, 2)


agents = pytest.importorskip("replayable.agents")


@FUZZ
@given(anything)
def test_agents_parse_event_raises_only_item_error(data: Any) -> None:
    try:
        agents.parse_event(data)
    except rp.ItemError:
        pass


@FUZZ
@given(anything, st.sampled_from([SEARCH_SCHEMA, {"type": "function", "name": "search", "parameters": SEARCH_SCHEMA}]))
def test_agents_check_arguments_raises_only_library_errors(action: Any, tool: Any) -> None:
    if isinstance(action, dict) and action.get("type") == "function_call":
        action = {"turn_id": "t1", **action, "arguments": action.get("arguments")}
    try:
        res = agents.check_arguments(action, tool)
    except (rp.ItemError, SchemaError):
        return
    assert res.execute == (not res.failures)


@pytest.mark.slow
@FUZZ
@given(st.lists(anything, max_size=8))
def test_agents_event_log_never_raises(events: list[Any]) -> None:
    report = agents.check_event_log(events)
    assert isinstance(report.ok, bool)
