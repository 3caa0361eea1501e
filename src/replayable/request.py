"""The request body of `POST /responses` (and `/responses/compact`): build what you send, read what was sent.

`CreateResponseBody` is the spec's request body with every field typed: `input` is a string or our input
items, `tools` are `FunctionToolParam`s (or a provider's own `slug:name` tool, kept verbatim),
`tool_choice` is `"auto"` / `"none"` / `"required"`, a `SpecificFunctionParam` or an `AllowedToolsParam`,
`text` a `TextParam`, `reasoning` a `ReasoningConfigParam`. Build it with keyword arguments (every `type`
and `role` is filled in) and send `dump_request(body)` (the same as `body.model_dump(mode="json",
exclude_unset=True)`): the dump holds exactly what was set, with a `type` on every item and part.
The one key that would shadow a pydantic attribute, a `json_schema` format's `schema`, is the field
`schema_` (`JsonSchemaFormatParam(name="answer", schema_={...})`; `schema=` works at run time too).

`parse_request(data, provider=None)` reads a body (dict, JSON text or bytes). Strict Open Responses by
default; `provider="openai"` also reads what OpenAI accepts and the spec does not: native tool types
(`web_search`, `mcp`, ...) and tool choices as `openai:` namespaced tools, the `{role, content}` shorthand
message and native items in `input`, `json_object` text format, any `include` value, reasoning `effort`
values such as `minimal`, any `service_tier`, and null for `store` / `stream` / `background`. Either way
the body dumps back exactly as it was read. Spec: Open Responses 2026-04-24, `CreateResponseBody`,
`CompactResponseMethodPublicBody`, "Tools", "tool_choice".
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import Field, TypeAdapter, ValidationError
from pydantic.experimental.missing_sentinel import MISSING

from ._base import SPEC_ITEM_TYPES, SPEC_PART_TYPES, SPEC_TOOL_TYPES, WireModel, one_number_error
from ._generated.open_responses.allowed_tool_choice import AllowedTool, AllowedToolChoice
from ._generated.open_responses.allowed_tools_param import AllowedToolParam, AllowedToolsParam
from ._generated.open_responses.common import (
    Include,
    LongText,
    Metadata,
    ReasoningEffort,
    ReasoningSummary,
    ServiceTier,
    ToolChoiceValue,
    Truncation,
    Verbosity,
)
from ._generated.open_responses.compact_request_body import CompactRequestBody
from ._generated.open_responses.create_response_body import CreateResponseBody
from ._generated.open_responses.function_tool import FunctionTool
from ._generated.open_responses.function_tool_choice import FunctionToolChoice
from ._generated.open_responses.function_tool_param import FunctionToolParam
from ._generated.open_responses.json_object_format import JsonObjectFormat
from ._generated.open_responses.json_schema_format import JsonSchemaFormat
from ._generated.open_responses.json_schema_format_param import JsonSchemaFormatParam
from ._generated.open_responses.namespaced_tool import NamespacedTool
from ._generated.open_responses.namespaced_tool_choice import NamespacedToolChoice
from ._generated.open_responses.reasoning_config import ReasoningConfig
from ._generated.open_responses.reasoning_config_param import ReasoningConfigParam
from ._generated.open_responses.specific_function_param import SpecificFunctionParam
from ._generated.open_responses.stream_options import StreamOptions
from ._generated.open_responses.text_field import TextField, TextFormatField
from ._generated.open_responses.text_format import TextFormat
from ._generated.open_responses.text_param import TextFormatParam, TextParam
from ._generated.open_responses.tools import Tool, ToolChoice, ToolChoiceParam, ToolParam
from ._json import JSONError, check_value, loads
from .items import (
    MAX_ITEM_DEPTH,
    ItemError,
    Provider,
    _coerce,
    _json_error,
    _OpenAIInputItem,
)

__all__ = [
    "AllowedTool",
    "AllowedToolChoice",
    "AllowedToolParam",
    "AllowedToolsParam",
    "CompactRequestBody",
    "CreateResponseBody",
    "FunctionTool",
    "FunctionToolChoice",
    "FunctionToolParam",
    "Include",
    "JsonObjectFormat",
    "JsonSchemaFormat",
    "JsonSchemaFormatParam",
    "MAX_BODY_DEPTH",
    "Metadata",
    "NamespacedTool",
    "NamespacedToolChoice",
    "ReasoningConfig",
    "ReasoningConfigParam",
    "ReasoningEffort",
    "ReasoningSummary",
    "ServiceTier",
    "SpecificFunctionParam",
    "StreamOptions",
    "TextField",
    "TextFormat",
    "TextFormatField",
    "TextFormatParam",
    "TextParam",
    "Tool",
    "ToolChoice",
    "ToolChoiceParam",
    "ToolChoiceValue",
    "ToolParam",
    "Truncation",
    "Verbosity",
    "dump_request",
    "parse_compact_request",
    "parse_request",
]

# ---- OpenAI mode: what OpenAI accepts beyond the spec (the same fields, wider types) ----


class _OpenAIReasoningConfigParam(ReasoningConfigParam):
    """OpenAI's reasoning options: any `effort` / `summary` string (`minimal`, ...); extra keys are kept."""

    effort: str | None | MISSING = MISSING  # type: ignore[assignment]
    summary: str | None | MISSING = MISSING  # type: ignore[assignment]


_OpenAITextFormatParam: TypeAlias = Annotated[
    TextFormat | JsonSchemaFormatParam | JsonObjectFormat, Field(discriminator="type")
]


class _OpenAITextParam(TextParam):
    """OpenAI's text options: `json_object` is a format too."""

    format: _OpenAITextFormatParam | None | MISSING = MISSING  # type: ignore[assignment]
    verbosity: str | None | MISSING = MISSING  # type: ignore[assignment]


class _OpenAICreateResponseBody(CreateResponseBody):
    """The request body as OpenAI accepts it (see the module docstring); dumps back exactly as read."""

    input: LongText | list[_OpenAIInputItem] | None | MISSING = MISSING
    include: list[str] | None | MISSING = MISSING  # type: ignore[assignment]
    text: _OpenAITextParam | None | MISSING = MISSING
    reasoning: _OpenAIReasoningConfigParam | None | MISSING = MISSING
    truncation: Truncation | None | MISSING = MISSING  # type: ignore[assignment]
    service_tier: str | None | MISSING = MISSING  # type: ignore[assignment]
    store: bool | None | MISSING = MISSING  # type: ignore[assignment]
    stream: bool | None | MISSING = MISSING  # type: ignore[assignment]
    background: bool | None | MISSING = MISSING  # type: ignore[assignment]


class _OpenAICompactRequestBody(CompactRequestBody):
    """The compact request body as OpenAI accepts it: shorthand messages and native items in `input`."""

    input: LongText | list[_OpenAIInputItem] | None | MISSING = MISSING


_OPENAI_CONTEXT = {"provider": "openai"}
#: Deepest nesting accepted in a body: the items' limit plus the body and its `input` list.
MAX_BODY_DEPTH = MAX_ITEM_DEPTH + 2

_ADAPTERS: dict[type[WireModel], TypeAdapter[Any]] = {}


def _adapter(model: type[WireModel]) -> TypeAdapter[Any]:
    adapter = _ADAPTERS.get(model)
    if adapter is None:
        adapter = _ADAPTERS[model] = TypeAdapter(model)
    return adapter


def _check_provider(provider: Any) -> None:
    if provider not in (None, "openai"):
        raise ValueError(f"provider must be None or 'openai', got {provider!r}")


def validate_body(
    data: Any, strict_model: type[WireModel], openai_model: type[WireModel], provider: Provider, what: str
) -> Any:
    """Read one body (a dict, JSON text or bytes, one of our models, or an `openai` SDK object, which
    implies OpenAI mode) into `strict_model` or, with provider='openai', `openai_model`.

    Raises `ItemError` titled `invalid <what>`, each error's `loc` a path into the body (`("input", 2,
    "call_id")`), for anything that does not validate, is not a JSON object, or could not be written back
    as JSON; `ValueError` for a bad `provider`.
    """
    _check_provider(provider)
    title = f"invalid {what}"
    if isinstance(data, str | bytes | bytearray | memoryview):  # the one strict reader (replayable._json)
        try:
            data = loads(data, what=what, max_depth=MAX_BODY_DEPTH)
        except JSONError as exc:
            raise ItemError(_json_error(exc).errors, title=title) from None
    data, from_sdk = _coerce(data)
    if from_sdk:
        provider = "openai"
    model = openai_model if provider == "openai" else strict_model
    if isinstance(data, WireModel):
        if isinstance(data, strict_model):
            return data
        data = data.model_dump(mode="json", exclude_unset=True)
    if not isinstance(data, Mapping):
        got = "null" if data is None else type(data).__name__
        raise ItemError([{"loc": (), "type": "model_type", "msg": f"a {what} must be a JSON object, got {got}"}], title)
    try:
        data = check_value(data, what=what, max_depth=MAX_BODY_DEPTH)
    except JSONError as exc:
        raise ItemError(_json_error(exc, text=False).errors, title=title) from None
    try:
        return _adapter(model).validate_python(data, context=_OPENAI_CONTEXT if provider == "openai" else None)
    except ValidationError as exc:
        raise ItemError(clean_body_errors(exc, data), title=title) from None


#: Every `type` the spec gives an item, part, annotation, tool, tool choice or text format: a value of one
#: of these types is judged by its own model, never by a `slug:name` branch.
_SPEC_TYPES = SPEC_ITEM_TYPES | SPEC_PART_TYPES | SPEC_TOOL_TYPES | {"text", "json_schema", "json_object"}
_SCALAR_LABELS: dict[str, type | tuple[type, ...]] = {
    "str": str,
    "constrained-str": str,
    "int": int,
    "constrained-int": int,
    "float": (int, float),
    "bool": bool,
    "none": type(None),
}


@cache
def _union_members() -> dict[str, tuple[str, ...] | None]:
    """Model name -> the `type` values it accepts (None: it has no literal `type`), for every model of
    ours that can be a branch of a union inside a body."""
    out: dict[str, tuple[str, ...] | None] = {}
    stack: list[type[WireModel]] = [WireModel]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if not cls.__module__.startswith(("replayable._generated.open_responses", __name__, "replayable.response")):
            continue
        field = cls.model_fields.get("type")
        tags = None
        if field is not None and typing.get_origin(field.annotation) is Literal:
            tags = tuple(str(a) for a in typing.get_args(field.annotation))
        out.setdefault(cls.__name__, tags)
    return out


def _relevant(label: str, value: Any) -> bool | None:
    """Does the union branch `label` speak for `value`? None when `label` is not a branch label."""
    t = value.get("type") if isinstance(value, Mapping) else None
    if label.startswith("function-wrap[_read_native_types"):  # the slug:name branch
        return isinstance(t, str) and t not in _SPEC_TYPES
    if label.startswith("tagged-union["):
        return not (isinstance(t, str) and t not in _SPEC_TYPES)
    if label == "ItemReferenceParam":
        return isinstance(value, Mapping) and (t == "item_reference" or (t is None and set(value) <= {"id", "type"}))
    if label.startswith("literal["):
        return not isinstance(value, Mapping | list)
    if label.startswith("list["):
        return not isinstance(value, str | Mapping)
    if label in _SCALAR_LABELS:
        return not isinstance(value, Mapping | list) or isinstance(value, _SCALAR_LABELS[label])
    members = _union_members()
    if label in members:
        tags = members[label]
        if not isinstance(value, Mapping):
            return False
        return tags is None or t in tags or not isinstance(t, str)
    return None


def clean_body_errors(exc: ValidationError, raw: Any, prefix: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    """pydantic's errors for a body, one per real problem: union branches that do not speak for the value
    (a `FunctionToolParam` branch for a `web_search` tool, the `slug:name` branch for a `function` tool)
    are dropped, and each `loc` is a plain path of field names and list indexes into `raw`."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    errors = exc.errors(include_url=False, include_context=False, include_input=False)
    for err in errors:
        value: Any = raw
        clean: list[Any] = []
        keep = True
        after_tag = False
        for seg in err["loc"]:
            if isinstance(seg, int) and isinstance(value, list):
                clean.append(seg)
                value = value[seg] if 0 <= seg < len(value) else None
                after_tag = False
                continue
            if isinstance(seg, str) and isinstance(value, Mapping) and seg in value:
                clean.append(seg)
                value = value[seg]
                after_tag = False
                continue
            if after_tag and isinstance(value, Mapping) and seg in (value.get("type"), value.get("role")):
                continue  # the tag value after a tagged-union label
            relevant = _relevant(seg, value) if isinstance(seg, str) else None
            if relevant is False:
                keep = False
                break
            if relevant is True:
                after_tag = isinstance(seg, str) and seg.startswith("tagged-union[")
                continue
            if isinstance(seg, str) and (seg.startswith(("function-", "union[", "nullable[", "missing-sentinel"))):
                continue
            clean.append(seg)  # a missing field, or an extra key that must not be there
            value = None
        if not keep:
            continue
        loc = prefix + tuple(clean)
        key = (loc, err["type"])
        if key in seen:
            continue
        seen.add(key)
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "union_tag_not_found":
            msg = "missing 'type': every item, part, tool and format needs a string 'type'"
            if isinstance(value, Mapping) and "role" in value:
                msg += " (a {role, content} shorthand message is read only with provider='openai')"
        out.append({"loc": loc, "type": err["type"], "msg": msg})
    if not out:
        out = [{"loc": prefix + tuple(e["loc"]), "type": e["type"], "msg": e["msg"]} for e in errors]
    return one_number_error(out)


def parse_request(data: Any, *, provider: Provider = None) -> CreateResponseBody:
    """Parse the body of a `POST /responses` request.

    `data` is a JSON object as a dict (an `openai` SDK `ResponseCreateParams` is one), JSON text or
    bytes, or a `CreateResponseBody` (returned as is). Strict Open Responses by default; with
    `provider="openai"` also what OpenAI accepts (see the module docstring); the result is then an
    instance of a `CreateResponseBody` subclass with wider field types, and dumps back exactly as read.

    Raises `ItemError` (a `ValueError`) whose `.errors` name each bad field by path (`("input", 1,
    "call_id")`, `("tool_choice",)`) and rule; never `TypeError`. Spec: `CreateResponseBody`.
    """
    body: CreateResponseBody = validate_body(
        data, CreateResponseBody, _OpenAICreateResponseBody, provider, "request body"
    )
    return body


def parse_compact_request(data: Any, *, provider: Provider = None) -> CompactRequestBody:
    """Parse the body of a `POST /responses/compact` request (`model` required); see `parse_request`.
    Spec: `CompactResponseMethodPublicBody`."""
    body: CompactRequestBody = validate_body(
        data, CompactRequestBody, _OpenAICompactRequestBody, provider, "compact request body"
    )
    return body


def dump_request(body: CreateResponseBody | CompactRequestBody) -> dict[str, Any]:
    """The JSON object to send: exactly the fields that were set or read, a `type` on every item, part,
    tool and format, no added nulls. Equal to `body.model_dump(mode="json", exclude_unset=True)`.
    Raises `ItemError` when `body` is not a request body model."""
    if not isinstance(body, CreateResponseBody | CompactRequestBody):
        raise ItemError(
            [{"loc": (), "type": "model_type", "msg": f"expected a request body, got {type(body).__name__}"}]
        )
    return body.model_dump(mode="json", by_alias=True, exclude_unset=True)
