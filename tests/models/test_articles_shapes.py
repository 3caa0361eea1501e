"""The articles' own shapes. The check_tool note for bare id-like strings, the multi_agent
note, link_chain through create_subagent_call items in the IDs article's shape, and a session update body
with agent_id refused. (ArgumentCheck.record() is in tests/agents/test_agents_surface.py.)"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import replayable as rp
from replayable import agents as A

FIX = Path(__file__).parent.parent / "fixtures/agents"
S20 = json.loads((FIX / "S20.json").read_text())
EVENTS = [json.loads(line) for line in (FIX / "session_stream.jsonl").open()]


def _tool(props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function", "name": "lookup_order", "strict": True,
            "parameters": {"type": "object", "properties": props, "required": list(props),
                           "additionalProperties": False}}


# ---- check_tool: a note, not a violation, for bare id-like strings


def test_a_bare_identifier_string_is_a_note_not_a_violation() -> None:
    found = rp.check_tool(_tool({"order_id": {"type": "string"}, "include_lines": {"type": "boolean"}}))
    assert found == [] and isinstance(found, rp.ToolFindings)  # no violation: the tool is valid
    assert [(n.code, n.path) for n in found.notes] == [("unconstrained_identifier", "/parameters/properties/order_id")]
    assert "'order_id'" in found.notes[0].message and "pattern" in found.notes[0].message


def test_constrained_or_not_id_like_strings_get_no_note() -> None:
    props = {
        "order_id": {"type": "string", "pattern": "^[A-Z]-\\d{4}$"},  # the article's fix
        "status": {"type": "string", "enum": ["open", "closed"]},
        "customer_uuid": {"type": "string", "format": "uuid"},
        "country_code": {"type": "string", "const": "FR"},
        "note": {"type": "string"},  # not an identifier
        "valid": {"type": "boolean"},
        "order_count": {"type": "integer"},
    }
    assert rp.check_tool(_tool(props)).notes == ()
    assert rp.check_tool(S20["tool"]).notes == ()


@pytest.mark.parametrize(
    ("name", "schema", "path"),
    [
        ("countryCode", {"type": ["string", "null"]}, "/parameters/properties/countryCode"),
        ("tag_ids", {"type": "array", "items": {"type": "string"}}, "/parameters/properties/tag_ids"),
        ("lines", {"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}},
                                               "required": ["sku"], "additionalProperties": False}},
         "/parameters/properties/lines/items/properties/sku"),
    ],
)
def test_notes_reach_nullable_array_and_nested_properties(name: str, schema: dict[str, Any], path: str) -> None:
    found = rp.check_tool(_tool({name: schema}))
    assert found == [] and [n.path for n in found.notes] == [path]


def test_notes_on_every_tool_shape() -> None:
    params = {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"],
              "additionalProperties": False}
    shapes = [
        ({"type": "function", "function": {"name": "f", "parameters": params, "strict": True}},
         "/function/parameters/properties/order_id"),
        ({"name": "f", "inputSchema": params}, "/inputSchema/properties/order_id"),
    ]
    for tool, path in shapes:
        assert [n.path for n in rp.check_tool(tool).notes] == [path]
    assert rp.check_tool({"name": "f"}).notes == ()  # a broken tool: violations only


# ---- multi_agent with function tools: a note


def test_event_log_notes_that_subagents_do_not_get_function_tools() -> None:
    report = A.check_event_log(EVENTS)
    assert report.ok  # a note is not a violation
    assert [(n.code, n.path) for n in report.notes] == [("subagents_without_function_tools", "/session/agent/multi_agent")]
    assert "'lookup_order'" in report.notes[0].message
    assert json.loads(A.format_report(report, "json"))["notes"][0]["code"] == "subagents_without_function_tools"
    assert "note (subagents_without_function_tools)" in A.format_report(report)
    off = copy.deepcopy(EVENTS)
    for ev in off:
        if isinstance(ev.get("session"), dict) and "agent" in ev["session"]:
            ev["session"]["agent"]["multi_agent"]["enabled"] = False
    assert A.check_event_log(off).notes == ()


def test_session_notes_for_create_and_update_bodies_and_sessions() -> None:
    agent = {"model": "gpt-x", "multi_agent": {"enabled": True},
             "tools": [{"type": "function", "name": "refund", "parameters": {"type": "object"}}]}
    create = {"agent": agent, "environment": {"type": "none"}, "input": "hi"}
    assert [(n.code, n.path) for n in A.session_notes(create)] == [
        ("subagents_without_function_tools", "/agent/multi_agent")]
    assert A.session_notes(json.dumps({"agent": agent}))[0].code == "subagents_without_function_tools"
    assert A.session_notes({"agent": {**agent, "tools": [{"type": "web_search"}]}}) == []
    assert A.session_notes({"agent": {**agent, "multi_agent": {"enabled": False}}}) == []
    session = next(e["session"] for e in EVENTS if e["type"] == "agent.session.requires_action")
    assert len(A.session_notes(A.parse_session_snapshot(session))) == 1
    with pytest.raises(rp.ItemError):
        A.session_notes([agent])


# ---- link_chain: create_subagent_call items, and the article's shape


def _spawn(sub: str = "sub_7") -> list[dict[str, Any]]:
    return [
        {"type": "agent.session.created", "session_id": "sess_1", "session": {"id": "sess_1", "agent": {"id": "agt_1"}}},
        {"type": "agent.session.turn.item.done", "session_id": "sess_1", "turn_id": "turn_1",
         "item": {"type": "create_subagent_call", "id": "csc_1", "turn_id": "turn_1", "status": "completed",
                  "agent_id": "agt_1", "content": [], "subagent_id": sub}},
        {"type": "agent.session.turn.item.done", "session_id": "sess_1", "turn_id": "turn_1",
         "item": {"type": "send_subagent_input_call", "id": "ssi_1", "turn_id": "turn_1", "status": "completed",
                  "recipient_agent_id": "sub_7", "content": []}},
    ]


def test_link_chain_follows_create_subagent_call_items() -> None:
    chain = A.link_chain(_spawn())
    assert chain.ok
    sub = [x for x in chain.links if x.kind == "subagent"]
    assert [(x.id, x.parent, x.source) for x in sub] == [("sub_7", "agt_1", "create_subagent_call")]
    assert chain.id_chain() == {
        "session_id": "sess_1",
        "links": [
            {"object": "agent", "id": "agt_1", "via": "agent.session.created"},
            {"object": "subagent", "id": "sub_7", "via": "create_subagent_call"},
            {"object": "subagent_message", "id": "ssi_1", "via": "send_subagent_input_call"},
        ],
    }
    # a call to a subagent that no item or event spawned is still broken
    broken = A.link_chain(_spawn("sub_other")).broken
    assert [(x.kind, x.parent) for x in broken] == [("subagent_message", "sub_7")]
    assert "create_subagent_call" in (broken[0].problem or "")


def test_link_chain_reads_the_item_on_its_own_and_once() -> None:
    item = _spawn()[1]["item"]
    chain = A.link_chain([item, item])
    assert [(x.kind, x.id) for x in chain.links] == [("agent", "agt_1"), ("subagent", "sub_7")]


# ---- a session update body with agent_id


def test_session_update_with_agent_id_is_refused_with_the_reason() -> None:
    assert A.session_update_params_adapter.validate_python({"metadata": {"k": "v"}})
    with pytest.raises(ValueError, match="applies only to new sessions"):
        A.session_update_params_adapter.validate_python({"agent_id": "agt_1", "metadata": {}})
    schema = rp.json_schema("agents-session-update")
    import jsonschema_rs  # the bundle says the same

    validator = jsonschema_rs.validator_for(schema)
    assert validator.is_valid({"metadata": {}}) and not validator.is_valid({"agent_id": "agt_1"})
