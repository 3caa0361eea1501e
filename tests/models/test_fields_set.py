"""A parsed model holds no fields set of its own: its class tells `model_fields_set` by its values; and the
parsed models holding no unknown field share one read-only empty `model_extra`.

Every field of our models is required or defaults to `MISSING` (absent), so a field is set exactly when its
value is not `MISSING`; the unknown keys kept are set too. `replayable._model_slots.derives_fields_set` says which
classes tell it so; each of those drops the set pydantic-core hands every model it builds (memory: 728
bytes with five names or more, and one more object for the collector per model). That leans on pydantic's
internals (the slot, `model_fields_set` reading it, its copies and pickling writing it), so these tests
compare with pydantic's own sets, read with the slot put back, and fail loudly when pydantic changes.
"""

from __future__ import annotations

import copy
import gc
import json
import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from pydantic import MISSING, BaseModel, model_validator
from pydantic_core import PydanticUndefined

import replayable as rp
from replayable import _model_slots as slots
from replayable._base import WireModel
from replayable._model_slots import NO_EXTRAS, SharedExtras, derives_fields_set

ITEMS: list[dict[str, Any]] = [
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "q"}]},
    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}", "status": "completed"},
    {"type": "function_call", "call_id": "c2", "name": "f", "arguments": "{}"},
    {"type": "function_call_output", "call_id": "c1", "output": "ok", "x_trace": "t1"},
    {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant", "phase": "final_answer",
     "content": [{"type": "output_text", "text": "a", "annotations": [{"type": "url_citation", "url": "https://x",
                  "start_index": 0, "end_index": 1, "title": "x"}]}]},
    {"type": "item_reference", "id": "msg_1"},
    {"type": "acme:note", "id": "n1", "body": {"nested": [1, 2]}},
]

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def _classes(root: type = WireModel) -> Iterator[type]:
    for sub in root.__subclasses__():
        yield sub
        yield from _classes(sub)


@contextmanager
def _pydantic_own_sets() -> Iterator[None]:
    """pydantic's own per-model fields sets, for the models built inside: every class that tells its set by
    its values is given pydantic's slot back for the while."""
    told = [cls for cls in {WireModel, *_classes()} if cls.__dict__.get("__pydantic_fields_set__") is slots.TOLD_BY_VALUES]
    for cls in told:
        cls.__pydantic_fields_set__ = slots.FIELDS_SET_SLOT  # type: ignore[assignment]
    try:
        yield
    finally:
        for cls in told:
            cls.__pydantic_fields_set__ = slots.TOLD_BY_VALUES  # type: ignore[assignment]


def _sets(value: Any, path: str = "") -> Iterator[tuple[str, type, frozenset[str]]]:
    """(path, class, fields set) of every model in a parsed value, nested parts and annotations included."""
    if isinstance(value, BaseModel):
        yield path, type(value), frozenset(value.model_fields_set)
        for name, inner in value.__dict__.items():
            yield from _sets(inner, f"{path}.{name}")
    elif isinstance(value, list | tuple):
        for n, inner in enumerate(value):
            yield from _sets(inner, f"{path}[{n}]")


def _assert_as_pydantic_says(raw: list[Any], provider: Any = None, side: Any = "input") -> None:
    ours = rp.parse_items(json.dumps(raw), side=side, provider=provider)
    with _pydantic_own_sets():
        theirs = rp.parse_items(json.dumps(raw), side=side, provider=provider)
        want = [list(_sets(x)) for x in theirs]
    assert [list(_sets(x)) for x in ours] == want
    assert [rp.dump_item(x) for x in ours] == [rp.dump_item(x) for x in theirs] == [
        rp.dump_item(rp.parse_item(x, side=side, provider=provider)) for x in raw
    ]


def test_the_slot_and_the_reading_pydantic_relies_on() -> None:
    """What telling the set by the values leans on: pydantic keeps it in the `__pydantic_fields_set__` slot,
    `model_fields_set` reads that name, and the unknown keys a model keeps are named in it."""
    assert "__pydantic_fields_set__" in BaseModel.__slots__
    with _pydantic_own_sets():
        item = rp.parse_item(ITEMS[3])
        assert item.model_fields_set is item.__pydantic_fields_set__
        assert "x_trace" in item.model_fields_set


@pytest.mark.parametrize(
    "parse",
    [
        lambda raw: rp.parse_items(json.dumps(raw)),
        lambda raw: rp.parse_items(json.dumps(raw).encode()),
        lambda raw: rp.parse_items("\n".join(map(json.dumps, raw))),
        lambda raw: rp.parse_items(raw),
        lambda raw: [rp.parse_item(x) for x in raw],
    ],
    ids=["array str", "array bytes", "jsonl", "dicts", "one by one"],
)
def test_parsed_items_hold_no_set_and_tell_the_one_pydantic_would(parse: Any) -> None:
    items = parse(ITEMS)
    for item in items:
        if derives_fields_set(type(item)):
            with pytest.raises(AttributeError):
                slots.get_fields_set(item)  # the slot is empty: pydantic-core's set was dropped
    assert [set(i.model_fields_set) for i in items] == [set(x) for x in ITEMS]  # every key given, unknown ones too
    assert [rp.dump_item(i) for i in items] == ITEMS
    _assert_as_pydantic_says(ITEMS)


def test_the_same_sets_as_pydantic_on_every_recorded_item() -> None:
    """Every output item of every recorded response and stream, in both readings, nested models included."""
    if not CORPUS.is_dir():
        pytest.skip(f"the recorded payloads are not beside the checkout ({CORPUS})")
    items: list[Any] = []
    for path in sorted(CORPUS.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        body = doc.get("body")
        if doc.get("kind") == "response" and isinstance(body, dict):
            items += body.get("output") or []
        elif doc.get("kind") == "stream" and isinstance(body, list):
            items += [e["item"] for e in body if isinstance(e, dict) and e.get("type") == "response.output_item.done"]
    assert items
    for provider in (None, "openai"):
        kept = []
        for item in items:
            try:
                rp.parse_item(item, side="output", provider=provider)
            except rp.ItemError:
                continue
            kept.append(item)
        assert kept, provider
        _assert_as_pydantic_says(kept, provider, "output")


def test_each_class_tells_its_set_exactly_when_its_defaults_allow() -> None:
    """A class with a default other than `MISSING` (OpenAI mode's `Response` fills in OpenAI's nulls) keeps
    pydantic's own set: a field at its default may have been given or not."""
    rp.parse_item({"role": "user", "content": "x"}, provider="openai")  # OpenAI mode's classes exist
    kept = []
    for cls in _classes():
        fields = cls.__pydantic_fields__.values()  # type: ignore[attr-defined]
        plain = all(f.default_factory is None and (f.default is PydanticUndefined or f.default is MISSING) for f in fields)
        want = slots.TOLD_BY_VALUES if plain else slots.FIELDS_SET_SLOT
        assert cls.__dict__["__pydantic_fields_set__"] is want, cls
        if not plain:
            kept.append(cls.__name__)
    assert "ItemReferenceParam" in kept  # `type` may be absent and defaults to "item_reference"
    reference = rp.parse_item({"id": "msg_1"})
    assert reference.model_fields_set == {"id"} and rp.dump_item(reference) == {"id": "msg_1"}


def test_changing_the_set_in_place_changes_the_models_set_as_pydantic_does() -> None:
    """A set read and changed in place becomes the model's own: dumps, copies and pickles follow it, as they
    follow a changed pydantic set; the other items keep theirs."""
    raw = {"type": "function_call", "call_id": "c", "name": "n", "arguments": "{}", "id": "fc_1", "status": "completed"}
    for change in (
        lambda s: s.discard("status"),
        lambda s: s.remove("status"),
        lambda s: s.difference_update({"status"}),
        lambda s: s.intersection_update(set(raw) - {"status"}),
        lambda s: s.symmetric_difference_update({"status"}),
    ):
        ours = rp.parse_items([raw, raw])
        with _pydantic_own_sets():
            theirs = rp.parse_item(raw)
            change(theirs.model_fields_set)
            want = (set(theirs.model_fields_set), theirs.model_dump(exclude_unset=True))
        change(ours[0].model_fields_set)
        assert (ours[0].model_fields_set, ours[0].model_dump(exclude_unset=True)) == want
        assert "status" not in rp.dump_item(ours[0]) and rp.dump_item(ours[1]) == raw
        for other in (copy.copy(ours[0]), copy.deepcopy(ours[0]), pickle.loads(pickle.dumps(ours[0]))):  # noqa: S301
            assert other.model_fields_set == want[0] and type(other.model_fields_set) is set
    item = rp.parse_item(raw)
    fields = item.model_fields_set
    fields |= {"x_unknown"}
    assert "x_unknown" in item.model_fields_set and repr(item.model_fields_set).startswith("{")


def test_a_subclass_validator_that_discards_from_the_set_is_followed() -> None:
    """The pydantic way of saying a field was not given: a wrap validator discarding it from the set."""

    class Quiet(rp.FunctionCallParam):
        @model_validator(mode="wrap")
        @classmethod
        def _unset_status(cls, data: Any, handler: Any) -> Any:
            model = handler(data)
            model.model_fields_set.discard("status")
            return model

    raw = {"type": "function_call", "call_id": "c", "name": "n", "arguments": "{}", "status": "completed"}
    quiet = Quiet.model_validate(raw)
    assert quiet.model_fields_set == set(raw) - {"status"}
    assert quiet.model_dump(exclude_unset=True) == {k: v for k, v in raw.items() if k != "status"}


def test_a_field_holding_missing_is_not_set_whatever_built_it() -> None:
    """`MISSING` is the spec's absence: a field holding it is not set, though pydantic would name a field
    passed as `MISSING` (only Python code can pass it; every JSON entry point refuses it)."""
    built = rp.FunctionCallParam(call_id="c", name="n", arguments="{}", status=MISSING)
    assert built.model_fields_set == {"type", "call_id", "name", "arguments"}
    assert rp.dump_item(built) == {"type": "function_call", "call_id": "c", "name": "n", "arguments": "{}"}
    with pytest.raises(rp.ItemError):
        rp.parse_item({"type": "function_call", "call_id": "c", "name": "n", "arguments": "{}", "status": MISSING})


def test_the_deprecated_copy_is_unchecked_when_it_leaves_out_or_changes_fields() -> None:
    """pydantic's deprecated `copy(include=, exclude=, update=)` builds a model without validation: it is
    read again from its JSON (a call without its `name` is reported), with the set pydantic gives it."""
    raw = {"type": "function_call", "call_id": "c", "name": "n", "arguments": "{}", "status": "completed"}
    item = rp.parse_item(raw)
    with pytest.warns(DeprecationWarning):
        partial = item.copy(exclude={"name"})
    assert partial.model_fields_set == set(raw) - {"name"}
    codes = [v.code for v in rp.check_transcript([partial], pending_ok=True).violations]
    assert rp.ViolationCode.ITEM_INVALID in codes
    with pytest.warns(DeprecationWarning):
        same = item.copy()
    assert same.model_fields_set == set(raw) and rp.check_transcript([same], pending_ok=True).ok


def test_a_shorthand_message_keeps_a_set_of_its_own() -> None:
    """OpenAI's `{role, content}` is read as a message whose `type` was not given: its own set, kept by
    copies and pickling, and dumped back without `type`."""
    raw = {"role": "user", "content": "hi"}
    item = rp.parse_item(raw, provider="openai")
    assert item.model_fields_set == {"role", "content"} and rp.dump_item(item) == raw
    for other in (copy.copy(item), copy.deepcopy(item), pickle.loads(pickle.dumps(item)), item.model_copy()):  # noqa: S301
        assert other.model_fields_set == {"role", "content"} and rp.dump_item(other) == raw
    changed = item.model_copy(update={"content": "bye"})
    assert changed.model_fields_set == {"role", "content"} and changed.model_dump(exclude_unset=True) == {
        "role": "user",
        "content": "bye",
    }
    assert item.model_fields_set == {"role", "content"}


def test_model_copy_with_update_sets_the_keys_it_updates() -> None:
    item = rp.parse_item(ITEMS[0])
    copied = item.model_copy(update={"id": "msg_9", "x_note": "n"})
    assert copied.model_fields_set == {"type", "role", "content", "id", "x_note"}
    assert copied.model_extra == {"x_note": "n"}
    assert item.model_fields_set == {"type", "role", "content"} and rp.dump_item(item) == ITEMS[0]


def test_copies_and_pickles_tell_the_same_set() -> None:
    for raw in ITEMS:
        item = rp.parse_item(raw)
        for other in (copy.copy(item), copy.deepcopy(item), pickle.loads(pickle.dumps(item))):  # noqa: S301
            assert other == item
            assert other.model_fields_set == item.model_fields_set == set(raw)
            assert rp.dump_item(other) == raw


def test_model_construct_keeps_the_set_it_is_given() -> None:
    """`model_construct(_fields_set=...)` is pydantic's word for what was set: kept as given. Without it,
    the set is what was passed, as pydantic computes it."""
    given = rp.FunctionCallOutputParam.model_construct({"call_id"}, call_id="c", output="x", type="function_call_output")
    assert given.model_fields_set == {"call_id"}
    passed = rp.FunctionCallOutputParam.model_construct(call_id="c", output="x", type="function_call_output")
    with _pydantic_own_sets():
        want = set(rp.FunctionCallOutputParam.model_construct(call_id="c", output="x", type="function_call_output").model_fields_set)
    assert passed.model_fields_set == want == {"call_id", "output", "type"}


def test_built_by_keyword_the_tags_count_as_given() -> None:
    item = rp.FunctionCallOutputParam(call_id="c", output="x")
    assert item.model_fields_set == {"type", "call_id", "output"}
    assert item.model_dump(exclude_unset=True) == {"type": "function_call_output", "call_id": "c", "output": "x"}


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
    items = parse(ITEMS)
    held = [bool(set(x) - set(type(i).model_fields)) for x, i in zip(ITEMS, items, strict=True)]
    assert held == [False, False, False, True, False, False, True]
    for item, holds in zip(items, held, strict=True):
        if holds:
            assert type(item.model_extra) is dict and item.model_extra
        elif item.model_extra is not None:
            assert item.model_extra is NO_EXTRAS
    assert items[5].model_extra is None  # `item_reference` refuses unknown keys: no extras to share
    assert [rp.dump_item(i) for i in items] == ITEMS
    assert items == [rp.parse_item(x) for x in ITEMS]
    assert [i.model_dump() for i in items] == [rp.parse_item(x).model_dump() for x in ITEMS]


def test_the_shared_extras_refuse_changes_loudly() -> None:
    extras = rp.parse_items(ITEMS)[0].model_extra
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
    items = rp.parse_items(ITEMS[:3])
    copied = items[0].model_copy(update={"x_trace": "t1"})
    assert copied.model_extra == {"x_trace": "t1"} and type(copied.model_extra) is dict
    assert "x_trace" in copied.model_fields_set and "x_trace" not in items[0].model_fields_set
    assert items[1].model_extra is NO_EXTRAS and NO_EXTRAS == {}
    for other in (copy.copy(items[1]), copy.deepcopy(items[1]), pickle.loads(pickle.dumps(items[1]))):  # noqa: S301
        assert other == items[1]
        assert type(other.model_extra) is dict and other.model_extra == {}
        assert rp.dump_item(other) == ITEMS[1]
    assert type(pickle.loads(pickle.dumps(NO_EXTRAS))) is dict  # noqa: S301


def test_model_construct_leaving_a_required_field_out_tells_what_was_passed() -> None:
    """`model_construct` validates nothing: a required field left out is not set, and (as pydantic has it)
    an unknown key passed is kept but not named in the set."""
    made = rp.Message.model_construct(role="assistant", content=[], x_note="n")
    with _pydantic_own_sets():
        want = set(rp.Message.model_construct(role="assistant", content=[], x_note="n").model_fields_set)
    assert made.model_fields_set == want == {"role", "content"} and made.model_extra == {"x_note": "n"}
    for other in (copy.copy(made), copy.deepcopy(made), pickle.loads(pickle.dumps(made))):  # noqa: S301
        assert other.model_fields_set == want


def test_a_model_holding_a_set_of_its_own_is_forgotten_when_it_goes() -> None:
    """The models holding a set of their own are kept by weak reference: none stays once it is gone, and a
    new model at the same address is not taken for it."""
    item = rp.parse_item({"role": "user", "content": "hi"}, provider="openai")
    key = id(item)
    assert key in slots.OWN_SETS
    del item
    gc.collect()
    assert key not in slots.OWN_SETS
    again = rp.parse_item({"type": "message", "role": "user", "content": "hi"})
    assert again.model_fields_set == {"type", "role", "content"}


def test_a_typed_namespaced_model_dumps_without_its_unset_fields_in_every_mode() -> None:
    """A typed model (`openai:custom_tool_call`) dumped by its own schema once: `model_dump()` without
    `exclude_unset`, and with `exclude_none`, leave its absent fields out instead of asking again forever."""
    raw = {"type": "custom_tool_call", "call_id": "c", "name": "n", "input": "x"}
    item = rp.parse_items([raw], provider="openai")[0]
    assert item.model_dump() == item.model_dump(exclude_none=True) == item.model_dump(exclude_unset=True) == raw
    assert rp.dump_item(item) == raw
