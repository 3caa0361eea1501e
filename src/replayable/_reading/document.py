"""The one reader: whatever a caller passes, read once into a typed `Document`.

`read_document(data)` takes any input a transcript comes in, JSON text or bytes (one document, or JSONL),
a list of items (dicts, our parsed models, `openai` SDK objects), one item, a request body (create or
compact; a dict, `CreateResponseBody`, `CompactRequestBody`), a Response (`object: "response"`, a dict,
`Response`, an SDK `Response`), a compaction result (`object: "response.compaction"`), and, where the
caller allows it (`streams=True`, the command line), a list of stream events, an Agents API event log or a
file of tool definitions, and returns a `Document`: its `kind`, its `items`, the request's function `tools`
and `tool_choice` (`allowed_tools`), the request settings the target profiles read (`settings`), what it
continues (`previous_response_id`), the Response's own `status`, and the `provider` to read it with.

The kind is decided from what the data says, never guessed from a stray key (spec: Open Responses
2026-04-24, `CreateResponseBody`, `CompactResponseMethodPublicBody`, `ResponseResource`, "Items"):

- an object with a string `type` is one item (a `function_call_output` whose `output` is a list, a
  `custom_tool_call` with an `input`, stay items); an object with `role` and no `type` is the shorthand
  message; `{id}` alone is an item reference;
- an object without `type` whose `object` is `response` is a Response, `response.compaction` a compaction
  result (any other `object` is refused); without `object`, one holding a Response's own fields (`output`,
  `created_at`, `completed_at`, `status`, `incomplete_details`, `error`, `usage`) is a Response, one
  holding a request body's fields (`input`, `model`, `instructions`, `tools`, `tool_choice`,
  `previous_response_id`, ...) a request body; one holding both a body's `input` and a Response's own fields
  (or an `object` that says Response) is ambiguous and refused, as is a Chat Completions body
  (`messages`) and an object that is none of these;
- a list (or other iterable) is a list of items.

Every refusal is an `ItemError` whose message says what to pass instead. Items are read as they are
(an `openai` SDK item is read by the rules as its JSON, in OpenAI mode; a whole SDK Response makes the
document OpenAI's), except a parsed message holding a Chat Completions key among its unknown fields
(`tool_calls`, `tool_call_id`, `function_call`), which is read from its JSON, where the envelope rule
sees it.

Library code reads its input here and nowhere else: `check_transcript`, `prepare_replay`,
`replayable.testing.assert_replay_safe`, the integrations and the command line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from enum import StrEnum
from itertools import compress
from typing import Any

from pydantic import BaseModel

from replayable._base import SPEC_ITEM_TYPES, WireModel, changed_since_read, is_unchecked
from replayable._chat_shapes import CHAT_KEYS, chat_shape, nested_call
from replayable._item_json import plain_json
from replayable._item_validation import is_openai_form
from replayable._json import READER_DEPTH, JSONError, check_value, exact_text, iter_jsonl, loads, printable, to_plain
from replayable._model_slots import get_extras as _extras  # a model's unknown fields, through the slot (in C)
from replayable._native import INPUT_TYPES, OPENAI_TOOL_TYPES, OUTPUT_TYPES
from replayable._reading.places import Places
from replayable.items import ItemError, Provider, Side, is_openai_model

__all__ = [
    "HOSTED_TOOL_TYPES",
    "Document",
    "DocumentKind",
    "allowed_from_tool_choice",
    "chat_envelope",
    "conversation_id",
    "first_value_kind",
    "function_tools",
    "is_event_list",
    "looks_like_tools",
    "object_kind",
    "read_document",
    "read_previous",
    "read_text",
    "is_rollout_line",
    "read_value",
    "rollout_document",
]


class DocumentKind(StrEnum):
    """What a document is."""

    ITEMS = "items"
    """A list of items (a JSON array, JSONL, a Python list)."""
    ITEM = "item"
    """One item on its own."""
    REQUEST = "request"
    """A request body (`POST /responses` or `/responses/compact`): its `input` is checked."""
    RESPONSE = "response"
    """A Response or a compaction result: its `output` is checked, as output."""
    EVENTS = "events"
    """A list of stream events (only with `streams=True`)."""
    AGENTS_LOG = "agents_log"
    """An OpenAI Agents API event log (only with `streams=True`)."""
    TOOLS = "tools"
    """A file of tool definitions (only with `streams=True`)."""
    CODEX_ROLLOUT = "codex_rollout"
    """A Codex session file (`rollout-*.jsonl`, read by `replayable.read_file`): the payloads of
    its `response_item` lines are the items, in file order; `Document.places` holds each one's line."""


@dataclasses.dataclass(slots=True)
class Document:
    """One input, read. `items` are the items to check (a request's `input`, a Response's `output`, a
    list's elements, the one item), `provider` the reading they get (`openai` when SDK objects were
    given), `side` `output` for a Response (else None: read each item in its input form, then its output
    form). For a request body or a Response (which echoes its request's): `tools` (its function tools,
    hosted tools left out; empty when it lists tools but no function tool, which lets no function call
    through; None when it has no `tools`, and for a Response whose `tools` is `[]`, an echo that says
    nothing), `tool_list` (every tool it lists, for linting), `tool_choice`
    (its `allowed_tools` choice, else None). For a request body: `settings` (the keys the target profiles
    read), `previous_response_id` (what it continues). For a Response: its own `status` (and, read as a
    `previous=` response, its `response_id`). `value` is the
    input as given (after JSON text was read; for an SSE capture read from a file, its bytes).
    `source` is set only for a JSONL of items that `replayable.read_file` reads line by line:
    see `iter_items`. `places`: where each item starts in the file (`read_file` only)."""

    kind: DocumentKind
    items: list[Any]
    provider: Provider = None
    side: Side | None = None
    tools: list[Any] | None = None
    tool_list: list[Any] | None = None
    tool_choice: Any = None
    #: a request body's `tool_choice` as JSON, whatever it is (None: absent); `tool_choice` is its
    #: `allowed_tools` choice only
    choice: Any = None
    settings: dict[str, Any] | None = None
    previous_response_id: str | None = None
    status: Any = None
    response_id: str | None = None
    #: a request body's keys, all of them (what the target profile accepts is checked against them)
    body_keys: tuple[str, ...] = ()
    sdk: bool = False
    #: the provider the items say they were read with: `openai` when any is an `openai` SDK object or a
    #: model parsed with `provider="openai"` (an item, or a Response, parsed so);
    #: the default owner of their provider state (reasoning, compaction) and ids
    read_with: Provider = None
    #: whether an item may be JSON text to read (a Python list of items, as given): items read from a
    #: JSON document or a file are JSON values already, and a string among them is a string, not an item
    text_items: bool = False
    value: Any = dataclasses.field(default=None, repr=False)
    source: Any = dataclasses.field(default=None, repr=False)
    #: where each item (or event) starts in the file it was read from (`places.at(index, path)`
    #: is the line and column; set by `read_file`; None for values handed to the library)
    places: Any = dataclasses.field(default=None, repr=False)
    #: internal: the class of each of `items`, in order, when the reader told that each is one of our item
    #: models holding no unknown field (none holds extras), else None; the check's `model_views` then reads
    #: each model's storage without asking again, and its whole-list pass reads the items' types from it
    #: (one pass over the models less, each)
    _item_classes: list[type] | None = dataclasses.field(default=None, repr=False, compare=False, init=False)

    def __post_init__(self) -> None:
        self.kind = DocumentKind(self.kind)  # "items" given by hand is read as its kind (ValueError if none)
        if not isinstance(self.items, list):  # an iterator given by hand is read once, here, not by the first check
            self.items = list(self.items)

    def iter_items(self) -> Iterator[Any]:
        """The items one at a time. For a JSONL of items that `replayable.read_file` left open
        (`source`, read line by line in bounded memory; `items` is then empty) each line's value as it is
        read, once; else `items`."""
        return self.source.values() if self.source is not None else iter(self.items)

    @property
    def continues(self) -> bool:
        """Whether this is a request that continues what the server holds: a previous response
        (`previous_response_id`) or a conversation (OpenAI's `conversation`, whose items the server puts
        before `input`), so its outputs may answer calls this body does not show."""
        return self.previous_response_id is not None or (
            self.settings is not None and conversation_id(self.settings.get("conversation")) is not None
        )

    def envelope_errors(self) -> tuple[dict[str, Any], ...]:
        """A request body's own fields (all but `input`, whose items the rules read one by one; `tools`
        as `tool_list`, their JSON) that break its schema, read when asked (only the check needs them):
        `{loc, type, msg}` each, as `parse_request` reports them; () for anything else, and for a body
        given as a parsed model (validated already)."""
        if self.kind is not DocumentKind.REQUEST or not isinstance(self.value, Mapping):
            return ()
        return _envelope_errors(self.value, self.provider, self.tool_list)

    @property
    def is_body(self) -> bool:
        return self.kind in (DocumentKind.REQUEST, DocumentKind.RESPONSE)


#: A request body's own fields (spec `CreateResponseBody`, `CompactResponseMethodPublicBody`) that a
#: Response does not have.
_REQUEST_ONLY = frozenset({"input", "include", "stream", "stream_options"})
#: Fields a request body and a Response share: with no field of either side's own, they make a body.
_SHARED = frozenset(
    {"model", "previous_response_id", "instructions", "tools", "tool_choice", "store", "metadata", "text",
     "temperature", "top_p", "parallel_tool_calls", "max_output_tokens", "max_tool_calls", "reasoning",
     "truncation", "background", "service_tier", "safety_identifier", "prompt_cache_key", "top_logprobs",
     "presence_penalty", "frequency_penalty", "user", "prompt", "conversation"}
)
#: A Response's own fields (spec `ResponseResource`) that no request body has.
_RESPONSE_ONLY = frozenset({"output", "created_at", "completed_at", "status", "incomplete_details", "error", "usage"})
_RESPONSE_OBJECTS = frozenset({"response", "response.compaction"})
#: The request keys the target profiles read (`replayable._profiles`).
_SETTINGS = ("store", "include", "previous_response_id", "conversation")

_WHAT_TO_PASS = (
    "pass a list of items, one item (with 'type'), a request body (with 'input') or a Response "
    "(with 'object': 'response')"
)


def _refuse(loc: tuple[Any, ...], kind: str, msg: str, title: str = "cannot check") -> ItemError:
    return ItemError([{"loc": loc, "type": kind, "msg": msg}], title)


def read_text(data: str | bytes | bytearray, what: str = "data") -> Any:
    """One JSON value from text (an array of items, a body, a Response, one item) or, failing that and
    when it has two or more non-blank lines, JSONL (a list). Read by the one strict reader; raises
    `JSONError` when the text is neither."""
    try:
        return loads(data, what=what, max_depth=READER_DEPTH)
    except JSONError as first:
        lines = data.splitlines() if isinstance(data, str) else bytes(data).splitlines()
        if sum(1 for line in lines if line.strip()) < 2:
            raise first from None
        return [value for _, value in iter_jsonl(data, what=f"{what} line")]


def read_document(
    data: Any, *, provider: Provider = None, text: bool = True, streams: bool = False
) -> Document:
    """Read `data` into a `Document` (see the module docstring for what it takes and how the kind is
    decided). `provider` is the caller's reading (None strict, `openai`); SDK objects imply `openai`.
    `text=False` refuses JSON text (`check_transcript` takes values, not text); `streams=True` also
    recognises stream events, Agents API logs and tool definitions (the command line).

    Raises `ItemError` for what is no transcript (a scalar, an object that is neither an item, a body nor
    a Response, a Chat Completions body, an object both a body and a Response), for a body whose `input` /
    `output` is not a list (nor, for `input`, a string), and for text that is not strict JSON."""
    if isinstance(data, Document):  # read already (the command line reads once, then checks)
        if data.source is None:
            return data
        return read_document(list(data.iter_items()), provider=data.provider)  # a JSONL left open: read whole
    if isinstance(data, str | bytes | bytearray):
        if not text:
            got = "JSON text"
            raise _refuse(
                (), "not_items", f"items must be a list of items, a request body or a response, got {got}; read JSON "
                "text with parse_items (or replayable.parse_request / parse_response) first",
            )
        try:
            data = read_text(exact_text(data))  # a str or bytes subclass read as its own characters
        except JSONError as exc:
            raise _refuse((), exc.reason, str(exc), "cannot read") from None
        return _value_document(data, provider, streams, False)
    sdk = False
    if isinstance(data, BaseModel) and not isinstance(data, WireModel):
        if not is_openai_model(data):
            raise _refuse((), "not_items", f"items must be a list of items, a request body or a response, got "
                          f"{type(data).__name__}; {_WHAT_TO_PASS}")
        sdk, provider = True, "openai"
        data = plain_json(data, "document", max_depth=READER_DEPTH)
    if isinstance(data, WireModel):
        return _model_document(data, provider)
    return _value_document(data, provider, streams, sdk, text_items=not sdk)


def read_value(data: Any, *, provider: Provider = None, streams: bool = False) -> Document:
    """Read a JSON value (what strict JSON text reads to: an object, or an array of items; any other
    iterable of items too) into a `Document`, as `read_document` reads it once text, models and SDK
    objects are set aside (the file reader's door: `replayable.read_file`). Raises `ItemError` as
    `read_document` does."""
    return _value_document(data, provider, streams, False)


def _value_document(data: Any, provider: Provider, streams: bool, sdk: bool, *, text_items: bool = False) -> Document:
    if isinstance(data, Mapping):
        return _object_document(data, provider, streams, sdk)
    if not isinstance(data, Iterable):
        got = "None" if data is None else type(data).__name__
        raise _refuse((), "not_items", f"items must be a list of items, a request body or a response, got {got}; "
                      f"{_WHAT_TO_PASS}")
    items = list(data)
    if streams:
        kind = _list_kind(items)
        if kind is not None:
            return Document(kind, items, provider, value=items)
    items, read_with, sdk_items, classes = _read_items(items, provider)
    doc = Document(DocumentKind.ITEMS, items, provider, sdk=sdk or sdk_items, value=data,
                   read_with=_owner(read_with, sdk or sdk_items), text_items=text_items)
    doc._item_classes = classes
    return doc


def chat_envelope(raw: Mapping[str, Any]) -> bool:
    """Whether a JSON object carries a Chat Completions shape (`tool_calls`, `tool_call_id`, `role` `tool`
    or `function`, a legacy `function_call` field) or a call nested in a message's `content`: such an
    object must reach the rules as it is (never as a parsed model, which would keep the key as an unknown
    field), so that they report it (`chat_completions_envelope`, `function_call_in_content`)."""
    return chat_shape(raw) is not None or nested_call(raw) is not None


#: Per class: 1 one of our models (its unknown fields are looked at), 3 one of them read in OpenAI mode
#: (`replayable._openai_forms`), 2 an `openai` SDK model, 0 anything else. `isinstance` on pydantic models
#: goes through `ABCMeta`; the answer is kept per class.
_CLASS_KINDS: dict[type, int] = {}


def _class_kind(cls: type, item: Any) -> int:
    if isinstance(item, WireModel):
        kind = 3 if is_openai_form(item) else 1
    else:
        kind = 2 if is_openai_model(item) else 0
    if len(_CLASS_KINDS) < 4096:  # classes made on the fly never grow it without bound
        _CLASS_KINDS[cls] = kind
    return kind


def _read_items(items: list[Any], provider: Provider) -> tuple[list[Any], Provider, bool, list[type] | None]:
    """The items as every path must see them, the provider they say they were read with (`openai` when
    one is a model parsed in OpenAI mode: see `Document.read_with`), and whether any is an `openai` SDK
    object (each of those is read as its JSON in OpenAI mode by the rules, item by item, as `check_transcript_iter`
    reads it): a parsed message holding a Chat Completions key among its unknown fields is replaced by its
    JSON, where the envelope rule sees it. The per-item work runs in C (`map`): the kinds are asked once
    per class, and only the models holding unknown fields are looked at one by one. Last: the items'
    class of each item when all are our models holding no unknown field (`Document._item_classes`), else
    None."""
    kinds = _CLASS_KINDS
    classes = list(map(type, items))
    by_class = {cls: kinds.get(cls) for cls in set(classes)}
    if None in by_class.values():  # a class not seen before: asked once, of one of its items
        one = dict(zip(classes, items, strict=True))
        by_class = {cls: _class_kind(cls, one[cls]) if kind is None else kind for cls, kind in by_class.items()}
    found = set(by_class.values())
    sdk = 2 in found
    read_with: Provider = "openai" if 3 in found else None
    if 1 not in found and 3 not in found:
        return items, read_with, sdk, None
    if found <= {1, 3}:  # all our models: their unknown fields told in C
        held = list(compress(range(len(items)), map(_extras, items)))
        if not held:  # none holds an unknown field: the rules read their storages as they are
            return items, read_with, sdk, classes
    else:
        models = {cls for cls, kind in by_class.items() if kind in (1, 3)}
        held = [n for n, item in enumerate(items) if type(item) in models and _extras(item)]
    out: list[Any] | None = None
    for n in held:
        item = items[n]
        if CHAT_KEYS.isdisjoint(_extras(item)):
            continue
        if out is None:
            out = list(items)
        try:
            out[n] = plain_json(item)
        except ItemError:
            pass  # not JSON: the rules report it at its index, as for any item
    return (items if out is None else out), read_with, sdk, None


#: (request body classes, Response classes), imported on the first body model read (the body models load
#: when used: `import replayable` does not build them)
_BODY_CLASSES: list[tuple[type, ...]] = []
#: The fields of a Response the reader reads (`_body_document`); a request body's are all read (its keys
#: are checked against the target's profile).
_RESPONSE_READS = ("output", "tools", "tool_choice", "status")


def _body_classes() -> list[tuple[type, ...]]:
    if not _BODY_CLASSES:
        from replayable.request import CompactRequestBody, CreateResponseBody  # noqa: PLC0415  loaded when used
        from replayable.response import CompactResource, Response  # noqa: PLC0415

        _BODY_CLASSES[:] = [(CreateResponseBody, CompactRequestBody), (Response, CompactResource)]
    return _BODY_CLASSES


def _model_document(model: WireModel, provider: Provider) -> Document:
    """A body model of ours (`CreateResponseBody`, `CompactRequestBody`, `Response`, `CompactResource`) or
    one parsed item."""
    requests, responses = _body_classes()
    request = isinstance(model, requests)
    if request or isinstance(model, responses):
        if is_unchecked(model) or changed_since_read(model):  # skipped validation, or changed since: its JSON
            try:
                plain = to_plain(model)
            except JSONError as exc:
                msg = f"the {type(model).__name__} is not JSON: {exc.detail}"
                raise _refuse((), exc.reason, msg, "cannot read") from None
            return _value_document(plain, provider, False, False)
        if request:  # every key it holds, its unknown ones too
            fields = {**{k: getattr(model, k) for k in model.model_fields_set}, **(model.__pydantic_extra__ or {})}
        else:  # a Response: only what the reader reads of one (no unknown field is among them)
            told = model.model_fields_set
            fields = {k: getattr(model, k) for k in _RESPONSE_READS if k in told}
        return _body_document(fields, request, provider, False, model)
    items, read_with, sdk, _ = _read_items([model], provider)
    return Document(DocumentKind.ITEM, items, provider, sdk=sdk, value=model, read_with=_owner(read_with, sdk))


def object_kind(data: Mapping[str, Any], *, streams: bool = False) -> DocumentKind:
    """What a JSON object is, decided from its keys as the module docstring says: `ITEM`, `REQUEST` or
    `RESPONSE` (with `streams`, also `AGENTS_LOG` for an `agent.*` event and `TOOLS` for a tool
    definition). Raises `ItemError` for an object that is none of them, or both a body and a Response,
    or a Chat Completions body, saying what to pass instead."""
    t = data.get("type", _ABSENT)
    if t is not _ABSENT and t is not None:
        if streams and isinstance(t, str) and t.startswith("agent."):
            return DocumentKind.AGENTS_LOG
        if streams and looks_like_tools(data):
            return DocumentKind.TOOLS
        if isinstance(data.get("input"), list):  # no item holds a list of items: which one is meant is a guess
            raise _refuse(
                ("type",),
                "ambiguous_body",
                f"this JSON object has an item's 'type' ({printable(str(t))[:60]!r}) beside a request body's "
                "'input' list: pass the request body without 'type', or the item alone",
            )
        return DocumentKind.ITEM
    keys = data.keys()
    if "object" in data:
        obj = data["object"]
        if isinstance(obj, str) and obj in _RESPONSE_OBJECTS:  # an unhashable `object` is refused, not a crash
            if "input" in data:  # a Response has no `input`: which list is meant would be a guess
                raise _refuse(
                    ("input",),
                    "ambiguous_body",
                    f"this JSON object is a Response ('object': {obj!r}) with a request body's 'input' beside "
                    "its 'output': pass the request body alone, or the Response without 'input'",
                )
            return DocumentKind.RESPONSE
        shown = repr(obj) if isinstance(obj, str) else f"a {type(obj).__name__}"
        raise _refuse(("object",), "unknown_object", f"a JSON object whose 'object' is {shown} is neither a "
                      f"Response ('response') nor a compaction result ('response.compaction'): {_WHAT_TO_PASS}")
    if "messages" in data and "role" not in data:
        raise _refuse(("messages",), "chat_completions_body", "a Chat Completions request body ({model, messages}) "
                      "is not a Responses request: convert its messages with replayable.from_chat_completions("
                      "body['messages']) and send them as 'input'", "invalid request body")
    if "role" in data:
        return DocumentKind.ITEM
    if streams and looks_like_tools(data):
        return DocumentKind.TOOLS
    request = not _REQUEST_ONLY.isdisjoint(keys)
    response = not _RESPONSE_ONLY.isdisjoint(keys)
    if request and response:
        raise _refuse((), "ambiguous_body", "this JSON object has both a request body's fields ("
                      f"{', '.join(sorted(_REQUEST_ONLY & keys))}) and a Response's ("
                      f"{', '.join(sorted(_RESPONSE_ONLY & keys))}): pass the request body alone, or the Response "
                      "with 'object': 'response'")
    if response:
        return DocumentKind.RESPONSE
    if request or not _SHARED.isdisjoint(keys):
        return DocumentKind.REQUEST
    if keys <= {"id", "type"} and "id" in data:  # an item reference: its keys are `id` (and a null `type`)
        return DocumentKind.ITEM
    raise _refuse((), "not_items", "items must be a list of items, a request body or a response, got a JSON object "
                  f"that is none of them (no 'type', 'role', 'input', 'output' or 'object'): {_WHAT_TO_PASS}")


def _object_document(data: Mapping[str, Any], provider: Provider, streams: bool, sdk: bool) -> Document:
    if type(data) is not dict:  # read once, by its items, as `parse_request` reads it: never asked again
        try:
            data = check_value(data, what="JSON object", max_depth=READER_DEPTH)
        except JSONError:  # not JSON as it is (a parsed item held in `input`): each of its values read as it is
            data = dict(data.items())
    kind = object_kind(data, streams=streams)
    if kind is DocumentKind.REQUEST or kind is DocumentKind.RESPONSE:
        return _body_document(data, kind is DocumentKind.REQUEST, provider, sdk, data)
    if kind is DocumentKind.ITEM:
        items, _, _, _ = _read_items([data], provider)
        return Document(DocumentKind.ITEM, items, provider, sdk=sdk, value=data, read_with=_owner(None, sdk))
    return Document(kind, [data], provider, value=data)


_ABSENT = object()


def _body_document(data: Mapping[str, Any], request: bool, provider: Provider, sdk: bool, value: Any) -> Document:
    key = "input" if request else "output"
    raw = data.get(key)
    if raw is None:
        items: list[Any] = []
    elif request and isinstance(raw, str):
        items = [{"type": "message", "role": "user", "content": raw}]
    elif isinstance(raw, list):
        items = list(raw)
    else:
        got = type(raw).__name__
        raise _refuse((key,), "list_type", f"'{key}' must be a list of items, got {got}", "invalid body")
    items, read_with, sdk_items, _ = _read_items(items, provider)
    read_with = _owner(read_with, sdk or sdk_items)
    if read_with is None and _openai_body(value):
        read_with = "openai"
    # A body's `tools` (a Response echoes its request's) are a list: the calls it holds are checked against
    # them, on every path, as `check_transcript(tools=...)` checks them; a listed set without a function
    # tool lets no function call through (a request's `[]` too; a Response's `[]` says nothing: providers
    # that do not echo the tools send it). Anything else is refused, not ignored.
    tools = data.get("tools")
    if tools is not None and not isinstance(tools, list):
        raise _refuse(("tools",), "list_type", f"'tools' must be a list of tools, got {type(tools).__name__}",
                      "invalid body")
    tool_list = None if tools is None else [plain_json(t, "tool") if isinstance(t, BaseModel) else t for t in tools]
    tool_choice = _allowed_choice(data.get("tool_choice"))
    if not request:
        return Document(DocumentKind.RESPONSE, items, provider, "output", status=data.get("status"),
                        tools=function_tools(tool_list) if tool_list else None,  # an empty echo says nothing
                        tool_list=tool_list,
                        tool_choice=tool_choice, sdk=sdk or sdk_items, value=value, read_with=read_with)
    prev = data.get("previous_response_id")
    return Document(
        DocumentKind.REQUEST,
        items,
        provider,
        body_keys=tuple(k for k in data if isinstance(k, str)),
        tools=None if tool_list is None else function_tools(tool_list),
        tool_list=tool_list,
        tool_choice=tool_choice,
        choice=_plain(data.get("tool_choice")),
        settings={k: _plain(data[k]) for k in _SETTINGS if k in data},
        previous_response_id=prev if isinstance(prev, str) and prev else None,  # "" continues nothing
        sdk=sdk or sdk_items,
        read_with=read_with,
        value=value,
    )


def conversation_id(value: Any) -> str | None:
    """The id of the conversation a request's `conversation` names (OpenAPI `ConversationParam`: the id as a
    string, or `{id}`), or None when it names none (absent, or of another shape: `true`, `1`, `""`,
    `{"id": 5}`, which the body rules refuse as `body_invalid`)."""
    if isinstance(value, Mapping):
        value = value.get("id")
    return value if isinstance(value, str) and value else None


def _owner(read_with: Provider, sdk: bool) -> Provider:
    """Whose items these say they are: `openai` for SDK objects or models read in OpenAI mode, else None."""
    return "openai" if sdk else read_with


def _openai_body(value: Any) -> bool:
    """A Response or request body parsed with `provider="openai"` (`OpenAIResponse`, ...)."""
    if not isinstance(value, WireModel):
        return False
    from replayable.response import OpenAIResponse  # noqa: PLC0415  the body models load when used

    return isinstance(value, OpenAIResponse)


def _envelope_errors(
    data: Mapping[str, Any], provider: Provider, tools: list[Any] | None
) -> tuple[dict[str, Any], ...]:
    """The body's own fields read against the request model (`input` is read on its own, item by item;
    `tools` are read as their JSON, the reader's `tool_list`): `{loc, type, msg}` for each field that
    breaks it. A tool is part of what is sent, so a tool
    `parse_request` refuses (an unknown or un-prefixed hosted type in strict mode, `parameters` that are
    no object, a Chat Completions shape) is refused here too, whether or not a call names it."""
    from replayable.request import parse_request  # noqa: PLC0415  the body models load when a body is read

    envelope = {k: v for k, v in data.items() if k not in ("input", "tools")}
    if tools is not None:
        envelope["tools"] = tools
    try:
        parse_request(envelope, provider=provider)
    except ItemError as exc:
        return tuple(exc.errors)
    return ()


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return plain_json(value, "request body")
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _allowed_choice(choice: Any) -> Any:
    """A request's `tool_choice` when it is an `allowed_tools` choice (a JSON object), else None."""
    if isinstance(choice, BaseModel):
        choice = plain_json(choice, "tool_choice")
    return choice if isinstance(choice, Mapping) and choice.get("type") == "allowed_tools" else None


def allowed_from_tool_choice(choice: Any) -> list[str] | None:
    """The names an `allowed_tools` tool choice allows (`mode: "none"`: none), else None (no limit)."""
    if isinstance(choice, Mapping) and choice.get("type") == "allowed_tools":
        if choice.get("mode") == "none":
            return []
        tools = choice.get("tools")
        if isinstance(tools, list):
            return [t["name"] for t in tools if isinstance(t, Mapping) and isinstance(t.get("name"), str)]
        return []
    return None


def function_tools(tools: list[Any]) -> list[Any]:
    """The function tools of a list of tools (any shape `replayable._tools.read_tool` knows; hosted tools
    left out). Empty when there is none: a list of tools with no function tool lets no function call
    through (as `check_transcript(tools=[])` does); only the absence of a list is "no limit"."""
    return [t for t in tools if isinstance(t, Mapping) and t.get("type") in (None, "function")]


def read_previous(previous: Any) -> Document:
    """The response a request continues (`previous=`), read: a Response (any form; kind `response`, its
    `status` kept, its `id` in `response_id`) or its output items (kind `items`). Raises `ItemError`
    (loc `previous`, type `previous_type`) for anything else."""
    if isinstance(previous, str | bytes | bytearray) or (
        not isinstance(previous, Mapping | BaseModel) and not isinstance(previous, Iterable)
    ):
        raise _not_previous(previous)
    try:
        doc = read_document(previous, text=False)
    except ItemError:
        raise _not_previous(previous) from None
    if doc.kind not in (DocumentKind.RESPONSE, DocumentKind.ITEMS):
        raise _not_previous(previous)
    for n, item in enumerate(doc.items):  # its own findings are not reported: it must at least hold items
        if not isinstance(item, Mapping | BaseModel):
            got = "null" if item is None else type(item).__name__
            msg = f"previous output item {n} must be a JSON object (an item), got {got}"
            raise ItemError([{"loc": ("previous", n), "type": "item_type", "msg": msg}], "invalid previous response")
    if doc.kind is DocumentKind.RESPONSE:
        value = doc.value
        rid = value.get("id") if isinstance(value, Mapping) else getattr(value, "id", None)
        doc.response_id = rid if isinstance(rid, str) else None
    return doc


def _not_previous(previous: Any) -> ItemError:
    got = "null" if previous is None else type(previous).__name__
    msg = f"previous must be the response this request continues (or its output items), got {got}"
    return ItemError([{"loc": ("previous",), "type": "previous_type", "msg": msg}], "invalid previous response")


# --- what a list is, on the command line ------------------------------------------------------------------


def is_event_list(value: Any) -> bool:
    """True for a non-empty list of objects that are streaming events rather than items: every `type`
    starts with `response.` or is `error` (extension events typed `slug:name` may be mixed in), and at
    least one is a `response.*` event."""
    if not isinstance(value, list) or not value:
        return False
    types: list[str] = []
    for v in value:
        t = v.get("type") if isinstance(v, dict) else None
        if not isinstance(t, str):
            return False
        types.append(t)
    return any(t.startswith("response.") for t in types) and all(
        t.startswith("response.") or t == "error" or ":" in t for t in types
    )


def _list_kind(values: list[Any]) -> DocumentKind | None:
    if looks_like_tools(values):
        return DocumentKind.TOOLS
    if is_event_list(values):
        return DocumentKind.EVENTS
    for v in values:
        t = v.get("type") if isinstance(v, dict) else None
        if isinstance(t, str) and t.startswith("agent."):
            return DocumentKind.AGENTS_LOG
    return None


def first_value_kind(first: Any) -> DocumentKind | None:
    """What a JSONL whose first value is `first` holds, when that value says so line by line: ITEMS for an
    item (a JSONL of items, read in bounded memory), CODEX_ROLLOUT for a Codex rollout line
    (`is_rollout_line`), else None (read the whole input as one document)."""
    if is_rollout_line(first):
        return DocumentKind.CODEX_ROLLOUT
    if not isinstance(first, dict) or looks_like_tools(first):
        return None
    t = first.get("type")
    if isinstance(t, str) and (t.startswith(("response.", "agent.")) or t == "error"):
        return None
    try:
        kind = object_kind(first)
    except ItemError:
        return None
    return DocumentKind.ITEMS if kind is DocumentKind.ITEM else None


#: Types of the hosted (built-in) tools a tools file may list beside function tools (OpenAI's, the one
#: list in `replayable._native`): none of them is an item type (their calls are `web_search_call`, ...).
HOSTED_TOOL_TYPES = OPENAI_TOOL_TYPES
_ITEM_KEYS = frozenset({"role", "content", "call_id", "id", "output", "arguments", "status", "input"})


def _function_tool(v: Any) -> bool:
    """A function tool in a shape `replayable._tools.read_tool` knows (Responses, Chat Completions,
    Agents: `type` `function`; MCP: `name` and `inputSchema`; `name` and `parameters`)."""
    if not isinstance(v, dict) or not v.keys().isdisjoint(_ITEM_KEYS):
        return False
    if v.get("type") == "function":
        return "name" in v or isinstance(v.get("function"), dict)
    return "type" not in v and "name" in v and ("inputSchema" in v or "parameters" in v)


def _hosted_tool(v: Any) -> bool:
    if not isinstance(v, dict) or not v.keys().isdisjoint(_ITEM_KEYS):
        return False
    t = v.get("type")
    return isinstance(t, str) and t in HOSTED_TOOL_TYPES


def looks_like_tools(value: Any) -> bool:
    """Is a document (or a JSONL's first value) a file of tool definitions rather than a transcript?
    True for one function tool, a non-empty JSON array of tools with at least one function tool (the
    rest hosted tools, `HOSTED_TOOL_TYPES`), or an object whose only key is `tools` (a request body,
    with `input` or `messages` beside it, is never one). No Open Responses item has type `function`,
    and an item is never read as a tool: a value with an item's keys (`role`, `content`, `call_id`,
    `id`, ...) is not one."""
    if isinstance(value, dict):
        if isinstance(value.get("tools"), list) and value.keys() == {"tools"}:
            return not value["tools"] or looks_like_tools(value["tools"])
        return _function_tool(value)
    if not isinstance(value, list) or not value:
        return False
    hosted = [_hosted_tool(v) for v in value]
    functions = [_function_tool(v) for v in value]
    return any(functions) and all(f or h for f, h in zip(functions, hosted, strict=True))


# --- Codex session files ----------------------------------------------------------------------------------

#: The line types of a Codex rollout (openai/codex, `codex-rs/protocol`: `RolloutLine` is `{timestamp,
#: ...RolloutItem}`, and `RolloutItem` is `#[serde(tag = "type", content = "payload", rename_all =
#: "snake_case")]` over `SessionMeta`, `ResponseItem`, `Compacted`, `TurnContext`, `EventMsg`).
ROLLOUT_LINE_TYPES = frozenset({"session_meta", "response_item", "compacted", "turn_context", "event_msg"})
#: Response items Codex records but never sends to the model (`is_api_message` is false for them in
#: `codex-rs/core/src/context_manager/history.rs`): not part of the history a resume replays.
_CODEX_LOCAL_ITEMS = frozenset({"ghost_snapshot"})


def _line_type(value: Any) -> str | None:
    """The `type` of a value shaped as a rollout line, `{timestamp, type, payload}` with no other key (the
    timestamp may be absent), else None."""
    if not (isinstance(value, dict) and "payload" in value and value.keys() <= {"timestamp", "type", "payload"}):
        return None
    kind = value.get("type")
    return kind if isinstance(kind, str) else None


def is_rollout_line(value: Any) -> bool:
    """Is `value` one line of a Codex rollout: an object `{"timestamp", "type", "payload"}` whose `type`
    is one of `ROLLOUT_LINE_TYPES` (no Open Responses item has these types or a `payload`)?"""
    return _line_type(value) in ROLLOUT_LINE_TYPES


def _bookkeeping(value: Any) -> bool:
    """A rollout line and nothing else: one of `ROLLOUT_LINE_TYPES`, or a later line type (with its
    timestamp, and no item's type, spec or OpenAI's). Anything with another key, or an item's type, is an
    item that the rules read, never a line skipped as bookkeeping."""
    kind = _line_type(value)
    if kind is None or kind in ROLLOUT_LINE_TYPES:
        return kind is not None
    native = f"openai:{kind}"
    return (
        "timestamp" in value
        and ":" not in kind
        and kind not in SPEC_ITEM_TYPES
        and native not in INPUT_TYPES
        and native not in OUTPUT_TYPES
    )


def rollout_document(lines: Iterable[tuple[int, Any]], provider: Provider = None) -> Document:
    """A Codex rollout's document from its `(line number, value)` pairs: the `payload` of each
    `response_item` line, in file order, is an item (`Document.places` says on which line each was read); the other
    rollout lines (`session_meta`, `turn_context`, `event_msg`, `compacted`, and any later line type
    `{timestamp, type, payload}` with no other key and no item's type) are bookkeeping, not history, and
    are skipped, as are the items Codex
    never sends (`ghost_snapshot`). A `compacted` line that carries a `replacement_history` (a list of
    items) replaces the history read so far with it, as Codex does when it resumes the session
    (`codex-rs` rollout reconstruction): those items are checked, each placed on the `compacted` line. A
    value that is no rollout line at all (no `type` and `payload`) is kept as an item, so the rules report
    it at its line rather than it being dropped.
    Items are read by OpenAI's reading (`provider` `openai` unless given): Codex talks to the Responses
    API."""
    items: list[Any] = []
    numbers: list[int] = []
    for number, value in lines:
        if _bookkeeping(value):
            if value["type"] == "compacted":  # Codex resumes from the replacement history, not the lines above
                payload = value["payload"]
                history = payload.get("replacement_history") if isinstance(payload, dict) else None
                if isinstance(history, list):
                    items, numbers = list(history), [number] * len(history)
                continue
            if value["type"] != "response_item":
                continue
            payload = value["payload"]
            kind = payload.get("type") if isinstance(payload, dict) else None
            if isinstance(kind, str) and kind in _CODEX_LOCAL_ITEMS:
                continue
            value = payload
        items.append(value)
        numbers.append(number)
    provider = provider or "openai"
    items, read_with, sdk, _ = _read_items(items, provider)
    return Document(DocumentKind.CODEX_ROLLOUT, items, provider, value=items, places=Places.numbered(numbers),
                    read_with=_owner(read_with, sdk) or provider)
