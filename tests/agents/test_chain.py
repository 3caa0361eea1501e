"""Tests of replayable.agents.link_chain: the session link chain of an Agents API event log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import replayable as rp
from replayable import agents as A

AGENTS = Path(__file__).parent.parent / "fixtures" / "agents"
S22 = json.loads((AGENTS / "S22.json").read_text())["events"]
REQ, RESULT, WRONG_CALL, WRONG_TURN = S22[0], S22[1], S22[2], S22[3]


def log() -> list[dict]:
    text = (AGENTS / "session_stream.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def kinds(links) -> list[tuple[str, str | None]]:
    return [(str(x.kind), x.id) for x in links]


def test_a_recorded_session_links_end_to_end():
    chain = A.link_chain(log())
    assert chain.ok and chain.session_id == "sess_8f21" and chain.pending == ()
    assert kinds(chain.links) == [
        ("agent", "agt_1"),
        ("turn", "turn_2"),
        ("function_call", "call_3c91"),
        ("tool_result", "call_3c91"),
        ("subagent", "sub_1"),
        ("subagent_message", "sc_1"),
        ("subagent_message", "wc_1"),
        ("subagent_message", "am_1"),
        ("subagent_message", "cl_1"),
        ("turn", "turn_3"),
    ]
    call = chain.links[2]
    assert (call.turn_id, call.call_id, call.parent) == ("turn_2", "call_3c91", "turn_2")
    assert chain.links[1].parent == "agt_1" and chain.links[4].parent == "agt_1"


def test_a_result_answers_a_required_action():
    chain = A.link_chain([REQ, RESULT])
    assert chain.ok and chain.session_id == "sess_8f21"
    assert kinds(chain.links) == [("function_call", "call_3c91"), ("tool_result", "call_3c91")]


def test_a_call_without_result_is_pending_not_broken():
    chain = A.link_chain([REQ])
    assert chain.ok and kinds(chain.pending) == [("function_call", "call_3c91")]
    assert chain.pending[0].turn_id == "turn_2"


@pytest.mark.parametrize(
    "events, index, words",
    [
        ([REQ, WRONG_CALL], 1, "no function call"),
        ([REQ, WRONG_TURN], 1, "belongs to turn 'turn_2'"),
        ([REQ, RESULT, dict(RESULT, output="a different answer")], 2, "already answered"),
        ([RESULT, REQ], 0, "no function call"),  # a result before its call answers nothing
        (
            [REQ, {"type": "agent.session.input.tool_result", "call_id": "call_3c91", "success": True, "output": ""}],
            1,
            "turn_id and call_id",
        ),
    ],
)
def test_broken_results(events, index, words):
    chain = A.link_chain(events)
    assert not chain.ok
    assert [(b.event, str(b.kind)) for b in chain.broken] == [(index, "tool_result")]
    assert words in (chain.broken[0].problem or "")


def test_an_output_item_echoing_a_tool_result_is_the_same_result():
    echo = {
        "type": "agent.session.turn.item.done",
        "session_id": "sess_8f21",
        "turn_id": "turn_2",
        "item": {
            "type": "function_call_output",
            "id": "fco_1",
            "turn_id": "turn_2",
            "call_id": "call_3c91",
            "output": "x",
            "status": "completed",
        },
    }
    assert A.link_chain([REQ, RESULT, echo, dict(echo, type="agent.session.turn.item.added")]).ok
    second = dict(echo, item=dict(echo["item"], id="fco_2"))
    chain = A.link_chain([REQ, echo, second])
    assert [b.event for b in chain.broken] == [2]


def test_session_items_on_their_own_are_linked():
    items = [
        {"type": "function_call", "id": "fc_1", "turn_id": "t1", "call_id": "c1", "name": "f", "arguments": {}},
        {"type": "function_call_output", "id": "fco_1", "turn_id": "t1", "call_id": "c1", "output": "ok"},
        {"type": "function_call", "id": "fc_2", "turn_id": "t1", "call_id": "c2", "name": "f", "arguments": {}},
    ]
    chain = A.link_chain(items)
    # history items say a call happened, not that a result is awaited: nothing is pending
    assert chain.ok and chain.pending == ()
    assert ("function_call", "c2") in kinds(chain.links)


def subagent(sid: str, name: str | None = None) -> dict:
    return {
        "type": "agent.session.subagent.created",
        "event_id": "e",
        "subagent": {
            "id": sid,
            "object": "agent.session.subagent",
            "parent_agent_id": "agt_1",
            "session_id": "sess_8f21",
            "name": name,
            "status": "active",
            "opened_at": 0,
        },
    }


def item(kind: str, **fields: object) -> dict:
    return {
        "type": "agent.session.turn.item.done",
        "session_id": "sess_8f21",
        "turn_id": "turn_2",
        "output_index": 0,
        "item": {
            "type": kind,
            "id": f"{kind}_1",
            "turn_id": "turn_2",
            "sender_agent_id": "agt_1",
            "status": "completed",
            **fields,
        },
    }


@pytest.mark.parametrize(
    "kind",
    [
        "send_subagent_input_call",
        "resume_subagent_call",
        "interrupt_subagent_call",
        "close_subagent_call",
        "agent_message",
    ],
)
def test_messages_and_calls_to_subagents(kind):
    assert A.link_chain([subagent("sub_1"), item(kind, recipient_agent_id="sub_1")]).ok
    assert A.link_chain([subagent("sub_1", "stock"), item(kind, recipient_agent_id="stock")]).ok  # by name
    bad = A.link_chain([subagent("sub_1"), item(kind, recipient_agent_id="sub_9")])
    assert [(b.event, str(b.kind), b.parent) for b in bad.broken] == [(1, "subagent_message", "sub_9")]
    assert "sub_9" in (bad.broken[0].problem or "")


def test_a_subagent_must_be_announced_before_it_is_addressed():
    chain = A.link_chain([item("send_subagent_input_call", recipient_agent_id="sub_1"), subagent("sub_1")])
    assert [b.event for b in chain.broken] == [0]


def test_wait_for_subagents_checks_every_recipient():
    chain = A.link_chain([subagent("sub_1"), item("wait_for_subagents_call", recipient_agent_ids=["sub_1", "sub_2"])])
    assert [b.parent for b in chain.broken] == ["sub_2"]
    assert [x.parent for x in chain.links if x.kind is A.LinkKind.SUBAGENT_MESSAGE] == ["sub_1"]


def test_an_agent_message_may_answer_the_parent_agent_but_subagent_calls_may_not_target_it():
    created = {"type": "agent.session.created", "session": {"id": "sess_8f21", "agent": {"id": "agt_1"}}}
    assert A.link_chain([created, item("agent_message", recipient_agent_id="agt_1")]).ok
    assert not A.link_chain([created, item("send_subagent_input_call", recipient_agent_id="agt_1")]).ok


def test_events_that_are_not_objects_are_broken_and_bad_input_raises():
    chain = A.link_chain([REQ, 5, "{bad", RESULT])
    assert [(b.event, str(b.kind)) for b in chain.broken] == [(1, "event"), (2, "event")]
    for bad in (None, 5, REQ):
        with pytest.raises(rp.ItemError):
            A.link_chain(bad)


def test_sdk_objects_are_read():
    beta = pytest.importorskip("openai.types.beta")
    ev = beta.AgentSessionEvent if hasattr(beta, "AgentSessionEvent") else None
    if ev is None:
        pytest.skip("openai.types.beta has no AgentSessionEvent")
    from pydantic import TypeAdapter

    parsed = TypeAdapter(ev).validate_python(log()[0])
    chain = A.link_chain([parsed])
    assert chain.session_id == "sess_8f21" and kinds(chain.links) == [("agent", "agt_1")]


def test_as_dict_is_json():
    d = json.loads(json.dumps(A.link_chain([REQ, RESULT, WRONG_CALL]).as_dict()))
    assert d["session_id"] == "sess_8f21" and d["ok"] is False
    assert [x["kind"] for x in d["links"]] == ["function_call", "tool_result"]
    assert d["broken"][0]["event"] == 2 and "problem" in d["broken"][0]
