"""What our models hold in pydantic's slots, and what they need not (private; `replayable._base` uses it).

- **The fields set, told by the values.** Every field of our models is required or absent by default
  (`MISSING`), so a field is set exactly when its value is not `MISSING`. A class for which that holds
  (`derives_fields_set`) reads `model_fields_set` from its values (`TOLD_BY_VALUES`, installed by
  `WireModel` when the class is made) and keeps none of the sets pydantic-core hands the models it builds:
  728 bytes with five names or more and one more object for the collector per model, dropped at once, in
  C. A model whose set is not what its values say holds one of its own (`put_fields_set`).
- **One shared empty extras.** A parsed model that keeps unknown keys but holds none shares `NO_EXTRAS`
  (`share_empty_extras`) instead of an empty dict of its own.

Both lean on pydantic's internals (its `__pydantic_fields_set__` and `__pydantic_extra__` slots, read by
`model_fields_set`, its dumps, copies and pickling): `tests/models/test_fields_set.py` compares every set
with pydantic's own and fails loudly when pydantic changes.
"""

from __future__ import annotations

import operator
import weakref
from collections import deque
from collections.abc import Callable, Iterable
from itertools import compress, repeat
from operator import eq
from typing import Any

from pydantic import BaseModel
from pydantic.experimental.missing_sentinel import MISSING
from pydantic_core import PydanticUndefined

__all__ = [
    "FIELDS_SET_SLOT",
    "NO_EXTRAS",
    "OWN_SETS",
    "TOLD_BY_VALUES",
    "SharedExtras",
    "ToldFieldsSet",
    "constructed_fields_set",
    "derives_fields_set",
    "fields_set_of",
    "get_extras",
    "get_fields_set",
    "holds_own_set",
    "put_fields_set",
    "share_empty_extras",
    "tells_by_values",
]

# pydantic's slots, read and written through their descriptors (no attribute lookup per model)
FIELDS_SET_SLOT = BaseModel.__dict__["__pydantic_fields_set__"]
get_fields_set = FIELDS_SET_SLOT.__get__
_put_fields_set = FIELDS_SET_SLOT.__set__
get_extras = BaseModel.__dict__["__pydantic_extra__"].__get__  # the one reader of a model's unknown fields


class ToldFieldsSet(set[str]):
    """The fields set a model's values tell (`fields_set_of`), as pydantic's own set behaves: changing it in
    place (`add`, `discard`, `|=`, ...) makes it the model's own set from then on, which its dumps
    (`exclude_unset`), copies and pickles follow, as they follow a changed pydantic set. `copy`, `deepcopy`
    and pickling give a plain `set`."""

    __slots__ = ("_model",)

    _model: Any

    def _kept(name: str) -> Any:  # type: ignore[misc]  # a method that changes the set, then keeps it
        change = getattr(set, name)

        def method(self: ToldFieldsSet, *args: Any) -> Any:
            out = change(self, *args)
            _keep_fields_set(self._model, self)
            return self if name.startswith("__i") else out

        method.__name__ = name
        return method

    add = _kept("add")
    discard = _kept("discard")
    remove = _kept("remove")
    pop = _kept("pop")
    clear = _kept("clear")
    update = _kept("update")
    difference_update = _kept("difference_update")
    intersection_update = _kept("intersection_update")
    symmetric_difference_update = _kept("symmetric_difference_update")
    __ior__ = _kept("__ior__")
    __iand__ = _kept("__iand__")
    __isub__ = _kept("__isub__")
    __ixor__ = _kept("__ixor__")
    del _kept

    def __copy__(self) -> set[str]:
        return set(self)

    def __deepcopy__(self, memo: Any) -> set[str]:
        return set(self)

    def __reduce__(self) -> Any:
        return (set, (list(self),))

    def __repr__(self) -> str:
        return set.__repr__(set(self))


def fields_set_of(model: Any) -> set[str]:
    """`model_fields_set` of a model whose class tells it by its values (`derives_fields_set`): its required
    fields (a validated model holds them all), the optional ones whose value is not `MISSING` (a field
    holding `MISSING` is not set, whatever built it), and the unknown fields it keeps: a new
    `ToldFieldsSet` at each read. A set the model holds of its own (a shorthand message read without its
    `type`, `model_construct`, a set changed in place, copies and unpickled models of those:
    `put_fields_set`) is returned as it is."""
    if OWN_SETS and holds_own_set(model):
        return get_fields_set(model)  # type: ignore[no-any-return]
    required, optional = model._told_fields
    fields = ToldFieldsSet(required)
    fields._model = model
    if optional:
        storage = model.__dict__
        set.update(fields, (name for name in optional if storage.get(name, MISSING) is not MISSING))
    extras = get_extras(model)
    if extras:
        set.update(fields, extras)
    return fields


def constructed_fields_set(model: Any) -> set[str]:
    """The fields set pydantic's `model_construct` gives when not told one: the declared fields passed (a
    required one may be left out), not the unknown keys it keeps."""
    return {name for name, value in model.__dict__.items() if value is not MISSING}


def put_fields_set(model: Any, fields: Iterable[str]) -> None:
    """Give `model` a fields set of its own (a new `set`): what `model_fields_set` returns from then on,
    whatever its values tell. For the few models whose set is not what their values say."""
    _keep_fields_set(model, set(fields))


def _keep_fields_set(model: Any, fields: set[str]) -> None:
    _put_fields_set(model, fields)
    if tells_by_values(type(model)) and not holds_own_set(model):
        key = id(model)
        OWN_SETS[key] = weakref.ref(model, lambda _, key=key: OWN_SETS.pop(key, None))  # type: ignore[misc]


def holds_own_set(model: Any) -> bool:
    ref = OWN_SETS.get(id(model))
    return ref is not None and ref() is model


def tells_by_values(cls: type) -> bool:
    """Whether `cls` tells its models' fields sets by their values (`derives_fields_set` said so when the
    class was made)."""
    return vars(cls).get("__pydantic_fields_set__") is TOLD_BY_VALUES


# Models of such classes that hold a set of their own: id -> a weak reference that forgets the entry when
# the model goes. A plain dict, empty in the common case: telling a set then costs one test in C (no
# exception raised for the empty slot, no Python `__len__`: either would double the cost of a read).
OWN_SETS: dict[int, weakref.ref[Any]] = {}


#: The `__pydantic_fields_set__` of a class whose every field is required or defaults to `MISSING`
#: (`derives_fields_set`): read, `fields_set_of`; written, nothing. pydantic-core hands each model it
#: builds a new set (728 bytes with five names or more, one more object for the collector); `operator.is_`
#: takes the two arguments a property's setter gets and does nothing with them, in C, so that set is
#: dropped at once. Code that means a set to stay puts it in the slot itself (`put_fields_set`).
_DROP: Callable[[Any, Any], None] = operator.is_  # type: ignore[assignment]  # its result is never read
TOLD_BY_VALUES = property(fields_set_of, _DROP, doc="The fields set, told by the model's values.")


def derives_fields_set(cls: type[BaseModel]) -> bool:
    """Whether `cls` tells its fields set by its values: every field of it is required or defaults to
    `MISSING`, so a field is set exactly when its value is not `MISSING` (the spec's optional fields are
    absent, never a default: `schemas/README.md`). The few classes with other defaults keep pydantic's own
    per-model set: `ItemReferenceParam` (`type` may be absent and defaults to `item_reference`), and OpenAI
    mode's `Response` and its settings, which fill in OpenAI's `null`s."""
    return all(
        field.default_factory is None and (field.default is PydanticUndefined or field.default is MISSING)
        for field in cls.__pydantic_fields__.values()
    )


def _refuse(self: Any, *args: Any, **kwargs: Any) -> Any:
    raise TypeError("the empty extras of a parsed item are shared by items and read-only; copy them to change them")


class SharedExtras(dict[str, Any]):
    """The one empty `__pydantic_extra__` (`model_extra`) of every parsed model that holds no unknown field
    (`share_empty_extras`): pydantic gives each model of a class that keeps unknown keys its own empty dict,
    one more object per model for the collector to count and 64 bytes to hold. Read-only (every in-place
    change raises `TypeError`; our models are frozen, so pydantic never changes it); `copy`, `deepcopy` and
    pickling give a plain empty `dict`, which is what pydantic's `model_copy(update=...)` then fills."""

    __slots__ = ()

    __setitem__ = __delitem__ = setdefault = pop = popitem = clear = update = __ior__ = _refuse

    def __copy__(self) -> dict[str, Any]:
        return {}

    def __deepcopy__(self, memo: Any) -> dict[str, Any]:
        return {}

    def __reduce__(self) -> Any:
        return (dict, ())


#: The shared empty extras (`SharedExtras`).
NO_EXTRAS = SharedExtras()
_EMPTY: dict[str, Any] = {}
_put_extras = BaseModel.__dict__["__pydantic_extra__"].__set__


def share_empty_extras(models: list[Any]) -> None:
    """Give each model just validated (ours, frozen) that keeps unknown keys but holds none the one shared
    empty extras (`NO_EXTRAS`) in place of pydantic's own empty dict, in C (`map`): with the collector on,
    20k items parse in about 0.75 of the time (fewer objects for it to count), and the rules reach one
    object instead of one per item when they ask which items hold unknown fields. A class that refuses
    unknown keys keeps its `None`. The values, dumps and verdicts of the models are unchanged."""
    deque(map(_put_extras, compress(models, map(eq, map(get_extras, models), repeat(_EMPTY))), repeat(NO_EXTRAS)), 0)
