"""Items read once: each item validated once, kept with the JSON value it came from.

A check reads an item's JSON object (from the one strict reader) and validates it into a model; the
rules read the model, and what reads JSON (a target's profile, `replayable._profiles`) reads the value
the model came from, never a dump of the model. `Read` is that pair.

`read_batch` validates a batch of JSON values (a JSONL's lines, a list of items) in one call of a list
adapter that keeps, in place of an item that does not parse, its JSON value as it is: each item is
validated once, whether its neighbours parse or not (the rules then read an item that does not parse
alone, for its findings: `replayable._rules.parse.read_item`). Values the rules read before parsing (not
an object, a Chat Completions shape, a call inside a message's content) are never validated here.
"""

from __future__ import annotations

from typing import Annotated, Any, Union

from pydantic import ConfigDict, Field, TypeAdapter

from replayable import items
from replayable._chat_shapes import chat_shape, nested_call
from replayable.items import ITEM_MODELS, SIDE_ITEM_MODELS, InputItem, Provider, Side

__all__ = ["Read", "is_item_model", "read_batch"]


class Read:
    """One item read: `value`, the JSON object it came from (a `dict`), and `model`, the item validated
    from it (None when it does not parse: the rules then read `value` alone for its findings)."""

    __slots__ = ("model", "value")

    def __init__(self, value: Any, model: Any) -> None:
        self.value = value
        self.model = model

    def __repr__(self) -> str:
        return f"Read({self.value!r}, {type(self.model).__name__})"


def is_item_model(value: Any, side: Side | None = None) -> bool:
    """Whether `value` is one of our item models (of `side` when given): only those are trusted as parsed;
    any other model is read from its JSON, as an item would be (and on the side asked)."""
    return isinstance(value, ITEM_MODELS if side is None else SIDE_ITEM_MODELS[side])


#: Per OpenAI mode: a list of input items in which an item that does not parse is kept as its JSON value
#: (`left_to_right`: the item union first, then the value itself), built on first use.
_CONFIG = ConfigDict(defer_build=True, cache_strings="keys")  # as the public adapters (replayable.items)
_LENIENT_LISTS: dict[bool, TypeAdapter[list[Any]]] = {}


def _lenient(openai: bool) -> TypeAdapter[list[Any]]:
    adapter = _LENIENT_LISTS.get(openai)
    if adapter is None:
        union: Any = items.OpenAIInputItem if openai else InputItem  # OpenAI mode's models load with it
        kept = Annotated[Union[union, Any], Field(union_mode="left_to_right")]  # noqa: UP007  Any: the value itself
        adapter = _LENIENT_LISTS[openai] = TypeAdapter(list[kept], config=_CONFIG)
    return adapter


def _read_first(value: Any) -> bool:
    """Whether the rules read `value` before any parsing (not an object, a Chat Completions shape, a
    call nested in a message's content): it is then never validated here."""
    return type(value) is not dict or chat_shape(value) is not None or nested_call(value) is not None


def _alone(validator: Any, value: Any, context: Any) -> Any:
    """`value` validated alone by the lenient list validator: its model, or the value itself when the
    validation raises (the rules then read it alone, for its findings)."""
    try:
        return validator.validate_python([value], context=context)[0]
    except (ValueError, TypeError, RecursionError):
        return value


def read_batch(values: list[Any], provider: Provider) -> list[Any]:
    """The items of `values` (JSON values read by the strict reader), in order, each a `Read`: a JSON
    object with its model (None when it does not parse), each validated once by one call of a list
    adapter (input items, OpenAI's mode with `provider="openai"`); the values the rules read before
    parsing (`_read_first`) with no model. A `Read` is never read again as JSON text."""
    openai = provider == "openai"
    context = {"provider": "openai"} if openai else None
    plain = [n for n, v in enumerate(values) if not _read_first(v)]
    if not plain:  # each a `Read` all the same: a JSON value, never read again as text (a string is a string)
        return [Read(v, None) for v in values]
    batch = values if len(plain) == len(values) else [values[n] for n in plain]
    validator = _lenient(openai).validator
    try:
        models = validator.validate_python(batch, context=context)
    except (ValueError, TypeError, RecursionError):  # raised past the union (a validator's own error): each alone
        models = [_alone(validator, v, context) for v in batch]
    read = [Read(v, None if m is v else m) for v, m in zip(batch, models, strict=True)]
    if len(plain) == len(values):
        return read
    validated = dict(zip(plain, read, strict=True))
    return [validated.get(n) or Read(v, None) for n, v in enumerate(values)]
