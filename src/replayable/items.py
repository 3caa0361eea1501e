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
from typing import TYPE_CHECKING, Any, Literal, overload

from pydantic import (
    BaseModel,
    TypeAdapter,
    ValidationError,
)

from ._base import WireModel, checked_provider, is_unchecked
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
from ._item_json import json_item_error
from ._json import (
    MAX_ITEM_DEPTH,
    ContainerBudget,
    JSONError,
    check_value,
    exact_text,
    iter_jsonl,
    loads_lines,
    may_overflow,
    text_over_budget,
)
from ._json import is_openai_model as is_openai_model  # re-exported: stream and interop read it here
from ._json_array import iter_array
from ._model_slots import share_empty_extras
from ._validation import ItemError

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
    "ItemReferenceParam",
    "MAX_ITEM_DEPTH",
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
from . import _item_validation
from ._item_validation import (
    ITEM_ADAPTERS as ITEM_ADAPTERS,
)
from ._item_validation import (
    OPENAI_CONTEXT as OPENAI_CONTEXT,
)
from ._item_validation import (
    SPEC_MEMBERS as SPEC_MEMBERS,
)
from ._item_validation import (
    InputItem as InputItem,
)
from ._item_validation import (
    InputMessage as InputMessage,
)
from ._item_validation import (
    Item as Item,
)
from ._item_validation import (
    OutputItem as OutputItem,
)
from ._item_validation import (
    Provider as Provider,
)
from ._item_validation import (
    Side as Side,
)
from ._item_validation import (
    input_item_adapter as input_item_adapter,
)
from ._item_validation import (
    input_items_adapter as input_items_adapter,
)
from ._item_validation import (
    output_item_adapter as output_item_adapter,
)
from ._item_validation import (
    output_items_adapter as output_items_adapter,
)
from ._item_validation import (
    union_members,
    validate_item,
)

if TYPE_CHECKING:
    from ._item_validation import OpenAIInputItem as OpenAIInputItem
    from ._item_validation import OpenAIOutputItem as OpenAIOutputItem


def __getattr__(name: str) -> Any:
    """OpenAI mode's unions (`OpenAIInputItem`, `OpenAIOutputItem`: `_item_validation.openai_unions`), which
    load OpenAI mode's models, are made when first asked for (the request, response and WebSocket bodies)."""
    if name in ("OpenAIInputItem", "OpenAIOutputItem"):
        value = getattr(_item_validation, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _check_side(side: Any, provider: Any) -> None:
    if side not in ("input", "output"):
        raise ValueError(f"side must be 'input' or 'output', got {side!r}")
    checked_provider(provider)


_SIDE_MODELS: dict[str, tuple[type, ...]] = {"input": union_members(InputItem), "output": union_members(OutputItem)}
#: The item models of each side, strict or OpenAI mode: no other model (a body, an event) is an item.
#: OpenAI mode's models (`replayable._openai_forms`) each subclass the spec model of their side they widen,
#: so `isinstance` / `issubclass` against these holds for them too (tests/contracts/test_lazy_imports.py).
SIDE_ITEM_MODELS: dict[str, tuple[type, ...]] = _SIDE_MODELS
ITEM_MODELS: tuple[type, ...] = tuple(dict.fromkeys(SIDE_ITEM_MODELS["input"] + SIDE_ITEM_MODELS["output"]))


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

    JSON text and Python values are read by the one strict reader (docs/strict-json.md): a duplicate key,
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
    by the one strict reader (docs/strict-json.md): duplicate keys, `NaN`/`Infinity` and numbers that
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
        data = exact_text(data)  # a str or bytes subclass read as its own characters, whatever it overrides
        first = _first_char(data)
        if first == "[" or first == "{":
            try:  # an array may nest one level deeper than its items (the reader enforces it); JSONL lines not
                pieces = (
                    iter_array(data, what="items", max_depth=MAX_ITEM_DEPTH + 1)
                    if first == "["
                    else _jsonl_pieces(data)
                )
                done, rest = _validate_pieces(many, pieces, ctx)
            except JSONError as exc:
                raise json_item_error(exc) from None
            if rest is None:
                return done
            raw, start = rest, len(done)
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
        if plain is not None:  # a chunk at a time, as a JSON array's items (the values themselves stay the caller's)
            done, start = _validate_releasing(many, plain, ctx)
            if start == len(plain):
                return done
            del plain
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


def _jsonl_pieces(data: str | bytes | bytearray | memoryview) -> Iterator[list[Any]]:
    """The values of a JSONL text, as `iter_jsonl` reads them (blank lines skipped, one BOM at the very
    start, a trailing `\r` dropped), a chunk of lines at a time: read in batches (`loads_lines`; the
    whole-text number filter run once) when that is possible; otherwise, or from the first line that needs
    a closer look, line by line with `iter_jsonl` and its exact errors (`ItemError` whose `loc` is the index
    among non-blank lines; the values already yielded are not yielded again)."""
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
        del text
    yielded = 0
    if lines is not None and not may_overflow(b"\n".join(lines)):
        for start in range(0, len(lines), _CHUNK):
            values = loads_lines(lines[start : start + _CHUNK], numbers_checked=True)
            if values is None:
                break
            yielded += len(values)
            yield values
            del values
        else:
            return
    values = []
    try:
        for _, value in iter_jsonl(raw, what="line"):
            values.append(value)
    except JSONError as exc:
        raise json_item_error(exc, (len(values),), full=True) from None
    yield values[yielded:]


# Items validated per call: a chunk's dicts are still in the CPU cache when validated, and the objects a
# chunk frees (its dicts) are few enough to be counted off the collector's young generation before it
# runs (benchmarks/README.md, issue 36).
_CHUNK = 64
_NONES: list[None] = [None] * _CHUNK


def _validate_pieces(
    many: TypeAdapter[Any], pieces: Iterator[list[Any]], ctx: Any
) -> tuple[list[Any], list[Any] | None]:
    """Validate the items of a text as the strict reader reads it, a piece at a time (a JSON array's
    pieces, `replayable._json_array.iter_array`; JSONL's chunks of lines, `_jsonl_pieces`): each piece's
    dicts are validated while still in the CPU cache and dropped before the next piece is read, so the
    dicts of a large text are never all held. Returns the items and None when every item validated;
    otherwise the items of the chunks that did and the text's values with `None` in their place (the rest
    still to read item by item). Raises what the reader raises."""
    done: list[Any] = []
    for values in pieces:
        models, start = _validate_releasing(many, values, ctx)
        done += models
        if start < len(values):  # reported item by item: the rest of the text is read first (its own errors)
            rest: list[Any] = [None] * len(done)
            rest += values[start:]
            del values
            for more in pieces:
                rest += more
            return done, rest
    return done, None


def _validate_releasing(many: TypeAdapter[Any], raw: list[Any], ctx: Any) -> tuple[list[Any], int]:
    """Validate the dicts of a JSON array just read (`raw`, which nobody else holds) a chunk at a time,
    dropping each chunk's dicts once its items exist: the plain values and the items of a large array
    are then never all held at once. The items hold no fields set of their own (their classes tell it by
    their values: `replayable._model_slots.derives_fields_set`), and those holding no unknown field share
    one read-only empty `model_extra` (`replayable._model_slots.share_empty_extras`). Returns the items of the chunks
    that validated and the index where the first chunk that did not starts (`len(raw)` when all did);
    `raw` keeps the items from there on."""
    done: list[Any] = []
    n = len(raw)
    for start in range(0, n, _CHUNK):
        end = min(start + _CHUNK, n)
        try:
            chunk = many.validate_python(raw[start:end], context=ctx)
        except ValidationError:
            return done, start
        raw[start:end] = _NONES[: end - start]
        share_empty_extras(chunk)
        done.extend(chunk)
    return done, n


def dump_item(item: Any) -> dict[str, Any]:
    """Dump a parsed item to a JSON-ready dict, exactly as it was read.

    Unknown fields are kept, explicit `null`s stay, nothing the input did not have is added, and
    OpenAI's native types and shorthand messages come back in their original form. Raises `ItemError`
    when `item` is not one of our models, and when it holds a value its JSON cannot (what
    `model_construct` or `model_copy(update=...)` may put in: an object where a string belongs, NaN,
    bytes, ...): nothing is coerced on the way out."""
    if not isinstance(item, ITEM_MODELS) or not isinstance(item, BaseModel):  # only our item models
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
