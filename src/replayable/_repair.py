"""Repairs that are certain: what `check` names and only one rewrite can mean (`replayable prepare`).

`repair_items(values)` takes the JSON values of a history (items as read from a file: dicts) and returns
them with each certain repair made, and a `Repair` for each: what it changed, at which input index, and
the code of the finding it answers. Only two repairs are certain, and only those are made:

- `function_arguments_not_string`: a `function_call` whose `arguments` is a JSON object (the object
  itself, not its text; an array or a number is left alone: no arguments object): it becomes its JSON
  text (`json.dumps`, compact, UTF-8 kept), which is what the spec's `arguments` holds (Open Responses
  "Tool calling": arguments is a string of JSON).
- `chat_completions_envelope`: a Chat Completions message (an assistant message with `tool_calls`, a
  `tool` message with `tool_call_id`) among Responses items: converted by
  `replayable._interop.from_chat_completions` (an assistant message becomes a message and one
  `function_call` per tool call; a tool message a `function_call_output`), with the calls issued before
  it known, so that a tool message may answer a `function_call` item.

Anything else (a message that cannot be converted, a call nested in a message's content, a legacy
`function` message) is left as it is, for `check` and `prepare_replay` to report: a repair is never a
guess. `repair_document` does the same for the items of a request body (`input`) or Response (`output`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ._chat_shapes import chat_key
from ._codes import ViolationCode
from ._interop import from_chat_completions
from .items import ItemError, dump_item

__all__ = ["Repair", "repair_document", "repair_items"]


@dataclass(frozen=True, slots=True)
class Repair:
    """One repair: `index` is the item's index in the input, `code` the finding it answers, `change` what
    was done (one sentence), `made` how many items it became (0 never; 1 for a rewrite in place)."""

    index: int
    code: str
    change: str
    made: int = 1

    def as_dict(self) -> dict[str, Any]:
        """`{"index", "code", "change", "made"}`."""
        return {"index": self.index, "code": self.code, "change": self.change, "made": self.made}


def _arguments(value: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
    args = value.get("arguments")
    if value.get("type") != "function_call" or not isinstance(args, dict):  # an array is no arguments object
        return None
    try:
        text = json.dumps(args, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (ValueError, TypeError, RecursionError):
        return None
    return {**value, "arguments": text}, "function_call arguments given as a JSON object, now its JSON text"


def _chat(value: Mapping[str, Any], calls: list[str]) -> tuple[list[dict[str, Any]], str] | None:
    if value.get("type") not in (None, "message") or chat_key(value) not in ("tool_calls", "role", "tool_call_id"):
        return None
    try:
        items = [dump_item(i) for i in from_chat_completions([value], known_calls=calls)]
    except ItemError:
        return None  # no certain Responses form: left for the check to report
    kinds = ", ".join(str(i.get("type")) for i in items) or "nothing"
    role = value.get("role")
    return items, f"Chat Completions {role} message converted to Responses items ({kinds})"


def repair_items(values: list[Any]) -> tuple[list[Any], list[Repair], list[int]]:
    """The values with every certain repair made (see the module docstring), the repairs in input order,
    and for each returned value the index of the input value it comes from. Values that need no repair
    are returned as they are (the same objects); the input list is not changed."""
    out: list[Any] = []
    repairs: list[Repair] = []
    origin: list[int] = []
    calls: list[str] = []
    for n, value in enumerate(values):
        made: list[Any] = [value]
        if isinstance(value, dict):
            fixed = _arguments(value)
            if fixed is not None:
                made = [fixed[0]]
                repairs.append(Repair(n, str(ViolationCode.FUNCTION_ARGUMENTS_NOT_STRING), fixed[1]))
            else:
                converted = _chat(value, calls)
                if converted is not None:
                    made = converted[0]
                    repairs.append(
                        Repair(n, str(ViolationCode.CHAT_COMPLETIONS_ENVELOPE), converted[1], len(converted[0]))
                    )
        for item in made:
            if isinstance(item, dict) and item.get("type") == "function_call" and isinstance(item.get("call_id"), str):
                calls.append(item["call_id"])
            out.append(item)
            origin.append(n)
    return out, repairs, origin


def repair_document(value: Any) -> tuple[Any, list[Repair], list[int] | None]:
    """`repair_items` on a document's items: a list, a request body's `input` list or a Response's `output`
    list (the document is copied, never changed). Returns the repaired document, the repairs and the
    input index of each repaired item (None when the document holds no list of items)."""
    if isinstance(value, list):
        return repair_items(value)
    if isinstance(value, dict):
        key = "input" if isinstance(value.get("input"), list) else "output"  # a body's, else a Response's
        if isinstance(value.get(key), list):
            items, repairs, origin = repair_items(value[key])
            return ({**value, key: items} if repairs else value), repairs, origin
    return value, [], None
