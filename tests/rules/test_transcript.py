"""check_transcript: each cross-item rule, its edge cases, and check_tool's strict lint."""

from __future__ import annotations

from typing import Any

import pytest

import replayable as rp
from replayable import ViolationCode as V
from replayable import _replay as rp_replay

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


# --- fail closed: replay means input rules; options and tools are checked ------------------------------


@pytest.mark.parametrize("cid", ["", "c" * 65])
def test_stored_output_form_pairs_meet_the_input_rules(cid: str) -> None:
    """R30: an output-form pair (id + status) with a call_id outside 1-64 characters is about to be sent
    as input, where the API refuses it."""
    items = [
        USER,
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": cid,
            "name": "lookup",
            "arguments": "{}",
            "status": "completed",
        },
        {"type": "function_call_output", "id": "fco_1", "call_id": cid, "output": "x", "status": "completed"},
    ]
    assert codes(items) == [(1, "item_invalid"), (2, "item_invalid")]
    assert codes(items[1:], side="output") == []  # as a response lists them: what the provider sent
    parsed = [rp.parse_item(items[0]), *(rp.parse_item(i, side="output") for i in items[1:])]
    assert codes(parsed) == codes(items)  # models and raw JSON: the same verdict
    assert codes(parsed[1:], side="output") == []
    stream = rp_replay.check_transcript_iter(iter(items))
    assert [(v.index, str(v.code)) for v in stream.violations] == codes(items)


@pytest.mark.parametrize("allowed", ["lookup", b"lookup", {"lookup": True}, 5, ["lookup", 5], [None]])
def test_allowed_tools_must_be_a_collection_of_names(allowed: Any) -> None:
    with pytest.raises(ValueError, match="allowed_tools"):
        rp.check_transcript([call("a"), out("a")], allowed_tools=allowed)
    with pytest.raises(ValueError, match="allowed_tools"):
        rp_replay.check_transcript_iter([call("a"), out("a")], allowed_tools=allowed)


def test_allowed_tools_accepts_any_collection() -> None:
    for allowed in (["lookup"], ("lookup",), {"lookup"}, frozenset({"lookup"}), (n for n in ["lookup"])):
        assert codes([call("a"), out("a")], allowed_tools=allowed) == []


def test_two_tools_with_one_name_are_an_error() -> None:
    a = {"type": "function", "name": "lookup", "parameters": {"type": "object"}}
    b = {"name": "lookup", "inputSchema": {"type": "object", "additionalProperties": False}}
    for tools in ([a, a], [a, b], [b, {"type": "function", "function": {"name": "lookup"}}]):
        with pytest.raises(ValueError, match="lookup"):
            rp.check_transcript([call("a"), out("a")], tools=tools)
        with pytest.raises(ValueError, match="lookup"):
            rp_replay.check_transcript_iter([call("a"), out("a")], tools=tools)
    hosted = [a, {"type": "web_search"}, {"type": "web_search"}]  # hosted tools have no name to clash
    assert codes([call("a"), out("a")], tools=hosted) == []


@pytest.mark.parametrize(
    "tool",
    [
        {
            "type": "function",
            "function": {"name": "lookup", "parameters": {"type": "object", "properties": {"q": {"type": "integer"}}}},
        },
        {"name": "lookup", "inputSchema": {"type": "object", "properties": {"q": {"type": "integer"}}}},
        {"name": "lookup", "parameters": {"type": "object", "properties": {"q": {"type": "integer"}}}},
    ],
)
def test_tools_in_every_known_shape_check_arguments(tool: dict[str, Any]) -> None:
    assert codes([call("a"), out("a")], tools=[tool]) == [(0, "arguments_schema")]
    assert codes([call("a", arguments='{"q": 1}'), out("a")], tools=[tool]) == []


def test_a_malformed_tool_refuses_its_calls() -> None:
    tools = [{"name": "lookup"}]  # a name, but no schema: neither a tool shape nor a schema
    report = rp.check_transcript([call("a"), out("a")], tools=tools)
    assert [(v.index, str(v.code)) for v in report.violations] == [(0, "invalid_tool")]


@pytest.mark.parametrize("args", ["null", "[]", '"Paris"', "1", "true"])
def test_transcript_arguments_are_always_a_json_object(args: str) -> None:
    loose = [{"type": "function", "name": "lookup", "parameters": {"properties": {"q": {"type": "string"}}}}]
    assert codes([call("a", arguments=args), out("a")], tools=loose) == [(0, "arguments_schema")]
    assert codes([call("a", arguments=args), out("a")]) == [(0, "arguments_schema")]  # without tools too
    assert codes([call("a", arguments=" {} "), out("a")]) == []


def test_check_tool_reads_every_tool_shape_and_the_object_root() -> None:
    closed = {
        "type": "object",
        "properties": {"q": {"type": "string"}},
        "required": ["q"],
        "additionalProperties": False,
    }
    assert lint({"type": "function", "function": {"name": "f", "parameters": closed, "strict": True}}) == []
    chat_loose = {"type": "function", "function": {"name": "f", "parameters": {**closed, "additionalProperties": True}}}
    assert lint(chat_loose) == []  # Chat Completions: strict is off unless set
    assert lint({**chat_loose, "function": {**chat_loose["function"], "strict": True}}) == [
        ("strict_schema_additional_properties", "/function/parameters/additionalProperties")
    ]
    assert lint({"type": "function", "function": {"name": "bad name", "parameters": closed}}) == [
        ("invalid_tool", "/function/name")
    ]
    for root, path in [
        ({"type": "string"}, "/parameters/type"),
        ({"type": ["object", "null"]}, "/parameters/type"),
        ({"properties": {}, "additionalProperties": False, "required": []}, "/parameters/type"),
        ({"anyOf": [{"type": "object"}, {"type": "array"}]}, "/parameters/type"),
    ]:
        got = lint({"type": "function", "name": "f", "parameters": root, "strict": False})
        assert ("parameters_not_object", path) in got, (root, got)
    # the boolean schema true is no way to say "no check" ({} is the one spelling): refused
    assert lint({"type": "function", "name": "f", "parameters": True, "strict": False}) == [("invalid_tool", "")]
    assert lint({"name": "f", "inputSchema": {"type": "array"}}) == [("parameters_not_object", "/inputSchema/type")]
    assert lint({"type": "function", "name": 5, "parameters": closed}) == [("invalid_tool", "/name")]
    assert lint({"type": "object", "properties": {}}) == [("invalid_tool", "")]  # a bare schema is not a tool


def test_jsonl_lines_get_the_same_violations_as_their_objects() -> None:
    """A line of text is read first, so the rules that look inside an item (the code for non-string
    arguments, the pairing of an output with its call) see the same object as from a dict."""
    import json

    from replayable._replay import check_transcript_iter

    items = [
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": {"q": 1}},
        {"type": "function_call_output", "call_id": "c1", "output": 5},
        {"type": "function_call_output", "call_id": "c2", "output": "ok"},
    ]
    expected = [(v.index, v.code, v.path) for v in rp.check_transcript(items).violations]
    assert {V.FUNCTION_ARGUMENTS_NOT_STRING, V.OUTPUT_NOT_STRING_OR_CONTENT_PARTS} <= {c for _, c, _ in expected}
    for lines in ([json.dumps(x) for x in items], [json.dumps(x).encode() for x in items]):
        for check in (rp.check_transcript, check_transcript_iter):
            assert [(v.index, v.code, v.path) for v in check(lines).violations] == expected
