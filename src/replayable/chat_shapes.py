"""Chat Completions shapes where Open Responses ones belong: recognised once, refused with a message that
says how to convert.

A Chat Completions request body (`{model, messages}`) has no Open Responses reading: `messages` is no
field of `CreateResponseBody`, so such a body would be read as a request with no input. The request and
response models, the WebSocket frames and the body reader refuse it here, by one rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._validation import ItemError

__all__ = ["refuse_chat_completions_body"]


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
