"""The base classes under every generated model.

`WireModel` is the one base of all generated models: unknown keys are kept (`extra="allow"`), models
are frozen, values are validated strictly (no `"1"` -> `1`, no `"yes"` -> `True`) and serialized by
alias. `NamespacedBase` sits under the two extension shapes, `NamespacedItem` and `NamespacedPart`:
their `type` must be `slug:name` (Open Responses, "Extending items"), and in OpenAI mode
(validation context `{"provider": "openai"}`) an un-prefixed type that is not part of the spec is read
as `openai:<type>` and written back exactly as it came.
"""

from __future__ import annotations

import ast
import contextvars
import inspect
import json
import re
import sys
import typing
import weakref
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
    model_validator,
)
from pydantic.experimental.missing_sentinel import MISSING
from pydantic_core import PydanticCustomError, PydanticUndefined

from ._model_slots import (
    FIELDS_SET_SLOT,
    OWN_SETS,
    TOLD_BY_VALUES,
    constructed_fields_set,
    derives_fields_set,
    fields_set_of,
    get_fields_set,
    holds_own_set,
    put_fields_set,
    tells_by_values,
)
from ._validation import ModelError, clean_errors, model_defined

__all__ = [
    "KEYWORD_HOOKS",
    "read_field",
    "NAMESPACED_TYPE",
    "SPEC_ITEM_TYPES",
    "SPEC_PART_TYPES",
    "NamespacedBase",
    "NamespacedItemBase",
    "NamespacedPartBase",
    "NamespacedToolBase",
    "SPEC_TOOL_TYPES",
    "WireModel",
    "checked_provider",
    "any_unchecked",
    "is_unchecked",
]


def checked_provider(provider: Any) -> Literal["openai"] | None:
    """`provider` itself when it names a reading the library has (None, Open Responses, or `"openai"`,
    OpenAI's native types and shorthand messages: `replayable.items.Provider`); else `ValueError`.
    The one check of a `provider=` argument, at every entry point that takes one."""
    if provider is None or provider == "openai":
        return provider  # type: ignore[no-any-return]
    raise ValueError(f"provider must be None or 'openai', got {provider!r}")


#: A `slug:name` extension type: a slug, a colon, then a name (Open Responses, "Extending items").
NAMESPACED_TYPE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*:[A-Za-z0-9][A-Za-z0-9._:/-]*$")
_NATIVE_TYPE = re.compile(r"^[a-z][a-z0-9_.]*$")

#: Item types defined by the Open Responses spec (2026-04-24); they never fall back to a namespaced item.
SPEC_ITEM_TYPES = frozenset(
    {"message", "function_call", "function_call_output", "reasoning", "compaction", "item_reference"}
)
#: Content-part and annotation types defined by the spec.
SPEC_PART_TYPES = frozenset(
    {
        "input_text",
        "output_text",
        "text",
        "summary_text",
        "reasoning_text",
        "refusal",
        "input_image",
        "input_file",
        "input_video",
        "url_citation",
    }
)
#: Tool and tool_choice types defined by the spec (`function`, `allowed_tools`) and the `tool_choice` strings.
SPEC_TOOL_TYPES = frozenset({"function", "allowed_tools"})
#: Fields whose single literal value is filled in when a model is built with keyword arguments.
_TAG_FIELDS = ("type", "role", "object")


# Attribute docstrings (the string after each field) are the fields' descriptions. pydantic's own
# `use_attribute_docstrings` finds each class's source through the call stack and tokenizes it, which
# was about a quarter of `import replayable`; here each module's source is parsed once, on the first
# model it defines, and the descriptions are set before any deferred schema is built.
_MODULE_DOCS: dict[str, dict[str, dict[str, str]]] = {}


def _class_docs(body: list[ast.stmt]) -> dict[str, str]:
    """`{field: docstring}` of one class body: a string expression right after an annotated name."""
    docs: dict[str, str] = {}
    for prev, node in zip(body, body[1:], strict=False):
        if (
            isinstance(prev, ast.AnnAssign)
            and isinstance(prev.target, ast.Name)
            and isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            docs[prev.target.id] = inspect.cleandoc(node.value.value)
    return docs


def _attribute_docs(cls: type[Any]) -> dict[str, str]:
    """The attribute docstrings of a model class defined at the top level of a module with a source
    file (every generated model); `{}` when there is no source to read."""
    module = sys.modules.get(cls.__module__)
    path = getattr(module, "__file__", None)
    if not isinstance(path, str) or not path.endswith(".py"):
        return {}
    table = _MODULE_DOCS.get(path)
    if table is None:
        try:
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
        except (OSError, SyntaxError, ValueError):
            tree = ast.Module(body=[], type_ignores=[])
        table = _MODULE_DOCS[path] = {
            node.name: _class_docs(node.body) for node in tree.body if isinstance(node, ast.ClassDef)
        }
    return table.get(cls.__qualname__, {})


#: Model class -> a function that rewrites the keyword arguments of its constructor before validation
#: (`replayable.request` registers one for `CreateResponseBody`: output items in `input` are written in
#: their input form). Parsing never runs them.
KEYWORD_HOOKS: dict[type[BaseModel], Callable[[dict[str, Any]], dict[str, Any]]] = {}


class WireModel(BaseModel):
    """Base of every generated model: strict, frozen, keeps unknown keys, dumps by alias."""

    model_config = ConfigDict(
        extra="allow",
        frozen=True,
        strict=True,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        defer_build=True,
    )

    #: (field, value) of the tag fields (`type`, `role`, `object`) that are one literal: filled in when a
    #: model is built by keyword, required when one is parsed.
    _wire_tags: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: Where the class tells its fields set by its values (`derives_fields_set`): its required fields, always
    #: set in a validated model, and its optional ones, set where their value is not `MISSING`.
    _told_fields: ClassVar[tuple[frozenset[str], tuple[str, ...]]] = (frozenset(), ())

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        # The generator gives a literal tag its value as default (`type: Literal["function_call"] =
        # "function_call"`, from the schema's `default`) so that type checkers let code build a model
        # without it. Parsing must still require the tag, as the schema does: the default is taken off
        # the field here (before the deferred schema is built) and filled in by `__init__` instead.
        super().__pydantic_init_subclass__(**kwargs)
        model_defined()
        fields = cls.__pydantic_fields__
        own = cls.__dict__.get("__annotations__", ())  # a class declaring no field (the bases here): no source read
        docs = _attribute_docs(cls) if any(name in fields for name in own) else {}
        for name, field in fields.items():
            if field.description is None and name in docs:
                field.description = docs[name]
        tags = dict(cls._wire_tags)
        for name in _TAG_FIELDS:
            info = cls.__pydantic_fields__.get(name)
            if info is None or not isinstance(info.default, str):
                continue
            tags[name] = info.default
            if typing.get_origin(info.annotation) is Literal:  # exactly one literal: required on the wire
                info.default = PydanticUndefined
        cls._wire_tags = tuple(tags.items())
        # the fields set: told by the values where every field is required or MISSING by default, else pydantic's
        # own slot (a subclass with other defaults takes the slot back)
        told = derives_fields_set(cls)
        cls.__pydantic_fields_set__ = TOLD_BY_VALUES if told else FIELDS_SET_SLOT  # type: ignore[assignment]
        if told:
            required = {name for name, field in fields.items() if field.default is PydanticUndefined}
            cls._told_fields = (frozenset(required), tuple(name for name in fields if name not in required))

    def __init__(self, /, **data: Any) -> None:
        # Built by keyword (`FunctionCallOutputParam(call_id=..., output=...)`): the tags count as given,
        # so that a dump with `exclude_unset=True` always writes them. Parsing never runs this.
        for name, value in self._wire_tags:
            data.setdefault(name, value)
        if KEYWORD_HOOKS:
            for cls in type(self).__mro__:
                hook = KEYWORD_HOOKS.get(cls)
                if hook is not None:
                    data = hook(data)
                    break
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise ModelError.build(clean_errors(exc, data), f"invalid {type(self).__name__}") from None
        if _UNCHECKED and any(map(_holds_unchecked, data.values())):
            _UNCHECKED[id(self)] = self  # built around a model that skipped validation: not checked either

    # Not a custom __init__ for pydantic-core: validation builds instances directly, as for BaseModel (and
    # as pydantic's own RootModel does), so parsing neither calls this nor loses its validation context.
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

    @classmethod
    def model_validate(
        cls,
        obj: Any,
        *,
        strict: bool | None = None,
        extra: Literal["allow", "ignore", "forbid"] | None = None,
        from_attributes: bool | None = None,
        context: Any | None = None,
        by_alias: bool | None = None,
        by_name: bool | None = None,
    ) -> Self:
        """pydantic's `model_validate`; values that do not validate raise `replayable.ModelError` (an
        `ItemError` and a pydantic `ValidationError`) whose paths and messages are the library's."""
        try:
            return super().model_validate(
                obj,
                strict=strict,
                extra=extra,
                from_attributes=from_attributes,
                context=context,
                by_alias=by_alias,
                by_name=by_name,
            )
        except ModelError:
            raise
        except ValidationError as exc:
            raise ModelError.build(clean_errors(exc, obj), f"invalid {cls.__name__}") from None

    @classmethod
    def model_validate_json(
        cls,
        json_data: str | bytes | bytearray,
        *,
        strict: bool | None = None,
        extra: Literal["allow", "ignore", "forbid"] | None = None,
        context: Any | None = None,
        by_alias: bool | None = None,
        by_name: bool | None = None,
    ) -> Self:
        """pydantic's `model_validate_json`; values that do not validate raise `replayable.ModelError`
        (see `model_validate`)."""
        try:
            return super().model_validate_json(
                json_data, strict=strict, extra=extra, context=context, by_alias=by_alias, by_name=by_name
            )
        except ModelError:
            raise
        except ValidationError as exc:
            try:
                raw = json.loads(json_data)
            except (ValueError, TypeError, RecursionError):
                raw = None
            raise ModelError.build(clean_errors(exc, raw), f"invalid {cls.__name__}") from None

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """pydantic's `model_copy`. A copy with `update` skips validation, so it is marked unchecked
        (`is_unchecked`): the library reads it again from its JSON before trusting it."""
        copied = super().model_copy(update=update, deep=deep)
        if update or is_unchecked(self):
            _UNCHECKED[id(copied)] = copied
        return copied

    def copy(
        self,
        *,
        include: Any = None,
        exclude: Any = None,
        update: dict[str, Any] | None = None,
        deep: bool = False,
    ) -> Self:
        """pydantic's deprecated `copy` (use `model_copy`). A copy that leaves fields out (`include`,
        `exclude`) or changes them (`update`) skips validation, so it is marked unchecked (`is_unchecked`); its
        fields set is the one pydantic gives it (the source's, with `update`'s keys, less `exclude`'s)."""
        copied = super().copy(include=include, exclude=exclude, update=update, deep=deep)
        if tells_by_values(type(self)):
            fields = set(self.model_fields_set) | set(update or ())
            put_fields_set(copied, fields - set(exclude or ()))
        if include is not None or exclude is not None or update or is_unchecked(self):
            _UNCHECKED[id(copied)] = copied
        return copied

    @classmethod
    def model_construct(cls, _fields_set: set[str] | None = None, **values: Any) -> Self:  # type: ignore[override]
        """pydantic's `model_construct`: no validation at all, so the model is marked unchecked
        (`is_unchecked`): the library reads it again from its JSON before trusting it."""
        model = super().model_construct(_fields_set, **values)
        if tells_by_values(cls):  # as the caller gave it, or what it passed: a required field may be left out
            put_fields_set(model, constructed_fields_set(model) if _fields_set is None else _fields_set)
        _UNCHECKED[id(model)] = model
        return model

    def __copy__(self) -> Self:
        """`copy.copy`: a copy of a model that skipped validation skipped it too (`is_unchecked`)."""
        copied = super().__copy__()
        _copy_own_fields_set(self, copied)
        if is_unchecked(self):
            _UNCHECKED[id(copied)] = copied
        return copied

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Self:
        """`copy.deepcopy`: as `__copy__`."""
        copied = super().__deepcopy__(memo)
        _copy_own_fields_set(self, copied)
        if is_unchecked(self):
            _UNCHECKED[id(copied)] = copied
        return copied

    def __setstate__(self, state: dict[Any, Any]) -> None:
        """Unpickling sets a model's values without validating them: an unpickled model is unchecked (the
        library reads it again from its JSON before trusting it), whatever the pickled one was."""
        super().__setstate__(state)
        own = state.get("__pydantic_fields_set__")
        if own is not None and tells_by_values(type(self)) and set(own) != fields_set_of(self):
            put_fields_set(self, own)  # the pickled model held a set of its own (its values tell another)
        _UNCHECKED[id(self)] = self


def _copy_own_fields_set(model: Any, copied: Any) -> None:
    """A copy keeps the fields set `model` holds of its own (`put_fields_set`); pydantic's copy of it went
    through the class's setter, which keeps nothing where the values tell the set."""
    if OWN_SETS and holds_own_set(model):
        put_fields_set(copied, get_fields_set(model))


# Models that skipped validation (`model_construct`, `model_copy(update=...)`, or built around one), by
# id; weak, so that marking costs nothing once the model is gone. Empty in the common case, and then
# checking a list of parsed models costs one test.
_UNCHECKED: weakref.WeakValueDictionary[int, WireModel] = weakref.WeakValueDictionary()


def any_unchecked(models: list[Any] | tuple[Any, ...]) -> bool:
    """Whether any of `models` skipped validation (`is_unchecked`). The ids are told against the registry
    in C: a live model that skipped validation elsewhere in the process costs a list of parsed models one
    pass in C, not a Python call per model; only the models whose id is registered are asked."""
    if not _UNCHECKED:
        return False
    registered: dict[int, Any] = _UNCHECKED.data  # type: ignore[attr-defined]  # its id -> weak reference table
    if registered.keys().isdisjoint(map(id, models)):
        return False
    return any(map(is_unchecked, models))


def is_unchecked(model: Any) -> bool:
    """Whether `model` skipped validation (`model_construct`, `model_copy(update=...)`, or a model built
    by keyword around one): its values may break its own field rules, so entry points read it again from
    its plain JSON (dumped without coercion) instead of trusting it. False for anything else."""
    return bool(_UNCHECKED) and _UNCHECKED.get(id(model)) is model


def changed_since_read(body: WireModel) -> bool:
    """Whether a validated body's lists (`input`, `tools`, ...) hold what no reading of ours made: a JSON
    object, an SDK object or a model that skipped validation, put in after it was read (a frozen model's
    lists are still mutable). Every reader of a body model (`parse_request`, `check_transcript`) reads such a
    body again from its JSON rather than trust it as it is. Only the lists' own elements are looked at:
    what a model of ours holds deeper is trusted as validated."""
    for value in body.__dict__.values():
        if isinstance(value, list) and value:
            for kind in set(map(type, value)):  # the classes its elements are of, told in C
                if not issubclass(kind, WireModel) and issubclass(kind, Mapping | BaseModel):
                    return True
            if any_unchecked(value):
                return True
    return False


def _holds_unchecked(value: Any) -> bool:
    if isinstance(value, list | tuple):
        return any_unchecked(value)
    return is_unchecked(value)


#: The typed namespaced model being dumped by its own schema (`NamespacedBase._write_native_types`).
_OWN_DUMP: contextvars.ContextVar[Any] = contextvars.ContextVar("replayable_own_dump", default=None)

_set_slot = object.__setattr__  # pydantic's slots, written past the frozen model's __setattr__


class NamespacedBase(WireModel):
    """An extension shape whose `type` is `slug:name`, kept byte for byte.

    In OpenAI mode an un-prefixed, non-spec `type` (`web_search_call`) is read as `openai:web_search_call`
    and dumped back as `web_search_call`: OpenAI's un-prefixed types are its own namespace. That spelling
    is kept in pydantic's private slot (`{"_wire_type": ...}`) of those models only: no private attribute
    is declared, so parsing sets nothing up per model (the slot stays `None`).
    """

    #: Types defined by the spec at this position: they never become an extension.
    spec_types: ClassVar[frozenset[str]] = frozenset()
    #: Namespaced types with a known payload (`openai:file_citation` -> its model), set by
    #: `replayable._native`: the generic class reads them with that model, never as opaque.
    typed_models: ClassVar[Mapping[str, type[NamespacedBase]]] = {}
    #: In OpenAI mode, why an un-prefixed type is not one of OpenAI's own at this position (a message
    #: naming the closest known types), or None when it is; None (the default) reads every such type as
    #: `openai:<type>`. Set for items by `replayable.items`: an unknown type is never an opaque item.
    native_problem: ClassVar[Callable[[str], str | None] | None] = None
    #: The error type of a `native_problem` (`unknown_item_type`; a tool's is `namespaced_type`, as in strict mode).
    native_problem_type: ClassVar[str] = "unknown_item_type"
    #: A model with a known payload: a subclass of an item or part model whose `type` is pinned to one
    #: literal (`WebSearchCall`, `type: Literal["openai:web_search_call"]`), set when the class is made.
    pinned: ClassVar[bool] = False

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        field = cls.__pydantic_fields__.get("type")
        cls.pinned = (
            field is not None
            and typing.get_origin(field.annotation) is Literal
            and issubclass(cls, NamespacedItemBase | NamespacedPartBase)
        )

    @model_validator(mode="wrap")
    @classmethod
    def _read_native_types(cls, data: Any, handler: Any, info: Any) -> Any:
        wire_type: str | None = None
        typed = cls.typed_models
        if typed and isinstance(data, dict) and isinstance(data.get("type"), str):
            t = data["type"]
            ctx = info.context if info is not None else None
            key = t if ":" in t or not (isinstance(ctx, dict) and ctx.get("provider") == "openai") else "openai:" + t
            model_cls = typed.get(key)
            if model_cls is not None and model_cls is not cls and not issubclass(cls, tuple(typed.values())):
                return model_cls.__pydantic_validator__.validate_python(data, context=ctx)
        if isinstance(data, dict):
            t = data.get("type")
            if not isinstance(t, str):
                raise PydanticCustomError("namespaced_type", "an extension type must be a string of the form slug:name")
            ctx = info.context if info is not None else None
            if ":" not in t:
                if (
                    isinstance(ctx, dict)
                    and ctx.get("provider") == "openai"
                    and t not in cls.spec_types
                    and _NATIVE_TYPE.match(t)
                ):
                    problem = cls.native_problem(t) if cls.native_problem is not None else None
                    if problem is not None:
                        raise PydanticCustomError(cls.native_problem_type, "{msg}", {"msg": problem})
                    wire_type = t
                    data = {**data, "type": f"openai:{t}"}
                else:
                    raise PydanticCustomError(
                        "namespaced_type",
                        "unknown type '{type}': a type outside the spec must be prefixed with its "
                        "provider's slug as slug:name (for example 'acme:{type}')",
                        {"type": t},
                    )
            elif not NAMESPACED_TYPE.match(t):
                raise PydanticCustomError(
                    "namespaced_type",
                    "type '{type}' is not a valid slug:name extension type",
                    {"type": t},
                )
        model = handler(data)
        if wire_type is not None:  # no private attribute declared: no per-model setup for the common case
            _set_slot(model, "__pydantic_private__", {"_wire_type": wire_type})
        return model

    @model_serializer(mode="wrap")
    def _write_native_types(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        out = handler(self)
        if isinstance(out, dict) and self.pinned:
            # A typed subclass (`FileCitation`) held where its generic parent is declared (`NamespacedPart`)
            # is serialized by the parent's schema, which knows none of its fields: dump it by its own.
            # Once, by its own schema: that one leaves out what it leaves out (`MISSING`, `exclude_none`), and
            # asking again would never end.
            fields = type(self).model_fields
            names = self.model_fields_set if info.exclude_unset else fields.keys()
            if _OWN_DUMP.get() is not self and any((fields[n].alias or n) not in out for n in names if n in fields):
                token = _OWN_DUMP.set(self)
                try:
                    return type(self).__pydantic_serializer__.to_python(
                        self,
                        mode=info.mode,
                        by_alias=info.by_alias,
                        exclude_unset=info.exclude_unset,
                        exclude_none=info.exclude_none,
                        exclude_defaults=info.exclude_defaults,
                        round_trip=info.round_trip,
                    )
                finally:
                    _OWN_DUMP.reset(token)
        private = self.__pydantic_private__
        if private is not None and isinstance(out, dict) and "type" in out:
            wire_type = private.get("_wire_type")
            if wire_type is not None:
                out["type"] = wire_type
        return out

    @property
    def slug(self) -> str:
        """The provider slug before the colon (`openai` for `openai:web_search_call`)."""
        t: str = getattr(self, "type")  # noqa: B009 - declared by the generated subclass
        return t.split(":", 1)[0]

    @property
    def wire_type(self) -> str:
        """The `type` exactly as it was read (un-prefixed for OpenAI's native types)."""
        private = self.__pydantic_private__
        wire_type: str | None = private.get("_wire_type") if private is not None else None
        return wire_type if wire_type is not None else getattr(self, "type")  # noqa: B009


class NamespacedItemBase(NamespacedBase):
    """Base of `NamespacedItem`: an item whose type is `slug:name`."""

    spec_types: ClassVar[frozenset[str]] = SPEC_ITEM_TYPES


class NamespacedPartBase(NamespacedBase):
    """Base of `NamespacedPart`: a content part or annotation whose type is `slug:name`."""

    spec_types: ClassVar[frozenset[str]] = SPEC_PART_TYPES


class NamespacedToolBase(NamespacedBase):
    """Base of `NamespacedTool` and `NamespacedToolChoice`: a provider's own tool (`slug:name`; OpenAI's
    un-prefixed `web_search`, `mcp`, ... with provider='openai')."""

    spec_types: ClassVar[frozenset[str]] = SPEC_TOOL_TYPES
    native_problem_type: ClassVar[str] = "namespaced_type"


_ABSENT = object()


def read_field(item: Any, name: str) -> Any:
    """A field of a raw item (a `Mapping`) or a parsed one (`None` when absent or the `MISSING`
    sentinel; unknown fields of our models are read from their extras; other objects by attribute)."""
    if isinstance(item, Mapping):  # raw JSON, or a model's own storage (`replayable._rules.view`)
        value = item.get(name)
        return None if value is MISSING else value
    if isinstance(item, WireModel):
        value = item.__dict__.get(name, _ABSENT)
        if value is _ABSENT:
            value = (item.__pydantic_extra__ or {}).get(name)
        return None if value is MISSING else value
    return getattr(item, name, None)


