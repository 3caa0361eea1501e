"""What the rules read of one item: its `View` (type, id, call_id, status, name, arguments), taken from
the parsed model's own storage or, when the item did not parse, from its raw JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from pydantic.experimental.missing_sentinel import MISSING

from replayable._base import NamespacedBase, WireModel, has_unchecked, is_unchecked, read_field
from replayable._generated.open_responses.function_call import FunctionCall
from replayable._generated.open_responses.function_call_output import FunctionCallOutput
from replayable.items import Side

__all__ = ["NO_VIEW", "OUTPUT_CALLS", "View", "field_of", "model_views", "view_of"]


class View(NamedTuple):
    """What the cross-item rules read of one item, from its model or, if it did not parse, its raw JSON."""

    type: Any
    id: Any
    call_id: Any
    status: Any
    name: Any
    arguments: Any
    namespaced: bool
    src: Any = None  # the model or JSON object, for the fields only some families read


_new_view = tuple.__new__  # `_new_view(View, (...))` skips NamedTuple's Python-level __new__ (hot path)
NO_VIEW = View(None, None, None, None, None, None, False)

#: The output-form call classes: sent back as they are, so the input rules hold for them too.
OUTPUT_CALLS = (FunctionCall, FunctionCallOutput)

#: Per class: 0 not one of our models, 1 a model, 2 a namespaced model, 3 an output-form call
#: (`FunctionCall`, `FunctionCallOutput`). `isinstance` on pydantic models goes through `ABCMeta`; the
#: rules ask it of every item, so the answer is kept per class.
_KINDS: dict[type, int] = {}


def _kind(cls: type) -> int:
    kind = _KINDS.get(cls)
    if kind is None:
        kind = (
            3
            if issubclass(cls, OUTPUT_CALLS)
            else 2
            if issubclass(cls, NamespacedBase)
            else 1
            if issubclass(cls, WireModel)
            else 0
        )
        if len(_KINDS) < 4096:  # classes made on the fly never grow it without bound
            _KINDS[cls] = kind
    return kind


def _model_view(item: Any, namespaced: bool) -> View:
    """The view of a parsed model: read from the model's own storage (MISSING means absent)."""
    get = item.__dict__.get
    t, i, c, s, n, a = get("type"), get("id"), get("call_id"), get("status"), get("name"), get("arguments")
    extra = item.__pydantic_extra__
    if extra:  # a field the model does not declare may still have been read as an unknown key
        xget = extra.get
        i = xget("id") if i is None else i
        c = xget("call_id") if c is None else c
        s = xget("status") if s is None else s
        n = xget("name") if n is None else n
        a = xget("arguments") if a is None else a
    return _new_view(
        View,
        (
            t,
            None if i is MISSING else i,
            None if c is MISSING else c,
            None if s is MISSING else s,
            None if n is MISSING else n,
            None if a is MISSING else a,
            namespaced,
            item,
        ),
    )


def model_views(items: list[Any], side: Side | None, resend: list[int] | None = None) -> list[View] | None:
    """The views of a list of parsed models, or None when one item is not a model. An output-form call
    with `side=None` is sent back as it is, so its input form must be checked too: its index is added to
    `resend` when a list is given (the caller checks them, `rules.reading.recheck_sent_as_is`), else the
    answer is None (every item is then read by `read_item`)."""
    if has_unchecked() and any(map(is_unchecked, items)):
        return None  # a model that skipped validation is read again from its JSON (`read_item`)
    views: list[View] = []
    append = views.append
    for i, item in enumerate(items):
        kind = _kind(type(item))
        if kind == 0:
            return None
        if kind == 3 and side is None:
            if resend is None:
                return None
            resend.append(i)
        append(_model_view(item, kind == 2))
    return views


def view_of(item: Any) -> View:
    """The view of one item: a parsed model, or raw JSON that did not parse."""
    kind = _kind(type(item))
    if kind:
        return _model_view(item, kind == 2)
    t = read_field(item, "type")
    if t is None and isinstance(item, Mapping) and "role" in item:
        t = "message"
    return View(
        type=t,
        id=read_field(item, "id"),
        call_id=read_field(item, "call_id"),
        status=read_field(item, "status"),
        name=read_field(item, "name"),
        arguments=read_field(item, "arguments"),
        namespaced=isinstance(t, str) and ":" in t,
        src=item,
    )


def field_of(v: View, name: str) -> Any:
    """Field `name` of the viewed item (the view's own slot for `call_id` and `id`)."""
    if name == "call_id":
        return v.call_id
    if name == "id":
        return v.id
    return read_field(v.src, name)
