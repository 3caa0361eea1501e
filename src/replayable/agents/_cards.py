"""Result cards: the third door. A turn that must end in a structured result (a "card") is checked
before anything acts on it.

`check_card` finds the turn's final assistant message, reads its text as strict JSON (the rules of
`replayable._arguments.parse_arguments`) and validates the value against the card's own JSON Schema
with jsonschema-rs (`replayable._arguments.schema_failures`). The schema is the card's, never a tool's
`parameters` nor the request's `text.format`. Items are read leniently: Open Responses input or output
items, OpenAI Agents API session items (`phase: commentary | final_answer`) or
`agent.session.turn.item.done` events, our models and `openai` SDK objects. Exposed as
`replayable.agents.check_card`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from replayable._arguments import ArgumentsError, SchemaFailure, compile_schema, parse_arguments, schema_failures
from replayable._item_json import plain_json
from replayable._json import printable
from replayable._tools import read_tool
from replayable.errors import Verdict
from replayable.items import ItemError

# `parse_arguments` messages start "arguments: <rule>" (the strict reader) or "arguments are/have/...":
# said of a card's text instead
_TEXT_VERBS = (
    ("arguments: not valid JSON", "the text is not valid JSON"),
    ("arguments: ", "the text: "),
    ("arguments are", "the text is"),
    ("arguments have", "the text has"),
    ("arguments nest", "the text nests"),
    ("arguments contain", "the text contains"),
    ("arguments must", "the text must"),
)

__all__ = ["CardCheck", "check_card"]

#: Message statuses whose card may be checked: `completed`, or none given (an input message).
_FINISHED = (None, "completed")


@dataclass(frozen=True, slots=True)
class CardCheck(Verdict):
    """The verdict of `check_card` (read-only).

    `ok` is true when the final answer parsed as strict JSON and passes the card schema. `card` is the
    parsed value once the text parsed (also when it then fails the schema), else `None`; act on it only
    when `ok`. `failures` are `SchemaFailure(path, keyword, message)`: `path` is a JSON Pointer into
    the card, `keyword` the JSON Schema keyword that failed, or one of `json` (the text is not strict
    JSON, e.g. prose), `refusal`, `incomplete` (the message was cut off), `in_progress` (the message is
    not finished), `status` (any other status but `completed`; a message without one is read) and `missing` (no final
    assistant message), all at path `""`. `index` is the position of the checked message in `items`
    (`None` when there is none) and `text` its joined `output_text`.
    """

    failures: tuple[SchemaFailure, ...]
    card: Any = None
    index: int | None = None
    text: str | None = None

    @property
    def ok(self) -> bool:
        return not self.failures

    def __bool__(self) -> bool:
        return self.ok

    def violation_lines(self) -> list[str]:
        """One line per failure (`path (keyword): message`), as `ReplayError` prints them."""
        where = "no message" if self.index is None else f"item {self.index}"
        return [f"{where}: {f.path or '/'} ({f.keyword}): {f.message}" for f in self.failures]


def _items(items: Any) -> list[Mapping[str, Any]]:
    items = plain_json(items, "items")
    if isinstance(items, Mapping) and isinstance(items.get("output"), list):
        items = items["output"]  # a Response object
    if isinstance(items, Mapping) or not isinstance(items, Iterable) or isinstance(items, str | bytes | bytearray):
        got = "null" if items is None else type(items).__name__
        raise ItemError([{"loc": (), "type": "list_type", "msg": f"items must be a list of items, got {got}"}])
    out: list[Mapping[str, Any]] = []
    for n, raw in enumerate(items):
        value = plain_json(raw, f"item {n}")
        if not isinstance(value, Mapping):
            got = "null" if value is None else type(value).__name__
            raise ItemError([{"loc": (n,), "type": "object_type", "msg": f"an item is a JSON object, got {got}"}])
        t = value.get("type")
        if isinstance(t, str) and t.startswith("agent.session.turn.item."):  # an Agents API item event
            inner = value.get("item")
            value = inner if t.endswith(".done") and isinstance(inner, Mapping) else {}
        out.append(value)
    return out


def _is_assistant_message(item: Mapping[str, Any]) -> bool:
    return item.get("type", "message") in ("message", None) and item.get("role") == "assistant"


def _pick(items: list[Mapping[str, Any]]) -> int | None:
    """The last `final_answer` message; else, when no assistant message has a phase, the last one."""
    assistant = [i for i, it in enumerate(items) if _is_assistant_message(it)]
    final = [i for i in assistant if items[i].get("phase") == "final_answer"]
    if final:
        return final[-1]
    if assistant and all(items[i].get("phase") is None for i in assistant):
        return assistant[-1]
    return None


def _fail(keyword: str, message: str, **kw: Any) -> CardCheck:
    return CardCheck((SchemaFailure("", keyword, message),), **kw)


def check_card(items: Any, schema: Any, *, registry: Mapping[str, Any] | None = None) -> CardCheck:
    """Check the result card a turn ended with against the card's JSON Schema.

    `items` is a turn's items (a list; a Response object's `output` is read too) in any form: Responses
    input or output items, Agents API session items or `agent.session.turn.item.done` events, models,
    `openai` SDK objects. The message checked is the last assistant message whose `phase` is
    `final_answer`, or the last assistant message when no assistant message has a phase (a turn whose
    messages are all `commentary` has no final answer: `missing`). Its `output_text` parts (or its
    string content) are joined and parsed as strict JSON; `schema` (a JSON Schema dict or bool, the
    card's own, or a tool in any shape `replayable.check_tool` accepts, whose argument schema is
    used) validates the value. `registry` maps absolute URIs to shared JSON Schemas for `$ref`
    (in-process only: a schema never causes network or file access).

    Returns a `CardCheck` (see there for failure keywords and paths). Text that is not JSON fails with
    keyword `json` whatever the schema, so prose never passes, even under the schema `{}`.

    Raises `ItemError` when `items` is not a list of JSON objects (or an item is not strict JSON,
    see docs/strict-json.md), and
    `replayable.SchemaError` (a `ValueError`) when `schema` is neither a JSON Schema nor a
    known tool shape, is not valid, or refers outside itself (`$ref`/`$schema` to a URL or a file).
    """
    card_schema = read_tool(schema).schema
    compile_schema(card_schema, registry=registry)  # a broken schema is an error whatever the turn holds
    listed = _items(items)
    index = _pick(listed)
    if index is None:
        phased = any(_is_assistant_message(it) for it in listed)
        why = "no assistant message has phase final_answer" if phased else "the turn has no assistant message"
        return _fail("missing", f"no result card: {why}")
    msg = listed[index]
    content = msg.get("content")
    parts: list[Any] = (
        [{"type": "output_text", "text": content}]
        if isinstance(content, str)
        else (content if isinstance(content, list) else [])
    )
    refusals = [p.get("refusal") for p in parts if isinstance(p, Mapping) and p.get("type") == "refusal"]
    texts = [p.get("text") for p in parts if isinstance(p, Mapping) and p.get("type") in ("output_text", "text")]
    text = "".join(t for t in texts if isinstance(t, str))
    status = msg.get("status")
    if status == "incomplete":
        return _fail(
            "incomplete", "the final answer is incomplete (cut off); its card cannot be trusted", index=index, text=text
        )
    if status == "in_progress":
        return _fail(
            "in_progress",
            "the final answer is still in_progress (not finished); its card cannot be trusted",
            index=index,
            text=text,
        )
    if status not in _FINISHED:
        return _fail(
            "status",
            f"the final answer's status is {printable(repr(status))[:80]}, not completed; its card cannot be trusted",
            index=index,
            text=text,
        )
    if refusals:
        said = next((r for r in refusals if isinstance(r, str)), "")
        return _fail("refusal", f"the model refused instead of giving a card: {said[:200]}", index=index, text=text)
    try:
        card = parse_arguments(text)
    except ArgumentsError as exc:
        head = "the final answer has no output_text" if not text.strip() else "the final answer is not a JSON card"
        if text.strip() and exc.reason == "not_json" and text.lstrip()[:1] not in ("{", "[", '"'):
            head = "the final answer is prose, not a JSON card"
        detail = str(exc)  # said of "arguments": say it of the text, verb in the singular
        for plural, singular in _TEXT_VERBS:
            if detail.startswith(plural):
                detail = singular + detail.removeprefix(plural)
                break
        return _fail("json", f"{head} ({exc.reason}): {detail}", index=index, text=text)
    failures = schema_failures(card, card_schema, registry=registry)
    return CardCheck(tuple(failures), card, index, text)
