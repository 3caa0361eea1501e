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

from collections.abc import Mapping
from typing import Annotated, Any, TypeAlias

from pydantic import BaseModel, Field, TypeAdapter, ValidationError
from pydantic.experimental.missing_sentinel import MISSING

from ._base import KEYWORD_HOOKS, NamespacedBase, WireModel, checked_provider
from ._chat_shapes import refuse_chat_completions_body
from ._forms import OUTPUT_FORMS, input_form
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
from ._validation import ModelError, clean_errors, value_at
from .errors import OPTIONS, Said, said
from .items import (
    MAX_ITEM_DEPTH,
    OPENAI_CONTEXT,
    ItemError,
    OpenAIInputItem,
    Provider,
    coerce_sdk,
    json_item_error,
    openai_type_hint,
    parse_item,
    reference_id_problems,
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
    "OpenAICreateResponseBody",
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

    input: LongText | list[OpenAIInputItem] | None | MISSING = MISSING  # type: ignore[assignment]
    include: list[str] | None | MISSING = MISSING  # type: ignore[assignment]
    text: _OpenAITextParam | None | MISSING = MISSING
    reasoning: _OpenAIReasoningConfigParam | None | MISSING = MISSING
    truncation: Truncation | None | MISSING = MISSING  # type: ignore[assignment]
    service_tier: str | None | MISSING = MISSING  # type: ignore[assignment]
    store: bool | None | MISSING = MISSING  # type: ignore[assignment]
    stream: bool | None | MISSING = MISSING  # type: ignore[assignment]
    background: bool | None | MISSING = MISSING  # type: ignore[assignment]


OpenAICreateResponseBody = _OpenAICreateResponseBody
"""The request body as OpenAI accepts it (`parse_request(..., provider="openai")` reads into it); the base
of OpenAI's WebSocket `response.create` message (`replayable.websocket`)."""


class _OpenAICompactRequestBody(CompactRequestBody):
    """The compact request body as OpenAI accepts it: shorthand messages and native items in `input`, any
    `service_tier` string (OpenAI adds `fast`; the SDK's `ResponseCompactParams`)."""

    input: LongText | list[OpenAIInputItem] | None | MISSING = MISSING  # type: ignore[assignment]
    service_tier: str | None | MISSING = MISSING  # type: ignore[assignment]


#: Deepest nesting accepted in a body: the items' limit plus the body and its `input` list.
MAX_BODY_DEPTH = MAX_ITEM_DEPTH + 2

_ADAPTERS: dict[type[WireModel], TypeAdapter[Any]] = {}


def _adapter(model: type[WireModel]) -> TypeAdapter[Any]:
    adapter = _ADAPTERS.get(model)
    if adapter is None:
        adapter = _ADAPTERS[model] = TypeAdapter(model)
    return adapter


def _check_provider(provider: Any) -> None:
    checked_provider(provider)


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
            raise ItemError(json_item_error(exc).errors, title=title) from None
    data, from_sdk = coerce_sdk(data)
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
        raise ItemError(json_item_error(exc, text=False).errors, title=title) from None
    if what.endswith("request body"):
        refuse_chat_completions_body(data)
    try:
        return _adapter(model).validate_python(data, context=OPENAI_CONTEXT if provider == "openai" else None)
    except ValidationError as exc:
        errors = clean_body_errors(exc, data)
        # OpenAI's keys (extra) or its response without the spec's required keys (missing), and nothing else:
        # the title names the OpenAI reading (the errors stay exactly the strict reading's)
        odd_keys = all(e["type"] in ("extra_forbidden", "missing") for e in errors)
        if provider != "openai" and odd_keys and _reads_as_openai(openai_model, data):
            title = said(
                "{title}; it reads as OpenAI's {what}: parse it with {option:provider}", title=title, what=what
            )
        raise ItemError(errors, title=title) from None


def _reads_as_openai(openai_model: type[WireModel], data: Any) -> bool:
    """Does a body the strict reading refused read as OpenAI's? (Then the error names provider='openai'.)"""
    try:
        _adapter(openai_model).validate_python(data, context=OPENAI_CONTEXT)
    except ValidationError:
        return False
    return True


def clean_body_errors(exc: ValidationError, raw: Any, prefix: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    """pydantic's errors for a body as the library's (`replayable._validation.clean_errors`, the one
    normalizer): each `loc` a plain path of field names and list indexes into `raw`. An un-prefixed type
    that is one of OpenAI's own gets the message naming `provider='openai'` (never a renamed `slug:name`),
    and a `{role, content}` message without `type` says the shorthand needs OpenAI mode."""
    out = _reference_errors(clean_errors(exc, raw, prefix), raw, prefix)
    for err in out:
        path = err["loc"][len(prefix) :]
        value = value_at(raw, path)
        if path[-1:] == ("type",):  # the error sits on the tag itself
            owner, tag = value_at(raw, path[:-1]), value
        else:  # the error names the whole item, part or tool
            owner, tag = value, value.get("type") if isinstance(value, Mapping) else None
        if not isinstance(owner, Mapping) or err["type"] not in _TYPE_ERRORS:
            continue
        if (
            err["type"] == "namespaced_type"
            and path[:1] in (("input",), ("output",))
            and len(path) in (2, 3)
            and isinstance(tag, str)
            and tag
            and ":" not in tag
        ):  # an un-prefixed unknown item type: named as parse_items names it
            err["type"] = "unknown_item_type"
        hint = openai_type_hint(tag)
        if hint is not None:
            err["msg"] = hint
        elif tag is None and "role" in owner and "shorthand" not in err["msg"]:
            shorthand = " (a {role, content} shorthand message is read only with "
            err["msg"] = Said(err["msg"], shorthand, OPTIONS["provider"], ")")
    return out


def _reference_errors(errors: list[dict[str, Any]], raw: Any, prefix: tuple[Any, ...]) -> list[dict[str, Any]]:
    """An input item without `type` whose only keys are `id` and `type` is an `item_reference`: its
    errors name its `id` (`items.reference_id_problems`), as `parse_item` names them, never its `type`."""
    out: list[dict[str, Any]] = []
    done: set[tuple[Any, ...]] = set()
    for err in errors:
        path = err["loc"][len(prefix) :]
        if len(path) >= 3 and path[0] == "input" and isinstance(path[1], int) and path[2] == "type":
            item = value_at(raw, path[:2])
            reference = reference_id_problems(item) if isinstance(item, Mapping) else None
            if reference:
                at = (*prefix, *path[:2])
                if at not in done:
                    done.add(at)
                    out.extend({**p, "loc": (*at, *p["loc"])} for p in reference)
                continue
        out.append(err)
    return out


# the normalizer's codes for a missing or unknown tag (where the reading to use is worth naming)
_TYPE_ERRORS = frozenset(
    {"namespaced_type", "unknown_item_type", "union_tag_not_found", "union_tag_invalid", "missing"}
)


_SENDABLE_BACK = (*OUTPUT_FORMS, NamespacedBase)


def _input_form_of_outputs(data: dict[str, Any]) -> dict[str, Any]:
    """`CreateResponseBody(input=response.output)`: the output items of a parsed Response (the library's
    models or the `openai` SDK's objects) are written in their input form, as `rp.to_input` writes them
    (reasoning `content`, `output_text` `logprobs` and compaction `created_by` are output-only). Dicts
    and input-form models are left as they are. Raises `ModelError` naming `input.<index>` and what to do
    for an item that has no input form."""
    value = data.get("input")
    if not isinstance(value, list | tuple) or not any(
        isinstance(x, _SENDABLE_BACK) or (isinstance(x, BaseModel) and not isinstance(x, WireModel)) for x in value
    ):
        return data
    out: list[Any] = []
    for i, x in enumerate(value):
        if not isinstance(x, BaseModel) or (isinstance(x, WireModel) and not isinstance(x, _SENDABLE_BACK)):
            out.append(x)
            continue
        try:
            if isinstance(x, WireModel):
                model, provider = x, None
            else:  # an openai SDK output item
                model, provider = parse_item(x, side="output"), "openai"
            out.append(input_form(model, provider, None))  # type: ignore[arg-type]
        except ItemError as exc:
            kind = getattr(x, "type", None) or type(x).__name__
            errors = [
                {
                    "loc": ("input", i, *e["loc"]),
                    "type": e["type"],
                    "msg": f"input item {i} ({kind}) cannot be sent back as input: {e['msg']}; "
                    "convert it with rp.to_input(item) and fix or leave out what it refuses",
                }
                for e in exc.errors
            ]
            raise ModelError.build(errors, "invalid CreateResponseBody") from None
    return {**data, "input": out}


KEYWORD_HOOKS[CreateResponseBody] = _input_form_of_outputs


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
