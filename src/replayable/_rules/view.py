"""What the rules read of one item, its `View`: the item's fields as a mapping, taken as they are from the
parsed model's own storage (no copy, no dump) or, when the item did not parse, from its raw JSON object.

A rule reads a field with `v.get(name)`. A parsed model's storage holds pydantic's `MISSING` sentinel for
an optional field that was absent, so a rule tests what it reads (`type(x) is str`, `x == "completed"`)
or reads it with `field(v, name)` (None when absent or `MISSING`); it never changes the mapping.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from itertools import compress
from operator import methodcaller
from types import MappingProxyType, UnionType
from typing import Any

from pydantic import BaseModel
from pydantic.experimental.missing_sentinel import MISSING

from replayable._base import NamespacedBase, any_unchecked
from replayable._chat_shapes import nested_call
from replayable._generated.open_responses.function_call import FunctionCall
from replayable._generated.open_responses.function_call_output import FunctionCallOutput
from replayable._item_routes import opaque_typed
from replayable._model_slots import get_extras as _extras  # the one reader of the extras slot
from replayable._native import INPUT_TYPES
from replayable.items import ITEM_MODELS, SIDE_ITEM_MODELS, Side

__all__ = ["NO_VIEW", "OUTPUT_CALLS", "View", "field", "model_views", "sent_in_input_form", "view_of"]

#: The fields of one item as the rules read them (see the module docstring).
View = Mapping[str, Any]

#: The view of an item that is not a JSON object: no field at all.
NO_VIEW: View = MappingProxyType({})

#: The output-form call classes: sent back as they are, so the input rules hold for them too.
OUTPUT_CALLS = (FunctionCall, FunctionCallOutput)


def sent_in_input_form(cls: type) -> bool:
    """Whether the items of class `cls` are OpenAI typed items of another class than their type's input
    model (`AdditionalTools` read as output): sent back as they are, their input form's rules hold, as for
    the output-form calls (`OUTPUT_CALLS`). A typed class pins its `type`, so this is told once per class;
    the generic `NamespacedItem` holding a typed type is read again from its JSON instead
    (`replayable._item_routes.opaque_typed`)."""
    told = _SENT_IN_INPUT_FORM.get(cls)
    if told is None:
        field = cls.__pydantic_fields__.get("type") if getattr(cls, "pinned", False) else None  # type: ignore[attr-defined]
        pinned = typing.get_args(field.annotation) if field is not None else ()
        told = bool(pinned) and isinstance(pinned[0], str) and INPUT_TYPES.get(pinned[0], cls) is not cls
        if len(_SENT_IN_INPUT_FORM) < 4096:  # classes made on the fly never grow it without bound
            _SENT_IN_INPUT_FORM[cls] = told
    return told


_SENT_IN_INPUT_FORM: dict[type, bool] = {}


# A model's storage and its unknown fields (`_extras`, imported above), read through pydantic's own slots:
# `BaseModel.__getattr__` makes every attribute read of a model take the slow path of CPython's lookup
# (about 3x a slot read), and these two are read for every item checked. (`tests/rules/test_engine_views.py`
# pins them.)
_storage = BaseModel.__dict__["__dict__"].__get__

#: Per class: 0 not one of our item models (any other model is read from its JSON, as an item would be:
#: `replayable._item_read.is_item_model`), 1 an item model, 2 a namespaced item, 3 an output-form call
#: (`FunctionCall`, `FunctionCallOutput`). `isinstance` on pydantic models goes through `ABCMeta`; the
#: answer is kept per class.
_KINDS: dict[type, int] = {}


def _kind(cls: type) -> int:
    kind = _KINDS.get(cls)
    if kind is None:
        kind = (
            3
            if issubclass(cls, OUTPUT_CALLS)
            else 2
            if issubclass(cls, NamespacedBase) and issubclass(cls, ITEM_MODELS)
            else 1
            if issubclass(cls, ITEM_MODELS)
            else 0
        )
        if len(_KINDS) < 4096:  # classes made on the fly never grow it without bound
            _KINDS[cls] = kind
    return kind


#: The types an item model's `id` may be declared with for its storage to be read as it is (`model_views`).
_ID_DECLARED = frozenset({str, type(None), type(MISSING)})
#: Per class: whether it declares `id` as a string, None or absent (every item model of ours does).
_IDS: dict[type, bool] = {}


def _id_declared(cls: type) -> bool:
    known = _IDS.get(cls)
    if known is None:
        declared = getattr(cls, "__pydantic_fields__", {}).get("id")
        by_name = declared is not None and {declared.alias, declared.validation_alias} <= {None, "id"}
        annotation = declared.annotation if declared is not None and by_name else None  # else its JSON `id` is an extra
        known = annotation is str or (
            typing.get_origin(annotation) in (typing.Union, UnionType)
            and set(map(_type_of, typing.get_args(annotation))) <= _ID_DECLARED
        )
        if len(_IDS) < 4096:  # classes made on the fly never grow it without bound
            _IDS[cls] = known
    return known


def _type_of(arg: Any) -> Any:
    return type(arg) if arg is MISSING else arg


def field(v: View, name: str) -> Any:
    """Field `name` of the viewed item: None when absent (or pydantic's `MISSING`)."""
    value = v.get(name)
    return None if value is MISSING else value


def _with_extras(item: Any) -> View:
    """A model's storage with its unknown fields (its extras) added: a declared field that is absent or
    None reads the unknown key of the same name (as a field the model does not declare may still have
    been read as one)."""
    fields = dict(item.__pydantic_extra__)
    for name, value in item.__dict__.items():
        if value is not None or name not in fields:
            fields[name] = value
    return fields


def model_views(
    items: list[Any], side: Side | None, resend: list[int] | None = None, plain: frozenset[type] | None = None
) -> list[View] | None:
    """The views of a list of parsed models (each model's own storage, read in place), or None when one
    item is not a model. An output-form call with `side=None` is sent back as it is, so its input form
    must be checked too: its index is added to `resend` when a list is given (the caller checks them,
    `rules.reading.recheck_sent_as_is`), else the answer is None (every item is then read by
    `read_item`). The per-item work runs in C (`map`); only models holding unknown fields take a copy.
    `plain`: the items' classes when the reader told already that every item is one of our models holding
    no unknown field (the distinct classes of `Document._item_classes`): neither is asked again.
    Every view returned is a `dict` whose `id` is a string, None or `MISSING` (its class declares it so:
    the rules' whole-list pass reads the ids without a look at their types, `rules.engine.Engine.run`)."""
    if any_unchecked(items):
        return None  # a model that skipped validation is read again from its JSON (`read_item`)
    classes = set(map(type, items)) if plain is None else plain
    kinds = {_kind(cls) for cls in classes}
    if 0 in kinds or not all(map(_id_declared, classes)):
        return None  # not our model, or (a subclass of one) whose `id` may be anything: read from its JSON
    if side is not None and not all(issubclass(cls, SIDE_ITEM_MODELS[side]) for cls in classes):
        return None  # a model of the other side is read as this side's item (`read_item`)
    if 3 in kinds and side is None:
        if resend is None:
            return None
        resend.extend(i for i, item in enumerate(items) if _kind(type(item)) == 3)
    generic = [cls for cls in classes if _kind(cls) == 2 and not getattr(cls, "pinned", False)]
    if generic and any(map(opaque_typed, compress(items, map(set(generic).__contains__, map(type, items))))):
        return None  # a typed item held by the generic model: read again from its JSON (`read_item`)
    asked = {cls for cls in classes if _kind(cls) == 2 and sent_in_input_form(cls)} if side is None else None
    if asked:  # their items' indexes, told in C (rare: an output-form typed item sent back as input)
        typed = list(compress(range(len(items)), map(asked.__contains__, map(type, items))))
        if resend is None:
            return None
        resend.extend(typed)
    views: list[View] = list(map(_storage, items))
    if plain is not None:  # told by the reader: no view holds unknown fields
        return None if 2 in kinds and _nests_a_call(items, views, classes, False) else views
    merged = False  # whether some view holds unknown fields
    extras = list(map(_extras, items))  # each model's own extras: one more object reached per item
    if any(extras):
        merged = True
        for i, extra in enumerate(extras):
            if extra:
                views[i] = _with_extras(items[i])
    return None if 2 in kinds and _nests_a_call(items, views, classes, merged) else views


def _nests_a_call(items: list[Any], views: list[View], classes: set[type] | frozenset[type], merged: bool) -> bool:
    """Whether a namespaced item holds a call in its content (`read_item` then reports it, as for its JSON).
    None can when no namespaced class declares `content` and no view holds unknown fields (`merged`);
    else only the namespaced items' views are looked at, and only those whose `content` is a list one by
    one: the rest is told in C (`compress`, `map`)."""
    namespaced = {cls for cls in classes if _kind(cls) == 2}
    if not merged and not any("content" in getattr(cls, "__pydantic_fields__", ("content",)) for cls in namespaced):
        return False  # a view is the model's storage: it holds the declared fields only
    chosen = list(compress(views, map(namespaced.__contains__, map(type, items))))
    if not any(issubclass(t, list) for t in set(map(type, map(_CONTENT, chosen)))):
        return False  # no namespaced item has a list as its content: no part to be a call
    return any(nested_call(view) is not None for view in chosen)


#: A view's `content` (None when absent), asked in C.
_CONTENT = methodcaller("get", "content")


def view_of(item: Any) -> View:
    """The view of one item: a parsed model, or raw JSON that did not parse (a JSON object without a
    `type` but with a `role` is read as a `message`); NO_VIEW for anything else."""
    if _kind(type(item)):
        return _with_extras(item) if item.__pydantic_extra__ else item.__dict__
    if not isinstance(item, Mapping):
        return NO_VIEW
    if item.get("type") is None and "role" in item:
        return {**item, "type": "message"}
    return item
