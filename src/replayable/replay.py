"""Replay rules: `gate` one function call before executing it, `check_transcript` before replaying a
list of items, and `check_tool` for the closed-object rules of strict tools.

Per-item rules live in the schemas (and so in the models); the rules here span items: a
`function_call_output` answers an earlier completed `function_call` with the same `call_id`, calls are
answered before the conversation moves on, `incomplete` is terminal, ids are unique, reasoning is
followed by what it produced, and provider items stay with their provider. Spec: Open Responses
2026-04-24, "Items are state machines", "Tool calling", "Extending items".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from pydantic import BaseModel
from pydantic.experimental.missing_sentinel import MISSING

from ._base import NamespacedBase, WireModel, has_unchecked, is_unchecked, read_field
from ._generated.open_responses.function_call import FunctionCall
from ._generated.open_responses.function_call_output import FunctionCallOutput
from ._json import MAX_ITEM_DEPTH, JSONError, check_value, loads, printable, to_plain
from .arguments import (
    ArgumentsError,
    SchemaError,
    _pointer,
    compile_schema,
    json_syntax_error,
    object_failure,
    parse_arguments,
    schema_failures,
)
from .call_gate import GateReason, GateResult, allowed_tool_names, gate
from .continuation import unwrap
from .errors import Verdict
from .families import CallFamily, by_call_type, by_output_type, program_call_waiting
from .items import ItemError, Provider, Side, _gc_paused, _validate_one, is_openai_model, plain_json
from .notes import Note, identifier_notes
from .profiles import TargetCheck, check_target
from .reading import Document, read_document
from .strict_schema import strict_findings
from .tools import ToolKind, ToolSpec, read_tool, tool_index, tool_json

__all__ = [
    "GateReason",
    "GateResult",
    "TranscriptReport",
    "Violation",
    "ViolationCode",
    "check_stream",
    "check_tool",
    "check_transcript",
    "foreign_state",
    "gate",
    "infer_source",
]


_FUNCTION = by_call_type["function_call"]


class ViolationCode(StrEnum):
    """Stable codes of transcript and tool violations."""

    ITEM_INVALID = "item_invalid"
    """The item does not parse (a field has the wrong type, a required field is missing, ...)."""
    UNKNOWN_ITEM_TYPE = "unknown_item_type"
    """An un-prefixed `type` that the spec does not define (extensions must be `slug:name`)."""
    FUNCTION_ARGUMENTS_NOT_STRING = "function_arguments_not_string"
    """`function_call.arguments` is not a JSON string (often an object that was not serialized)."""
    OUTPUT_NOT_STRING_OR_CONTENT_PARTS = "output_not_string_or_content_parts"
    """`function_call_output.output` is neither a string nor a list of content parts."""
    REASONING_MISSING_SUMMARY = "reasoning_missing_summary"
    """A reasoning item without `summary` (required even when empty)."""
    CHAT_COMPLETIONS_ENVELOPE = "chat_completions_envelope"
    """A Chat Completions shape (`tool_calls`, `role: "tool"`, `tool_call_id`, `role: "function"`)."""
    FUNCTION_CALL_IN_CONTENT = "function_call_in_content"
    """A function call nested inside a message's content instead of being its own item."""
    OUTPUT_WITHOUT_FUNCTION_CALL = "output_without_function_call"
    """A `function_call_output` whose `call_id` answers no earlier `function_call`."""
    FUNCTION_CALL_WITHOUT_OUTPUT = "function_call_without_output"
    """A call left unanswered once the conversation moved on (or at the end, unless `pending_ok`)."""
    DUPLICATE_CALL_ID = "duplicate_call_id"
    """Two function calls with the same `call_id`."""
    DUPLICATE_OUTPUT = "duplicate_output"
    """A second `function_call_output` for one call."""
    INCOMPLETE_CALL_REPLAYED = "incomplete_call_replayed"
    """A call whose status is `incomplete` (cut off; its arguments may be truncated)."""
    IN_PROGRESS_CALL_REPLAYED = "in_progress_call_replayed"
    """A call whose status is `in_progress` (not finished)."""
    OUTPUT_FOR_UNFINISHED_CALL = "output_for_unfinished_call"
    """An output answering an `in_progress` or `incomplete` call."""
    INCOMPLETE_NOT_LAST = "incomplete_not_last"
    """In one response's output, an `incomplete` item that is not the last item."""
    RESPONSE_NOT_INCOMPLETE = "response_not_incomplete"
    """A response whose last output item is `incomplete` but whose own `status` is not `incomplete`."""
    DUPLICATE_ITEM_ID = "duplicate_item_id"
    """Two items with the same `id`."""
    REASONING_WITHOUT_FOLLOWING_ITEM = "reasoning_without_following_item"
    """A reasoning item with an `id` not immediately followed by an item with an `id`."""
    FOREIGN_EXTENSION_ITEM = "foreign_extension_item"
    """A namespaced item of a provider other than the replay target."""
    FOREIGN_PROVIDER_STATE = "foreign_provider_state"
    """Reasoning `encrypted_content` or a compaction item written by a provider other than the target."""
    SAFETY_CHECK_NOT_ACKNOWLEDGED = "safety_check_not_acknowledged"
    """A computer_call_output that does not acknowledge every pending safety check of its call."""
    UNKNOWN_TOOL = "unknown_tool"
    """A call to a tool that is not in `tools`."""
    TOOL_NOT_ALLOWED = "tool_not_allowed"
    """A call to a tool outside `allowed_tools`."""
    ARGUMENTS_PARSE = "arguments_parse"
    """Arguments are not strict JSON."""
    ARGUMENTS_SCHEMA = "arguments_schema"
    """Arguments fail the tool's `parameters` schema."""
    INVALID_TOOL = "invalid_tool"
    """A tool definition that is malformed (no name, name not allowed, schema not valid or referring
    outside itself)."""
    PARAMETERS_NOT_OBJECT = "parameters_not_object"
    """A tool's argument schema whose root is not an object schema (`type: "object"`): arguments are
    always a JSON object."""
    STRICT_SCHEMA_ADDITIONAL_PROPERTIES = "strict_schema_additional_properties"
    """A strict tool's object schema without `additionalProperties: false`."""
    STRICT_SCHEMA_REQUIRED_INCOMPLETE = "strict_schema_required_incomplete"
    """A strict tool's object schema whose `required` does not list every property."""
    STRICT_SCHEMA_TYPE_MISSING = "strict_schema_type_missing"
    """A strict tool's schema node without a `type` (`{}` in `anyOf`, `items: {}`, a typeless property)."""
    STRICT_SCHEMA_KEYWORD = "strict_schema_keyword"
    """A strict tool's schema uses a keyword outside OpenAI's strict-mode subset."""
    STRICT_SCHEMA_LIMIT = "strict_schema_limit"
    """A strict tool's schema exceeds a documented strict-mode limit (nesting, properties, enum size)."""
    # Target profiles (`replayable.profiles`): what the target provider accepts in `input`.
    FIELD_NOT_ACCEPTED = "field_not_accepted"
    """A key the target's input form of the item (or content part) does not declare."""
    FIELD_SHAPE = "field_shape"
    """A field of a JSON type the target does not accept there."""
    NULL_NOT_ACCEPTED = "null_not_accepted"
    """An explicit `null` the target refuses (the key may be absent)."""
    ID_FORMAT = "id_format"
    """An item `id` in another provider's format (the target requires its own prefix)."""
    COMPUTER_OUTPUT_NOT_SCREENSHOT = "computer_output_not_screenshot"
    """A `computer_call_output` whose `output` is not a screenshot object with `image_url` or `file_id`."""
    IMAGE_SOURCE_MISSING = "image_source_missing"
    """An `input_image` with neither `image_url` nor `file_id`."""
    DATA_URL_INVALID = "data_url_invalid"
    """A `data:` URL that is empty, not base64, or not of an accepted media type."""
    REASONING_NOT_PERSISTED = "reasoning_not_persisted"
    """With `store: false`, a reasoning item sent as a bare id without `encrypted_content`."""
    ITEM_REFERENCE_NOT_PERSISTED = "item_reference_not_persisted"
    """With `store: false`, an `item_reference` (nothing is stored to refer to)."""
    INCLUDE_INVALID = "include_invalid"
    """An `include` value the target does not define."""
    BODY_CONFLICT = "body_conflict"
    """Two request keys the target refuses together (`previous_response_id` and `conversation`)."""


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: `index` of the item (None for a tool lint finding), a stable `code`
    (`ViolationCode`), a readable `message`, and `path`, a JSON Pointer into the item or tool."""

    index: int | None
    code: ViolationCode
    message: str
    path: str = ""

    def __post_init__(self) -> None:  # messages and paths may quote the input: never a lone surrogate
        object.__setattr__(self, "message", printable(self.message))
        object.__setattr__(self, "path", printable(self.path))

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "code": str(self.code), "message": self.message, "path": self.path}


@dataclass(frozen=True, slots=True)
class TranscriptReport(Verdict):
    """The result of `check_transcript`.

    `ok` is true when nothing is violated (pending calls allowed with `pending_ok=True` do not count);
    `violations` lists every broken rule in item order; `pending` lists the indexes of trailing calls
    still waiting for their output (only with `pending_ok=True`); `items` holds each parsed item, or
    `None` where an item did not parse; `external` lists the `function_call_output`s of a continuation
    request (one with `previous_response_id`, checked without `previous=`) whose calls are outside it.
    `raise_for_violations()` returns the report when ok and raises `ReplayError(report)` otherwise.
    """

    violations: tuple[Violation, ...]
    pending: tuple[int, ...] = ()
    items: tuple[Any, ...] = field(default=(), repr=False)
    external: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.violations

    def __bool__(self) -> bool:
        return self.ok


_CHAT_HINT = (
    "convert it to Responses items: each tool_calls entry becomes a function_call item "
    "{type, call_id, name, arguments} and each tool message a function_call_output item "
    "{type, call_id, output} (replayable.from_chat_completions does this)"
)


def _chat_shape(raw: Mapping[str, Any]) -> str | None:
    if "tool_calls" in raw:
        return "a Chat Completions assistant message with tool_calls"
    if raw.get("role") == "tool" or "tool_call_id" in raw:
        return "a Chat Completions tool message (role 'tool' / tool_call_id)"
    if raw.get("role") == "function":
        return "a legacy Chat Completions function message"
    if "function_call" in raw and "type" not in raw:
        return "a legacy Chat Completions function_call field"
    return None


_NESTED_CALL_TYPES = frozenset({"function_call", "tool_call", "tool_use", "function_call_output", "tool_result"})


def _nested_call(raw: Mapping[str, Any]) -> int | None:
    content = raw.get("content")
    if isinstance(content, list):
        for j, part in enumerate(content):
            t = part.get("type") if isinstance(part, Mapping) else None
            if isinstance(t, str) and t in _NESTED_CALL_TYPES:
                return j
    return None


_RULE_TEXT = {
    ViolationCode.FUNCTION_ARGUMENTS_NOT_STRING: "function_call.arguments must be a JSON string "
    "(serialize the object with json.dumps): ",
    ViolationCode.OUTPUT_NOT_STRING_OR_CONTENT_PARTS: "function_call_output.output must be a string or a list of "
    "input_text/input_image/input_file parts (serialize JSON values to a string): ",
    ViolationCode.REASONING_MISSING_SUMMARY: "a reasoning item needs 'summary', even when it is empty ([]): ",
}


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


class _View(NamedTuple):
    """What the cross-item rules read of one item, from its model or, if it did not parse, its raw JSON."""

    type: Any
    id: Any
    call_id: Any
    status: Any
    name: Any
    arguments: Any
    namespaced: bool
    src: Any = None  # the model or JSON object, for the fields only some families read


_new_view = tuple.__new__  # `_new_view(_View, (...))` skips NamedTuple's Python-level __new__ (hot path)
_NO_VIEW = _View(None, None, None, None, None, None, False)


#: Per class: 0 not one of our models, 1 a model, 2 a namespaced model, 3 an output-form call
#: (`FunctionCall`, `FunctionCallOutput`). `isinstance` on pydantic models goes through `ABCMeta`; the
#: rules ask it of every item, so the answer is kept per class.
_KINDS: dict[type, int] = {}


def _kind(cls: type) -> int:
    kind = _KINDS.get(cls)
    if kind is None:
        kind = (
            3
            if issubclass(cls, _OUTPUT_CALLS)
            else 2
            if issubclass(cls, NamespacedBase)
            else 1
            if issubclass(cls, WireModel)
            else 0
        )
        if len(_KINDS) < 4096:  # classes made on the fly never grow it without bound
            _KINDS[cls] = kind
    return kind


def _model_view(item: Any, namespaced: bool) -> _View:
    """The view of a parsed model: read from the model's own storage (MISSING means absent)."""
    get = item.__dict__.get
    t, i, c, s, n, a = get("type"), get("id"), get("call_id"), get("status"), get("name"), get("arguments")
    extra = item.__pydantic_extra__
    if extra:  # a field the model does not declare may still have been read as an unknown key
        xget = extra.get
        i = xget("id") if i is None else i
        c = xget("call_id") if c is None else c
        s = xget("status") if s is None else s
        n = xget("name") if n is None else n
        a = xget("arguments") if a is None else a
    return _new_view(
        _View,
        (
            t,
            None if i is MISSING else i,
            None if c is MISSING else c,
            None if s is MISSING else s,
            None if n is MISSING else n,
            None if a is MISSING else a,
            namespaced,
            item,
        ),
    )


def _model_views(items: list[Any], side: Side | None) -> list[_View] | None:
    """The views of a list of parsed models, or None when one item is not a model (or is an output-form call
    that must be re-read in its input form, `side=None`)."""
    if has_unchecked() and any(map(is_unchecked, items)):
        return None  # a model that skipped validation is read again from its JSON (`_read_item`)
    views: list[_View] = []
    append = views.append
    for item in items:
        kind = _kind(type(item))
        if kind == 0 or (kind == 3 and side is None):
            return None
        append(_model_view(item, kind == 2))
    return views


def _view(item: Any) -> _View:
    kind = _kind(type(item))
    if kind:
        return _model_view(item, kind == 2)
    t = read_field(item, "type")
    if t is None and isinstance(item, Mapping) and "role" in item:
        t = "message"
    return _View(
        type=t,
        id=read_field(item, "id"),
        call_id=read_field(item, "call_id"),
        status=read_field(item, "status"),
        name=read_field(item, "name"),
        arguments=read_field(item, "arguments"),
        namespaced=isinstance(t, str) and ":" in t,
        src=item,
    )


def _allowed(allowed_tools: Any) -> frozenset[str] | None:
    """`allowed_tools` as a set of names (see `replayable.call_gate.allowed_tool_names`)."""
    return allowed_tool_names(allowed_tools)


def check_transcript(
    items: Iterable[Any] | Document,
    *,
    tools: Iterable[Any] | None = None,
    target: str | None = None,
    provider: Provider = None,
    pending_ok: bool = False,
    allowed_tools: Iterable[str] | None = None,
    side: Side | None = None,
    source: str | None = None,
    registry: Mapping[str, Any] | None = None,
    previous: Any = None,
) -> TranscriptReport:
    """Check a list of items before it is replayed (sent as the `input` of a request).

    `items` are raw JSON objects, parsed items, or `openai` SDK objects. Without `side` the items are
    what is about to be sent as `input`: each is read in its input form or, failing that, its output
    form, except `function_call` and `function_call_output`, which always meet the input rules
    (`call_id` 1-64 characters, a valid function name) since they are sent back as they are; `side`
    pins one form. `tools` are tool definitions in any shape `replayable.tools.read_tool` knows
    (Responses, Agents or Chat Completions function tools, MCP tools; hosted tools are skipped); with
    them each call's arguments are checked against its tool's schema and a call to a tool not listed
    is a violation. Arguments must be a JSON object whatever the schema. `registry` maps absolute URIs
    to shared JSON Schemas for `$ref` (in-process only: no schema ever causes I/O). `target` is the
    slug of the provider the items are replayed to: a namespaced item of any other slug is a violation,
    and the target's profile applies (`replayable.profiles`: for `openai`, the fields, nulls, shapes and
    id formats OpenAI accepts in `input`). A request body's `store: false` refuses what refers to a
    stored item by id alone (`reasoning_not_persisted`, `item_reference_not_persisted`) for any target.
    `provider="openai"` reads OpenAI's native item types and shorthand messages. `pending_ok=True`
    reports trailing unanswered calls in `.pending` instead of as violations. `allowed_tools` (names)
    limits which tools may be called (`None`: no limit, `[]`: none). `side="output"` also enforces that
    an `incomplete` item is the last item of a response. `source` is the slug of the provider the items
    came from (default: `provider`, else `openai` for SDK objects, else unknown); with `target`,
    reasoning `encrypted_content` and compaction items from any other
    (or an unknown) source are `foreign_provider_state`, the rule `prepare_replay` drops them by.
    Calls and outputs of every family in `replayable.families.FAMILIES` are paired and checked alike.

    `items` may also be a request body (its `input` is checked), a whole response (its `output`, as
    output), one item, or a `replayable.reading.Document` (what the one reader made of any of these).
    A request with `previous_response_id` continues a response: pass that response (or its
    `output`) as `previous` to pair its calls with the request's outputs; without it, outputs answering
    calls outside the request are listed in `.external`, not reported (see `replayable.continuation`).

    Returns a `TranscriptReport`; it never raises on bad items (they are violations, with codes from
    `ViolationCode`). Every rule an item breaks is reported. Raises `ValueError` only for bad arguments:
    `side="sideways"`, `items` that are neither a list nor a body, `allowed_tools="get_weather"` (a
    string, not a collection of names), `tools` that are not a list of tools, two tools with the same
    name (`SchemaError` for a tool in no known shape).
    """
    if side not in (None, "input", "output"):
        raise ValueError(f"side must be None, 'input' or 'output', got {side!r}")
    if provider not in (None, "openai"):
        raise ValueError(f"provider must be None or 'openai', got {provider!r}")
    check_target(target)
    doc = read_document(items, provider=provider, text=False)  # the one reader: kind, items, tools, settings
    settings = doc.settings  # a request body: its own tools and tool_choice apply too
    if tools is None:
        tools = doc.tools
    if allowed_tools is None:
        allowed_tools = doc.tool_choice
    tool_params = tool_index(tools)
    allowed = _allowed(allowed_tools)
    unwrapped = unwrap(doc, previous, side)
    raw_items, side, provider = unwrapped.items, unwrapped.side, unwrapped.provider
    pending_ok = pending_ok or unwrapped.response  # a response's trailing calls wait to be executed
    violations: list[Violation] = []
    parsed: list[Any] = []
    views: list[_View] = []

    def add(index: int | None, code: ViolationCode, message: str, path: str = "") -> None:
        violations.append(Violation(index, code, message, path))

    with _gc_paused():  # the per-item views hold no cycles: no reason to let the collector rescan them
        model_views = _model_views(raw_items, side)  # already parsed: only the views are needed
        if model_views is not None:
            parsed, views = raw_items, model_views
        else:
            for i, raw in enumerate(raw_items):
                model, view = _read_item(i, raw, side, provider, add)
                parsed.append(model)
                views.append(view)
        if target is not None and source is None:
            source = provider or ("openai" if doc.sdk else None)  # never guessed (prepare_replay reads it alike)
        pending = _run_rules(views, add, target, tool_params, allowed, side, pending_ok, source, registry)
        profile = TargetCheck(target, settings)  # what the target accepts (replayable.profiles)
        for f in [*profile.body(), *profile.items(raw_items)]:
            add(f.index, ViolationCode(f.code), f.message, f.path)
    violations.sort(key=lambda v: v.index if v.index is not None else -1)
    return unwrapped.finish(TranscriptReport(tuple(violations), tuple(pending), tuple(parsed)))


def check_stream(
    items: Iterable[Any],
    *,
    tools: Iterable[Any] | None = None,
    target: str | None = None,
    provider: Provider = None,
    pending_ok: bool = False,
    allowed_tools: Iterable[str] | None = None,
    side: Side | None = None,
    source: str | None = None,
    registry: Mapping[str, Any] | None = None,
) -> TranscriptReport:
    """`check_transcript` for transcripts too large to hold: items are read one at a time from any
    iterable (a generator over JSONL lines, a database cursor, ...) and dropped once checked.

    Arguments and violations are exactly those of `check_transcript` (same rules, codes, order), but
    the report's `items` is empty. Memory holds the rule state only: the item ids and call ids seen so
    far (for the uniqueness and pairing rules), the calls still open, and the violations found; never
    the items. The provider state rule takes `source`, else `provider` (the items are not seen in
    advance). Raises `ValueError` only for bad arguments.
    """
    if side not in (None, "input", "output"):
        raise ValueError(f"side must be None, 'input' or 'output', got {side!r}")
    if provider not in (None, "openai"):
        raise ValueError(f"provider must be None or 'openai', got {provider!r}")
    check_target(target)
    if isinstance(items, str | bytes | bytearray | Mapping):
        raise ValueError("items must be an iterable of items; use iter_items for JSON text")
    violations: list[Violation] = []

    def add(index: int | None, code: ViolationCode, message: str, path: str = "") -> None:
        violations.append(Violation(index, code, message, path))

    allowed = _allowed(allowed_tools)
    rules = _Rules(add, target, tool_index(tools), allowed, side, source or provider, registry)
    profile = TargetCheck(target)  # what the target accepts in each item (replayable.profiles)
    prev: _View | None = None
    for i, raw in enumerate(items):
        _, view = _read_item(i, raw, side, provider, add)
        for f in profile.item(i, raw):
            add(f.index, ViolationCode(f.code), f.message, f.path)
        if prev is not None:  # rules for item i-1 run once its successor is known (one-item lookahead)
            rules.step(i - 1, prev, view)
        prev = view
    if prev is not None:
        rules.step(i, prev, None)
    pending = rules.finish(pending_ok)
    violations.sort(key=lambda v: v.index if v.index is not None else -1)
    return TranscriptReport(tuple(violations), tuple(pending), ())


def _read_item(i: int, raw: Any, side: Side | None, provider: Provider, add: Any) -> tuple[Any, _View]:
    """Parse item `i`, report its own violations through `add`, and return (model or None, its view)."""
    if type(raw) is not dict and not isinstance(raw, WireModel | Mapping) and is_openai_model(raw):
        try:  # an openai SDK object: its JSON is what is checked, in OpenAI mode (the reader's reading)
            raw = plain_json(raw)
        except ItemError as exc:
            add(i, ViolationCode.ITEM_INVALID, f"item is not JSON: {exc.errors[0]['msg'] if exc.errors else exc}")
            return None, _NO_VIEW
        provider = "openai"
    if isinstance(raw, str | bytes | bytearray | memoryview):  # a JSONL line: its rules see the object
        try:
            raw = loads(raw.tobytes() if isinstance(raw, memoryview) else raw, what="item", max_depth=MAX_ITEM_DEPTH)
        except JSONError:
            pass  # reported by `_validate_one` below, with the item's index
    if isinstance(raw, WireModel) and is_unchecked(raw):  # it skipped validation: its JSON is what is checked
        try:
            raw = to_plain(raw)
        except JSONError as exc:
            add(i, ViolationCode.ITEM_INVALID, f"item is not JSON: {exc.detail} [{exc.reason}]")
            return None, _NO_VIEW
    if isinstance(raw, Mapping) and type(raw) is not dict:  # read once: every rule sees the same copy
        try:
            raw = check_value(raw, what="item", max_depth=MAX_ITEM_DEPTH)
        except JSONError as exc:  # not JSON: refused, and no rule reads it a second time
            add(i, ViolationCode.ITEM_INVALID, f"item is not JSON: {exc.detail} [{exc.reason}]")
            return None, _NO_VIEW
    if isinstance(raw, WireModel):
        if side is None and isinstance(raw, _OUTPUT_CALLS):  # sent back as it is: the input rules hold
            try:
                _validate_one(raw.model_dump(mode="json", by_alias=True, exclude_unset=True), "input", provider, i)
            except ItemError as exc:
                _report_item_errors(i, raw, exc.errors, add)
        return raw, _view(raw)
    if isinstance(raw, Mapping):
        shape = _chat_shape(raw)
        if shape is not None:
            add(i, ViolationCode.CHAT_COMPLETIONS_ENVELOPE, f"{shape} is not a Responses item: {_CHAT_HINT}")
            return None, _view(raw)
        j = _nested_call(raw)
        if j is not None:
            add(
                i,
                ViolationCode.FUNCTION_CALL_IN_CONTENT,
                f"content part {j} is a {raw['content'][j].get('type')}: calls and their outputs are items of "
                "their own (function_call / function_call_output), never parts of a message",
                f"/content/{j}",
            )
            return None, _view(raw)
    model, errors = _parse_either(raw, side, provider, i)
    if model is not None:
        return model, _view(model)
    _report_item_errors(i, raw, errors, add)
    return None, (_view(raw) if isinstance(raw, Mapping) else _NO_VIEW)


def _report_item_errors(i: int, raw: Any, errors: list[dict[str, Any]], add: Any) -> None:
    """One violation per rule an item that does not parse breaks, naming every offending field."""
    grouped: dict[ViolationCode, list[dict[str, Any]]] = {}
    for err in errors:
        grouped.setdefault(_code_for(err, raw), []).append(err)
    for code, errs in grouped.items():  # one violation per rule, naming every offending field
        path = _pointer(errs[0]["loc"][1:])
        detail = "; ".join(
            f"{e['msg']}" + (f" at {_pointer(e['loc'][1:])}" if len(e["loc"]) > 1 else "") + f" [{e['type']}]"
            for e in errs[:5]
        )
        if len(errs) > 5:
            detail += f"; and {len(errs) - 5} more"
        add(i, code, _RULE_TEXT.get(code, "") + detail, path)


_SENT_AS_IS = frozenset({"function_call", "function_call_output"})
_OUTPUT_CALLS = (FunctionCall, FunctionCallOutput)


def _parse_either(raw: Any, side: Side | None, provider: Provider, index: int) -> tuple[Any, list[dict[str, Any]]]:
    sides: tuple[Side, ...] = (side,) if side is not None else ("input", "output")
    if side is None and isinstance(raw, Mapping) and isinstance(raw.get("type"), str) and raw["type"] in _SENT_AS_IS:
        sides = ("input",)  # replayed as they are: the input rules (call_id 1-64 characters, ...) hold
    first_errors: list[dict[str, Any]] | None = None
    for s in sides:
        try:
            return _validate_one(raw, s, provider, index), []
        except ItemError as exc:
            if first_errors is None:
                first_errors = exc.errors
    return None, first_errors or []


_BARRIERS = frozenset({"message", "compaction", "item_reference"})
#: Item type -> (its call family, True for the call and False for the output): one lookup per item.
_FAMILY_OF: dict[str, tuple[CallFamily, bool]] = {
    **{t: (f, False) for t, f in by_output_type.items()},
    **{t: (f, True) for t, f in by_call_type.items()},
}


def _run_rules(
    views: list[_View],
    add: Any,
    target: str | None,
    tool_params: dict[str, ToolSpec | SchemaError] | None,
    allowed: frozenset[str] | None,
    side: Side | None,
    pending_ok: bool,
    source: str | None = None,
    registry: Mapping[str, Any] | None = None,
) -> list[int]:
    """Run the cross-item rules and the pending-call rule over all views in one pass; returns pending."""
    rules = _Rules(add, target, tool_params, allowed, side, source, registry)
    step = rules.step
    following: list[_View | None] = [*views[1:], None]  # each item's successor (the lookahead)
    for i, (v, nxt) in enumerate(zip(views, following, strict=False)):  # one longer when there are no views
        step(i, v, nxt)
    return rules.finish(pending_ok)


def foreign_state(item: Any, source: str | None, target: str) -> str | None:
    """Why `item` holds provider state that `target` cannot read, or None.

    Reasoning with `encrypted_content` and compaction items carry state only the provider that wrote it
    can read; `source` is that provider's slug (None: unknown, which never matches a target). The one rule
    behind both `check_transcript(..., target=)` and `prepare_replay`.
    """
    if source == target:
        return None
    t = read_field(item, "type")
    owner = repr(source or "unknown")
    if t == "compaction":
        return f"compaction state belongs to provider {owner}, not {target!r}"
    if t == "reasoning" and read_field(item, "encrypted_content"):
        return f"reasoning encrypted_content belongs to provider {owner}, not {target!r}"
    return None


def infer_source(items: Iterable[Any], provider: Provider = None) -> str | None:
    """The slug of the provider items came from: `provider`, else `openai` for `openai` SDK objects, else the
    one slug of their namespaced items, else None (unknown)."""
    if provider is not None:
        return provider
    slugs: set[str] = set()
    for item in items:
        if is_openai_model(item):
            return "openai"
        t = read_field(item, "type")
        if isinstance(t, str) and ":" in t:
            slugs.add(t.split(":", 1)[0])
    return slugs.pop() if len(slugs) == 1 else None


def _key(v: _View, name: str) -> Any:
    if name == "call_id":
        return v.call_id
    if name == "id":
        return v.id
    return read_field(v.src, name)


def _output_key(fam: CallFamily, v: _View) -> tuple[Any, str]:
    """(the key an output names its call by, the field it is in); (None, first field) when absent."""
    keys = fam.output_keys
    if keys == ("call_id",):  # every family but a few of OpenAI's
        return v.call_id, "call_id"
    for name in keys:
        key = _key(v, name)
        if key is not None:
            return key, name
    return None, keys[0]


def _ids(value: Any) -> list[str]:
    """The `id`s of a list of objects (safety checks)."""
    out: list[str] = []
    if isinstance(value, list | tuple):
        for x in value:
            i = read_field(x, "id")
            if isinstance(i, str):
                out.append(i)
    return out


class _Rules:
    """The cross-item rules and the pending-call rule as one state machine fed one item at a time, with
    the next item as lookahead (`nxt` is None for the last item). Holds per-id and per-call state only
    (and the calls still waiting for an output), never the items. Calls and their outputs follow the one
    table of call families (`replayable.families.FAMILIES`)."""

    __slots__ = (
        "add",
        "target",
        "tool_params",
        "allowed",
        "side",
        "source",
        "registry",
        "ids",
        "calls",
        "answered",
        "unfinished",
        "programs",
        "to_acknowledge",
        "open_calls",
    )

    def __init__(
        self,
        add: Any,
        target: str | None,
        tool_params: dict[str, ToolSpec | SchemaError] | None,
        allowed: frozenset[str] | None,
        side: Side | None,
        source: str | None = None,
        registry: Mapping[str, Any] | None = None,
    ) -> None:
        self.add, self.target, self.tool_params, self.allowed, self.side = add, target, tool_params, allowed, side
        self.source = source
        self.registry = registry
        self.ids: dict[str, int] = {}
        self.calls: dict[tuple[str, str], int] = {}
        self.answered: set[tuple[str, str]] = set()
        self.unfinished: set[tuple[str, str]] = set()
        self.programs: set[str] = set()
        self.to_acknowledge: dict[tuple[str, str], list[str]] = {}
        #: Calls that need an output from the client and have none yet -> their index.
        self.open_calls: dict[tuple[str, str], int] = {}

    def step(self, i: int, v: _View, nxt: _View | None) -> None:
        add, target, ids = self.add, self.target, self.ids
        vid, vtype = v.id, v.type
        if vid and type(vid) is str:
            if vid in ids:
                add(i, ViolationCode.DUPLICATE_ITEM_ID, f"item id {vid!r} already used by item {ids[vid]}", "/id")
            else:
                ids[vid] = i
        if target is not None and isinstance(vtype, str):
            if v.namespaced:
                slug = vtype.split(":", 1)[0]
                if slug != target:
                    add(
                        i,
                        ViolationCode.FOREIGN_EXTENSION_ITEM,
                        f"{vtype} belongs to provider {slug!r}, not to the target {target!r}: provider items are "
                        "not portable; drop it or convert it to portable content (replayable.prepare_replay)",
                        "/type",
                    )
            elif vtype in ("reasoning", "compaction"):
                why = foreign_state(v.src, self.source, target)
                if why is not None:
                    path = "/encrypted_content" if vtype == "reasoning" else ""
                    add(i, ViolationCode.FOREIGN_PROVIDER_STATE, why + " (replayable.prepare_replay drops it)", path)
        if vtype == "reasoning" and vid and type(vid) is str:
            if nxt is None or not (isinstance(nxt.id, str) and nxt.id):
                what = "nothing follows it" if nxt is None else f"item {i + 1} has no id"
                add(
                    i,
                    ViolationCode.REASONING_WITHOUT_FOLLOWING_ITEM,
                    f"reasoning item {v.id!r} must be immediately followed by the item it produced (which carries "
                    f"its own id), but {what}",
                )
        if self.side == "output" and v.status == "incomplete" and nxt is not None:
            add(
                i,
                ViolationCode.INCOMPLETE_NOT_LAST,
                "an incomplete item is terminal and must be the last item of its response",
                "/status",
            )
        if not isinstance(vtype, str):  # a list `type` is unhashable
            if self.open_calls:
                self._close(i)
            return
        role = _FAMILY_OF.get(vtype)
        if role is None:
            if self.open_calls and vtype in _BARRIERS:  # the conversation moves on: open calls stay unanswered
                self._close(i)
        elif role[1]:
            self._call(i, v, role[0])
        else:
            self._output(i, v, role[0])

    def _call(self, i: int, v: _View, fam: CallFamily) -> None:
        add = self.add
        key = v.call_id if fam.call_key == "call_id" else _key(v, fam.call_key)
        slot = (fam.call_type, key) if isinstance(key, str) and fam.output_type is not None else None
        if slot is not None:
            if slot in self.calls:
                add(
                    i,
                    ViolationCode.DUPLICATE_CALL_ID,
                    f"{fam.call_key} {key!r} already used by item {self.calls[slot]}",
                    "/" + fam.call_key,
                )
            else:
                self.calls[slot] = i
        finished = True
        if type(v.status) is str and v.status in fam.unfinished:
            waiting = program_call_waiting(fam, v.status, read_field(v.src, "caller"), self.programs)
            if not waiting:
                finished = False
                code = (
                    ViolationCode.INCOMPLETE_CALL_REPLAYED
                    if v.status == "incomplete"
                    else ViolationCode.IN_PROGRESS_CALL_REPLAYED
                )
                hint = ""
                if fam.program_callable and read_field(read_field(v.src, "caller"), "type") == "program":
                    hint = "; a call issued by a program waits for its output only while that program item is in view"
                add(
                    i,
                    code,
                    f"{fam.name} status is {v.status!r}: only a finished call may be replayed or answered (its "
                    f"arguments may be truncated){hint}",
                    "/status",
                )
                if slot is not None:
                    self.unfinished.add(slot)
        if fam.call_type == "openai:program" and isinstance(key, str):
            self.programs.add(key)
        if fam.acknowledge is not None and slot is not None:
            self.to_acknowledge[slot] = _ids(read_field(v.src, fam.acknowledge[0]))
        if fam.call_type == "function_call":
            _call_rules(i, v, add, finished, self.tool_params, self.allowed, self.registry)
        if finished and isinstance(key, str) and fam.needs_output(v.src):
            self.open_calls.setdefault((fam.call_type, key), i)

    def _output(self, i: int, v: _View, fam: CallFamily) -> None:
        add = self.add
        key, key_field = _output_key(fam, v)
        if not isinstance(key, str):
            return  # a server-run tool search's output names no call
        slot = (fam.call_type, key)
        path = "/" + key_field
        if slot not in self.calls:
            add(
                i,
                ViolationCode.OUTPUT_WITHOUT_FUNCTION_CALL,
                f"no earlier {fam.name} has {fam.call_key} {key!r} (a {fam.output_type} pairs with its call by "
                f"{fam.call_key}, byte for byte)",
                path,
            )
        elif slot in self.answered:
            add(
                i,
                ViolationCode.DUPLICATE_OUTPUT,
                f"{fam.name} {key!r} (item {self.calls[slot]}) was already answered",
                path,
            )
        elif slot in self.unfinished:
            add(
                i,
                ViolationCode.OUTPUT_FOR_UNFINISHED_CALL,
                f"{fam.name} {key!r} (item {self.calls[slot]}) is not finished; an unfinished call is never answered",
                path,
            )
        if fam.acknowledge is not None and slot in self.to_acknowledge:
            acked = set(_ids(read_field(v.src, fam.acknowledge[1])))
            missing = [c for c in self.to_acknowledge[slot] if c not in acked]
            if missing:
                add(
                    i,
                    ViolationCode.SAFETY_CHECK_NOT_ACKNOWLEDGED,
                    f"{fam.name} {key!r} (item {self.calls[slot]}) raised {fam.acknowledge[0]} "
                    f"{', '.join(map(repr, missing))}, which this output does not list in {fam.acknowledge[1]}",
                    "/" + fam.acknowledge[1],
                )
        self.answered.add(slot)
        self.open_calls.pop(slot, None)

    def _close(self, i: int) -> None:
        for (ctype, key), j in sorted(self.open_calls.items(), key=lambda kv: kv[1]):
            fam = by_call_type[ctype]
            self.add(
                j,
                ViolationCode.FUNCTION_CALL_WITHOUT_OUTPUT,
                f"{fam.name} {key!r} has no {fam.output_type} before item {i}; answer every call before the "
                "conversation moves on",
                "/" + fam.call_key,
            )
        self.open_calls.clear()

    def finish(self, pending_ok: bool) -> list[int]:
        trailing = sorted(self.open_calls.items(), key=lambda kv: kv[1])
        if pending_ok:
            return [j for _, j in trailing]
        for (ctype, key), j in trailing:
            fam = by_call_type[ctype]
            self.add(
                j,
                ViolationCode.FUNCTION_CALL_WITHOUT_OUTPUT,
                f"{fam.name} {key!r} has no {fam.output_type} (pass pending_ok=True when the transcript "
                "ends with calls still to be executed)",
                "/" + fam.call_key,
            )
        return []


def _call_rules(
    i: int,
    v: _View,
    add: Any,
    finished: bool,
    tool_params: dict[str, ToolSpec | SchemaError] | None,
    allowed: frozenset[str] | None,
    registry: Mapping[str, Any] | None = None,
) -> None:
    """The rules a function call's tool definition adds: allowed names, known tool, arguments."""
    name = v.name
    if allowed is not None and isinstance(name, str) and name not in allowed:
        listed = ", ".join(sorted(allowed)) or "none"
        add(i, ViolationCode.TOOL_NOT_ALLOWED, f"tool {name!r} is not in allowed_tools ({listed})", "/name")
    if tool_params is None:
        # Without tools only the JSON itself is checked: a call whose arguments are not strict JSON
        # cannot have run, and an unfinished call is already reported.
        arguments = v.arguments
        if type(arguments) is str and finished:
            why = json_syntax_error(arguments)
            if why is not None:
                add(i, ViolationCode.ARGUMENTS_PARSE, why, "/arguments")
            elif arguments.lstrip(" \t\r\n")[:1] != "{":
                add(i, ViolationCode.ARGUMENTS_SCHEMA, "function-call arguments must be a JSON object", "/arguments")
        return
    if not isinstance(name, str):
        return
    if name not in tool_params:
        add(i, ViolationCode.UNKNOWN_TOOL, f"no tool named {name!r} in tools", "/name")
        return
    if not isinstance(v.arguments, str):
        return  # reported as function_arguments_not_string by the item's own validation
    try:
        value = parse_arguments(v.arguments)
    except ArgumentsError as exc:
        add(i, ViolationCode.ARGUMENTS_PARSE, str(exc), "/arguments")
        return
    spec = tool_params[name]
    if isinstance(spec, SchemaError):
        add(i, ViolationCode.INVALID_TOOL, f"tool {name!r} cannot be checked against: {spec}", "/name")
        return
    try:
        failures = schema_failures(value, spec.schema, registry=registry)
    except SchemaError as exc:
        add(i, ViolationCode.INVALID_TOOL, f"tool {name!r}: {exc}", "/name")
        return
    not_object = object_failure(value)
    if not_object is not None:
        failures = [not_object]
    for f in failures:
        add(
            i,
            ViolationCode.ARGUMENTS_SCHEMA,
            f"arguments: {f.path or '/'} fails {f.keyword}: {f.message}",
            "/arguments" + f.path,
        )


# --- strict tool lint -------------------------------------------------------------------------------------

_TOOL_NAME_OK = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


class ToolFindings(list[Violation]):
    """What `check_tool` returns: a list of the tool's violations (empty when the tool is fine), and
    `.notes`, advice that is not a violation (`replayable.notes`: string properties named like ids or
    codes with no `pattern`, `enum` or `format`)."""

    def __init__(self, violations: Iterable[Violation] = (), notes: Iterable[Note] = ()) -> None:
        super().__init__(violations)
        self.notes: tuple[Note, ...] = tuple(notes)


def check_tool(tool: Any, *, registry: Mapping[str, Any] | None = None) -> ToolFindings:
    """Lint a tool definition: its name, its schema, and the closed-object rules of strict tools.

    Accepts every tool shape `replayable.tools.read_tool` knows: a Responses function tool
    (`{"type": "function", "name", "parameters", "strict"}`), an Agents API function tool (with
    `defer_loading`), a Chat Completions function tool (`{"type": "function", "function": {...}}`) or
    an MCP tool (`{"name", "inputSchema"}`). Reported: a name that is not 1-64 letters, digits, `_` or
    `-`; a schema that is not valid or refers outside itself (`$ref`/`$schema` to a URL or file:
    `invalid_tool`; nothing is fetched, `registry` as in `compile_schema`); a schema root that is not
    an object schema (`parameters_not_object`: arguments are always a JSON object). For a Responses
    function tool whose `strict` is true or absent (the spec's default), a Chat Completions tool with
    `strict: true`, and always for Agents and MCP tools, every object schema (`type: object`, or one
    with `properties`) must have `additionalProperties: false` and list every property in `required`
    (optional ones nullable instead); `$ref`s into the same document are followed. Strict Responses and
    Chat Completions function tools also follow OpenAI's strict-mode subset (`replayable.strict_schema`):
    every node typed (`strict_schema_type_missing`), supported keywords only (`strict_schema_keyword`),
    the documented size limits (`strict_schema_limit`). Findings are `Violation`s with `index=None` and
    `path` a JSON Pointer into the tool, in a `ToolFindings` list whose `.notes` hold advice that is not a
    violation (`unconstrained_identifier`: a string property named like an id, code or status with no
    `pattern`, `enum`, `const` or `format`; `replayable.notes`). Never raises on a bad tool.
    """
    if isinstance(tool, BaseModel):
        try:
            tool = plain_json(tool)
        except ItemError as exc:  # an object that is not strict JSON: not a tool
            return ToolFindings(
                [Violation(None, ViolationCode.INVALID_TOOL, f"not a tool definition: {exc.errors[0]['msg']}")]
            )
    elif not isinstance(tool, Mapping | bool):
        try:  # an openai-agents FunctionTool or pydantic-ai ToolDefinition, read as gate reads it
            tool = tool_json(tool)
        except SchemaError as exc:
            return ToolFindings([Violation(None, ViolationCode.INVALID_TOOL, f"not a tool definition: {exc}")])
    if not isinstance(tool, Mapping):
        return ToolFindings(
            [Violation(None, ViolationCode.INVALID_TOOL, f"a tool is a JSON object, got {type(tool).__name__}")]
        )
    try:
        spec = read_tool(tool)
    except SchemaError as exc:
        function = tool.get("function")
        where = "/function/name" if isinstance(function, Mapping) else "/name"
        named = function.get("name") if isinstance(function, Mapping) else tool.get("name")
        return ToolFindings(
            [Violation(None, ViolationCode.INVALID_TOOL, str(exc), "" if isinstance(named, str) else where)]
        )
    if spec.kind is ToolKind.SCHEMA:
        return ToolFindings(
            [
                Violation(
                    None,
                    ViolationCode.INVALID_TOOL,
                    "not a tool definition: a bare JSON Schema has no name (pass the whole tool)",
                )
            ]
        )
    out: list[Violation] = []
    name = spec.name
    name_at = "/function/name" if spec.kind is ToolKind.CHAT_FUNCTION else "/name"
    if not isinstance(name, str) or not name or len(name) > 64 or not set(name) <= _TOOL_NAME_OK:
        shown = repr(name) if isinstance(name, str) else f"of type {type(name).__name__}"
        out.append(
            Violation(
                None,
                ViolationCode.INVALID_TOOL,
                f"tool name {shown} must be 1-64 letters, digits, '_' or '-'",
                name_at,
            )
        )
    key, schema = spec.pointer, spec.schema
    try:
        compile_schema(schema, registry=registry)
    except SchemaError as exc:
        out.append(Violation(None, ViolationCode.INVALID_TOOL, str(exc), key))
        return ToolFindings(out)
    root_type = _root_type(schema)
    if spec.declared and root_type != "object" and root_type != ["object"]:
        got = root_type
        out.append(
            Violation(
                None,
                ViolationCode.PARAMETERS_NOT_OBJECT,
                f"the argument schema's root must be an object schema (type: 'object'), got type {got!r}: "
                "arguments are always a JSON object",
                key + "/type",
            )
        )
    if spec.closed and isinstance(schema, Mapping):
        try:
            _lint_closed(schema, schema, key, key, out, set())
        except RecursionError:
            out.append(Violation(None, ViolationCode.INVALID_TOOL, f"{key} nests too deeply to check", key))
    if spec.closed and spec.declared and spec.kind in (ToolKind.FUNCTION, ToolKind.CHAT_FUNCTION):  # strict subset
        out.extend(Violation(None, ViolationCode(f.code), f.message, f.path) for f in strict_findings(schema, key))
    return ToolFindings(out, identifier_notes(schema, key))


def _root_type(schema: Any) -> Any:
    """The `type` of a schema's root, following `$ref`s into the same document (None when absent)."""
    node, seen = schema, set()
    while isinstance(node, Mapping) and "type" not in node and isinstance(node.get("$ref"), str):
        ref = node["$ref"]
        hit = _resolve(schema, ref) if isinstance(schema, Mapping) and ref not in seen else None
        if hit is None:
            return None
        seen.add(ref)
        node = hit[0]
    return node.get("type") if isinstance(node, Mapping) else node


_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SUBSCHEMA_ONE = ("items", "not", "if", "then", "else", "additionalItems", "contains")


def _resolve(root: Mapping[str, Any], ref: str) -> tuple[Any, str] | None:
    if not ref.startswith("#"):
        return None
    node: Any = root
    for part in ref[1:].split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        else:
            return None
    return node, ref[1:]


def _lint_closed(
    node: Any, root: Mapping[str, Any], base: str, path: str, out: list[Violation], seen: set[str]
) -> None:
    """Walk a schema; `base` is the pointer of `root` in the tool, `path` the pointer of `node`."""
    if not isinstance(node, Mapping):
        return
    ref = node.get("$ref")
    if isinstance(ref, str):
        hit = _resolve(root, ref)
        if hit is not None and hit[1] not in seen:
            seen.add(hit[1])
            _lint_closed(hit[0], root, base, base + hit[1], out, seen)
    t = node.get("type")
    is_object = t == "object" or (isinstance(t, list) and "object" in t) or isinstance(node.get("properties"), Mapping)
    if is_object:
        if node.get("additionalProperties") is not False:
            out.append(
                Violation(
                    None,
                    ViolationCode.STRICT_SCHEMA_ADDITIONAL_PROPERTIES,
                    f"object schema at {path or '/'} must set additionalProperties: false",
                    path + "/additionalProperties",
                )
            )
        props = node.get("properties")
        if isinstance(props, Mapping):
            required = node.get("required")
            listed = set(required) if isinstance(required, list) else set()
            missing = [k for k in props if k not in listed]
            if missing:
                out.append(
                    Violation(
                        None,
                        ViolationCode.STRICT_SCHEMA_REQUIRED_INCOMPLETE,
                        f"object schema at {path or '/'} must list every property in required "
                        f"(make optional ones nullable instead): missing {', '.join(map(repr, missing))}",
                        path + "/required",
                    )
                )
            for k, sub in props.items():
                _lint_closed(sub, root, base, f"{path}/properties/{k}", out, seen)
    for key in _SUBSCHEMA_LISTS:
        subs = node.get(key)
        if isinstance(subs, list):
            for n, sub in enumerate(subs):
                _lint_closed(sub, root, base, f"{path}/{key}/{n}", out, seen)
    for key in _SUBSCHEMA_ONE:
        _lint_closed(node.get(key), root, base, f"{path}/{key}", out, seen)
    ap = node.get("additionalProperties")
    if isinstance(ap, Mapping):
        _lint_closed(ap, root, base, f"{path}/additionalProperties", out, seen)
