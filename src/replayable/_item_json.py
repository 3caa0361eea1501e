"""An item's JSON: reading any item value (JSON text, a pydantic model of ours or of the `openai` SDK, a
Python mapping) as the plain JSON value the rules and validators read, and the errors said about an item
before (or instead of) its validation. Private: `replayable.items` and the readers above it use these;
users call `parse_item` and `dump_item`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from ._base import WireModel, is_unchecked
from ._json import MAX_ITEM_DEPTH, JSONError, check_value, is_openai_model, loads, to_plain
from ._messages import said
from ._native import ANNOTATION_TYPES, INPUT_TYPES, OPENAI_TOOL_CHOICE_TYPES, OPENAI_TOOL_TYPES, OUTPUT_TYPES
from ._validation import ItemError

__all__ = ["coerce_sdk", "json_item_error", "openai_type_hint", "plain_json", "reference_id_problems"]


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
    if t in OPENAI_TOOL_TYPES or t in OPENAI_TOOL_CHOICE_TYPES or t.startswith(("web_search_", "web_search_preview_")):
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
