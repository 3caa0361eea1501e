"""Parsed items share one read-only fields set per class and set of fields (issue 26, memory).

`replayable._base.share_fields_sets` replaces pydantic's per-instance `__pydantic_fields_set__` of the
items `parse_items` returns, and their empty `__pydantic_extra__` (one shared `NO_EXTRAS`). That leans on
pydantic's internals (the slots, and pydantic copying the set and the extras before it changes them), so
these tests fail loudly when pydantic changes either.
"""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest
from pydantic import BaseModel

import replayable as rp
from replayable._base import NO_EXTRAS, SharedFieldsSet

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


# ------------------------------------------------ the shared empty extras (`model_extra` of most items)


def test_pydantic_keeps_the_extras_in_its_slot() -> None:
    """What sharing the empty extras relies on: pydantic stores `model_extra` in the `__pydantic_extra__`
    slot, and gives every parsed model of ours (`extra="allow"`) a dict there."""
    assert "__pydantic_extra__" in BaseModel.__slots__
    item = rp.parse_item(ITEMS[0])
    assert item.model_extra is item.__pydantic_extra__ == {}


@pytest.mark.parametrize(
    "parse",
    [
        lambda: rp.parse_items(json.dumps(ITEMS)),
        lambda: rp.parse_items("\n".join(map(json.dumps, ITEMS))),
        lambda: rp.parse_items(ITEMS),
    ],
    ids=["array", "jsonl", "dicts"],
)
def test_items_without_unknown_fields_share_one_empty_extras(parse: Any) -> None:
    raw = [*ITEMS, {**ITEMS[0], "x_trace": "t1"}]
    items = parse() + rp.parse_items(json.dumps(raw[-1:]))
    assert all(i.model_extra is NO_EXTRAS for i in items[:-1])
    assert type(items[-1].model_extra) is dict and items[-1].model_extra == {"x_trace": "t1"}
    assert [rp.dump_item(i) for i in items] == raw
    assert items == [rp.parse_item(x) for x in raw]


def test_the_shared_extras_refuse_changes_loudly() -> None:
    e = _parsed()[0].model_extra
    assert e is NO_EXTRAS
    for change in (
        lambda: e.__setitem__("x", 1),
        lambda: e.__delitem__("x"),
        lambda: e.setdefault("x", 1),
        lambda: e.update({"x": 1}),
        lambda: e.pop("x", None),
        lambda: e.popitem(),
        lambda: e.clear(),
    ):
        with pytest.raises(TypeError, match="read-only"):
            change()
    f = e
    with pytest.raises(TypeError, match="read-only"):
        f |= {"x": 1}
    assert e == {} and len(e) == 0


def test_model_copy_copies_the_shared_extras_first() -> None:
    """pydantic's `model_copy(update=...)` copies the extras, then adds the unknown keys to the copy."""
    items = _parsed()
    copied = items[0].model_copy(update={"x_trace": "t1"})
    assert copied.model_extra == {"x_trace": "t1"} and type(copied.model_extra) is dict
    assert items[1].model_extra == {} and rp.dump_item(items[1]) == ITEMS[1]
    for other in (copy.copy(items[0]), copy.deepcopy(items[0]), pickle.loads(pickle.dumps(items[0]))):
        assert other == items[0]
        assert type(other.model_extra) is dict and other.model_extra == {}
        assert rp.dump_item(other) == ITEMS[0]
