"""The response object of `POST /responses` (and `/responses/compact`), typed end to end.

`Response` is the spec's `ResponseResource`: `output` holds our output items (`Message`, `FunctionCall`,
..., `NamespacedItem`), and `usage`, `error`, `incomplete_details`, `tools`, `tool_choice`, `text` and
`reasoning` are models too. `parse_response(data, provider=None)` reads one from a dict, JSON text or
bytes, or an `openai` SDK `Response` (which implies OpenAI mode).

Strict Open Responses by default: all 31 keys present (nullable ones as null). With `provider="openai"`
the keys OpenAI leaves out are optional (every key but `id`, `object`, `created_at`, `model`, `output`,
`parallel_tool_calls`, `tool_choice` and `tools`, as in the `openai` SDK's `Response`): the result is an
`OpenAIResponse`, where an absent key reads as None (its annotation says `| None`) and is not dumped;
OpenAI's native items, tools and tool choices are `openai:` namespaced models, `json_object` /
`json_schema` formats may omit `description` and `strict`, and reasoning
`effort` / `summary` are any string. Either way the response dumps back exactly as it was read.

`parse_compact_response` reads the `response.compaction` object of `POST /responses/compact`
(`CompactResource`). Spec: Open Responses 2026-04-24, `ResponseResource`, `CompactResource`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeAlias, overload

from pydantic import Field

from ._body_validation import validate_body
from ._generated.open_responses.compact_resource import CompactResource
from ._generated.open_responses.incomplete_details import IncompleteDetails
from ._generated.open_responses.json_object_format import JsonObjectFormat
from ._generated.open_responses.json_schema_format import JsonSchemaFormat
from ._generated.open_responses.namespaced_tool import NamespacedTool
from ._generated.open_responses.reasoning_config import ReasoningConfig
from ._generated.open_responses.response import Response
from ._generated.open_responses.response_error import ResponseError
from ._generated.open_responses.text_field import TextField
from ._generated.open_responses.text_format import TextFormat
from ._generated.open_responses.usage import InputTokensDetails, OutputTokensDetails, Usage
from ._openai_forms import OpenAIFunctionTool
from .items import ItemError, OpenAIOutputItem, Provider

__all__ = [
    "CompactResource",
    "IncompleteDetails",
    "InputTokensDetails",
    "OpenAIJsonSchemaFormat",
    "OpenAIReasoningConfig",
    "OpenAIResponse",
    "OpenAITextField",
    "OpenAITextFormat",
    "OutputTokensDetails",
    "Response",
    "ResponseError",
    "Usage",
    "dump_response",
    "parse_compact_response",
    "parse_response",
]


# ---- OpenAI mode: the keys OpenAI leaves out are optional (the same fields, wider types) ----


class OpenAIReasoningConfig(ReasoningConfig):
    """OpenAI's reasoning echo: `effort` and `summary` may be absent (read as None) and hold any string."""

    effort: str | None = None  # type: ignore[assignment]
    summary: str | None = None  # type: ignore[assignment]


class OpenAIJsonSchemaFormat(JsonSchemaFormat):
    """OpenAI's `json_schema` echo: `description` and `strict` may be absent (read as None)."""

    description: str | None = None
    strict: bool | None = None  # type: ignore[assignment]


OpenAITextFormat: TypeAlias = Annotated[
    TextFormat | JsonObjectFormat | OpenAIJsonSchemaFormat, Field(discriminator="type")
]
"""A text format as OpenAI echoes it: `text`, `json_object` or `json_schema`."""


class OpenAITextField(TextField):
    """OpenAI's text echo: `format` may be absent (read as None), `verbosity` any string or null."""

    format: OpenAITextFormat | None = None  # type: ignore[assignment]
    verbosity: str | None = None  # type: ignore[assignment]


class OpenAIResponse(Response):
    """A response as OpenAI sends it (`parse_response(..., provider="openai")`): the keys OpenAI leaves out
    read as None, and each field's annotation says so (`usage: Usage | None`); a key left out is not
    dumped, so the response dumps back exactly as it was read."""

    output: list[OpenAIOutputItem]  # type: ignore[assignment]  # OpenAI's nulls (replayable._openai_forms)
    tools: list[OpenAIFunctionTool | NamespacedTool]  # type: ignore[assignment]  # the SDK's FunctionTool
    created_at: int | float  # type: ignore[assignment]  # the SDK's Response holds a float
    completed_at: int | float | None = None  # type: ignore[assignment]
    status: str | None = None  # type: ignore[assignment]
    incomplete_details: IncompleteDetails | None = None
    previous_response_id: str | None = None
    instructions: str | list[Any] | None = None  # type: ignore[assignment]
    error: ResponseError | None = None
    truncation: str | None = None  # type: ignore[assignment]
    text: OpenAITextField | None = None  # type: ignore[assignment]
    top_p: float | None = None  # type: ignore[assignment]
    presence_penalty: float | None = None  # type: ignore[assignment]
    frequency_penalty: float | None = None  # type: ignore[assignment]
    top_logprobs: int | None = None  # type: ignore[assignment]
    temperature: float | None = None  # type: ignore[assignment]
    reasoning: OpenAIReasoningConfig | None = None
    usage: Usage | None = None
    max_output_tokens: int | None = None
    max_tool_calls: int | None = None
    store: bool | None = None  # type: ignore[assignment]
    background: bool | None = None  # type: ignore[assignment]
    service_tier: str | None = None  # type: ignore[assignment]
    metadata: dict[str, Any] | None = None
    safety_identifier: str | None = None
    prompt_cache_key: str | None = None


class _OpenAICompactResource(CompactResource):
    """A compaction response as OpenAI sends it: its output items read in OpenAI mode."""

    output: list[OpenAIOutputItem]  # type: ignore[assignment]


@overload
def parse_response(data: Any, *, provider: Literal["openai"]) -> OpenAIResponse: ...
@overload
def parse_response(data: Any, *, provider: None = None) -> Response: ...
@overload
def parse_response(data: Any, *, provider: Provider = None) -> Response: ...
def parse_response(data: Any, *, provider: Provider = None) -> Response:
    """Parse a whole response object (`object: "response"`).

    `data` is a JSON object as a dict, JSON text or bytes, an `openai` SDK `Response` (implies
    `provider="openai"`), or a `Response` (returned as is). Returns a `Response` whose `output` holds
    parsed output items; with `provider="openai"` an `OpenAIResponse` (a `Response` subclass) in which
    the keys OpenAI leaves out read as None, as its annotations say (see the module docstring). Dumps
    back exactly (`dump_response`).

    Raises `ItemError` whose `.errors` name each bad field by path (`("output", 2, "arguments")`,
    `("usage", "total_tokens")`) and rule; a `response.compaction` object is refused with a pointer to
    `parse_compact_response`. Spec: `ResponseResource`.
    """
    _refuse_other_object(data, "response", "parse_compact_response")
    resp: Response = validate_body(data, Response, OpenAIResponse, provider, "response")
    return resp


def parse_compact_response(data: Any, *, provider: Provider = None) -> CompactResource:
    """Parse the `response.compaction` object returned by `POST /responses/compact` (`id`, `object`,
    `output`, `created_at`, `usage`); see `parse_response` for the forms read and errors raised.
    Spec: `CompactResource`."""
    _refuse_other_object(data, "response.compaction", "parse_response")
    resp: CompactResource = validate_body(
        data, CompactResource, _OpenAICompactResource, provider, "compaction response"
    )
    return resp


def _refuse_other_object(data: Any, want: str, other: str) -> None:
    obj = data.get("object") if isinstance(data, dict) else getattr(data, "object", None)
    if isinstance(obj, str) and obj != want and obj in ("response", "response.compaction"):
        raise ItemError(
            [{"loc": ("object",), "type": "literal_error", "msg": f"a {obj!r} object: read it with {other}"}],
            title="invalid response",
        )


def dump_response(resp: Response | CompactResource) -> dict[str, Any]:
    """The response as a JSON object, exactly as it was read or built (`model_dump(mode="json",
    exclude_unset=True)`). Raises `ItemError` when `resp` is not a response model."""
    if not isinstance(resp, Response | CompactResource):
        raise ItemError([{"loc": (), "type": "model_type", "msg": f"expected a response, got {type(resp).__name__}"}])
    return resp.model_dump(mode="json", by_alias=True, exclude_unset=True)
