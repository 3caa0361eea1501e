"""LangChain and LangGraph glue: LangChain messages as items, a middleware that checks every model call of
a `langchain.agents.create_agent` agent, and an audit of a thread's checkpoints.

```python
from langchain.agents import create_agent
from replayable.integrations.langchain import ReplayCheckMiddleware

agent = create_agent(model, tools, middleware=[ReplayCheckMiddleware()])
```

`messages_to_items(messages)` reads LangChain messages (`langchain_core.messages`) of every
`output_version` (`v0`, `responses/v1`, `v1`: each message's standard `content_blocks`) into Open
Responses items, nothing dropped silently: a `SystemMessage` / `HumanMessage` / `AIMessage` /
`ChatMessage` is a `message` (`system`, `user`, `assistant`, its role; text blocks as text, a user's
image with a URL or base64 data as `input_image`); an `AIMessage`'s reasoning blocks are `reasoning`
items and each call one `function_call` (`call_id` its `id`, `arguments` its `args` as JSON), in block
order, its `tool_calls` and its `invalid_tool_calls` alike (an invalid call keeps the `args` text it
came with, so the `ToolMessage` that answered it still has its call, unlike
`langchain_core.messages.convert_to_openai_messages`, which drops it); a `ToolMessage` is a
`function_call_output` for its `tool_call_id`. What has no Open Responses form (a server tool call, a
provider's non-standard block, audio, a `RemoveMessage`) is refused with `ItemError` naming the message
index and the block, never left out.

`ReplayCheckMiddleware(mode="raise", interrupted_output=None, **check_kwargs)` checks the messages of
every model call (sync and async) with `check_transcript(messages_to_items(...), **check_kwargs)` before
the model is called; `mode` (`replayable.integrations._modes`): `"raise"` refuses with `ReplayError`,
`"repair"` sends the messages that `prepare_replay` keeps (a dropped call is taken out of its
`AIMessage`'s `tool_calls` / `invalid_tool_calls`, a message left with nothing is left out; with
`interrupted_output`, an interrupted call is answered by a `ToolMessage` saying so), logging each change,
and `"log"` sends them unchanged and logs each finding.

`audit_checkpoints(checkpointer, thread_id)` walks a LangGraph thread's checkpoints from the oldest and
returns the first whose `messages` stopped being replay-safe (calls still awaiting their tool results
are pending, not faults), or None.

This module imports `langchain_core` (and `langchain` for the middleware): install
`replayable[langchain]`; `import replayable` never imports it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import AIMessage, ChatMessage, HumanMessage, SystemMessage, ToolMessage

from replayable._replay import TranscriptReport, check_transcript
from replayable.integrations._modes import Mode, check_mode, guard_items, unreadable
from replayable.items import ItemError

__all__ = ["CheckpointReport", "ReplayCheckMiddleware", "audit_checkpoints", "messages_to_items"]


def _refuse(index: int, loc: tuple[Any, ...], kind: str, msg: str) -> ItemError:
    return ItemError([{"loc": (index, *loc), "type": kind, "msg": f"message {index}: {msg}"}], "cannot read messages")


@dataclass(frozen=True, slots=True)
class _Origin:
    """Where an item came from: the message's index, and for a call its `id`."""

    message: int
    call_id: str | None = None


def _text_of(block: dict[str, Any]) -> str:
    return str(block.get("text", ""))


def _user_part(block: dict[str, Any], index: int, n: int) -> dict[str, Any]:
    kind = block.get("type")
    if kind == "text":
        return {"type": "input_text", "text": _text_of(block)}
    if kind == "image":
        if isinstance(block.get("url"), str):
            return {"type": "input_image", "image_url": block["url"], "detail": "auto"}
        if isinstance(block.get("base64"), str):
            mime = block.get("mime_type") or "image/png"
            return {"type": "input_image", "image_url": f"data:{mime};base64,{block['base64']}", "detail": "auto"}
    raise _refuse(index, ("content", n), "no_item_form", f"a {kind!r} content block has no Open Responses form")


def _arguments(args: Any) -> str:
    if isinstance(args, str):
        return args
    return json.dumps(args if args is not None else {}, ensure_ascii=False, separators=(",", ":"))


def _call(call_id: Any, name: Any, arguments: str) -> dict[str, Any]:
    item: dict[str, Any] = {"type": "function_call", "name": name, "arguments": arguments}
    if call_id is not None:
        item["call_id"] = call_id
    return item


def _ai_items(msg: AIMessage, index: int) -> list[tuple[dict[str, Any], _Origin]]:
    out: list[tuple[dict[str, Any], _Origin]] = []
    text: list[str] = []
    seen: set[Any] = set()

    def flush() -> None:
        if text:
            out.append(({"type": "message", "role": "assistant", "content": "".join(text)}, _Origin(index)))
            text.clear()

    for n, block in enumerate(msg.content_blocks):
        kind = block.get("type")
        if kind == "text":
            text.append(_text_of(dict(block)))
        elif kind == "reasoning":
            flush()
            reasoning: dict[str, Any] = {"type": "reasoning", "summary": []}
            if block.get("reasoning"):
                reasoning["summary"] = [{"type": "summary_text", "text": str(block.get("reasoning"))}]
            out.append((reasoning, _Origin(index)))
        elif kind in ("tool_call", "invalid_tool_call", "tool_call_chunk"):
            flush()
            call_id = block.get("id")
            seen.add(call_id)
            item = _call(call_id, block.get("name"), _arguments(block.get("args")))
            out.append((item, _Origin(index, call_id)))
        else:
            raise _refuse(index, ("content", n), "no_item_form", f"a {kind!r} content block has no Open Responses form")
    flush()
    for call in msg.tool_calls:  # calls the content blocks do not carry (a `v1` message built by hand)
        if call.get("id") not in seen:
            seen.add(call.get("id"))
            out.append((_call(call.get("id"), call["name"], _arguments(call["args"])), _Origin(index, call.get("id"))))
    for bad in msg.invalid_tool_calls:  # kept: the ToolMessage that answered it still has its call
        if bad.get("id") not in seen:
            seen.add(bad.get("id"))
            item = _call(bad.get("id"), bad.get("name"), _arguments(bad.get("args") or ""))
            out.append((item, _Origin(index, bad.get("id"))))
    return out


def _items_of(messages: Sequence[Any]) -> list[tuple[dict[str, Any], _Origin]]:
    out: list[tuple[dict[str, Any], _Origin]] = []
    for index, msg in enumerate(messages):
        if isinstance(msg, AIMessage):
            out.extend(_ai_items(msg, index))
        elif isinstance(msg, ToolMessage):
            blocks = msg.content_blocks
            if any(b.get("type") != "text" for b in blocks):
                kinds = sorted({str(b.get("type")) for b in blocks if b.get("type") != "text"})
                raise _refuse(index, ("content",), "no_item_form", f"a tool message's {kinds} blocks are not text")
            output = {"type": "function_call_output", "call_id": msg.tool_call_id,
                      "output": "".join(_text_of(dict(b)) for b in blocks)}
            out.append((output, _Origin(index)))
        elif isinstance(msg, SystemMessage | HumanMessage | ChatMessage):
            role = "system" if isinstance(msg, SystemMessage) else "user" if isinstance(msg, HumanMessage) else msg.role
            blocks = msg.content_blocks
            if all(b.get("type") == "text" for b in blocks):
                content: Any = "".join(_text_of(dict(b)) for b in blocks)
            else:
                content = [_user_part(dict(b), index, n) for n, b in enumerate(blocks)]
            out.append(({"type": "message", "role": role, "content": content}, _Origin(index)))
        else:
            got = type(msg).__name__
            raise _refuse(index, (), "no_item_form", f"a {got} has no Open Responses form")
    return out


def messages_to_items(messages: Sequence[Any]) -> list[dict[str, Any]]:
    """LangChain messages as Open Responses input items (JSON), in order (see the module docstring).
    Raises `ItemError` naming the message index for a message or block with no Open Responses form."""
    if isinstance(messages, str | bytes) or not isinstance(messages, Sequence):
        raise ItemError([{"loc": (), "type": "list_type", "msg": "messages must be a list of LangChain messages"}])
    return [item for item, _ in _items_of(list(messages))]


# --- the middleware ---------------------------------------------------------------------------------------


def _repaired_messages(
    messages: list[Any], origins: list[_Origin], kept: Sequence[int], interrupted_output: str | None
) -> list[Any]:
    """The messages that hold the kept items: a call left out is taken out of its AIMessage; a call kept
    twice in `kept` (with its added output) is answered by a ToolMessage right after its message."""
    counts: dict[int, int] = {}
    for i in kept:
        counts[i] = counts.get(i, 0) + 1
    out: list[Any] = []
    for index, msg in enumerate(messages):
        mine = [n for n, o in enumerate(origins) if o.message == index]
        if not any(n in counts for n in mine):
            continue  # every item of the message was left out
        if isinstance(msg, AIMessage):
            keep_ids = {origins[n].call_id for n in mine if n in counts and origins[n].call_id is not None}
            dropped_ids = {origins[n].call_id for n in mine if n not in counts and origins[n].call_id is not None}
            if dropped_ids:
                msg = msg.model_copy(update={
                    "tool_calls": [c for c in msg.tool_calls if c.get("id") in keep_ids],
                    "invalid_tool_calls": [c for c in msg.invalid_tool_calls if c.get("id") in keep_ids],
                    "content": msg.content if isinstance(msg.content, str) else [
                        b for b in msg.content
                        if not (isinstance(b, dict) and b.get("type") in ("tool_call", "function_call")
                                and (b.get("id") or b.get("call_id")) in dropped_ids)
                    ],
                })
            out.append(msg)
            for n in mine:
                if counts.get(n, 0) > 1 and interrupted_output is not None:
                    out.append(ToolMessage(content=interrupted_output, tool_call_id=str(origins[n].call_id),
                                           status="error"))
        else:
            out.append(msg)
    return out


class ReplayCheckMiddleware(AgentMiddleware):
    """Check the messages of every model call of a `create_agent` agent (see the module docstring).

    `mode`: `"raise"`, `"repair"` or `"log"`; `interrupted_output`: in `repair` mode, the text of the
    `ToolMessage` that answers a call whose run was interrupted (else such a call is dropped);
    `check_kwargs` go to `check_transcript` (`tools=`, `target=`, ...). Raises `ValueError` for a bad
    `mode` or `check_kwargs`."""

    def __init__(self, mode: Mode = "raise", *, interrupted_output: str | None = None, **check_kwargs: Any) -> None:
        super().__init__()
        self.mode: Mode = check_mode(mode)
        self.interrupted_output = interrupted_output
        self.check_kwargs = check_kwargs
        check_transcript([], **check_kwargs)  # bad arguments fail here, not at the first model call

    def _checked(self, request: ModelRequest) -> ModelRequest:
        messages = list(request.messages)
        if request.system_message is not None:
            messages = [request.system_message, *messages]
        try:
            pairs = _items_of(messages)
        except ItemError as exc:  # a message with no Open Responses form: nothing to check it by
            unreadable(exc, mode=self.mode, where="model call")
            return request
        guarded = guard_items(
            [item for item, _ in pairs], mode=self.mode, where="model call", interrupted_output=self.interrupted_output,
            **self.check_kwargs,
        )
        if guarded.replay is None:
            return request
        repaired = _repaired_messages(messages, [o for _, o in pairs], guarded.replay.kept, self.interrupted_output)
        if request.system_message is not None:
            repaired = [m for m in repaired if m is not request.system_message]
        return request.override(messages=repaired)

    def wrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], ModelResponse],
    ) -> ModelResponse:
        """Check (or repair) the request's messages, then call the model."""
        return handler(self._checked(request))

    async def awrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], Awaitable[ModelResponse]],
    ) -> ModelResponse:
        """The async form of `wrap_model_call`."""
        return await handler(self._checked(request))


# --- checkpoints ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CheckpointReport:
    """The first checkpoint of a thread whose history is not replay-safe: `checkpoint_id`, its `step`
    (LangGraph's metadata; None when absent), `position` (0 for the thread's oldest checkpoint) and the
    `report` of its messages (indexes into `messages_to_items` of them)."""

    checkpoint_id: str
    step: int | None
    position: int
    report: TranscriptReport

    def __str__(self) -> str:
        lines = "\n".join(f"  {line}" for line in self.report.violation_lines())
        return f"checkpoint {self.checkpoint_id} (step {self.step}) is the first not replay-safe:\n{lines}"


def audit_checkpoints(checkpointer: Any, thread_id: str, **check_kwargs: Any) -> CheckpointReport | None:
    """Walk the checkpoints of LangGraph thread `thread_id` in `checkpointer` (any `BaseCheckpointSaver`:
    `InMemorySaver`, `SqliteSaver`, ...) from the oldest, checking the `messages` channel of each with
    `check_transcript(messages_to_items(messages), pending_ok=True, **check_kwargs)` (calls awaiting
    their tool results at the end are pending, not faults). Returns the first `CheckpointReport`, or None
    when every checkpoint is replay-safe. Raises `ItemError` (a `ValueError`) for messages with no Open
    Responses form, naming the checkpoint."""
    checkpoints = list(checkpointer.list({"configurable": {"thread_id": thread_id}}))
    checkpoints.reverse()  # newest first, as LangGraph lists them
    kwargs = {"pending_ok": True, **check_kwargs}
    for position, snapshot in enumerate(checkpoints):
        messages = (snapshot.checkpoint.get("channel_values") or {}).get("messages") or []
        checkpoint_id = str(snapshot.config["configurable"].get("checkpoint_id"))
        try:
            items = messages_to_items(messages)
        except ItemError as exc:
            raise ItemError(exc.errors, f"checkpoint {checkpoint_id}: cannot read messages") from None
        report = check_transcript(items, **kwargs)
        if not report.ok:
            step = (snapshot.metadata or {}).get("step")
            return CheckpointReport(checkpoint_id, step if isinstance(step, int) else None, position, report)
    return None

