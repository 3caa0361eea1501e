"""The item unions and the one validation of an item (private; `replayable.items` is the public face).

The input and output unions (strict and OpenAI mode), their adapters, the checks said before validation
(not an object, a missing or unknown `type`) and `validate_item`, which `parse_item`, the rules' reader,
the stream assembler and interop share. Spec: Open Responses 2026-04-24, "Items", "Extending items".
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, get_args

from pydantic import (
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)

from ._base import NAMESPACED_TYPE, SPEC_ITEM_TYPES, WireModel, is_unchecked
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
from ._generated.open_responses.reasoning import Reasoning
from ._generated.open_responses.reasoning_param import ReasoningParam
from ._generated.open_responses.system_message_param import SystemMessageParam
from ._generated.open_responses.user_message_param import UserMessageParam
from ._item_json import coerce_sdk, json_item_error, openai_type_hint, reference_id_problems
from ._item_members import SpecMembers
from ._item_routes import InputNamespacedItem, OutputNamespacedItem, opaque_typed
from ._json import (
    MAX_ITEM_DEPTH,
    JSONError,
    check_value,
    json_problem,
    loads,
    to_plain,
)
from ._messages import OPTIONS, Said
from ._model_slots import put_fields_set
from ._native import closest_item_types, is_openai_item_type
from ._validation import ItemError, clean_errors

if TYPE_CHECKING:  # OpenAI mode's models load with its first use (`openai_unions`)
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

_OPENAI = OPTIONS["provider"]  # the reading a message may name: provider='openai' (--provider openai)

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


InputItem: TypeAlias = Annotated[
    _KnownInputItem | ItemReferenceParam | InputNamespacedItem,
    Field(union_mode="left_to_right"),
]
"""An item sent as input: a spec item (tagged on `type`), an `item_reference` (whose `type` may be
absent), or a `slug:name` `NamespacedItem`. Spec: `ItemParam`."""

OutputItem: TypeAlias = Annotated[
    _KnownOutputItem | OutputNamespacedItem,
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
        put_fields_set(model, model.model_fields_set - {"type"})  # its own set: the values say `type` is set
        return model
    return handler(value)


if TYPE_CHECKING:  # OpenAI mode's unions as type checkers see them: the members `openai_unions` builds them from
    OpenAIInputItem: TypeAlias = (
        OpenAIUserMessageParam
        | SystemMessageParam
        | DeveloperMessageParam
        | OpenAIAssistantMessageParam
        | FunctionCallParam
        | OpenAIFunctionCallOutputParam
        | OpenAIReasoningParam
        | CompactionParam
        | ItemReferenceParam
        | NamespacedItem
    )
    OpenAIOutputItem: TypeAlias = (
        OpenAIMessage | FunctionCall | OpenAIFunctionCallOutput | OpenAIReasoning | OpenAICompaction | NamespacedItem
    )


@cache
def openai_unions() -> tuple[Any, Any]:
    """OpenAI mode's item unions, (input, output), built on OpenAI mode's first use with its models
    (`replayable._openai_forms`: the spec items with the `null`s OpenAI sends), so that `import replayable`
    and strict reading never build them. `items.OpenAIInputItem` and `items.OpenAIOutputItem` are these."""
    from ._openai_forms import (  # noqa: PLC0415  (a layer below: its 15 model classes load on first use)
        OpenAIAssistantMessageParam,
        OpenAICompaction,
        OpenAIFunctionCallOutput,
        OpenAIFunctionCallOutputParam,
        OpenAIMessage,
        OpenAIReasoning,
        OpenAIReasoningParam,
        OpenAIUserMessageParam,
    )

    known_input: Any = Annotated[
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
    known_output: Any = Annotated[
        OpenAIMessage | FunctionCall | OpenAIFunctionCallOutput | OpenAIReasoning | OpenAICompaction,
        Field(discriminator="type"),
    ]
    # An input item in OpenAI mode: `InputItem`, plus the `{role, content}` shorthand and OpenAI's nulls.
    input_union: Any = Annotated[
        Annotated[known_input | ItemReferenceParam | InputNamespacedItem, Field(union_mode="left_to_right")],
        WrapValidator(_read_shorthand),
    ]
    # An output item in OpenAI mode: `OutputItem`, with the `null`s OpenAI sends.
    output_union: Any = Annotated[
        Annotated[known_output | OutputNamespacedItem, Field(union_mode="left_to_right")],
        WrapValidator(_read_shorthand),
    ]
    return input_union, output_union


def __getattr__(name: str) -> Any:
    """`OpenAIInputItem` and `OpenAIOutputItem`: OpenAI mode's unions (`openai_unions`), built when first asked for."""
    if name in ("OpenAIInputItem", "OpenAIOutputItem"):
        value = openai_unions()[name == "OpenAIOutputItem"]
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _ItemAdapters(dict[tuple[str, bool], tuple[TypeAdapter[Any], TypeAdapter[Any]]]):
    """The item adapters by (side, OpenAI mode); OpenAI mode's are made on their first lookup."""

    def __missing__(self, key: tuple[str, bool]) -> tuple[TypeAdapter[Any], TypeAdapter[Any]]:
        if key not in (("input", True), ("output", True)):
            raise KeyError(key)
        union: Any = openai_unions()[key[0] == "output"]
        made = (TypeAdapter(union, config=_DEFER), TypeAdapter(list[union], config=_DEFER))
        return self.setdefault(key, made)  # one pair per key, whichever thread made it first


ITEM_ADAPTERS: dict[tuple[str, bool], tuple[TypeAdapter[Any], TypeAdapter[Any]]] = _ItemAdapters(
    {
        ("input", False): (input_item_adapter, input_items_adapter),
        ("output", False): (output_item_adapter, output_items_adapter),
    }
)
"""The item adapters by (side, OpenAI mode): (one item, a list of items)."""


def is_openai_form(value: Any) -> bool:
    """Whether `value` is a model read in OpenAI mode (`replayable._openai_forms.OPENAI_FORMS`). Those classes
    load with OpenAI mode's first use: until their module is loaded, no value can be one."""
    forms = sys.modules.get("replayable._openai_forms")
    return forms is not None and isinstance(value, forms.OPENAI_FORMS)


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
            if not is_unchecked(data) and not opaque_typed(data):
                return data
            try:  # it skipped validation (model_construct, ...) or a typed item's model: read its JSON instead
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


def union_members(union: Any) -> tuple[type, ...]:
    """The model classes of an (Annotated, nested) union alias."""
    args = get_args(union)
    if not args:
        return (union,)
    if getattr(union, "__metadata__", None) is not None:  # Annotated[X, ...]
        return union_members(args[0])
    return tuple(m for a in args for m in union_members(a))


#: The models each side returns: `parse_item(x, side=side)` gives an instance of one of these.
