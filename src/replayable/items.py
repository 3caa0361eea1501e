"""Open Responses items: the input and output unions, parsing with precise errors, and exact dumping.

The unions follow the spec's `ItemParam` (input) and `ItemField` (output) unions, tagged on `type`
(input messages further on `role`), with one addition the spec's extension rules call for: an item
whose `type` is `slug:name` is kept as a `NamespacedItem`. Any other unknown `type` is an error that
names the type and the prefix rule; a known `type` always validates strictly against its own model.

Entry points: `parse_item`, `parse_items`, `dump_item`, `dump_items`, and the module-level adapters
(`input_item_adapter`, `output_items_adapter`, ...). Spec: Open Responses 2026-04-24, "Items", "Extending items".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, get_args, overload

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic_core import PydanticCustomError

from ._base import NAMESPACED_TYPE, SPEC_ITEM_TYPES, WireModel, checked_provider, is_unchecked, share_fields_sets
from ._generated.open_responses.assistant_message_param import AssistantMessageParam
from ._generated.open_responses.compaction import Compaction
from ._generated.open_responses.compaction_param import CompactionParam
from ._generated.open_responses.developer_message_param import DeveloperMessageParam
from ._generated.open_responses.function_call import FunctionCall
from ._generated.open_responses.function_call_output import FunctionCallOutput
from ._generated.open_responses.function_call_output_param import FunctionCallOutputParam
from ._generated.open_responses.function_call_param import FunctionCallParam
from ._generated.open_responses.item_reference_param import ItemReferenceParam
from ._generated.open_responses.message import Message
from ._generated.open_responses.namespaced_item import NamespacedItem
from ._generated.open_responses.namespaced_part import NamespacedPart
from ._generated.open_responses.reasoning import Reasoning
from ._generated.open_responses.reasoning_param import ReasoningParam
from ._generated.open_responses.system_message_param import SystemMessageParam
from ._generated.open_responses.user_message_param import UserMessageParam
from ._item_members import SpecMembers
from ._json import (
    MAX_ITEM_DEPTH,
    ContainerBudget,
    JSONError,
    check_value,
    iter_jsonl,
    json_problem,
    loads,
    loads_lines,
    text_over_budget,
    to_plain,
)
from ._json import is_openai_model as is_openai_model  # re-exported: stream and interop read it here
from ._native import ANNOTATION_TYPES, INPUT_TYPES, OUTPUT_TYPES, TOOL_TYPES, closest_item_types, is_openai_item_type
from ._openai_forms import (
    OpenAIAssistantMessageParam,
    OpenAICompaction,
    OpenAIFunctionCallOutput,
    OpenAIFunctionCallOutputParam,
    OpenAIMessage,
    OpenAIReasoning,
    OpenAIReasoningParam,
    OpenAIUserMessageParam,
)
from ._validation import ItemError, clean_errors
from .errors import OPTIONS, Said, said

_OPENAI = OPTIONS["provider"]  # the reading a message may name: provider='openai' (--provider openai)

if TYPE_CHECKING:  # dump_items' JSON objects, typed as the openai SDK's input items (never imported at run time)
    from openai.types.responses import ResponseInputItemParam as InputItemParam

__all__ = [
    "AssistantMessageParam",
    "Compaction",
    "CompactionParam",
    "DeveloperMessageParam",
    "FunctionCall",
    "FunctionCallOutput",
    "FunctionCallOutputParam",
    "FunctionCallParam",
    "InputItem",
    "InputMessage",
    "Item",
    "ItemError",
    "MAX_ITEM_DEPTH",
    "ItemReferenceParam",
    "Message",
    "NamespacedItem",
    "NamespacedPart",
    "OutputItem",
    "Provider",
    "Reasoning",
    "ReasoningParam",
    "Side",
    "SystemMessageParam",
    "UserMessageParam",
    "dump_item",
    "dump_items",
    "input_item_adapter",
    "input_items_adapter",
    "iter_items",
    "output_item_adapter",
    "output_items_adapter",
    "parse_item",
    "parse_items",
]

Side: TypeAlias = Literal["input", "output"]
Provider: TypeAlias = Literal["openai"] | None

InputMessage: TypeAlias = Annotated[
    UserMessageParam | SystemMessageParam | DeveloperMessageParam | AssistantMessageParam,
    Field(discriminator="role"),
]
"""An input message, told apart by `role` (spec `ItemParam`: the four `*MessageItemParam` schemas)."""

_KnownInputItem: TypeAlias = Annotated[
    InputMessage | FunctionCallParam | FunctionCallOutputParam | ReasoningParam | CompactionParam,
    Field(discriminator="type"),
]
_KnownOutputItem: TypeAlias = Annotated[
    Message | FunctionCall | FunctionCallOutput | Reasoning | Compaction,
    Field(discriminator="type"),
]


def _typed_router(table: Mapping[str, type[NamespacedItem]]) -> Any:
    """A wrap validator for the namespaced branch: a namespaced type with a known payload (`openai:mcp_call`,
    or `mcp_call` in OpenAI mode) is read by its own model, so a malformed one is an error naming its
    fields, never an opaque `NamespacedItem`. Only reached once the spec's tagged union has refused the
    item, so it costs nothing on spec items."""

    def route(value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo) -> Any:
        if type(value) is dict:
            t = value.get("type")
            if type(t) is str:
                ctx = info.context
                if ":" in t:
                    model = table.get(t)
                elif isinstance(ctx, dict) and ctx.get("provider") == "openai":
                    model = table.get("openai:" + t)
                    if model is None and t not in SPEC_ITEM_TYPES and not is_openai_item_type(t):
                        raise PydanticCustomError("unknown_item_type", "{msg}", {"msg": _unknown_type(t, "openai")})
                else:
                    model = None
                if model is not None:
                    return model.__pydantic_validator__.validate_python(value, context=ctx)
        return handler(value)

    return route


_InputNamespaced: TypeAlias = Annotated[NamespacedItem, WrapValidator(_typed_router(INPUT_TYPES))]
_OutputNamespaced: TypeAlias = Annotated[NamespacedItem, WrapValidator(_typed_router(OUTPUT_TYPES))]

InputItem: TypeAlias = Annotated[
    _KnownInputItem | ItemReferenceParam | _InputNamespaced,
    Field(union_mode="left_to_right"),
]
"""An item sent as input: a spec item (tagged on `type`), an `item_reference` (whose `type` may be
absent), or a `slug:name` `NamespacedItem`. Spec: `ItemParam`."""

OutputItem: TypeAlias = Annotated[
    _KnownOutputItem | _OutputNamespaced,
    Field(union_mode="left_to_right"),
]
"""An item in a response's `output`: a spec item (tagged on `type`) or a `slug:name` `NamespacedItem`.
Spec: `ItemField`."""

Item: TypeAlias = (
    Message
    | UserMessageParam
    | SystemMessageParam
    | DeveloperMessageParam
    | AssistantMessageParam
    | FunctionCall
    | FunctionCallParam
    | FunctionCallOutput
    | FunctionCallOutputParam
    | Reasoning
    | ReasoningParam
    | Compaction
    | CompactionParam
    | ItemReferenceParam
    | NamespacedItem
)
"""Any parsed item, input or output form."""

# Built on first use (defer_build), so that importing replayable stays fast. Only keys are cached
# while reading JSON: values (ids, call_ids, text) are mostly unique, and looking each one up in the
# string cache made parsing about 20% slower (benchmarks/README.md).
_DEFER = ConfigDict(defer_build=True, cache_strings="keys")
input_item_adapter: TypeAdapter[InputItem] = TypeAdapter(InputItem, config=_DEFER)
input_items_adapter: TypeAdapter[list[InputItem]] = TypeAdapter(list[InputItem], config=_DEFER)
output_item_adapter: TypeAdapter[OutputItem] = TypeAdapter(OutputItem, config=_DEFER)
output_items_adapter: TypeAdapter[list[OutputItem]] = TypeAdapter(list[OutputItem], config=_DEFER)


def _read_shorthand(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """OpenAI mode: `{"role": ..., "content": ...}` without `type` is a message, dumped back without it."""
    if isinstance(value, dict) and "type" not in value and "role" in value:
        model = handler({**value, "type": "message"})
        model.__pydantic_fields_set__.discard("type")
        return model
    return handler(value)


# OpenAI mode reads the spec items with the `null`s OpenAI sends (replayable._openai_forms).
_OpenAIKnownInputItem: TypeAlias = Annotated[
    Annotated[
        OpenAIUserMessageParam | SystemMessageParam | DeveloperMessageParam | OpenAIAssistantMessageParam,
        Field(discriminator="role"),
    ]
    | FunctionCallParam
    | OpenAIFunctionCallOutputParam
    | OpenAIReasoningParam
    | CompactionParam,
    Field(discriminator="type"),
]
_OpenAIKnownOutputItem: TypeAlias = Annotated[
    OpenAIMessage | FunctionCall | OpenAIFunctionCallOutput | OpenAIReasoning | OpenAICompaction,
    Field(discriminator="type"),
]
OpenAIInputItem: TypeAlias = Annotated[
    Annotated[_OpenAIKnownInputItem | ItemReferenceParam | _InputNamespaced, Field(union_mode="left_to_right")],
    WrapValidator(_read_shorthand),
]
"""An input item in OpenAI mode: `InputItem`, plus the `{role, content}` shorthand and OpenAI's nulls."""
OpenAIOutputItem: TypeAlias = Annotated[
    Annotated[_OpenAIKnownOutputItem | _OutputNamespaced, Field(union_mode="left_to_right")],
    WrapValidator(_read_shorthand),
]
"""An output item in OpenAI mode: `OutputItem`, with the `null`s OpenAI sends (`replayable._openai_forms`)."""
ITEM_ADAPTERS: dict[tuple[str, bool], tuple[TypeAdapter[Any], TypeAdapter[Any]]] = {
    ("input", False): (input_item_adapter, input_items_adapter),
    ("output", False): (output_item_adapter, output_items_adapter),
    ("input", True): (TypeAdapter(OpenAIInputItem, config=_DEFER), TypeAdapter(list[OpenAIInputItem], config=_DEFER)),
    ("output", True): (
        TypeAdapter(OpenAIOutputItem, config=_DEFER),
        TypeAdapter(list[OpenAIOutputItem], config=_DEFER),
    ),
}
"""The item adapters by (side, OpenAI mode): (one item, a list of items)."""
OPENAI_CONTEXT = {"provider": "openai"}
"""The validation context of OpenAI mode (`provider="openai"`), read by the models' validators."""


SPEC_MEMBERS = SpecMembers({"input": _KnownInputItem, "output": _KnownOutputItem})
"""Start-up: a spec item validated by its own model until its side's union is built (replayable._item_members)."""


def _unknown_type(t: str, provider: Provider) -> str:
    """The message for an un-prefixed type that is no known item type, naming the closest known ones."""
    close = closest_item_types(t, provider)
    hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
    where = "neither a spec nor an OpenAI item type" if provider == "openai" else "not a spec item type"
    return (
        f"unknown item type '{t}'{hint}: it is {where}, and a type outside the spec must be prefixed "
        f"with its provider's slug as slug:name (for example 'acme:{t or 'name'}'); spec types are "
        + ", ".join(sorted(SPEC_ITEM_TYPES))
    )


def _openai_type_problem(t: str) -> str | None:
    return None if t in SPEC_ITEM_TYPES or is_openai_item_type(t) else _unknown_type(t, "openai")


NamespacedItem.native_problem = staticmethod(_openai_type_problem)


def reference_id_problems(item: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """The problems of an input item without `type` (or with `type: null`) whose only keys are `id` and
    `type`, which makes it an `item_reference`: a missing `id` (rule `missing`) or a non-string one
    (`string_type`), each at `("id",)`, not a missing `type`; `[]` for a good reference. None for any
    other item (it is not a reference, and a missing type is its problem). Spec: `ItemReferenceParam`."""
    if not isinstance(item, Mapping) or item.get("type") is not None or not set(item) <= {"id", "type"}:
        return None
    if "id" not in item:
        msg = (
            "missing 'id': an item without 'type' (or with type null) is an item_reference, which needs the "
            "referenced item's 'id'; every other item needs a 'type'"
        )
        return [{"loc": ("id",), "type": "missing", "msg": msg}]
    ref_id = item["id"]
    if not isinstance(ref_id, str):
        got = type(ref_id).__name__ if ref_id is not None else "null"
        return [{"loc": ("id",), "type": "string_type", "msg": f"an item_reference's 'id' must be a string, got {got}"}]
    return []


def _precheck(data: Any, side: Side, provider: Provider) -> list[dict[str, Any]]:
    """Errors that are clearer said before validation: not an object, missing or non-string type."""
    if not isinstance(data, Mapping):
        got = type(data).__name__ if data is not None else "null"
        return [{"loc": (), "type": "item_type", "msg": f"an item must be a JSON object, got {got}"}]
    if "type" not in data or data.get("type") is None:
        reference = reference_id_problems(data) if side == "input" else None
        if reference is not None:  # an item_reference: its `id` is what it needs
            return reference
        if provider == "openai" and "role" in data and "type" not in data:
            return []  # OpenAI's shorthand message
        return [
            {
                "loc": ("type",),
                "type": "missing_type",
                "msg": "missing 'type': every item needs a type; an item without one is an item_reference "
                "only when its only key is 'id' (input side)"
                + ("" if provider == "openai" else Said(", and a {role, content} shorthand message needs ", _OPENAI)),
            }
        ]
    t = data["type"]
    if not isinstance(t, str):
        return [
            {"loc": ("type",), "type": "type_not_string", "msg": f"'type' must be a string, got {type(t).__name__}"}
        ]
    if t == "" or (":" not in t and t not in SPEC_ITEM_TYPES and (provider != "openai" or not is_openai_item_type(t))):
        hint = openai_type_hint(t) if provider != "openai" else None  # OpenAI's own type, read strictly
        return [{"loc": ("type",), "type": "unknown_item_type", "msg": hint or _unknown_type(t, provider)}]
    if ":" in t and not NAMESPACED_TYPE.match(t):
        return [
            {
                "loc": ("type",),
                "type": "namespaced_type",
                "msg": f"type '{t}' is not a valid slug:name extension type (a slug, a colon, then a name)",
            }
        ]
    if t == "item_reference" and side == "output":
        return [{"loc": ("type",), "type": "wrong_side", "msg": "item_reference exists only on the input side"}]
    return []


def json_item_error(exc: JSONError, loc: tuple[Any, ...] = (), text: bool = True, full: bool = False) -> ItemError:
    """A strict-JSON failure as an `ItemError`: `type` is the rule (`duplicate_key`, `too_deep`, ...),
    `json_invalid` for text that is not JSON and `not_json` for a Python value JSON has no form for."""
    code = exc.reason if exc.reason != "not_json" else ("json_invalid" if text else "not_json")
    return ItemError([{"loc": loc, "type": code, "msg": str(exc) if full else exc.detail}])


def openai_type_hint(t: Any) -> str | None:
    """The message for an un-prefixed OpenAI item or tool type read as strict Open Responses (None for any other
    type): it names the OpenAI reading (`provider='openai'`, `--provider openai` on the command line),
    never a renamed `slug:name` type."""
    if not isinstance(t, str) or ":" in t:
        return None
    if t in TOOL_TYPES or t.startswith(("web_search_", "web_search_preview_")):
        what, items, then = "hosted tool", "", ""
    elif f"openai:{t}" in ANNOTATION_TYPES:
        what, items, then = "own annotation", " and items", " (they are then kept as openai: parts)"
    elif f"openai:{t}" in OUTPUT_TYPES or f"openai:{t}" in INPUT_TYPES:
        what, items, then = "own item", " and items", " (they are then typed openai: items)"
    else:
        return None
    return said(
        "'{t}' is one of OpenAI's {what} types, not an Open Responses type: read OpenAI's bodies{items} with "
        "{option:provider}{then}",
        t=t, what=what, items=items, then=then,
    )


def plain_json(value: Any, what: str = "item", *, keep_models: bool = False, max_depth: int = MAX_ITEM_DEPTH) -> Any:
    """A plain JSON value from JSON text (read strictly, a list one level deeper than `max_depth`), a pydantic
    model (SDK or ours unless `keep_models`, dumped as `dump_item` does; ours validated need no second scan)
    or a Python JSON value (`Mapping`s become `dict`); an iterable or scalar is returned as it is, for the
    caller to read. Raises `ItemError` naming `what` and the rule (`replayable._json`) for what is not JSON."""
    if isinstance(value, BaseModel):
        if keep_models and isinstance(value, WireModel):
            return value
        checked = isinstance(value, WireModel) and not is_unchecked(value)  # frozen and validated strictly
        try:
            value = to_plain(value)
            if checked:
                return value
        except JSONError as exc:
            raise json_item_error(exc, text=False) from None
    elif isinstance(value, str | bytes | bytearray | memoryview):
        try:
            value = loads(value, what=what, max_depth=max_depth + 1)
            return value if isinstance(value, list) else check_value(value, what=what, max_depth=max_depth)
        except JSONError as exc:
            raise json_item_error(exc) from None
    elif not isinstance(value, Mapping):
        return value  # a scalar is JSON as it is; a list or iterable is read element by element
    try:
        return check_value(value, what=what, max_depth=max_depth)
    except JSONError as exc:
        raise json_item_error(exc, text=False) from None


def coerce_sdk(data: Any) -> tuple[Any, bool]:
    """Accept openai SDK objects (pydantic models from the `openai` package) as plain JSON; flags them."""
    if isinstance(data, BaseModel) and not isinstance(data, WireModel):
        try:
            return to_plain(data), is_openai_model(data)
        except JSONError as exc:
            raise json_item_error(exc, text=False) from None
    return data, False


class _TooDeepValue:
    """Stands in for a field value nested too deeply while the item's own rules are checked: pydantic then
    reports the field (wrong type) without walking or quoting the value itself."""

    def __repr__(self) -> str:
        return "<a value nested too deeply>"


_TOO_DEEP = _TooDeepValue()
_FIELD_DEPTH = 64  # field values deeper than this are replaced by `_TOO_DEEP` once the item is too deep


def validate_item(data: Any, side: Side, provider: Provider, index: int | None) -> Any:
    """One item (a dict, JSON text or bytes, our model, an openai SDK object) validated on `side`; an SDK
    object implies `provider="openai"`. Raises `ItemError` whose paths start with `index` when given."""
    prefix: tuple[Any, ...] = () if index is None else (index,)
    if type(data) is not bytes and type(data) is not str:  # JSON text (hot: JSONL lines) is no model
        data, from_sdk = coerce_sdk(data)
        if from_sdk:
            provider = "openai"
        if isinstance(data, WireModel):
            if not is_unchecked(data):
                return data
            try:  # it skipped validation (model_construct, model_copy(update=...)): read its JSON instead
                data = to_plain(data)
            except JSONError as exc:
                raise json_item_error(exc, prefix, text=False) from None
    from_text = isinstance(data, str | bytes | bytearray | memoryview)
    if from_text:  # a JSONL line or one item's JSON text: the strict reader vouches for every value in it
        try:
            data = loads(data, what="item", max_depth=MAX_ITEM_DEPTH)
        except JSONError as exc:
            raise json_item_error(exc, prefix) from None
    not_json: JSONError | None = None
    if not from_text and isinstance(data, Mapping):  # unknown fields are kept as they are: they must stay JSON
        try:
            data = check_value(data, what="item", max_depth=MAX_ITEM_DEPTH)
        except JSONError as exc:
            if exc.reason == "lone_surrogate":  # pydantic cannot even render such a value in its errors
                raise json_item_error(exc, prefix, text=False) from None
            not_json = exc  # a field's own rule speaks first when there is one
            if exc.reason == "too_deep":  # pydantic may recurse into such a value (to quote it in an error)
                try:
                    data = {k: v if json_problem(v, _FIELD_DEPTH) is None else _TOO_DEEP for k, v in data.items()}
                except Exception:  # a Mapping that fails while read: its own rules cannot be asked
                    raise json_item_error(exc, prefix, text=False) from None
    try:
        problems = _precheck(data, side, provider)
    except Exception:  # only a value the check above refused (a Mapping that fails while read)
        if not_json is None:
            raise
        raise json_item_error(not_json, prefix, text=False) from None
    if problems:
        raise ItemError([{**p, "loc": prefix + p["loc"]} for p in problems])
    single, _ = ITEM_ADAPTERS[(side, provider == "openai")]
    if provider is None and type(data) is dict and not single.pydantic_complete:  # start-up: see SPEC_MEMBERS
        model = SPEC_MEMBERS.validate(data, side)
        if model is not None:
            if not_json is not None:
                raise json_item_error(not_json, prefix, text=False)
            return model
    try:  # the adapter's own validator: `TypeAdapter.validate_python` only forwards to it (one frame less)
        model = single.validator.validate_python(data, context=OPENAI_CONTEXT if provider == "openai" else None)
    except ValidationError as exc:
        raise ItemError(clean_errors(exc, data, prefix)) from None
    except Exception as exc:  # only values the check above already refused (or a Mapping failing while read)
        if not_json is None:
            raise ItemError([{"loc": prefix, "type": "not_json", "msg": f"item cannot be read: {exc}"}]) from None
    if not_json is not None:
        raise json_item_error(not_json, prefix, text=False)
    return model


def _check_side(side: Any, provider: Any) -> None:
    if side not in ("input", "output"):
        raise ValueError(f"side must be 'input' or 'output', got {side!r}")
    checked_provider(provider)


def _members(union: Any) -> tuple[type, ...]:
    """The model classes of an (Annotated, nested) union alias."""
    args = get_args(union)
    if not args:
        return (union,)
    if getattr(union, "__metadata__", None) is not None:  # Annotated[X, ...]
        return _members(args[0])
    return tuple(m for a in args for m in _members(a))


#: The models each side returns: `parse_item(x, side=side)` gives an instance of one of these.
_SIDE_MODELS: dict[str, tuple[type, ...]] = {"input": _members(InputItem), "output": _members(OutputItem)}
#: The item models of each side, strict or OpenAI mode: no other model (a body, an event) is an item.
SIDE_ITEM_MODELS: dict[str, tuple[type, ...]] = {
    "input": tuple(dict.fromkeys(_members(InputItem) + _members(OpenAIInputItem))),
    "output": tuple(dict.fromkeys(_members(OutputItem) + _members(OpenAIOutputItem))),
}
ITEM_MODELS: tuple[type, ...] = tuple(dict.fromkeys(SIDE_ITEM_MODELS["input"] + SIDE_ITEM_MODELS["output"]))


def is_item_model(value: Any, side: Side | None = None) -> bool:
    """Whether `value` is one of our item models (of `side` when given): only those are trusted as parsed;
    any other model is read from its JSON, as an item would be (and on the side asked)."""
    return isinstance(value, ITEM_MODELS if side is None else SIDE_ITEM_MODELS[side])


def _on_side(data: Any, side: Side) -> Any:
    """A model of the other side (or not an item at all) is read again from its JSON form, so that a model
    in gets the same verdict and the same side's model out as its JSON would."""
    if isinstance(data, WireModel) and not isinstance(data, _SIDE_MODELS[side]):
        return data.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return data


@overload
def parse_item(data: Any, *, side: Literal["input"] = "input", provider: Provider = None) -> InputItem: ...
@overload
def parse_item(data: Any, *, side: Literal["output"], provider: Provider = None) -> OutputItem: ...
@overload
def parse_item(data: Any, *, side: Side, provider: Provider = None) -> Item: ...
def parse_item(data: Any, *, side: Side = "input", provider: Provider = None) -> Item:
    """Parse one item.

    `data` is a JSON object as a dict, a JSON text (`str` or `bytes`), one of our models (returned as
    is) or an `openai` SDK object (which implies `provider="openai"`). `side="input"` reads the request
    forms (`ItemParam`), `side="output"` the response forms (`ItemField`). `provider="openai"` also reads
    OpenAI's un-prefixed native types (`web_search_call` -> `NamespacedItem` typed `openai:web_search_call`,
    dumped back as `web_search_call`) and its `{role, content}` shorthand message.

    JSON text and Python values are read by the one strict reader (`replayable._json`): a duplicate key,
    `NaN`/`Infinity`/`1e400`, an integer over 4300 digits, invalid UTF-8, a lone surrogate, a set, bytes
    or tuple inside, or nesting past `MAX_ITEM_DEPTH` is an `ItemError` whose `type` names the rule.
    Dict subclasses and other `Mapping`s read like dicts; one leading BOM is ignored.

    Returns the model (frozen). Raises `ItemError` naming the field and rule for anything that does not
    parse, including `None`, numbers, lists and unknown un-prefixed types; never `TypeError`.
    With `side="input"` the result is an `InputItem`, with `side="output"` an `OutputItem` (the overloads
    say so to type checkers; a model of the other side is read again from its JSON form). Spec: Open
    Responses 2026-04-24, "Items" (`ItemParam`, `ItemField`) and "Extending items" (`slug:name`).
    """
    _check_side(side, provider)
    if type(data) is not bytes and type(data) is not str:  # JSON text is read as the side says
        data = _on_side(data, side)
    return validate_item(data, side, provider, None)  # type: ignore[no-any-return]


_WS_STR = re.compile(r"\ufeff?[ \t\r\n]*")
_WS_BYTES = re.compile(rb"(?:\xef\xbb\xbf)?[ \t\r\n]*")


def _first_char(data: str | bytes | bytearray | memoryview) -> str:
    """The first non-blank character of a JSON text after an optional BOM, without copying it ('' when
    blank)."""
    if isinstance(data, str):
        i = _WS_STR.match(data).end()  # type: ignore[union-attr]
        return data[i : i + 1]
    if isinstance(data, memoryview):
        data = data.tobytes()
    i = _WS_BYTES.match(data).end()  # type: ignore[union-attr]
    return data[i : i + 1].decode("latin-1")


_TEXT = (str, bytes, bytearray, memoryview)


@overload
def iter_items(data: Any, *, side: Literal["input"] = "input", provider: Provider = None) -> Iterator[InputItem]: ...
@overload
def iter_items(data: Any, *, side: Literal["output"], provider: Provider = None) -> Iterator[OutputItem]: ...
@overload
def iter_items(data: Any, *, side: Side, provider: Provider = None) -> Iterator[Item]: ...
def iter_items(data: Any, *, side: Side = "input", provider: Provider = None) -> Iterator[Item]:
    """Parse items one at a time: a list or iterable of items (dicts, models, SDK objects) or of JSONL
    lines (`str`/`bytes`, such as a binary file; blank lines are skipped, one BOM is allowed at the start
    of the first), or one JSON text (read whole, see `parse_items`). Raises `ItemError` at the first bad
    item, naming its index (its position in the iterable). Memory stays bounded by one item. Yields
    `InputItem`s or `OutputItem`s after `side`, as `parse_item`."""
    _check_side(side, provider)
    if isinstance(data, _TEXT):
        yield from parse_items(data, side=side, provider=provider)
        return
    if isinstance(data, Mapping) or not isinstance(data, Iterable):
        got = "a JSON object" if isinstance(data, Mapping) else type(data).__name__
        raise ItemError([{"loc": (), "type": "list_type", "msg": f"expected a list of items, got {got}"}])
    budget = ContainerBudget()  # JSONL lines are one input: one container budget for them all
    for i, raw in enumerate(data):
        if isinstance(raw, _TEXT):
            if isinstance(raw, memoryview):
                raw = raw.tobytes()
            over = budget.add_line(raw)
            if over is not None:
                raise ItemError([{"loc": (i,), "type": "too_many_containers", "msg": f"the JSONL lines so far {over}"}])
            if not raw.strip():
                continue
            if i > 0 and (raw.startswith("\ufeff") if isinstance(raw, str) else raw.startswith(b"\xef\xbb\xbf")):
                msg = "a byte order mark is only allowed at the very start"
                raise ItemError([{"loc": (i,), "type": "json_invalid", "msg": msg}])
        yield validate_item(_on_side(raw, side), side, provider, i)


@overload
def parse_items(data: Any, *, side: Literal["input"] = "input", provider: Provider = None) -> list[InputItem]: ...
@overload
def parse_items(data: Any, *, side: Literal["output"], provider: Provider = None) -> list[OutputItem]: ...
@overload
def parse_items(data: Any, *, side: Side, provider: Provider = None) -> list[Item]: ...
def parse_items(data: Any, *, side: Side = "input", provider: Provider = None) -> list[Any]:
    """Parse a list of items: `list[InputItem]` for `side="input"`, `list[OutputItem]` for `side="output"`.

    `data` is a list (or other iterable) of items, a JSON array as `str`/`bytes`, or JSONL (one JSON
    object per line, as one text or as an iterable of lines; blank lines are skipped). JSON text is read
    by the one strict reader (`replayable._json`): duplicate keys, `NaN`/`Infinity` and numbers that
    read as infinity (`1e400`), integers over 4300 digits, invalid UTF-8 and lone surrogates are refused,
    one leading byte order mark is ignored, and JSONL lines end at `\\n` only. Items nest at most
    `MAX_ITEM_DEPTH` levels. Valid input takes one pass through pydantic-core; on any bad item the items
    are read one by one so that the `ItemError` lists one precise error per bad item, each `loc` starting
    with the item's index (for JSONL, the index among non-blank lines). The garbage collector's state
    (enabled, thresholds, frozen objects) is never changed.

    Raises `ItemError` when the text is not strict JSON (`type` names the rule: `json_invalid`,
    `duplicate_key`, `non_finite_number`, `number_too_long`, `invalid_utf8`, `lone_surrogate`,
    `too_deep`), when the value is not a list, or when any item does not parse (see `parse_item`). Spec:
    Open Responses 2026-04-24, "Items" and "Extending items".
    """
    _check_side(side, provider)
    _, many = ITEM_ADAPTERS[(side, provider == "openai")]
    ctx = OPENAI_CONTEXT if provider == "openai" else None
    raw: Any
    checked = False  # every value already passed the strict reader (text input)
    done: list[Any] = []  # items already validated (the leading chunks of a JSON array)
    start = 0  # where the items still to read start in `raw`
    if isinstance(data, _TEXT):
        checked = True
        first = _first_char(data)
        if first == "[":
            try:  # the array may nest one level deeper than its items; the reader enforces that itself
                raw = loads(data, what="items", max_depth=MAX_ITEM_DEPTH + 1)
            except JSONError as exc:
                raise json_item_error(exc) from None
            if isinstance(raw, list):  # a strict model accepts only a dict: any other element fails its chunk
                done, start = _validate_releasing(many, raw, ctx)
                if start == len(raw):
                    return done
        elif first == "{":
            raw = _jsonl_values(data)
            done, start = _validate_releasing(many, raw, ctx)
            if start == len(raw):
                return done
        elif first == "":
            return []
        else:
            raise ItemError(
                [
                    {
                        "loc": (),
                        "type": "json_invalid",
                        "msg": "expected a JSON array of items or JSONL (one object per line)",
                    }
                ]
            )
    else:
        raw = data
    if isinstance(raw, Mapping) or not isinstance(raw, Iterable) or isinstance(raw, _TEXT):
        got = "a JSON object" if isinstance(raw, Mapping) else type(raw).__name__
        raise ItemError([{"loc": (), "type": "list_type", "msg": f"expected a list of items, got {got}"}])
    raw = list(raw)
    if not checked and any(isinstance(x, _TEXT) for x in raw):
        return list(iter_items(raw, side=side, provider=provider))  # JSONL lines, as iter_items reads them
    if not checked and all(type(x) is dict for x in raw):
        try:
            plain = [check_value(x, max_depth=MAX_ITEM_DEPTH) for x in raw]
        except JSONError:
            plain = None  # reported item by item below
        if plain is not None:
            try:
                models: list[Any] = many.validate_python(plain, context=ctx)
                share_fields_sets(models, {})
                return models
            except ValidationError:
                pass
    items: list[Item] = done
    errors: list[dict[str, Any]] = []
    for i in range(start, len(raw)):
        x = raw[i]
        try:
            items.append(validate_item(_on_side(x, side), side, provider, i))
        except ItemError as exc:
            errors.extend(exc.errors)
    if errors:
        bad = len({e["loc"][0] for e in errors if e["loc"]})
        raise ItemError(errors, title=f"{bad} of {len(raw)} items invalid")
    return items


def _jsonl_values(data: str | bytes | bytearray | memoryview) -> list[Any]:
    """The values of a JSONL text, as `iter_jsonl` reads them (blank lines skipped, one BOM at the very
    start, a trailing `\r` dropped). Read in one batch (`loads_lines`: the whole-text filters run once)
    when that is possible; otherwise, or when a line needs a closer look, line by line with `iter_jsonl`
    and its exact errors (`ItemError` whose `loc` is the index among non-blank lines)."""
    raw: Any = data.tobytes() if isinstance(data, memoryview) else data
    over = text_over_budget(raw)  # one budget per input, as one JSON array of the same values has
    if over is not None:
        raise ItemError([{"loc": (), "type": "too_many_containers", "msg": f"the JSONL text {over}"}])
    lines: list[bytes] | None = None
    try:
        text = raw.encode() if isinstance(raw, str) else bytes(raw)
    except UnicodeEncodeError:  # a lone surrogate: iter_jsonl names the line
        text = None
    if text is not None:
        lines = []
        for n, line in enumerate(text.split(b"\n")):
            if n == 0:
                line = line.removeprefix(b"\xef\xbb\xbf")
            elif line.startswith(b"\xef\xbb\xbf"):
                lines = None  # refused by iter_jsonl, which names the line
                break
            line = line.removesuffix(b"\r")
            if line.strip(b" \t"):
                lines.append(line)
    values = loads_lines(lines) if lines is not None else None
    if values is not None:
        return values
    values = []
    try:
        for _, value in iter_jsonl(raw, what="line"):
            values.append(value)
    except JSONError as exc:
        raise json_item_error(exc, (len(values),), full=True) from None
    return values


_CHUNK = 256  # a chunk's dicts and models still in the CPU cache when shared (4096: 15% slower, benchmarks/)
_NONES: list[None] = [None] * _CHUNK


def _validate_releasing(many: TypeAdapter[Any], raw: list[Any], ctx: Any) -> tuple[list[Any], int]:
    """Validate the dicts of a JSON array just read (`raw`, which nobody else holds) a chunk at a time,
    dropping each chunk's dicts once its items exist: the plain values and the items of a large array
    are then never all held at once; items of a class with the same fields share one read-only fields
    set (`replayable._base.share_fields_sets`). Returns the items of the chunks that validated and the index where
    the first chunk that did not starts (`len(raw)` when all did); `raw` keeps the items from there on."""
    done: list[Any] = []
    n = len(raw)
    shared: dict[Any, Any] = {}
    for start in range(0, n, _CHUNK):
        end = min(start + _CHUNK, n)
        try:
            chunk = many.validate_python(raw[start:end], context=ctx)
        except ValidationError:
            return done, start
        raw[start:end] = _NONES[: end - start]
        share_fields_sets(chunk, shared)
        done.extend(chunk)
    return done, n


def dump_item(item: Any) -> dict[str, Any]:
    """Dump a parsed item to a JSON-ready dict, exactly as it was read.

    Unknown fields are kept, explicit `null`s stay, nothing the input did not have is added, and
    OpenAI's native types and shorthand messages come back in their original form. Raises `ItemError`
    when `item` is not one of our models, and when it holds a value its JSON cannot (what
    `model_construct` or `model_copy(update=...)` may put in: an object where a string belongs, NaN,
    bytes, ...): nothing is coerced on the way out."""
    if not is_item_model(item):
        raise ItemError([{"loc": (), "type": "item_type", "msg": f"expected a parsed item, got {type(item).__name__}"}])
    try:
        out = item.model_dump(mode="python", by_alias=True, exclude_unset=True, warnings="error")
        out = check_value(out, what="item", max_depth=MAX_ITEM_DEPTH)
    except JSONError as exc:
        raise json_item_error(exc, text=False) from None
    except (ValueError, TypeError, RecursionError) as exc:  # pydantic's serialization errors
        msg = f"the {type(item).__name__} has no JSON form: {str(exc).splitlines()[0]}"
        raise ItemError([{"loc": (), "type": "not_json", "msg": msg}]) from None
    if is_unchecked(item):  # it skipped validation (model_construct, model_copy(update=...)): its JSON is read
        side: Side = "input" if isinstance(item, SIDE_ITEM_MODELS["input"]) else "output"
        try:  # in either reading (the class does not say which): strict first, whose error is the one raised
            validate_item(out, side, None, None)
        except ItemError as first:
            try:
                validate_item(out, side, "openai", None)
            except ItemError:
                raise first from None
    return out  # type: ignore[no-any-return]


def dump_items(items: Iterable[Any]) -> list[InputItemParam]:
    """Dump parsed items (see `dump_item`), typed so that `client.responses.create(input=dump_items(items))`
    type-checks. Raises `ItemError` when `items` is not a list of items."""
    if isinstance(items, Mapping | str | bytes | bytearray) or not isinstance(items, Iterable):
        got = "null" if items is None else type(items).__name__
        raise ItemError([{"loc": (), "type": "list_type", "msg": f"items must be a list of items, got {got}"}])
    return [dump_item(i) for i in items]  # type: ignore[misc]  # JSON objects of the SDK's input shapes
