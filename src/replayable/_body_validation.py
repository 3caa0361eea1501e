"""A request body, a response or a WebSocket event read into its model: the one body reader behind
`parse_request`, `parse_response` and `replayable.websocket` (`validate_body`), and pydantic's errors for
a body as the library's (`clean_body_errors`). Private: users call `parse_request` and `parse_response`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from ._base import WireModel, changed_since_read, checked_provider, is_unchecked
from ._chat_shapes import refuse_chat_completions_body
from ._item_json import coerce_sdk, json_item_error, openai_type_hint, plain_json, reference_id_problems
from ._json import JSONError, check_value, is_openai_model, loads, to_plain
from ._messages import OPTIONS, Said, said
from ._validation import clean_errors, value_at
from .items import MAX_ITEM_DEPTH, OPENAI_CONTEXT, ItemError, Provider

__all__ = ["MAX_BODY_DEPTH", "clean_body_errors", "models_as_json", "validate_body"]

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
    read = None  # the value the strict reader gave: already JSON within MAX_BODY_DEPTH, as check_value asks
    if isinstance(data, str | bytes | bytearray | memoryview):  # the one strict reader (replayable._json)
        try:
            data = read = loads(data, what=what, max_depth=MAX_BODY_DEPTH)
        except JSONError as exc:
            raise ItemError(json_item_error(exc).errors, title=title) from None
    data, from_sdk = coerce_sdk(data)
    if isinstance(data, WireModel):
        if isinstance(data, strict_model) and not is_unchecked(data) and not changed_since_read(data):
            return data
        if openai_model is not strict_model and isinstance(data, openai_model):
            from_sdk = True  # OpenAI mode's own body that skipped validation: read again as OpenAI's
        try:  # another body's model, or one that skipped validation (`model_construct`): read its JSON
            data = to_plain(data)
        except JSONError as exc:
            raise ItemError(json_item_error(exc, text=False).errors, title=title) from None
    if from_sdk:
        provider = "openai"
    model = openai_model if provider == "openai" else strict_model
    if not isinstance(data, Mapping):
        got = "null" if data is None else type(data).__name__
        raise ItemError([{"loc": (), "type": "model_type", "msg": f"a {what} must be a JSON object, got {got}"}], title)
    if data is not read:  # `loads` checks what `check_value` does, by the same rules and depth: not walked twice
        data, held_sdk = models_as_json(data, title)
        if held_sdk:  # an SDK object read as its JSON implies OpenAI mode, as a whole SDK body does
            provider, model = "openai", openai_model
        try:
            data = check_value(data, what=what, max_depth=MAX_BODY_DEPTH)
        except JSONError as exc:
            raise ItemError(json_item_error(exc, text=False).errors, title=title) from None
    if what.endswith("request body"):
        refuse_chat_completions_body(data)
    try:
        return _adapter(model).validate_python(data, context=OPENAI_CONTEXT if provider == "openai" else None)
    except ValidationError as exc:
        errors = clean_body_errors(exc, data, provider=provider)
        # OpenAI's keys (extra) or its response without the spec's required keys (missing), and nothing else:
        # the title names the OpenAI reading (the errors stay exactly the strict reading's)
        odd_keys = all(e["type"] in ("extra_forbidden", "missing") for e in errors)
        if provider != "openai" and odd_keys and _reads_as_openai(openai_model, data):
            title = said(
                "{title}; it reads as OpenAI's {what}: parse it with {option:provider}", title=title, what=what
            )
        raise ItemError(errors, title=title) from None


def models_as_json(data: Mapping[str, Any], title: str) -> tuple[Mapping[str, Any], bool]:
    """A body given as a `Mapping`, with each model it holds as a field's value or as an element of a
    field's list (a parsed item in `input`, a tool, a `tool_choice`) read as its JSON, as
    `check_transcript` reads the same body. Returns the body (itself when it holds no model) and whether
    any of them is an `openai` SDK object. Raises `ItemError` at the model's path (`("input", 0)`) when one
    has no JSON form."""
    out: dict[str, Any] | None = None
    sdk = False
    for key, value in data.items():
        if isinstance(value, BaseModel):
            new: Any = _as_json(value, (key,), title)
            sdk = sdk or is_openai_model(value)
        elif isinstance(value, list) and any(issubclass(kind, BaseModel) for kind in set(map(type, value))):
            new = [_as_json(x, (key, n), title) if isinstance(x, BaseModel) else x for n, x in enumerate(value)]
            sdk = sdk or any(is_openai_model(x) for x in value)
        else:
            continue
        if out is None:
            out = dict(data.items())  # read as `check_value` reads a mapping: by its items
        out[key] = new
    return (data if out is None else out), sdk


def _as_json(model: BaseModel, loc: tuple[Any, ...], title: str) -> Any:
    """One model a body holds at `loc` as its JSON (`plain_json`), an error naming where it is."""
    try:
        return plain_json(model, "value", max_depth=MAX_BODY_DEPTH - len(loc))
    except ItemError as exc:
        raise ItemError([{**e, "loc": (*loc, *e.get("loc", ()))} for e in exc.errors], title=title) from None


def _reads_as_openai(openai_model: type[WireModel], data: Any) -> bool:
    """Does a body the strict reading refused read as OpenAI's? (Then the error names provider='openai'.)"""
    try:
        _adapter(openai_model).validate_python(data, context=OPENAI_CONTEXT)
    except ValidationError:
        return False
    return True


def clean_body_errors(
    exc: ValidationError, raw: Any, prefix: tuple[Any, ...] = (), *, provider: Provider = None
) -> list[dict[str, Any]]:
    """pydantic's errors for a body as the library's (`replayable._validation.clean_errors`, the one
    normalizer): each `loc` a plain path of field names and list indexes into `raw`. Read strictly, an
    un-prefixed type that is one of OpenAI's own gets the message naming `provider='openai'` (never a
    renamed `slug:name`; read with it, the error's own message stands), and a `{role, content}` message
    without `type` says the shorthand needs OpenAI mode."""
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
        hint = openai_type_hint(tag) if provider != "openai" else None
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
