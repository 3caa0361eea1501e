"""Tests of replayable.compare_items: the cross-provider diff and what blocks a replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import replayable as rp
from replayable._compare import Change

FIX = Path(__file__).parent.parent / "fixtures" / "doors"
FC = {
    "type": "function_call",
    "id": "fc_001",
    "name": "get_latest_sales_report",
    "call_id": "call_123",
    "status": "completed",
    "arguments": '{"region":"apac","limit":5}',
}


def blocking(a, b):
    return [(d.path, d.change) for d in rp.compare_items(a, b) if d.blocking]


def test_identical_items_have_no_difference():
    assert rp.compare_items(FC, dict(FC)) == []


@pytest.mark.parametrize(
    "field, value, change",
    [
        ("type", "acme:function_call", Change.TYPE),
        ("type", "custom_tool_call", Change.TYPE),
        ("call_id", "call_123 ", Change.CALL_ID),
        ("call_id", "call_124", Change.CALL_ID),
        ("call_id", "call_12\u0033\u0301", Change.CALL_ID),
        ("name", "delete_record", Change.NAME),
        ("arguments", '{"region":"emea","limit":5}', Change.ARGUMENTS),
        ("arguments", '{"region":"apac","limit":true}', Change.ARGUMENTS),
        ("arguments", '{"region":"apac","limit":"5"}', Change.ARGUMENTS),
        ("arguments", '{"region":"apac"}', Change.ARGUMENTS),
        ("arguments", '{"region":"apac","limit":5', Change.ARGUMENTS),  # truncated: compared as text
    ],
)
def test_blocking_changes(field, value, change):
    diffs = rp.compare_items(FC, dict(FC, **{field: value}))
    assert [(d.path, d.change, d.blocking) for d in diffs] == [(f"/{field}", change, True)]
    assert diffs[0].original == FC[field] and diffs[0].candidate == value


def test_type_into_an_extension_says_it_is_not_portable():
    (d,) = rp.compare_items(FC, dict(FC, type="acme:function_call"))
    assert "not portable" in d.message


def test_removed_call_id_blocks():
    cand = {k: v for k, v in FC.items() if k != "call_id"}
    assert blocking(FC, cand) == [("/call_id", Change.CALL_ID)]


def test_number_to_boolean_blocks_and_names_the_inner_pointer():
    a = dict(FC, arguments='{"region":"apac","limit":1}')
    b = dict(FC, arguments='{"region":"apac","limit":true}')
    (d,) = rp.compare_items(a, b)
    assert d.blocking and "/limit" in d.message


@pytest.mark.parametrize(
    "args",
    [
        '{ "limit": 5, "region": "apac" }',
        '{"region":"apac","limit":5.0}',
        '{"region":"apac",\n  "limit":5}',
    ],
)
def test_same_meaning_does_not_block(args):
    diffs = rp.compare_items(FC, dict(FC, arguments=args))
    assert [(d.path, d.change, d.blocking) for d in diffs] == [("/arguments", Change.ARGUMENTS, False)]


def test_provider_id_and_other_fields_never_block():
    cand = dict(FC, id="item_77", status="in_progress")
    del cand["id"]
    diffs = rp.compare_items(dict(FC, extra={"a": [1, 2]}), dict(cand, extra={"a": [1, 3]}))
    got = {(d.path, d.change, d.blocking) for d in diffs}
    assert got == {("/id", Change.ID, False), ("/status", Change.FIELD, False), ("/extra/a/1", Change.FIELD, False)}


def test_agents_object_arguments_compare_with_a_json_string():
    agents = dict(FC, arguments={"limit": 5, "region": "apac"})
    (d,) = rp.compare_items(FC, agents)
    assert d.change is Change.ARGUMENTS and not d.blocking
    assert blocking(FC, dict(FC, arguments={"limit": 6, "region": "apac"})) == [("/arguments", Change.ARGUMENTS)]


def test_lists_pair_by_call_id_and_report_replay_noise_as_non_blocking():
    original = json.loads((FIX / "original.json").read_text())
    replayed = json.loads((FIX / "replayed.json").read_text())
    diffs = rp.compare_items(original, replayed)
    assert not [d for d in diffs if d.blocking]
    assert {(d.path, d.change) for d in diffs} == {
        ("/0/id", Change.ID),
        ("/1/id", Change.ID),
        ("/1/arguments", Change.ARGUMENTS),
        ("/2/id", Change.ID),
    }


def test_lists_with_an_extension_call_block():
    original = json.loads((FIX / "original.json").read_text())
    rewritten = json.loads((FIX / "rewritten.json").read_text())
    assert ("/1/type", Change.TYPE) in blocking(original, rewritten)


def test_reordered_parallel_calls_pair_by_call_id():
    a = [dict(FC, call_id="c1", id="a"), dict(FC, call_id="c2", id="b", arguments='{"region":"emea"}')]
    b = [a[1], a[0]]
    assert rp.compare_items(a, b) == []


def test_a_call_on_one_side_only_blocks_a_message_does_not():
    out = {"type": "function_call_output", "call_id": "call_123", "output": "x"}
    msg = {"type": "message", "role": "user", "content": "hi"}
    diffs = rp.compare_items([msg, FC, out], [FC])
    got = [(d.path, d.change, d.blocking) for d in diffs]
    assert ("/2", Change.ITEM_REMOVED, True) in got and ("/0", Change.ITEM_REMOVED, False) in got
    added = rp.compare_items([FC], [FC, out])
    assert [(d.path, d.change, d.blocking) for d in added] == [("/1", Change.ITEM_ADDED, True)]


def test_a_call_whose_call_id_changed_is_paired_by_position():
    diffs = rp.compare_items([FC], [dict(FC, call_id="call_124")])
    assert [(d.path, d.change, d.blocking) for d in diffs] == [("/0/call_id", Change.CALL_ID, True)]


def test_an_item_against_a_list_is_a_list_of_one_and_models_are_read():
    assert rp.compare_items(FC, [FC]) == []
    assert rp.compare_items(rp.parse_item(FC, side="output"), FC) == []
    assert rp.compare_items(json.dumps(FC), FC) == []


def test_difference_as_dict_is_json_ready():
    (d,) = rp.compare_items(FC, dict(FC, name="x"))
    assert json.loads(json.dumps(d.as_dict())) == {
        "path": "/name",
        "change": "name",
        "blocking": True,
        "message": d.message,
        "original": FC["name"],
        "candidate": "x",
    }


@pytest.mark.parametrize("bad", [None, 5, "not json", [5], [None]])
def test_bad_input_raises_item_error(bad):
    with pytest.raises(rp.ItemError):
        rp.compare_items(bad, FC)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=10,
)


@given(st.dictionaries(st.text(max_size=4), json_values, max_size=4))
def test_reformatted_arguments_never_block(value):
    a = dict(FC, arguments=json.dumps(value))
    b = dict(FC, arguments=json.dumps(dict(reversed(list(value.items()))), indent=2))
    assert not [d for d in rp.compare_items(a, b) if d.blocking]


@given(st.dictionaries(st.text(max_size=4), json_values, min_size=1, max_size=4), st.data())
def test_changing_one_argument_value_blocks(value, data):
    key = data.draw(st.sampled_from(sorted(value)))
    changed = dict(value, **{key: [value[key], "changed"]})
    assert blocking(dict(FC, arguments=json.dumps(value)), dict(FC, arguments=json.dumps(changed)))
