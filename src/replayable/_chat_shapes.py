"""Chat Completions shapes where Open Responses ones belong: recognised once, refused with a message that
says how to convert.

A Chat Completions request body (`{model, messages}`) has no Open Responses reading: `messages` is no
field of `CreateResponseBody`, so such a body would be read as a request with no input. The request and
response models, the WebSocket frames and the body reader refuse it here, by one rule. A Chat Completions
message among items (`chat_shape`) or a call nested in a message's content (`nested_call`) is recognised
here too: the reader keeps such an object as JSON, and the rules report it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._validation import ItemError

__all__ = ["CHAT_KEYS", "chat_key", "chat_shape", "nested_call", "refuse_chat_completions_body"]

#: Chat Completions keys that, among a parsed item's unknown fields, make it a shape to report: such a
#: model is checked as its JSON (where `chat_key` sees them), on every path.
CHAT_KEYS = frozenset({"tool_calls", "tool_call_id", "function_call"})


def refuse_chat_completions_body(data: Any) -> None:
    """Raise `ItemError` when `data` (a JSON object) is a Chat Completions request body (`{model,
    messages}`): Open Responses has no `messages` field, so such a body would be read as a request with
    no input (and a server would ignore the messages). The error points to `replayable.from_chat_completions`."""
    if isinstance(data, Mapping) and "messages" in data and "type" not in data:
        raise ItemError(
            [
                {
                    "loc": ("messages",),
                    "type": "chat_completions_body",
                    "msg": "a Chat Completions request body ({model, messages}) is not a Responses request: convert "
                    "its messages with replayable.from_chat_completions(body['messages']) (on the command line: "
                    "replayable convert --from chat-completions FILE) and send them as 'input'",
                }
            ],
            title="invalid request body",
        )


def chat_key(raw: Mapping[str, Any]) -> str | None:
    """The key that makes the JSON object `raw` a Chat Completions shape, or None: `tool_calls` (an
    assistant message with tool calls, on any item), `role` (`tool` or `function`), `tool_call_id`, or
    `function_call` (the legacy field of an assistant message: on an object without `type` or whose
    `type` is `message`; a `function_call` key on another item is that item's own business)."""
    if "tool_calls" in raw:
        return "tool_calls"
    role = raw.get("role")
    if role == "tool" or role == "function":
        return "role"
    if "tool_call_id" in raw:
        return "tool_call_id"
    if "function_call" in raw and raw.get("type") in (None, "message"):
        return "function_call"
    return None


_SHAPES = {
    "tool_calls": "a Chat Completions assistant message with tool_calls",
    "tool_call_id": "a Chat Completions tool message (role 'tool' / tool_call_id)",
    "function_call": "a Chat Completions assistant message with the legacy function_call field",
}


def chat_shape(raw: Mapping[str, Any]) -> str | None:
    """What Chat Completions shape the JSON object `raw` has (a phrase for the message), or None; the
    key that makes it one is `chat_key(raw)` (the finding's field)."""
    key = chat_key(raw)
    if key == "role":
        if raw.get("role") == "function":
            return "a legacy Chat Completions function message (role 'function')"
        return _SHAPES["tool_call_id"]
    return None if key is None else _SHAPES[key]


_NESTED_CALL_TYPES = frozenset({"function_call", "tool_call", "tool_use", "function_call_output", "tool_result"})


def nested_call(raw: Mapping[str, Any]) -> int | None:
    """The index of the first content part of `raw` that is a call or a call's output, or None."""
    content = raw.get("content")
    if isinstance(content, list):
        for j, part in enumerate(content):
            t = part.get("type") if isinstance(part, Mapping) else None
            if isinstance(t, str) and t in _NESTED_CALL_TYPES:
                return j
    return None
