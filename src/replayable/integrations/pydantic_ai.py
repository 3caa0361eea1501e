"""pydantic-ai glue: stored `ModelMessage` lists as items, their check, and a history processor that says
what pydantic-ai would otherwise repair without a word.

```python
from pydantic_ai import Agent
from pydantic_ai.capabilities import ProcessHistory
from replayable.integrations.pydantic_ai import check_history, replay_history_processor

report = check_history(stored_messages)  # a TranscriptReport
agent = Agent(model, capabilities=[ProcessHistory(keep_last_ten), ProcessHistory(replay_history_processor())])
```

`messages_to_items(messages)` reads `pydantic_ai.messages.ModelMessage`s in order: a `ModelRequest`'s
`SystemPromptPart` is a `system` message, a `UserPromptPart` a `user` message (text, and images given by
URL or as binary content), a `ToolReturnPart` (and its `ToolSearchReturnPart` / `LoadCapabilityReturnPart`
kinds) a `function_call_output` for its `tool_call_id` (the text pydantic-ai sends for it), a
`RetryPromptPart` bound to a tool a `function_call_output` (else a `user` message), a
`RetryFeedbackPart` a `user` message; a `ModelResponse`'s `TextPart` is an `assistant` message, a
`ThinkingPart` a `reasoning` item and a `ToolCallPart` (and its kinds) a `function_call` (`arguments` as
pydantic-ai sends them, `args_as_json_str()`). Left out, as pydantic-ai's own history repair leaves them
out of the pairing it repairs: provider-run tool parts (`NativeToolCallPart`, `NativeToolReturnPart`: the
provider pairs them itself) and parts that only carry the run's bookkeeping (`CompactionPart`, the
`*DeltaPart`s, `InstructionBaselinePart`, capability parts). Anything else (a `FilePart`, audio) is
refused with `ItemError` naming the message and part.

`check_history(messages, **check_kwargs)` is `check_transcript(messages_to_items(messages),
**check_kwargs)`.

Before each model request pydantic-ai repairs the history it sends (`pydantic_ai.messages`: a tool
result whose call is gone is removed, a call without a result is given a synthesized one), silently;
a history processor that trims the history (keep the last N messages) is a common way to make such
results. `replay_history_processor(mode="log")`, run last (`ProcessHistory(...)` in the agent's
`capabilities`, after the processors that change the history), checks the history
as it will be sent (calls of the last response may still be answered: pending, not faults) and logs each
finding to the `replayable` logger (`mode="raise"`: refuses with `ReplayError` instead); the messages
pass unchanged.

This module imports `pydantic_ai`: install `replayable[pydantic-ai]`; `import replayable` never imports it.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic_ai.messages import (
    BaseToolCallPart,
    BaseToolReturnPart,
    BinaryContent,
    ImageUrl,
    ModelMessage,
    ModelRequest,
    ModelResponse,
    NativeToolCallPart,
    NativeToolReturnPart,
    RetryFeedbackPart,
    RetryPromptPart,
    SystemPromptPart,
    TextPart,
    ThinkingPart,
    UserPromptPart,
)

from replayable._replay import TranscriptReport, check_transcript
from replayable.integrations._modes import guard_items, unreadable
from replayable.items import ItemError

__all__ = ["check_history", "messages_to_items", "replay_history_processor"]

#: Part kinds that carry the run's bookkeeping, not anything the model reads as an item (pydantic-ai's
#: `part_kind` names).
_BOOKKEEPING = frozenset({
    "compaction", "tool-availability-delta", "capability-load-delta", "model-settings-delta", "instruction-delta",
    "instruction-baseline", "capability", "instruction",
})


def _refuse(index: int, part: int, msg: str) -> ItemError:
    return ItemError([{"loc": (index, "parts", part), "type": "no_item_form", "msg": f"message {index}, part {part}: "
                       f"{msg}"}], "cannot read messages")


def _user_content(content: Any, index: int, part: int) -> Any:
    if isinstance(content, str):
        return content
    out: list[dict[str, Any]] = []
    for piece in content:
        if isinstance(piece, str):
            out.append({"type": "input_text", "text": piece})
        elif isinstance(piece, ImageUrl):
            out.append({"type": "input_image", "image_url": piece.url, "detail": "auto"})
        elif isinstance(piece, BinaryContent) and piece.is_image:
            data = base64.b64encode(piece.data).decode()
            out.append({"type": "input_image", "image_url": f"data:{piece.media_type};base64,{data}", "detail": "auto"})
        else:
            raise _refuse(index, part, f"user content {type(piece).__name__} has no Open Responses form")
    return out


def _request_items(msg: ModelRequest, index: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n, part in enumerate(msg.parts):
        if isinstance(part, SystemPromptPart):
            out.append({"type": "message", "role": "system", "content": part.content})
        elif isinstance(part, UserPromptPart):
            out.append({"type": "message", "role": "user", "content": _user_content(part.content, index, n)})
        elif isinstance(part, NativeToolReturnPart):
            continue  # run at the provider, paired by it
        elif isinstance(part, BaseToolReturnPart):
            out.append({"type": "function_call_output", "call_id": part.tool_call_id,
                        "output": part.model_response_str()})
        elif isinstance(part, RetryPromptPart):  # pyright: ignore[reportDeprecated]
            if part.tool_name is not None:
                out.append({"type": "function_call_output", "call_id": part.tool_call_id,
                            "output": part.model_response()})
            else:
                out.append({"type": "message", "role": "user", "content": part.model_response()})
        elif isinstance(part, RetryFeedbackPart):
            text = part.content if isinstance(part.content, str) else json.dumps(part.content, default=str)
            out.append({"type": "message", "role": "user", "content": text})
        elif getattr(part, "part_kind", None) in _BOOKKEEPING:
            continue
        else:
            raise _refuse(index, n, f"a {getattr(part, 'part_kind', type(part).__name__)!r} part has no Open "
                          "Responses form")
    return out


def _response_items(msg: ModelResponse, index: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n, part in enumerate(msg.parts):
        if isinstance(part, TextPart):
            out.append({"type": "message", "role": "assistant", "content": part.content})
        elif isinstance(part, ThinkingPart):
            out.append({"type": "reasoning", "summary": [{"type": "summary_text", "text": part.content}]})
        elif isinstance(part, NativeToolCallPart | NativeToolReturnPart):
            continue  # run at the provider, paired by it
        elif isinstance(part, BaseToolCallPart):
            out.append({"type": "function_call", "call_id": part.tool_call_id, "name": part.tool_name,
                        "arguments": part.args_as_json_str()})
        elif getattr(part, "part_kind", None) in _BOOKKEEPING:
            continue
        else:
            raise _refuse(index, n, f"a {getattr(part, 'part_kind', type(part).__name__)!r} part has no Open "
                          "Responses form")
    return out


def messages_to_items(messages: Sequence[ModelMessage]) -> list[dict[str, Any]]:
    """pydantic-ai messages as Open Responses input items (JSON), in order (see the module docstring).
    Raises `ItemError` naming the message and part for what has no Open Responses form."""
    if isinstance(messages, str | bytes) or not isinstance(messages, Sequence):
        raise ItemError([{"loc": (), "type": "list_type", "msg": "messages must be a list of pydantic-ai messages"}])
    out: list[dict[str, Any]] = []
    for index, msg in enumerate(messages):
        if isinstance(msg, ModelRequest):
            out.extend(_request_items(msg, index))
        elif isinstance(msg, ModelResponse):
            out.extend(_response_items(msg, index))
        else:
            got = type(msg).__name__
            raise ItemError([{"loc": (index,), "type": "no_item_form",
                              "msg": f"message {index}: a {got} is no pydantic-ai ModelMessage"}])
    return out


def check_history(messages: Sequence[ModelMessage], **check_kwargs: Any) -> TranscriptReport:
    """`check_transcript(messages_to_items(messages), **check_kwargs)`: whether a stored pydantic-ai
    history is replay-safe (indexes into the items). Raises `ItemError` as `messages_to_items` does."""
    return check_transcript(messages_to_items(messages), **check_kwargs)


def replay_history_processor(
    mode: Literal["log", "raise"] = "log", **check_kwargs: Any
) -> Callable[[list[ModelMessage]], list[ModelMessage]]:
    """A pydantic-ai history processor (`Agent(capabilities=[..., ProcessHistory(replay_history_processor())])`,
    run last) that checks the history about to be sent, as `check_history(messages, pending_ok=True,
    **check_kwargs)`, and says what pydantic-ai's own repair would change silently: `mode="log"` logs
    each finding (logger `replayable`), `mode="raise"` refuses with `ReplayError`. The messages pass
    unchanged. Raises `ValueError` for another mode or bad `check_kwargs`."""
    if mode not in ("log", "raise"):
        raise ValueError(f"mode must be 'log' or 'raise' (pydantic-ai repairs the history itself), got {mode!r:.60}")
    kwargs = {"pending_ok": True, **check_kwargs}
    check_transcript([], **kwargs)  # bad arguments fail here

    def replay_check(messages: list[ModelMessage]) -> list[ModelMessage]:
        where = "pydantic-ai history (pydantic-ai would repair it silently)"
        try:
            items = messages_to_items(messages)
        except ItemError as exc:  # a part with no Open Responses form: nothing to check it by
            unreadable(exc, mode=mode, where="pydantic-ai history")
            return messages
        guard_items(items, mode=mode, where=where, **kwargs)
        return messages

    return replay_check
