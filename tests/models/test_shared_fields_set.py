"""Parsed items share one read-only fields set per class and set of fields (memory).

`replayable._base.share_fields_sets` replaces pydantic's per-instance `__pydantic_fields_set__` of the
items `parse_items` returns (each set also says whether its items hold unknown fields). That leans on
pydantic's internals (the slot, the unknown keys named in the set, and pydantic copying the set before
it changes it), so these tests fail loudly when pydantic changes any of them.
"""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest
from pydantic import BaseModel

import replayable as rp
from replayable._base import NO_EXTRAS, SharedExtras, SharedFieldsSet, shared_fields_sets

ITEMS: list[dict[str, Any]] = (
    [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": f"q{i}"}]} for i in range(3)]
    + [
        {"type": "function_call", "call_id": f"c{i}", "name": "f", "arguments": "{}", "status": "completed"}
        for i in range(3)
    ]
    + [{"type": "function_call", "call_id": "c9", "name": "f", "arguments": "{}"}]
)


def _parsed() -> list[Any]:
    return rp.parse_items(json.dumps(ITEMS))


def test_pydantic_keeps_the_fields_set_in_its_slot() -> None:
    """What sharing relies on: pydantic stores `model_fields_set` in the `__pydantic_fields_set__` slot."""
    assert "__pydantic_fields_set__" in BaseModel.__slots__
    item = rp.parse_item(ITEMS[0])
    assert item.model_fields_set is item.__pydantic_fields_set__


@pytest.mark.parametrize(
    "parse",
    [
        lambda: rp.parse_items(json.dumps(ITEMS)),
        lambda: rp.parse_items(json.dumps(ITEMS).encode()),
        lambda: rp.parse_items("\n".join(map(json.dumps, ITEMS))),
        lambda: rp.parse_items(ITEMS),
    ],
    ids=["array str", "array bytes", "jsonl", "dicts"],
)
def test_items_with_the_same_fields_share_one_set(parse: Any) -> None:
    items = parse()
    sets = [i.model_fields_set for i in items]
    assert all(type(s) is SharedFieldsSet for s in sets)
    assert sets[0] is sets[1] is sets[2]
    assert sets[3] is sets[4] is sets[5]
    assert sets[6] is not sets[5] and sets[6] == {"type", "call_id", "name", "arguments"}
    assert sets[5] == {"type", "call_id", "name", "arguments", "status"}
    assert [rp.dump_item(i) for i in items] == ITEMS  # what was set is what is dumped
    assert items == [rp.parse_item(x) for x in ITEMS]


def test_the_shared_set_refuses_changes_loudly() -> None:
    s = _parsed()[0].model_fields_set
    for change in (
        lambda: s.add("id"),
        lambda: s.discard("type"),
        lambda: s.remove("type"),
        lambda: s.pop(),
        lambda: s.clear(),
        lambda: s.update({"id"}),
        lambda: s.difference_update({"type"}),
        lambda: s.intersection_update({"type"}),
        lambda: s.symmetric_difference_update({"id"}),
    ):
        with pytest.raises(TypeError, match="read-only"):
            change()
    t = s
    with pytest.raises(TypeError, match="read-only"):
        t |= {"id"}
    assert s == {"type", "role", "content"}


def test_frozen_items_never_reach_the_shared_set() -> None:
    item = _parsed()[0]
    with pytest.raises(ValueError, match="frozen"):
        item.id = "x"  # type: ignore[misc]
    with pytest.raises(ValueError, match="frozen"):
        item.unknown = 1  # type: ignore[attr-defined]
    assert item.model_fields_set == {"type", "role", "content"}


def test_model_copy_update_copies_the_set_first() -> None:
    """pydantic's `model_copy(update=...)` copies the set, then updates the copy: the other items that
    share it keep theirs."""
    items = _parsed()
    copied = items[0].model_copy(update={"id": "msg_1"})
    assert copied.model_fields_set == {"type", "role", "content", "id"}
    assert type(copied.model_fields_set) is set
    assert items[1].model_fields_set == {"type", "role", "content"}
    assert rp.dump_item(items[1]) == ITEMS[1]
    assert type(items[0].model_copy().model_fields_set) is set
    assert type(items[0].model_copy(deep=True).model_fields_set) is set


def test_copy_deepcopy_and_pickle_give_plain_sets() -> None:
    item = _parsed()[3]
    for other in (copy.copy(item), copy.deepcopy(item), pickle.loads(pickle.dumps(item))):
        assert other == item
        assert type(other.model_fields_set) is set
        assert other.model_fields_set == item.model_fields_set
        assert rp.dump_item(other) == ITEMS[3]


def test_shared_set_reads_as_a_set() -> None:
    s = _parsed()[0].model_fields_set
    assert isinstance(s, set) and "type" in s and len(s) == 3
    assert s | {"id"} == {"type", "role", "content", "id"} and type(s | {"id"}) is set
    assert s - {"type"} == {"role", "content"}


def test_the_few_shared_sets_of_a_list_are_collected_by_identity() -> None:
    """`shared_fields_sets`: one pass in C over any number of items gives their few shared sets; a set
    equal to a shared one but not it, or a plain set, is not taken for one."""
    items = _parsed()
    found = shared_fields_sets(items * 100)
    assert found is not None and len(found) == 3  # a message, a call with status and one without
    assert {frozenset(f) for f in found} == {frozenset(i.model_fields_set) for i in items}
    one = items[0].model_fields_set
    assert hash(one) == object.__hash__(one)
    assert shared_fields_sets([*items, items[0].model_copy(update={"id": "m"})]) is None  # a plain set
    assert shared_fields_sets([]) is None


# ------------------------------------------------ whether the items of a shared set hold unknown fields


def test_pydantic_names_the_unknown_keys_in_the_fields_set() -> None:
    """What `holds_unknown` relies on: pydantic keeps the unknown keys of a model in its extras and names
    them in its fields set too, so a set naming a field its class does not declare means extras."""
    assert "__pydantic_extra__" in BaseModel.__slots__
    item = rp.parse_item({**ITEMS[0], "x_trace": "t1"})
    assert item.model_extra is item.__pydantic_extra__ == {"x_trace": "t1"}
    assert "x_trace" in item.model_fields_set and "x_trace" not in type(item).model_fields


@pytest.mark.parametrize(
    "parse",
    [
        lambda raw: rp.parse_items(json.dumps(raw)),
        lambda raw: rp.parse_items("\n".join(map(json.dumps, raw))),
        lambda raw: rp.parse_items(raw),
    ],
    ids=["array", "jsonl", "dicts"],
)
def test_each_shared_set_knows_whether_its_items_hold_unknown_fields(parse: Any) -> None:
    raw = [*ITEMS, {**ITEMS[0], "x_trace": "t1"}]
    items = parse(raw)
    sets = [i.model_fields_set for i in items]
    assert all(type(s) is SharedFieldsSet for s in sets)
    assert [s.holds_unknown for s in sets] == [False] * len(ITEMS) + [True]
    assert [bool(i.model_extra) for i in items] == [False] * len(ITEMS) + [True]
    assert [rp.dump_item(i) for i in items] == raw
    assert items == [rp.parse_item(x) for x in raw]


# ------------------------------------------------------------ one shared, read-only empty extras dict


@pytest.mark.parametrize(
    "parse",
    [
        lambda raw: rp.parse_items(json.dumps(raw)),
        lambda raw: rp.parse_items("\n".join(map(json.dumps, raw))),
        lambda raw: rp.parse_items(raw),
    ],
    ids=["array", "jsonl", "dicts"],
)
def test_items_without_unknown_fields_share_one_empty_extras(parse: Any) -> None:
    raw = [*ITEMS, {**ITEMS[0], "x_trace": "t1"}]
    items = parse(raw)
    assert all(i.model_extra is NO_EXTRAS for i in items[:-1])
    assert items[-1].model_extra == {"x_trace": "t1"} and type(items[-1].model_extra) is dict
    assert [rp.dump_item(i) for i in items] == raw
    assert items == [rp.parse_item(x) for x in raw]
    assert [i.model_dump() for i in items] == [rp.parse_item(x).model_dump() for x in raw]


def test_a_class_that_refuses_unknown_keys_keeps_none() -> None:
    """`item_reference` refuses unknown keys: pydantic keeps no extras dict, and none is put in its place."""
    items = rp.parse_items(json.dumps([{"type": "item_reference", "id": "msg_1"}, ITEMS[0]]))
    assert items[0].model_extra is None
    assert items[1].model_extra is NO_EXTRAS


def test_the_shared_extras_refuse_changes_loudly() -> None:
    extras = _parsed()[0].model_extra
    assert type(extras) is SharedExtras and extras == {} and not extras
    for change in (
        lambda: extras.__setitem__("x", 1),
        lambda: extras.__delitem__("x"),
        lambda: extras.setdefault("x", 1),
        lambda: extras.pop("x"),
        lambda: extras.popitem(),
        lambda: extras.clear(),
        lambda: extras.update({"x": 1}),
    ):
        with pytest.raises(TypeError, match="read-only"):
            change()
    e = extras
    with pytest.raises(TypeError, match="read-only"):
        e |= {"x": 1}
    assert extras == {} and extras | {"x": 1} == {"x": 1}


def test_copies_of_an_item_get_their_own_plain_extras() -> None:
    """`copy`, `deepcopy`, pickling and pydantic's `model_copy(update=...)` give a plain dict, which
    `model_copy` then fills with an unknown key: the other items keep the shared empty one."""
    items = _parsed()
    copied = items[0].model_copy(update={"x_trace": "t1"})
    assert copied.model_extra == {"x_trace": "t1"} and type(copied.model_extra) is dict
    assert items[1].model_extra is NO_EXTRAS and NO_EXTRAS == {}
    for other in (copy.copy(items[3]), copy.deepcopy(items[3]), pickle.loads(pickle.dumps(items[3]))):
        assert other == items[3]
        assert type(other.model_extra) is dict and other.model_extra == {}
        assert rp.dump_item(other) == ITEMS[3]
    assert type(pickle.loads(pickle.dumps(NO_EXTRAS))) is dict
