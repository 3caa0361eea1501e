"""The input form of an output item: what may be sent back in a request's `input`.

`input_form` turns a parsed output item (`Message`, `FunctionCall`, `Reasoning`, `Compaction`, a typed
OpenAI item) into the input form the spec defines for it (Open Responses 2026-04-24, "Items": output
items always carry `id`; input items may omit `id` and `status`), dropping what is output-only:
reasoning `content`, `output_text` `logprobs`, compaction `created_by`, and the fields OpenAI's input
form of a native item does not declare. `rp.to_input` and `CreateResponseBody(input=response.output)`
both use it.
"""

from __future__ import annotations

from typing import Any

from ._base import NamespacedBase, WireModel
from ._native import input_fields
from ._openai_forms import OPENAI_FORMS
from .items import (
    Compaction,
    FunctionCall,
    FunctionCallOutput,
    Item,
    ItemError,
    Message,
    Provider,
    Reasoning,
    dump_item,
    parse_item,
)

__all__ = ["OUTPUT_FORMS", "input_form", "is_message", "reparse_input"]

#: The spec's output-form item models.
OUTPUT_FORMS = (Message, FunctionCall, FunctionCallOutput, Reasoning, Compaction)
_OUTPUT_FORMS = OUTPUT_FORMS


def is_message(model: Any) -> bool:
    """Is `model` a message (output `Message` or any input message form)?"""
    return getattr(model, "type", None) == "message" or (
        isinstance(model, WireModel) and "role" in type(model).model_fields
    )


def reparse_input(data: dict[str, Any], provider: Provider, index: int | None) -> Item:
    """Parse an edited dict as an input item; OpenAI's un-prefixed native parts need OpenAI mode.
    Raises `ItemError` (each `loc` starting with `index` when given)."""
    try:
        try:
            return parse_item(data, side="input", provider=provider)
        except ItemError:
            if provider == "openai":
                raise
            return parse_item(data, side="input", provider="openai")
    except ItemError as exc:
        if index is None:
            raise
        raise ItemError([{**e, "loc": (index, *e["loc"])} for e in exc.errors]) from None


def _drop_logprobs(content: Any) -> Any:
    if not isinstance(content, list):
        return content
    return [
        {k: v for k, v in part.items() if k != "logprobs"}
        if isinstance(part, dict) and part.get("type") == "output_text"
        else part
        for part in content
    ]


def input_form(model: Item, provider: Provider, index: int | None) -> Item:
    """The input form of a parsed item (`model` itself when it already is one); raises `ItemError`
    (with `index` first in each `loc` when given) when it has none."""
    if isinstance(model, OPENAI_FORMS):  # read in OpenAI mode: its input form is OpenAI's too
        provider = "openai"
    if isinstance(model, NamespacedBase):
        keep = input_fields(model)
        if keep is None:
            return model  # an opaque provider item is sent back as it came
        data = dump_item(model)
        if set(data) <= keep:
            return model
        # OpenAI's input form of this item declares fewer fields (no status on custom_tool_call, no created_by)
        return reparse_input({k: v for k, v in data.items() if k in keep}, provider, index)
    if not isinstance(model, _OUTPUT_FORMS):
        if is_message(model) and getattr(model, "role", None) == "assistant":
            data = dump_item(model)
            content = _drop_logprobs(data.get("content"))
            if content != data.get("content"):  # logprobs are output-only, whatever form the message came in
                return reparse_input({**data, "content": content}, provider, index)
        return model  # input forms and item references are already sendable
    data = dump_item(model)
    if isinstance(model, Reasoning):
        data.pop("content", None)  # raw reasoning cannot be sent back; summary and encrypted_content stay
    elif isinstance(model, Compaction):
        data.pop("created_by", None)
    elif isinstance(model, Message) and isinstance(data.get("content"), list):
        data["content"] = _drop_logprobs(data["content"])
    return reparse_input(data, provider, index)
