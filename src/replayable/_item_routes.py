"""The namespaced branch of the item unions, routed by side: a namespaced item whose type has a known
payload (`openai:web_search_call`, or `web_search_call` in OpenAI mode) is read by its own model.

One definition for every union that holds items: `replayable.items`' `InputItem` / `OutputItem` (and
OpenAI mode's) and the generated unions of the request, response, compaction, WebSocket and stream-event
bodies (`schemas/open_responses/items.json` names these aliases by `customTypePath`), so that a malformed
typed item is refused the same way whatever entry point reads it, never kept as an opaque
`NamespacedItem`. Private, beside `_generated` (which imports it); the tables are filled by
`replayable._native` (`ROUTES`), which loads their models on first lookup. Spec: Open Responses
2026-04-24, "Extending items".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import ValidationInfo, ValidatorFunctionWrapHandler, WrapValidator
from pydantic_core import PydanticCustomError

from ._generated.open_responses.namespaced_item import NamespacedItem

__all__ = ["ROUTES", "InputNamespacedItem", "OutputNamespacedItem", "opaque_typed"]

ROUTES: dict[Literal["input", "output"], Mapping[str, type[NamespacedItem]]] = {"input": {}, "output": {}}
"""Side -> namespaced type -> its typed model (`replayable._native.INPUT_TYPES` / `OUTPUT_TYPES`, set there)."""


def _native_problem(t: str) -> str | None:
    """Why an un-prefixed type read in OpenAI mode is none of OpenAI's items, else None: the namespaced
    model's own check (`NamespacedBase.native_problem`, set by `replayable._item_validation`). Unset, every
    such type is refused: this module never accepts a type it was not told is OpenAI's."""
    check = NamespacedItem.native_problem
    return f"unknown item type '{t}'" if check is None else check(t)


def _router(side: Literal["input", "output"]) -> Any:
    """A wrap validator for the namespaced branch of `side`'s union: a namespaced type with a known payload
    (`openai:mcp_call`, or `mcp_call` in OpenAI mode) is read by its own model, so a malformed one is an
    error naming its fields. Only reached once the spec's tagged union has refused the item, so it costs
    nothing on spec items."""

    def route(value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo) -> Any:
        if isinstance(value, dict):  # a dict subclass too, as the namespaced model reads it
            t = dict.get(value, "type")  # what pydantic reads, whatever a subclass's own `get` says
            if isinstance(t, str):
                ctx = info.context
                table = ROUTES[side]
                if ":" in t:
                    model = table.get(t)
                elif isinstance(ctx, dict) and ctx.get("provider") == "openai":
                    model = table.get("openai:" + t)
                    problem = None if model is not None else _native_problem(t)
                    if problem is not None:  # a type OpenAI does not have: never an opaque item
                        raise PydanticCustomError("unknown_item_type", "{msg}", {"msg": problem})
                else:
                    model = None
                if model is not None:
                    return model.__pydantic_validator__.validate_python(value, context=ctx)
        return handler(value)

    return route


InputNamespacedItem: TypeAlias = Annotated[NamespacedItem, WrapValidator(_router("input"))]
"""A provider's own input item (`NamespacedItem`), OpenAI's typed ones read by their own model."""

OutputNamespacedItem: TypeAlias = Annotated[NamespacedItem, WrapValidator(_router("output"))]
"""A provider's own output item (`NamespacedItem`), OpenAI's typed ones read by their own model."""


def opaque_typed(item: Any) -> bool:
    """Whether `item` is a generic `NamespacedItem` (no typed subclass) whose `type` has a typed model
    (`openai:web_search_call`): one built directly (`NamespacedItem.model_validate`, its constructor) never
    went through a union's routed branch, so wherever it is read as an item its JSON is read again, and a
    malformed one is refused as its dict is."""
    if not isinstance(item, NamespacedItem) or type(item).pinned:
        return False
    t = item.__dict__.get("type")
    return isinstance(t, str) and t.startswith("openai:") and (t in ROUTES["input"] or t in ROUTES["output"])
