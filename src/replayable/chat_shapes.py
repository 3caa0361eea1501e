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

__all__ = ["chat_shape", "nested_call", "refuse_chat_completions_body"]


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
                    "its messages with replayable.from_chat_completions(body['messages']) and send them as 'input'",
                }
            ],
            title="invalid request body",
        )


def chat_shape(raw: Mapping[str, Any]) -> str | None:
    """What Chat Completions shape the JSON object `raw` has (a phrase for the message), or None."""
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


def nested_call(raw: Mapping[str, Any]) -> int | None:
    """The index of the first content part of `raw` that is a call or a call's output, or None."""
    content = raw.get("content")
    if isinstance(content, list):
        for j, part in enumerate(content):
            t = part.get("type") if isinstance(part, Mapping) else None
            if isinstance(t, str) and t in _NESTED_CALL_TYPES:
                return j
    return None
