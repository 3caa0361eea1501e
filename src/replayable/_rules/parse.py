"""Reading one item for the rules: parse it (input or output form), report what its own validation
finds (`item_invalid` and the more precise codes), and give its `View` to the cross-item rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replayable._base import SPEC_ITEM_TYPES, WireModel, is_unchecked
from replayable._chat_shapes import CHAT_KEYS, chat_key, chat_shape, nested_call
from replayable._codes import ViolationCode
from replayable._findings import Findings
from replayable._item_json import plain_json
from replayable._item_read import Read, is_item_model
from replayable._item_routes import opaque_typed
from replayable._item_validation import validate_item
from replayable._json import MAX_ITEM_DEPTH, JSONError, check_value, loads, to_plain
from replayable._messages import joined
from replayable._native import INPUT_TYPES
from replayable._pointers import json_pointer
from replayable._rules.view import NO_VIEW, OUTPUT_CALLS, View, sent_in_input_form, view_of
from replayable.items import (
    ITEM_ADAPTERS,
    OPENAI_CONTEXT,
    ItemError,
    Provider,
    Side,
    is_openai_model,
)

__all__ = ["read_item", "recheck_sent_as_is"]


def _code_for(err: Mapping[str, Any], raw: Any) -> ViolationCode:
    loc = err.get("loc", ())
    t = raw.get("type") if isinstance(raw, Mapping) else None
    first = loc[1] if len(loc) > 1 else None
    if err.get("type") in ("unknown_item_type", "namespaced_type", "missing_type", "type_not_string"):
        return ViolationCode.UNKNOWN_ITEM_TYPE if err.get("type") == "unknown_item_type" else ViolationCode.ITEM_INVALID
    if t == "function_call" and first == "arguments":
        return ViolationCode.FUNCTION_ARGUMENTS_NOT_STRING
    if t == "function_call_output" and first == "output":
        return ViolationCode.OUTPUT_NOT_STRING_OR_CONTENT_PARTS
    if t == "reasoning" and first == "summary":
        return ViolationCode.REASONING_MISSING_SUMMARY if err.get("type") == "missing" else ViolationCode.ITEM_INVALID
    return ViolationCode.ITEM_INVALID


def recheck_sent_as_is(items: list[Any], indexes: list[int], provider: Provider, out: Findings) -> None:
    """Check the input form of the parsed output-form calls `items[i]` for `i` in `indexes` (they are
    replayed as they are, so the input rules hold: a `call_id` of 1-64 characters, ...), adding their
    findings to `out` exactly as `read_item` does. All are validated in one batch; only when that batch
    fails is each read again on its own, for its findings."""
    for i in indexes:  # a provider's typed item (`sent_in_input_form`): rare, each read alone
        if not isinstance(items[i], OUTPUT_CALLS):
            _recheck_one(i, items[i], provider, out)
    indexes = [i for i in indexes if isinstance(items[i], OUTPUT_CALLS)]
    if not indexes:
        return
    dumps = [items[i].model_dump(mode="json", by_alias=True, exclude_unset=True) for i in indexes]
    many = ITEM_ADAPTERS[("input", provider == "openai")][1]
    try:
        many.validator.validate_python(dumps, context=OPENAI_CONTEXT if provider == "openai" else None)
        return
    except Exception:  # at least one breaks an input rule: each is read alone below, for its own findings
        pass
    for i, data in zip(indexes, dumps, strict=True):
        try:
            validate_item(data, "input", provider, i)
        except ItemError as exc:
            _report_item_errors(i, items[i], exc.errors, out)


def _recheck_one(i: int, item: Any, provider: Provider, out: Findings) -> None:
    """Check the input form of one parsed item sent back as it is, adding its findings to `out`. A
    provider's typed item is read in OpenAI mode, which reads its type prefixed or as OpenAI spells it."""
    if not isinstance(item, OUTPUT_CALLS):
        provider = "openai"
    try:
        validate_item(item.model_dump(mode="json", by_alias=True, exclude_unset=True), "input", provider, i)
    except ItemError as exc:
        _report_item_errors(i, item, exc.errors, out)


def read_item(
    i: int, raw: Any, side: Side | None, provider: Provider, out: Findings, *, text: bool = True
) -> tuple[Any, View]:
    """Parse item `i`, add its own findings to `out`, and return (model or None, its view). An item read
    already (`replayable._item_read.Read`) is not validated again: its model is read as it is, and an item
    that did not parse is read alone from its JSON value, for its findings. `text`: whether an item given
    as JSON text is read (a JSONL line, a Python list of texts); an item that is a JSON value already (read
    from a document or a file, or a `Read`) is never read a second time, so a string there is a string.
    Text is read once: a text holding a JSON string is that string, not an item."""
    if type(raw) is Read:
        raw = raw.value if raw.model is None else raw.model
        text = False
    if type(raw) is not dict and not isinstance(raw, WireModel | Mapping) and is_openai_model(raw):
        try:  # an openai SDK object: its JSON is what is checked, in OpenAI mode (the reader's reading)
            raw = plain_json(raw)
        except ItemError as exc:
            why = exc.errors[0]["msg"] if exc.errors else str(exc)
            out.at(i, ViolationCode.ITEM_INVALID, "", variant="sdk_not_json", detail=why)
            return None, NO_VIEW
        provider = "openai"
    if text and isinstance(raw, str | bytes | bytearray | memoryview):  # a JSONL line: its rules see the object
        try:
            raw = loads(raw.tobytes() if isinstance(raw, memoryview) else raw, what="item", max_depth=MAX_ITEM_DEPTH)
        except JSONError:
            pass  # reported by `validate_item` below, with the item's index
        else:
            text = False
    if not text and isinstance(raw, str | bytes | bytearray | memoryview):  # a JSON string, never read again
        error = {"loc": (i,), "type": "item_type", "msg": f"an item must be a JSON object, got {type(raw).__name__}"}
        _report_item_errors(i, raw, [error], out)
        return None, NO_VIEW
    if isinstance(raw, WireModel) and (is_unchecked(raw) or not is_item_model(raw, side) or opaque_typed(raw)):
        # it skipped validation, is no item model (a request body, a stream event), is of the other side
        # than the one asked, or is a typed item held by the generic model: its JSON is what is checked, as an
        # item's would be
        try:
            raw = to_plain(raw)
        except JSONError as exc:
            out.at(i, ViolationCode.ITEM_INVALID, "", variant="not_json", detail=exc.detail, reason=exc.reason)
            return None, NO_VIEW
    if isinstance(raw, Mapping) and type(raw) is not dict:  # read once: every rule sees the same copy
        try:
            raw = check_value(raw, what="item", max_depth=MAX_ITEM_DEPTH)
        except JSONError as exc:  # not JSON: refused, and no rule reads it a second time
            out.at(i, ViolationCode.ITEM_INVALID, "", variant="not_json", detail=exc.detail, reason=exc.reason)
            return None, NO_VIEW
    if isinstance(raw, WireModel):
        extra = raw.__pydantic_extra__
        if not extra or extra.keys().isdisjoint(CHAT_KEYS):
            if side is None and (isinstance(raw, OUTPUT_CALLS) or sent_in_input_form(type(raw))):
                _recheck_one(i, raw, provider, out)  # sent back as it is: the input rules hold
            view = view_of(raw)
            j = nested_call(view)  # a namespaced item's opaque content holding a call: as for its JSON
            if j is not None:
                part = view["content"][j]
                out.at(i, ViolationCode.FUNCTION_CALL_IN_CONTENT, f"/content/{j}", part=j, part_type=part.get("type"))
                return None, view
            return raw, view
        try:  # a Chat Completions key among its unknown fields: its JSON is checked, as the reader does
            raw = to_plain(raw)
        except JSONError as exc:
            out.at(i, ViolationCode.ITEM_INVALID, "", variant="not_json", detail=exc.detail, reason=exc.reason)
            return None, NO_VIEW
    if isinstance(raw, Mapping):
        shape = chat_shape(raw)
        if shape is not None:
            out.at(i, ViolationCode.CHAT_COMPLETIONS_ENVELOPE, f"/{chat_key(raw)}", shape=shape)
            return None, view_of(raw)
        j = nested_call(raw)
        if j is not None:
            out.at(
                i,
                ViolationCode.FUNCTION_CALL_IN_CONTENT,
                f"/content/{j}",
                part=j,
                part_type=raw["content"][j].get("type"),
            )
            return None, view_of(raw)
    model, errors = _parse_either(raw, side, provider, i)
    if model is not None:
        return model, view_of(model)
    if type(raw) is dict:  # a Python value that is not JSON (NaN, bytes, ...): unreadable, as its JSONL line is
        try:
            check_value(raw, what="item", max_depth=MAX_ITEM_DEPTH)
        except JSONError as exc:
            out.at(i, ViolationCode.ITEM_INVALID, "", variant="not_json", detail=exc.detail, reason=exc.reason)
            return None, NO_VIEW
    _report_item_errors(i, raw, errors, out)
    return None, (view_of(raw) if isinstance(raw, Mapping) else NO_VIEW)


def _report_item_errors(i: int, raw: Any, errors: list[dict[str, Any]], out: Findings) -> None:
    """One finding per rule an item that does not parse breaks, naming every offending field."""
    grouped: dict[ViolationCode, list[dict[str, Any]]] = {}
    for err in errors:
        grouped.setdefault(_code_for(err, raw), []).append(err)
    for code, errs in grouped.items():  # one finding per rule, naming every offending field
        path = json_pointer(errs[0]["loc"][1:])
        parts = [
            e["msg"] + (f" at {json_pointer(e['loc'][1:])}" if len(e["loc"]) > 1 else "") + f" [{e['type']}]"
            for e in errs[:5]
        ]
        detail = joined("; ", parts)  # a message naming an option (`errors.Said`) stays one: each door spells it
        if len(errs) > 5:
            detail += f"; and {len(errs) - 5} more"
        out.at(i, code, path, detail=detail)


_SENT_AS_IS = frozenset({"function_call", "function_call_output"})


def _typed_input(t: str, provider: Provider) -> bool:
    """Whether `t` is a provider item with a typed input form (`openai:additional_tools`,
    `openai:configuration_update`; un-prefixed in OpenAI mode): sent back as it is, its input form's rules
    hold (`additional_tools`' `role` is `developer`), as `parse_request` reads it. Its output form, or the
    opaque `NamespacedItem` of an input-only type, would pass what the request refuses."""
    if ":" not in t:
        if provider != "openai" or t in SPEC_ITEM_TYPES:
            return False  # a spec type (or strict mode's unknown one): no OpenAI table is loaded for it
        t = "openai:" + t
    return t in INPUT_TYPES


def _parse_either(raw: Any, side: Side | None, provider: Provider, index: int) -> tuple[Any, list[dict[str, Any]]]:
    sides: tuple[Side, ...] = (side,) if side is not None else ("input", "output")
    t = raw.get("type") if side is None and isinstance(raw, Mapping) else None
    if isinstance(t, str) and (t in _SENT_AS_IS or _typed_input(t, provider)):
        sides = ("input",)  # replayed as they are: the input rules (call_id 1-64 characters, ...) hold
    first_errors: list[dict[str, Any]] | None = None
    for s in sides:
        try:
            return validate_item(raw, s, provider, index), []
        except ItemError as exc:
            if first_errors is None:
                first_errors = exc.errors
    return None, first_errors or []
