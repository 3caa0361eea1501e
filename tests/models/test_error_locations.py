"""Error locations are field paths on every door and in both modes.

pydantic names a failing place with its union tags too (`input.0.message.user.content` for a user
message's content: `message` and `user` are the tags a tagged union chose, not fields). The one error
normalizer (`replayable._validation.clean_errors`) turns them into field paths (`input.0.content`) for
every model and mode: OpenAI's `{role, content}` shorthand (whose `type` the reader implies), the spec's
tagged items, the Agents bodies, session items, events and required actions, the WebSocket messages and
`check_transcript`'s JSON Pointers. A rule over a whole object (a model validator: the tool-result rule,
a create body without an agent, `agent_id` in an update, `stream` on a socket) names the field it is about.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import replayable as rp
from replayable import agents as A
from replayable import websocket as W

BAD_PART = {"role": "user", "content": [{"type": "input_text", "text": 5}]}  # the shorthand: no `type`
TYPED_BAD_PART = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": 5}]}
RESPONSE = {"id": "r", "object": "response", "created_at": 1, "model": "m", "status": "completed",
            "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
            "output": [{"type": "message", "id": "m", "status": "completed", "role": "assistant",
                        "content": [{"type": "output_text", "text": 5, "annotations": []}]}]}  # fmt: skip
AGENT_MESSAGE = {"type": "message", "id": "i", "turn_id": "t", "status": "completed", "role": "user",
                 "content": [{"type": "input_text", "text": 5}]}  # fmt: skip

#: (door, call, the value it reads, the locations its error must name)
CASES: list[tuple[str, Callable[[Any], Any], Any, set[tuple[Any, ...]]]] = [
    ("parse_items openai shorthand", lambda v: rp.parse_items(v, provider="openai"), [BAD_PART],
     {(0, "content", 0, "text")}),
    ("parse_items openai shorthand content kind", lambda v: rp.parse_items(v, provider="openai"),
     [{"role": "user", "content": 5}], {(0, "content")}),
    ("parse_items openai shorthand role", lambda v: rp.parse_items(v, provider="openai"),
     [{"role": "critic", "content": "x"}], {(0, "role")}),
    ("parse_items openai assistant part", lambda v: rp.parse_items(v, provider="openai"),
     [{"role": "assistant", "content": [{"type": "input_image", "detail": "high"}]}], {(0, "content", 0, "type")}),
    ("parse_items strict", rp.parse_items, [TYPED_BAD_PART], {(0, "content", 0, "text")}),
    ("parse_items strict text missing", rp.parse_items,
     [{"type": "message", "role": "user", "content": [{"type": "input_text"}]}], {(0, "content", 0, "text")}),
    ("parse_items strict refusal missing", rp.parse_items,
     [{"type": "message", "role": "assistant", "content": [{"type": "refusal"}]}], {(0, "content", 0, "refusal")}),
    ("parse_items strict role missing", rp.parse_items, [{"type": "message", "content": "x"}], {(0, "role")}),
    ("parse_item output openai", lambda v: rp.parse_item(v, side="output", provider="openai"),
     RESPONSE["output"][0], {("content", 0, "text")}),
    ("parse_request openai", lambda v: rp.parse_request(v, provider="openai"), {"input": [BAD_PART]},
     {("input", 0, "content", 0, "text")}),
    ("parse_request strict", rp.parse_request, {"model": "m", "input": [TYPED_BAD_PART]},
     {("input", 0, "content", 0, "text")}),
    ("parse_response openai", lambda v: rp.parse_response(v, provider="openai"), RESPONSE,
     {("output", 0, "content", 0, "text")}),
    ("websocket openai create", lambda v: W.parse_websocket_event(v, provider="openai"),
     {"type": "response.create", "input": [BAD_PART]}, {("input", 0, "content", 0, "text")}),
    ("websocket openai steer", lambda v: W.parse_websocket_event(v, provider="openai"),
     {"type": "response.steer", "previous_response_id": "r", "input": [BAD_PART]},
     {("input", 0, "content", 0, "text")}),
    ("websocket strict create", W.parse_websocket_event, {"type": "response.create", "input": [TYPED_BAD_PART]},
     {("input", 0, "content", 0, "text")}),
    ("agents create", A.parse_create_params,
     {"agent": {"model": "m", "tools": [{"type": "function", "name": 5, "description": "d", "parameters": {}}]},
      "environment": {"type": "none"}}, {("agent", "tools", 0, "name")}),
    ("agents update", A.parse_update_params,
     {"agent": {"tools": [{"type": "function", "name": 5, "description": "d", "parameters": {}}]}},
     {("agent", "tools", 0, "name")}),
    ("agents session item", A.parse_session_item, AGENT_MESSAGE, {("content", 0, "text")}),
    ("agents required action", A.parse_required_action,
     {"type": "function_call", "turn_id": "t", "call_id": "c", "name": 5, "arguments": {}}, {("name",)}),
    ("agents event", A.parse_event,
     {"type": "agent.session.turn.item.done", "event_id": "e", "session_id": "s", "output_index": 0,
      "item": AGENT_MESSAGE}, {("item", "content", 0, "text")}),
    ("agents input", A.parse_input,
     {"type": "agent.session.input.message", "input": [BAD_PART]}, {("input", 0, "content", 0, "text")}),
    ("agents events body", A.parse_events_body,
     {"events": [{"type": "agent.session.input.tool_result", "turn_id": "t", "call_id": "c", "success": "yes",
                  "output": "x"}]}, {("events", 0, "success")}),
    # a rule over a whole object names its field
    ("agents tool result output", A.parse_input,
     {"type": "agent.session.input.tool_result", "turn_id": "t", "call_id": "c", "success": True}, {("output",)}),
    ("agents tool result error", A.parse_input,
     {"type": "agent.session.input.tool_result", "turn_id": "t", "call_id": "c", "success": False}, {("error",)}),
    ("agents events body tool result", A.parse_events_body,
     {"events": [{"type": "agent.session.input.tool_result", "turn_id": "t", "call_id": "c", "success": True}]},
     {("events", 0, "output")}),
    ("agents create without agent", A.parse_create_params, {"environment": {"type": "none"}}, {("agent",)}),
    ("agents update with agent_id", A.parse_update_params, {"agent_id": "a"}, {("agent_id",)}),
]  # fmt: skip


def _resolves(raw: Any, loc: tuple[Any, ...]) -> bool:
    """Every segment but the last (a key that may be missing) is a key or index of the value read: no
    segment is a union tag."""
    node = raw
    for seg in loc[:-1]:
        if isinstance(node, dict) and isinstance(seg, str) and seg in node:
            node = node[seg]
        elif isinstance(node, list) and isinstance(seg, int) and 0 <= seg < len(node):
            node = node[seg]
        else:
            return False
    return True


@pytest.mark.parametrize(("door", "call", "value", "want"), CASES, ids=[c[0] for c in CASES])
def test_errors_name_field_paths(door: str, call: Callable[[Any], Any], value: Any, want: set[Any]) -> None:
    with pytest.raises(rp.ItemError) as err:
        call(value)
    locs = {tuple(e["loc"]) for e in err.value.errors}
    assert want <= locs, f"{door}: {locs}"
    assert all(_resolves(value, loc) for loc in locs), f"{door}: a location is not a field path: {locs}"


@pytest.mark.parametrize(
    ("items", "provider"),
    [([BAD_PART], "openai"), ([TYPED_BAD_PART], None), ([{"type": "message", "role": "user", "content": 5}], None)],
)
def test_check_transcript_points_at_the_field(items: list[Any], provider: str | None) -> None:
    report = rp.check_transcript(items, provider=provider)
    paths = {(v.index, v.path) for v in report.violations if v.code == "item_invalid"}
    want = (0, "/content") if items[0]["content"] == 5 else (0, "/content/0/text")
    assert want in paths, paths


def test_model_constructors_name_the_field_of_an_object_rule() -> None:
    with pytest.raises(rp.ModelError) as err:
        W.WebSocketResponseCreateEvent(model="m", stream=True)  # type: ignore[call-arg]
    assert [e["loc"] for e in err.value.errors] == [("stream",)]
    with pytest.raises(rp.ModelError) as err:
        W.OpenAIWebSocketResponseCreateEvent(model="m", background=True)  # type: ignore[call-arg]
    assert [e["loc"] for e in err.value.errors] == [("background",)]
