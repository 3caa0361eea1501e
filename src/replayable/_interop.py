"""Interop: turn what a provider returned into what may be sent back, to it or to another provider.

- `to_input` converts one output-form item (a Response's `output[]` entry) into its input form, the
  shape `client.responses.create(input=...)` accepts (Open Responses 2026-04-24, "Items": output items
  always carry `id`; input items may omit `id` and `status`).
- `from_chat_completions` / `to_chat_completions` convert between a Chat Completions message history and
  the portable core of Open Responses items (`message`, `function_call`, `function_call_output`).
- `prepare_replay` keeps what can be replayed to a target provider and reports what it dropped or
  changed; its result passes `check_transcript(result, tools=tools, target=target)`.

Every function accepts plain JSON values (dicts), our parsed models, and `openai` SDK objects (pydantic
models from the `openai` package, which imply `provider="openai"`). Anything that cannot be read or
converted raises `ItemError`, whose `loc` starts with the index of the offending item or message.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from pydantic import BaseModel

from ._base import NamespacedBase, WireModel, checked_provider, is_unchecked
from ._chat_shapes import chat_key, chat_shape
from ._codes import code_info
from ._forms import input_form, is_message, reparse_input
from ._item_json import coerce_sdk, plain_json
from ._item_read import is_item_model
from ._item_validation import validate_item
from ._profiles import check_target
from ._reading import Document, read_document
from ._replay import (
    TranscriptReport,
    Violation,
    ViolationCode,
    body_findings,
    check_transcript,
    foreign_state,
    infer_source,
)
from ._replay_edits import (
    fit_profile,
    openai_wire_type,
    strip_file_ids,
    strip_orphaned_ids,
    strip_provider_annotations,
)
from ._tools import as_tool_list
from .errors import ReplayError, Verdict
from .items import (
    CompactionParam,
    InputItem,
    Item,
    ItemError,
    ItemReferenceParam,
    Provider,
    ReasoningParam,
    Side,
    dump_item,
    is_openai_model,
)

__all__ = [
    "ReplayReport",
    "from_chat_completions",
    "prepare_replay",
    "to_chat_completions",
    "to_input",
]


def _error(loc: tuple[Any, ...], code: str, msg: str, title: str = "cannot convert") -> ItemError:
    return ItemError([{"loc": loc, "type": code, "msg": msg}], title=title)


def _read(raw: Any, provider: Provider, index: int | None, order: tuple[Side, Side]) -> Item:
    """Parse one item in whichever form it is in (trying `order`); raises the closer side's `ItemError`."""
    if isinstance(raw, WireModel) and is_item_model(raw) and not is_unchecked(raw):
        return raw  # type: ignore[return-value]
    raw, from_sdk = coerce_sdk(raw)
    if from_sdk:
        provider = "openai"
    prefix: tuple[Any, ...] = () if index is None else (index,)
    if isinstance(raw, str | bytes | bytearray | memoryview | Mapping | WireModel):  # a model: no item, or unchecked
        try:
            raw = plain_json(raw)  # the strict reader: text parsed, a Mapping checked and made a dict
        except ItemError as exc:
            raise ItemError([{**e, "loc": prefix + e["loc"]} for e in exc.errors]) from None
    if isinstance(raw, Mapping):
        shape = chat_shape(raw)
        if shape is not None:
            raise _error(
                (*prefix, chat_key(raw)),
                "chat_completions_envelope",
                code_info(ViolationCode.CHAT_COMPLETIONS_ENVELOPE).render({"shape": shape}),
                "not a Responses item",
            )
    failures: list[ItemError] = []
    for side in order:
        try:
            return validate_item(raw, side, provider, index)  # type: ignore[no-any-return]
        except ItemError as exc:
            failures.append(exc)
    raise min(failures, key=lambda e: len(e.errors))


def to_input(item: Any, *, provider: Provider = None) -> InputItem:
    """Convert an output-form item into the input form that may be sent back.

    `item` is a parsed item, a JSON object (dict or JSON text) or an `openai` SDK object (a Response's
    output item such as `ResponseFunctionToolCall`; it implies `provider="openai"`). A dict is read as an
    output item first and, failing that, as an input item.

    Follows Open Responses 2026-04-24 "Items" (output items always carry `id`; input items may omit
    `id` and `status`): `id`, `status`, `phase`, `call_id` (byte for byte), `arguments`, reasoning
    `summary` and `encrypted_content` and unknown fields are kept; reasoning `content`, `output_text`
    `logprobs` and compaction `created_by` are output-only and dropped. Input-form items, item references
    and namespaced (`slug:name`) items are returned unchanged.

    Returns an input-form model (`AssistantMessageParam`, `UserMessageParam`, `FunctionCallParam`,
    `FunctionCallOutputParam`, `ReasoningParam`, `CompactionParam`, ...). Raises `ItemError` when the
    item does not parse or has no input form (e.g. an assistant message holding `input_text` parts).
    """
    if is_openai_model(item):
        provider = "openai"
    checked_provider(provider)
    model = _read(item, provider, None, ("output", "input"))
    return cast("InputItem", input_form(model, provider, None))  # an input form, by what input_form does


# --- Chat Completions -------------------------------------------------------------------------------------

_CHAT_KEYS: dict[str, frozenset[str]] = {
    "system": frozenset({"role", "content", "name"}),
    "developer": frozenset({"role", "content", "name"}),
    "user": frozenset({"role", "content", "name"}),
    "assistant": frozenset(
        {"role", "content", "name", "tool_calls", "refusal", "annotations", "audio", "function_call"}
    ),
    "tool": frozenset({"role", "content", "tool_call_id"}),
}


def _chat_message(raw: Any, n: int) -> dict[str, Any]:
    if isinstance(raw, BaseModel):
        raw = plain_json(raw)
    if not isinstance(raw, Mapping):
        got = "null" if raw is None else type(raw).__name__
        raise _error((n,), "chat_message_type", f"a Chat Completions message is a JSON object, got {got}")
    msg = {k: v for k, v in raw.items() if v is not None}  # absent and null are the same in Chat Completions
    role = msg.get("role")
    if role == "function":
        raise _error(
            (n, "role"),
            "chat_legacy_function",
            "the legacy 'function' role has no call_id to pair with; convert it to a tool message "
            "answering a tool_calls entry first",
        )
    if not isinstance(role, str) or role not in _CHAT_KEYS:
        raise _error(
            (n, "role"),
            "chat_unknown_role",
            f"unknown role {role!r}: expected system, developer, user, assistant or tool",
        )
    extra = sorted(set(msg) - _CHAT_KEYS[role])
    if extra:
        raise _error(
            (n, extra[0]),
            "chat_unknown_field",
            f"field {extra[0]!r} of a {role} message has no Open Responses form",
        )
    if "audio" in msg:
        raise _error((n, "audio"), "chat_audio", "assistant audio has no Open Responses input form")
    if "function_call" in msg:
        raise _error(
            (n, "function_call"),
            "chat_legacy_function_call",
            "the legacy function_call field has no call_id; use tool_calls",
        )
    return dict(msg)


def _chat_part(part: Any, role: str, loc: tuple[Any, ...]) -> dict[str, Any]:
    if not isinstance(part, Mapping):
        raise _error(loc, "chat_content_part", "a content part is a JSON object")
    t = part.get("type")
    if t == "text" and isinstance(part.get("text"), str):
        if role == "assistant":
            return {"type": "output_text", "text": part["text"], "annotations": []}
        return {"type": "input_text", "text": part["text"]}
    if t == "refusal" and role == "assistant" and isinstance(part.get("refusal"), str):
        return {"type": "refusal", "refusal": part["refusal"]}
    if t == "image_url" and role == "user" and isinstance(part.get("image_url"), Mapping):
        img = part["image_url"]
        # "auto" is Chat Completions' default, and OpenAI's input type requires a detail
        return {"type": "input_image", "image_url": img.get("url"), "detail": img.get("detail") or "auto"}
    if t == "file" and role == "user" and isinstance(part.get("file"), Mapping):
        return {"type": "input_file", **{k: v for k, v in part["file"].items() if v is not None}}
    if t == "input_audio":
        raise _error(loc, "chat_audio", "input_audio parts have no Open Responses input form")
    raise _error(loc, "chat_content_part", f"a {t!r} content part has no Open Responses form in a {role} message")


def _chat_content(msg: dict[str, Any], role: str, n: int) -> Any:
    content = msg.get("content")
    if isinstance(content, list):
        return [_chat_part(p, role, (n, "content", j)) for j, p in enumerate(content)]
    if content is None or isinstance(content, str):
        return content
    raise _error((n, "content"), "chat_content_type", "content must be a string or a list of content parts")


def _annotations(msg: dict[str, Any], n: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for j, a in enumerate(msg.get("annotations") or []):
        cite = a.get("url_citation") if isinstance(a, Mapping) and a.get("type") == "url_citation" else None
        if not isinstance(cite, Mapping):
            raise _error((n, "annotations", j), "chat_annotation", "only url_citation annotations can be converted")
        out.append({"type": "url_citation", **{k: cite.get(k) for k in ("url", "start_index", "end_index", "title")}})
    return out


def _assistant_items(msg: dict[str, Any], n: int) -> list[dict[str, Any]]:
    content = _chat_content(msg, "assistant", n)
    annotations = _annotations(msg, n)
    if annotations:
        if not isinstance(content, str):
            raise _error((n, "annotations"), "chat_annotation", "annotations can be converted only with string content")
        content = [{"type": "output_text", "text": content, "annotations": annotations}]
    if "refusal" in msg:
        parts = (
            []
            if not content
            else (
                [{"type": "output_text", "text": content, "annotations": []}] if isinstance(content, str) else content
            )
        )
        content = [*parts, {"type": "refusal", "refusal": msg["refusal"]}]
    items: list[dict[str, Any]] = []
    calls = msg.get("tool_calls") or []
    if content or not calls:  # an assistant message with only tool calls yields no message item
        items.append({"type": "message", "role": "assistant", "content": content if content is not None else ""})
    if not isinstance(calls, list):
        raise _error((n, "tool_calls"), "chat_tool_calls", "tool_calls must be a list")
    for j, call in enumerate(calls):
        loc = (n, "tool_calls", j)
        if not isinstance(call, Mapping):
            raise _error(loc, "chat_tool_call", "a tool call is a JSON object")
        if call.get("type", "function") != "function" or not isinstance(call.get("function"), Mapping):
            raise _error(
                loc,
                "chat_non_function_tool_call",
                f"a {call.get('type')!r} tool call has no Open Responses form; only function calls convert",
            )
        fn = call["function"]
        if not isinstance(fn.get("arguments"), str):
            raise _error(
                (*loc, "function", "arguments"),
                "chat_arguments_type",
                "arguments must be a JSON string (serialize the object first)",
            )
        items.append(
            {
                "type": "function_call",
                "call_id": call.get("id"),
                "name": fn.get("name"),
                "arguments": fn["arguments"],
            }
        )
    return items


def from_chat_completions(messages: Iterable[Any], *, known_calls: Iterable[str] = ()) -> list[Item]:
    """Convert a Chat Completions history into Open Responses input items.

    `messages` are Chat Completions messages as dicts or `openai` SDK objects (`ChatCompletionMessage`):
    `system` / `developer` / `user` messages become `message` items (string content stays a string;
    `text` parts become `input_text`, `image_url` parts `input_image`, `file` parts `input_file`); an
    assistant message becomes a `message` item (`text` parts as `output_text`, `refusal` as a refusal
    part) followed by one `function_call` per `tool_calls` entry, in order, with the same `call_id` and
    the `arguments` string unchanged (an assistant message with only tool calls yields no message item);
    a `tool` message becomes a `function_call_output` with `call_id = tool_call_id`. `name` is dropped.

    Returns input-form models. Raises `ItemError` whose `loc` starts with the message index for what has
    no Open Responses form or does not pair: the legacy `function` role or `function_call` field, audio,
    non-function tool calls, non-string arguments, unknown roles or fields, a tool message answering no
    earlier call or a call already answered. `known_calls`: the call ids of calls issued before
    `messages` (the `function_call` items of a history that mixes both shapes), which a tool message may
    answer too. Spec: Open Responses 2026-04-24 "Tool calling".
    """
    if isinstance(messages, str | bytes | bytearray | Mapping) or not isinstance(messages, Iterable):
        got = "a JSON object" if isinstance(messages, Mapping) else type(messages).__name__
        raise _error((), "list_type", f"expected a list of Chat Completions messages, got {got}")
    out: list[Item] = []
    calls: set[str] = set(known_calls)
    answered: set[str] = set()
    for n, raw in enumerate(messages):
        try:
            out.extend(_from_chat_message(raw, n, calls, answered))
        except ItemError as exc:
            raise ItemError(exc.errors, title=f"Chat Completions message {n} cannot be converted") from None
    return out


def _from_chat_message(raw: Any, n: int, calls: set[str], answered: set[str]) -> list[Item]:
    out: list[Item] = []
    msg = _chat_message(raw, n)
    role = msg["role"]
    if role == "assistant":
        dicts = _assistant_items(msg, n)
    elif role == "tool":
        cid = msg.get("tool_call_id")
        if cid not in calls:
            raise _error(
                (n, "tool_call_id"),
                "chat_orphan_tool_message",
                f"tool message answers {cid!r}, which no earlier assistant tool_calls entry has",
            )
        if cid in answered:
            raise _error((n, "tool_call_id"), "chat_duplicate_tool_message", f"call {cid!r} was already answered")
        answered.add(cid)
        output = _chat_content(msg, "user", n)
        if isinstance(output, list) and any(p.get("type") != "input_text" for p in output):
            raise _error((n, "content"), "chat_content_part", "a tool message's content parts must be text")
        dicts = [{"type": "function_call_output", "call_id": cid, "output": output if output is not None else ""}]
    else:
        content = _chat_content(msg, role, n)
        dicts = [{"type": "message", "role": role, "content": content if content is not None else ""}]
    for d in dicts:
        try:
            item = validate_item(d, "input", None, None)
        except ItemError as exc:
            raise ItemError([{**e, "loc": (n, *e["loc"])} for e in exc.errors]) from None
        if d["type"] == "function_call":
            if d["call_id"] in calls:
                raise _error((n, "tool_calls"), "chat_duplicate_call_id", f"call id {d['call_id']!r} used twice")
            calls.add(d["call_id"])
        out.append(item)
    return out


def _to_chat_part(part: dict[str, Any], role: str, loc: tuple[Any, ...]) -> dict[str, Any]:
    t = part.get("type")
    if t in ("input_text", "output_text", "text"):
        return {"type": "text", "text": part.get("text")}
    if t == "refusal" and role == "assistant":
        return {"type": "refusal", "refusal": part.get("refusal")}
    if t == "input_image" and role == "user" and isinstance(part.get("image_url"), str):
        img = {"url": part["image_url"]}
        if part.get("detail") in ("auto", "low", "high"):
            img["detail"] = part["detail"]
        return {"type": "image_url", "image_url": img}
    if t == "input_file" and role == "user" and (part.get("file_id") or part.get("file_data")):
        return {
            "type": "file",
            "file": {k: part[k] for k in ("file_id", "file_data", "filename") if part.get(k)},
        }
    raise _error(loc, "no_chat_form", f"a {t!r} content part has no Chat Completions form in a {role} message")


def to_chat_completions(items: Iterable[Any], *, provider: Provider = None) -> list[dict[str, Any]]:
    """Convert the portable core of Open Responses items into Chat Completions messages.

    `items` are items in input or output form (dicts, parsed models or `openai` SDK objects). A `message`
    becomes `{"role", "content"}` (string content stays a string; text parts become `text` parts,
    `input_image` with a URL an `image_url` part, `input_file` a `file` part); consecutive
    `function_call`s become one assistant message's `tool_calls` (joined to a directly preceding
    assistant message), and each `function_call_output` a `tool` message. Ids, statuses, phases and
    annotations have no Chat Completions form and are left out.

    Raises `ItemError` naming the item index for items with no Chat Completions form (namespaced items,
    reasoning, compaction, item references), unfinished calls, and parts that cannot be expressed.
    """
    out: list[dict[str, Any]] = []
    prev: str | None = None
    doc = read_document(items, provider=provider, text=False)
    provider = doc.provider
    for i, raw in enumerate(doc.items):
        model = input_form(_read(raw, provider, i, ("input", "output")), provider, i)
        if isinstance(model, NamespacedBase | ReasoningParam | CompactionParam | ItemReferenceParam):
            kind = getattr(model, "type", None) or "item_reference"
            raise _error((i, "type"), "no_chat_form", f"a {kind} item has no Chat Completions form")
        d = dump_item(model)
        t = d.get("type", "message")
        _refuse_fields_without_chat_form(d, t, i)
        if t == "function_call":
            if d.get("status") in ("in_progress", "incomplete"):
                raise _error(
                    (i, "status"),
                    "unfinished_call",
                    f"a call with status {d['status']!r} must not be replayed",
                )
            call = {
                "id": d["call_id"],
                "type": "function",
                "function": {"name": d["name"], "arguments": d["arguments"]},
            }
            if out and prev in ("function_call", "assistant") and out[-1]["role"] == "assistant":
                out[-1].setdefault("tool_calls", []).append(call)
                out[-1].setdefault("content", None)
            else:
                out.append({"role": "assistant", "content": None, "tool_calls": [call]})
            prev = "function_call"
        elif t == "function_call_output":
            output = d["output"]
            if isinstance(output, list):
                output = [_to_chat_part(p, "tool", (i, "output", j)) for j, p in enumerate(output)]
                if any(p["type"] != "text" for p in output):
                    raise _error((i, "output"), "no_chat_form", "a tool message holds text parts only")
            out.append({"role": "tool", "tool_call_id": d["call_id"], "content": output})
            prev = "function_call_output"
        else:
            role = d["role"]
            content = d["content"]
            if isinstance(content, list):
                content = [_to_chat_part(p, role, (i, "content", j)) for j, p in enumerate(content)]
            out.append({"role": role, "content": content})
            prev = role
    return out


# The fields each core item may carry that Chat Completions has no place for and that change nothing a
# replay means (the docstring of to_chat_completions names them); any other field would be lost.
_LEFT_OUT = {
    "message": frozenset({"type", "id", "role", "content", "status", "phase"}),
    "function_call": frozenset({"type", "id", "call_id", "name", "arguments", "status"}),
    "function_call_output": frozenset({"type", "id", "call_id", "output", "status"}),
}


def _refuse_fields_without_chat_form(d: dict[str, Any], t: str, i: int) -> None:
    """Refuse a field the conversion would drop although it changes what the item means: a call's
    `namespace` (other than OpenAI's form for a top-level tool, the call's own name) names another tool,
    and an unknown field would be lost without a word."""
    known = _LEFT_OUT.get(t, _LEFT_OUT["message"])
    for key in d:
        if key in known or (key == "namespace" and t == "function_call" and d[key] in (None, d.get("name"))):
            continue
        what = (
            f"a call in namespace {d[key]!r} names another tool than the top-level {d.get('name')!r}"
            if key == "namespace"
            else f"field {key!r} would be lost"
        )
        raise _error((i, key), "no_chat_form", f"{what}; Chat Completions has no form for it")


# --- prepare_replay ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReplayReport(Verdict):
    """What `prepare_replay` did.

    `dropped` lists `(input index, reason)` for each item left out; `changed` lists `(input index, what)`
    for each kept item that was altered (provider-scoped `id` removed, a `file_id` part removed, a
    shorthand message given its `type`); `kept` maps each returned item to its input index; `source` is
    the provider slug the items were taken to come from (None: unknown); `check` is the
    `check_transcript(result, tools=tools, target=target)` report of the result (always ok).
    """

    target: str
    source: str | None
    dropped: tuple[tuple[int, str], ...]
    changed: tuple[tuple[int, str], ...]
    kept: tuple[int, ...]
    check: TranscriptReport

    @property
    def ok(self) -> bool:
        return self.check.ok

    def violation_lines(self) -> list[str]:
        """The violations of `check`, as `ReplayError` prints them."""
        return self.check.violation_lines()


#: Findings no rewrite fixes (the data itself is broken): `prepare_replay` refuses them with `ReplayError`.
_NO_REWRITE = frozenset({ViolationCode.DATA_URL_INVALID})

_DROP_CODES: dict[ViolationCode, str] = {
    ViolationCode.FUNCTION_CALL_WITHOUT_OUTPUT: "call left unanswered",
    ViolationCode.INCOMPLETE_CALL_REPLAYED: "call is incomplete",
    ViolationCode.IN_PROGRESS_CALL_REPLAYED: "call is in_progress",
    ViolationCode.OUTPUT_WITHOUT_FUNCTION_CALL: "output answers no kept call",
    ViolationCode.DUPLICATE_OUTPUT: "second output for one call",
    ViolationCode.DUPLICATE_CALL_ID: "duplicate call_id",
    ViolationCode.OUTPUT_FOR_UNFINISHED_CALL: "output answers an unfinished call",
    ViolationCode.FOREIGN_EXTENSION_ITEM: "namespaced item of another provider",
    ViolationCode.REASONING_WITHOUT_FOLLOWING_ITEM: "reasoning whose produced item is not kept",
    ViolationCode.UNKNOWN_TOOL: "call to a tool not in tools",
    ViolationCode.ARGUMENTS_PARSE: "arguments are not strict JSON",
    ViolationCode.ARGUMENTS_SCHEMA: "arguments fail the tool's parameters",
    ViolationCode.TOOL_NOT_ALLOWED: "tool not allowed",
    ViolationCode.DUPLICATE_ITEM_ID: "duplicate item id (a provider item keeps its own id)",
}


def prepare_replay(
    items: Iterable[Any] | Document,
    *,
    target: str,
    tools: Iterable[Any] | None = None,
    provider: Provider = None,
    source: str | None = None,
    interrupted_output: str | None = None,
) -> tuple[list[InputItem], ReplayReport]:
    """Keep what can be replayed to the provider `target` (a slug such as `openai` or `acme`).

    `items` are items in input or output form (dicts, parsed models, `openai` SDK objects, which imply
    `provider="openai"`), a request body or a Response, or a `replayable.Document` (what the one
    reader made of any of these); each kept item is returned in its input form (see `to_input`). `source` is the
    slug of the provider the items came from; by default `provider`, else `openai` for SDK objects, else
    the one slug of the namespaced items (for ids), else unknown (treated as different from `target`). Whose
    opaque state (reasoning `encrypted_content`, compaction) the items hold is never guessed from a
    namespaced item: without `source` or `provider` it is unknown, as `check_transcript` reads it.

    Messages are never dropped. Dropped, with the input index and a reason in `report.dropped`:
    namespaced items of another slug; reasoning with `encrypted_content` and compaction items when the
    source differs from the target (their state is opaque to other providers); `in_progress` /
    `incomplete` calls, unanswered calls, duplicate calls and outputs answering nothing (or answering a
    dropped call); calls `tools` (or a body's `allowed_tools` choice) does not allow; reasoning whose
    produced item was dropped. Changed, in
    `report.changed`: provider-scoped item `id`s removed when the source differs from the target, content
    parts holding a `file_id` removed likewise, shorthand messages given `"type": "message"`.

    The target's profile (docs/targets.md) is applied too: for `openai`, refused `null`s, keys the
    target does not accept and ids in another provider's format are removed (listed in `changed`); with a
    request body whose `store` is false, reasoning sent as a bare id is dropped. What has no safe
    rewrite (a field of the wrong JSON type, an image without a source, a bad `data:` URL, a
    computer_call_output without a screenshot, an `item_reference` under `store: false`) raises
    `ReplayError` naming each item and code; so does a request body whose own fields cannot be read
    (`body_invalid`: `previous_response_id: 7`, `conversation: true`), since they decide how its items are.

    `interrupted_output`: the text of an explicit output for a call whose run was interrupted (a finished
    `function_call` or `custom_tool_call` that nothing answers), the repair LangChain, pydantic-ai and
    Codex settled on, instead of dropping the call: a `function_call_output` (`custom_tool_call_output`)
    with that text is added right after the call, listed in `changed` at the call's index; in `kept` the
    added output maps to its call's index too. Other unanswered calls are dropped as before.

    The result always passes `check_transcript(result, tools=tools, target=target)` (`report.check`).
    Raises `ItemError` naming the index of an item that does not parse (or is a Chat Completions shape;
    convert those with `from_chat_completions` first). Spec: Open Responses 2026-04-24, "Extending
    items", "Items are state machines", "Tool calling".
    """
    check_target(target)
    if not isinstance(target, str) or not target:
        raise ValueError("target must be a provider slug such as 'openai' or 'acme'")
    checked_provider(provider)
    doc = read_document(items, provider=provider, text=False)  # the one reader, as check_transcript reads it
    # a body's own fields that cannot be read decide how its items are read (what it continues, which tools
    # are allowed): nothing dropped makes them right. (What names the body's tools is the body's, not the items'.)
    refused = [v for v in body_findings(doc) if v.code is ViolationCode.BODY_INVALID]
    if refused:
        raise ReplayError(
            TranscriptReport(tuple(refused)),
            "cannot replay this request body: " + "; ".join(f"{v.code}: {v.message}" for v in refused[:5]),
        )
    raws, provider = doc.items, doc.provider or provider  # a Document read before keeps the caller's provider
    sdk_source = doc.read_with  # SDK objects, and models parsed with provider="openai", say they are OpenAI's
    if tools is None:
        tools = doc.tools  # a request body's own function tools, as check_transcript reads them
    tool_list = None if tools is None else as_tool_list(tools)
    allowed = doc.tool_choice  # a body's `allowed_tools` choice limits what is kept, as check_transcript reads it
    parsed = [
        _read(r, "openai" if is_openai_model(r) else provider, i, ("input", "output")) for i, r in enumerate(raws)
    ]
    if interrupted_output is not None:
        if not isinstance(interrupted_output, str):
            raise ValueError(f"interrupted_output must be a string, got {type(interrupted_output).__name__}")
        answers = _interrupted_answers(doc, parsed, interrupted_output)
        if answers:
            return _with_answers(doc, answers, target=target, tools=tools, provider=provider, source=source)
    src = source or provider or sdk_source or infer_source(parsed)  # whose ids (a namespaced slug says it)
    # whose opaque state (reasoning encrypted_content, compaction) these are: never guessed from a namespaced
    # item beside it, so that the result gets check_transcript's verdict (and check_stream's)
    state_src = source or provider or sdk_source
    foreign = src != target
    dropped: dict[int, str] = {}
    changed: list[tuple[int, str]] = []
    models: dict[int, Item] = {}
    dumps: dict[int, dict[str, Any]] = {}  # each kept model's JSON, for the profile (dumped once)

    for i, model in enumerate(parsed):
        model = input_form(model, "openai" if is_openai_model(raws[i]) else provider, i)
        if isinstance(model, NamespacedBase):
            if model.slug != target:
                dropped[i] = f"namespaced item {model.type} belongs to provider {model.slug!r}, not {target!r}"
            else:
                models[i] = model
            continue
        why = foreign_state(model, state_src, target)
        if why is not None:
            dropped[i] = why
            continue
        if isinstance(model, ItemReferenceParam) and foreign:
            dropped[i] = "item_reference points at another provider's stored item"
            continue
        data = dump_item(model)
        edits: list[str] = []
        if data.get("type") is None and "role" in data:
            data["type"] = "message"
            edits.append("shorthand message given type 'message'")
        for key in ("id", "status"):
            if key in data and data[key] is None:  # null means absent on input; OpenAI's SDK types refuse it
                del data[key]
                edits.append(f"null {key} removed")
        if foreign and data.get("id") is not None:
            del data["id"]
            edits.append("provider-scoped id removed")
        if foreign:
            key = "output" if data.get("type") == "function_call_output" else "content"
            stripped, n = strip_file_ids(data.get(key))
            if n:
                data[key] = stripped
                edits.append(f"{n} content part(s) with another provider's file_id removed")
            n = strip_provider_annotations(data.get("content"))
            if n:
                edits.append(f"{n} provider-specific annotation(s) removed (only url_citation is portable)")
        if edits:
            model = reparse_input(data, None, i)
            changed.extend((i, e) for e in edits)
        models[i] = model
        dumps[i] = data

    fit_profile(models, dumps, dropped, changed, target, doc.settings)
    orphans: set[int] = set()  # items whose server id was removed because their reasoning was dropped
    # Fixpoint: drop what check_transcript still objects to, and reasoning before a dropped item.
    for _ in range(len(raws) + 2):
        order = [i for i in range(len(raws)) if i in models and i not in dropped]
        for i in range(len(raws) - 1, 0, -1):
            if i in dropped and i - 1 in models and i - 1 not in dropped and isinstance(models[i - 1], ReasoningParam):
                dropped[i - 1] = f"reasoning whose produced item (item {i}) was dropped"
        strip_orphaned_ids(parsed, models, dropped, changed, orphans)
        order = [i for i in range(len(raws)) if i in models and i not in dropped]
        report = check_transcript(
            _as_read([models[i] for i in order], doc), tools=tool_list, target=target, source=state_src,
            allowed_tools=allowed,
        )
        if report.ok:
            break  # `report` is the check of exactly the result: it is `report.check`
        broken = [
            Violation(order[v.index], v.code, v.message, v.path)
            for v in report.violations
            if v.code in _NO_REWRITE and v.index is not None
        ]
        if broken:  # nothing dropped or removed makes these right: refused, as the profile's refusals are
            raise ReplayError(
                TranscriptReport(tuple(broken)),
                f"cannot make the items acceptable to {target!r}: "
                + "; ".join(f"item {v.index}: {v.code}: {v.message}" for v in broken[:5]),
            )
        progressed = False
        for v in report.violations:
            if v.index is None:
                continue
            i = order[v.index]
            if i in dropped:
                continue
            m = models[i]
            if v.code is ViolationCode.DUPLICATE_ITEM_ID and not isinstance(m, ReasoningParam | NamespacedBase):
                data = dump_item(m)
                data.pop("id", None)
                models[i] = reparse_input(data, None, i)
                changed.append((i, "duplicate id removed"))
                progressed = True
            elif is_message(m):
                raise _error((i,), str(v.code), f"message cannot be made replay-safe: {v.message}")
            else:
                dropped[i] = f"{_DROP_CODES.get(v.code, str(v.code))}: {v.message}"
                progressed = True
        if not progressed:
            raise _error((), "prepare_failed", "could not make the items replay-safe")
    else:  # every round dropped something and the last one still had findings
        raise _error((), "prepare_failed", "could not make the items replay-safe")
    if target == "openai" and provider == "openai":  # read as OpenAI writes: OpenAI's items go back in its spelling
        for i in order:
            rewritten = openai_wire_type(models[i])
            if rewritten is not None:
                models[i], kind = rewritten
                changed.append((i, f"openai:{kind} written as OpenAI's own type {kind!r}"))
    rep = ReplayReport(
        target=target,
        source=src,
        dropped=tuple(sorted(dropped.items())),
        changed=tuple(sorted(c for c in changed if c[0] not in dropped)),  # a dropped item is not also changed
        kept=tuple(order),
        check=report,
    )
    return [cast("InputItem", models[i]) for i in order], rep  # each kept item is in its input form


#: The call types whose interrupted run `prepare_replay(interrupted_output=...)` answers, and the type of
#: the text output that answers each.
_ANSWERABLE = {"function_call": "function_call_output", "custom_tool_call": "custom_tool_call_output"}


def _interrupted_answers(doc: Document, parsed: list[Any], text: str) -> dict[int, dict[str, Any]]:
    """For each finished call that nothing answers (`function_call_without_output` in the check of the
    items as given), of a type in `_ANSWERABLE`: the output to add after it, by the call's index."""
    report = check_transcript(doc, provider=doc.provider)
    answers: dict[int, dict[str, Any]] = {}
    for v in report.violations:
        if v.code is not ViolationCode.FUNCTION_CALL_WITHOUT_OUTPUT or v.index is None:
            continue
        model = parsed[v.index]
        kind = str(getattr(model, "type", "")).removeprefix("openai:")
        call_id = getattr(model, "call_id", None)
        if kind in _ANSWERABLE and isinstance(call_id, str):
            answers[v.index] = {"type": _ANSWERABLE[kind], "call_id": call_id, "output": text}
    return answers


def _with_answers(
    doc: Document, answers: dict[int, dict[str, Any]], **kwargs: Any
) -> tuple[list[InputItem], ReplayReport]:
    """`prepare_replay` of the items with each added output right after its call, its report in the
    indexes of the items as given (an added output counts as its call's index)."""
    items: list[Any] = []
    origin: list[int] = []
    added: set[int] = set()
    for i, raw in enumerate(doc.items):
        items.append(raw)
        origin.append(i)
        if i in answers:
            added.add(len(items))
            items.append(answers[i])
            origin.append(i)
    result, rep = prepare_replay(dataclasses.replace(doc, items=items), **kwargs)
    kept_added = {n for n in rep.kept if n in added}
    changed = [(origin[n], what) for n, what in rep.changed]
    changed += [(origin[n], "interrupted call answered with an explicit output") for n in kept_added]
    return result, dataclasses.replace(
        rep,
        dropped=tuple((origin[n], why) for n, why in rep.dropped if n not in added),
        changed=tuple(sorted(changed)),
        kept=tuple(origin[n] for n in rep.kept),
    )


def _as_read(items: list[Item], doc: Document) -> Any:
    """What the kept items are checked as: a continuation request's input stays a continuation (its
    outputs may answer calls of the previous response or of the conversation), anything else a list of
    items."""
    if doc.continues:
        if doc.previous_response_id is not None:
            return {"previous_response_id": doc.previous_response_id, "input": items}
        return {"conversation": (doc.settings or {}).get("conversation"), "input": items}
    return items


