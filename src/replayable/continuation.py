"""Bodies as transcripts: read the items of a request body or a whole Response, and continuation requests.

`check_transcript` and `prepare_replay` take a request body (`CreateResponseBody`, `CompactRequestBody`,
or its JSON object) or a response (`Response`, `CompactResource`, its JSON object, an `openai` SDK
`Response`) wherever they take a list of items: a request stands for its `input` (a string `input` is
one user message), a response for its `output` (checked as output: an `incomplete` item must be last;
the calls it ends with are pending, waiting to be executed, as with `pending_ok=True`).

A request with `previous_response_id` continues that response: the server's context is the previous
input, then the previous output, then this `input` (spec `CreateResponseBody.previous_response_id`). Its
`function_call_output` items normally answer calls of the previous output. Given `previous=` (that
response, or its `output` list), the check pairs across: the previous output is read first, its own
problems are not reported, and indexes stay those of this request's `input`. Without it, an output whose
call is not in the request is listed in `TranscriptReport.external` (answering a call outside the
request), not reported as `output_without_function_call`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ._base import WireModel
from .chat_shapes import refuse_chat_completions_body
from .items import ItemError, Provider, Side, is_openai_model, plain_json

if TYPE_CHECKING:
    from .replay import TranscriptReport

__all__ = ["Unwrapped", "body_items", "body_tools", "refuse_chat_completions_body", "unwrap"]

#: Keys that mark a JSON object as a request body (it has no `type`, unlike an item).
_REQUEST_KEYS = frozenset({"input", "model", "previous_response_id", "instructions", "tools", "tool_choice"})
_RESPONSE_OBJECTS = frozenset({"response", "response.compaction"})
#: "item 7" in a violation message: an index into the checked list, renumbered for the request's input.
_ITEM_REF = re.compile(r"\bitem (\d+)\b")


def _renumber(message: str, offset: int) -> str:
    def one(m: re.Match[str]) -> str:
        n = int(m.group(1))
        return f"item {n - offset}" if n >= offset else f"item {n} of the previous output"

    return _ITEM_REF.sub(one, message)


def _not_previous(previous: Any) -> ItemError:
    got = "null" if previous is None else type(previous).__name__
    msg = f"previous must be the response this request continues (or its output items), got {got}"
    return ItemError([{"loc": ("previous",), "type": "previous_type", "msg": msg}], "invalid previous response")


def _kind(value: Any) -> str | None:
    """`request`, `response` or None (not a body) for a JSON object or one of our models."""
    if isinstance(value, WireModel):  # only a model can be a body model: the body models load when needed
        from .request import CompactRequestBody, CreateResponseBody
        from .response import CompactResource, Response

        if isinstance(value, CreateResponseBody | CompactRequestBody):
            return "request"
        if isinstance(value, Response | CompactResource):
            return "response"
    if isinstance(value, Mapping) and "type" not in value:
        if "messages" in value and "role" not in value:  # a Chat Completions body: refused by body_items
            return "request"
        if value.get("object") in _RESPONSE_OBJECTS:
            return "response"
        if not _REQUEST_KEYS.isdisjoint(value):
            return "request"
    return None


def body_items(value: Any) -> tuple[list[Any], str | None, bool] | None:
    """For a body, `(items, kind, continues)`: its input or output items (models or raw dicts), `request`
    or `response`, and whether it is a request with a `previous_response_id`. None for anything else.

    Raises `ItemError` when a body's `input` / `output` is neither a list (nor, for `input`, a string)."""
    if isinstance(value, BaseModel) and not isinstance(value, WireModel):
        if not is_openai_model(value):
            return None
        value = plain_json(value)
    kind = _kind(value)
    if kind is None:
        return None
    refuse_chat_completions_body(value)
    if isinstance(value, WireModel):
        data: Any = {k: getattr(value, k) for k in value.model_fields_set}
    else:
        data = value
    key = "input" if kind == "request" else "output"
    raw = data.get(key)
    if raw is None:
        items: list[Any] = []
    elif isinstance(raw, str):
        items = [{"type": "message", "role": "user", "content": raw}]
    elif isinstance(raw, list):
        items = list(raw)
    else:
        got = type(raw).__name__
        raise ItemError([{"loc": (key,), "type": "list_type", "msg": f"'{key}' must be a list of items, got {got}"}])
    continues = kind == "request" and isinstance(data.get("previous_response_id"), str)
    return items, kind, continues


@dataclasses.dataclass(slots=True)
class Unwrapped:
    """What `check_transcript` checks: `items` (the previous output first when one was given, `offset`
    items long), the `side` and `provider` to read them with, and whether `continues` a response."""

    items: list[Any]
    side: Side | None
    provider: Provider
    offset: int = 0
    continues: bool = False
    response: bool = False
    #: the response's own `status` (None when the checked value is not a response or has none)
    status: Any = None

    def finish(self, report: TranscriptReport) -> TranscriptReport:
        """The report in terms of the checked body: violations of the previous output dropped, indexes
        shifted to the request's `input`, unpaired outputs of a continuation listed as `external`."""
        from .replay import Violation, ViolationCode

        off = self.offset
        violations = [
            dataclasses.replace(
                v, index=v.index - off if v.index is not None else None, message=_renumber(v.message, off)
            )
            if off
            else v
            for v in report.violations
            if v.index is None or v.index >= off
        ]
        external: list[int] = []
        if self.continues and off == 0:
            kept = []
            for v in violations:
                if v.code == ViolationCode.OUTPUT_WITHOUT_FUNCTION_CALL and v.index is not None:
                    external.append(v.index)
                else:
                    kept.append(v)
            violations = kept
        last = self._incomplete_last()
        if last is not None:
            violations.append(
                Violation(
                    last,
                    ViolationCode.RESPONSE_NOT_INCOMPLETE,
                    f"the last output item is incomplete, so the response must be incomplete too, but its status "
                    f"is {self.status!r}",
                    "/status",
                )
            )
        return dataclasses.replace(
            report,
            violations=tuple(violations),
            pending=tuple(p - off for p in report.pending if p >= off),
            items=report.items[off:],
            external=tuple(external),
        )


    def _incomplete_last(self) -> int | None:
        """The index of a response's last output item when it is `incomplete` and the response is not."""
        if not self.response or not self.items or not isinstance(self.status, str) or self.status == "incomplete":
            return None
        last = self.items[-1]
        status = last.get("status") if isinstance(last, Mapping) else getattr(last, "status", None)
        return len(self.items) - 1 if status == "incomplete" else None


def _status(value: Any) -> Any:
    if isinstance(value, BaseModel) and not isinstance(value, WireModel):
        value = plain_json(value)
    return value.get("status") if isinstance(value, Mapping) else getattr(value, "status", None)


def unwrap(items: Any, previous: Any, side: Side | None, provider: Provider) -> Unwrapped:
    """Turn what `check_transcript` was given into the list it checks (see the module docstring).

    `items` is a list of items or a body; `previous` is None, a response (any form) or a list of its
    output items. Raises `ValueError` when `items` is neither, or `previous` is not a response or list."""
    continues = is_response = False
    status = None
    if is_openai_model(items):
        provider = "openai"
    items_in = items
    body = body_items(items)
    if body is not None:
        items, kind, continues = body
        if kind == "response" and previous is None:
            status = _status(items_in)
            side = side or "output"
            is_response = True
    elif isinstance(items, str | bytes | bytearray | Mapping) or not isinstance(items, Iterable):
        got = "JSON text" if isinstance(items, str | bytes | bytearray) else type(items).__name__
        raise ItemError(
            [
                {
                    "loc": (),
                    "type": "not_items",
                    "msg": f"items must be a list of items, a request body or a response, got {got}; read JSON "
                    "text with parse_items (or replayable.parse_request / parse_response) first",
                }
            ],
            "cannot check",
        )
    items = list(items)
    if previous is None:
        return Unwrapped(items, side, provider, 0, continues, is_response, status)
    if is_openai_model(previous):
        provider = "openai"
    prev = body_items(previous)
    if prev is not None:
        if prev[1] != "response":
            raise _not_previous(previous)
        before = prev[0]
    elif isinstance(previous, str | bytes | bytearray | Mapping) or not isinstance(previous, Iterable):
        raise _not_previous(previous)
    else:
        before = list(previous)
    return Unwrapped(before + items, side, provider, len(before), continues)


def body_tools(body: Any) -> tuple[list[Any] | None, Any]:
    """A request body's own function tools (hosted tools left out; None when it has none) and its
    `tool_choice` when that is an `allowed_tools` choice (else None: no limit). The command line reads a
    body the same way, so a body gets one verdict from the library, the hooks and the CLI."""
    if isinstance(body, Mapping):  # a dict body is read as it is: only its tools are looked at here
        data: Any = body
    else:
        try:
            data = plain_json(body, "request body")
        except ItemError:
            return None, None
    if not isinstance(data, Mapping):
        return None, None
    tools = data.get("tools")
    usable = [t for t in tools if isinstance(t, Mapping) and t.get("type") in (None, "function")] if isinstance(
        tools, list
    ) else []
    choice = data.get("tool_choice")
    allowed = choice if isinstance(choice, Mapping) and choice.get("type") == "allowed_tools" else None
    return usable or None, allowed
