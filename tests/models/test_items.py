"""Parsing and dumping items: one test per union edge case, exact round trips, precise errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

import replayable as rp

CALL = {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": '{"city":"Oslo"}'}
OUT_CALL = {**CALL, "id": "fc_1", "status": "completed"}
MSG = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}


def roundtrip(item: dict[str, Any], **kw: Any) -> Any:
    parsed = rp.parse_item(item, **kw)
    assert rp.dump_item(parsed) == item
    return parsed


# --- the known branch ---------------------------------------------------------------------------------


def test_known_types_parse_to_their_models() -> None:
    assert isinstance(roundtrip(CALL), rp.FunctionCallParam)
    assert isinstance(roundtrip(OUT_CALL, side="output"), rp.FunctionCall)
    assert isinstance(roundtrip(MSG), rp.UserMessageParam)
    assert isinstance(roundtrip({"type": "message", "role": "system", "content": "be brief"}), rp.SystemMessageParam)
    assert isinstance(roundtrip({"type": "message", "role": "developer", "content": "x"}), rp.DeveloperMessageParam)
    asst = {
        "type": "message",
        "role": "assistant",
        "phase": "commentary",
        "content": [{"type": "output_text", "text": "ok"}, {"type": "refusal", "refusal": "no"}],
    }
    assert isinstance(roundtrip(asst), rp.AssistantMessageParam)
    fco = {"type": "function_call_output", "call_id": "call_1", "output": "sunny"}
    assert isinstance(roundtrip(fco), rp.FunctionCallOutputParam)
    assert isinstance(roundtrip({"type": "reasoning", "summary": []}), rp.ReasoningParam)
    assert isinstance(roundtrip({"type": "compaction", "encrypted_content": "x"}), rp.CompactionParam)


def test_output_forms() -> None:
    msg = {
        "type": "message",
        "id": "m1",
        "status": "completed",
        "role": "assistant",
        "phase": "final_answer",
        "content": [{"type": "output_text", "text": "hi", "annotations": [], "logprobs": []}],
    }
    assert isinstance(roundtrip(msg, side="output"), rp.Message)
    rs = {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [{"type": "summary_text", "text": "s"}],
        "content": [{"type": "reasoning_text", "text": "r"}],
        "encrypted_content": "e",
    }
    assert isinstance(roundtrip(rs, side="output"), rp.Reasoning)
    assert isinstance(
        roundtrip({"type": "compaction", "id": "c", "encrypted_content": "e"}, side="output"), rp.Compaction
    )
    fco = {
        "type": "function_call_output",
        "id": "o1",
        "call_id": "c",
        "status": "completed",
        "output": [{"type": "input_text", "text": "t"}, {"type": "input_image", "image_url": None, "detail": "auto"}],
    }
    assert isinstance(roundtrip(fco, side="output"), rp.FunctionCallOutput)


def test_output_item_needs_its_id_and_status() -> None:
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item(CALL, side="output")
    assert {e["loc"] for e in err.value.errors} == {("id",), ("status",)}


def test_known_type_with_a_bad_field_is_an_error_at_that_field_never_a_fallback() -> None:
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item({**CALL, "arguments": {"city": "Oslo"}})
    assert [e["loc"] for e in err.value.errors] == [("arguments",)]
    assert err.value.errors[0]["type"] == "string_type"
    with pytest.raises(rp.ItemError):
        rp.parse_item({**CALL, "type": "function_call", "arguments": {"a": 1}}, provider="openai")


def test_input_message_roles_are_told_apart() -> None:
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item({"type": "message", "role": "system", "content": [{"type": "input_image", "image_url": "x"}]})
    assert err.value.errors[0]["loc"] == ("content", 0, "type")  # the part's type is not one a system message takes
    with pytest.raises(rp.ItemError, match="role"):
        rp.parse_item({"type": "message", "role": "tool", "content": "x"})


# --- the namespaced branch ------------------------------------------------------------------------------


def test_namespaced_item_is_kept_verbatim() -> None:
    item = {"type": "acme:search_result", "id": "sr_1", "hits": [{"n": 1}], "score": 0.5, "extra": None}
    parsed = roundtrip(item)
    assert isinstance(parsed, rp.NamespacedItem)
    assert parsed.slug == "acme" and parsed.wire_type == "acme:search_result"
    roundtrip(item, side="output")


def test_spec_type_never_falls_back_to_namespaced() -> None:
    for side in ("input", "output"):
        with pytest.raises(rp.ItemError):
            rp.parse_item({"type": "message", "role": "user"}, side=side)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [":", "acme:", ":name", "acme :x", "a c:b"])
def test_malformed_namespaced_types(bad: str) -> None:
    with pytest.raises(rp.ItemError):
        rp.parse_item({"type": bad})


# --- unknown types, missing tags ------------------------------------------------------------------------


def test_unknown_unprefixed_type_names_the_type_and_the_prefix_rule() -> None:
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item({"type": "future_widget_call", "id": "fw_1"})
    text = str(err.value)
    assert "future_widget_call" in text and "slug:name" in text
    assert err.value.errors == [{"loc": ("type",), "type": "unknown_item_type", "msg": err.value.errors[0]["msg"]}]


def test_missing_type() -> None:
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item({"role": "user", "content": "hi"})
    assert err.value.errors[0]["type"] == "missing_type"
    with pytest.raises(rp.ItemError):
        rp.parse_item({})


def test_item_reference_without_type() -> None:
    for item in ({"id": "msg_1"}, {"id": "msg_1", "type": None}, {"id": "msg_1", "type": "item_reference"}):
        assert isinstance(roundtrip(item), rp.ItemReferenceParam)
    with pytest.raises(rp.ItemError):
        rp.parse_item({"id": "msg_1", "text": "a stray key makes it no reference"})
    with pytest.raises(rp.ItemError):
        rp.parse_item({"id": "msg_1", "type": "item_reference"}, side="output")


# --- OpenAI mode ---------------------------------------------------------------------------------------


def test_openai_native_types_become_namespaced_and_dump_back() -> None:
    item = {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "q"}}
    with pytest.raises(rp.ItemError):
        rp.parse_item(item)
    parsed = roundtrip(item, provider="openai")
    assert isinstance(parsed, rp.NamespacedItem)
    assert parsed.type == "openai:web_search_call" and parsed.wire_type == "web_search_call"


def test_openai_shorthand_message_dumps_back_without_type() -> None:
    item = {"role": "user", "content": "hello"}
    parsed = roundtrip(item, provider="openai")
    assert isinstance(parsed, rp.UserMessageParam) and parsed.type == "message"
    assert isinstance(roundtrip({"role": "assistant", "content": ""}, provider="openai"), rp.AssistantMessageParam)


def test_openai_extra_annotation_types_are_kept() -> None:
    msg = {
        "type": "message",
        "id": "m",
        "status": "completed",
        "role": "assistant",
        "content": [
            {
                "type": "output_text",
                "text": "t",
                "annotations": [{"type": "file_citation", "file_id": "f", "filename": "a.pdf", "index": 3}],
            }
        ],
    }
    with pytest.raises(rp.ItemError):
        rp.parse_item(msg, side="output")
    parsed = roundtrip(msg, side="output", provider="openai")
    part = parsed.content[0]
    assert isinstance(part.annotations[0], rp.NamespacedPart)


# --- exact round trips --------------------------------------------------------------------------------


def test_unknown_fields_and_explicit_nulls_are_kept_and_nothing_is_added() -> None:
    item = {**CALL, "id": None, "status": None, "namespace": "tools", "caller": {"type": "program"}}
    parsed = roundtrip(item)
    assert parsed.model_extra == {"namespace": "tools", "caller": {"type": "program"}}
    bare = rp.dump_item(rp.parse_item(CALL))
    assert set(bare) == set(CALL)  # no id/status/null added


def test_models_are_frozen() -> None:
    parsed = rp.parse_item(CALL)
    with pytest.raises(ValidationError):
        parsed.call_id = "other"  # type: ignore[misc]


def test_dump_item_refuses_non_models() -> None:
    with pytest.raises(rp.ItemError):
        rp.dump_item(CALL)


# --- hostile Python input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        None,
        5,
        1.5,
        True,
        "x",
        "[1]",
        [],
        (),
        {"type": 7},
        {"type": ""},
        {"type": ["message"]},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": 5}]},
        b"\xff\xfe",
        "[" * 5000,
    ],
)
def test_bad_input_raises_item_error_only(bad: Any) -> None:
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item(bad)
    assert err.value.errors and all({"loc", "type", "msg"} <= set(e) for e in err.value.errors)
    assert isinstance(err.value, ValueError)


def test_bad_side_or_provider_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        rp.parse_item(CALL, side="sideways")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        rp.parse_item(CALL, provider="acme")  # type: ignore[arg-type]


# --- lists, JSON text, JSONL ---------------------------------------------------------------------------


def test_parse_items_from_list_json_bytes_and_jsonl() -> None:
    items = [MSG, CALL, {"type": "function_call_output", "call_id": "call_1", "output": "ok"}]
    as_json = json.dumps(items)
    as_jsonl = "\n".join(json.dumps(i) for i in items) + "\n\n"
    for data in (items, as_json, as_json.encode(), "\n  " + as_json, as_jsonl, as_jsonl.encode(), iter(items)):
        assert rp.dump_items(rp.parse_items(data)) == items
    assert rp.parse_items("") == []


def test_parse_items_reports_one_precise_error_per_bad_item_with_its_index() -> None:
    items = [MSG, {**CALL, "arguments": {}}, MSG, {"type": "nope"}, 5]
    for data in (items, json.dumps(items)):
        with pytest.raises(rp.ItemError) as err:
            rp.parse_items(data)
        locs = [e["loc"] for e in err.value.errors]
        assert locs == [(1, "arguments"), (3, "type"), (4,)]
        assert "item 1, field arguments" in str(err.value)


def test_a_long_json_array_gives_the_same_items_and_errors_as_a_list() -> None:
    """A JSON array is validated a chunk at a time (its dicts dropped as it goes): the result, and the
    index of every bad item, whichever chunk it falls in, are those of the list path."""
    from replayable.items import _CHUNK

    n = 2 * _CHUNK + 7
    items = [{**CALL, "id": f"fc_{i}", "call_id": f"call_{i}"} if i % 2 else dict(MSG) for i in range(n)]
    text = json.dumps(items).encode()
    assert rp.dump_items(rp.parse_items(text)) == items
    for bad_at in ([0], [_CHUNK - 1, _CHUNK], [_CHUNK + 3, n - 1], [n - 1]):
        broken = [dict(x) for x in items]
        for i in bad_at:
            broken[i]["type"] = "nope"
        expected = [e["loc"] for e in _errors_of(broken)]
        assert [e["loc"] for e in _errors_of(json.dumps(broken).encode())] == expected
        assert [loc[0] for loc in expected] == bad_at


def _errors_of(data: Any) -> list[dict[str, Any]]:
    with pytest.raises(rp.ItemError) as err:
        rp.parse_items(data)
    return err.value.errors


def test_parse_items_refuses_non_lists_and_bad_json() -> None:
    for data in ({"type": "message"}, 5, "{", "[1,", "nonsense", b"[\xff]"):
        with pytest.raises(rp.ItemError):
            rp.parse_items(data)


def test_jsonl_error_names_the_line() -> None:
    with pytest.raises(rp.ItemError, match="line 2"):
        rp.parse_items(json.dumps(MSG) + "\n{oops\n")


def test_iter_items_streams_and_stops_at_the_first_bad_item() -> None:
    lines = [json.dumps(MSG), "", json.dumps(CALL), json.dumps({"type": "x"})]
    it = rp.iter_items(lines)
    assert isinstance(next(it), rp.UserMessageParam)
    assert isinstance(next(it), rp.FunctionCallParam)
    with pytest.raises(rp.ItemError) as err:
        next(it)
    assert err.value.errors[0]["loc"][0] == 3


def test_adapters_are_the_documented_entry_points() -> None:
    parsed = rp.input_items_adapter.validate_json(json.dumps([MSG, CALL]))
    assert [type(p) for p in parsed] == [rp.UserMessageParam, rp.FunctionCallParam]
    assert isinstance(rp.output_item_adapter.validate_python(OUT_CALL), rp.FunctionCall)
    assert rp.input_items_adapter.dump_python(parsed, mode="json", exclude_unset=True) == [MSG, CALL]


def test_openai_sdk_objects_are_accepted() -> None:
    from openai.types.responses import ResponseFunctionToolCall

    sdk = ResponseFunctionToolCall.model_validate(OUT_CALL)
    parsed = rp.parse_item(sdk, side="output")
    assert isinstance(parsed, rp.FunctionCall) and parsed.call_id == "call_1"
