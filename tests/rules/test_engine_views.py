"""The rules engine reads each parsed model's own storage in place (check overhead).

`replayable._rules.view` hands the rules a model's `__dict__` (its extras merged in only when it holds
unknown fields), read through pydantic's slots; `replayable._json.reads_cleanly` is the short way to the
arguments verdict. These pin what that relies on, and that the verdicts equal the long way's.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import item_models
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

import replayable as rp
from replayable import _json
from replayable._arguments import MAX_DEPTH, json_syntax_error, parse_arguments
from replayable._rules.view import NO_VIEW, field, model_views, view_of

CALL = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}", "status": "completed"}
USER = {"type": "message", "role": "user", "content": "hi"}


def test_a_view_is_the_model_storage_read_through_the_slots() -> None:
    """What the views rely on: pydantic keeps a model's values in its `__dict__` (absent optional fields
    as `MISSING`) and its unknown fields in the `__pydantic_extra__` slot."""
    assert {"__dict__", "__pydantic_extra__"} <= set(BaseModel.__slots__)
    items = rp.parse_items([USER, CALL])
    views = model_views(items, None)
    assert views is not None
    assert all(v is i.__dict__ for v, i in zip(views, items, strict=True))
    assert view_of(items[1]) is items[1].__dict__
    assert field(views[0], "id") is None and views[0].get("id") is not None  # MISSING in storage, None read
    assert field(views[1], "call_id") == "c1"


def test_every_item_model_declares_its_id_a_string_or_absent() -> None:
    """The whole-list pass reads the ids of models' storages without a look at their types
    (`Engine.run(stored=True)`): each item model must declare `id` as a string, None or absent, read by its
    own name. A class that does not (a subclass of an app's) is read from its JSON instead."""
    from replayable._rules.view import _id_declared  # noqa: PLC0415

    models = item_models()
    assert len(models) > 50
    assert [cls.__name__ for cls in models if not _id_declared(cls)] == []
    odd = type("OddCall", (type(rp.parse_item(CALL)),), {"__annotations__": {"id": Any}})
    assert not _id_declared(odd)
    aliased = type("Aliased", (type(rp.parse_item(CALL)),), {"__annotations__": {"id": str | None}, "id": None})
    assert _id_declared(aliased)
    item = odd.model_validate({**CALL, "id": 7})
    assert model_views([item], None) is None  # read from its JSON, where an id that is no string is checked


def test_unknown_fields_are_read_from_the_extras() -> None:
    """An unknown key is kept in the model's extras; its view holds it, and the rules read it."""
    item = rp.parse_item({**USER, "x_note": "n"})
    view = view_of(item)
    assert view["x_note"] == "n" and view["content"] == "hi"
    assert item.__dict__.get("x_note") is None  # the storage itself is left as it is


def test_views_of_what_is_not_a_model() -> None:
    assert model_views([USER], None) is None
    assert view_of({"role": "user", "content": "x"})["type"] == "message"
    assert view_of(CALL) is CALL
    assert view_of("not an object") is NO_VIEW and dict(NO_VIEW) == {}


def test_output_form_calls_are_listed_to_be_checked_again_without_side() -> None:
    out = rp.parse_items([{**CALL, "id": "fc_1"}], side="output")
    resend: list[int] = []
    assert model_views(out, None, resend) is not None and resend == [0]
    assert model_views(out, None) is None
    assert model_views(out, "output", resend := []) is not None and resend == []


ARGUMENTS = [
    "{}",
    '{"region":"apac","limit":10}',
    '{"a":1,"a":2}',
    '{"n":1e400}',
    '{"n":-1e-400}',
    '{"n":NaN}',
    '{"n":1' + "0" * 400 + "}",
    '{"s":"\\ud800"}',
    "[1,2]",
    "",
    "{",
    json.dumps(json.loads("[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1))),
    "[" * MAX_DEPTH + "]" * MAX_DEPTH,
    "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    '{"x":"' + "y" * 10_000 + '"}',
    "[" + ",".join(["[]"] * 5000) + "]",
]


def _long_way(text: str) -> str | None:
    try:
        _json.loads(text, what="arguments", max_depth=MAX_DEPTH, count_values=False)
    except _json.JSONError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("text", ARGUMENTS, ids=range(len(ARGUMENTS)))
def test_the_short_way_agrees_with_loads(text: str) -> None:
    """`reads_cleanly` says yes only where `loads` returns; `json_syntax_error` gives `loads`' message."""
    long = _long_way(text)
    if _json.reads_cleanly(text, MAX_DEPTH):
        assert long is None
    assert json_syntax_error(text) == long
    if long is None:
        parse_arguments(text)
    else:
        with pytest.raises(rp.ArgumentsError):
            parse_arguments(text)


_json_texts = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=12,
).map(json.dumps)


def test_a_leading_byte_order_mark_takes_the_long_way() -> None:
    """Arguments starting with a BOM are refused (`json_syntax_error`), never passed by the short way."""
    assert not _json.reads_cleanly("\ufeff{}", MAX_DEPTH)
    assert json_syntax_error("\ufeff{}") is not None


@given(st.one_of(_json_texts, st.text(alphabet='{}[]":,0123456789eE.-+ ad\\u', max_size=40)))
def test_the_short_way_never_says_yes_where_loads_refuses(text: Any) -> None:
    if _json.reads_cleanly(text, MAX_DEPTH):
        assert _long_way(text) is None
    assert json_syntax_error(text) == _long_way(text)


def test_unknown_fields_are_found_through_the_extras() -> None:
    """Parsed items holding unknown fields are read with their extras; the others in place, and a copy
    alike."""
    raw = [USER, {**CALL, "x_note": "n"}, CALL]
    items = rp.parse_items(json.dumps(raw))
    views = model_views(items, None)
    assert views is not None
    assert views[0] is items[0].__dict__ and views[2] is items[2].__dict__
    assert views[1]["x_note"] == "n" and views[1] is not items[1].__dict__
    copied = [i.model_copy() for i in items]
    again = model_views(copied, None)
    assert again is not None and again[1]["x_note"] == "n" and again[0] is copied[0].__dict__


def test_a_model_that_skipped_validation_elsewhere_changes_no_view_and_one_in_the_list_is_read_again() -> None:
    """The models that skipped validation are told by id against the registry, in C (`_base.any_unchecked`):
    one alive elsewhere in the process leaves a list of parsed models read in place; one in the list makes
    the list read again from its JSON (None: `read_item` reads each)."""
    from replayable._base import any_unchecked  # noqa: PLC0415

    parsed = rp.parse_items([USER, CALL])
    elsewhere = rp.Message.model_construct(role="user", content="x")
    assert not any_unchecked(parsed) and model_views(parsed, None) is not None
    assert any_unchecked([*parsed, elsewhere]) and model_views([*parsed, elsewhere], None) is None
    del elsewhere
    changed = parsed[1].model_copy(update={"call_id": 5})  # skipped validation: its JSON is read
    assert any_unchecked([parsed[0], changed])
    assert [str(v.code) for v in rp.check_transcript([parsed[0], changed]).violations] == ["item_invalid"]
