"""Type-checked with `mypy --strict` by tests/interop/test_languages.py, never run: parsed values narrow by `type`.

The idiom for items: set the namespaced (`slug:name`) branch aside with `isinstance` first, since its
`type` is any `slug:name` string; then a comparison of `type` (or a `match` on the class) narrows to one
model. Agents events set `UnknownSessionEvent` aside the same way, stream events `ExtensionEvent`.
No casts, no `Any`, no `# type: ignore`.
"""

from __future__ import annotations

from collections.abc import Iterable

import replayable as rp
from replayable import agents, stream


def output_calls(body: bytes) -> list[tuple[str, str, str]]:
    """(call_id, name, arguments) of every finished function_call of a response's output."""
    calls: list[tuple[str, str, str]] = []
    for item in rp.parse_items(body, side="output"):  # list[OutputItem]: output forms only
        if isinstance(item, rp.NamespacedItem):
            continue  # a provider's own item: not portable, never executed
        if item.type == "function_call" and item.status == "completed":
            calls.append((item.call_id, item.name, item.arguments))
    return calls


def output_text(item: rp.OutputItem) -> str:
    if isinstance(item, rp.NamespacedItem):
        return ""
    if item.type == "message":
        return "".join(part.text for part in item.content if part.type == "output_text")
    if item.type == "function_call_output":
        return item.output if isinstance(item.output, str) else ""
    return ""


def input_summary(text: str) -> str:
    item = rp.parse_item(text)  # side="input" by default: InputItem
    if isinstance(item, rp.NamespacedItem):
        return "extension " + item.type
    if isinstance(item, rp.ItemReferenceParam):
        return "reference to " + item.id
    if item.type == "message":
        if item.role == "assistant":
            return "assistant said something"
        return item.role + " message"
    if item.type == "function_call":
        return f"call {item.name}({item.arguments}) as {item.call_id}"
    if item.type == "function_call_output":
        return "answer to " + item.call_id
    if item.type == "reasoning":
        return f"{len(item.summary)} summary parts"
    return "compaction " + item.encrypted_content


def answered(lines: Iterable[str]) -> set[str]:
    """call_ids answered in a JSONL transcript, read one item at a time."""
    out: set[str] = set()
    for item in rp.iter_items(lines, side="input"):
        match item:
            case rp.FunctionCallOutputParam(call_id=call_id):
                out.add(call_id)
            case _:
                pass
    return out


def session_ids(events: Iterable[str]) -> list[str]:
    out: list[str] = []
    for text in events:
        event = agents.parse_event(text)
        if isinstance(event, agents.UnknownSessionEvent):
            continue  # kept verbatim, never acted on
        if event.type == "agent.session.created":
            out.append(event.event_id)
        elif event.type == "agent.session.requires_action":
            actions = event.session.required_actions
            if isinstance(actions, list):  # absent (MISSING) when the event left it out
                out += [action.type for action in actions]
    return out


def streamed_arguments(events: Iterable[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for text in events:
        event = stream.parse_event(text)
        if isinstance(event, stream.ExtensionEvent):
            continue  # a provider's own event: clients may ignore it
        if event.type == "response.function_call_arguments.done":
            out[event.item_id] = event.arguments
    return out
