"""check_transcript: each cross-item rule, its edge cases, and check_tool's strict lint."""

from __future__ import annotations

from typing import Any

import pytest

import replayable as rp
from replayable import ViolationCode as V

USER = {"type": "message", "role": "user", "content": "hi"}
ASSISTANT = {
    "type": "message",
    "id": "msg_9",
    "role": "assistant",
    "status": "completed",
    "content": [{"type": "output_text", "text": "done", "annotations": []}],
}


def call(cid: str, **kw: Any) -> dict[str, Any]:
    return {"type": "function_call", "call_id": cid, "name": "lookup", "arguments": '{"q":"x"}', **kw}


def out(cid: str, **kw: Any) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": cid, "output": "ok", **kw}


def codes(items: list[Any], **kw: Any) -> list[tuple[int | None, str]]:
    return [(v.index, str(v.code)) for v in rp.check_transcript(items, **kw).violations]


def test_a_clean_transcript() -> None:
    items = [USER, call("a", id="fc_1", status="completed"), out("a"), ASSISTANT]
    report = rp.check_transcript(items)
    assert report.ok and bool(report) and report.violations == () and len(report.items) == 4


def test_pairing_is_by_call_id_byte_for_byte_never_by_id() -> None:
    assert codes([call("call_1", id="x"), out("call_1 ", id="y")]) == [
        (0, "function_call_without_output"),
        (1, "output_without_function_call"),
    ]
    assert codes([call("Call_1"), out("call_1")])[1] == (1, "output_without_function_call")


def test_output_before_its_call() -> None:
    assert (0, "output_without_function_call") in codes([out("a"), call("a")])


def test_parallel_calls_then_outputs_in_any_order() -> None:
    assert codes([USER, call("a"), call("b"), out("b"), out("a"), ASSISTANT]) == []


def test_reasoning_between_parallel_calls_does_not_close_them() -> None:
    rs = {"type": "reasoning", "id": "rs_1", "summary": []}
    assert codes([USER, call("a", id="fc_a"), rs, call("b", id="fc_b"), out("a"), out("b")]) == []


def test_unanswered_call_before_the_next_turn() -> None:
    assert codes([USER, call("a"), USER]) == [(1, "function_call_without_output")]
    assert codes([USER, call("a"), call("b"), out("a"), ASSISTANT]) == [(2, "function_call_without_output")]


def test_trailing_calls_are_pending_only_when_allowed() -> None:
    assert codes([USER, call("a")]) == [(1, "function_call_without_output")]
    report = rp.check_transcript([USER, call("a"), call("b")], pending_ok=True)
    assert report.ok and report.pending == (1, 2)


def test_duplicates() -> None:
    assert codes([call("a"), call("a"), out("a")]) == [(1, "duplicate_call_id")]
    assert codes([call("a"), out("a"), out("a")]) == [(2, "duplicate_output")]
    assert codes([{**USER, "id": "m"}, {**ASSISTANT, "id": "m"}]) == [(1, "duplicate_item_id")]


@pytest.mark.parametrize("status", ["in_progress", "incomplete"])
def test_unfinished_calls_are_never_replayed_or_answered(status: str) -> None:
    got = codes([call("a", status=status), out("a")])
    assert got[0] == (0, f"{status}_call_replayed")
    assert (1, "output_for_unfinished_call") in got


@pytest.mark.parametrize("status", [None, "completed"])
def test_input_calls_without_status_count_as_finished(status: str | None) -> None:
    item = call("a") if status is None else call("a", status=status)
    assert codes([item, out("a")]) == []
    assert codes([call("a", status=None), out("a")]) == []


def test_incomplete_must_be_last_in_a_response_output() -> None:
    inc = {**ASSISTANT, "id": "m1", "status": "incomplete"}
    later = {**ASSISTANT, "id": "m2"}
    assert codes([inc, later], side="output") == [(0, "incomplete_not_last")]
    assert codes([later, inc], side="output") == []
    assert codes([inc, USER]) == []  # across turns of a stored history it may be followed


def test_reasoning_must_be_followed_by_the_item_it_produced() -> None:
    rs = {"type": "reasoning", "id": "rs_1", "summary": []}
    assert codes([USER, rs, {"type": "message", "role": "assistant", "content": "x"}]) == [
        (1, "reasoning_without_following_item")
    ]
    assert codes([USER, rs]) == [(1, "reasoning_without_following_item")]
    assert codes([USER, rs, ASSISTANT]) == []
    assert codes([USER, {"type": "reasoning", "summary": []}, USER]) == []  # no id: nothing to pair


@pytest.mark.parametrize(
    "item",
    [
        {"role": "assistant", "content": None, "tool_calls": [{"id": "a", "type": "function", "function": {}}]},
        {"role": "tool", "tool_call_id": "a", "content": "x"},
        {"type": "message", "role": "tool", "content": "x"},
        {"role": "function", "name": "f", "content": "x"},
        {"type": "function_call_output", "tool_call_id": "a", "output": "x"},
    ],
)
def test_chat_completions_shapes_say_how_to_convert(item: dict[str, Any]) -> None:
    report = rp.check_transcript([USER, item])
    assert [(v.index, v.code) for v in report.violations][:1] == [(1, V.CHAT_COMPLETIONS_ENVELOPE)]
    assert "function_call" in report.violations[0].message


def test_function_call_parts_nested_in_content() -> None:
    item = {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "x"}, {"type": "function_call", "name": "f"}],
    }
    report = rp.check_transcript([USER, item])
    assert [(v.index, v.code, v.path) for v in report.violations] == [(1, V.FUNCTION_CALL_IN_CONTENT, "/content/1")]


@pytest.mark.parametrize("output", [None, {"a": 1}, [{"product_id": 1}], [1, 2], 5, [{"type": "input_text"}]])
def test_output_must_be_a_string_or_content_parts(output: Any) -> None:
    got = codes([call("a"), {"type": "function_call_output", "call_id": "a", "output": output}])
    assert got == [(1, "output_not_string_or_content_parts")]


def test_output_as_content_parts_is_fine() -> None:
    parts = [{"type": "input_text", "text": "x"}, {"type": "input_image", "image_url": "data:image/png;base64,AA=="}]
    assert codes([call("a"), {"type": "function_call_output", "call_id": "a", "output": parts}]) == []


def test_arguments_not_a_string_and_pairing_still_works() -> None:
    got = codes([call("a", arguments={"q": "x"}), out("a")])
    assert got == [(0, "function_arguments_not_string")]


def test_foreign_extension_items() -> None:
    ws = {"type": "openai:web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "q"}}
    assert codes([USER, ws, ASSISTANT], target="acme") == [(1, "foreign_extension_item")]
    assert codes([USER, ws, ASSISTANT], target="openai") == []
    native = {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "q"}}
    assert codes([USER, native, ASSISTANT], target="acme", provider="openai") == [(1, "foreign_extension_item")]
    assert codes([USER, native, ASSISTANT], target="openai", provider="openai") == []


def test_unknown_items_are_violations_not_exceptions() -> None:
    report = rp.check_transcript([USER, None, 5, "x", {"type": "brand_new"}, {}])
    assert [(v.index, v.code) for v in report.violations] == [
        (1, V.ITEM_INVALID),
        (2, V.ITEM_INVALID),
        (3, V.ITEM_INVALID),
        (4, V.UNKNOWN_ITEM_TYPE),
        (5, V.ITEM_INVALID),
    ]
    assert report.items[0] is not None and report.items[1:] == (None,) * 5


TOOLS = [
    {
        "type": "function",
        "name": "lookup",
        "strict": True,
        "parameters": {
            "type": "object",
            "properties": {"q": {"type": "string"}},
            "required": ["q"],
            "additionalProperties": False,
        },
    }
]


def test_tools_unknown_tool_and_arguments() -> None:
    assert codes([call("a"), out("a")], tools=TOOLS) == []
    assert codes([{**call("a"), "name": "drop_db"}, out("a")], tools=TOOLS) == [(0, "unknown_tool")]
    report = rp.check_transcript([call("a", arguments='{"q":1,"x":2}'), out("a")], tools=TOOLS)
    assert sorted((v.code, v.path) for v in report.violations) == [
        (V.ARGUMENTS_SCHEMA, "/arguments/q"),
        (V.ARGUMENTS_SCHEMA, "/arguments/x"),
    ]
    assert codes([call("a", arguments='{"q":"a","q":"b"}'), out("a")], tools=TOOLS) == [(0, "arguments_parse")]


def test_tools_do_not_bring_the_gate_status_rule() -> None:
    assert codes([call("a"), out("a")], tools=TOOLS) == []  # input call without status: finished


def test_allowed_tools() -> None:
    items = [call("a"), out("a")]
    assert codes(items, allowed_tools=["lookup"]) == []
    assert codes(items, allowed_tools=["other"]) == [(0, "tool_not_allowed")]
    assert codes(items, allowed_tools=[]) == [(0, "tool_not_allowed")]
    both = codes([call("a", arguments='{"q":1}'), out("a")], tools=TOOLS, allowed_tools=["other"])
    assert {c for i, c in both if i == 0} == {"tool_not_allowed", "arguments_schema"}


def test_parsed_models_and_raw_items_give_the_same_report() -> None:
    items = [USER, call("a", status="incomplete"), out("a"), out("zz")]
    parsed = [rp.parse_item(i) for i in items]
    assert codes(items) == codes(parsed)


def test_bad_arguments_to_check_transcript() -> None:
    with pytest.raises(ValueError):
        rp.check_transcript([USER], side="sideways")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        rp.check_transcript("[]")  # type: ignore[arg-type]


# --- check_tool ----------------------------------------------------------------------------------------


def lint(tool: dict[str, Any]) -> list[tuple[str, str]]:
    return [(str(v.code), v.path) for v in rp.check_tool(tool)]


def test_strict_tool_closed_objects() -> None:
    params = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
        "additionalProperties": False,
    }
    tool = {"type": "function", "name": "f", "strict": True, "parameters": params}
    assert lint(tool) == []
    assert lint({**tool, "strict": None} if False else {k: v for k, v in tool.items() if k != "strict"}) == []
    open_obj = {**params, "additionalProperties": True}
    assert lint({**tool, "parameters": open_obj}) == [
        ("strict_schema_additional_properties", "/parameters/additionalProperties")
    ]
    assert lint({**tool, "parameters": open_obj, "strict": False}) == []
    no_type = {"properties": {"a": {"type": "string"}}, "required": ["a"]}
    assert ("strict_schema_additional_properties", "/parameters/additionalProperties") in lint(
        {**tool, "parameters": no_type}
    )


def test_strict_tool_required_and_nested_and_refs() -> None:
    params = {
        "type": "object",
        "additionalProperties": False,
        "required": ["f", "items"],
        "properties": {
            "f": {"$ref": "#/$defs/Filter"},
            "items": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}}},
            "opt": {"type": ["string", "null"]},
        },
        "$defs": {"Filter": {"type": "object", "properties": {"q": {"type": "string"}}, "additionalProperties": False}},
    }
    got = lint({"type": "function", "name": "f", "parameters": params})
    assert ("strict_schema_required_incomplete", "/parameters/required") in got  # 'opt' is not required
    assert ("strict_schema_required_incomplete", "/parameters/$defs/Filter/required") in got
    assert ("strict_schema_additional_properties", "/parameters/properties/items/items/additionalProperties") in got


def test_recursive_refs_terminate() -> None:
    params = {
        "$ref": "#/$defs/Node",
        "$defs": {
            "Node": {
                "type": "object",
                "additionalProperties": False,
                "required": ["next"],
                "properties": {"next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}},
            }
        },
    }
    assert lint({"type": "function", "name": "f", "parameters": params}) == []


def test_malformed_tools() -> None:
    assert lint({"type": "function", "name": "bad name!", "parameters": None}) == [("invalid_tool", "/name")]
    assert lint({"type": "function", "name": "f", "parameters": {"type": "nope"}}) == [("invalid_tool", "/parameters")]
    assert [str(v.code) for v in rp.check_tool(5)] == ["invalid_tool"]


def test_mcp_and_agents_tools_are_always_closed() -> None:
    loose = {"type": "object", "properties": {"q": {"type": "string"}}}
    assert lint({"name": "lookup", "inputSchema": loose})
    assert lint({"type": "function", "name": "lookup", "defer_loading": True, "strict": False, "parameters": loose})
    tight = {**loose, "required": ["q"], "additionalProperties": False}
    assert lint({"name": "lookup", "inputSchema": tight}) == []
